"""An upper bound on the best chance of a player who cannot see the deck: the exact value of an easier game, sampled.

The *told game* is the standard game (forced removal, pairs, fixed courts, courts
goal) with two favours to the player (docs/THEORY.md, section 10):

- the player is told the whole order of the stock, except which kind each court
  card is: a court card shows only as "a court card" until it is turned;
- after each removal the player may move the number cards left on the grid to
  any cells, the court cards staying where they are.

A player of the real game can play the same moves in the told game, ignoring
what they are told and moving nothing, and wins exactly when the real game is
won; so the best chance in the told game is at least the best chance of a player
who cannot see the deck. Averaged over shuffled decks it is an upper bound on
that best chance. Given the order, the told game is small: the values on the
grid follow the forced course (Lemma 1), court kinds are the only chance, and
rearranging makes the number cards of a class interchangeable, so a state is the
next card, the number cards in the centre and in each court class, and the court
cards of each kind placed. Its value is computed exactly by expectimax.

The bound is sampled over deal numbers, so it is an estimate with an interval,
not an exact figure; its one-sided 95% upper limit is what is quoted as the bound.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from kcsolve.common.cards import TEN
from kcsolve.common.deal import SEED_LIMIT, deal_ranks
from kcsolve.common.interval import t_interval
from kcsolve.errors import KcsolveError
from kcsolve.patience.classes import CLASS_SIZE
from kcsolve.patience.solve.theory import forced_takes

MAX_DEALS = 10_000_000
CELLS = 16
COURTS = 12
KINDS = 3  # Kings, Queens, Jacks: court classes 1..3 of a class view, centre 0
KIND_OF_RANK = {13: 0, 12: 1, 11: 2}
EMPTY = ((), (), (), ())  # the class view of an empty grid  # King -> corners, Queen -> Queen cells, Jack -> Jack cells


class InvalidToldGameError(KcsolveError):
    """A told-game question that does not describe a position of the standard game between two draws."""


@dataclass(frozen=True)
class NoPeekBound:
    """The told game's chance averaged over deals: an upper bound, sampled, on the best no-peek chance."""

    start: int
    deals: int
    mean: float
    interval: tuple[float, float]
    upper: float
    clairvoyant: float
    seconds: float


def told_chance(
    order: Sequence[int], cells: Sequence[Sequence[int]] = EMPTY, courts: Sequence[int] = (0, 0, 0, 0)
) -> float:
    """The best chance of winning the told game whose stock, top first, has these ranks (1..13).

    ``cells`` and ``courts`` are a class view of the grid between two draws: the
    number values in the centre, the corners, the Queen cells and the Jack cells,
    and the court cards in each class (the centre's count is 0). The stock must
    hold exactly the cards the grid lacks of each court kind.
    """
    _check(order, cells, courts)
    return _value(tuple(order), cells, courts, _course(order, cells, sum(courts)))


def _value(
    stock: tuple[int, ...], cells: Sequence[Sequence[int]], courts: Sequence[int], left_after: list[int]
) -> float:
    """The told game's value for a checked position, given its course (:func:`_course`)."""

    @cache
    def value(p: int, centre: int, held: tuple[int, ...], placed: tuple[int, ...]) -> float:
        """Best chance before card ``p`` with this many numbers in the centre and in each court class."""
        rank = stock[p]
        if rank > TEN:
            unseen = COURTS - sum(placed)
            chance = 0.0
            for kind in range(KINDS):
                if placed[kind] < 4 and held[kind] + placed[kind] < 4:
                    now = (*placed[:kind], placed[kind] + 1, *placed[kind + 1 :])
                    chance += (4 - placed[kind]) / unseen * settle(p, centre, held, now)
            return chance
        if centre < CLASS_SIZE:
            return settle(p, centre + 1, held, placed)
        return max(
            settle(p, centre, (*held[:kind], held[kind] + 1, *held[kind + 1 :]), placed)
            for kind in range(KINDS)
            if held[kind] + placed[kind] < 4
        )

    def settle(p: int, centre: int, held: tuple[int, ...], placed: tuple[int, ...]) -> float:
        """The chance once card ``p`` is placed: a win, a removal and the best rearrangement, or the next card."""
        if sum(placed) == COURTS:
            return 1.0
        if centre + sum(held) + sum(placed) < CELLS:
            return canonical(p + 1, centre, held, placed)
        survivors = left_after[p]
        if survivors < 0:
            return 0.0
        centre = min(survivors, CLASS_SIZE)
        return max(canonical(p + 1, centre, held, placed) for held in _seatings(survivors - centre, placed))

    def canonical(p: int, centre: int, held: tuple[int, ...], placed: tuple[int, ...]) -> float:
        """The value of a state with its court kinds put in one order: the kinds play identical parts."""
        pairs = sorted(zip(placed, held))
        return value(p, centre, tuple(h for _, h in pairs), tuple(k for k, _ in pairs))

    held = tuple(len(cells[1 + kind]) for kind in range(KINDS))
    placed = tuple(courts[1 + kind] for kind in range(KINDS))
    if not stock:
        return 1.0 if sum(placed) == COURTS else 0.0
    return canonical(0, len(cells[0]), held, placed)


