"""The intact chunks of a damaged results store, copied into a new one (``stats --salvage NEW``).

SQLite cannot read a table past its first damaged page (a truncated file loses
its last pages), so the damaged file is read page by page as SQLite lays it out:
every table leaf page that is not on the free list is decoded, each chunk row
read whole (its overflow pages followed) and kept when it has the twelve columns
of a chunk. The rows are then held to every check a store's rows get (types and
counts, rule set and budget, verdicts that unpack and agree with the tally),
of two versions of one chunk the later is kept, and chunks sharing deals are
dropped as a store's opening drops them. The new store is written beside its
name and linked into place when whole, so a salvage cut short leaves nothing.
The damaged file is only read.
"""

from __future__ import annotations

import os
import sqlite3
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from kcsolve.patience.stats.checks import (
    APPLICATION_ID,
    BAD_ROW,
    SCHEMA_VERSION,
    SQLITE_MAGIC,
    ResultsStoreError,
    is_kcsolve_file,
    name_fault,
)
from kcsolve.patience.stats.store import SCHEMA, SEED_OFFSET, ResultsStore, _drop_overlapping

TABLE_LEAF = 0x0D  # the page type of a table b-tree's leaf, where rows are
COLUMNS = 12  # a chunk row's columns (store.SCHEMA)


@dataclass(frozen=True)
class Salvaged:
    """What a salvage kept: chunks and their deals, and how many rows found were left out as damaged or stale."""

    chunks: int
    deals: int
    left_out: int


def salvage(source: Path, target: Path) -> Salvaged:
    """Copy the intact chunks of the store ``source`` into the new store ``target``; ResultsStoreError if it cannot."""
    if not source.is_file():
        raise ResultsStoreError(f"--db {str(source)!r} is not a file: there is nothing to salvage")
    if not is_kcsolve_file(source):
        raise ResultsStoreError(f"{str(source)!r} is not a kcsolve results database: there is nothing to salvage")
    if os.path.lexists(target):
        raise ResultsStoreError(f"--salvage {str(target)!r} exists: name a new file for the salvaged store")
    draft = target.with_name(f"{target.name}.{os.getpid()}.new")
    try:
        found = _copy_rows(source, draft)
        kept = _keep_sound(draft)
        os.link(draft, target)
    except FileExistsError:
        raise ResultsStoreError(f"--salvage {str(target)!r} exists: name a new file for the salvaged store") from None
    except sqlite3.DatabaseError as exc:
        raise ResultsStoreError(f"cannot write {str(target)!r}: {exc}") from None
    except OSError as exc:
        raise ResultsStoreError(f"cannot salvage {str(source)!r} into {str(target)!r}: {exc.strerror or exc}") from None
    finally:
        draft.unlink(missing_ok=True)
    return Salvaged(kept[0], kept[1], found - kept[0])


def _copy_rows(source: Path, draft: Path) -> int:
    """Write every chunk row found in ``source`` into a new store at ``draft``, the latest of each chunk; rows found.

    A chunk rewritten (a retry of its undecided deals) gets a larger rowid than
    the row it replaced, whose cells may linger on a page the free list lost.
    """
    draft.unlink(missing_ok=True)  # this process's own name: left only by a salvage cut short
    db = sqlite3.connect(draft)
    try:
        db.executescript(f"{SCHEMA} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};")
        latest: dict[tuple[object, ...], int] = {}
        found = 0
        with source.open("rb") as handle, db:
            for rowid, row in _rows(handle, source.stat().st_size):
                found += 1
                if latest.get(row[:2], rowid) <= rowid:
                    latest[row[:2]] = rowid
                    db.execute(f"INSERT OR REPLACE INTO chunks VALUES ({', '.join('?' * COLUMNS)})", row)
        return found
    finally:
        db.close()


def _keep_sound(draft: Path) -> tuple[int, int]:
    """Drop the rows no run writes, the chunks whose verdicts are damaged, and chunks sharing deals; (chunks, deals)."""
    db = sqlite3.connect(draft)
    try:
        with db:
            db.execute(f"DELETE FROM chunks WHERE {BAD_ROW}")
            names = db.execute("SELECT DISTINCT rules, budget FROM chunks").fetchall()
            for rules, budget in names:
                if name_fault(rules, budget) is not None:
                    db.execute("DELETE FROM chunks WHERE rules = ? AND budget IS ?", (rules, budget))
        with db:
            db.executemany("DELETE FROM chunks WHERE rules = ? AND first = ?", _damaged_chunks(draft))
            _drop_overlapping(db)
        chunks, deals = db.execute("SELECT COUNT(*), COALESCE(SUM(count), 0) FROM chunks").fetchone()
        db.execute("VACUUM")
        return chunks, deals
    finally:
        db.close()


