"""Worker processes that leave Ctrl-C to their parent and die with it, and an ordered map over a pool of them.

A long run (``stats``, ``selfplay``, ``corner sim``) must stop within a second
or two of Ctrl-C, SIGTERM or the parent's death: finished results are already
with the parent, and a worker left running would be an orphan.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from kcsolve.errors import KcsolveError

# Worker processes at most: every one is forked at the pool's first task, so a mistyped count must not fork a
# million; far beyond the cores of one machine (a cluster is reached through stats --scheduler instead).
MAX_JOBS = 256

MANAGER_GRACE = 1.0  # seconds a stopped pool's manager thread gets to notice its workers are gone


class InvalidJobsError(KcsolveError):
    """A number of worker processes that is not a whole number from 1 to MAX_JOBS."""


def check_jobs(jobs: object) -> int:
    """``jobs`` itself when it is a whole number of worker processes from 1 to MAX_JOBS; InvalidJobsError if not."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise InvalidJobsError(f"worker processes must be a whole number from 1 to {MAX_JOBS}, got {jobs!r}")
    return jobs


def worker_start(parent: int) -> None:
    """In a new worker of process ``parent``: Ctrl-C and hang-ups are the parent's, and the worker dies with it.

    The parent names itself: a worker that asked getppid() would be told the
    init process's number if the parent died between the fork and that call,
    and would then wait for ever on a queue no one writes.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    # not the parent's stop flag, inherited by fork: terminate() must work
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: the kernel kills us when the parent dies
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    threading.Thread(target=_follow_parent, args=(parent,), daemon=True).start()


def _follow_parent(parent: int) -> None:
    """Where the kernel cannot tie a worker to its parent, notice the parent is gone and leave."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def end_workers(pool: ProcessPoolExecutor) -> None:
    """End every worker of ``pool`` now; what they were doing is lost, what they returned is not."""
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    # Python 3.11's exit hook wakes the pool's manager thread through a pipe that thread closes when it sees
    # its workers gone, with no lock between the check and the write: an exit racing it printed a traceback
    # about once in forty Ctrl-Cs. The thread ends within milliseconds of its workers; the bound is for safety.
    if manager is not None:
        manager.join(timeout=MANAGER_GRACE)


def ordered_map(function: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], jobs: int) -> Iterator[Any]:
    """``function(*task)`` for each task, on ``jobs`` workers, yielded in order; a few tasks in flight at a time.

    Whatever stops the caller (Ctrl-C, an error, a consumer that leaves) ends
    the workers at once instead of waiting for the tasks they are running.
    """
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=worker_start, initargs=(os.getpid(),))
    pending = iter(tasks)
    flight: deque[Future[Any]] = deque()
    try:
        for task in pending:
            flight.append(pool.submit(function, *task))
            if len(flight) >= 2 * jobs:
                break
        while flight:
            result = flight.popleft().result()
            following = next(pending, None)
            if following is not None:
                flight.append(pool.submit(function, *following))
            yield result
    except BaseException:
        end_workers(pool)
        raise
    pool.shutdown(wait=True)