def _seatings(rest: int, placed: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to seat ``rest`` number cards in the court classes, each holding at most its free cells."""
    room = [4 - k for k in placed]
    return [
        (a, b, rest - a - b)
        for a in range(min(rest, room[0]) + 1)
        for b in range(min(rest - a, room[1]) + 1)
        if rest - a - b <= room[2]
    ]


def _course(order: Sequence[int], cells: Sequence[Sequence[int]], courts: int) -> list[int]:
    """After each card, the number cards its removal leaves (-1: nothing goes; 0 also where no removal follows)."""
    count = [0] * (TEN + 1)
    for values in cells:
        for value in values:
            count[value] += 1
    numbers = sum(count)
    left_after: list[int] = []
    for rank in order:
        left_after.append(0)
        if rank > TEN:
            courts += 1
            if courts == COURTS:
                break
        else:
            count[rank] += 1
            numbers += 1
        if numbers + courts == CELLS:
            take = forced_takes(count)
            if not any(take):
                left_after[-1] = -1
                break
            for value in range(1, TEN + 1):
                count[value] -= take[value]
            numbers = sum(count)
            left_after[-1] = numbers
    return left_after


def _check(order: Sequence[int], cells: Sequence[Sequence[int]], courts: Sequence[int]) -> None:
    """Refuse what is not a standard position between two draws with its stock."""
    if len(cells) != 4 or len(courts) != 4:
        raise InvalidToldGameError(f"a class view has four classes, got {len(cells)!r} and {len(courts)!r}")
    if courts[0] != 0 or any(not 0 <= k <= 4 for k in courts):
        raise InvalidToldGameError(f"court cards per class must be 0 in the centre and 0..4 elsewhere, got {courts!r}")
    if any(type(v) is not int or not 1 <= v <= TEN for values in cells for v in values):
        raise InvalidToldGameError(f"class contents must be number values 1..10, got {cells!r}")
    if not all(type(r) is int and 1 <= r <= 13 for r in order):
        raise InvalidToldGameError(f"stock ranks must be whole numbers 1..13, got {list(order)[:20]!r}")
    if len(cells[0]) > CLASS_SIZE or any(len(cells[c]) + courts[c] > 4 for c in range(1, 4)):
        raise InvalidToldGameError(f"a class holds more than its four cells: {cells!r}, courts {courts!r}")
    if sum(len(values) for values in cells) + sum(courts) >= CELLS:
        raise InvalidToldGameError("the grid is full: a removal is due, not a draw")
    for rank, kind in KIND_OF_RANK.items():
        if list(order).count(rank) != 4 - courts[1 + kind]:
            raise InvalidToldGameError(
                f"the stock must hold the {4 - courts[1 + kind]} court cards of rank {rank} not on the grid"
            )
    on_grid = [sum(values.count(v) for values in cells) for v in range(TEN + 1)]
    if any(list(order).count(v) + on_grid[v] > 4 for v in range(1, TEN + 1)):
        raise InvalidToldGameError("a value has more than four cards between the grid and the stock")


def no_peek_bound(deals: int, start: int = 0, on_deal: Callable[[int], None] | None = None) -> NoPeekBound:
    """The told game's chance averaged over deal numbers ``start`` .. ``start + deals - 1``, with its interval.

    ``on_deal`` is called with the number of deals done after each one (for progress).
    """
    if not isinstance(deals, int) or not 2 <= deals <= MAX_DEALS:
        raise InvalidToldGameError(f"deals must be a whole number 2..{MAX_DEALS:,}, got {deals!r}")
    if not isinstance(start, int) or not 0 <= start < SEED_LIMIT:
        raise InvalidToldGameError(f"the first deal number must be a whole number 0..2**64-1, got {start!r}")
    if start + deals > SEED_LIMIT:
        raise InvalidToldGameError(f"{deals:,} deals from {start:,} go past the last deal number, 2**64-1")
    started = time.process_time()
    total = squares = 0.0
    winnable = 0
    for done, number in enumerate(range(start, start + deals), start=1):
        ranks = tuple(deal_ranks(number))  # a whole shuffled pack: nothing to check
        course = _course(ranks, EMPTY, 0)
        chance = _value(ranks, EMPTY, (0, 0, 0, 0), course)
        total += chance
        squares += chance * chance
        winnable += -1 not in course
        if on_deal:
            on_deal(done)
    mean = total / deals
    error = math.sqrt(max(0.0, squares - deals * mean * mean) / (deals - 1) / deals)
    return NoPeekBound(
        start=start,
        deals=deals,
        mean=mean,
        interval=t_interval(mean, error, deals),
        upper=t_interval(mean, error, deals, 0.90)[1],
        clairvoyant=winnable / deals,
        seconds=time.process_time() - started,
    )
