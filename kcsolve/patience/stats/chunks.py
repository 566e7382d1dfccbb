"""The work of one chunk of deals: decided by the compiled or the Python course, or by a search under a budget.

Under rules where the deck alone decides (docs/THEORY.md: Lemma 1, Theorem 2,
Corollary 3) a deal is decided by its forced course without building a line;
the win rests on the proof, and the same deals replay through the engine in the
test suite and in ``kcsolve solve``. Those deals are dealt and followed by the
numba-compiled course (:mod:`.compiled`); ``KCSOLVE_PURE_PYTHON=1`` keeps them on
the Python course, for benchmarks and cross-checks. Under groups the compiled
course search (:mod:`kcsolve.patience.solve.compiled_course`) decides them within
a budget in nodes; a CPU-time budget keeps the Python search. Either way the worker packs
the chunk's verdicts (:mod:`.verdicts`), so the process that stores them only
writes one row.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from kcsolve.common.cards import DECK_SIZE
from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.solve.route import Budget, solve
from kcsolve.patience.solve.theory import course_end, covers
from kcsolve.patience.stats.store import LONGEST, ChunkResult, ReadOnlyRun, ResultsStore, Work, _larger, undecided_seeds
from kcsolve.patience.stats.verdicts import UNDECIDED, WIN, Tally, loss_code, pack, result_code, unpack

CHUNK = 2_000

COURSE_CHUNK = 100_000  # the compiled course takes about 0.15 s of a core for these: a row every few tenths of a second

PURE_PYTHON = "KCSOLVE_PURE_PYTHON"  # set to 1: the Python course even where the compiled one applies

FIRST_CHUNK = 16  # deals in each chunk until the time a deal takes is known
CHUNK_SECONDS = 2.0  # a worker's time for one chunk: finished work reaches the store at least this often


def compiled_applies(rules: Rules) -> bool:
    """Whether ``rules`` go to the compiled course: sets are pairs and KCSOLVE_PURE_PYTHON is not 1."""
    return covers(rules) and os.environ.get(PURE_PYTHON) != "1"


def compiled_search_applies(rules: Rules, budget: Budget) -> bool:
    """Whether deals go to the compiled course search: groups, a budget in nodes alone, KCSOLVE_PURE_PYTHON not 1.

    A CPU-time budget stays on the Python search, whose meter reads the clock.
    """
    return not covers(rules) and budget.seconds is None and os.environ.get(PURE_PYTHON) != "1"


def solve_chunk(rules_text: str, work: Work, budget: Budget) -> ChunkResult:
    """Decide one piece of work and pack its verdicts for the store. Runs in worker processes."""
    began = time.perf_counter()
    rules = parse_rules(rules_text)
    first, count, retried = work
    seeds = retried if retried is not None else range(first, first + count)
    spent: Budget | None = None
    if retried is None and compiled_applies(rules):
        import numpy as np

        from kcsolve.patience.stats.native import course_codes

        array = course_codes(first, count, rules)
        codes = array.tobytes()
        tally = {code: int(n) for code, n in enumerate(np.bincount(array)) if n}
        method = "course"
    else:
        if covers(rules):
            codes = bytes(decide_forced(seed, rules) for seed in seeds)
            method = "course"
        elif compiled_search_applies(rules, budget):
            codes = decide_compiled(seeds, rules, budget)
            method, spent = "course", budget
        else:
            codes = bytes(decide_by_search(seed, rules, budget) for seed in seeds)
            method, spent = "auto", budget
        tally = Tally.of(codes).counts
    return ChunkResult(
        first,
        count,
        retried,
        pack(codes),
        tally,
        method,
        time.perf_counter() - began,
        None if spent is None else str(spent),
        None if spent is None else spent.kind,
    )


def unstored_verdict(path: Path, rules: str, seed: int, budget: Budget) -> tuple[int, str | None, bool]:
    """(code, budget, solved now) of one deal of a store that cannot be written.

    A deal a run would solve (not stored, or undecided under a smaller budget)
    is solved here and not kept.
    """
    store = ResultsStore(path, readonly=True)
    try:
        for chunk in store.overlapping(rules, seed, 1):
            code = store.codes(rules, chunk.first)[seed - chunk.first]
            if code != UNDECIDED or not _larger(budget, chunk.budget):
                return code, chunk.budget, False
    finally:
        store.close()
    result = solve_chunk(rules, (seed, 1, None), budget)
    return unpack(result.codes, 1)[0], result.budget, True


def decide_forced(seed: int, rules: Rules) -> int:
    """One deal's code under pair removal, by its forced course (no line is built, no budget is needed)."""
    won, _, deals = course_end(deal_ranks(seed), rules)
    return WIN if won else loss_code("full", deals)


