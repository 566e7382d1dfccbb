"""Checks of a results database before it is used: whose it is, which schema, and whether it is damaged."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from kcsolve.errors import KcsolveError

APPLICATION_ID = 0x4B435356  # "KCSV": marks a kcsolve results database

SCHEMA_VERSION = 2



class ResultsStoreError(KcsolveError):
    """A results database that is unreadable, damaged, read-only or belongs to something else."""



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



def open_readonly(path: Path) -> sqlite3.Connection:
    """A connection that writes nothing at all, not even SQLite's -shm file.

    Without a -wal file beside it the database file is complete, so it can be
    read as immutable; with one (a run that was killed), it is read normally.
    """
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)



def why(path: Path, exc: sqlite3.DatabaseError) -> str:
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
