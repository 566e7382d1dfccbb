"""The browser's Kings Corner engine (kcsolve/corner/web/engine.mjs) plays by the Python engine's rule book.

For every variant, 2,000 random hands played by the Python engine are replayed in node: at every step the
player to move, the stock, the hand and the legal moves (in the engine's order) must agree, and so must the
reasons illegal moves are refused, the result and the penalties. Records, hands and games, get the same
verdicts from both engines.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from clitools import need_node
from corner_cases import VARIANTS, cases, move_of

from kcsolve.corner.game.engine import seeded_deck
from kcsolve.corner.game.rules import parse_corner_rules
from kcsolve.corner.records.record import CornerRecord, corner_from_json, game_of, judge_any, replay_corner, result_of
from kcsolve.errors import KcsolveError

HERE = Path(__file__).parent
HANDS_PER_VARIANT = 2_000


def _node() -> str:
    """The node executable, or the test is skipped."""
    node = need_node("the JavaScript engine")
    return node


def _run(script: str, data_file: Path) -> tuple[dict[str, Any], int]:
    """A checker's JSON summary and exit status."""
    done = subprocess.run(
        [_node(), str(HERE / "js" / script), str(data_file)], check=False, capture_output=True, text=True, timeout=300
    )
    assert done.stdout, done.stderr
    return json.loads(done.stdout), done.returncode


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_javascript_engine_plays_every_hand_as_python_does(variant: str, tmp_path: Path) -> None:
    """One variant a test, so that pytest-xdist shares the variants' Python hands among its workers."""
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(cases(variant, HANDS_PER_VARIANT), separators=(",", ":")) + "\n", encoding="utf-8")
    summary, code = _run("corner_check.mjs", path)
    [found] = summary["variants"]
    assert found["variant"] == variant and found["checked"] == HANDS_PER_VARIANT and found["probes"] > 1_000
    assert found["mismatched"] == 0, found["mismatches"]
    assert code == 0


def test_every_option_value_is_among_the_variants() -> None:
    rules = [parse_corner_rules(v) for v in VARIANTS]
    assert {r.draw for r in rules} == {"end", "start"} and {r.under for r in rules} == {"no", "yes", "strict"}
    assert {r.dealt_kings for r in rules} == {"corner", "stay"} and {r.scoring for r in rules} == {"standard", "aces"}
    assert all(any(getattr(r, flag) for r in rules) for flag in ("until_play", "draw_two", "draw_three", "tie"))


def test_the_check_catches_a_wrong_step_and_a_wrong_reason(tmp_path: Path) -> None:
    _node()
    data = cases("under=yes", 6)
    data["hands"][0]["crc"] ^= 1
    data["hands"][1]["result"]["penalties"][0] += 1
    probed = next(hand for hand in data["hands"][2:] if hand["probes"])
    probed["probes"][0][2] += "!"
    (tmp_path / "cases.jsonl").write_text(json.dumps(data) + "\n" + json.dumps(cases("default", 3)) + "\n")
    summary, code = _run("corner_check.mjs", tmp_path / "cases.jsonl")
    assert code == 1 and [found["mismatched"] for found in summary["variants"]] == [3, 0]


