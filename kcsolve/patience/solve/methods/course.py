"""The ``course`` method: a search over value-level courses, exact for every rule set (Theorem 4).

Which cell each card sits in never decides the game under fixed, swapped or royal
courts (docs/THEORY.md), so a state is just (cards drawn, value counts, court
cards placed); a winning course is seated into concrete moves by the same
backward interval scheduling as ``construct``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from kcsolve.common.budget import Budget, Meter, OutOfBudget
from kcsolve.common.cards import DECK_SIZE, TEN, Card
from kcsolve.patience.engine import Move
from kcsolve.patience.rules import STANDARD, Goal, Removal, Rules, Sets
from kcsolve.patience.solve.solution import (
    Loss,
    Solution,
    Verdict,
    confirm_win,
    deck_ranks,
    legal_prefix,
    win_reason,
)
from kcsolve.patience.solve.theory import COURTS, GRID, Trajectory, construct


def _ten_sums(parts: int = 9) -> list[tuple[int, ...]]:
    """Every multiset of two or more values 1..9 summing to 10, largest value first."""
    found: list[tuple[int, ...]] = []

    def build(left: int, largest: int, chosen: tuple[int, ...]) -> None:
        if left == 0:
            if len(chosen) >= 2:
                found.append(chosen)
            return
        for value in range(min(largest, left), 0, -1):
            build(left - value, value, (*chosen, value))

    build(TEN, parts, ())
    return found


GROUPS_OF_TEN = tuple(_ten_sums())
PAIRS_OF_TEN = ((9, 1), (8, 2), (7, 3), (6, 4), (5, 5))


@dataclass(frozen=True)
class CourseSearch:
    """The outcome of :func:`search_courses`: a winning course, or proof there is none, or a budget hit."""

    result: str  # 'win', 'loss' or 'unknown'
    path: Trajectory | None
    nodes: int
    furthest: tuple[int, int]  # (cards drawn, deals) of the course that got furthest
    best: Trajectory | None = None  # a course placing the most court cards (ties: removing the most cards)


_DIGIT = 4  # bits per value count: counts are at most 4, so 3 bits and a guard bit
_GUARD = sum(8 << (_DIGIT * v) for v in range(TEN + 1))


def _packed(counts: tuple[int, ...] | list[int]) -> int:
    """Value counts as one int, four bits per value, so that sets are taken by subtraction."""
    return sum(n << (_DIGIT * v) for v, n in enumerate(counts))


def _unpacked(packed: int) -> tuple[int, ...]:
    """The value counts of a packed int."""
    return tuple((packed >> (_DIGIT * v)) & 7 for v in range(TEN + 1))


def _shapes(shapes: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each set shape with the packed counts it takes; shapes needing more than four of a value never fit."""
    return tuple(
        (shape, _packed([shape.count(v) for v in range(TEN + 1)]))
        for shape in shapes
        if max(shape.count(v) for v in shape) <= 4
    )


_SHAPES = {False: _shapes(((TEN,), *PAIRS_OF_TEN)), True: _shapes(((TEN,), *GROUPS_OF_TEN))}


@lru_cache(maxsize=1 << 16)
def removal_outcomes(
    counts: tuple[int, ...], groups: bool, forced: bool
) -> list[tuple[tuple[int, ...], list[tuple[int, ...]]]]:
    """(counts left, sets taken) for every distinct outcome of one removal phase, most cards taken first.

    Every value-count vector reachable by taking sets one after another is found
    once (the order sets are taken in never matters), with one plan that reaches
    it; under forced removal only the outcomes where nothing more can go count.
    Counts are packed four bits a value with a guard bit set in each, so a set
    fits exactly when subtracting it leaves every guard bit standing. Cached: the
    same grid contents recur across the search and across deals.
    """
    shapes = _SHAPES[groups]
    start = _packed(counts)
    plans: dict[int, tuple[tuple[int, ...], ...]] = {start: ()}
    stuck: list[int] = []
    stack = [start]
    while stack:
        current = stack.pop()
        guarded = current | _GUARD
        moved = False
        for shape, need in shapes:
            after = guarded - need
            if after & _GUARD == _GUARD:
                moved = True
                left = after ^ _GUARD
                if left not in plans:
                    plans[left] = plans[current] + (shape,)
                    stack.append(left)
        if not moved:
            stuck.append(current)
    ends = stuck if forced else [left for left in plans if left != start]
    outcomes = [(_unpacked(left), list(plans[left])) for left in ends if plans[left]]
    return sorted(outcomes, key=lambda item: (sum(item[0]), item[0]))