def decide_compiled(seeds: Sequence[int], rules: Rules, budget: Budget) -> bytes:
    """The codes of deals under groups by the compiled course search (a loss as course.solve words it)."""
    import numpy as np

    from kcsolve.patience.solve.compiled_course import searcher
    from kcsolve.patience.stats.compiled import shuffle_ranks
    from kcsolve.patience.stats.tables import KEEP

    search = searcher(rules)
    ranks = np.empty(DECK_SIZE, np.int8)
    codes = bytearray()
    for seed in seeds:
        shuffle_ranks(np.uint64(seed), ranks, KEEP)
        found = search.search(ranks, budget.nodes)
        if found.result == "loss":
            drawn, round_no = found.furthest
            codes.append(loss_code("left" if drawn == DECK_SIZE else "full", round_no))
        else:
            codes.append(WIN if found.result == "win" else UNDECIDED)
    return bytes(codes)


def decide_by_search(seed: int, rules: Rules, budget: Budget) -> int:
    """One deal's code where a search is needed, under ``budget``."""
    solution = solve(deal(seed), rules, "auto", budget)
    reason, _, round_no = solution.loss or (None, None, None)
    return result_code(solution.result, reason, round_no)


class ChunkSizer:
    """Chunk sizes by time: a chunk takes about CHUNK_SECONDS of a worker, so finished work is stored every few seconds.

    The first chunks are small (FIRST_CHUNK deals) until the time a deal takes
    is known; every chunk is at most the run's share of two chunks per worker,
    so a small count is spread over every worker too.
    """

    def __init__(self, limit: int, count: int, jobs: int) -> None:
        self.limit = min(limit, max(1, -(-count // (2 * jobs))))
        self.per_deal: float | None = None

    def observe(self, deals: int, seconds: float) -> None:
        """Learn from a finished chunk: ``deals`` deals took ``seconds`` of a worker."""
        if deals:
            rate = max(seconds, 1e-6) / deals
            self.per_deal = rate if self.per_deal is None else 0.7 * self.per_deal + 0.3 * rate

    def __call__(self) -> int:
        """The size of the next chunk."""
        size = FIRST_CHUNK if self.per_deal is None else int(CHUNK_SECONDS / self.per_deal)
        return max(1, min(size, self.limit))


def chunks_to_solve(
    store: ResultsStore | ReadOnlyRun,
    name: str,
    start: int,
    count: int,
    budget: Budget,
    size: int | Callable[[], int] = CHUNK,
) -> Iterator[Work]:
    """The work the range still needs: new chunks over the gaps between stored ones, and retries of undecided deals.

    Stored chunks are read a page at a time, so memory does not grow with the range.
    """
    end = start + count
    at = start
    for chunk in store.overlapping(name, start, count):
        yield from _cut(at, min(chunk.first, end), size)
        if chunk.undecided and _larger(budget, chunk.budget):
            # only the range's own deals: one partly inside may have undecided deals outside it alone
            inside = tuple(s for s in undecided_seeds(store.codes(name, chunk.first), chunk.first) if start <= s < end)
            if inside:
                yield chunk.first, chunk.count, inside
        at = max(at, chunk.first + chunk.count)
    yield from _cut(at, end, size)


def _cut(at: int, end: int, size: int | Callable[[], int]) -> Iterator[Work]:
    """New chunks from ``at`` up to ``end``."""
    while at < end:
        step = min(size() if callable(size) else size, end - at, LONGEST)
        yield at, step, None
        at += step
