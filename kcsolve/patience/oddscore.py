"""The compiled core of :mod:`kcsolve.patience.odds`: winning class sequences of the forced pair course.

A deal is drawn as a sequence of card *classes*: a court card, a Ten, a Five, or one
side of a family {v, 10 - v}. The forced pair course depends only on that sequence
(docs/THEORY.md, section 8), so the count runs over class sequences, layer by layer
(one layer per card drawn), merging states that the family symmetries make equal.

A state is packed into one int64. For each family, with ``a`` and ``b`` cards of its
two sides drawn, the grid holds ``m + max(a - b, 0)`` and ``m + max(b - a, 0)`` of
them, because a removal takes one of each side and so never changes the difference
(the pair invariant); ``m`` is therefore all that the grid adds. Families are stored
with ``a >= b`` and sorted, which merges the symmetric states.

Counts exceed 64 bits, so every count is kept modulo a few primes below 2**31
(products of two residues stay below 2**62) and rebuilt by the Chinese remainder
theorem in :mod:`kcsolve.patience.odds`. Adding class sequences needs no
multiplication; only a win multiplies, by the number of orders of the classes left.
"""

from __future__ import annotations

import numpy as np
from numba import njit

FAMILY_BITS = 7
COURT_SHIFT = 28
TEN_SHIFT = 32
TEN_GRID_SHIFT = 35
FIVE_SHIFT = 38
FIVE_GRID_SHIFT = 41
MAX_FAMILIES = 4
MAX_COPIES = 4


@njit(cache=True)
def family_code(a: int, b: int, m: int) -> int:
    """One family's (drawn, drawn, pairs on the grid) as a number, larger side first."""
    if a < b:
        a, b = b, a
    return (a * 5 + b) * 5 + m


@njit(cache=True)
def pack(c: int, t: int, tg: int, f: int, fg: int, codes: np.ndarray, families: int) -> int:
    """The canonical key of a state: family codes sorted (in place), then the scalar fields."""
    for i in range(1, families):
        code = codes[i]
        j = i - 1
        while j >= 0 and codes[j] > code:
            codes[j + 1] = codes[j]
            j -= 1
        codes[j + 1] = code
    key = 0
    for i in range(families):
        key = (key << FAMILY_BITS) | codes[i]
    return (key | (c << COURT_SHIFT) | (t << TEN_SHIFT) | (tg << TEN_GRID_SHIFT)
            | (f << FIVE_SHIFT) | (fg << FIVE_GRID_SHIFT))


@njit(cache=True)
def _slot(table: np.ndarray, key: int) -> int:
    """The row of ``key`` in an open-addressing table whose column 0 holds keys (-1 marks a free row)."""
    mask = table.shape[0] - 1
    slot = ((key * -7046029254386353131) >> 17) & mask  # Fibonacci hashing spreads the packed fields
    while table[slot, 0] != key and table[slot, 0] != -1:
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def _table(rows: int, width: int) -> np.ndarray:
    """An empty table: a power of two rows, each a key and its residues."""
    size = 1024
    while size < rows:
        size *= 2
    table = np.zeros((size, width + 1), np.int64)
    table[:, 0] = -1
    return table


@njit(cache=True)
def _rehash(table: np.ndarray) -> np.ndarray:
    """The same entries in a table twice as large."""
    bigger = _table(2 * table.shape[0], table.shape[1] - 1)
    for row in range(table.shape[0]):
        if table[row, 0] != -1:
            bigger[_slot(bigger, table[row, 0])] = table[row]
    return bigger


@njit(cache=True)
def _compact(table: np.ndarray) -> np.ndarray:
    """The occupied rows of a table, in slot order."""
    return table[table[:, 0] != -1].copy()


@njit(cache=True)
def _completions(rest: int, left: np.ndarray, classes: int, primes: np.ndarray, fact: np.ndarray,
                 inverse_fact: np.ndarray, out: np.ndarray) -> None:
    """Orders of the classes left (a multinomial), modulo each prime, into ``out``."""
    for k in range(primes.size):
        p = primes[k]
        value = fact[k, rest]
        for j in range(classes):
            value = value * inverse_fact[k, left[j]] % p
        out[k] = value


