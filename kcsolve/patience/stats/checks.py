"""Checks of a results database before it is used: whose it is, which schema, and whether it is damaged."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from kcsolve.common.budget import InvalidBudgetError, parse_budget
from kcsolve.common.files import special_kind
from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError
from kcsolve.patience.rules import InvalidRulesError, parse_rules

APPLICATION_ID = 0x4B435356  # "KCSV": marks a kcsolve results database

SCHEMA_VERSION = 3

OLD_VERSIONS = (1, 2)  # one row per deal: read only to be converted (stats --convert)

# What kcsolve puts in a database of each schema version, and nothing else may be there: another program's
# trigger would run on kcsolve's writes, and its tables would be kept in a file kcsolve calls its own
SCHEMA_OBJECTS = {
    1: {("table", "deals")},
    2: {("table", "deals")},
    SCHEMA_VERSION: {("table", "chunks"), ("index", "sqlite_autoindex_chunks_1")},
}


class ResultsStoreError(KcsolveError):
    """A results database that is unreadable, damaged, read-only or belongs to something else."""


def check_store(path: Path) -> int:
    """Refuse anything but a sound kcsolve results database, without writing a byte; its schema version (0: no file)."""
    if path.parent != path and not path.parent.is_dir():
        what = "is not a directory" if path.parent.exists() else "does not exist"
        raise ResultsStoreError(f"cannot use {str(path)!r}: its directory {str(path.parent)!r} {what}")
    if path.exists() and not path.is_file():
        what = special_kind(path.stat().st_mode)
        raise ResultsStoreError(f"cannot use {str(path)!r}: it is {what}, not a regular file")
    if not path.exists():
        return 0
    if path.stat().st_size == 0 and not _has_wal(path):
        raise ResultsStoreError(
            f"{str(path)!r} is an empty file, not a kcsolve results database; "
            "remove it to start a new one, or choose another --db"
        )
    try:
        probe = open_readonly(path)
        try:
            app = probe.execute("PRAGMA application_id").fetchone()[0]
            version = probe.execute("PRAGMA user_version").fetchone()[0]
            objects = set(probe.execute("SELECT type, name FROM sqlite_master"))
            tables = {name for kind, name in objects if kind == "table"}
            damage = [r[0] for r in probe.execute("PRAGMA quick_check(3)")]
            bad_row = None
            if damage == ["ok"] and app == APPLICATION_ID and version == SCHEMA_VERSION and "chunks" in tables:
                bad_row = _bad_row(probe)
        finally:
            probe.close()
    except sqlite3.DatabaseError as exc:
        raise _needing_wal(path) or ResultsStoreError(
            damaged(path, truncation(path) or one_line(exc))
            if is_kcsolve_file(path)
            else f"{str(path)!r} is not a kcsolve results database ({one_line(exc)})"
        ) from None
    except UnicodeDecodeError:  # SQLite's report quotes damaged bytes of the schema, which Python cannot decode
        raise ResultsStoreError(damaged(path, "its schema is unreadable")) from None
    if app == 0 and not objects:
        raise ResultsStoreError(
            f"{str(path)!r} is an empty SQLite database, not a kcsolve results database; "
            "remove it to start a new one, or choose another --db"
        )
    if app != APPLICATION_ID:
        raise ResultsStoreError(
            f"{str(path)!r} is a SQLite database of something else (application_id {app:#x}, tables: "
            f"{', '.join(sorted(tables)) or 'none'}); choose another --db"
        )
    if bad_row is not None:
        raise ResultsStoreError(damaged(path, bad_row))
    if damage != ["ok"]:
        first = " ".join(damage[0].split())[:200]  # SQLite's report spans lines; the refusal is one
        raise _needing_wal(path) or ResultsStoreError(damaged(path, truncation(path) or first))
    if version not in (*OLD_VERSIONS, SCHEMA_VERSION):
        raise ResultsStoreError(
            f"{str(path)!r} is a kcsolve results database of schema version {version}; "
            f"this kcsolve reads version {SCHEMA_VERSION} and converts versions 1 and 2: choose another --db"
        )
    stray = sorted(objects - SCHEMA_OBJECTS[version])
    if stray:
        kind, name = stray[0]
        raise ResultsStoreError(
            f"{str(path)!r} holds the {kind} {brief(name)}, which no kcsolve makes; "
            "it is left as it is: choose another --db"
        )
    return version


def damaged(path: Path, what: str) -> str:
    """The refusal of a damaged store: how to keep its intact chunks first, kept where the line is cut to fit."""
    return f"{str(path)!r} is damaged: --salvage NEW copies its intact chunks; {what}; it is left untouched"


SQLITE_MAGIC = b"SQLite format 3\x00"


def is_kcsolve_file(path: Path) -> bool:
    """Whether the file's header is a SQLite database's marked with kcsolve's application_id, whatever follows it."""
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except OSError:
        return False
    return header.startswith(SQLITE_MAGIC) and int.from_bytes(header[68:72], "big") == APPLICATION_ID


