"""Numbered deals decided one after another: deal numbers or PySolFC games, each solution as it comes, the tally.

What ``kcsolve solve --seed N --count M`` (or ``--pysol N --count M``) runs; the
command only prints each deal's line and the tally.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from kcsolve.common.budget import Budget
from kcsolve.common.cards import Card
from kcsolve.common.deal import deal
from kcsolve.patience.pysol import pysol_deal
from kcsolve.patience.record import Record
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.route import solve
from kcsolve.patience.solve.solution import Solution, Verdict


def numbered_deck(number: int, pysol: bool = False) -> tuple[Card, ...]:
    """The deck of deal ``number``, or with ``pysol`` of PySolFC's Camelot game ``number``."""
    return pysol_deal(number) if pysol else deal(number)


def number_key(pysol: bool = False) -> str:
    """The record's key naming a numbered deal: ``pysol`` for a PySolFC game, ``seed`` for a deal number."""
    return "pysol" if pysol else "seed"


def numbered_record(solution: Solution, number: int, pysol: bool = False) -> Record:
    """The game record of a numbered deal's solution, naming its deal number (or PySolFC game number)."""
    return solution.record(**{number_key(pysol): number})


@dataclass
class Tally:
    """How many deals of a run are winnable, lost and undecided."""

    win: int = 0
    loss: int = 0
    unknown: int = 0

    def add(self, result: Verdict) -> None:
        """Count one deal's verdict."""
        setattr(self, result.value, getattr(self, result.value) + 1)


def solve_numbered(
    start: int,
    count: int,
    rules: Rules,
    method: str = "auto",
    budget: Budget | None = None,
    pysol: bool = False,
    tally: Tally | None = None,
    before: Callable[[int, int], None] | None = None,
) -> Iterator[tuple[int, Solution]]:
    """Decide the ``count`` numbered deals from ``start`` one by one, each given with its number once decided.

    ``tally`` counts each verdict before its deal is given; ``before`` is called with a deal's number and its
    place in the run (from 1) before it is solved.
    """
    for place, number in enumerate(range(start, start + count), start=1):
        if before is not None:
            before(number, place)
        solution = solve(numbered_deck(number, pysol), rules, method, budget)
        if tally is not None:
            tally.add(solution.result)
        yield number, solution
