"""How many no-peek states share one multiset of unseen cards: the blocks of a backward induction, counted exactly.

Every child of a state with unseen multiset U has unseen multiset U less one
rank, so a backward induction over the game without peeking (docs/THEORY.md,
section 10) can value the states sharing one U (a *block*) holding only that
block and the at most 13 blocks it draws into. Its memory is the largest such
*working set*, measured here.

A block is fixed by the cards drawn, D = the deck less U: the court cards drawn
are all on the grid, and the number cards drawn split into the cards removed
(pairs of each family, pairs of Fives, Tens) and the grid's number cards, which
sit in the four classes in every way the free cells allow. Theorem 10 says which
splits are reached (:func:`research.nopeek.reachable.reachable`). The
number of seatings of a grid depends only on how many values it holds once,
twice, three and four times and on the court cards per class, so it is tabled.

Counts are without merging by the 2,304 symmetries of Theorem 7: merged, a block
of D holds at least its count times D's orbit size over 2,304 states (Burnside's
lemma: equality when no symmetry but the identity fixes both D and one of its
states).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from kcsolve.common.jit import jit
from research.nopeek.nopeek import InvalidNoPeekStateError
from research.nopeek.reachable import reachable

GROUP = 2304  # the symmetries of Theorem 7: 384 family renamings times 6 court-kind permutations
RANKS = 13
FAMILIES = ((1, 9), (2, 8), (3, 7), (4, 6))
FIVE, TEN, JACK, QUEEN, KING = 5, 10, 11, 12, 13
# a family's cards drawn (more, fewer) of its two sides, up to swapping them: 15 kinds
SIDES = np.array([(a, b) for a in range(5) for b in range(a + 1)], np.int64)


def _splits() -> tuple[np.ndarray, np.ndarray]:
    """Every way to share k copies of one value among the four classes, k = 0..4."""
    ways = [[s for s in itertools.product(range(k + 1), repeat=4) if sum(s) == k] for k in range(5)]
    table = np.zeros((5, max(map(len, ways)), 4), np.int64)
    for k, shares in enumerate(ways):
        table[k, : len(shares)] = shares
    return table, np.array([len(w) for w in ways], np.int64)


@jit()
def _seatings(copies: np.ndarray, caps: np.ndarray, shares: np.ndarray, share_count: np.ndarray) -> int:
    """Class contents for a grid whose values come 1, 2, 3 and 4 times as ``copies`` says, within ``caps`` cells."""
    ways = np.zeros((5, 5, 5, 5), np.int64)
    ways[0, 0, 0, 0] = 1
    for k in range(1, 5):
        for _ in range(copies[k]):
            after = np.zeros((5, 5, 5, 5), np.int64)
            for a in range(caps[0] + 1):
                for b in range(caps[1] + 1):
                    for c in range(caps[2] + 1):
                        for d in range(caps[3] + 1):
                            x = ways[a, b, c, d]
                            if x == 0:
                                continue
                            for i in range(share_count[k]):
                                s = shares[k, i]
                                fits = a + s[0] <= caps[0] and b + s[1] <= caps[1]
                                if fits and c + s[2] <= caps[2] and d + s[3] <= caps[3]:
                                    after[a + s[0], b + s[1], c + s[2], d + s[3]] += x
            ways = after
    return ways.sum()


def seating_table() -> np.ndarray:
    """Seatings of a grid by (values once, twice, thrice, four times, Kings, Queens, Jacks)."""
    shares, share_count = _splits()
    table = np.zeros((16, 8, 6, 5, 5, 5, 5), np.int64)
    for c1, c2, c3, c4 in itertools.product(range(16), range(8), range(6), range(5)):
        cards = c1 + 2 * c2 + 3 * c3 + 4 * c4
        if cards > 15 or c1 + c2 + c3 + c4 > 10:
            continue
        for k, q, j in itertools.product(range(5), repeat=3):
            if cards + k + q + j <= 15:
                caps = np.array([4, 4 - k, 4 - q, 4 - j], np.int64)
                copies = np.array([0, c1, c2, c3, c4], np.int64)
                table[c1, c2, c3, c4, k, q, j] = _seatings(copies, caps, shares, share_count)
    return table


def reach_table() -> np.ndarray:
    """Theorem 10's verdict by (kept, a Five on the grid, court cards, pairs, pairs of Fives, Tens)."""
    table = np.zeros((17, 2, 12, 17, 3, 5), np.bool_)
    for kept, five, placed, pairs, fives, tens in itertools.product(
        range(17), range(2), range(12), range(17), range(3), range(5)
    ):
        table[kept, five, placed, pairs, fives, tens] = reachable(kept, bool(five), placed, pairs, fives, tens)
    return table


