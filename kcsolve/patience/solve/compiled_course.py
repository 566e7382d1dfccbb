"""The search over value-level courses (``methods/course.py``) compiled with numba, for verdicts at scale.

The same search as :func:`kcsolve.patience.solve.methods.course.search_courses`:
the same states (cards drawn, packed value counts), the same removal choices in
the same order, the same memo of full grids known to fail and the same count of
removal choices, so it reaches the same verdict, the same furthest point and the
same node count under a node budget. It builds no line: a win rests on Theorem 4
(docs/THEORY.md), as the compiled forced course does, and the tests compare both
searches deal for deal. Importing this module loads numba.

Memory: the memo is an open-addressing table with a stamp per slot (a new deal
needs no clearing); one that fills past half is doubled and the deal searched
again. Forced removal's outcomes of a grid are cached across deals, as the
Python's ``lru_cache`` does, and the cache starts afresh between deals when it
is half full (within a deal its entries are in use by the open grids).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kcsolve.common.cards import DECK_SIZE, TEN
from kcsolve.common.jit import jit
from kcsolve.patience.rules import Goal, Removal, Rules, Sets

WIN, LOSS, UNKNOWN = 0, 1, 2
MEMO_FULL, CACHE_FULL = 3, 4  # a table filled up mid-deal: the caller makes room and searches the deal again

_DIGIT = 4
GUARD = sum(8 << (_DIGIT * v) for v in range(TEN + 1))
NUMBERS = np.array([(1 << (_DIGIT * r)) if r <= TEN else 0 for r in range(14)], dtype=np.int64)


def _shape_table(groups: bool) -> tuple[np.ndarray, np.ndarray]:
    """(packed need, cards) of each set shape, in the order the Python search tries single sets (largest first)."""
    from kcsolve.patience.solve.methods.course import _SHAPES

    shapes = sorted(_SHAPES[groups], key=lambda item: -len(item[0]))  # stable, as _choices sorts
    return (
        np.array([need for _, need in shapes], dtype=np.int64),
        np.array([len(s) for s, _ in shapes], dtype=np.int64),
    )


@jit()
def _probe(keys: np.ndarray, stamps: np.ndarray, key: np.int64, stamp: np.int64) -> tuple[bool, int]:
    """(found, slot) of ``key`` in an open-addressing table whose live slots carry ``stamp``."""
    mask = keys.size - 1
    slot = (key * np.int64(-7046029254386353131)) >> np.int64(20) & mask  # a multiplicative hash
    while stamps[slot] == stamp:
        if keys[slot] == key:
            return True, slot  # type: ignore[return-value]  # numba-compiled: an int64 here, an int to callers
        slot = (slot + 1) & mask
    return False, slot  # type: ignore[return-value]  # numba-compiled: an int64 here, an int to callers


@jit()
def _closure(
    start: np.int64,
    need: np.ndarray,
    seen_keys: np.ndarray,
    seen_stamps: np.ndarray,
    stamp: np.int64,
    stack: np.ndarray,
    found: np.ndarray,
) -> int:
    """Every count vector reachable from ``start`` by taking sets, into ``found``; how many (the first is ``start``)."""
    guard = np.int64(GUARD)
    size = 0
    _, slot = _probe(seen_keys, seen_stamps, start, stamp)
    seen_keys[slot], seen_stamps[slot] = start, stamp
    found[size] = start
    size += 1
    top = 0
    stack[top] = start
    top += 1
    while top:
        top -= 1
        guarded = stack[top] | guard
        for s in range(need.size):
            after = guarded - need[s]
            if after & guard == guard:
                left = after ^ guard
                hit, slot = _probe(seen_keys, seen_stamps, left, stamp)
                if not hit:
                    seen_keys[slot], seen_stamps[slot] = left, stamp
                    found[size] = left
                    size += 1
                    stack[top] = left
                    top += 1
    return size


@jit()
def _stuck(packed: np.int64, need: np.ndarray) -> bool:
    """Whether no set fits the counts."""
    guard = np.int64(GUARD)
    guarded = packed | guard
    for s in range(need.size):  # noqa: SIM110  # numba compiles a loop, not all() over a generator
        if (guarded - need[s]) & guard == guard:
            return False
    return True


@jit()
def _cards(packed: np.int64) -> int:
    """Number cards in packed counts."""
    total = 0
    for v in range(1, TEN + 1):
        total += (packed >> (_DIGIT * v)) & 7  # type: ignore[assignment]  # numba-compiled: one int64 type inside
    return total


@jit()
def _order_key(packed: np.int64) -> np.int64:
    """Sorts as the Python's (sum of counts, counts tuple) does."""
    key = np.int64(_cards(packed))
    for v in range(TEN + 1):
        key = key << 4 | ((packed >> (_DIGIT * v)) & 7)
    return key


