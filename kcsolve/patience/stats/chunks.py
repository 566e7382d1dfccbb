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
from collections.abc import Iterator

from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.solve.route import Budget, solve
from kcsolve.patience.solve.theory import course_end, covers
from kcsolve.patience.stats.store import PackedCourses, ResultsStore, Row, pack_courses

CHUNK = 2_000

COURSE_CHUNK = 10_000  # the compiled course takes about 15 ms for these; fewer, larger commits

PURE_PYTHON = "KCSOLVE_PURE_PYTHON"  # set to 1: the Python course even where the compiled one applies

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


def chunks_to_solve(store: ResultsStore, name: str, start: int, count: int, budget: Budget,
                    size: int = CHUNK) -> Iterator[list[int]]:
    """The seeds of the range still to solve, in chunks, looked up window by window (bounded memory)."""
    for window in range(start, start + count, WINDOW):
        span = min(WINDOW, start + count - window)
        done = store.decided(name, window, span, budget)
        todo = [s for s in range(window, window + span) if s not in done]
        for i in range(0, len(todo), size):
            yield todo[i : i + size]
