"""The results store: one SQLite row per deal, keyed by (rules, seed), committed a chunk at a time."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcsolve.patience.solve.route import Budget, parse_budget
from kcsolve.patience.stats.checks import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    ResultsStoreError,
    check_store,
    companions,
    open_readonly,
    remove_empty_companions,
    why,
)

if TYPE_CHECKING:
    from kcsolve.patience.stats.compiled import CourseBatch

SEED_OFFSET = 1 << 63  # deal numbers run to 2**64-1; stored minus 2**63 they fit SQLite's signed integers

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


class ResultsStore:
    """The SQLite file of per-deal results; ``readonly`` opens it for reading only."""

    def __init__(self, path: Path, readonly: bool = False) -> None:
        version = check_store(path)
        self.path = path
        self.version = version
        there = companions(path)
        try:
            if readonly:
                self.db = open_readonly(path)
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
            remove_empty_companions(path, there)
            raise ResultsStoreError(f"cannot use {str(path)!r} as a results database: {why(path, exc)}") from None

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
            raise ResultsStoreError(f"cannot write to {str(self.path)!r}: {why(self.path, exc)}; "
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


def default_db() -> Path:
    """The results database in the user's cache directory (KCSOLVE_DB overrides it)."""
    if "KCSOLVE_DB" in os.environ:
        return Path(os.environ["KCSOLVE_DB"])
    from platformdirs import user_cache_dir

    folder = Path(user_cache_dir("kcsolve"))
    folder.mkdir(parents=True, exist_ok=True)  # kcsolve's own cache folder; a --db path's folder must exist
    return folder / "results.sqlite3"


def open_store(path: Path, rules: str, start: int, count: int, budget: Budget) -> ResultsStore | ReadOnlyRun:
    """The store, opened read-only when every requested deal is already in it (nothing is written then)."""
    if path.exists() and path.stat().st_size:
        readonly = ResultsStore(path, readonly=True)
        try:
            # version 0: an empty SQLite file, with no table to count in yet
            if readonly.version and readonly.done_count(rules, start, count, budget) == count:
                return ReadOnlyRun(readonly)
        except sqlite3.DatabaseError as exc:
            readonly.close()
            raise ResultsStoreError(f"{str(path)!r} cannot be read: {exc}") from None
        readonly.close()
    return ResultsStore(path)


class ReadOnlyRun:
    """A store whose range is complete: ``run`` has nothing to solve and writes nothing."""

    def __init__(self, store: ResultsStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def add(self, rules: str, rows: list[Any]) -> None:
        raise AssertionError("a complete range needs no writing")