class Scratch:
    """The tables a worker's searches reuse: the memo, the closure's set and the forced outcomes' cache."""

    def __init__(self, memo_bits: int = 16) -> None:
        self.memo_keys = np.zeros(1 << memo_bits, np.int64)
        self.memo_stamps = np.zeros(1 << memo_bits, np.int64)
        self.seen_keys = np.zeros(1 << 15, np.int64)
        self.seen_stamps = np.zeros(1 << 15, np.int64)
        self.stack = np.zeros(1 << 14, np.int64)
        self.found = np.zeros(1 << 14, np.int64)
        self.cache_keys = np.zeros(1 << 18, np.int64)
        self.cache_stamps = np.zeros(1 << 18, np.int64)
        self.cache_where = np.zeros(1 << 18, np.int64)  # offset << 16 | count into the pool
        self.pool = np.zeros(1 << 21, np.int64)
        # [memo stamp, seen stamp, cache stamp, pool used, cache entries]
        self.counters = np.array([0, 0, 1, 0, 0], np.int64)

    def grow_memo(self) -> None:
        """Double the memo table."""
        self.memo_keys = np.zeros(2 * self.memo_keys.size, np.int64)
        self.memo_stamps = np.zeros(2 * self.memo_stamps.size, np.int64)
        self.counters[0] = 0

    def fresh_cache(self, larger: bool = False) -> None:
        """Empty the cache of forced outcomes (doubled when one deal needs more than it holds)."""
        if larger:
            self.cache_keys = np.zeros(2 * self.cache_keys.size, np.int64)
            self.cache_stamps = np.zeros(2 * self.cache_stamps.size, np.int64)
            self.cache_where = np.zeros(2 * self.cache_where.size, np.int64)
            self.pool = np.zeros(2 * self.pool.size, np.int64)
        self.counters[2] += 1
        self.counters[3] = 0
        self.counters[4] = 0

    def cache_half_full(self) -> bool:
        """Whether the cache of forced outcomes should start afresh before the next deal."""
        return 2 * self.counters[3] > self.pool.size or 4 * self.counters[4] > self.cache_keys.size


@jit()
def _outcomes(
    packed: np.int64,
    need: np.ndarray,
    seen_keys: np.ndarray,
    seen_stamps: np.ndarray,
    stack: np.ndarray,
    found: np.ndarray,
    cache_keys: np.ndarray,
    cache_stamps: np.ndarray,
    cache_where: np.ndarray,
    pool: np.ndarray,
    counters: np.ndarray,
) -> tuple[int, int]:
    """(offset, count) in ``pool`` of forced removal's outcomes of a full grid, sorted as the Python sorts them."""
    hit, slot = _probe(cache_keys, cache_stamps, packed, counters[2])
    if hit:
        where = cache_where[slot]
        return where >> 16, where & 0xFFFF
    counters[1] += 1
    size = _closure(packed, need, seen_keys, seen_stamps, counters[1], stack, found)
    if counters[3] + size > pool.size or 2 * (counters[4] + 1) > cache_keys.size:
        return -1, 0  # no room: the caller starts the cache afresh (or larger) and searches the deal again
    offset = counters[3]
    count = 0
    for i in range(1, size):  # the start itself is no outcome: its plan would take nothing
        if _stuck(found[i], need):
            pool[offset + count] = found[i]
            count += 1
    # insertion sort by the Python's key: outcomes are few
    for i in range(1, count):
        item = pool[offset + i]
        key = _order_key(item)
        j = i - 1
        while j >= 0 and _order_key(pool[offset + j]) > key:
            pool[offset + j + 1] = pool[offset + j]
            j -= 1
        pool[offset + j + 1] = item
    counters[3] += count
    counters[4] += 1
    cache_keys[slot], cache_stamps[slot], cache_where[slot] = packed, counters[2], offset << 16 | count
    return offset, count


