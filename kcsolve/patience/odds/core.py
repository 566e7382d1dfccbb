"""The compiled core of :mod:`kcsolve.patience.odds.count`: winning class sequences of the forced pair course.

A deal is drawn as a sequence of card *classes*: a court card, a Ten, a Five, or one
side of a family {v, 10 - v}. The forced pair course depends only on that sequence
(docs/THEORY.md, section 8), so the count runs over class sequences, layer by layer
(one layer per card drawn), merging states that the family symmetries make equal.

A state is packed into one int64: court cards, Tens and Fives drawn, the cards of
each side of each family drawn, and ``paired``, the cards on the grid that a removal
would take (Tens, Fives beyond an odd one, and pairs of a family). Which cards those
are does not matter: a full grid jams exactly when ``paired`` is 0, and a removal
takes all of them. Everything else on the grid follows from the counts drawn,
because a removal takes one card of each side of a family and so never changes
their difference (the pair invariant), and two Fives go together, so the Fives on
the grid beyond the pairs are the parity of the Fives drawn. Families are stored
with the larger side first and sorted, which merges the symmetric states.

Counts exceed 64 bits, so every count is kept modulo a few primes below 2**31
(products of two residues stay below 2**62) and rebuilt by the Chinese remainder
theorem in :mod:`kcsolve.patience.odds.count`. Adding class sequences needs no
multiplication; only a win multiplies, by the number of orders of the classes left.
"""

from __future__ import annotations

import numpy as np

from kcsolve.common.jit import jit

FAMILY_BITS = 5
COURT_SHIFT = 20
TEN_SHIFT = 24
FIVE_SHIFT = 27
PAIRED_SHIFT = 30
MAX_FAMILIES = 4
MAX_COPIES = 4


@jit()
def family_code(a: int, b: int) -> int:
    """One family's drawn counts (one per side) as a number, larger side first."""
    if a < b:
        a, b = b, a
    return a * 5 + b


@jit()
def pack(c: int, t: int, f: int, paired: int, codes: np.ndarray, families: int) -> int:
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
    return key | (c << COURT_SHIFT) | (t << TEN_SHIFT) | (f << FIVE_SHIFT) | (paired << PAIRED_SHIFT)


@jit()
def _slot(table: np.ndarray, key: int) -> int:
    """The row of ``key`` in an open-addressing table whose column 0 holds keys (-1 marks a free row)."""
    mask = table.shape[0] - 1
    slot = ((key * -7046029254386353131) >> 17) & mask  # Fibonacci hashing spreads the packed fields
    while table[slot, 0] != key and table[slot, 0] != -1:
        slot = (slot + 1) & mask
    return slot


@jit()
def _table(rows: int, width: int) -> np.ndarray:
    """An empty table: a power of two rows, each a key and its residues."""
    size = 1024
    while size < rows:
        size *= 2
    table = np.zeros((size, width + 1), np.int64)
    table[:, 0] = -1
    return table


@jit()
def _rehash(table: np.ndarray) -> np.ndarray:
    """The same entries in a table twice as large."""
    bigger = _table(2 * table.shape[0], table.shape[1] - 1)
    for row in range(table.shape[0]):
        if table[row, 0] != -1:
            bigger[_slot(bigger, table[row, 0])] = table[row]
    return bigger


@jit()
def _compact(table: np.ndarray) -> np.ndarray:
    """The occupied rows of a table, in slot order."""
    return table[table[:, 0] != -1].copy()


@jit()
def _completions(
    rest: int,
    left: np.ndarray,
    classes: int,
    primes: np.ndarray,
    fact: np.ndarray,
    inverse_fact: np.ndarray,
    out: np.ndarray,
) -> None:
    """Orders of the classes left (a multinomial), modulo each prime, into ``out``."""
    for k in range(primes.size):
        p = primes[k]
        value = fact[k, rest]
        for j in range(classes):
            value = value * inverse_fact[k, left[j]] % p
        out[k] = value


@jit()
def count_wins(
    start: int,
    deck: int,
    grid: int,
    courts: int,
    copies: int,
    families: int,
    stop_at_courts: bool,
    primes: np.ndarray,
    fact: np.ndarray,
    inverse_fact: np.ndarray,
) -> np.ndarray:
    """Winning class sequences from the packed state ``start``, modulo each prime; the last entry is the state count."""
    width = primes.size
    wins = np.zeros(width + 1, np.int64)
    layer = np.ones((1, width + 1), np.int64)
    layer[0, 0] = start
    codes = np.zeros(MAX_FAMILIES, np.int64)
    base = np.zeros(MAX_FAMILIES, np.int64)
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
            f = (key >> FIVE_SHIFT) & 7
            paired = (key >> PAIRED_SHIFT) & 31
            drawn = c + t + f
            on_grid = c + f % 2 + paired
            for i in range(families):
                code = (key >> (FAMILY_BITS * (families - 1 - i))) & 31
                base[i] = code
                drawn += code // 5 + code % 5
                on_grid += code // 5 - code % 5
            rest = deck - drawn - 1
            for kind in range(3 + 2 * families):
                nc, nt, nf, npaired = c, t, f, paired
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
                    npaired += 1
                elif kind == 2:
                    if f == copies:
                        continue
                    nf += 1
                    if f % 2 == 1:
                        npaired += 2
                else:
                    i = (kind - 3) // 2
                    a, b = base[i] // 5, base[i] % 5
                    # Equal families (adjacent, as codes are sorted) and the two sides of a family drawn
                    # equally often lead to the same state: take it once, weighted by how many ways lead there.
                    if (i > 0 and base[i] == base[i - 1]) or ((kind - 3) % 2 == 1 and a == b):
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
                        b += 1  # the smaller side: the card pairs with one of the larger side on the grid
                        npaired += 2
                    codes[i] = a * 5 + b
                if (stop_at_courts and kind == 0 and nc == courts) or rest == 0:
                    left[0] = courts - nc
                    left[1] = copies - nt
                    left[2] = copies - nf
                    for i in range(families):
                        code = codes[i]
                        left[3 + 2 * i] = copies - code // 5
                        left[4 + 2 * i] = copies - code % 5
                    _completions(rest, left, 3 + 2 * families, primes, fact, inverse_fact, completion)
                    for k in range(width):
                        wins[k] = (wins[k] + layer[row, k + 1] * weight % primes[k] * completion[k]) % primes[k]
                    continue
                if on_grid + 1 == grid:
                    if npaired == 0:
                        continue
                    npaired = 0
                after = pack(nc, nt, nf, npaired, codes, families)
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
