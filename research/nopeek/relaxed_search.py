"""The information-relaxation bound's per-deck search, compiled: the same score as ``relaxed.deck_score``.

With the penalty :func:`research.nopeek.relaxed.rearranging_penalty`, a
draw's penalty depends on the state only through how many number cards each class
holds (the values on the grid, the court cards per class and the unseen cards
follow from the deck and the number of cards drawn, by Lemma 1). So the penalties
are computed in Python once for each such shape of each layer, and the search over
the deck's class-level states, hundreds of thousands of seatings, runs compiled:
every state of each layer is listed going forward, then scored going back.

With a cut (``exact_from``, Theorem 13) the layers stop at that many unseen
cards, whose states score their exact no-peek value: :func:`exact_values`, the
class-level expectimax on the same packed states and children, compiled.

A state is packed into one int64: a class is its values sorted high to low as
four base-11 digits (0 for an empty cell), 14 bits; the centre's 14 bits come
first, then the corners', the Queen cells' and the Jack cells'.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kcsolve.common.cards import JACK, KING, QUEEN, TEN
from kcsolve.common.jit import jit
from kcsolve.patience.players.policy import KIND_CLASS
from research.nopeek.rearranged import append_live
from research.nopeek.relaxed import (
    LOST,
    START,
    InvalidDeckError,
    State,
    Valuation,
    checked_stocks,
    rearranging_penalty,
)

WON_CHILD = -2  # child markers: the draw wins, or loses, the game
LOST_CHILD = -1
MAX_CHILDREN = 8192  # placements times removal outcomes: far more than a state has
SHAPES = 625  # number cards per class, 0..4 each: n0 * 125 + n1 * 25 + n2 * 5 + n3


def pack(state: State) -> int:
    """The int64 key of a class-level state's cells (court cards are known from the layer)."""
    key = 0
    for values in state[0]:
        code = 0
        for digit, v in enumerate(sorted(values, reverse=True)):
            code += v * 11**digit
        key = key * 16384 + code
    return key


def unpack(key: int, courts: Sequence[int]) -> State:
    """The class-level state of a key, with these court cards per class."""
    cells = []
    for shift in (42, 28, 14, 0):
        code, values = (key >> shift) & 16383, []
        while code:
            values.append(code % 11)
            code //= 11
        cells.append(tuple(sorted(v for v in values if v)))
    return tuple(cells), tuple(courts)


@jit()
def _decode(key, cells, counts):
    """Fill each class's values (high to low) and counts from a key."""
    for c in range(4):
        code = (key >> (14 * (3 - c))) & 16383
        counts[c] = 0
        for i in range(4):
            cells[c, i] = code % 11
            code //= 11
            if cells[c, i]:
                counts[c] += 1


@jit()
def _encode(cells):
    """The key of the cells (each class kept high to low)."""
    key = 0
    for c in range(4):
        code = 0
        for i in range(3, -1, -1):
            code = code * 11 + cells[c, i]
        key = key * 16384 + code
    return key


@jit()
def _insert(cells, c, value):
    """Add a value to class c, keeping it high to low (the class has room)."""
    i = 3
    while i > 0 and (cells[c, i - 1] == 0 or cells[c, i - 1] < value):
        cells[c, i] = cells[c, i - 1]
        i -= 1
    cells[c, i] = value


@jit()
def _remove(cells, c, value):
    """Take one copy of a value out of class c, keeping it high to low."""
    i = 0
    while cells[c, i] != value:
        i += 1
    while i < 3:
        cells[c, i] = cells[c, i + 1]
        i += 1
    cells[c, 3] = 0


@jit()
def _settle(cells, numbers, courts_after, out, m):
    """Record a placement's outcomes: the state, every distinct-by-choice forced removal, or a loss."""
    if numbers + courts_after < 16:
        out[m] = _encode(cells)
        return m + 1
    count = np.zeros(TEN + 1, np.int64)
    held = np.zeros((TEN + 1, 4), np.int64)
    for c in range(4):
        for i in range(4):
            v = cells[c, i]
            if v:
                count[v] += 1
                held[v, c] += 1
    take = np.zeros(TEN + 1, np.int64)
    take[TEN] = count[TEN]
    for low in range(1, 5):
        take[low] = min(count[low], count[TEN - low])
        take[TEN - low] = take[low]
    take[5] = count[5] // 2 * 2
    if take.sum() == 0:
        out[m] = LOST_CHILD
        return m + 1
    # every way to split each value's take among the classes holding it, as an odometer over the values
    split = np.zeros((TEN + 1, 4), np.int64)
    for v in range(1, TEN + 1):
        _first_split(held[v], take[v], split[v])
    while True:
        after = cells.copy()
        for v in range(1, TEN + 1):
            for c in range(4):
                for _ in range(split[v, c]):
                    _remove(after, c, v)
        if m >= len(out):
            raise ValueError("more children than the buffer holds")
        out[m] = _encode(after)
        m += 1
        v = 1
        while v <= TEN and not _next_split(held[v], take[v], split[v]):
            _first_split(held[v], take[v], split[v])
            v += 1
        if v > TEN:
            return m