@lru_cache(maxsize=1 << 17)
def _choices(packed: int, groups: bool, forced: bool) -> list[tuple[int, int, tuple[tuple[int, ...], ...]]]:
    """(packed counts left, cards taken, sets taken) for each removal phase the search tries at a full grid.

    Forced removal: every outcome of :func:`removal_outcomes`. Optional removal: one
    set at a time, largest first (Theorem 6), since taking more at once is never needed.
    """
    if forced:
        return [
            (_packed(left), sum(map(len, plan)), tuple(plan))
            for left, plan in removal_outcomes(_unpacked(packed), groups, True)
        ]
    guarded = packed | _GUARD
    found = [
        (after ^ _GUARD, len(shape), (shape,))
        for shape, need in _SHAPES[groups]
        if (after := guarded - need) & _GUARD == _GUARD
    ]
    return sorted(found, key=lambda item: -item[1])


def search_courses(
    ranks: tuple[int, ...] | list[int],
    rules: Rules,
    budget: Budget = Budget(),
    start: tuple[int, tuple[int, ...], int] = (0, (0,) * (TEN + 1), 0),
) -> CourseSearch:
    """Search every value-level course the rules allow, for one that reaches the goal.

    A state is (cards drawn, value counts on the grid, court cards placed): by
    Theorem 4 (docs/THEORY.md, section 5) which cell each card sits in never decides
    the game under fixed, swapped or royal courts, so nothing else matters. At
    each full grid the options are the removal phases the rules allow: all that
    can go under forced removal; under optional removal one set at a time, which
    by Theorem 6 (section 7) loses no course's reach. ``start`` = (cards drawn,
    value counts, court cards placed) begins mid-game at a fill step; from there a
    win means some course of values wins, which every winning line of play from
    that position also is (the converse needs a free grid, as at the start).
    """
    meter = Meter(budget, every=64)  # the CPU clock starts before the set-up
    stop_at_courts = rules.goal is Goal.COURTS
    clear = rules.goal is Goal.CLEAR
    forced = rules.removal is Removal.FORCED
    groups = rules.sets is Sets.GROUPS
    first_drawn, first_counts, first_courts = start
    packed_upto = [0]  # packed counts of the number cards among the first i cards
    courts_upto = [0]  # court cards among the first i cards
    for rank in ranks:
        packed_upto.append(packed_upto[-1] + (1 << (_DIGIT * rank) if rank <= TEN else 0))
        courts_upto.append(courts_upto[-1] + (rank > TEN))
    courts_before = first_courts - courts_upto[first_drawn]  # court cards on the grid = this + courts_upto[drawn]
    # Cards drawn when the twelfth court card is placed; past the deck when the goal is not `courts`.
    twelfth = next(
        (i for i in range(first_drawn, DECK_SIZE + 1) if courts_before + courts_upto[i] == COURTS), DECK_SIZE + 1
    )
    if not stop_at_courts:
        twelfth = DECK_SIZE + 1
    failed: set[int] = set()  # (cards drawn, packed counts) of full grids known to fail; courts follow from cards drawn
    deals: list[tuple[int, int]] = []
    plans: list[list[tuple[int, ...]]] = []
    furthest = [(0, 0)]
    best: list = [(-1, -1), None]  # (courts placed, cards removed), (deals, plans) of that course
    removed = [0]  # cards the current course has removed so far

    def clears(counts: tuple[int, ...]) -> list[tuple[int, ...]] | None:
        """Sets that take every number card left, if any."""
        if not any(counts):
            return []
        return next((taken for left, taken in removal_outcomes(counts, groups, forced) if not any(left)), None)

    def note(courts: int, taken: int, plan: list[tuple[int, ...]] | None = None) -> None:
        """Keep the current course as the best if it places more court cards, or as many and removes more."""
        reached = (courts, removed[0] + taken)
        if reached > best[0] and first_drawn == 0:
            best[0], best[1] = reached, (list(deals), list(plans) if plan is None else [*plans, plan])

    def fill(packed: int, numbers: int, drawn: int) -> bool:
        """Deal into the free cells (every card drawn takes one), then try the removal choices."""
        courts = courts_before + courts_upto[drawn]
        end = min(drawn + GRID - courts - numbers, DECK_SIZE)
        if end >= twelfth:
            deals.append((drawn, twelfth))
            return True
        deals.append((drawn, end))
        packed += packed_upto[end] - packed_upto[drawn]
        courts_now = courts_before + courts_upto[end]
        numbers += end - drawn - (courts_now - courts)
        drawn, courts = end, courts_now
        furthest[0] = max(furthest[0], (drawn, len(deals)))
        if (courts, removed[0]) > best[0]:
            note(courts, 0)
        if drawn == DECK_SIZE:
            if not clear:
                return True
            counts = _unpacked(packed)
            plan = clears(counts)
            if plan is not None:
                plans.append(plan)
                return True
            if not forced:  # the stock is out: a last removal phase still takes what it can
                for rest, sets in removal_outcomes(counts, groups, False)[:1]:
                    note(courts, numbers - sum(rest), sets)
        elif (key := drawn << 48 | packed) not in failed:
            meter.tick()
            for left, taken, chosen in _choices(packed, groups, forced):
                plans.append(list(chosen))
                removed[0] += taken
                if fill(left, numbers - taken, drawn):
                    return True
                removed[0] -= taken
                plans.pop()
            failed.add(key)
        deals.pop()
        return False

    try:
        won = fill(_packed(first_counts), sum(first_counts), first_drawn)
    except OutOfBudget:
        return CourseSearch("unknown", None, meter.nodes, furthest[0], _best(ranks, best[1]))
    if not won:
        return CourseSearch("loss", None, meter.nodes, furthest[0], _best(ranks, best[1]))
    path = _as_trajectory(ranks, deals, plans) if first_drawn == 0 else None  # mid-game cards have no names here
    return CourseSearch("win", path, meter.nodes, furthest[0])


