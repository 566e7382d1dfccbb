"""Daily deals: one winnable deal per calendar date, with a measured difficulty and grade.

The mapping date -> deal depends only on the date and the rules: candidate
number k of a date is the deal number given by the first 8 bytes (big-endian) of
SHA-256 of the text ``kcsolve-daily|RULES|YYYY-MM-DD|k``, for k = 0, 1, 2, ...
The first candidate that the exact solver proves winnable is the deal of the
day. With ``ramp``, the first winnable candidate whose grade is the one the
weekday asks for (Monday easiest, Sunday hardest) is taken instead. Nothing
depends on timing or budgets: the solver is exact and the difficulty is a
seeded measurement.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from itertools import count

from ..common.cards import Card
from ..common.deal import deal
from .policy import Difficulty
from .rules import Rules
from .selfplay import MEASURE_PLAYOUTS, measure
from .solver import Solution, solve

GRADES = ("easy", "medium", "hard", "fiendish")
# Cut points on the difficulty key (win chance, court cards placed on average) at the
# 75th, 50th and 25th percentiles of the first 1,000 winnable seeded deals under standard
# rules: python scripts/grade_cuts.py
GRADE_CUTS: tuple[tuple[float, float], ...] = ((0.25, 8.5), (0.0, 7.625), (0.0, 5.125))
# The grade each weekday asks for under --ramp (Monday is 0).
RAMP = ("easy", "easy", "medium", "medium", "hard", "hard", "fiendish")


def candidate_seed(day: dt.date, rules: Rules, attempt: int) -> int:
    """Deal number of candidate ``attempt`` for ``day``: SHA-256 of 'kcsolve-daily|RULES|DATE|k', first 8 bytes."""
    text = f"kcsolve-daily|{rules}|{day.isoformat()}|{attempt}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def grade(difficulty: Difficulty) -> str:
    """The named grade of a measured difficulty."""
    for name, cut in zip(GRADES, GRADE_CUTS):
        if difficulty.key >= cut:
            return name
    return GRADES[-1]


@dataclass(frozen=True)
class DailyDeal:
    """The deal of one date: its number, deck, difficulty, grade and winning line."""

    date: dt.date
    seed: int
    rules: Rules
    deck: tuple[Card, ...]
    difficulty: Difficulty
    grade: str
    solution: Solution


def daily(day: dt.date, rules: Rules, ramp: bool = False, playouts: int = MEASURE_PLAYOUTS) -> DailyDeal:
    """The deal of ``day``: the first winnable candidate (of the weekday's grade, with ``ramp``).

    ``playouts``: games of the strong player per deal measured (fewer is faster
    and rougher; the calendar uses the default).
    """
    wanted = RAMP[day.weekday()] if ramp else None
    for attempt in count():
        seed = candidate_seed(day, rules, attempt)
        deck = deal(seed)
        solution = solve(deck, rules)
        if solution.result != "win":
            continue
        difficulty = measure(deck, rules, seed, playouts)
        named = grade(difficulty)
        if wanted is None or named == wanted:
            return DailyDeal(day, seed, rules, deck, difficulty, named, solution)
    raise AssertionError("unreachable: count() never ends")