@jit()
def _clears(
    packed: np.int64,
    need: np.ndarray,
    seen_keys: np.ndarray,
    seen_stamps: np.ndarray,
    stack: np.ndarray,
    found: np.ndarray,
    counters: np.ndarray,
) -> bool:
    """Whether sets can take every number card left."""
    if packed == 0:
        return True
    counters[1] += 1
    size = _closure(packed, need, seen_keys, seen_stamps, counters[1], stack, found)
    for i in range(size):  # noqa: SIM110  # numba compiles a loop, not any() over a generator
        if found[i] == 0:
            return True
    return False


@jit()
def _search(
    ranks: np.ndarray,
    stop_at_courts: bool,
    clear: bool,
    forced: bool,
    limit: np.int64,
    need: np.ndarray,
    cards: np.ndarray,
    memo_keys: np.ndarray,
    memo_stamps: np.ndarray,
    seen_keys: np.ndarray,
    seen_stamps: np.ndarray,
    stack: np.ndarray,
    found: np.ndarray,
    cache_keys: np.ndarray,
    cache_stamps: np.ndarray,
    cache_where: np.ndarray,
    pool: np.ndarray,
    counters: np.ndarray,
) -> tuple[int, int, int, int]:
    """(status, furthest cards drawn, furthest deals, removal choices) of one deal; ``limit`` < 0: no budget."""
    packed_upto = np.zeros(DECK_SIZE + 1, np.int64)
    courts_upto = np.zeros(DECK_SIZE + 1, np.int64)
    for i in range(DECK_SIZE):
        packed_upto[i + 1] = packed_upto[i] + NUMBERS[ranks[i]]
        courts_upto[i + 1] = courts_upto[i] + (1 if ranks[i] > TEN else 0)
    twelfth = DECK_SIZE + 1
    if stop_at_courts:
        for i in range(DECK_SIZE + 1):
            if courts_upto[i] == 12:
                twelfth = i
                break
    counters[0] += 1
    stamp = counters[0]
    memo_used = 0
    guard = np.int64(GUARD)
    depth_limit = DECK_SIZE + 2
    f_packed = np.zeros(depth_limit, np.int64)
    f_numbers = np.zeros(depth_limit, np.int64)
    f_drawn = np.zeros(depth_limit, np.int64)
    f_next = np.zeros(depth_limit, np.int64)  # the next shape (optional) or outcome (forced) to try
    f_offset = np.zeros(depth_limit, np.int64)
    f_count = np.zeros(depth_limit, np.int64)
    far_drawn = 0
    far_deals = 0
    nodes = 0
    depth = 0
    call_packed = np.int64(0)
    call_numbers = 0
    call_drawn = 0
    while True:
        courts = courts_upto[call_drawn]
        end = min(call_drawn + 16 - courts - call_numbers, DECK_SIZE)
        if end >= twelfth:
            return WIN, far_drawn, far_deals, nodes
        packed = call_packed + packed_upto[end] - packed_upto[call_drawn]
        numbers = call_numbers + (end - call_drawn) - (courts_upto[end] - courts)
        drawn = end
        deals = depth + 1
        if drawn > far_drawn or (drawn == far_drawn and deals > far_deals):
            far_drawn, far_deals = drawn, deals
        if drawn == DECK_SIZE:
            if not clear or _clears(packed, need, seen_keys, seen_stamps, stack, found, counters):
                return WIN, far_drawn, far_deals, nodes
        else:
            key = np.int64(drawn) << 48 | packed
            hit, _ = _probe(memo_keys, memo_stamps, key, stamp)
            if not hit:
                nodes += 1
                if limit >= 0 and nodes > limit:
                    return UNKNOWN, far_drawn, far_deals, nodes
                f_packed[depth], f_numbers[depth], f_drawn[depth], f_next[depth] = packed, numbers, drawn, 0
                if forced:
                    f_offset[depth], f_count[depth] = _outcomes(
                        packed,
                        need,
                        seen_keys,
                        seen_stamps,
                        stack,
                        found,
                        cache_keys,
                        cache_stamps,
                        cache_where,
                        pool,
                        counters,
                    )
                    if f_offset[depth] < 0:
                        return CACHE_FULL, far_drawn, far_deals, nodes
                depth += 1
        while True:  # the next removal choice of the deepest open grid, closing grids whose choices are spent
            if depth == 0:
                return LOSS, far_drawn, far_deals, nodes
            top = depth - 1
            chosen = False
            if forced:
                if f_next[top] < f_count[top]:
                    call_packed = pool[f_offset[top] + f_next[top]]
                    call_numbers = _cards(call_packed)
                    f_next[top] += 1
                    chosen = True
            else:
                guarded = f_packed[top] | guard
                s = f_next[top]
                while s < need.size:
                    after = guarded - need[s]
                    s += 1
                    if after & guard == guard:
                        call_packed = after ^ guard
                        call_numbers = f_numbers[top] - cards[s - 1]
                        chosen = True
                        break
                f_next[top] = s
            if chosen:
                call_drawn = f_drawn[top]
                break
            if 2 * (memo_used + 1) > memo_keys.size:
                return MEMO_FULL, far_drawn, far_deals, nodes
            key = np.int64(f_drawn[top]) << 48 | f_packed[top]
            _, slot = _probe(memo_keys, memo_stamps, key, stamp)
            memo_keys[slot], memo_stamps[slot] = key, stamp
            memo_used += 1
            depth -= 1


