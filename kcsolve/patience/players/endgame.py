"""Exact chances late in a game, and the distinct options of a position, at the level of cell classes.

Cells of one class (centre, corners, Queen cells, Jack cells) are
interchangeable for a player who keeps court cards on their home cells, so two
moves that leave the same class contents are one option. With few unseen cards
the chance of winning with best play against a random order of them is
computed exactly by expectimax over that class-level game (forced pair removal).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from kcsolve.common.cards import TEN
from kcsolve.patience.classes import (
    KIND_CLASS,
    ClassContents,
    ClassState,
    canonical_key_function,
    class_state,
    with_value,
)
from kcsolve.patience.engine import Afterstate, Move, PlayerView, Status
from kcsolve.patience.players.policy import takes_from
from kcsolve.patience.rules import Courts, Goal, Removal, Sets

EXACT_STOCK = 10  # with this many unseen cards or fewer, chances are computed exactly


def exact_feasible(after: Afterstate) -> bool:
    """Whether :func:`exact_chance` covers this afterstate: forced pair removal, court cards at home, a small stock."""
    rules = after.rules
    return (
        rules.removal is Removal.FORCED
        and rules.sets is Sets.PAIRS
        and rules.courts is Courts.FIXED
        and after.stock <= EXACT_STOCK
    )


def option_key(after: Afterstate) -> tuple:
    """An afterstate up to cells of one class, for merging equivalent options.

    Under swap a Queen or a Jack may not sit beside the other kind, so the two
    cells of an edge are tied and two cells of one class are not always
    interchangeable: there the solver's own key (edges as pairs) decides.
    """
    if after.rules.courts is not Courts.FIXED:
        ranks = tuple(0 if card is None else card.rank for card in after.grid)
        return (canonical_key_function(after.rules)(ranks), after.drawn, after.removing)
    return (*class_state(after.grid), after.drawn, after.removing)


def distinct_options(view: PlayerView) -> list[tuple[Move, Afterstate]]:
    """The legal moves, one for each distinct afterstate."""
    seen: dict[tuple, tuple[Move, Afterstate]] = {}
    for move in view.legal_moves():
        after = view.after(move)
        seen.setdefault(option_key(after), (move, after))
    return list(seen.values())


def exact_chance(after: Afterstate, ahead: tuple[int, ...] = ()) -> float:
    """The chance of winning with best play from ``after`` when the unseen cards come in a uniformly random order.

    Expectimax at class level: the average over the next card's rank, the best
    over the player's choices (the class of a number card, which equal cards a
    removal takes). ``ahead`` gives the ranks of the next face-down cards when
    the player sees them (a player looking ahead also sees each new one as it
    comes into view, which this does not model: the figure is the chance of one
    who stops looking). Meant for a small stock; the work grows fast with its size.
    """
    status = after.outcome.status
    if status is not Status.UNFINISHED:
        return 1.0 if status is Status.WON else 0.0
    state = class_state(after.grid)
    stock = [0] * 14
    for card in after.unseen:
        stock[card.rank] += 1
    for rank in ahead:
        stock[rank] -= 1
    return _expectimax(state, tuple(stock), after.removing, after.rules.goal is Goal.COURTS, tuple(ahead))


@lru_cache(maxsize=200_000)
def _expectimax(
    state: ClassState, stock: tuple[int, ...], removal_due: bool, stop_at_courts: bool, ahead: tuple[int, ...] = ()
) -> float:
    """Best-play win chance from a class-level state: ``ahead`` comes next, in order, then the multiset ``stock``."""
    cells, courts = state
    placed = sum(courts)
    if stop_at_courts and placed == 12:
        return 1.0
    free = [4 - len(cells[c]) - courts[c] for c in range(4)]
    if removal_due or not any(free):
        outcomes = removal_outcomes(cells)
        if not outcomes:
            return 1.0 if not any(stock) and not ahead and placed == 12 else 0.0
        return max(_expectimax((after, courts), stock, False, stop_at_courts, ahead) for after in outcomes)
    chance = 0.0
    draws = _draws(stock, ahead)
    if not draws:
        return 1.0 if placed == 12 else 0.0
    for rank, weight, rest, later in draws:
        if rank > TEN:
            home = KIND_CLASS[rank]
            if not free[home]:
                continue
            now = (*courts[:home], courts[home] + 1, *courts[home + 1 :])
            best = _expectimax((cells, now), rest, False, stop_at_courts, later)
        else:
            best = max(
                _expectimax((with_value(cells, c, rank), courts), rest, False, stop_at_courts, later)
                for c in range(4)
                if free[c]
            )
        chance += weight * best
    return chance


def _draws(stock: tuple[int, ...], ahead: tuple[int, ...]) -> list[tuple[int, float, tuple[int, ...], tuple[int, ...]]]:
    """Each next rank with its chance, and the stock and cards ahead after it: the first card ahead, if any, surely."""
    if ahead:
        return [(ahead[0], 1.0, stock, ahead[1:])]
    total = sum(stock)
    return [
        (rank, count / total, (*stock[:rank], count - 1, *stock[rank + 1 :]), ())
        for rank, count in enumerate(stock)
        if count
    ]


def removal_outcomes(cells: ClassContents) -> list[ClassContents]:
    """Every distinct class content forced pair removal can leave (the values that go are fixed)."""
    take = takes_from(cells)
    if not any(take):
        return []
    per_value = []
    for value in range(1, TEN + 1):
        holders = [c for c in range(4) for _ in range(cells[c].count(value))]
        per_value.append({tuple(sorted(pick)) for pick in itertools.combinations(holders, take[value])})
    outcomes = set()
    for picks in itertools.product(*per_value):
        left = [list(c) for c in cells]
        for value, pick in zip(range(1, TEN + 1), picks):
            for c in pick:
                left[c].remove(value)
        outcomes.add(tuple(tuple(sorted(c)) for c in left))
    return list(outcomes)