def _damaged_chunks(draft: Path) -> list[tuple[str, int]]:
    """(rules, stored first) of every chunk whose verdicts a store refuses: they do not unpack, or disagree."""
    store = ResultsStore(draft, readonly=True)
    try:
        bad = []
        for rules, first in store.db.execute("SELECT rules, first FROM chunks").fetchall():
            try:
                store.codes(rules, first + SEED_OFFSET)
            except ResultsStoreError:
                bad.append((rules, first))
        return bad
    finally:
        store.close()


def _rows(handle: BinaryIO, size: int) -> Iterator[tuple[int, tuple[object, ...]]]:
    """(rowid, columns) of every row of twelve columns on the file's live table leaf pages, in file order."""
    header = handle.read(100)
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return
    pages = _Pages(handle, page_size, page_size - header[20], size // page_size)
    free = pages.free_list(int.from_bytes(header[32:36], "big"))
    for number in range(1, pages.count + 1):
        if number in free:
            continue
        page = pages.read(number)
        start = 100 if number == 1 else 0
        if page is None or page[start] != TABLE_LEAF:
            continue
        cells = int.from_bytes(page[start + 3 : start + 5], "big")
        for cell in range(cells):
            pointer = int.from_bytes(page[start + 8 + 2 * cell : start + 10 + 2 * cell], "big")
            found = pages.cell(page, pointer)
            if found is not None:
                yield found


class _Pages:
    """The pages of a SQLite file, read one at a time, and the rows of its table cells."""

    def __init__(self, handle: BinaryIO, size: int, usable: int, count: int) -> None:
        self.handle = handle
        self.size = size
        self.usable = usable
        self.count = count

    def read(self, number: int) -> bytes | None:
        """Page ``number`` (from 1), or None where the file does not hold it whole."""
        if not 1 <= number <= self.count:
            return None
        self.handle.seek((number - 1) * self.size)
        page = self.handle.read(self.size)
        return page if len(page) == self.size else None

    def free_list(self, trunk: int) -> set[int]:
        """The pages on the free list that the file still holds: what they keep are rows deleted or replaced."""
        free: set[int] = set()
        while trunk and trunk not in free:
            page = self.read(trunk)
            if page is None:
                break
            free.add(trunk)
            leaves = min(int.from_bytes(page[4:8], "big"), self.usable // 4 - 2)
            free.update(int.from_bytes(page[8 + 4 * k : 12 + 4 * k], "big") for k in range(leaves))
            trunk = int.from_bytes(page[:4], "big")
        return free

    def cell(self, page: bytes, pointer: int) -> tuple[int, tuple[object, ...]] | None:
        """(rowid, columns) of the table leaf cell at ``pointer``; None where it is damaged or not a chunk row."""
        try:
            length, at = _varint(page, pointer)
            rowid, at = _varint(page, at)
            payload = self._payload(page, at, length)
            return None if payload is None else (rowid, _record(payload))
        except (IndexError, ValueError, struct.error):
            return None

    def _payload(self, page: bytes, at: int, length: int) -> bytes | None:
        """A cell's whole payload: the part on its page and the rest on its overflow pages (SQLite's file format)."""
        most = self.usable - 35
        if length <= most:
            local = length
        else:
            least = (self.usable - 12) * 32 // 255 - 23
            local = least + (length - least) % (self.usable - 4)
            local = local if local <= most else least
        if at + local > len(page):
            return None
        parts = [page[at : at + local]]
        left = length - local
        following = int.from_bytes(page[at + local : at + local + 4], "big") if left else 0
        seen = set()
        while left > 0:
            overflow = self.read(following) if following not in seen else None
            if overflow is None:
                return None
            seen.add(following)
            parts.append(overflow[4 : 4 + min(left, self.usable - 4)])
            left -= self.usable - 4
            following = int.from_bytes(overflow[:4], "big")
        return b"".join(parts)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """SQLite's variable-length integer at ``at``, and where the next value starts."""
    value = 0
    for offset in range(8):
        byte = data[at + offset]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + offset + 1
    return (value << 8) | data[at + 8], at + 9


INTEGER_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _record(payload: bytes) -> tuple[object, ...]:
    """The columns of a chunk row's record; ValueError where it is not one."""
    size, at = _varint(payload, 0)
    types = []
    while at < size:
        kind, at = _varint(payload, at)
        types.append(kind)
    if len(types) != COLUMNS or at != size:
        raise ValueError("not a chunk row")
    values: list[object] = []
    for kind in types:
        width = INTEGER_SIZES.get(kind, 8 if kind == 7 else 0 if kind < 12 else (kind - 12 - kind % 2) // 2)
        raw = payload[at : at + width]
        if len(raw) != width or kind in (10, 11):
            raise ValueError("a column past the row's end")
        at += width
        if kind == 0:
            values.append(None)
        elif kind in INTEGER_SIZES:
            values.append(int.from_bytes(raw, "big", signed=True))
        elif kind == 7:
            values.append(struct.unpack(">d", raw)[0])
        elif kind in (8, 9):
            values.append(kind - 8)
        else:
            values.append(raw if kind % 2 == 0 else raw.decode("utf-8"))
    return tuple(values)
