"""The told game (kcsolve.patience.odds.told): its value against a brute force, the exact no-peek chance and the seer.

The brute force below plays the told game without the module's shortcuts: a
number card may go to any class with room (not the centre first), the cards left
by a removal may be seated in every way (the centre too), and court kinds are
never merged. It shares only ``theory.forced_takes`` (which values a removal
takes) with the module. The bound must sit between the exact best chance of a
player who cannot see the deck (``endgame._expectimax``, a separate expectimax
over the real game) and the share of orders a player who sees them wins.
"""

from __future__ import annotations

import itertools
import math
import random
from functools import cache

import pytest

from kcsolve.common.cards import Card
from kcsolve.common.deal import deal_ranks
from kcsolve.patience.classes import class_view
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.odds.told import InvalidToldGameError, no_peek_bound, told_chance
from kcsolve.patience.players.endgame import _expectimax
from kcsolve.patience.players.policy import greedy_player
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.theory import course_end, forced_takes

PACK = tuple(Card(rank) for rank in range(1, 14) for _ in range(4))
KIND_CLASS = {13: 1, 12: 2, 11: 3}


def brute_told(order: tuple[int, ...], cells: tuple[tuple[int, ...], ...], courts: tuple[int, ...]) -> float:
    """The told game's value by plain expectimax over class counts, every placement and every seating tried."""
    unseen_kinds = tuple(order.count(rank) for rank in (13, 12, 11))

    @cache
    def value(
        p: int, counts: tuple[int, ...], placed: tuple[int, ...], kinds_left: tuple[int, ...], grid: tuple[int, ...]
    ) -> float:
        if sum(placed) == 12:
            return 1.0
        if p == len(order):
            return 0.0
        rank = order[p]
        if rank > 10:
            chance = 0.0
            for kind, rank_of_kind in enumerate((13, 12, 11)):
                c = KIND_CLASS[rank_of_kind]
                if kinds_left[kind] and counts[c] + placed[c] < 4:
                    now = tuple(x + (i == c) for i, x in enumerate(placed))
                    left = tuple(x - (i == kind) for i, x in enumerate(kinds_left))
                    chance += kinds_left[kind] / sum(kinds_left) * after(p, counts, now, left, grid)
            return chance
        added = tuple(x + (i == rank) for i, x in enumerate(grid))
        best = 0.0
        for c in range(4):
            if counts[c] + placed[c] < 4:
                best = max(best, after(p, tuple(x + (i == c) for i, x in enumerate(counts)), placed, kinds_left, added))
        return best

    def after(
        p: int, counts: tuple[int, ...], placed: tuple[int, ...], kinds_left: tuple[int, ...], grid: tuple[int, ...]
    ) -> float:
        if sum(placed) == 12:
            return 1.0
        if sum(counts) + sum(placed) < 16:
            return value(p + 1, counts, placed, kinds_left, grid)
        take = forced_takes(list(grid))
        if not any(take):
            return 0.0
        grid = tuple(x - t for x, t in zip(grid, take))
        survivors = sum(grid)
        best = 0.0
        for seats in itertools.product(range(5), repeat=4):
            if sum(seats) == survivors and all(seats[c] + placed[c] <= 4 for c in range(4)):
                best = max(best, value(p + 1, seats, placed, kinds_left, grid))
        return best

    grid = [0] * 11
    for values in cells:
        for v in values:
            grid[v] += 1
    return value(0, tuple(len(v) for v in cells), tuple(courts), unseen_kinds, tuple(grid))


