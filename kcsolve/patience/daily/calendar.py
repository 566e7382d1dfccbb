"""Daily deals: one winnable deal per calendar date, with a measured difficulty and grade.

The mapping date -> deal depends only on the date and the rules: candidate
number k of a date is the deal number given by the first 8 bytes (big-endian) of
SHA-256 of the text ``kcsolve-daily|RULES|YYYY-MM-DD|k``, for k = 0, 1, 2, ...
The first candidate that the exact solver proves winnable is the deal of the
day. With ``ramp``, the first winnable candidate whose grade is the one the
weekday asks for (Monday easiest, Sunday hardest) is taken instead; if none of
the first :data:`RAMP_CANDIDATES` winnable candidates has it (under rules far
harder than standard an easy deal is rare), the one among them whose grade is
nearest is taken, the earliest on a tie, and its own grade is shown. Nothing
depends on timing: the solver is exact and the difficulty is a seeded
measurement whose searches count positions.

The deal taken is also graded as a face-up puzzle: how far ahead a player who
sees the stock in order must look to win it
(:func:`kcsolve.patience.players.lookahead.lookahead`, seeded by the deal number).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count
from typing import Any

from kcsolve.common.cards import Card
from kcsolve.common.deal import deal
from kcsolve.patience.daily.dates import check_day
from kcsolve.patience.players.difficulty import DIFFICULTY_IS, PLAYOUTS, PROGRESS_IS, Difficulty, measure
from kcsolve.patience.players.lookahead import lookahead
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.route import Solution, Verdict, solve

GRADES = ("easy", "medium", "hard", "fiendish")
# The lowest chance of each grade but the last: the 75th, 50th and 25th percentiles of the
# chance over the first 200 winnable seeded deals under standard rules, to two figures
# (python scripts/tools/grade_cuts.py --deals 200). Every rule set is graded on the same scale.
GRADE_CUTS: tuple[float, ...] = (0.079, 0.0049, 0.00014)
# The grade each weekday asks for under --ramp (Monday is 0).
RAMP = ("easy", "easy", "medium", "medium", "hard", "hard", "fiendish")
RAMP_CANDIDATES = 32  # winnable candidates measured at most for one date under --ramp
MAX_ATTEMPT = 1 << 20  # far more candidates than a date ever needs (a winnable one comes within a few)
LOOKAHEAD_IS = (
    "the fewest of the next 0, 1, 2, 4, 8 or 16 cards of the stock that the deep player must see, in order, "
    "at every move to win the deal face up; all: only the whole stock"
)


def candidate_seed(day: dt.date, rules: Rules, attempt: int) -> int:
    """Deal number of candidate ``attempt`` for ``day``: SHA-256 of 'kcsolve-daily|RULES|DATE|k', first 8 bytes."""
    text = f"kcsolve-daily|{rules}|{day.isoformat()}|{attempt}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def attempt_of(day: dt.date, rules: Rules, seed: int) -> int:
    """Which candidate of ``day`` deal number ``seed`` is; ValueError if none of the first MAX_ATTEMPT."""
    for attempt in range(MAX_ATTEMPT):
        if candidate_seed(day, rules, attempt) == seed:
            return attempt
    raise ValueError(f"deal {seed} is not among the first {MAX_ATTEMPT:,} candidates of {day.isoformat()}")


def grade(difficulty: Difficulty) -> str:
    """The named grade of a measured difficulty."""
    for name, cut in zip(GRADES, GRADE_CUTS):
        if difficulty.chance >= cut:
            return name
    return GRADES[-1]


@dataclass(frozen=True)
class DailyDeal:
    """The deal of one date: its number, deck, difficulty, grade and winning line, and its face-up puzzle's grade.

    ``face_up_lookahead`` is how many cards ahead a face-up player must see to
    win (:func:`kcsolve.patience.players.lookahead.lookahead`); None: the whole stock.
    """

    date: dt.date
    seed: int
    rules: Rules
    deck: tuple[Card, ...]
    difficulty: Difficulty
    grade: str
    solution: Solution
    face_up_lookahead: int | None

    def to_json(self, measured: bool = False, solution: bool = True) -> dict[str, Any]:
        """The deal as JSON: date, number, rules, deck, difficulty, grades; how they were measured; its winning line."""
        found: dict[str, Any] = {
            "date": self.date.isoformat(),
            "seed": self.seed,
            "rules": str(self.rules),
            "deck": [str(c) for c in self.deck],
            "difficulty": self.difficulty.chance,
            "difficulty_interval": list(self.difficulty.interval()),
            "difficulty_is": DIFFICULTY_IS,
        }
        if measured:
            found |= {
                "playouts": self.difficulty.playouts,
                "progress": self.difficulty.progress,
                "progress_is": PROGRESS_IS,
            }
        found["grade"] = self.grade
        found["face_up_lookahead"] = "all" if self.face_up_lookahead is None else self.face_up_lookahead
        if measured:
            found["face_up_lookahead_is"] = LOOKAHEAD_IS
        if solution:
            found["solution"] = self.solution.record(seed=self.seed).to_json()
        return found


def daily(
    day: dt.date,
    rules: Rules,
    ramp: bool = False,
    playouts: int = PLAYOUTS,
    on_candidate: Callable[[int], None] | None = None,
) -> DailyDeal:
    """The deal of ``day``: the first winnable candidate (of the weekday's grade, or the nearest, with ``ramp``).

    ``playouts``: steered games per deal measured (fewer is faster and rougher;
    the calendar uses the default). ``on_candidate`` is told the number of each
    winnable candidate (1, 2, ...) before it is measured.
    """
    check_day(day)
    wanted = RAMP[day.weekday()] if ramp else None
    found: list[tuple[int, Difficulty, Solution]] = []
    for attempt in count():
        seed = candidate_seed(day, rules, attempt)
        solution = solve(deal(seed), rules)
        if solution.result is not Verdict.WIN:
            continue
        if on_candidate is not None:
            on_candidate(len(found) + 1)
        found.append((seed, measure(solution.deck, rules, seed, playouts, solution=solution), solution))
        if wanted is None or grade(found[-1][1]) == wanted:
            return dealt(day, *found[-1])
        if len(found) == RAMP_CANDIDATES:
            return dealt(day, *found[nearest([grade(difficulty) for _, difficulty, _ in found], wanted)])
    raise AssertionError("unreachable: count() never ends")


def dealt(day: dt.date, seed: int, difficulty: Difficulty, solution: Solution) -> DailyDeal:
    """The deal of ``day`` once chosen: graded, and graded as a face-up puzzle (only the deal taken)."""
    rules = solution.rules
    face_up = lookahead(solution.deck, rules, seed)
    return DailyDeal(day, seed, rules, solution.deck, difficulty, grade(difficulty), solution, face_up)


def nearest(grades: list[str], wanted: str) -> int:
    """Which of the candidates' ``grades`` is nearest to ``wanted`` (its index), the earliest on a tie."""
    return min(range(len(grades)), key=lambda k: abs(GRADES.index(grades[k]) - GRADES.index(wanted)))
