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

import numpy as np

from kcsolve.common.cards import TEN
from kcsolve.common.jit import jit
from kcsolve.errors import KcsolveError

WIN = -2  # child markers in the expansion: the game is won, or lost, by that draw
LOSS = -1
CHUNK = 2_000_000  # states expanded at once going forward: bounds the memory of their children
MAX_CHILDREN = 1024  # more than any state has: 13 draws, 3 classes, 15 seatings at most


def _tables() -> tuple[np.ndarray, ...]:
    """The codes of families (pairs removed, each side on the grid), Fives and Tens, and their inverses."""
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
    return (
        column(family, 0),
        column(family, 1),
        column(family, 2),
        family_index,
        column(fives, 0),
        column(fives, 1),
        five_index,
        column(tens, 0),
        column(tens, 1),
        ten_index,
    )


TABLES = _tables()
FAMILY_INDEX, FIVE_INDEX, TEN_INDEX = TABLES[3], TABLES[6], TABLES[9]


class InvalidRearrangingStateError(KcsolveError):
    """A question about the rearranging game that is no state of it between two draws."""


@jit()
def _ordered(a: int, b: int) -> tuple[int, int]:
    """The two numbers, smaller first."""
    return (a, b) if a <= b else (b, a)


@jit()
def _oriented(code, fr, fa, fb, fi):
    """The smaller code of a family and of the same family with its two sides swapped."""
    return min(code, fi[fr[code], fb[code], fa[code]])


@jit()
def _pack(f, five, ten, k0, k1, k2, n0, n1, n2, fr, fa, fb, fi):
    """The key of a state: families oriented and sorted, court classes sorted (the symmetries of Theorem 7)."""
    c0, c1 = _ordered(_oriented(f[0], fr, fa, fb, fi), _oriented(f[1], fr, fa, fb, fi))
    c2, c3 = _ordered(_oriented(f[2], fr, fa, fb, fi), _oriented(f[3], fr, fa, fb, fi))
    c0, c2 = _ordered(c0, c2)
    c1, c3 = _ordered(c1, c3)
    c1, c2 = _ordered(c1, c2)
    a0, a1 = _ordered(k0 * 8 + n0, k1 * 8 + n1)
    a1, a2 = _ordered(a1, k2 * 8 + n2)
    a0, a1 = _ordered(a0, a1)
    key = ((((c0 * 64 + c1) * 64 + c2) * 64 + c3) * 16 + five) * 16 + ten
    return ((key * 64 + a0) * 64 + a1) * 64 + a2


@jit()
def _unpack(key, f, k, n):
    """Fill the family codes, courts and numbers per court class from a key; return the Five and Ten codes."""
    for i in range(2, -1, -1):
        code = key % 64
        key //= 64
        k[i] = code // 8
        n[i] = code % 8
    ten = key % 16
    key //= 16
    five = key % 16
    key //= 16
    for i in range(3, -1, -1):
        f[i] = key % 64
        key //= 64
    return five, ten


@jit()
def _settle(f, five, ten, k, n, g, numbers, out_key, out_draw, m, draw, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi):
    """Record the child of a placed card: a win, the next state, or the forced removal and every seating after it."""
    courts = k[0] + k[1] + k[2]
    if courts == 12:
        out_key[m] = WIN
        out_draw[m] = draw
        return m + 1
    if numbers + courts < 16:
        out_key[m] = _pack(f, five, ten, k[0], k[1], k[2], n[0], n[1], n[2], fr, fa, fb, fi)
        out_draw[m] = draw
        return m + 1
    removed = 0
    for i in range(4):
        take = min(fa[f[i]], fb[f[i]])
        removed += 2 * take
        g[i] = fi[fr[f[i]] + take, fa[f[i]] - take, fb[f[i]] - take]
    pairs = fg[five] // 2
    removed += 2 * pairs + tg[ten]
    if removed == 0:
        out_key[m] = LOSS
        out_draw[m] = draw
        return m + 1
    five_after = fvi[fp[five] + pairs, fg[five] - 2 * pairs]
    ten_after = tvi[tt[ten] + tg[ten], 0]
    rest = max(0, numbers - removed - 4)
    for a in range(min(rest, 4 - k[0]) + 1):
        for b in range(min(rest - a, 4 - k[1]) + 1):
            if rest - a - b <= 4 - k[2]:
                out_key[m] = _pack(g, five_after, ten_after, k[0], k[1], k[2], a, b, rest - a - b, fr, fa, fb, fi)
                out_draw[m] = draw
                m += 1
    return m


@jit()
def _place(f, five, ten, k, n, g, numbers, out_key, out_draw, m, draw, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi):
    """Record the children of a number card: the centre while it has room, else each court class with room."""
    if numbers < 4:
        return _settle(
            f, five, ten, k, n, g, numbers + 1, out_key, out_draw, m, draw, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi
        )
    for x in range(3):
        if n[x] + k[x] < 4:
            n[x] += 1
            m = _settle(
                f, five, ten, k, n, g, numbers + 1, out_key, out_draw, m, draw, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi
            )
            n[x] -= 1
    return m