def cell_brute_told(order: tuple[int, ...], cells: tuple[tuple[int, ...], ...], courts: tuple[int, ...]) -> float:
    """The told game with every card's value kept in its class: removals set by set in every order, then every seating.

    Unlike :func:`brute_told`, nothing is reduced to counts per class, so this
    checks that only the counts matter once cards may be moved after a removal.
    """
    kinds = {13: 1, 12: 2, 11: 3}

    def sets_in(classes: tuple[tuple[int, ...], ...]) -> set[tuple[tuple[int, int], ...]]:
        cards = [(c, v) for c in range(4) for v in set(classes[c])]
        found = {((c, v),) for c, v in cards if v == 10}
        for (c1, v1), (c2, v2) in itertools.combinations_with_replacement(cards, 2):
            if v1 + v2 == 10 and v1 != 10 and ((c1, v1) != (c2, v2) or classes[c1].count(v1) >= 2):
                found.add(tuple(sorted([(c1, v1), (c2, v2)])))
        return found

    def without(
        classes: tuple[tuple[int, ...], ...], cards: tuple[tuple[int, int], ...]
    ) -> tuple[tuple[int, ...], ...]:
        left = [list(x) for x in classes]
        for c, v in cards:
            left[c].remove(v)
        return tuple(tuple(sorted(x)) for x in left)

    def exhausted(classes: tuple[tuple[int, ...], ...]) -> set[tuple[tuple[int, ...], ...]]:
        ends, seen, stack = set(), set(), [classes]
        while stack:
            now = stack.pop()
            if now in seen:
                continue
            seen.add(now)
            found = sets_in(now)
            if not found:
                ends.add(now)
            stack.extend(without(now, cards) for cards in found)
        return ends

    def seatings(values: list[int], room: list[int]) -> set[tuple[tuple[int, ...], ...]]:
        out: set[tuple[tuple[int, ...], ...]] = set()

        def seat(i: int, classes: list[list[int]]) -> None:
            if i == len(values):
                out.add(tuple(tuple(sorted(x)) for x in classes))
                return
            for c in range(4):
                if len(classes[c]) < room[c]:
                    classes[c].append(values[i])
                    seat(i + 1, classes)
                    classes[c].pop()

        seat(0, [[], [], [], []])
        return out

    @cache
    def value(p: int, classes: tuple[tuple[int, ...], ...], placed: tuple[int, ...], left: tuple[int, ...]) -> float:
        rank = order[p]
        if rank > 10:
            chance = 0.0
            for c in kinds.values():
                if left[c] and len(classes[c]) + placed[c] < 4:
                    now = tuple(x + (i == c) for i, x in enumerate(placed))
                    rest = tuple(x - (i == c) for i, x in enumerate(left))
                    chance += left[c] / sum(left) * after(p, classes, now, rest)
            return chance
        best = 0.0
        for c in range(4):
            if len(classes[c]) + placed[c] < 4:
                grown = (*classes[:c], tuple(sorted(classes[c] + (rank,))), *classes[c + 1 :])
                best = max(best, after(p, grown, placed, left))
        return best

    def after(p: int, classes: tuple[tuple[int, ...], ...], placed: tuple[int, ...], left: tuple[int, ...]) -> float:
        if sum(placed) == 12:
            return 1.0
        if sum(map(len, classes)) + sum(placed) < 16:
            return value(p + 1, classes, placed, left)
        if not sets_in(classes):
            return 0.0
        room = [4 - placed[c] for c in range(4)]
        return max(
            value(p + 1, seated, placed, left)
            for end in exhausted(classes)
            for seated in seatings(sorted(v for x in end for v in x), room)
        )

    left = (0, order.count(13), order.count(12), order.count(11))
    return value(0, tuple(tuple(sorted(c)) for c in cells), tuple(courts), left)