@jit()
def _first_split(held, take, split):
    """The first split of ``take`` copies among classes (as many as possible from the earliest classes)."""
    left = take
    for c in range(4):
        split[c] = min(held[c], left)
        left -= split[c]


@jit()
def _next_split(held, take, split):
    """Step to the next split of the same total in a fixed order; False when the splits are exhausted."""
    # move one copy from the rightmost movable class to the next class with room, refilling greedily after it
    for c in range(2, -1, -1):
        if split[c] == 0:
            continue
        tail = 0
        for d in range(c + 1, 4):
            tail += split[d]
        room = 0
        for d in range(c + 1, 4):
            room += held[d]
        if tail + 1 > room:
            continue
        split[c] -= 1
        left = tail + 1
        for d in range(c + 1, 4):
            split[d] = min(held[d], left)
            left -= split[d]
        return True
    return False


@jit()
def _children(key, rank, court_home, courts, total_courts, out, cells, counts):
    """Every outcome of placing ``rank`` (court_home: its class for a court card, else -1); returns how many."""
    _decode(key, cells, counts)
    numbers = counts[0] + counts[1] + counts[2] + counts[3]
    if court_home >= 0:
        if counts[court_home] + courts[court_home] >= 4:
            out[0] = LOST_CHILD
            return 1
        if total_courts + 1 == 12:
            out[0] = WON_CHILD
            return 1
        return _settle(cells, numbers, total_courts + 1, out, 0)
    m = 0
    for c in range(4):
        if counts[c] + courts[c] < 4:
            after = cells.copy()
            _insert(after, c, rank)
            m = _settle(after, numbers + 1, total_courts, out, m)
    return m


@jit()
def _forward(layer, rank, court_home, courts, total_courts):
    """The keys of the next layer (with repeats): the children that are neither won nor lost."""
    out = np.empty(MAX_CHILDREN, np.int64)
    cells = np.zeros((4, 4), np.int64)
    counts = np.zeros(4, np.int64)
    found = np.empty(4 * len(layer) + MAX_CHILDREN, np.int64)
    size = 0
    for s in range(len(layer)):
        m = _children(layer[s], rank, court_home, courts, total_courts, out, cells, counts)
        found, size = append_live(found, size, out, m)
    return found[:size]


@jit()
def _backward(layer, rank, court_home, courts, total_courts, following, following_scores, shape_penalties):
    """Each state's score: its best child's (1 won, 0 lost, else the next layer's) less its shape's penalty."""
    out = np.empty(MAX_CHILDREN, np.int64)
    cells = np.zeros((4, 4), np.int64)
    counts = np.zeros(4, np.int64)
    scores = np.empty(len(layer), np.float64)
    for s in range(len(layer)):
        m = _children(layer[s], rank, court_home, courts, total_courts, out, cells, counts)
        best = -np.inf
        for j in range(m):
            if out[j] == WON_CHILD:
                value = 1.0
            elif out[j] == LOST_CHILD or len(following) == 0:  # lost, or the deck spent short of twelve courts
                value = 0.0
            else:
                value = following_scores[np.searchsorted(following, out[j])]
            best = max(best, value)
        scores[s] = best - shape_penalties[s]
    return scores


@jit()
def _shapes(layer):
    """Each state's shape: its number cards per class as n0 * 125 + n1 * 25 + n2 * 5 + n3 (where its penalty sits)."""
    cells = np.zeros((4, 4), np.int64)
    counts = np.zeros(4, np.int64)
    shapes = np.empty(len(layer), np.int64)
    for s in range(len(layer)):
        _decode(layer[s], cells, counts)
        shapes[s] = ((counts[0] * 5 + counts[1]) * 5 + counts[2]) * 5 + counts[3]
    return shapes


