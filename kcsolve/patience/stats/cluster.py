"""Chunks solved on a Dask distributed cluster; the results come back to the one process that stores them."""

from __future__ import annotations

import itertools
import re
import socket
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING

from kcsolve.errors import KcsolveError
from kcsolve.patience.solve.route import Budget
from kcsolve.patience.stats.checks import ResultsStoreError
from kcsolve.patience.stats.chunks import solve_chunk
from kcsolve.patience.stats.pool import Interrupted, RunFailedError, StopFlag
from kcsolve.patience.stats.store import ChunkResult, Work

if TYPE_CHECKING:
    from distributed import Client

DASK_WAIT = 30.0  # seconds to wait for a first worker on a Dask cluster
CONNECT_WAIT = 10.0  # seconds to wait for the scheduler to answer at all


class SchedulerError(KcsolveError):
    """The Dask backend is missing, its address is malformed, or its scheduler cannot be reached."""


# tcp://, tls:// and ucx:// name a host and a port; inproc:// names a scheduler in this process
ADDRESS = re.compile(r"(?P<scheme>tcp|tls|ucx)://(?P<host>[^\s/:]+):(?P<port>[0-9]{1,5})|inproc://\S+")


def check_scheduler(address: str) -> None:
    """Refuse an address that is not a Dask scheduler's (tcp://, tls://, ucx:// or inproc://)."""
    match = ADDRESS.fullmatch(address)
    if match is None or (match["port"] is not None and not 1 <= int(match["port"]) <= 65535):
        raise SchedulerError(f"not a Dask scheduler address: {address!r} (use tcp://HOST:PORT)")


def probe_scheduler(address: str) -> None:
    """Refuse a tcp:// address where nothing listens at once; Dask's client would retry it for CONNECT_WAIT seconds."""
    match = ADDRESS.fullmatch(address)
    if match is None or match["scheme"] != "tcp":
        return
    try:
        socket.create_connection((match["host"], int(match["port"])), timeout=CONNECT_WAIT).close()
    except OSError as exc:  # refused, no such host, unreachable, or no answer in time
        raise SchedulerError(f"cannot reach Dask at {address!r}: {exc.strerror or exc}") from None


def reach_scheduler(address: str) -> None:
    """Refuse a malformed address, a missing Dask, an address where nothing listens or a cluster without workers.

    The command asks before the database is made or opened, so a refused run
    writes nothing; the run connects again.
    """
    with _connected(address) as client:
        _workers(client, address)


def _connected(address: str) -> Client:
    """A Dask client connected to the scheduler at ``address``, or SchedulerError."""
    check_scheduler(address)
    try:
        from distributed import Client
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'kcsolve[dask]'") from None
    probe_scheduler(address)
    try:
        return Client(address, timeout=CONNECT_WAIT)
    except Exception as exc:  # distributed raises OSError, TimeoutError or its own CommClosedError
        raise SchedulerError(f"cannot reach Dask at {address!r}: {exc}") from None


def _workers(client: Client, address: str) -> int:
    """How many workers the cluster has, once it has one; SchedulerError after DASK_WAIT seconds without."""
    try:
        client.wait_for_workers(1, timeout=DASK_WAIT)
    except Exception:
        raise SchedulerError(f"no Dask workers at {address!r} (waited {DASK_WAIT:g} s)") from None
    return max(1, len(client.scheduler_info().get("workers", {})))


def run_dask(
    address: str,
    name: str,
    pending: Iterator[Work],
    budget: Budget,
    finished: Callable[[ChunkResult], None],
    stop: StopFlag,
) -> None:
    """Run chunks on an existing Dask distributed cluster; results come back here to be stored."""
    with _connected(address) as client:
        from distributed import as_completed

        in_flight = 4 * _workers(client, address)
        window = as_completed()
        for work in itertools.islice(pending, in_flight):
            window.add(client.submit(solve_chunk, name, work, budget, pure=False))
        try:
            for future in window:
                stop.check()
                finished(future.result())
                following = next(pending, None)
                if following is not None:
                    window.add(client.submit(solve_chunk, name, following, budget, pure=False))
        except (Interrupted, ResultsStoreError):
            raise
        except (OSError, TimeoutError, CancelledError) as exc:  # distributed's CommClosedError is an OSError
            raise SchedulerError(
                f"lost Dask at {address!r} mid-run ({type(exc).__name__}): run again to resume; "
                "every finished deal is stored"
            ) from None
        except Exception as exc:
            raise RunFailedError(f"a task failed on the Dask cluster: {type(exc).__name__}: {exc}") from None
