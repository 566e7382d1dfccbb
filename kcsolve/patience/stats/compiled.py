"""The forced course of many seeded deals at once, compiled with numba.

The same deal numbers as :mod:`kcsolve.common.deal` (SplitMix64 and the
rejection-sampled Fisher-Yates shuffle) and the same course as
:func:`kcsolve.patience.solve.theory.course_end`, in machine integers: the tests compare
both with the Python on tens of thousands of seeds. Importing this module loads
numba and the compiled code (compiled once, then cached beside the module).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kcsolve.common.cards import DECK_SIZE, TEN
from kcsolve.common.jit import jit
from kcsolve.patience.rules import Goal, Rules
from kcsolve.patience.solve.theory import COURTS, GRID
from kcsolve.patience.stats.tables import KEEP, KERNEL_SIGNATURE, MASK64

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@jit("uint64(uint64)")
def _mix(state: np.uint64) -> np.uint64:
    """The SplitMix64 output word for a state."""
    z = (state ^ (state >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@jit("boolean(uint64, uint64)")
def accepts(word: np.uint64, bound: np.uint64) -> bool:
    """Whether the shuffle keeps ``word`` for a draw below ``bound`` (it rejects the top 2**64 mod bound words)."""
    remainder = (MASK64 % bound + np.uint64(1)) % bound  # 2**64 mod bound, without 2**64
    return word <= MASK64 - remainder  # type: ignore[return-value]  # numba-compiled: callers get a Python bool


@jit("void(uint64, int64[:])")
def shuffle_into(seed: np.uint64, order: np.ndarray) -> None:
    """Fill ``order`` with the permutation of range(52) that deal number ``seed`` applies, as ``shuffle_order``."""
    for i in range(DECK_SIZE):
        order[i] = i
    state = seed
    for i in range(DECK_SIZE - 1, 0, -1):
        bound = np.uint64(i + 1)
        state += GOLDEN
        word = _mix(state)
        while not accepts(word, bound):
            state += GOLDEN
            word = _mix(state)
        j = np.int64(word % bound)
        order[i], order[j] = order[j], order[i]


@jit("UniTuple(int64, 3)(int8[:], int64[:], boolean)")
def follow(ranks: np.ndarray, counts: np.ndarray, stop_at_courts: bool) -> tuple[int, int, int]:
    """``course_end`` counting the values on the grid in ``counts`` (TEN + 1 slots), so it allocates nothing."""
    counts[:] = 0
    courts = numbers = drawn = deals = 0
    while True:
        deals += 1
        while courts + numbers < GRID and drawn < DECK_SIZE:
            rank = ranks[drawn]
            drawn += 1
            if rank > TEN:
                courts += 1
                if stop_at_courts and courts == COURTS:
                    return 1, drawn, deals
            else:
                counts[rank] += 1
                numbers += 1
        if drawn == DECK_SIZE:
            return 1, drawn, deals
        taken = counts[TEN] + counts[5] // 2 * 2
        counts[TEN] = 0
        counts[5] -= counts[5] // 2 * 2
        for low in range(1, 5):
            pairs = min(counts[low], counts[TEN - low])
            counts[low] -= pairs
            counts[TEN - low] -= pairs
            taken += 2 * pairs
        if taken == 0:
            return 0, drawn, deals
        numbers -= taken


@jit("UniTuple(int64, 3)(int8[:], boolean)")
def course_end(ranks: np.ndarray, stop_at_courts: bool) -> tuple[int, int, int]:
    """(won, cards drawn, deals) of the forced course, as :func:`theory.course_end` gives them."""
    return follow(ranks, np.empty(TEN + 1, np.int64), stop_at_courts)


@jit("void(uint64[:], boolean, boolean[:], int8[:], int8[:])")
def _course_ends(seeds: np.ndarray, stop_at_courts: bool, won: np.ndarray, end: np.ndarray, deals: np.ndarray) -> None:
    """Deal and follow every seed, writing its verdict, cards drawn and deals."""
    order = np.empty(DECK_SIZE, np.int64)
    ranks = np.empty(DECK_SIZE, np.int8)
    for k in range(seeds.size):
        shuffle_into(seeds[k], order)
        for i in range(DECK_SIZE):
            ranks[i] = order[i] % 13 + 1  # pack index i has rank i mod 13 + 1, as in deal_ranks
        w, e, d = course_end(ranks, stop_at_courts)
        won[k] = w == 1
        end[k] = e
        deals[k] = d


@jit("void(uint64, int8[:], uint64[:])")
def shuffle_ranks(seed: np.uint64, ranks: np.ndarray, keep: np.ndarray) -> None:
    """The ranks of deal number ``seed`` top first: the shuffle of ``shuffle_into`` applied to the ranks themselves."""
    for i in range(DECK_SIZE):
        ranks[i] = i % 13 + 1  # pack index i has rank i mod 13 + 1, as in deal_ranks
    state = seed
    for i in range(DECK_SIZE - 1, 0, -1):
        bound = np.uint64(i + 1)
        state += GOLDEN
        word = _mix(state)
        while word > keep[i + 1]:
            state += GOLDEN
            word = _mix(state)
        j = np.int64(word % bound)
        ranks[i], ranks[j] = ranks[j], ranks[i]


@jit("void(uint64, boolean, uint8[:], uint64[:], int8[:], int64[:])")
def codes_into(
    first: np.uint64, stop_at_courts: bool, codes: np.ndarray, keep: np.ndarray, ranks: np.ndarray, counts: np.ndarray
) -> None:
    """Deal and follow seeds first, first + 1, ...: a win's code is 0, a loss's 2 + its deal (verdicts.py: 'full').

    ``ranks`` (DECK_SIZE slots) and ``counts`` (TEN + 1) are scratch space, so
    that the machine code of :mod:`.native` allocates nothing and needs no
    numba runtime.
    """
    for k in range(codes.size):
        shuffle_ranks(first + np.uint64(k), ranks, keep)
        w, _, d = follow(ranks, counts, stop_at_courts)
        codes[k] = 0 if w == 1 else 2 + d


def course_codes(first: int, count: int, rules: Rules) -> np.ndarray:
    """The verdict code of every deal numbered first .. first + count - 1 under ``rules`` (sets must be pairs)."""
    codes = np.empty(count, np.uint8)
    codes_into(
        np.uint64(first),
        rules.goal is Goal.COURTS,
        codes,
        KEEP,
        np.empty(DECK_SIZE, np.int8),
        np.empty(TEN + 1, np.int64),
    )
    return codes


def course_kernel() -> Any:
    """``codes_into`` as a C function of pointers (KERNEL_SIGNATURE), compiled by numba for :mod:`.native`."""
    from numba import carray, cfunc

    @cfunc(KERNEL_SIGNATURE)
    def kernel(
        first: np.uint64, count: int, stop_at_courts: bool, codes: Any, keep: Any, ranks: Any, counts: Any
    ) -> None:
        codes_into(
            first,
            stop_at_courts,
            carray(codes, (count,)),
            carray(keep, (DECK_SIZE + 1,)),
            carray(ranks, (DECK_SIZE,)),
            carray(counts, (TEN + 1,)),
        )

    return kernel


@dataclass(frozen=True)
class CourseBatch:
    """The forced-course verdicts of a list of seeds, column by column, and the seconds they took in all."""

    seeds: np.ndarray
    won: np.ndarray
    end: np.ndarray
    deals: np.ndarray
    seconds: float

    def __len__(self) -> int:
        return int(self.seeds.size)


def course_ends(seeds: Sequence[int], rules: Rules) -> CourseBatch:
    """Deal every seed and follow its forced course under ``rules`` (sets must be pairs)."""
    began = time.perf_counter()
    column = np.array(seeds, dtype=np.uint64)
    won = np.empty(column.size, np.bool_)
    end = np.empty(column.size, np.int8)
    deals = np.empty(column.size, np.int8)
    _course_ends(column, rules.goal is Goal.COURTS, won, end, deals)
    return CourseBatch(column, won, end, deals, time.perf_counter() - began)
