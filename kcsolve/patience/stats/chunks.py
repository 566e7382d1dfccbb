"""The work of one chunk of deals: decided by the compiled or the Python course, or by a search under a budget.

Under rules where the deck alone decides (docs/THEORY.md: Lemma 1, Theorem 2,
Corollary 3) a deal is decided by its forced course without building a line;
the win rests on the proof, and the same deals replay through the engine in the
test suite and in ``kcsolve solve``. Those deals are dealt and followed by the
numba-compiled course (:mod:`.compiled`) and stored a chunk per SQL statement;
``KCSOLVE_PURE_PYTHON=1`` keeps them on the Python course, for benchmarks and
cross-checks.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.solve.route import Budget, solve
from kcsolve.patience.solve.theory import course_end, covers
from kcsolve.patience.stats.store import PackedCourses, ResultsStore, Row, pack_courses

CHUNK = 2_000

COURSE_CHUNK = 10_000  # the compiled course takes about 15 ms for these; fewer, larger commits

PURE_PYTHON = "KCSOLVE_PURE_PYTHON"  # set to 1: the Python course even where the compiled one applies

FIRST_CHUNK = 16  # deals in each chunk until the time a deal takes is known
CHUNK_SECONDS = 2.0  # a worker's time for one chunk: finished work reaches the store at least this often
WINDOW = 100_000  # seeds looked up in the store at a time, so memory does not grow with --count


def compiled_applies(rules: Rules) -> bool:
    """Whether ``rules`` go to the compiled course: sets are pairs and KCSOLVE_PURE_PYTHON is not 1."""
    return covers(rules) and os.environ.get(PURE_PYTHON) != "1"


def solve_chunk(rules_text: str, seeds: list[int], budget: Budget) -> list[Row] | PackedCourses:
    """Decide a list of seeds; one row each, or the compiled verdicts packed for the store. Runs in worker processes."""
    rules = parse_rules(rules_text)
    if compiled_applies(rules):
        from kcsolve.patience.stats.compiled import course_ends

        return pack_courses(course_ends(seeds, rules))
    if covers(rules):
        return [decide_forced(seed, rules) for seed in seeds]
    return [decide_by_search(seed, rules, budget) for seed in seeds]


def decide_forced(seed: int, rules: Rules) -> Row:
    """One deal under forced pair removal, by its forced course (no line is built, no budget is needed)."""
    began = time.perf_counter()
    won, end, deals = course_end(deal_ranks(seed), rules)
    spent = time.perf_counter() - began
    if won:
        return (seed, "win", None, None, None, "course", spent, None, None)
    return (seed, "loss", "full", end, deals, "course", spent, None, None)


def decide_by_search(seed: int, rules: Rules, budget: Budget) -> Row:
    """One deal where a search is needed, under ``budget``; the row records the budget and its kind."""
    solution = solve(deal(seed), rules, "auto", budget)
    loss = solution.loss or (None, None, None)
    return (seed, solution.result, *loss, solution.stats["method"], solution.stats["seconds"],
            str(budget), budget.kind)


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


def chunks_to_solve(store: ResultsStore, name: str, start: int, count: int, budget: Budget,
                    size: int | Callable[[], int] = CHUNK) -> Iterator[list[int]]:
    """The seeds of the range still to solve, in chunks, looked up window by window (bounded memory)."""
    for window in range(start, start + count, WINDOW):
        span = min(WINDOW, start + count - window)
        done = store.decided(name, window, span, budget)
        todo = [s for s in range(window, window + span) if s not in done]
        i = 0
        while i < len(todo):
            step = size() if callable(size) else size
            yield todo[i : i + step]
            i += step
