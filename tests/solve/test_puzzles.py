"""The named decks in puzzles/ say true things about themselves, and the order counting is exact."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest

from kcsolve.common.cards import parse_deck
from kcsolve.common.deal import deal
from kcsolve.patience.record import judge
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import solve
from kcsolve.patience.solve.theory import count_winning_orders, trajectory

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
STANDARD = parse_rules("standard")


@pytest.mark.parametrize(
    "name, result, ending",
    [
        ("sample-game", "win", "won: the twelfth court card"),
        ("counter-intuitive", "win", "won: the twelfth court card"),
        ("hardest-to-decide", "win", "won: the twelfth court card"),
        ("jam-at-once", "loss", "lost: grid full with nothing to remove after card 16"),
    ],
)
def test_puzzle_solves_as_its_comment_says(name: str, result: str, ending: str) -> None:
    """Each puzzle file is a valid deck whose verdict replays through the engine."""
    deck = parse_deck((PUZZLES / f"{name}.txt").read_text())
    solution = solve(deck, STANDARD)
    assert solution.result == result
    assert str(judge(solution.record())).startswith(ending)


def test_sample_game_puzzle_extends_the_sample_game(golden: Path) -> None:
    """The sample puzzle starts with the 40 cards of the sample game, then the unseen 12."""
    deck = parse_deck((PUZZLES / "sample-game.txt").read_text())
    record = json.loads((golden / "sample_game.json").read_text())
    assert [str(c) for c in deck[:40]] == record["deck"][:40]
    assert Counter(str(c) for c in deck[40:]) == Counter(record["deck"][40:])
    header = (PUZZLES / "sample-game.txt").read_text()
    wins, total = count_winning_orders([c.rank for c in deck[:40]], [c.rank for c in deck[40:]], STANDARD)
    assert f"{total:,} distinct orders" in header and f"{wins:,} ({wins / total:.2%})" in header


def _open_after(cards: int, rules, wanted: int) -> list[list[int]]:
    """Rank lists of the first seeded deals whose forced course is still going after ``cards`` cards."""
    found = []
    seed = 0
    while len(found) < wanted:
        ranks = [c.rank for c in deal(seed)]
        try:
            count_winning_orders(ranks[:cards], ranks[cards:], rules)
            found.append(ranks)
        except ValueError:
            pass
        seed += 1
    return found


@pytest.mark.long
@pytest.mark.parametrize("preset", ["standard", "deplete"])
def test_count_winning_orders_matches_enumeration(preset: str) -> None:
    """The dynamic programme counts exactly the distinct orders of the last 8 cards that win."""
    rules = parse_rules(preset)
    outcomes = set()
    for ranks in _open_after(44, rules, 12):
        known, unseen = ranks[:44], ranks[44:]
        orders = set(permutations(unseen))
        brute = sum(trajectory(known + list(o), rules).won for o in orders)
        assert count_winning_orders(known, unseen, rules) == (brute, len(orders))
        outcomes.add(0 < brute < len(orders))
    assert True in outcomes  # at least one deal where the order of the last cards matters
