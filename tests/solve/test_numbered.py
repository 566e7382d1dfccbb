"""Numbered deals decided one after another (``solve --count``): the decks, the records, the tally, the order."""

from __future__ import annotations

import pytest

from kcsolve.common.deal import deal
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve import numbered
from kcsolve.patience.solve.numbered import Tally, numbered_deck, numbered_record, solve_numbered
from kcsolve.patience.solve.route import Solution, Verdict, solve


def test_a_numbered_deck_is_the_deal_or_the_pysol_game() -> None:
    assert numbered_deck(7) == deal(7)
    pysol = pytest.importorskip("kcsolve.patience.pysol")
    pytest.importorskip("pysol_cards")
    assert numbered_deck(7, pysol=True) == pysol.pysol_deal(7)


def test_a_numbered_record_names_its_number() -> None:
    solution = solve(deal(3), STANDARD)
    assert numbered_record(solution, 3).to_json()["seed"] == 3
    assert numbered_record(solution, 3, pysol=True).to_json()["pysol"] == 3
    assert "seed" not in numbered_record(solution, 3, pysol=True).to_json()


def test_solving_a_range_gives_each_deal_in_order_counted_before_it_is_given() -> None:
    tally = Tally()
    asked: list[tuple[int, int]] = []
    seen = []
    for number, solution in solve_numbered(5, 4, STANDARD, tally=tally, before=lambda n, p: asked.append((n, p))):
        seen.append((number, solution.result))
        assert sum((tally.win, tally.loss, tally.unknown)) == len(seen)
    assert asked == [(5, 1), (6, 2), (7, 3), (8, 4)]
    assert seen == [(n, solve(deal(n), STANDARD).result) for n in range(5, 9)]
    assert (tally.win, tally.loss, tally.unknown) == (
        sum(r is Verdict.WIN for _, r in seen),
        sum(r is Verdict.LOSS for _, r in seen),
        0,
    )


def test_an_undecided_deal_is_tallied_as_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def undecided(deck, rules, method, budget):  # type: ignore[no-untyped-def]
        return Solution(deck, rules, "unknown", (), "budget 7 ran out", {"method": "dfs", "nodes": 7, "seconds": 0.0})

    monkeypatch.setattr(numbered, "solve", undecided)
    tally = Tally()
    assert [n for n, _ in solve_numbered(0, 3, STANDARD, tally=tally)] == [0, 1, 2]
    assert (tally.win, tally.loss, tally.unknown) == (0, 0, 3)
