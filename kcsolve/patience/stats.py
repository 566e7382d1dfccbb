"""Win rates at scale: solving seed ranges in parallel into a resumable SQLite store.

Every deal is one row keyed by (rules, seed). Rows are committed chunk by chunk,
so an interrupted run keeps everything it finished and the next run solves only
the seeds still missing (and undecided ones, when a larger budget is given).
Under rules where the deck alone decides (docs/THEORY.md: Lemma 1, Theorem 2,
Corollary 3) a deal is decided by its forced course without building a line;
the win rests on the proof, and the same deals replay through the engine in the
test suite and in ``kcsolve solve``.
"""

from __future__ import annotations

import math
import os
import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.deal import deal, deal_ranks
from .rules import Rules, parse_rules
from .solver import Budget, parse_budget, solve
from .theory import course_end, covers

APPLICATION_ID = 0x4B435356  # "KCSV": marks a kcsolve results database
SCHEMA_VERSION = 1
SEED_OFFSET = 1 << 63  # deal numbers run to 2**64-1; stored minus 2**63 they fit SQLite's signed integers
CHUNK = 2_000
Z95 = 1.959963984540054
REASONS = {"full": "grid full with nothing to remove", "left": "stock empty with number cards left",
           "K": "no free corner for a King", "Q": "no free Queen cell", "J": "no free Jack cell"}

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
    budget  TEXT,               -- an undecided deal: the budget that ran out
    PRIMARY KEY (rules, seed)
) WITHOUT ROWID;
"""

Row = tuple[int, str, str | None, int | None, int | None, str, float, str | None]


class ResultsStoreError(ValueError):
    """A results database that is unreadable, corrupt, or belongs to something else."""


class SchedulerError(RuntimeError):
    """The Dask backend is missing or its scheduler cannot be reached."""


def check_store(path: Path) -> None:
    """Refuse a file that is not a kcsolve results database, without writing to it."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as probe:
            app = probe.execute("PRAGMA application_id").fetchone()[0]
            tables = {r[0] for r in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        probe.close()
    except sqlite3.DatabaseError as exc:
        raise ResultsStoreError(f"{str(path)!r} is not a kcsolve results database ({exc})") from None
    if app != APPLICATION_ID and (app != 0 or tables):
        raise ResultsStoreError(
            f"{str(path)!r} is a SQLite database of something else (application_id {app:#x}, tables: "
            f"{', '.join(sorted(tables)) or 'none'}); choose another --db"
        )


class ResultsStore:
    """The SQLite file of per-deal results."""

    def __init__(self, path: Path) -> None:
        check_store(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(path)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = NORMAL")
            with self.db:
                self.db.executescript(SCHEMA)
                self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise ResultsStoreError(f"cannot use {str(path)!r} as a results database ({exc})") from None
        self.path = path

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def add(self, rules: str, rows: list[Row]) -> None:
        """Store solved deals in one transaction (replacing undecided rows retried)."""
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO deals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(rules, seed - SEED_OFFSET, *rest) for seed, *rest in rows],
            )

    def decided(self, rules: str, start: int, count: int, budget: Budget) -> set[int]:
        """Seeds of the range that need no solving: decided, or undecided under a budget at least as large."""
        cursor = self.db.execute(
            "SELECT seed, result, budget FROM deals WHERE rules = ? AND seed BETWEEN ? AND ?",
            (rules, start - SEED_OFFSET, start + count - 1 - SEED_OFFSET),
        )
        return {seed + SEED_OFFSET for seed, result, spent in cursor if result != "unknown" or not _larger(budget, spent)}

    def tally(self, rules: str, start: int, count: int) -> list[tuple[str, str | None, int | None, int]]:
        """(result, reason, deal, number) over the range."""
        return self.db.execute(
            "SELECT result, reason, deal, COUNT(*) FROM deals WHERE rules = ? AND seed BETWEEN ? AND ? "
            "GROUP BY result, reason, deal",
            (rules, start - SEED_OFFSET, start + count - 1 - SEED_OFFSET),
        ).fetchall()


