"""Win rates at scale: solving seed ranges in parallel into a resumable SQLite store.

Every deal is one row keyed by (rules, seed). Rows are committed chunk by chunk,
so an interrupted run keeps everything it finished and the next run solves only
the seeds still missing (and undecided ones, when a larger budget is given).
Under rules where the deck alone decides (docs/THEORY.md: Lemma 1, Theorem 2,
Corollary 3) a deal is decided by its forced course without building a line;
the win rests on the proof, and the same deals replay through the engine in the
test suite and in ``kcsolve solve``. Those deals are dealt and followed by the
numba-compiled course (:mod:`.compiled`) and stored a chunk per SQL statement;
``KCSOLVE_PURE_PYTHON=1`` keeps them on the Python course, for benchmarks and
cross-checks.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.solve.solution import LOSS_REASONS
from kcsolve.patience.solve.route import Budget, parse_budget, solve
from kcsolve.patience.solve.theory import course_end, covers

if TYPE_CHECKING:
    from kcsolve.patience.stats.compiled import CourseBatch

APPLICATION_ID = 0x4B435356  # "KCSV": marks a kcsolve results database
SCHEMA_VERSION = 2
SEED_OFFSET = 1 << 63  # deal numbers run to 2**64-1; stored minus 2**63 they fit SQLite's signed integers
CHUNK = 2_000
COURSE_CHUNK = 10_000  # the compiled course takes about 15 ms for these; fewer, larger commits
PURE_PYTHON = "KCSOLVE_PURE_PYTHON"  # set to 1: the Python course even where the compiled one applies
WINDOW = 100_000  # seeds looked up in the store at a time, so memory does not grow with --count
MAX_RESTARTS = 3
STOP_GRACE = 2.0  # seconds that chunks already running get to finish when a run stops
DASK_WAIT = 30.0  # seconds to wait for a first worker on a Dask cluster
Z95 = 1.959963984540054
REASONS = LOSS_REASONS

SCHEMA = """
CREATE TABLE IF NOT EXISTS deals (
    rules   TEXT    NOT NULL,
    seed    INTEGER NOT NULL,   -- deal number minus 2**63
    result  TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'unknown')),
    reason  TEXT,               -- a loss: 'full', 'left' (stock out, cards left), 'K', 'Q' or 'J'
    card    INTEGER,            -- a loss: the card after (full) or at (K/Q/J) which it is lost
    deal    INTEGER,            -- a loss: the fill round in which it is lost
    method  TEXT    NOT NULL,
    seconds REAL    NOT NULL,
    budget  TEXT,               -- the budget the deal was solved under (str(Budget)); None: no search needed
    budget_kind TEXT,           -- which limits that budget set: 'nodes', 'cpu', 'nodes+cpu' or 'none'
    PRIMARY KEY (rules, seed)
) WITHOUT ROWID;
"""
COLUMNS = ("rules", "seed", "result", "reason", "card", "deal", "method", "seconds", "budget", "budget_kind")

Row = tuple[int, str, str | None, int | None, int | None, str, float, str | None, str | None]

# One compiled chunk in one statement: json_each unpacks (seed - base) << 12 | end << 6 | deals (0 for a win) in C.
INSERT_COURSES = f"""
INSERT OR REPLACE INTO deals ({', '.join(COLUMNS)})
SELECT ?1, ?2 + (value >> 12),
       CASE WHEN value & 4095 THEN 'loss' ELSE 'win' END,
       CASE WHEN value & 4095 THEN 'full' END,
       CASE WHEN value & 4095 THEN (value >> 6) & 63 END,
       CASE WHEN value & 4095 THEN value & 63 END,
       'course', ?3, NULL, NULL