def late_positions(seed: int, unseen: int, count: int) -> list[tuple[Position, tuple]]:
    """Positions of greedy games between draws with ``unseen`` cards left, and their class views."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple]] = []
    while len(found) < count:
        deck = list(PACK)
        rng.shuffle(deck)
        position = Position.start(tuple(deck), STANDARD)
        while position.outcome().status is Status.UNFINISHED:
            if not position.removing and len(position.deck) - position.drawn == unseen:
                cells, courts = class_view(tuple(position.card_at(c) for c in range(16)))
                found.append((position, (tuple(tuple(sorted(c)) for c in cells), tuple(courts))))
                break
            position = position.play(greedy_player(position.view()))
    return found


def orders(position: Position) -> list[tuple[int, ...]]:
    """Every distinct order of the ranks not yet seen: each is equally likely under a uniform shuffle."""
    return sorted(set(itertools.permutations(card.rank for card in position.deck[position.drawn :])))


def test_told_chance_equals_a_brute_force_without_its_shortcuts() -> None:
    """Centre first, one seating per count and merged court kinds lose nothing: equal to the brute force."""
    compared = 0
    for position, (cells, courts) in late_positions(1, 6, 12):
        for order in orders(position)[::7]:
            assert told_chance(order, cells, courts) == pytest.approx(brute_told(order, cells, courts), abs=1e-12)
            compared += 1
    ranks = deal_ranks(5)
    empty = ((), (), (), ())
    assert told_chance(ranks) == pytest.approx(brute_told(tuple(ranks), empty, (0, 0, 0, 0)), abs=1e-12)
    assert compared >= 100


def test_told_chance_equals_a_brute_force_that_keeps_every_value_in_its_class() -> None:
    """On random hand-made positions, removals made set by set and every seating after them change nothing."""
    rng = random.Random(7)
    compared = between = 0
    while compared < 120:
        courts = (0, rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4))
        pool = [v for v in range(1, 11) for _ in range(4)]
        rng.shuffle(pool)
        cells = tuple(tuple(pool.pop() for _ in range(rng.randint(0, 4 - courts[c]))) for c in range(4))
        if sum(map(len, cells)) + sum(courts) >= 16:
            continue
        stock = pool[: rng.randint(0, 7)] + [13] * (4 - courts[1]) + [12] * (4 - courts[2]) + [11] * (4 - courts[3])
        rng.shuffle(stock)
        chance = told_chance(stock, cells, courts)
        assert chance == pytest.approx(cell_brute_told(tuple(stock), cells, courts), abs=1e-12)
        compared += 1
        between += 0 < chance < 1
    assert between >= 20


@pytest.mark.parametrize("count", [12, pytest.param(40, marks=pytest.mark.long)])
def test_told_bound_sits_between_best_no_peek_play_and_the_seer(count: int) -> None:
    """Averaged over every order, at least the exact no-peek chance and at most the share of orders a seer wins."""
    above_play = below_seer = 0
    for position, (cells, courts) in late_positions(2, 7, count):
        every = orders(position)
        bound = sum(told_chance(order, cells, courts) for order in every) / len(every)
        stock = [0] * 14
        for card in position.deck[position.drawn :]:
            stock[card.rank] += 1
        exact = _expectimax((cells, courts), tuple(stock), False, True)
        known = [card.rank for card in position.deck[: position.drawn]]
        seer = sum(course_end(known + list(order), STANDARD)[0] for order in every) / len(every)
        assert exact - 1e-12 <= bound <= seer + 1e-12
        above_play += bound > exact + 1e-9
        below_seer += bound < seer - 1e-9
    assert above_play and below_seer  # neither side is met trivially on every position


@pytest.mark.slow
def test_told_chance_is_zero_exactly_when_the_forced_course_jams() -> None:
    """Lucky court kinds can always win the told game unless the values alone jam the grid."""
    for seed in range(300):
        ranks = deal_ranks(seed)
        assert (told_chance(ranks) > 0) == course_end(ranks, STANDARD)[0], seed


def test_the_bound_reports_its_sample() -> None:
    """The mean lies inside its interval, the one-sided limit above the mean, the seer's share counted apart."""
    bound = no_peek_bound(60, start=100)
    chances = [told_chance(deal_ranks(seed)) for seed in range(100, 160)]
    assert bound.mean == pytest.approx(sum(chances) / 60, abs=1e-12)
    assert bound.interval[0] < bound.mean < bound.upper < bound.interval[1]
    assert bound.clairvoyant == sum(course_end(deal_ranks(s), STANDARD)[0] for s in range(100, 160)) / 60
    assert bound.mean < bound.clairvoyant
    spread = math.sqrt(sum((c - bound.mean) ** 2 for c in chances) / 59 / 60)
    assert bound.interval[1] - bound.mean == pytest.approx(2.0010 * spread, rel=1e-3)  # t(0.975, 59)
    assert bound.upper - bound.mean == pytest.approx(1.6711 * spread, rel=1e-3)  # t(0.95, 59): the one-sided limit


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: told_chance([0] * 52), "stock ranks must be whole numbers 1..13"),
        (
            lambda: told_chance([r for r in deal_ranks(1) if r != 13]),
            "the stock must hold the 4 court cards of rank 13",
        ),
        (lambda: told_chance([*deal_ranks(1), 3]), "a value has more than four cards"),
        (lambda: told_chance([], ((1, 2, 3, 4),) * 4, (0, 0, 0, 0)), "the grid is full"),
        (lambda: told_chance([], ((), (), ()), (0, 0, 0, 0)), "a class view has four classes"),
        (lambda: told_chance([], ((), (), (), ()), (1, 0, 0, 0)), "must be 0 in the centre"),
        (lambda: told_chance([], ((11,), (), (), ()), (0, 0, 0, 0)), "number values 1..10"),
        (lambda: told_chance([11], ((1.5, 2), (), (), ()), (0, 4, 4, 3)), "number values 1..10"),
        (lambda: told_chance([True] * 52), "stock ranks must be whole numbers 1..13"),
        (lambda: told_chance([], ((), (1, 2), (), ()), (0, 3, 0, 0)), "more than its four cells"),
        (lambda: no_peek_bound(1), "deals must be a whole number 2.."),
        (lambda: no_peek_bound(10, start=-1), r"0\.\.2\*\*64-1, got -1"),
        (lambda: no_peek_bound(2, start=2**64 - 1), "2 deals from 18,446,744,073,709,551,615 go past the last deal"),
    ],
)
def test_refusals(call, message) -> None:  # type: ignore[no-untyped-def]
    """Each bad question is refused with the package's own error, naming what was wrong."""
    with pytest.raises(InvalidToldGameError, match=message):
        call()
