"""Chunks solved in local worker processes that die with their parent; stopping cleanly on a signal."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from kcsolve.common.workers import worker_start
from kcsolve.errors import KcsolveError
from kcsolve.patience.solve.route import Budget
from kcsolve.patience.stats.chunks import solve_chunk
from kcsolve.patience.stats.store import ChunkResult, Work

MAX_RESTARTS = 3

STOP_GRACE = 2.0  # seconds that chunks already running get to finish when a run stops


class RunFailedError(KcsolveError):
    """A run that cannot go on (workers keep dying, the scheduler is gone); finished deals are kept."""


class Interrupted(KeyboardInterrupt):
    """The run was asked to stop (Ctrl-C, SIGTERM, SIGHUP); finished deals are kept."""


class StopFlag:
    """Set by a signal handler; the run checks it between chunks, so no signal is ever lost or half-handled."""

    def __init__(self) -> None:
        self.signal: int | None = None

    def __call__(self, signum: int, frame: object) -> None:
        self.signal = signum

    def check(self) -> None:
        """Raise Interrupted once a stop was asked for."""
        if self.signal is not None:
            raise Interrupted(signal.Signals(self.signal).name)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # each asks a run to stop, keeping what it finished


@contextmanager
def stop_on_signals() -> Iterator[StopFlag]:
    """A StopFlag that Ctrl-C, SIGTERM and SIGHUP set while inside; the handlers before are put back after."""
    stop = StopFlag()
    previous = {number: signal.signal(number, stop) for number in STOP_SIGNALS}
    try:
        yield stop
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def run_pool(
    jobs: int,
    name: str,
    pending: Iterator[Work],
    budget: Budget,
    finished: Callable[[ChunkResult], None],
    stop: StopFlag,
) -> None:
    """Run chunks in worker processes; a killed worker costs a restart of the pool, up to MAX_RESTARTS."""
    restarts = 0
    retry: list[Work] = []  # chunks in flight when a pool broke
    while True:
        with ProcessPoolExecutor(max_workers=jobs, initializer=worker_start, initargs=(os.getpid(),)) as pool:
            futures: dict[Future, Work] = {}
            try:
                while True:
                    stop.check()
                    while len(futures) < 2 * jobs:
                        work = retry.pop() if retry else next(pending, None)
                        if work is None:
                            break
                        try:
                            futures[pool.submit(solve_chunk, name, work, budget)] = work
                        except BrokenProcessPool:
                            retry.append(work)  # taken, never submitted: it must not be lost
                            raise
                    if not futures:
                        return
                    ready, _ = wait(futures, timeout=0.2, return_when=FIRST_COMPLETED)
                    for future in ready:
                        result = future.result()  # a broken pool raises here, with the chunk still in futures
                        del futures[future]
                        finished(result)
            except BrokenProcessPool:
                stop.check()
                retry.extend(futures.values())
                restarts += 1
                if restarts > MAX_RESTARTS:
                    raise RunFailedError(
                        f"worker processes died {restarts} times in this run; every finished deal is stored, "
                        "run the same command again to resume"
                    ) from None
            except BaseException:
                _stop_workers(pool, futures)
                raise


def _stop_workers(pool: ProcessPoolExecutor, futures: dict[Future, Work]) -> None:
    """Cancel what has not started, give running chunks STOP_GRACE seconds, then end every worker.

    A worker ended while it writes a large result leaves half a message in the
    result pipe, and the pool's reader then waits for the rest for ever; a chunk
    that has finished is past that point.
    """
    for future in futures:
        future.cancel()
    wait(futures, timeout=STOP_GRACE)
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