FROM json_each(?4)
"""
SPAN = 1 << 40  # seeds of one statement lie within this of its base, so every code fits a signed 64-bit integer


@dataclass(frozen=True)
class PackedCourses:
    """Compiled verdicts as INSERT_COURSES takes them: (base seed, JSON array of codes) pieces, packed in the worker."""

    pieces: tuple[tuple[int, str], ...]
    count: int
    seconds: float  # for the whole chunk; each row stores its mean share

    def __len__(self) -> int:
        return self.count


def pack_courses(batch: CourseBatch) -> PackedCourses:
    """Pack a compiled chunk: seeds sorted and cut into pieces spanning less than SPAN from their base."""
    import numpy as np

    order = np.argsort(batch.seeds, kind="stable")
    seeds = batch.seeds[order]
    low = np.where(batch.won, 0, batch.end.astype(np.int64) << 6 | batch.deals)[order]
    pieces = []
    first = 0
    while first < len(seeds):
        base = seeds[first]
        last = first + int(np.searchsorted(seeds[first:] - base, np.uint64(SPAN)))
        codes = (seeds[first:last] - base).astype(np.int64) << 12 | low[first:last]
        pieces.append((int(base), "[" + ",".join(map(str, codes.tolist())) + "]"))
        first = last
    return PackedCourses(tuple(pieces), len(batch), batch.seconds)


class ResultsStoreError(ValueError):
    """A results database that is unreadable, damaged, read-only or belongs to something else."""


class SchedulerError(RuntimeError):
    """The Dask backend is missing, its address is malformed, or its scheduler cannot be reached."""


class RunFailedError(RuntimeError):
    """A run that cannot go on (workers keep dying, the scheduler is gone); finished deals are kept."""


class Interrupted(KeyboardInterrupt):
    """The run was asked to stop (Ctrl-C, SIGTERM, SIGHUP); finished deals are kept."""


def check_store(path: Path) -> int:
    """Refuse anything but a sound kcsolve results database, without writing a byte; its schema version (0: new)."""
    if path.parent != path and not path.parent.is_dir():
        what = "is not a directory" if path.parent.exists() else "does not exist"
        raise ResultsStoreError(f"cannot use {str(path)!r}: its directory {str(path.parent)!r} {what}")
    if path.is_dir():
        raise ResultsStoreError(f"cannot use {str(path)!r}: it is a directory")
    if not path.exists() or path.stat().st_size == 0:
        return 0
    try:
        # immutable: no locks, no -wal or -shm files beside a file that may be refused
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
        try:
            app = probe.execute("PRAGMA application_id").fetchone()[0]
            version = probe.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            damage = [r[0] for r in probe.execute("PRAGMA quick_check(3)")]
        finally:
            probe.close()
    except sqlite3.DatabaseError as exc:
        raise ResultsStoreError(f"{str(path)!r} is not a kcsolve results database ({exc})") from None
    if app != APPLICATION_ID and (app != 0 or tables):
        raise ResultsStoreError(
            f"{str(path)!r} is a SQLite database of something else (application_id {app:#x}, tables: "
            f"{', '.join(sorted(tables)) or 'none'}); choose another --db"
        )
    if damage != ["ok"]:
        raise ResultsStoreError(f"{str(path)!r} is damaged ({damage[0]}); it is left as it is: choose another --db")
    if app == APPLICATION_ID and version not in (1, SCHEMA_VERSION):
        raise ResultsStoreError(
            f"{str(path)!r} is a kcsolve results database of schema version {version}; "
            f"this kcsolve reads versions 1 and {SCHEMA_VERSION}: choose another --db"
        )
    return version if app == APPLICATION_ID else 0


class ResultsStore:
    """The SQLite file of per-deal results; ``readonly`` opens it for reading only."""

    def __init__(self, path: Path, readonly: bool = False) -> None:
        version = check_store(path)
        self.path = path
        try:
            if readonly:
                self.db = _open_readonly(path)
                return
            self.db = sqlite3.connect(path)
            self.db.execute("PRAGMA page_size = 16384")  # a new store only: fewer, larger pages insert faster
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            with self.db:
                self.db.executescript(SCHEMA)
                if version == 1:
                    self.db.execute("ALTER TABLE deals ADD COLUMN budget_kind TEXT")
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise ResultsStoreError(f"cannot use {str(path)!r} as a results database: {_why(path, exc)}") from None

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def add(self, rules: str, rows: list[Row] | PackedCourses) -> None:
        """Store solved deals in one transaction (replacing undecided rows retried)."""
        try:
            with self.db:
                if isinstance(rows, list):
                    self.db.executemany(
                        f"INSERT OR REPLACE INTO deals ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                        [(rules, seed - SEED_OFFSET, *rest) for seed, *rest in rows],
                    )
                else:
                    for base, codes in rows.pieces:
                        self.db.execute(INSERT_COURSES, (rules, base - SEED_OFFSET, rows.seconds / rows.count, codes))
        except sqlite3.DatabaseError as exc:
            raise ResultsStoreError(f"cannot write to {str(self.path)!r}: {_why(self.path, exc)}; "
                                    "every deal stored before this is kept") from None

    def decided(self, rules: str, start: int, count: int, budget: Budget) -> set[int]:
        """Seeds of the range that need no solving: decided, or undecided under a budget at least as large."""
        cursor = self.db.execute(
            "SELECT seed, result, budget FROM deals WHERE rules = ? AND seed BETWEEN ? AND ?",
            (rules, start - SEED_OFFSET, start + count - 1 - SEED_OFFSET),
        )
        return {seed + SEED_OFFSET for seed, result, spent in cursor if result != "unknown" or not _larger(budget, spent)}

    def done_count(self, rules: str, start: int, count: int, budget: Budget) -> int:
        """How many seeds of the range need no solving, counted in SQL (undecided rows one by one)."""
        low, high = start - SEED_OFFSET, start + count - 1 - SEED_OFFSET
        decided = self.db.execute(
            "SELECT COUNT(*) FROM deals WHERE rules = ? AND seed BETWEEN ? AND ? AND result != 'unknown'",
            (rules, low, high),
        ).fetchone()[0]
        undecided = self.db.execute(
            "SELECT budget FROM deals WHERE rules = ? AND seed BETWEEN ? AND ? AND result = 'unknown'",
            (rules, low, high),
        )
        return decided + sum(1 for (spent,) in undecided if not _larger(budget, spent))

    def tally(self, rules: str, start: int, count: int) -> list[tuple[str, str | None, int | None, int]]:
        """(result, reason, deal, number) over the range."""
        return self.db.execute(
            "SELECT result, reason, deal, COUNT(*) FROM deals WHERE rules = ? AND seed BETWEEN ? AND ? "
            "GROUP BY result, reason, deal",
            (rules, start - SEED_OFFSET, start + count - 1 - SEED_OFFSET),
        ).fetchall()


def _open_readonly(path: Path) -> sqlite3.Connection:
    """A connection that writes nothing at all, not even SQLite's -shm file.

    Without a -wal file beside it the database file is complete, so it can be
    read as immutable; with one (a run that was killed), it is read normally.
    """
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)


def _why(path: Path, exc: sqlite3.DatabaseError) -> str:
    """The real reason a database cannot be used or written, in words."""
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        target = path if path.exists() else path.parent
        try:
            os.statvfs(target)
            if os.statvfs(target).f_flag & os.ST_RDONLY:
                return "it is on a read-only file system"
        except OSError:
            pass
        return "it is read-only (no permission to write it or its directory)"
    if "disk is full" in text or "disk I/O" in text:
        return f"{text} (is the disk full?)"
    return text


def _larger(budget: Budget, spent: str | None) -> bool:
    """Whether ``budget`` allows more than the stored budget text ``spent``."""
    if spent is None:
        return True
    try:
        before = parse_budget(spent)  # stored as str(Budget)
    except ValueError:
        return True  # an unreadable stored budget never blocks a retry
    if budget.nodes is None and budget.seconds is None:
        return before.nodes is not None or before.seconds is not None
    return (budget.nodes or 0) > (before.nodes or 0) or (budget.seconds or 0) > (before.seconds or 0)


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


def _worker_start() -> None:
    """Workers leave Ctrl-C and hang-ups to the main process, and die with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's stop flag, inherited by fork: terminate() must work
    parent = os.getppid()
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


