"""The browser's rules engine (web/engine.mjs) agrees with the Python engine, verdict for verdict."""

from __future__ import annotations

import json
import random
import subprocess
from itertools import product
from pathlib import Path

import pytest
from clitools import need_node, run, unwrapped, write

from kcsolve.common.cards import Card, parse_card
from kcsolve.common.deal import deal
from kcsolve.patience.engine import Place, Position, Remove
from kcsolve.patience.record import Record, RecordedPlace, judge, record_from_moves
from kcsolve.patience.rules import AXES, parse_rules
from kcsolve.patience.solve.route import solve

CHECK = Path(__file__).parent / "js" / "engine_check.mjs"
# every one of the 36 rule sets, named by its four axes
RULE_SETS = tuple(
    "+".join(f"{axis}={option.value}" for axis, option in zip(AXES, combo)) for combo in product(*AXES.values())
)
SEEDS_PER_RULES = 7


def _random_game(position: Position, rng: random.Random) -> list:
    """Legal moves chosen at random until the game ends."""
    moves = []
    while legal := position.legal_moves():
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return moves


def _broken(record: Record, rng: random.Random) -> list[Record]:
    """Records made wrong on purpose: a placement moved, a removal changed, a card misnamed, a truncation."""
    entries = list(record.moves)
    made = [Record(record.deck, record.rules, "unknown", tuple(entries[: rng.randrange(len(entries) + 1)]))]
    places = [n for n, e in enumerate(entries) if isinstance(e, RecordedPlace)]
    removes = [n for n, e in enumerate(entries) if isinstance(e, Remove)]
    if places:
        n = rng.choice(places)
        moved = list(entries)
        moved[n] = RecordedPlace(entries[n].card, rng.randrange(16))  # type: ignore[union-attr]
        made.append(Record(record.deck, record.rules, "unknown", tuple(moved)))
        misnamed = list(entries)
        misnamed[n] = RecordedPlace(parse_card(rng.choice(["KS", "5H", "TD", "QC", "AS"])), entries[n].cell)  # type: ignore[union-attr]
        made.append(Record(record.deck, record.rules, "unknown", tuple(misnamed)))
    if removes:
        n = rng.choice(removes)
        changed = list(entries)
        changed[n] = Remove(tuple(rng.sample(range(16), rng.choice([1, 2, 2, 3]))))
        made.append(Record(record.deck, record.rules, "unknown", tuple(changed)))
    else:
        early = list(entries)
        early.insert(rng.randrange(len(entries) + 1), Remove((rng.randrange(16),)))
        made.append(Record(record.deck, record.rules, "unknown", tuple(early)))
    return made


def _cases() -> list[Record]:
    """Wins and losses from the solver, random games, and broken records, under several rule sets."""
    rng = random.Random(14)
    records: list[Record] = []
    for text in RULE_SETS:
        rules = parse_rules(text)
        for seed in range(SEEDS_PER_RULES):
            deck = deal(seed) if seed % 5 else tuple(Card(c.rank) for c in deal(seed))  # some decks give ranks only
            solution = solve(deck, rules)
            line = solution.moves if solution.result == "win" else solution.best_line()
            solved = record_from_moves(deck, rules, list(line), solution.result)
            played = record_from_moves(deck, rules, _random_game(Position.start(deck, rules), rng), "unknown")
            records += [solved, played, *_broken(solved, rng), *_broken(played, rng)]
    return records


@pytest.mark.slow
def test_the_javascript_engine_gives_every_verdict_the_python_engine_gives(tmp_path: Path) -> None:
    node = need_node("the JavaScript engine")
    records = _cases()
    verdicts = [str(judge(r)) for r in records]
    for record, verdict in list(zip(records, verdicts))[::75]:  # the verdicts are those `kcsolve verify` prints
        shown = run("verify", write(tmp_path, record.to_json()))
        assert unwrapped(shown.stdout)[0].split(" (the record claims")[0] == verdict  # wrapped at 80 columns
        assert shown.exit_code == (0 if verdict.startswith("won") else 1)
    kinds = {v.split(":")[0].split()[0] for v in verdicts}
    assert len(records) >= 2000 and kinds == {"won", "lost", "unfinished", "illegal"}
    assert len({str(r.rules) for r in records}) == len(RULE_SETS) == 36
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        "".join(json.dumps({"record": r.to_json(), "verdict": v}) + "\n" for r, v in zip(records, verdicts))
    )
    checked = subprocess.run([node, str(CHECK), str(cases)], check=False, capture_output=True, text=True, timeout=120)
    summary = json.loads(checked.stdout)
    assert summary["checked"] == len(records)
    assert summary["mismatched"] == 0, summary["mismatches"]
    assert checked.returncode == 0


def test_the_check_catches_a_wrong_verdict(tmp_path: Path) -> None:
    node = need_node("the JavaScript engine")
    deck = deal(3)
    record = record_from_moves(deck, parse_rules("standard"), [Place(5)], "unknown")
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"record": record.to_json(), "verdict": "won: claimed"}) + "\n")
    checked = subprocess.run([node, str(CHECK), str(cases)], check=False, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 1 and json.loads(checked.stdout)["mismatched"] == 1