@jit()
def _block(
    family: np.ndarray, fives: int, tens: int, k: int, q: int, j: int, seat: np.ndarray, reach: np.ndarray
) -> int:
    """States with these cards drawn: ``family[i]`` of each side of family i, Fives, Tens, Kings, Queens, Jacks."""
    courts = k + q + j
    if courts > 11:
        return 0
    total = 0
    grid = np.zeros(10, np.int64)
    copies = np.zeros(5, np.int64)
    for r0 in range(min(family[0, 0], family[0, 1]) + 1):
        for r1 in range(min(family[1, 0], family[1, 1]) + 1):
            for r2 in range(min(family[2, 0], family[2, 1]) + 1):
                for r3 in range(min(family[3, 0], family[3, 1]) + 1):
                    removed = (r0, r1, r2, r3)
                    kept = 0
                    cards = 0
                    for i in range(4):
                        grid[2 * i] = family[i, 0] - removed[i]
                        grid[2 * i + 1] = family[i, 1] - removed[i]
                        kept += max(grid[2 * i], grid[2 * i + 1])
                        cards += grid[2 * i] + grid[2 * i + 1]
                    pairs = r0 + r1 + r2 + r3
                    for five_pairs in range(fives // 2 + 1):
                        for tens_removed in range(tens + 1):
                            grid[8] = fives - 2 * five_pairs
                            grid[9] = tens - tens_removed
                            if cards + grid[8] + grid[9] + courts > 15:
                                continue
                            anything = pairs + five_pairs + tens_removed > 0
                            five = 1 if grid[8] > 0 else 0
                            if anything and not reach[kept, five, courts, pairs, five_pairs, tens_removed]:
                                continue
                            copies[:] = 0
                            for v in range(10):
                                copies[grid[v]] += 1
                            total += seat[copies[1], copies[2], copies[3], copies[4], k, q, j]
    return total


@jit()
def _family_codes(family: np.ndarray) -> np.ndarray:
    """Each family's cards drawn as 5 * more + fewer, sorted: the families up to renaming and swapped sides."""
    codes = np.zeros(4, np.int64)
    for i in range(4):
        codes[i] = 5 * max(family[i, 0], family[i, 1]) + min(family[i, 0], family[i, 1])
    codes.sort()
    return codes


@jit()
def _orbit(family: np.ndarray, k: int, q: int, j: int) -> int:
    """How many drawn multisets the 2,304 symmetries map this one to."""
    codes = _family_codes(family)
    size = 24
    for i in range(4):
        if codes[i] % 6:  # 5 * more + fewer is a multiple of 6 only when the two sides are equal
            size *= 2
    run = 1
    for i in range(1, 4):
        run = run + 1 if codes[i] == codes[i - 1] else 1
        size //= run
    if k == q and q == j:
        return size
    if k in (q, j) or q == j:
        return size * 3
    return size * 6


@jit()
def _canonical(family: np.ndarray, fives: int, tens: int, k: int, q: int, j: int) -> int:
    """One number for a drawn multiset's orbit under the 2,304 symmetries."""
    key = 0
    for code in _family_codes(family):
        key = key * 25 + code
    courts = np.array([k, q, j], np.int64)
    courts.sort()
    for n in courts:
        key = key * 5 + n
    return (key * 5 + fives) * 5 + tens


@jit()
def _working_set(
    family: np.ndarray, fives: int, tens: int, k: int, q: int, j: int, seat: np.ndarray, reach: np.ndarray
) -> tuple[int, int]:
    """The states of a block and of the blocks it draws into: unmerged, and times orbit size (to divide by 2,304).

    Blocks drawn into that are images of each other under a symmetry are one block once states are merged, so
    the second sum counts each such block once.
    """
    states = _block(family, fives, tens, k, q, j, seat, reach)
    weighted = states * _orbit(family, k, q, j)
    seen = np.empty(RANKS, np.int64)
    distinct = 0
    for r in range(RANKS):  # one more card: a side of a family (0..7), a Five, a Ten, a King, a Queen, a Jack
        child = family.copy()
        f, t, kk, qq, jj = fives, tens, k, q, j
        if r < 8:
            child[r // 2, r % 2] += 1
        elif r == 8:
            f += 1
        elif r == 9:
            t += 1
        elif r == 10:
            kk += 1
        elif r == 11:
            qq += 1
        else:
            jj += 1
        if child.max() > 4 or max(f, t, kk, qq, jj) > 4:
            continue
        x = _block(child, f, t, kk, qq, jj, seat, reach)
        states += x
        code = _canonical(child, f, t, kk, qq, jj)
        if code in seen[:distinct]:
            continue
        seen[distinct] = code
        distinct += 1
        weighted += x * _orbit(child, kk, qq, jj)
    return states, weighted


@jit()
def _sweep(sides: np.ndarray, seat: np.ndarray, reach: np.ndarray) -> tuple:
    """Every drawn multiset up to symmetry: states per layer (unmerged), and the largest blocks and working sets."""
    layers = np.zeros(52, np.int64)
    best = np.zeros(4, np.int64)  # block, block times orbit, working set, working set times orbits
    where = np.zeros((4, 9), np.int64)
    family = np.zeros((4, 2), np.int64)
    kinds = sides.shape[0]
    for i0 in range(kinds):
        for i1 in range(i0, kinds):
            for i2 in range(i1, kinds):
                for i3 in range(i2, kinds):
                    chosen = (i0, i1, i2, i3)
                    drawn_numbers = 0
                    for i in range(4):
                        family[i, 0] = sides[chosen[i], 0]
                        family[i, 1] = sides[chosen[i], 1]
                        drawn_numbers += family[i, 0] + family[i, 1]
                    for fives in range(5):
                        for tens in range(5):
                            for k in range(5):
                                for q in range(k + 1):
                                    for j in range(q + 1):
                                        states = _block(family, fives, tens, k, q, j, seat, reach)
                                        if states == 0:
                                            continue
                                        orbit = _orbit(family, k, q, j)
                                        layers[drawn_numbers + fives + tens + k + q + j] += states * orbit
                                        held, held_weighted = _working_set(family, fives, tens, k, q, j, seat, reach)
                                        figures = (states, states * orbit, held, held_weighted)
                                        for f in range(4):
                                            if figures[f] > best[f]:
                                                best[f] = figures[f]
                                                where[f, :4] = chosen
                                                where[f, 4], where[f, 5] = fives, tens
                                                where[f, 6], where[f, 7], where[f, 8] = k, q, j
    return layers, best, where


@dataclass(frozen=True)
class Drawn:
    """A multiset of cards drawn, by rank: ``counts[r - 1]`` cards of rank r (Ace 1 .. King 13)."""

    counts: tuple[int, ...]

    def describe(self) -> str:
        """The cards drawn in words, e.g. "every number card and no court card" or "4 Aces, 2 Nines, 1 King"."""
        if self.counts[:10] == (4,) * 10 and not any(self.counts[10:]):
            return "every number card and no court card"
        names = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King")
        plural = {"Six": "Sixes"}
        words = [
            f"{n} {names[r] if n == 1 else plural.get(names[r], names[r] + 's')}"
            for r, n in enumerate(self.counts)
            if n
        ]
        return ", ".join(words) or "nothing"


def _drawn(code: np.ndarray) -> Drawn:
    """The drawn multiset a sweep's record names."""
    counts = [0] * RANKS
    for (low, high), kind in zip(FAMILIES, code[:4]):
        counts[low - 1], counts[high - 1] = (int(x) for x in SIDES[kind])
    counts[FIVE - 1], counts[TEN - 1] = int(code[4]), int(code[5])
    counts[KING - 1], counts[QUEEN - 1], counts[JACK - 1] = int(code[6]), int(code[7]), int(code[8])
    return Drawn(tuple(counts))


@dataclass(frozen=True)
class BlockCensus:
    """States per layer, and the largest block and working set of a backward induction, unmerged and merged."""

    states_by_drawn: tuple[int, ...]
    largest_block: int
    largest_block_drawn: Drawn
    largest_merged_block: int  # at least this many states under the 2,304 symmetries
    largest_merged_block_drawn: Drawn
    largest_working_set: int
    largest_working_set_drawn: Drawn
    largest_merged_working_set: int
    largest_merged_working_set_drawn: Drawn


def block_census() -> BlockCensus:
    """Count every block and its working set (a minute or two)."""
    layers, best, where = _sweep(SIDES, seating_table(), reach_table())
    return BlockCensus(
        tuple(int(x) for x in layers),
        int(best[0]),
        _drawn(where[0]),
        -(-int(best[1]) // GROUP),
        _drawn(where[1]),
        int(best[2]),
        _drawn(where[2]),
        -(-int(best[3]) // GROUP),
        _drawn(where[3]),
    )


def block_states(drawn: Drawn, seat: np.ndarray | None = None, reach: np.ndarray | None = None) -> int:
    """How many states (unmerged) have exactly these cards drawn."""
    counts = drawn.counts
    if len(counts) != RANKS or any(not 0 <= n <= 4 for n in counts):
        raise InvalidNoPeekStateError(f"a drawn multiset has 13 counts of 0..4, not {counts!r}")
    family = np.array([(counts[low - 1], counts[high - 1]) for low, high in FAMILIES], np.int64)
    return int(
        _block(
            family,
            counts[FIVE - 1],
            counts[TEN - 1],
            counts[KING - 1],
            counts[QUEEN - 1],
            counts[JACK - 1],
            seating_table() if seat is None else seat,
            reach_table() if reach is None else reach,
        )
    )