def chunks_to_solve(store: ResultsStore, name: str, start: int, count: int, budget: Budget,
                    size: int = CHUNK) -> Iterator[list[int]]:
    """The seeds of the range still to solve, in chunks, looked up window by window (bounded memory)."""
    for window in range(start, start + count, WINDOW):
        span = min(WINDOW, start + count - window)
        done = store.decided(name, window, span, budget)
        todo = [s for s in range(window, window + span) if s not in done]
        for i in range(0, len(todo), size):
            yield todo[i : i + size]


def run(
    store: ResultsStore, rules: Rules, start: int, count: int, jobs: int = 1, budget: Budget = Budget(),
    report: Callable[[Progress], None] | None = None, scheduler: str | None = None,
    stop: StopFlag | None = None,
) -> Progress:
    """Solve the seeds of the range not yet in the store; commit each chunk as it arrives."""
    name = str(rules)
    stop = stop or StopFlag()
    progress = Progress(count, done=store.done_count(name, start, count, budget))
    if report:
        report(progress)
    size = COURSE_CHUNK if compiled_applies(rules) else CHUNK
    pending = chunks_to_solve(store, name, start, count, budget, size)

    def finished(rows: list[Row] | PackedCourses) -> None:
        store.add(name, rows)
        progress.done += len(rows)
        progress.solved += len(rows)
        if report:
            report(progress)

    if scheduler:
        _run_dask(scheduler, name, pending, budget, finished, stop)
    elif jobs <= 1:
        for seeds in pending:
            stop.check()
            finished(solve_chunk(name, seeds, budget))
    else:
        _run_pool(jobs, name, pending, budget, finished, stop)
    stop.check()
    return progress