def truncation(path: Path) -> str | None:
    """'truncated: N of M bytes' where the file is shorter than its header says, else None."""
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
        size = path.stat().st_size
    except OSError:
        return None
    if len(header) < 100 or header[24:28] != header[92:96]:  # the page count is valid only when these agree
        return None
    page_size = int.from_bytes(header[16:18], "big")
    whole = (65536 if page_size == 1 else page_size) * int.from_bytes(header[28:32], "big")
    return f"truncated: {size:,} of {whole:,} bytes" if size < whole else None


LONGEST = 1 << 20  # deals in a chunk at most, so the chunks reaching a range are found from an index range

TOP = (1 << 63) - 1  # the last deal number, 2**64-1, as stored (minus 2**63)

LONGEST_NAME = 200  # characters of a stored rule set or budget at most; a run writes about 30 at most

# Every chunk row's columns have the types, sums and sizes a run writes (a tally names at most 252 codes, zlib
# never grows bytes by more than a few in a thousand): a scan of a row per chunk, little beside quick_check's read
# of every page, and no hostile row is ever read whole.
BAD_ROW = f"""
typeof(rules) != 'text' OR typeof(first) != 'integer' OR typeof(count) != 'integer'
    OR typeof(won) != 'integer' OR typeof(lost) != 'integer' OR typeof(undecided) != 'integer'
    OR typeof(tally) != 'text' OR NOT json_valid(tally) OR typeof(verdicts) != 'blob'
    OR typeof(method) != 'text' OR (budget IS NOT NULL AND typeof(budget) != 'text')
    OR length(tally) > 8000 OR length(verdicts) > count + count / 100 + 64 OR length(rules) > {LONGEST_NAME}
    OR length(budget) > {LONGEST_NAME}
    OR count < 1 OR count > {LONGEST} OR first > {TOP} - (count - 1)
    OR won < 0 OR lost < 0 OR undecided < 0 OR won + lost + undecided != count
"""
BAD_ROWS = f"SELECT first, 'columns that no run writes' FROM chunks WHERE {BAD_ROW} LIMIT 1"

# Two chunks of a rule set that share a deal: no run writes them now, but two runs at once under an older kcsolve
# did (ResultsStore drops the later ones and says how many deals must be solved again)
OVERLAPS = """
SELECT 1
FROM (SELECT first, LAG(first) OVER w + (LAG(count) OVER w - 1) AS before_last
      FROM chunks WINDOW w AS (PARTITION BY rules ORDER BY first))
WHERE before_last >= first
LIMIT 1
"""


def _bad_row(db: sqlite3.Connection) -> str | None:
    """What is wrong with the first damaged chunk row, named by its first deal; None when every row is sound."""
    row = db.execute(BAD_ROWS).fetchone() or _bad_names(db)
    if row is None:
        return None
    first, what = row
    where = first + (1 << 63) if isinstance(first, int) else f"{str(first)[:40]!r}"
    return f"the chunk of deals from {where}: {what}"


def _bad_names(db: sqlite3.Connection) -> tuple[int, str] | None:
    """(first deal, what) of the first chunk whose rule set or budget does not parse; None when every one does."""
    pairs = db.execute("SELECT MIN(first), rules, budget FROM chunks GROUP BY rules, budget ORDER BY 1")
    for first, rules, budget in pairs:
        fault = name_fault(rules, budget)
        if fault is not None:
            return first, fault
    return None


@lru_cache(maxsize=64)
def name_fault(rules: str, budget: str | None) -> str | None:
    """What no run writes in a row's rule set and budget texts (a run writes str(Rules) and str(Budget)), or None."""
    try:
        parse_rules(rules)
    except InvalidRulesError:
        return f"rules {brief(rules)} that name no rule set"
    if budget is not None:
        try:
            parse_budget(budget)
        except InvalidBudgetError:
            return f"a budget {brief(budget)} that does not parse"
    return None