@dataclass(frozen=True)
class CompiledSearch:
    """The verdict of the compiled search: 'win', 'loss' or 'unknown', its furthest point and its removal choices."""

    result: str
    furthest: tuple[int, int]
    nodes: int


class CourseSearcher:
    """The compiled search for one rule set, with the tables it reuses from deal to deal."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.need, self.cards = _shape_table(rules.sets is Sets.GROUPS)
        self.scratch = Scratch()

    def search(self, ranks: np.ndarray, nodes: int | None) -> CompiledSearch:
        """Search one deal's courses (``ranks`` int8, top first) within ``nodes`` removal choices (None: no limit)."""
        rules, s = self.rules, self.scratch
        if s.cache_half_full():
            s.fresh_cache()
        while True:
            status, drawn, deals, spent = _search(
                ranks,
                rules.goal is Goal.COURTS,
                rules.goal is Goal.CLEAR,
                rules.removal is Removal.FORCED,
                np.int64(-1 if nodes is None else nodes),
                self.need,
                self.cards,
                s.memo_keys,
                s.memo_stamps,
                s.seen_keys,
                s.seen_stamps,
                s.stack,
                s.found,
                s.cache_keys,
                s.cache_stamps,
                s.cache_where,
                s.pool,
                s.counters,
            )
            if status == MEMO_FULL:
                s.grow_memo()
            elif status == CACHE_FULL:
                s.fresh_cache(larger=s.counters[4] == 0)  # the cache was empty: this deal needs a larger one
            else:
                return CompiledSearch(("win", "loss", "unknown")[status], (drawn, deals), spent)


_SEARCHERS: dict[Rules, CourseSearcher] = {}


def searcher(rules: Rules) -> CourseSearcher:
    """The searcher of a rule set in this process, made once, so its tables and cache serve every chunk."""
    if rules not in _SEARCHERS:
        _SEARCHERS[rules] = CourseSearcher(rules)
    return _SEARCHERS[rules]