def _broken(record: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """A good record made wrong: cut short, a move changed, a claim changed, another deal number, a bad field."""
    moves = record["moves"]
    changed = list(moves)
    at = rng.randrange(len(moves))
    changed[at] = str(move_of(rng.randrange(865)))
    claim = json.loads(json.dumps(record["result"]))
    claim["penalties"][0] += 1
    return [
        {
            **{key: value for key, value in record.items() if key != "result"},
            "moves": moves[: rng.randrange(len(moves))],
        },
        {**record, "moves": changed},
        {**record, "result": claim},
        {**record, "result": {**record["result"], "winners": []}},
        {**record, "seed": int(record["seed"]) + 1},
        {**record, "players": 5},
        {**record, "lead": 7},
        {**record, "extra": 1},
        {key: value for key, value in record.items() if key != "moves"},
    ]


def _verdict(data: dict[str, Any]) -> tuple[bool, str]:
    """What kcsolve corner verify says of a record's JSON object: its verdict, or why it is not a record."""
    try:
        return judge_any(corner_from_json(data, "record"))
    except KcsolveError as exc:
        return False, f"invalid: {exc}"


def _record_cases() -> list[dict[str, Any]]:
    """Hand records good and broken, and games to the target, under several variants."""
    rng = random.Random(56)
    found: list[dict[str, Any]] = []
    for variant in VARIANTS[::2]:
        rules = parse_corner_rules(variant)
        data = cases(variant, 12, start=1)
        for hand in data["hands"]:
            seed = int(hand["seed"])
            moves = tuple(move_of(m) for m in hand["moves"])
            record = CornerRecord(seeded_deck(seed), hand["players"], rules, moves, seed, hand["result"]).to_json()
            found += [record, *_broken(record, rng)]
        players = rng.choice((2, 3, 4))
        played = cases(variant, 60, start=2)["hands"]
        same = [hand for hand in played if hand["players"] == players]
        deals, hand_moves, totals = [], [], [0] * players
        for number, hand in enumerate(same):
            if max(totals) >= rules.target:
                break
            deals.append(int(hand["seed"]))
            hand_moves.append(tuple(move_of(m) for m in hand["moves"]))
            seat_points = hand["result"]["penalties"]  # engine seat 0 is the hand's lead
            totals = [t + seat_points[(p - number) % players] for p, t in enumerate(totals)]
        game = game_of(players, rules, deals, hand_moves).to_json()
        found += [game, {**game, "hands": game["hands"][:-1]}, {**game, "result": {"totals": [0] * players}}]
    return found


def test_records_get_the_verdicts_kcsolve_corner_verify_gives(tmp_path: Path) -> None:
    _node()
    records = _record_cases()
    lines = []
    for record in records:
        good, verdict = _verdict(record)
        lines.append(json.dumps({"text": json.dumps(record), "good": good, "verdict": verdict}))
    (tmp_path / "records.jsonl").write_text("\n".join(lines) + "\n")
    summary, code = _run("records_check.mjs", tmp_path / "records.jsonl")
    verdicts = [json.loads(line)["verdict"] for line in lines]
    kinds = {v.split()[0] for v in verdicts}
    assert {"illegal", "unfinished", "invalid:", "deal", "the"} <= kinds, kinds
    assert sum(json.loads(line)["good"] for line in lines) >= 20
    assert summary["checked"] == len(records) and summary["mismatched"] == 0, summary["mismatches"]
    assert code == 0


def test_a_record_the_page_writes_is_one_kcsolve_corner_verify_accepts(tmp_path: Path) -> None:
    node = _node()
    script = (
        f'const e = await import("{(HERE.parents[2] / "kcsolve/corner/web/engine.mjs").as_posix()}");\n'
        "const rules = e.parseRules('tie=yes+under=yes');\n"
        "const deck = e.seededDeck(12n);\n"
        "let p = e.dealHand(deck, 3, rules); const moves = [];\n"
        "while (!p.over) { const legal = e.legalMoves(p); const m = legal[0]; moves.push(m); p = e.playMove(p, m); }\n"
        "const hand = e.writeRecord({deck, players: 3, rules, moves, seed: 12, result: e.resultOf(p)});\n"
        "const game = e.writeGame(3, rules, [{deck, moves, seed: 12}]);\n"
        "console.log(JSON.stringify({hand, game}));\n"
    )
    (tmp_path / "write.mjs").write_text(script)
    done = subprocess.run([node, str(tmp_path / "write.mjs")], check=True, capture_output=True, text=True, timeout=60)
    written = json.loads(done.stdout)
    good, verdict = _verdict(written["hand"])
    assert good, verdict
    record = corner_from_json(written["hand"], "record")
    assert isinstance(record, CornerRecord) and record.to_json() == written["hand"]
    assert written["game"]["hands"][0]["result"] == result_of(replay_corner(record).final)
    assert _verdict(written["game"])[1].startswith("unfinished: after 1 hand")  # one hand reaches no target