def deck_score(order: Sequence[int], w: Valuation, state: State = START, exact_from: int = 0) -> float:
    """The best line's win - sum of rearranging penalties on one deck, as ``relaxed.deck_score`` with that charge.

    ``order`` lists the ranks still to come, first drawn first; ``state`` is the
    position before the first of them is drawn. With ``exact_from`` = K > 0, the
    states with K unseen cards score their exact no-peek value (:func:`exact_values`)
    instead of being searched on: the penalty from there on is the exact one, under
    which every line's best continuation scores exactly that value (docs/THEORY.md,
    Theorem 13).
    """
    ranks = tuple(order)
    stocks = checked_stocks(ranks)
    courts = [tuple(state[1])]
    for rank in ranks:
        now = list(courts[-1])
        if rank > TEN:
            now[KIND_CLASS[rank]] += 1
        courts.append(tuple(now))
    cut = max(len(ranks) - exact_from, 0) if exact_from > 0 else len(ranks)
    layers = [np.array([pack(state)], np.int64)]
    for t in range(min(cut, len(ranks) - 1)):
        rank = ranks[t]
        found = _forward(layers[t], rank, _home(rank), np.array(courts[t], np.int64), sum(courts[t]))
        layers.append(np.unique(found))
    if cut < len(ranks):
        if courts[cut] != court_cards(stocks[cut]):
            raise InvalidDeckError(
                f"the court cards {courts[cut]!r} are not those missing from the stock {stocks[cut]!r}"
            )
        following = layers[cut]
        following_scores = exact_values(following, stocks[cut])
    else:
        following, following_scores = np.zeros(0, np.int64), np.zeros(0)
    for t in range(cut - 1, -1, -1):
        rank, layer = ranks[t], layers[t]
        penalties = np.zeros(SHAPES)
        shapes = _shapes(layer)
        for shape, at in zip(*np.unique(shapes, return_index=True)):
            penalties[shape] = rearranging_penalty(unpack(int(layer[at]), courts[t]), stocks[t], rank, w)
        following_scores = _backward(
            layer,
            rank,
            _home(rank),
            np.array(courts[t], np.int64),
            sum(courts[t]),
            following,
            following_scores,
            penalties[shapes],
        )
        following = layer
    return float(following_scores[0]) if ranks else LOST


def _home(rank: int) -> int:
    """A court card's class, or -1 for a number card."""
    return KIND_CLASS[rank] if rank > TEN else -1


STOCK_BASE = 8  # the unseen cards packed one rank to three bits (at most four copies of a rank)


def pack_stock(stock: Sequence[int]) -> int:
    """The int64 key of a multiset of unseen ranks (index 0 unused)."""
    return sum(copies * STOCK_BASE**rank for rank, copies in enumerate(stock))


def court_cards(stock: Sequence[int]) -> tuple[int, ...]:
    """The court cards per class on the grid of a dealt deck's position with this stock: those not unseen."""
    return (0, 4 - stock[KING], 4 - stock[QUEEN], 4 - stock[JACK])


def exact_values(keys: np.ndarray, stock: Sequence[int]) -> np.ndarray:
    """The best no-peek chance from each packed state of ``keys`` with these unseen ranks: exact, compiled.

    The same expectimax as :func:`kcsolve.patience.players.endgame._expectimax` at
    class level (the mean over the next card's rank, the best over the placements
    and the removals' splits), on this module's packed states and children, with
    one memo for all the states (a layer's states share the stock and much of what follows).
    The court cards on the grid are those not unseen, as in any position of a dealt deck.
    """
    from numba import types
    from numba.typed import Dict

    memo = Dict.empty(key_type=types.UniTuple(types.int64, 2), value_type=types.float64)
    unseen = np.array(stock, np.int64)
    buffers = np.empty((int(unseen.sum()) + 1, MAX_CHILDREN), np.int64)
    code = pack_stock(stock)
    return np.array([_exact(int(key), unseen, code, 0, memo, buffers) for key in keys], np.float64)


@jit()
def _exact(key, stock, code, depth, memo, buffers):
    """Best-play chance from a packed state (settled: no removal due) with ``stock`` unseen, remembered in ``memo``."""
    if (key, code) in memo:
        return memo[(key, code)]
    total = stock.sum()
    placed = 12 - stock[JACK] - stock[QUEEN] - stock[KING]
    if total == 0:
        return 0.0  # the twelfth court card wins as it is placed, so a spent stock here is a loss
    courts = np.zeros(4, np.int64)
    courts[1] = 4 - stock[KING]
    courts[2] = 4 - stock[QUEEN]
    courts[3] = 4 - stock[JACK]
    cells = np.zeros((4, 4), np.int64)
    counts = np.zeros(4, np.int64)
    out = buffers[depth]
    value = 0.0
    for rank in range(1, 14):
        copies = stock[rank]
        if copies == 0:
            continue
        home = -1 if rank <= TEN else KING + 1 - rank  # Kings to class 1, Queens to 2, Jacks to 3
        m = _children(key, rank, home, courts, placed, out, cells, counts)
        stock[rank] -= 1
        best = 0.0
        for j in range(m):
            child = out[j]
            if child == WON_CHILD:
                best = 1.0
            elif child != LOST_CHILD:
                best = max(best, _exact(child, stock, code - STOCK_BASE**rank, depth + 1, memo, buffers))
        stock[rank] += 1
        value += copies * best
    value /= total
    memo[(key, code)] = value
    return value