def _run_pool(jobs: int, name: str, pending: Iterator[list[int]], budget: Budget,
              finished: Callable[[list[Row] | PackedCourses], None], stop: StopFlag) -> None:
    """Run chunks in worker processes; a killed worker costs a restart of the pool, up to MAX_RESTARTS."""
    restarts = 0
    retry: list[list[int]] = []  # chunks in flight when a pool broke
    while True:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start) as pool:
            futures: dict[Future, list[int]] = {}
            try:
                while True:
                    stop.check()
                    while len(futures) < 2 * jobs:
                        seeds = retry.pop() if retry else next(pending, None)
                        if seeds is None:
                            break
                        try:
                            futures[pool.submit(solve_chunk, name, seeds, budget)] = seeds
                        except BrokenProcessPool:
                            retry.append(seeds)  # taken, never submitted: it must not be lost
                            raise
                    if not futures:
                        return
                    ready, _ = wait(futures, timeout=0.2, return_when=FIRST_COMPLETED)
                    for future in ready:
                        rows = future.result()  # a broken pool raises here, with the chunk still in futures
                        del futures[future]
                        finished(rows)
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


def _stop_workers(pool: ProcessPoolExecutor, futures: dict[Future, list[int]]) -> None:
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


def check_scheduler(address: str) -> None:
    """Refuse an address that is not a Dask scheduler's (tcp://, tls://, ucx:// or inproc://)."""
    if not re.fullmatch(r"(tcp|tls|ucx)://[^\s/:]+:\d{1,5}|inproc://\S+", address):
        raise SchedulerError(f"not a Dask scheduler address: {address!r} (use tcp://HOST:PORT)")


def _run_dask(address: str, name: str, pending: Iterator[list[int]], budget: Budget,
              finished: Callable[[list[Row] | PackedCourses], None], stop: StopFlag) -> None:
    """Run chunks on an existing Dask distributed cluster; results come back here to be stored."""
    check_scheduler(address)
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'kcsolve[dask]'") from None
    try:
        client = Client(address, timeout=10)
    except Exception as exc:  # distributed raises OSError, TimeoutError or its own CommClosedError
        raise SchedulerError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=DASK_WAIT)
        except Exception:
            raise SchedulerError(f"the Dask scheduler at {address!r} has no workers (waited {DASK_WAIT:g} s)") from None
        in_flight = 4 * max(1, len(client.scheduler_info().get("workers", {})))
        window = as_completed()
        for seeds in itertools.islice(pending, in_flight):
            window.add(client.submit(solve_chunk, name, seeds, budget, pure=False))
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
            raise SchedulerError(f"lost the Dask scheduler at {address!r} mid-run ({type(exc).__name__}); "
                                 "every finished deal is stored, run the same command again to resume") from None
        except Exception as exc:
            raise RunFailedError(f"a task failed on the Dask cluster: {type(exc).__name__}: {exc}") from None


@dataclass(frozen=True)
class Summary:
    """The win rate of a seed range and how its losses happen."""

    rules: str
    start: int
    count: int
    won: int
    lost: int
    undecided: int
    loss_reasons: dict[str, int]
    loss_deals: dict[int, int]

    @property
    def decided(self) -> int:
        """Deals with a verdict."""
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        """Wins among decided deals."""
        return self.won / self.decided if self.decided else None

    @property
    def ci95(self) -> tuple[float, float] | None:
        """The 95% Wilson score interval of the win rate."""
        return wilson(self.won, self.decided) if self.decided else None

    @property
    def bounds(self) -> tuple[float, float]:
        """Proven wins over all deals, and one minus proven losses over all deals."""
        return self.won / self.count, 1 - self.lost / self.count

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return {
            "rules": self.rules, "start": self.start, "count": self.count,
            "won": self.won, "lost": self.lost, "undecided": self.undecided,
            "win_rate": self.win_rate, "ci95": list(self.ci95) if self.ci95 else None,
            "bounds": list(self.bounds),
            "loss_reasons": self.loss_reasons,
            "loss_deals": {str(k): v for k, v in sorted(self.loss_deals.items())},
        }


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(store: ResultsStore, rules: Rules, start: int, count: int) -> Summary:
    """Count the stored verdicts of a seed range."""
    won = lost = undecided = 0
    reasons = {code: 0 for code in REASONS}
    deals: dict[int, int] = {}
    for result, reason, deal_no, n in store.tally(str(rules), start, count):
        if result == "win":
            won += n
        elif result == "unknown":
            undecided += n
        else:
            lost += n
            reasons[reason or "full"] += n
            if deal_no is not None:
                deals[deal_no] = deals.get(deal_no, 0) + n
    return Summary(str(rules), start, count, won, lost, undecided, reasons, deals)


def default_db() -> Path:
    """The results database in the user's cache directory (KCSOLVE_DB overrides it)."""
    if "KCSOLVE_DB" in os.environ:
        return Path(os.environ["KCSOLVE_DB"])
    from platformdirs import user_cache_dir

    folder = Path(user_cache_dir("kcsolve"))
    folder.mkdir(parents=True, exist_ok=True)  # kcsolve's own cache folder; a --db path's folder must exist
    return folder / "results.sqlite3"
