"""Whether the real deal can still be won from a position in mid-game: the solver asked by someone who sees the deck."""

from __future__ import annotations

from kcsolve.common.cards import TEN
from kcsolve.patience.engine import EMPTY, Position, Status
from kcsolve.patience.solve import theory
from kcsolve.patience.solve.methods.dfs import DepthFirstSearch, rank_grid
from kcsolve.patience.solve.route import Budget, Verdict, solve

PEEK_SECONDS = 5.0  # CPU seconds one peek may take


def peek(position: Position, seconds: float = PEEK_SECONDS) -> str | None:
    """Whether the real deal can still be won from ``position``: 'win', 'loss', or None if undecided.

    One search, bounded by ``seconds`` of CPU time, covers every way of
    finishing an open removal: they often lead to the same grids.
    """
    status = position.outcome().status
    if status is not Status.UNFINISHED:
        return "win" if status is Status.WON else "loss"
    budget = Budget(seconds=seconds)
    if position.drawn == 0 and all(i == EMPTY for i in position.grid):
        result = solve(position.deck, position.rules, "auto", budget).result
        return None if result is Verdict.UNKNOWN else result
    ranks = tuple(card.rank for card in position.deck)
    if theory.covers(position.rules) and _course_jams(ranks, position):
        return "loss"
    search = DepthFirstSearch(ranks, position.rules, budget, use_theory=False)
    return search_from(search, position)


def _course_jams(ranks: tuple[int, ...], position: Position) -> bool:
    """Whether the forced course from ``position`` jams: a loss whatever the play (Lemma 1), found without search."""
    grid = rank_grid(position)
    counts = [0] * (TEN + 1)
    for rank in grid:
        if 0 < rank <= TEN:
            counts[rank] += 1
    courts = sum(1 for rank in grid if rank > TEN)
    won, _, _ = theory.course_from(ranks, counts, courts, position.drawn, position.removing, position.rules)
    return not won


def search_from(search: DepthFirstSearch, position: Position) -> str | None:
    """Decide an unfinished mid-game ``position`` with ``search``, made for its deck and rules: 'win', 'loss', None."""
    grid = rank_grid(position)
    if position.removing:
        return search.run_from_removal(grid, position.drawn)
    return search.run_from(grid, position.drawn)