@jit()
def _expand(key, out_key, out_draw, weight, f, k, n, g, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi):
    """Every child of a state, tagged by its draw (0..2 court kinds, 3..10 family sides, 11 Five, 12 Ten).

    Fills ``weight`` with the unseen cards of each draw; returns the number of
    children and of unseen cards.
    """
    five, ten = _unpack(key, f, k, n)
    numbers = fg[five] + tg[ten]
    for i in range(4):
        numbers += fa[f[i]] + fb[f[i]]
    for d in range(13):
        weight[d] = 0
    m = 0
    for x in range(3):
        weight[x] = 4 - k[x]
        if weight[x] == 0:
            continue
        if n[x] + k[x] < 4:
            k[x] += 1
            m = _settle(
                f, five, ten, k, n, g, numbers, out_key, out_draw, m, x, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi
            )
            k[x] -= 1
        else:
            out_key[m] = LOSS
            out_draw[m] = x
            m += 1
    for i in range(4):
        code = f[i]
        r, a, b = fr[code], fa[code], fb[code]
        for side in range(2):
            draw = 3 + 2 * i + side
            weight[draw] = 4 - r - (a if side == 0 else b)
            if weight[draw] == 0:
                continue
            f[i] = fi[r, a + 1, b] if side == 0 else fi[r, a, b + 1]
            m = _place(
                f, five, ten, k, n, g, numbers, out_key, out_draw, m, draw, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi
            )
            f[i] = code
    weight[11] = 4 - 2 * fp[five] - fg[five]
    if weight[11]:
        m = _place(
            f,
            fvi[fp[five], fg[five] + 1],
            ten,
            k,
            n,
            g,
            numbers,
            out_key,
            out_draw,
            m,
            11,
            fr,
            fa,
            fb,
            fi,
            fp,
            fg,
            fvi,
            tt,
            tg,
            tvi,
        )
    weight[12] = 4 - tt[ten] - tg[ten]
    if weight[12]:
        m = _place(
            f,
            five,
            tvi[tt[ten], tg[ten] + 1],
            k,
            n,
            g,
            numbers,
            out_key,
            out_draw,
            m,
            12,
            fr,
            fa,
            fb,
            fi,
            fp,
            fg,
            fvi,
            tt,
            tg,
            tvi,
        )
    unseen = 0
    for d in range(13):
        unseen += weight[d]
    return m, unseen


@jit(nogil=True)
def _forward(keys, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi):
    """The keys of every state one card later (with repeats): the children that are neither won nor lost."""
    out_key = np.empty(MAX_CHILDREN, np.int64)
    out_draw = np.empty(MAX_CHILDREN, np.int64)
    weight = np.empty(13, np.int64)
    f, g = np.empty(4, np.int64), np.empty(4, np.int64)
    k, n = np.empty(3, np.int64), np.empty(3, np.int64)
    found = np.empty(8 * len(keys) + MAX_CHILDREN, np.int64)
    size = 0
    for s in range(len(keys)):
        m, _ = _expand(keys[s], out_key, out_draw, weight, f, k, n, g, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi)
        found, size = append_live(found, size, out_key, m)
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
def _backward(keys, slot_keys, slot_values, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi):
    """Each state's value: the average over the next card of the best child's value (next layer's, or 1 or 0)."""
    out_key = np.empty(MAX_CHILDREN, np.int64)
    out_draw = np.empty(MAX_CHILDREN, np.int64)
    weight = np.empty(13, np.int64)
    f, g = np.empty(4, np.int64), np.empty(4, np.int64)
    k, n = np.empty(3, np.int64), np.empty(3, np.int64)
    best = np.empty(13, np.float64)
    values = np.empty(len(keys), np.float64)
    size = len(slot_keys)
    for s in range(len(keys)):
        m, unseen = _expand(keys[s], out_key, out_draw, weight, f, k, n, g, fr, fa, fb, fi, fp, fg, fvi, tt, tg, tvi)
        for d in range(13):
            best[d] = 0.0
        for j in range(m):
            key = out_key[j]
            if key == WIN:
                value = 1.0
            elif key == LOSS:
                value = 0.0
            else:
                h = _slot(key, size)
                while slot_keys[h] != key:
                    h = (h + 1) & (size - 1)
                value = slot_values[h]
            best[out_draw[j]] = max(best[out_draw[j]], value)
        total = 0.0
        for d in range(13):
            total += weight[d] * best[d]
        values[s] = total / unseen
    return values


def _backward_chunk(keys: np.ndarray, slot_keys: np.ndarray, slot_values: np.ndarray) -> np.ndarray:
    """One thread's share of a layer's values."""
    return _backward(keys, slot_keys, slot_values, *TABLES)


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
    f = np.array([FAMILY_INDEX[removed[v], grid[v], grid[TEN - v]] for v in range(1, 5)], np.int64)
    return int(
        _pack(
            f,
            FIVE_INDEX[removed[5] // 2, grid[5]],
            TEN_INDEX[removed[TEN], grid[TEN]],
            courts[1],
            courts[2],
            courts[3],
            len(cells[1]),
            len(cells[2]),
            len(cells[3]),
            *TABLES[:4],
        )
    )


def unseen_count(key: int) -> int:
    """How many cards are unseen in the state of a key (a table's layer holds states with one such count)."""
    fr, fa, fb, _, fp, fg, _, tt, tg, _ = TABLES
    f, k, n = np.empty(4, np.int64), np.empty(3, np.int64), np.empty(3, np.int64)
    five, ten = _unpack(key, f, k, n)
    families = sum(8 - 2 * int(fr[code]) - int(fa[code]) - int(fb[code]) for code in f)
    return families + 4 - 2 * int(fp[five]) - int(fg[five]) + 4 - int(tt[ten]) - int(tg[ten]) + 12 - int(k.sum())


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
            parts = list(pool.map(lambda chunk: np.unique(_forward(chunk, *TABLES)), chunks))
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