def beside(path: Path, suffix: str) -> Path:
    """The file SQLite keeps next to a database: its ``-wal`` or ``-shm``."""
    return path.with_name(path.name + suffix)


def _has_wal(path: Path) -> bool:
    wal = beside(path, "-wal")
    return wal.exists() and wal.stat().st_size > 0


WAL_MODE = b"\x02\x02"  # bytes 18 and 19 of a SQLite file in WAL mode; a run that ends leaves rollback mode (1, 1)
WAL_LOOKS, WAL_LOOK_PAUSE = 5, 0.1  # how often, and how far apart, a missing -wal is looked for


def missing_wal(path: Path) -> Path | None:
    """The -wal file that the store at ``path`` may need and that is not beside it, or None.

    A run puts its store in WAL mode and takes it out when it ends with every
    row in the file itself; a file still in WAL mode was left mid-run (or by an
    older kcsolve), and its last rows may be in a -wal file that was not moved
    with it.
    """
    wal = beside(path, "-wal")
    # A run leaving WAL mode deletes its -wal a moment before it rewrites the header: a store seen in that
    # moment looks like one moved without its -wal. Only a header that keeps saying WAL with no -wal is one.
    for attempt in range(WAL_LOOKS):
        if attempt:
            time.sleep(WAL_LOOK_PAUSE)
        try:
            with path.open("rb") as handle:
                header = handle.read(20)
        except OSError:
            return None
        if header[18:20] != WAL_MODE or wal.exists():
            return None
    return wal


def three_files(path: Path) -> str:
    """The files that hold a store between runs, for a message: the database, its -wal and its -shm."""
    return f"{path.name}, {path.name}-wal and {path.name}-shm"


def _needing_wal(path: Path) -> ResultsStoreError | None:
    """The refusal of an unreadable store whose -wal is missing, naming that file; None when it is beside it."""
    wal = missing_wal(path)
    if wal is None:
        return None
    return ResultsStoreError(
        f"{str(path)!r} cannot be read without {str(wal)!r}, which is not beside it: "
        f"moving the three files ({three_files(path)}) together keeps the work"
    )


def open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection that sees every committed row, and writes nothing beside a file with no -wal.

    Without a -wal file the database file is complete, so it is read as
    immutable: no locks, no -shm file beside a file that may be refused. With
    one (a run still writing, a run that was killed, or a checkpoint cut short
    by a full disk), the last committed rows may be only there, and a run may
    copy them into the file meanwhile, so it is read as SQLite reads it; an
    empty -wal is no exception, since another run may be writing.
    """
    wal = beside(path, "-wal")
    mode = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)


def one_line(exc: BaseException) -> str:
    """SQLite's report on one line: it may quote damaged bytes, newlines among them."""
    return " ".join(str(exc).split())[:300]


def why(path: Path, exc: sqlite3.DatabaseError) -> str:
    """The real reason a database cannot be used or written, in words."""
    text = one_line(exc)
    if on_read_only_file_system(path):  # SQLite words this many ways, "unable to open database file" among them
        return "it is on a read-only file system"
    if "readonly" in text or "read-only" in text:
        return "it is read-only (no permission to write it or its directory)"
    if "disk I/O" in text:  # SQLite's 'database or disk is full' says it already
        return f"{text} (is the disk full?)"
    return text


def on_read_only_file_system(path: Path) -> bool:
    """Whether the file (or the folder it would be made in) lies on a file system mounted read-only."""
    target = path if path.exists() else path.parent
    try:
        return bool(os.statvfs(target).f_flag & os.ST_RDONLY)
    except OSError:
        return False


@contextmanager
def refused_untouched(path: Path) -> Iterator[None]:
    """Run a check or an opening of ``path``; if it refuses the file, the -shm and empty -wal files made meanwhile go.

    SQLite makes a 32 KB -shm even for a connection it will not let write (a
    read-only file, or a probe of a file with a -wal). A -wal with frames stays:
    a checkpoint cut short may have left committed pages only there. The block
    closes its connections before it raises.
    """
    # '/' and '.' have no name to put a suffix on; check_store refuses them as directories
    companions = [beside(path, suffix) for suffix in ("-wal", "-shm")] if path.name else []
    before = [companion.exists() for companion in companions]
    try:
        yield
    except ResultsStoreError:
        for companion, was_there in zip(companions, before):
            if (
                not was_there
                and companion.exists()
                and (companion.name.endswith("-shm") or companion.stat().st_size == 0)
            ):
                companion.unlink(missing_ok=True)
        raise
