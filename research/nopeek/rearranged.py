"""An exact upper bound on the best chance without seeing the deck: the value of the rearranging game.

The *rearranging game* is the standard game (forced removal, pairs, fixed courts,
courts goal) played without seeing the deck, with one favour to the player: right
after each removal, the number cards left on the grid may be moved to any cells,
court cards staying where they are (docs/THEORY.md, section 10, Theorem 9). Every
strategy of the real game is a strategy of this one with the same result, so its
best chance is an upper bound on the real best chance.

Moving cards after each removal makes the number cards of one class
interchangeable until the next removal, so a state between draws is: for each
family of values {v, 10 - v} the cards of each side on the grid and unseen, the
same for Fives and Tens, the court cards of each kind placed, and the number cards
in each court class (the centre holds the first four, which is never worse).
States are merged by the 2,304 symmetries of Theorem 7 and packed into one int64:

- four 6-bit family codes, sorted (a code is the pairs removed r and the two sides
  on the grid, each side's unseen cards being 4 - r - on grid; of a family and its
  swapped sides the smaller code is kept);
- a 4-bit code for the Fives (pairs removed, on the grid), one for the Tens;
- three 6-bit codes 8 * courts + numbers for the court classes, sorted.

The value is computed layer by layer (cards drawn): every reachable state is listed
going forward, then each layer's values are computed from the next one's going back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import repeat
from typing import NamedTuple

import numpy as np

from kcsolve.common.cards import TEN
from kcsolve.common.jit import jit
from kcsolve.errors import KcsolveError

WIN = -2  # child markers in the expansion: the game is won, or lost, by that draw
LOSS = -1
CHUNK = 2_000_000  # states expanded at once going forward: bounds the memory of their children
MAX_CHILDREN = 1024  # more than any state has: 13 draws, 3 classes, 15 seatings at most


class FamilyTable(NamedTuple):
    """The 55 codes of a family {v, 10 - v}: each is the pairs removed and the two sides on the grid.

    ``removed[c]`` is the pairs of the family removed (0..4), ``side_a[c]`` and
    ``side_b[c]`` the cards of each side on the grid (a side's unseen cards are
    4 - removed - on grid); ``code[r, a, b]`` is the code of those three (-1 where
    r + a or r + b passes 4).
    """

    removed: np.ndarray
    side_a: np.ndarray
    side_b: np.ndarray
    code: np.ndarray


class FiveTable(NamedTuple):
    """The 9 codes of the Fives: each is the pairs of Fives removed and the Fives on the grid.

    ``pairs[c]`` is the pairs removed (0..2), ``grid[c]`` the Fives on the grid;
    ``code[p, g]`` is the code of those two (-1 where 2p + g passes 4).
    """

    pairs: np.ndarray
    grid: np.ndarray
    code: np.ndarray


class TenTable(NamedTuple):
    """The 15 codes of the Tens: each is the Tens removed (one at a time) and the Tens on the grid.

    ``removed[c]`` is the Tens removed (0..4), ``grid[c]`` the Tens on the grid;
    ``code[t, g]`` is the code of those two (-1 where t + g passes 4).
    """

    removed: np.ndarray
    grid: np.ndarray
    code: np.ndarray


class Tables(NamedTuple):
    """Every table the kernels read, one per kind of value code: families, Fives, Tens (:data:`TABLES`).

    The kernels take it as one argument (in plain tuples: :data:`KERNEL_TABLES`)
    and unpack it once at their top; :func:`_pack`, run for every child, takes the
    family columns as plain arrays, and the buffers (``state``, ``classes``,
    ``after``, ``children``: see :func:`_expand`) stay plain arrays. Unpacking a
    tuple in that leaf, or keeping the buffers in one, cost a quarter of the speed
    when measured.
    """

    families: FamilyTable
    fives: FiveTable
    tens: TenTable


def _tables() -> Tables:
    """The kernels' tables, built once: for each kind of value code, what a code holds and the code of each holding.

    - families (:class:`FamilyTable`): code -> pairs removed, side a and side b on
      the grid; (pairs removed, side a, side b) -> code;
    - Fives (:class:`FiveTable`): code -> pairs removed, Fives on the grid; and back;
    - Tens (:class:`TenTable`): code -> Tens removed, Tens on the grid; and back.

    Codes are numbered in the order listed here: the keys depend on it.
    """
    family = [(r, a, b) for r in range(5) for a in range(5 - r) for b in range(5 - r)]
    fives = [(p, g) for p in range(3) for g in range(5 - 2 * p)]
    tens = [(t, g) for t in range(5) for g in range(5 - t)]
    family_index = -np.ones((5, 5, 5), np.int64)
    for i, (r, a, b) in enumerate(family):
        family_index[r, a, b] = i
    five_index = -np.ones((3, 5), np.int64)
    for i, (p, g) in enumerate(fives):
        five_index[p, g] = i
    ten_index = -np.ones((5, 5), np.int64)
    for i, (t, g) in enumerate(tens):
        ten_index[t, g] = i
    column = lambda rows, j: np.array([row[j] for row in rows], np.int64)  # noqa: E731
    return Tables(
        FamilyTable(column(family, 0), column(family, 1), column(family, 2), family_index),
        FiveTable(column(fives, 0), column(fives, 1), five_index),
        TenTable(column(tens, 0), column(tens, 1), ten_index),
    )


TABLES = _tables()
# The same arrays in plain tuples, as the kernels are given them: numba's on-disk cache pickles the class of a
# NamedTuple argument into its index, so renaming a class above would make an older cache fail to load.
KERNEL_TABLES = tuple(tuple(table) for table in TABLES)
FIVE_SLOT, TEN_SLOT = 4, 5  # where a state's Five code and Ten code sit, after its four family codes


class InvalidRearrangingStateError(KcsolveError):
    """A question about the rearranging game that is no state of it between two draws."""


@jit()
def _ordered(a: int, b: int) -> tuple[int, int]:
    """The two numbers, smaller first."""
    return (a, b) if a <= b else (b, a)


@jit()
def _oriented(code, removed, side_a, side_b, family_code):
    """The smaller code of a family and of the same family with its two sides swapped (FamilyTable's columns)."""
    return min(code, family_code[removed[code], side_b[code], side_a[code]])


@jit()
def _pack(state, x0, x1, x2, removed, side_a, side_b, family_code):
    """The key of a state: families oriented and sorted, court classes sorted (the symmetries of Theorem 7).

    ``state`` holds the four family codes, the Five code and the Ten code; x0..x2
    the codes 8 * courts + numbers of the court classes; the rest are the columns
    of :class:`FamilyTable` (plain arrays: this runs for every child).
    """
    c0, c1 = _ordered(
        _oriented(state[0], removed, side_a, side_b, family_code),
        _oriented(state[1], removed, side_a, side_b, family_code),
    )
    c2, c3 = _ordered(
        _oriented(state[2], removed, side_a, side_b, family_code),
        _oriented(state[3], removed, side_a, side_b, family_code),
    )
    c0, c2 = _ordered(c0, c2)
    c1, c3 = _ordered(c1, c3)
    c1, c2 = _ordered(c1, c2)
    a0, a1 = _ordered(x0, x1)
    a1, a2 = _ordered(a1, x2)
    a0, a1 = _ordered(a0, a1)
    key = ((((c0 * 64 + c1) * 64 + c2) * 64 + c3) * 16 + state[FIVE_SLOT]) * 16 + state[TEN_SLOT]
    return ((key * 64 + a0) * 64 + a1) * 64 + a2


@jit()
def _unpack(key, state, classes):
    """Fill a state's codes (four families, Five, Ten) and its court classes (court cards, number cards) from a key."""
    for i in range(2, -1, -1):
        code = key % 64
        key //= 64
        classes[0, i] = code // 8
        classes[1, i] = code % 8
    state[TEN_SLOT] = key % 16
    key //= 16
    state[FIVE_SLOT] = key % 16
    key //= 16
    for i in range(3, -1, -1):
        state[i] = key % 64
        key //= 64


@jit()
def _settle(state, classes, after, numbers, draw, children, m, tables):
    """Record the child of a placed card: a win, the next state, or the forced removal and every seating after it.

    The placed card is already in ``state`` and ``classes`` and counted in
    ``numbers`` (the number cards on the grid); ``after`` is room for the codes
    after a removal. Writes the children from ``m`` on; returns where they end.
    """
    (removed_of, side_a, side_b, family_code), (five_pairs, five_grid, five_code), (ten_removed, ten_grid, ten_code) = (
        tables
    )
    courts = classes[0, 0] + classes[0, 1] + classes[0, 2]
    if courts == 12:
        children[0, m] = WIN
        children[1, m] = draw
        return m + 1
    if numbers + courts < 16:
        children[0, m] = _pack(
            state,
            8 * classes[0, 0] + classes[1, 0],
            8 * classes[0, 1] + classes[1, 1],
            8 * classes[0, 2] + classes[1, 2],
            removed_of,
            side_a,
            side_b,
            family_code,
        )
        children[1, m] = draw
        return m + 1
    removed = 0
    for i in range(4):
        c = state[i]
        take = min(side_a[c], side_b[c])
        removed += 2 * take
        after[i] = family_code[removed_of[c] + take, side_a[c] - take, side_b[c] - take]
    c = state[FIVE_SLOT]
    pairs = five_grid[c] // 2
    removed += 2 * pairs + ten_grid[state[TEN_SLOT]]
    if removed == 0:
        children[0, m] = LOSS
        children[1, m] = draw
        return m + 1
    after[FIVE_SLOT] = five_code[five_pairs[c] + pairs, five_grid[c] - 2 * pairs]
    c = state[TEN_SLOT]
    after[TEN_SLOT] = ten_code[ten_removed[c] + ten_grid[c], 0]
    rest = max(0, numbers - removed - 4)
    k0, k1, k2 = classes[0, 0], classes[0, 1], classes[0, 2]
    for a in range(min(rest, 4 - k0) + 1):
        for b in range(min(rest - a, 4 - k1) + 1):
            if rest - a - b <= 4 - k2:
                children[0, m] = _pack(
                    after, 8 * k0 + a, 8 * k1 + b, 8 * k2 + rest - a - b, removed_of, side_a, side_b, family_code
                )
                children[1, m] = draw
                m += 1
    return m


@jit()
def _place(state, classes, after, numbers, draw, children, m, tables):
    """Record the children of a number card: the centre while it has room, else each court class with room.

    The card is already in ``state``; ``numbers`` counts the number cards on the grid before it.
    """
    if numbers < 4:
        return _settle(state, classes, after, numbers + 1, draw, children, m, tables)
    for x in range(3):
        if classes[1, x] + classes[0, x] < 4:
            classes[1, x] += 1
            m = _settle(state, classes, after, numbers + 1, draw, children, m, tables)
            classes[1, x] -= 1
    return m


@jit()
def _expand(key, state, classes, after, children, weight, tables):
    """Every child of a state, tagged by its draw (0..2 court kinds, 3..10 family sides, 11 Five, 12 Ten).

    The buffers, plain arrays reused from state to state: ``state`` the six codes
    (four families, Five, Ten), ``classes`` the court cards (row 0) and number
    cards (row 1) of each court class, ``after`` the six codes after a forced
    removal, ``children`` the children (row 0: a key, WIN or LOSS; row 1: the
    draw), ``weight`` the unseen cards of each draw. Returns the number of
    children and of unseen cards.
    """
    (removed_of, side_a, side_b, family_code), (five_pairs, five_grid, five_code), (ten_removed, ten_grid, ten_code) = (
        tables
    )
    _unpack(key, state, classes)
    f, t = state[FIVE_SLOT], state[TEN_SLOT]
    numbers = five_grid[f] + ten_grid[t]
    for i in range(4):
        numbers += side_a[state[i]] + side_b[state[i]]
    for d in range(13):
        weight[d] = 0
    m = 0
    for x in range(3):
        weight[x] = 4 - classes[0, x]
        if weight[x] == 0:
            continue
        if classes[1, x] + classes[0, x] < 4:
            classes[0, x] += 1
            m = _settle(state, classes, after, numbers, x, children, m, tables)
            classes[0, x] -= 1
        else:
            children[0, m] = LOSS
            children[1, m] = x
            m += 1
    for i in range(4):
        code = state[i]
        r, a, b = removed_of[code], side_a[code], side_b[code]
        for side in range(2):
            draw = 3 + 2 * i + side
            weight[draw] = 4 - r - (a if side == 0 else b)
            if weight[draw] == 0:
                continue
            state[i] = family_code[r, a + 1, b] if side == 0 else family_code[r, a, b + 1]
            m = _place(state, classes, after, numbers, draw, children, m, tables)
            state[i] = code
    weight[11] = 4 - 2 * five_pairs[f] - five_grid[f]
    if weight[11]:
        state[FIVE_SLOT] = five_code[five_pairs[f], five_grid[f] + 1]
        m = _place(state, classes, after, numbers, 11, children, m, tables)
        state[FIVE_SLOT] = f
    weight[12] = 4 - ten_removed[t] - ten_grid[t]
    if weight[12]:
        state[TEN_SLOT] = ten_code[ten_removed[t], ten_grid[t] + 1]
        m = _place(state, classes, after, numbers, 12, children, m, tables)
        state[TEN_SLOT] = t
    unseen = 0
    for d in range(13):
        unseen += weight[d]
    return m, unseen


@jit(nogil=True)
def _forward(keys, tables):
    """The keys of every state one card later (with repeats): the children that are neither won nor lost."""
    state, after = np.empty(6, np.int64), np.empty(6, np.int64)
    classes = np.empty((2, 3), np.int64)
    children = np.empty((2, MAX_CHILDREN), np.int64)
    weight = np.empty(13, np.int64)
    found = np.empty(8 * len(keys) + MAX_CHILDREN, np.int64)
    size = 0
    for s in range(len(keys)):
        m, _ = _expand(keys[s], state, classes, after, children, weight, tables)
        found, size = append_live(found, size, children[0], m)
    return found[:size]


@jit()
def append_live(found, size, children, m):
    """Append the first ``m`` children that are states (not won or lost markers), growing ``found`` as needed."""
    if size + m > len(found):
        grown = np.empty(2 * len(found) + m, np.int64)
        grown[:size] = found[:size]
        found = grown
    for j in range(m):
        if children[j] >= 0:
            found[size] = children[j]
            size += 1
    return found, size


@jit(nogil=True)
def _table(keys, values):
    """An open-addressing table of a layer's values by key (a binary search per child was the slow part)."""
    size = 1
    while size < 2 * len(keys) + 1:
        size *= 2
    slot_keys = np.full(size, -1, np.int64)
    slot_values = np.zeros(size, np.float64)
    for i in range(len(keys)):
        h = _slot(keys[i], size)
        while slot_keys[h] >= 0:
            h = (h + 1) & (size - 1)
        slot_keys[h] = keys[i]
        slot_values[h] = values[i]
    return slot_keys, slot_values


@jit()
def _slot(key, size):
    """Where a key's probe starts: a multiplicative hash of its bits."""
    return int((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)) & (size - 1)


@jit(nogil=True)
def _backward(keys, slot_keys, slot_values, tables):
    """Each state's value: the average over the next card of the best child's value (next layer's, or 1 or 0).

    ``slot_keys`` and ``slot_values`` are the next layer's values (:func:`_table`).
    """
    state, after = np.empty(6, np.int64), np.empty(6, np.int64)
    classes = np.empty((2, 3), np.int64)
    children = np.empty((2, MAX_CHILDREN), np.int64)
    weight = np.empty(13, np.int64)
    best = np.empty(13, np.float64)
    values = np.empty(len(keys), np.float64)
    size = len(slot_keys)
    for s in range(len(keys)):
        m, unseen = _expand(keys[s], state, classes, after, children, weight, tables)
        for d in range(13):
            best[d] = 0.0
        for j in range(m):
            key = children[0, j]
            if key == WIN:
                value = 1.0
            elif key == LOSS:
                value = 0.0
            else:
                h = _slot(key, size)
                while slot_keys[h] != key:
                    h = (h + 1) & (size - 1)
                value = slot_values[h]
            best[children[1, j]] = max(best[children[1, j]], value)
        total = 0.0
        for d in range(13):
            total += weight[d] * best[d]
        values[s] = total / unseen
    return values


def _backward_chunk(keys: np.ndarray, slot_keys: np.ndarray, slot_values: np.ndarray) -> np.ndarray:
    """One thread's share of a layer's values."""
    return _backward(keys, slot_keys, slot_values, KERNEL_TABLES)


def state_key(cells: Sequence[Sequence[int]], courts: Sequence[int], unseen: Sequence[int]) -> int:
    """The key of a state given as a class view (centre, corners, Queen cells, Jack cells) and unseen counts by rank.

    ``unseen[r]`` counts the unseen cards of rank r (1..13); the centre must hold
    min(4, number cards on the grid), as the rearranging game keeps it.
    """
    if (
        len(cells) != 4
        or len(courts) != 4
        or len(unseen) != 14
        or courts[0]
        or any(type(x) is not int for x in (*courts, *unseen))
    ):
        raise InvalidRearrangingStateError(
            f"a class view has four classes and whole unseen counts by rank 0..13, "
            f"got {len(cells)!r}, {list(courts)!r}, {list(unseen)!r}"
        )
    grid = [0] * (TEN + 1)
    for values in cells:
        for v in values:
            if type(v) is not int or not 1 <= v <= TEN:
                raise InvalidRearrangingStateError(f"class contents must be number values 1..10, got {cells!r}")
            grid[v] += 1
    numbers = sum(grid)
    if len(cells[0]) != min(4, numbers) or numbers + sum(courts) >= 16:
        raise InvalidRearrangingStateError(
            f"not a state between draws with the centre filled first: {[len(c) for c in cells]!r}, courts {courts!r}"
        )
    for rank, c in ((13, 1), (12, 2), (11, 3)):
        if courts[c] + unseen[rank] != 4 or len(cells[c]) + courts[c] > 4:
            raise InvalidRearrangingStateError(f"court class {c} and unseen rank {rank} do not make four: {courts!r}")
    removed = [4 - grid[v] - unseen[v] for v in range(TEN + 1)]
    if (
        any(not 0 <= r <= 4 for r in removed[1:])
        or any(removed[v] != removed[TEN - v] for v in range(1, 5))
        or removed[5] % 2
    ):
        raise InvalidRearrangingStateError(
            f"these counts are no result of pair removals: grid {grid[1:]!r}, unseen {list(unseen[1:11])!r}"
        )
    families, fives, tens = TABLES
    state = np.array(
        [families.code[removed[v], grid[v], grid[TEN - v]] for v in range(1, 5)]
        + [fives.code[removed[5] // 2, grid[5]], tens.code[removed[TEN], grid[TEN]]],
        np.int64,
    )
    classes = [8 * courts[c] + len(cells[c]) for c in (1, 2, 3)]
    return int(_pack(state, *classes, *families))


def unseen_count(key: int) -> int:
    """How many cards are unseen in the state of a key (a table's layer holds states with one such count)."""
    families, fives, tens = TABLES
    state, classes = np.empty(6, np.int64), np.empty((2, 3), np.int64)
    _unpack(key, state, classes)
    unseen = sum(
        8 - 2 * int(families.removed[c]) - int(families.side_a[c]) - int(families.side_b[c]) for c in state[:4]
    )
    unseen += 4 - 2 * int(fives.pairs[state[FIVE_SLOT]]) - int(fives.grid[state[FIVE_SLOT]])
    return (
        unseen + 4 - int(tens.removed[state[TEN_SLOT]]) - int(tens.grid[state[TEN_SLOT]]) + 12 - int(classes[0].sum())
    )


START = (((), (), (), ()), (0, 0, 0, 0), (0,) + (4,) * 13)


def rearranged_values(
    keys: Sequence[int],
    log: Callable[[str], None] | None = None,
    threads: int = 1,
    keep: Callable[[int, np.ndarray, np.ndarray], None] | None = None,
) -> tuple[np.ndarray, list[int]]:
    """The best chance of the rearranging game from each state, exactly, and the number of states in each layer.

    ``threads`` share each layer's states (the compiled loops run without the GIL).
    ``keep`` is given each layer's depth (cards on from the first keys), sorted
    keys and values as they are done, last layer first: the whole value table.
    """
    layers = [np.unique(np.array(keys, np.int64))]
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        while len(layers[-1]):
            current = layers[-1]
            step = min(CHUNK, -(-len(current) // threads))
            chunks = [current[lo : lo + step] for lo in range(0, len(current), step)]
            parts = list(pool.map(lambda chunk: np.unique(_forward(chunk, KERNEL_TABLES)), chunks))
            layers.append(np.unique(np.concatenate(parts)))
            if log:
                log(
                    f"forward: {len(layers) - 1} cards on, {len(layers[-1]):,} states "
                    f"({time.perf_counter() - started:,.0f} s)"
                )
        counts = [len(layer) for layer in layers[:-1]]
        values = np.zeros(0)
        for depth in range(len(layers) - 2, -1, -1):
            slot_keys, slot_values = _table(layers[depth + 1], values)
            step = -(-len(layers[depth]) // threads)
            chunks = [layers[depth][lo : lo + step] for lo in range(0, len(layers[depth]), step)]
            values = np.concatenate(list(pool.map(_backward_chunk, chunks, repeat(slot_keys), repeat(slot_values))))
            if keep:
                keep(depth, layers[depth], values)
            layers[depth + 1] = np.zeros(0, np.int64)  # its values are folded into this layer's: free the keys
            if log:
                log(f"back: {depth} cards on done ({time.perf_counter() - started:,.0f} s)")
    order = np.searchsorted(layers[0], np.array(keys, np.int64))
    return values[order], counts


def rearranged_chance(cells: Sequence[Sequence[int]], courts: Sequence[int], unseen: Sequence[int]) -> float:
    """The rearranging game's best chance from one state between draws (fast only late in the game)."""
    values, _ = rearranged_values([state_key(cells, courts, unseen)])
    return float(values[0])