def _best(ranks: tuple[int, ...] | list[int], snapshot: tuple[list, list] | None) -> Trajectory | None:
    """The best course found, as a (not won) trajectory whose cards can be seated."""
    return None if snapshot is None else _as_trajectory(ranks, *snapshot, won=False)


def _as_trajectory(
    ranks: tuple[int, ...] | list[int],
    deals: list[tuple[int, int]],
    plans: list[list[tuple[int, ...]]],
    won: bool = True,
) -> Trajectory:
    """Name the cards of a value-level course: each removal takes the oldest cards of its values."""
    on_grid: dict[int, list[int]] = {v: [] for v in range(1, TEN + 1)}
    removals = []
    for number, (first, end) in enumerate(deals):
        for index in range(first, end):
            if ranks[index] <= TEN:
                on_grid[ranks[index]].append(index)
        if number < len(plans):
            removals.append(tuple(tuple(on_grid[v].pop(0) for v in shape) for shape in plans[number]))
    return Trajectory(won, deals[-1][1], tuple(deals), tuple(removals))


def covers(rules: Rules) -> bool:
    """Every rule set: this method is exact under all 36 combinations."""
    return True


def solve(deck: tuple[Card, ...], rules: Rules = STANDARD, budget: Budget = Budget()) -> Solution:
    """Decide by searching value-level courses (exact for every rule set), then seat the cards (Theorem 2)."""
    started = time.perf_counter()
    ranks = deck_ranks(deck)
    found = search_courses(ranks, rules, budget)
    moves: list[Move] = []
    if found.result == "win":
        assert found.path is not None
        moves = construct(ranks, rules, found.path)
        confirm_win(deck, rules, moves, "course (Theorem 2 contradicted)")
        reason = win_reason(rules)
    elif found.result == "loss":
        card, round_no = found.furthest
        ending = "the stock runs out with cards left" if card == DECK_SIZE else "the grid jams"
        reason = (
            f"every course the rules allow fails ({found.nodes} removal choices searched); "
            f"the furthest reaches card {card} in deal {round_no}, where {ending}"
        )
    else:
        reason = (
            f"the search budget ({budget.describe('removal choices')}) ran out after "
            f"{min(found.nodes, budget.nodes or found.nodes):,} removal choices"
        )
    stats = {"method": "course", "nodes": found.nodes, "seconds": round(time.perf_counter() - started, 6)}
    loss = None
    best = None
    if found.result != "win" and found.best is not None:
        best = legal_prefix(deck, rules, construct(ranks, rules, found.best))
    if found.result == "loss":
        loss = Loss("left" if found.furthest[0] == DECK_SIZE else "full", *found.furthest)
        moves = list(best or ())
    return Solution(deck, rules, Verdict(found.result), tuple(moves), reason, stats, loss, best)
