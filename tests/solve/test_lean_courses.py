"""Theorem 6: under optional removal the course search takes one set at a time and loses nothing.

The reference below is the search as it was before Theorem 6: at every full grid it
tries every removal phase the rules allow (every reachable remainder), and it
computes the best reach of a lost deal by exhaustion. The lean search must give the
same verdict and the same best reach (court cards placed, then cards removed).
"""

from __future__ import annotations

import pytest

from kcsolve.common.cards import DECK_SIZE, TEN
from kcsolve.common.deal import deal
from kcsolve.patience.rules import Goal, Rules, Sets, parse_rules
from kcsolve.patience.solve.methods.course import removal_outcomes, search_courses
from kcsolve.patience.solve.route import solve
from kcsolve.patience.solve.solution import deck_ranks

GOALS = ["optional+groups", "deplete+optional+groups", "camelot+groups"]
COURT_RULES = ["", "+swap", "+royals"]


def every_phase_search(ranks: tuple[int, ...], rules: Rules) -> tuple[bool, tuple[int, int] | None]:
    """(won, best (courts, removed) when lost) over every course, trying every removal phase at each full grid."""
    groups = rules.sets is Sets.GROUPS
    memo: dict[tuple[int, tuple[int, ...]], tuple[bool, tuple[int, int]]] = {}

    def after_removal(drawn: int, counts: tuple[int, ...], courts: int) -> tuple[bool, tuple[int, int]]:
        """Deal from here, then try everything: (won, best (courts, cards removed from here on))."""
        grid = list(counts)
        while courts + sum(grid) < 16 and drawn < DECK_SIZE:
            rank = ranks[drawn]
            drawn += 1
            if rank > TEN:
                courts += 1
                if rules.goal is Goal.COURTS and courts == 12:
                    return True, (courts, 0)
            else:
                grid[rank] += 1
        full = tuple(grid)
        outcomes = removal_outcomes(full, groups, False)
        if drawn == DECK_SIZE:
            if rules.goal is not Goal.CLEAR or not any(full) or any(not any(left) for left, _ in outcomes):
                return True, (courts, 0)
            return False, (courts, max((sum(full) - sum(left) for left, _ in outcomes), default=0))
        if (drawn, full) not in memo:
            best = (courts, 0)
            for left, _ in outcomes:
                won, (placed, removed) = after_removal(drawn, left, courts)
                if won:
                    memo[drawn, full] = (True, (placed, 0))
                    break
                best = max(best, (placed, removed + sum(full) - sum(left)))
            else:
                memo[drawn, full] = (False, best)
        return memo[drawn, full]

    return after_removal(0, (0,) * (TEN + 1), 0)


def lean_reach(ranks: tuple[int, ...], preset: str) -> tuple[str, tuple[int, int] | None]:
    """The lean search's verdict and, for a loss, its best course's (courts, cards removed)."""
    found = search_courses(ranks, parse_rules(preset))
    if found.result == "win":
        return "win", None
    assert found.best is not None
    courts = sum(1 for rank in ranks[: found.best.end] if rank > TEN)
    return found.result, (courts, sum(len(s) for sets in found.best.removals for s in sets))


def check_against_every_phase(preset: str, seeds: range) -> int:
    """Compare verdicts and best reach on ``seeds``; the number of losses seen."""
    losses = 0
    for seed in seeds:
        ranks = deck_ranks(deal(seed))
        won, best = every_phase_search(ranks, parse_rules(preset))
        result, reach = lean_reach(ranks, preset)
        assert result == ("win" if won else "loss"), (preset, seed)
        if not won:
            losses += 1
            assert reach == best, (preset, seed)
    return losses


@pytest.mark.slow
@pytest.mark.parametrize("preset", GOALS)
def test_lean_search_matches_every_phase_search(preset: str) -> None:
    seeds = range(30) if preset == "optional+groups" else range(12)
    assert check_against_every_phase(preset, seeds) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("preset", GOALS)
def test_lean_search_matches_every_phase_search_on_more_seeds(preset: str) -> None:
    seeds = range(30, 80) if preset == "camelot+groups" else range(30, 130)  # the every-phase search is slow there
    assert check_against_every_phase(preset, seeds) >= 5


@pytest.mark.slow
@pytest.mark.parametrize("courts", COURT_RULES)
@pytest.mark.parametrize("goal", GOALS)
def test_auto_under_every_optional_groups_rule_set(goal: str, courts: str) -> None:
    """``auto`` gives the every-phase verdict under all 9 rule sets.

    A loss's best line replays (engine) to the best reach.
    """
    preset = goal + courts
    rules = parse_rules(preset)
    results = set()
    for seed in (1, 3, 7, 12, 16, 55):
        solution = solve(deal(seed), rules)
        won, best = every_phase_search(deck_ranks(deal(seed)), rules)
        assert solution.result == ("win" if won else "loss"), (preset, seed)
        results.add(solution.result)
        if not won:
            assert solution.best_reach() == best, (preset, seed)
    assert "loss" in results