def _larger(budget: Budget, spent: str | None) -> bool:
    """Whether ``budget`` allows more than the stored budget text ``spent``."""
    if spent is None:
        return True
    before = Budget() if spent == "none" else parse_budget(spent)  # stored as str(Budget)
    if budget.nodes is None and budget.seconds is None:
        return True
    return (budget.nodes or 0) > (before.nodes or 0) or (budget.seconds or 0) > (before.seconds or 0)


def solve_chunk(rules_text: str, seeds: list[int], budget: Budget) -> list[Row]:
    """Decide a list of seeds; one row each. Runs in worker processes."""
    rules = parse_rules(rules_text)
    rows: list[Row] = []
    clock = time.perf_counter
    if covers(rules):
        for seed in seeds:
            began = clock()
            won, end, deals = course_end(deal_ranks(seed), rules)
            spent = clock() - began
            rows.append((seed, "win", None, None, None, "course", spent, None) if won
                        else (seed, "loss", "full", end, deals, "course", spent, None))
        return rows
    for seed in seeds:
        solution = solve(deal(seed), rules, "auto", budget)
        loss = solution.loss or (None, None, None)
        rows.append((seed, solution.result, *loss, solution.stats["method"], solution.stats["seconds"],
                     str(budget) if solution.result == "unknown" else None))
    return rows


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the main process, which keeps what is finished."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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


def chunks(seeds: list[int], size: int = CHUNK) -> Iterator[list[int]]:
    """Consecutive slices of a seed list."""
    for i in range(0, len(seeds), size):
        yield seeds[i : i + size]


def run(
    store: ResultsStore, rules: Rules, start: int, count: int, jobs: int = 1, budget: Budget = Budget(),
    report: Callable[[Progress], None] | None = None, scheduler: str | None = None,
) -> Progress:
    """Solve the seeds of the range not yet in the store; commit each chunk as it arrives."""
    name = str(rules)
    done = store.decided(name, start, count, budget)
    todo = [s for s in range(start, start + count) if s not in done]
    progress = Progress(count, done=count - len(todo))
    if report:
        report(progress)
    pending = list(chunks(todo))

    def finished(rows: list[Row]) -> None:
        store.add(name, rows)
        progress.done += len(rows)
        progress.solved += len(rows)
        if report:
            report(progress)

    if scheduler:
        _run_dask(scheduler, name, pending, budget, finished)
    elif jobs <= 1:
        for seeds in pending:
            finished(solve_chunk(name, seeds, budget))
    else:
        _run_pool(jobs, name, pending, budget, finished)
    return progress


def _run_pool(jobs: int, name: str, pending: list[list[int]], budget: Budget, finished: Callable[[list[Row]], None]) -> None:
    """Run chunks in worker processes; a killed worker only costs a restart of the pool."""
    restarts = 0
    while pending:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_quiet_worker) as pool:
            futures: dict[Future, list[int]] = {}
            queue = list(pending)
            try:
                while queue or futures:
                    while queue and len(futures) < 2 * jobs:
                        seeds = queue.pop(0)
                        futures[pool.submit(solve_chunk, name, seeds, budget)] = seeds
                    ready, _ = wait(futures, return_when=FIRST_COMPLETED)
                    for future in ready:
                        seeds = futures.pop(future)
                        finished(future.result())
                        pending.remove(seeds)
            except BrokenProcessPool:
                restarts += 1
                if restarts > 3:
                    raise
            except BaseException:
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.terminate()
                raise


def _run_dask(address: str, name: str, pending: list[list[int]], budget: Budget, finished: Callable[[list[Row]], None]) -> None:
    """Run chunks on an existing Dask distributed cluster; results come back here to be stored."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'kcsolve[dask]'") from None
    try:
        client = Client(address, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from None
    with client:
        futures = [client.submit(solve_chunk, name, seeds, budget, pure=False) for seeds in pending]
        for future in as_completed(futures):
            finished(future.result())


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

    return Path(user_cache_dir("kcsolve")) / "results.sqlite3"
