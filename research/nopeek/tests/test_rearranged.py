"""The rearranging game (odds.rearranged) against a brute force, the exact no-peek chance and the told game.

The brute force below is a plain memoized expectimax over the rearranging game with
none of the module's shortcuts: a number card is tried in every class with room
(the centre too, not first), the cards left by a removal are seated in every way,
and no symmetry merges states. It shares only ``theory.forced_takes`` with the
module. The module's value must lie between the exact best no-peek chance of the
real game (``endgame._expectimax``) and the told game averaged over every order
(``told.told_chance``: the same favour, and more knowledge).
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from kcsolve.patience.odds.told import told_chance
from kcsolve.patience.players.endgame import _expectimax
from kcsolve.patience.solve.theory import forced_takes
from research.nopeek.rearranged import (
    START,
    InvalidRearrangingStateError,
    rearranged_chance,
    rearranged_values,
    state_key,
)
from tests.odds.test_told import late_positions, orders

KIND_OF_CLASS = {1: 13, 2: 12, 3: 11}


def brute_rearranged(
    counts: tuple[int, ...], courts: tuple[int, ...], grid: tuple[int, ...], unseen: tuple[int, ...]
) -> float:
    """The rearranging game by plain expectimax: class counts, grid and unseen counts by rank, nothing merged."""

    @cache
    def value(
        counts: tuple[int, ...], courts: tuple[int, ...], grid: tuple[int, ...], unseen: tuple[int, ...]
    ) -> float:
        total = sum(unseen)
        chance = 0.0
        for rank in range(1, 14):
            if not unseen[rank]:
                continue
            rest = tuple(u - (r == rank) for r, u in enumerate(unseen))
            if rank > 10:
                home = next(c for c, kind in KIND_OF_CLASS.items() if kind == rank)
                if counts[home] + courts[home] < 4:
                    now = tuple(x + (c == home) for c, x in enumerate(courts))
                    chance += unseen[rank] / total * settle(counts, now, grid, rest)
                continue
            added = tuple(x + (v == rank) for v, x in enumerate(grid))
            best = max(
                (
                    settle(tuple(x + (i == c) for i, x in enumerate(counts)), courts, added, rest)
                    for c in range(4)
                    if counts[c] + courts[c] < 4
                ),
                default=0.0,
            )
            chance += unseen[rank] / total * best
        return chance

    def settle(
        counts: tuple[int, ...], courts: tuple[int, ...], grid: tuple[int, ...], unseen: tuple[int, ...]
    ) -> float:
        if sum(courts) == 12:
            return 1.0
        if sum(counts) + sum(courts) < 16:
            return value(counts, courts, grid, unseen)
        take = forced_takes(list(grid))
        if not any(take):
            return 0.0
        left = tuple(g - t for g, t in zip(grid, take))
        return max(
            value(seats, courts, left, unseen)
            for seats in itertools.product(range(5), repeat=4)
            if sum(seats) == sum(left) and all(seats[c] + courts[c] <= 4 for c in range(4))
        )

    return value(counts, courts, grid, unseen)


def centre_first_positions(unseen: int, count: int) -> list[tuple[tuple, tuple, tuple[int, ...], object]]:
    """Late positions of greedy games whose centre holds min(4, number cards): states of the rearranging game."""
    found = []
    seed = 40
    while len(found) < count:
        for position, (cells, courts) in late_positions(seed, unseen, 5):
            numbers = sum(len(c) for c in cells)
            if len(cells[0]) == min(4, numbers):
                stock = [0] * 14
                for card in position.deck[position.drawn :]:
                    stock[card.rank] += 1
                found.append((cells, courts, tuple(stock), position))
        seed += 1
    return found[:count]


@pytest.mark.slow
def test_equal_to_a_brute_force_without_its_shortcuts() -> None:
    """Centre first and the 2,304 symmetries lose nothing: equal to the plain expectimax on late states."""
    for cells, courts, stock, _ in centre_first_positions(7, 12):
        grid = [0] * 11
        for values in cells:
            for v in values:
                grid[v] += 1
        brute = brute_rearranged(tuple(len(c) for c in cells), courts, tuple(grid), stock)
        assert rearranged_chance(cells, courts, stock) == pytest.approx(brute, abs=1e-12)


@pytest.mark.parametrize(
    ("unseen", "count"),
    [
        pytest.param(7, 12, marks=pytest.mark.slow),
        pytest.param(8, 20, marks=pytest.mark.long),
    ],
)
def test_between_best_no_peek_play_and_the_told_game(unseen: int, count: int) -> None:
    """At least the exact best chance without the favour; at most the told game, which knows the order too.

    The first is strict on most positions. The second has been an equality on
    every late position tried (12 with 7 unseen cards, 20 with 8, 3 more with 10):
    once number cards may be moved after each removal, knowing the order (but not
    the court kinds) has not been worth anything this late.
    """
    above_play = 0
    positions = centre_first_positions(unseen, count)
    keys = [state_key(cells, courts, stock) for cells, courts, stock, _ in positions]
    values, _ = rearranged_values(keys)
    for (cells, courts, stock, position), value in zip(positions, values):
        exact = _expectimax((cells, courts), stock, False, True)
        every = orders(position)
        told = sum(told_chance(order, cells, courts) for order in every) / len(every)
        assert exact - 1e-12 <= value <= told + 1e-12
        above_play += value > exact + 1e-9
    assert above_play >= count // 2


def test_the_start_is_one_state_and_its_first_layers_are_counted() -> None:
    """From the start: one card on gives a number in the centre (family, Five or Ten) or a court card: 4 states."""
    key = state_key(*START)
    assert state_key(((), (), (), ()), (0, 0, 0, 0), (0,) + (4,) * 13) == key
    grid_after_one = [((v,), (), (), ()) for v in (1, 9, 3, 7)]
    unseen = [(0, *tuple(4 - (r == v) for r in range(1, 14))) for v in (1, 9, 3, 7)]
    assert len({state_key(c, (0, 0, 0, 0), u) for c, u in zip(grid_after_one, unseen)}) == 1  # families renamed


@pytest.mark.parametrize(
    ("cells", "courts", "unseen", "message"),
    [
        (((), (), ()), (0, 0, 0, 0), (0,) + (4,) * 13, "four classes"),
        (((11,), (), (), ()), (0, 0, 0, 0), (0,) + (4,) * 13, "number values 1..10"),
        (((), (5,), (), ()), (0, 0, 0, 0), (0, 4, 4, 4, 4, 3) + (4,) * 8, "centre filled first"),
        (((), (), (), ()), (0, 1, 0, 0), (0,) + (4,) * 13, "court class 1 and unseen rank 13"),
        (((), (), (), ()), (0, 0, 0, 0), (0, 3) + (4,) * 12, "no result of pair removals"),
        (((1.0,), (), (), ()), (0, 0, 0, 0), (0,) + (4,) * 13, "number values 1..10"),
        (((), (), (), ()), (0, 0, 0, 0), (0, 4.0) + (4,) * 12, "whole unseen counts"),
        (((), (), (), ()), (0, 0, 0, 0), (0, -1) + (4,) * 7 + (-1,) + (4,) * 4, "no result of pair removals"),
    ],
)
def test_refusals(cells, courts, unseen, message) -> None:  # type: ignore[no-untyped-def]
    """A question that is no state of the game between draws is refused, naming what was wrong."""
    with pytest.raises(InvalidRearrangingStateError, match=message):
        state_key(cells, courts, unseen)