@njit(cache=True)
def count_wins(start: int, deck: int, grid: int, courts: int, copies: int, families: int,
               stop_at_courts: bool, primes: np.ndarray, fact: np.ndarray, inverse_fact: np.ndarray) -> np.ndarray:
    """Winning class sequences from the packed state ``start``, modulo each prime; the last entry is the state count."""
    width = primes.size
    wins = np.zeros(width + 1, np.int64)
    layer = np.ones((1, width + 1), np.int64)
    layer[0, 0] = start
    codes = np.zeros(MAX_FAMILIES, np.int64)
    base = np.zeros(MAX_FAMILIES, np.int64)
    drawn_a = np.zeros(MAX_FAMILIES, np.int64)
    drawn_b = np.zeros(MAX_FAMILIES, np.int64)
    pairs = np.zeros(MAX_FAMILIES, np.int64)
    left = np.zeros(3 + 2 * MAX_FAMILIES, np.int64)
    completion = np.zeros(width, np.int64)
    states = 0
    while layer.shape[0] > 0:
        table = _table(4 * layer.shape[0], width)
        used = 0
        for row in range(layer.shape[0]):
            key = layer[row, 0]
            states += 1
            c = (key >> COURT_SHIFT) & 15
            t = (key >> TEN_SHIFT) & 7
            tg = (key >> TEN_GRID_SHIFT) & 7
            f = (key >> FIVE_SHIFT) & 7
            fg = (key >> FIVE_GRID_SHIFT) & 7
            drawn = c + t + f
            on_grid = c + tg + fg
            for i in range(families):
                code = (key >> (FAMILY_BITS * (families - 1 - i))) & 127
                drawn_a[i] = code // 25
                drawn_b[i] = code // 5 % 5
                pairs[i] = code % 5
                base[i] = code
                drawn += drawn_a[i] + drawn_b[i]
                on_grid += drawn_a[i] - drawn_b[i] + 2 * pairs[i]
            rest = deck - drawn - 1
            for kind in range(3 + 2 * families):
                nc, nt, ntg, nf, nfg = c, t, tg, f, fg
                codes[:families] = base[:families]
                weight = 1
                if kind == 0:
                    if c == courts:
                        continue
                    nc += 1
                elif kind == 1:
                    if t == copies:
                        continue
                    nt += 1
                    ntg += 1
                elif kind == 2:
                    if f == copies:
                        continue
                    nf += 1
                    nfg += 1
                else:
                    i = (kind - 3) // 2
                    a, b, m = drawn_a[i], drawn_b[i], pairs[i]
                    # Equal families (adjacent, as codes are sorted) and the two sides of a family drawn
                    # equally often lead to the same state: take it once, weighted by how many ways lead there.
                    if i > 0 and base[i] == base[i - 1] or (kind - 3) % 2 == 1 and a == b:
                        continue
                    while i + weight < families and base[i + weight] == base[i]:
                        weight += 1
                    if a == b:
                        weight *= 2
                    if (kind - 3) % 2 == 0:
                        if a == copies:
                            continue
                        a += 1
                    else:
                        if b == copies:
                            continue
                        b += 1
                    if (b <= a) if (kind - 3) % 2 == 1 else (a <= b):
                        m += 1  # the drawn side was the smaller: it pairs with a card already on the grid
                    codes[i] = family_code(a, b, m)
                if stop_at_courts and kind == 0 and nc == courts or rest == 0:
                    left[0] = courts - nc
                    left[1] = copies - nt
                    left[2] = copies - nf
                    for i in range(families):
                        code = codes[i]
                        left[3 + 2 * i] = copies - code // 25
                        left[4 + 2 * i] = copies - code // 5 % 5
                    _completions(rest, left, 3 + 2 * families, primes, fact, inverse_fact, completion)
                    for k in range(width):
                        wins[k] = (wins[k] + layer[row, k + 1] * weight % primes[k] * completion[k]) % primes[k]
                    continue
                if on_grid + 1 == grid:
                    removable = ntg > 0 or nfg >= 2
                    for i in range(families):
                        if codes[i] % 5 > 0:
                            removable = True
                            codes[i] -= codes[i] % 5
                    if not removable:
                        continue
                    ntg = 0
                    nfg %= 2
                after = pack(nc, nt, ntg, nf, nfg, codes, families)
                slot = _slot(table, after)
                if table[slot, 0] == -1:
                    if 2 * used >= table.shape[0]:
                        table = _rehash(table)
                        slot = _slot(table, after)
                    table[slot, 0] = after
                    used += 1
                for k in range(width):
                    total = table[slot, k + 1] + layer[row, k + 1] * weight % primes[k]
                    table[slot, k + 1] = total - primes[k] if total >= primes[k] else total
        layer = _compact(table)
    wins[width] = states
    return wins
