"""Win rates at scale: solving seed ranges in parallel into a resumable store.

Chunks are committed as they finish, so an interrupted run keeps everything it
finished (it loses at most the chunks in flight) and the next run solves only
the deals still missing (and undecided ones, when a larger budget is given).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kcsolve.common.workers import check_jobs
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.route import Budget
from kcsolve.patience.stats.checks import ResultsStoreError
from kcsolve.patience.stats.chunks import (
    CHUNK,
    COURSE_CHUNK,
    ChunkSizer,
    chunks_to_solve,
    compiled_applies,
    compiled_search_applies,
    solve_chunk,
)
from kcsolve.patience.stats.cluster import reach_scheduler, run_dask
from kcsolve.patience.stats.pool import StopFlag, run_pool
from kcsolve.patience.stats.store import ChunkResult, ReadOnlyRun, ResultsStore, default_db, open_store


@dataclass
class Progress:
    """What a running job has done so far."""

    total: int
    done: int = 0
    solved: int = 0
    started: float = field(default_factory=time.perf_counter)

    @property
    def rate(self) -> float:
        """Deals solved per second in this run."""
        return self.solved / max(time.perf_counter() - self.started, 1e-9)


def run(
    store: ResultsStore | ReadOnlyRun,
    rules: Rules,
    start: int,
    count: int,
    jobs: int = 1,
    budget: Budget = Budget(),
    report: Callable[[Progress], None] | None = None,
    scheduler: str | None = None,
    stop: StopFlag | None = None,
) -> Progress:
    """Solve the deals of the range not yet in the store; commit each chunk as it arrives."""
    check_jobs(jobs)
    name = str(rules)
    stop = stop or StopFlag()
    progress = Progress(count, done=store.done_count(name, start, count, budget))
    if report:
        report(progress)
    workers = 1 if scheduler else jobs
    # the compiled course takes microseconds a deal: its chunks are sized by count alone
    # the compiled search, tens of microseconds a deal: chunks sized by time up to the compiled course's size
    if compiled_applies(rules):
        size: int | ChunkSizer = ChunkSizer(COURSE_CHUNK, count, workers).limit
    else:
        size = ChunkSizer(COURSE_CHUNK if compiled_search_applies(rules, budget) else CHUNK, count, workers)
    pending = chunks_to_solve(store, name, start, count, budget, size)

    def finished(result: ChunkResult) -> None:
        if isinstance(size, ChunkSizer) and result.seeds is None:
            size.observe(len(result), result.seconds)
        store.add(name, result)
        progress.done += len(result)
        progress.solved += len(result)
        if report:
            report(progress)

    if scheduler:
        run_dask(scheduler, name, pending, budget, finished, stop)
    elif jobs <= 1:
        for work in pending:
            stop.check()
            finished(solve_chunk(name, work, budget))
    else:
        run_pool(jobs, name, pending, budget, finished, stop)
    stop.check()
    return progress


class UnusableDatabaseError(ResultsStoreError):
    """A results database, or the folder it goes in, that the system refuses (an OSError: missing, no permission)."""


def results_path(db: Path | None = None, scheduler: str | None = None) -> Path:
    """The results database a run uses: ``db``, else the default one; a ``scheduler`` is reached first, so that a
    run it refuses makes no file."""
    try:
        if scheduler is not None:
            reach_scheduler(scheduler)
        return default_db() if db is None else db
    except OSError as exc:
        raise UnusableDatabaseError(f"cannot use the results database: {exc.strerror or exc}") from None


def open_results(path: Path, rules: Rules, start: int, count: int, budget: Budget) -> ResultsStore | ReadOnlyRun:
    """The store at ``path`` for a run of the range (read-only when it holds every deal); ReadOnlyStoreError where
    it needs writing and cannot be written."""
    try:
        return open_store(path, str(rules), start, count, budget)
    except OSError as exc:
        raise UnusableDatabaseError(f"cannot use the results database: {exc.strerror or exc}") from None
