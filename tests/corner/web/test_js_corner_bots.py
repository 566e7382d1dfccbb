"""The browser's Kings Corner bots (kcsolve/corner/web/bots.mjs) choose as Python's do, each from its own view.

greedy and turn are deterministic: over hands played by Python's bots under every variant (a few a variant in
the default suite, 60 in the slow one), node asks its own bot in each seat for every move and must get the
Python bot's. search samples with its own generator, so it
is checked for deciding from its view alone and for playing whole hands.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from clitools import need_node
from corner_cases import VARIANTS, bot_hand

from kcsolve.corner.game.rules import parse_corner_rules

HERE = Path(__file__).parent
ENGINE = (HERE.parents[2] / "kcsolve" / "corner" / "web").as_posix()
HANDS_DEFAULT = 4  # a few hands a variant in the default suite: Python's turn bot is the cost
HANDS_SLOW = 60


def _node() -> str:
    """The node executable, or the test is skipped."""
    node = need_node("the JavaScript bots")
    return node


def _bot_cases(path: Path, hands: int) -> None:
    """``hands`` hands a variant played by Python's greedy and turn bots, 2 to 4 seats, a line per variant."""
    with path.open("w", encoding="utf-8") as out:
        for variant in VARIANTS:
            rules = parse_corner_rules(variant)
            rng = random.Random(f"bots/{variant}")
            played = []
            for _ in range(hands):
                names = tuple(rng.choice(("greedy", "turn")) for _ in range(rng.choice((2, 3, 4))))
                played.append(bot_hand(rules, names, rng.randrange(2**64)))
            data = {"variant": variant, "rules": rules.to_json(), "hands": played}
            out.write(json.dumps(data, separators=(",", ":")) + "\n")


def _check_bots(tmp_path: Path, hands: int) -> None:
    """Every variant's bot hands checked by one node process: every move the Python bot's, every result the same."""
    node = _node()
    _bot_cases(tmp_path / "cases.jsonl", hands)
    done = subprocess.run(
        [node, str(HERE / "js" / "bots_check.mjs"), str(tmp_path / "cases.jsonl")],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.stdout, done.stderr
    summaries = json.loads(done.stdout)["variants"]
    assert [found["variant"] for found in summaries] == list(VARIANTS)
    for found in summaries:
        assert found["checked"] == hands and found["moves"] > 10 * hands, found
        assert found["mismatched"] == 0, found
    assert done.returncode == 0


def test_greedy_and_turn_make_the_python_bots_moves_in_a_few_hands(tmp_path: Path) -> None:
    _check_bots(tmp_path, HANDS_DEFAULT)


@pytest.mark.slow
def test_greedy_and_turn_make_the_python_bots_moves(tmp_path: Path) -> None:
    _check_bots(tmp_path, HANDS_SLOW)


SEARCH_CHECK = """
const e = await import("ENGINE/engine.mjs");
const b = await import("ENGINE/bots.mjs");
// Two deals that differ only in two cards hidden from seat 0: its view, and so the search bot's moves, agree.
const out = [];
for (let seed = 0; seed < 6; seed++) {
  const deck = e.seededDeck(BigInt(seed));
  const other = deck.slice();
  [other[1], other[40]] = [other[40], other[1]];  // a card of seat 1's hand and one of the stock
  const rules = e.parseRules(seed % 2 ? "under=yes+tie=yes" : "default");
  let p = e.dealHand(deck, 2, rules), q = e.dealHand(other, 2, rules);
  const mine = [b.makeBot("search", 7), b.makeBot("search", 7)];
  let same = true, moves = 0;
  while (p.player === 0 && !p.over && moves < 60) {
    const a = mine[0].choose(b.viewOf(p, 0)), c = mine[1].choose(b.viewOf(q, 0));
    same = same && e.actionOf(a) === e.actionOf(c) && JSON.stringify(b.viewOf(p, 0)) === JSON.stringify(b.viewOf(q, 0));
    p = e.playMove(p, a); q = e.playMove(q, c); moves++;
  }
  const seats = [b.makeBot("search", 1), b.makeBot("greedy"), b.makeBot("turn")];
  let r = e.dealHand(deck, 3, rules);
  while (!r.over) r = e.playMove(r, seats[r.player].choose(b.viewOf(r)));
  out.push({ same, moves, over: r.over, winners: r.winners });
}
console.log(JSON.stringify(out));
"""


def test_search_decides_from_its_view_and_plays_whole_hands(tmp_path: Path) -> None:
    node = _node()
    (tmp_path / "search.mjs").write_text(SEARCH_CHECK.replace("ENGINE", ENGINE))
    done = subprocess.run([node, str(tmp_path / "search.mjs")], check=True, capture_output=True, text=True, timeout=300)
    found = json.loads(done.stdout)
    assert all(hand["same"] and hand["moves"] >= 1 for hand in found), found
    assert all(hand["over"] and hand["winners"] for hand in found)
