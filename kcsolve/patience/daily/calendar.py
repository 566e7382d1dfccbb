"""Daily deals: one winnable deal per calendar date, chosen and graded by its honest chance.

The mapping date -> deal depends only on the date and the rules: candidate
number k of a date is the deal number given by the first 8 bytes (big-endian) of
SHA-256 of the text ``kcsolve-daily|RULES|YYYY-MM-DD|k``, for k = 0, 1, 2, ...
A candidate qualifies when the exact solver proves it winnable and its honest
chance (:mod:`kcsolve.patience.players.honest`: plain seeded games of the
exploring deep player) is above 0. Without ``ramp`` the first qualifying
candidate is the deal of the day; with ``ramp`` (the default of ``daily`` and
``site``), the first whose chance lies in :data:`TAKE` for the grade the weekday
asks for (Monday easiest, Sunday hardest): the whole grade on hard and fiendish
days, its upper part on easy and medium ones. The grades are absolute, the same
for every rule set: easy at least 50%, medium at least 25%, hard at least 10%,
fiendish less.

Measuring a chance takes seconds, so a winnable candidate is measured only when
its cheap chance (compiled exploring quick games, microseconds each) lies in
the window of :data:`CHEAP_WINDOWS` where the wanted grade is plausible (under
rules the quick player does not model, every winnable candidate is). At most
:data:`RAMP_CANDIDATES` are measured; if none qualifies, the first of them whose
chance lies in the wanted grade is taken (on an easy or medium day, a deal low in
its grade), else the one above 0 whose grade is nearest (the earliest on a tie),
shown with its own grade, or, when every one measured 0, the first. Under
standard rules every date of 2027 got its weekday's grade
(scripts/tools/make_daily.py checks it). Nothing depends on timing: the solver
is exact and the games are seeded.

The deal taken is also graded as a face-up puzzle: how far ahead a player who
sees the stock in order must look to win it
(:func:`kcsolve.patience.players.lookahead.lookahead`, seeded by the deal number).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kcsolve.common.cards import Card
from kcsolve.common.deal import deal
from kcsolve.patience.daily.dates import check_day
from kcsolve.patience.players.honest import DIFFICULTY_IS, GAMES, Difficulty, cheap_chance, measure, measure_within
from kcsolve.patience.players.lookahead import lookahead
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.route import Solution, Verdict, solve

GRADES = ("easy", "medium", "hard", "fiendish")
# The lowest honest chance of each grade but the last (fiendish: below 10% and above 0), for every rule set.
GRADE_CUTS: tuple[float, ...] = (0.5, 0.25, 0.1)
# The grade each weekday asks for under --ramp (Monday is 0).
RAMP = ("easy", "easy", "medium", "medium", "hard", "hard", "fiendish")
# The cheap chances (low, high) at which a candidate is measured for each grade, and for a date without --ramp:
# read from the first winnable candidates of 2026 dates (python scripts/tools/calibrate_honest.py; docs/PLAYERS.md).
CHEAP_WINDOWS: dict[str | None, tuple[float, float]] = {
    "easy": (0.1, 1.0),
    "medium": (0.03, 1.0),
    "hard": (0.01, 1.0),
    "fiendish": (0.0005, 0.05),
    None: (0.0, 1.0),
}
# The honest chances [low, high) each grade takes (a deal of the day measures above 0), and a date without --ramp.
WITHIN: dict[str | None, tuple[float, float]] = {
    "easy": (GRADE_CUTS[0], 2.0),
    "medium": (GRADE_CUTS[1], GRADE_CUTS[0]),
    "hard": (GRADE_CUTS[2], GRADE_CUTS[1]),
    "fiendish": (1e-9, GRADE_CUTS[2]),
    None: (1e-9, 2.0),
}
# The honest chances [low, high) a date takes for the grade it asks for: the upper part of easy and of medium.
# A careful player's chance is lower than that of the hints' player, who does not err: on 2027's calendar of the
# whole grades (commit 6301d15) the hints' player won 77% of easy days and 56% of medium ones, about 80% of those
# from 65% and from 37.5% up (docs/PLAYERS.md, "Choosing the deal"). A player who plays on easy and medium days
# should win most of them; the grade still names the whole band the deal's chance lies in.
TAKE: dict[str | None, tuple[float, float]] = WITHIN | {"easy": (0.65, 2.0), "medium": (0.375, GRADE_CUTS[0])}
RAMP_CANDIDATES = 64  # candidates measured at most for one date (then the first of the grade, or the nearest)
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
    """The named grade of a measured honest chance (fiendish: below 10%; a deal of the day measures above 0)."""
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
            found |= {"playouts": self.difficulty.playouts, "wins": self.difficulty.wins}
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
    ramp: bool = True,
    games: int = GAMES,
    on_candidate: Callable[[int], None] | None = None,
) -> DailyDeal:
    """The deal of ``day``: the first qualifying candidate (of the weekday's grade, or the nearest, with ``ramp``).

    ``games``: plain games per candidate measured (fewer is faster and rougher,
    and below 11 a fiendish chance, above 0 and below 10%, cannot be met; the
    calendar uses the default). ``on_candidate`` is told the number of each
    candidate (1, 2, ...) before it is measured.
    """
    check_day(day)
    wanted = RAMP[day.weekday()] if ramp else None
    low, high = CHEAP_WINDOWS[wanted]
    found: list[tuple[int, Solution]] = []
    for attempt in range(MAX_ATTEMPT):
        seed = candidate_seed(day, rules, attempt)
        solution = solve(deal(seed), rules)
        if solution.result is not Verdict.WIN:
            continue
        cheap = cheap_chance(solution.deck, rules, seed)
        if cheap is not None and not low <= cheap <= high:
            continue
        if on_candidate is not None:
            on_candidate(len(found) + 1)
        difficulty = measure_within(solution.deck, rules, seed, *TAKE[wanted], games=games)
        if difficulty is not None:
            return dealt(day, seed, difficulty, solution)
        found.append((seed, solution))
        if len(found) == RAMP_CANDIDATES:
            return fallback(day, found, wanted, games)
    raise ValueError(f"no deal of {day.isoformat()} under {rules} qualifies among {MAX_ATTEMPT:,} candidates")


def dealt(day: dt.date, seed: int, difficulty: Difficulty, solution: Solution) -> DailyDeal:
    """The deal of ``day`` once chosen: graded, and graded as a face-up puzzle (only the deal taken)."""
    rules = solution.rules
    face_up = lookahead(solution.deck, rules, seed)
    return DailyDeal(day, seed, rules, solution.deck, difficulty, grade(difficulty), solution, face_up)


def fallback(day: dt.date, found: list[tuple[int, Solution]], wanted: str | None, games: int) -> DailyDeal:
    """The deal when no candidate measured qualified: the first of the wanted grade; else, of those above 0, the
    nearest grade's; else the first.

    The candidates are measured in full one by one, and the first of the wanted grade ends the search: on an easy
    or medium day whose first candidates hold no deal in the upper part of the grade, that is the first of the
    whole grade, found without measuring the rest.
    """
    measured: list[Difficulty] = []
    for seed, solution in found:
        measured.append(measure(solution.deck, solution.rules, seed, games))
        if wanted is not None and measured[-1].chance > 0 and grade(measured[-1]) == wanted:
            return dealt(day, seed, measured[-1], solution)
    above = [k for k, difficulty in enumerate(measured) if difficulty.chance > 0]
    k = above[nearest([grade(measured[k]) for k in above], wanted or GRADES[0])] if above else 0
    return dealt(day, found[k][0], measured[k], found[k][1])


def nearest(grades: list[str], wanted: str) -> int:
    """Which of the candidates' ``grades`` is nearest to ``wanted`` (its index), the earliest on a tie."""
    return min(range(len(grades)), key=lambda k: abs(GRADES.index(grades[k]) - GRADES.index(wanted)))
