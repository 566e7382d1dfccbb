"""The results store: one SQLite row per chunk of deals, with its counts and every deal's verdict packed in a blob.

A chunk is a run of consecutive deal numbers decided together and committed in
one statement; its row holds how many deals were won, lost and undecided, the
tally of loss codes (reasons and fill rounds) and the packed verdicts
(:mod:`.verdicts`), so every deal's answer stays available at well under a byte
a deal. An undecided deal retried under a larger budget rewrites its chunk's row.

Several runs may write one store at once: a chunk is written inside a
transaction that holds the store's write lock and first reads which of its deals
are stored already, and only the rest are written (the runs never share a deal).
A run ends by copying its rows from the -wal file into the database file and
leaving WAL mode, so the file alone holds the work between runs.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcsolve.common.cache import CACHE_ENV, cache_root, made_folder
from kcsolve.common.words import plural
from kcsolve.patience.solve.route import Budget, parse_budget
from kcsolve.patience.stats.checks import (
    APPLICATION_ID,
    LONGEST,
    OLD_VERSIONS,
    OVERLAPS,
    SCHEMA_VERSION,
    ResultsStoreError,
    beside,
    check_store,
    damaged,
    missing_wal,
    on_read_only_file_system,
    one_line,
    open_readonly,
    refused_untouched,
    three_files,
    why,
)
from kcsolve.patience.stats.verdicts import CODES, UNDECIDED, WIN, Tally, pack, unpack

SEED_OFFSET = 1 << 63  # deal numbers run to 2**64-1; stored minus 2**63 they fit SQLite's signed integers

SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    rules     TEXT    NOT NULL,
    first     INTEGER NOT NULL,   -- the chunk's first deal number minus 2**63
    count     INTEGER NOT NULL,   -- consecutive deal numbers from there
    won       INTEGER NOT NULL,
    lost      INTEGER NOT NULL,
    undecided INTEGER NOT NULL,
    tally     TEXT    NOT NULL,   -- JSON: deals per verdict code (verdicts.py)
    verdicts  BLOB    NOT NULL,   -- zlib: one verdict code a deal, in deal-number order
    method    TEXT    NOT NULL,
    seconds   REAL    NOT NULL,   -- worker time for the chunk
    budget    TEXT,               -- the budget its undecided deals were tried under (str(Budget)); None: no search
    budget_kind TEXT,             -- which limits that budget set: 'nodes', 'cpu', 'nodes+cpu' or 'none'
    UNIQUE (rules, first)
);
"""

PAGE = 1_000  # chunk rows read at a time while planning a run: memory stays bounded whatever the range

WAIT = 60.0  # seconds a run waits for another one's transaction on the same store (a chunk, a checkpoint)

# (first deal, deals, the seeds retried in an existing chunk or None): one piece of work for a worker
Work = tuple[int, int, tuple[int, ...] | None]


@dataclass(frozen=True)
class ChunkResult:
    """The verdicts of one piece of work, packed in the worker: a new chunk, or the retried seeds of a stored one."""

    first: int
    count: int
    seeds: tuple[int, ...] | None  # a retry: the codes are these seeds' (of the chunk at ``first``), in this order
    codes: bytes  # packed (verdicts.pack)
    tally: dict[int, int]
    method: str
    seconds: float
    budget: str | None
    budget_kind: str | None

    def __len__(self) -> int:
        return self.count if self.seeds is None else len(self.seeds)


@dataclass(frozen=True)
class StoredChunk:
    """A chunk row without its verdicts: where it lies, how many are undecided, and under which budget."""

    first: int
    count: int
    undecided: int
    budget: str | None


class ResultsStore:
    """The SQLite file of chunked results; ``readonly`` opens it for reading only.

    ``missing_wal`` names the -wal file the store may need and that is not
    beside it; ``dropped`` counts the deals of chunks dropped for sharing deals
    with others (they must be solved again); after ``close``, ``left_in_wal``
    says why the last rows are still only in the -wal file, or is None.
    """

    def __init__(self, path: Path, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self.dropped = 0
        self.left_in_wal: str | None = None
        with refused_untouched(path):
            version = check_store(path)
            if version == 0 and not readonly and not _make(path):
                version = check_store(path)  # another run made it first, or another file took the name: checked
            if version in OLD_VERSIONS:
                raise ResultsStoreError(
                    f"{str(path)!r} holds one row per deal (schema version {version}, an older kcsolve); "
                    f"convert it with: kcsolve stats --convert --db {str(path)!r}"
                )
            self.missing_wal = missing_wal(path)
            if readonly:
                self.db = open_readonly(path)
            else:
                self.db, self.dropped = _open_for_writing(path)

    def close(self) -> None:
        """Close the database; a writer first copies its rows into the file and leaves WAL mode where it can."""
        if not self.readonly:
            self.left_in_wal = self._checkpoint()
        self.db.close()

    def _checkpoint(self) -> str | None:
        """Copy every row from the -wal into the database file, then leave WAL mode; why the rows stay there, or None.

        Another run writing the store at the same time keeps the -wal, and ends
        the same way; only a write that fails (a full disk) leaves rows there.
        """
        try:
            busy, _, _ = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy:
                return None  # another run is reading or writing the store: it copies them when it ends
            self.db.execute("PRAGMA busy_timeout = 0")
            self.db.execute("PRAGMA journal_mode = DELETE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                return None  # another run has the store open: it leaves WAL mode when it ends
            return why(self.path, exc)
        except sqlite3.DatabaseError as exc:
            return why(self.path, exc)
        return None

    def opening_notes(self) -> list[str]:
        """Lines to say before a run: a -wal file the store may need and that is not beside it; dropped chunks."""
        notes = []
        if self.missing_wal is not None:
            notes.append(
                f"{str(self.path)!r} comes without {str(self.missing_wal)!r}, which its last run may have "
                f"left rows in: moving the three files ({three_files(self.path)}) together keeps the work"
            )
        if self.dropped:
            notes.append(
                f"{str(self.path)!r} held chunks that share deals (two runs at once under an older kcsolve): "
                f"the later ones are dropped and {plural(self.dropped, 'deal')} must be solved again; the "
                "rest are kept"
            )
        return notes

    def wal_note(self) -> str | None:
        """One line saying which -wal file holds the last rows after ``close``, or None when the file holds them."""
        if self.left_in_wal is None:
            return None
        wal = beside(self.path, "-wal")
        return (
            f"the last rows stored are still only in {str(wal)!r} ({self.left_in_wal}); the next run copies them "
            f"into {str(self.path)!r}: moving the three files ({three_files(self.path)}) together keeps the work"
        )

    def add(self, rules: str, result: ChunkResult) -> None:
        """Store the deals of a chunk that no stored chunk holds, or merge retried seeds into the chunks holding them.

        The transaction holds the store's write lock from its first read, so no
        other run stores a deal between the reading and the writing.
        """
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                if result.seeds is None:
                    self._insert_new(rules, result)
                else:
                    self._merge(rules, result)
        except sqlite3.DatabaseError as exc:
            raise ResultsStoreError(
                f"cannot write to {str(self.path)!r}: {why(self.path, exc)}; stored deals are kept"
            ) from None

    def _insert_new(self, rules: str, result: ChunkResult) -> None:
        """Insert a new chunk, or the runs of its deals that no stored chunk holds, each as a chunk of its own."""
        end = result.first + result.count
        stored = [
            (chunk.first, chunk.first + chunk.count) for chunk in self.overlapping(rules, result.first, result.count)
        ]
        if not stored:
            self._insert(rules, result.first, result.count, Tally(result.tally), result.codes, result)
            return
        codes = unpack(result.codes, result.count)  # another run stored some of these deals meanwhile
        at = result.first
        for low, high in [*stored, (end, end)]:
            if low > at:
                piece = codes[at - result.first : low - result.first]
                self._insert(
                    rules,
                    at,
                    len(piece),
                    Tally.of(piece),
                    pack(piece),
                    result,
                    result.seconds * len(piece) / result.count,
                )
            at = max(at, high)

    def _insert(
        self,
        rules: str,
        first: int,
        count: int,
        tally: Tally,
        blob: bytes,
        result: ChunkResult,
        seconds: float | None = None,
    ) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                rules,
                first - SEED_OFFSET,
                count,
                tally.won,
                tally.lost,
                tally.undecided,
                json.dumps({str(k): v for k, v in sorted(tally.counts.items())}),
                blob,
                result.method,
                result.seconds if seconds is None else seconds,
                result.budget,
                result.budget_kind,
            ),
        )

    def _merge(self, rules: str, result: ChunkResult) -> None:
        """Write retried seeds' codes over their undecided ones; each chunk's budget becomes the retry's.

        A decided verdict is final: another run may have decided the deal meanwhile.
        """
        retried = dict(zip(result.seeds or (), unpack(result.codes, len(result))))
        for chunk in list(self.overlapping(rules, result.first, result.count)):
            codes = bytearray(self.codes(rules, chunk.first))
            for seed, code in retried.items():
                if chunk.first <= seed < chunk.first + chunk.count and codes[seed - chunk.first] == UNDECIDED:
                    codes[seed - chunk.first] = code
            seconds = self.db.execute(
                "SELECT seconds FROM chunks WHERE rules = ? AND first = ?", (rules, chunk.first - SEED_OFFSET)
            ).fetchone()[0]
            self._insert(
                rules,
                chunk.first,
                chunk.count,
                Tally.of(bytes(codes)),
                pack(bytes(codes)),
                result,
                seconds + result.seconds,
            )

    def has_overlaps(self) -> bool:
        """Whether two chunks of a rule set share a deal (two runs at once under an older kcsolve wrote such)."""
        return _overlaps(self.db)

    def _damaged(self, first: int, what: object) -> ResultsStoreError:
        return ResultsStoreError(damaged(self.path, f"the chunk of deals from {first}: {what}"))

    def overlapping(self, rules: str, start: int, count: int) -> Iterator[StoredChunk]:
        """The stored chunks that share a deal with the range, in order, read a page at a time."""
        low, high = start - SEED_OFFSET, start + count - 1 - SEED_OFFSET
        after = max(low - LONGEST, -SEED_OFFSET)  # a chunk reaching the range starts at most LONGEST before it
        relation = ">="
        while True:
            page = self.db.execute(
                f"SELECT first, count, undecided, budget FROM chunks WHERE rules = ? AND first {relation} ? "
                "AND first <= ? ORDER BY first LIMIT ?",
                (rules, after, high, PAGE),
            ).fetchall()
            for first, n, undecided, budget in page:
                if first + n > low:
                    yield StoredChunk(first + SEED_OFFSET, n, undecided, budget)
            if len(page) < PAGE:
                return
            after, relation = page[-1][0], ">"

    def codes(self, rules: str, first: int) -> bytes:
        """Every deal's code in the chunk starting at deal ``first``, checked against the chunk's counts and tally.

        A blob that is not the chunk's verdicts is damage, refused in one line.
        """
        import numpy as np

        count, blob = self.db.execute(
            "SELECT count, verdicts FROM chunks WHERE rules = ? AND first = ?", (rules, first - SEED_OFFSET)
        ).fetchone()
        try:
            codes = unpack(blob, count)
        except ValueError as exc:
            raise self._damaged(first, exc) from None
        counts = np.bincount(np.frombuffer(codes, np.uint8))  # counting in C: max() over the bytes took 15x longer
        if len(counts) > CODES:
            raise self._damaged(first, f"a verdict code {len(counts) - 1} that no run writes")
        counted = {code: int(n) for code, n in enumerate(counts) if n}
        if counted != self._stored_tally(rules, first):
            raise self._damaged(first, "verdicts that disagree with its tally")
        return codes

    def check(self, rules: str, start: int, count: int) -> None:
        """Read every stored chunk reaching the range, so damage is refused before anything is written."""
        for chunk in self.overlapping(rules, start, count):
            self.codes(rules, chunk.first)

    def pieces(self, rules: str, start: int, count: int) -> Iterator[tuple[int, bytes]]:
        """(first deal, codes) of every stored run of deals inside the range, chunk by chunk."""
        end = start + count
        for chunk in self.overlapping(rules, start, count):
            codes = self.codes(rules, chunk.first)
            low, high = max(start, chunk.first), min(end, chunk.first + chunk.count)
            yield low, codes[low - chunk.first : high - chunk.first]

    def verdict(self, rules: str, seed: int) -> tuple[int, str | None] | None:
        """(code, budget of its chunk) of one stored deal, or None when it is not stored."""
        for chunk in self.overlapping(rules, seed, 1):
            return self.codes(rules, chunk.first)[seed - chunk.first], chunk.budget
        return None

    def done_count(self, rules: str, start: int, count: int, budget: Budget) -> int:
        """How many deals of the range need no solving: decided, or undecided under a budget at least as large."""
        done = 0
        for chunk, piece in self._counted(rules, start, count):
            undecided = chunk.undecided if piece is None else piece.undecided
            inside = chunk.count if piece is None else sum(piece.counts.values())
            done += inside - (undecided if _larger(budget, chunk.budget) else 0)
        return done

    def tally(self, rules: str, start: int, count: int) -> Tally:
        """How many deals of the range have each code."""
        totals: dict[int, int] = {}
        for chunk, piece in self._counted(rules, start, count):
            counts = piece.counts if piece is not None else self._stored_tally(rules, chunk.first)
            for code, n in counts.items():
                totals[code] = totals.get(code, 0) + n
        return Tally(totals)

    def _stored_tally(self, rules: str, first: int) -> dict[int, int]:
        """The chunk's tally; one that is not deals per code summing to its counts is damage."""
        text, count, won, undecided = self.db.execute(
            "SELECT tally, count, won, undecided FROM chunks WHERE rules = ? AND first = ?",
            (rules, first - SEED_OFFSET),
        ).fetchone()
        try:
            stored = json.loads(text)
            tally = {int(code): n for code, n in stored.items()}
        except (ValueError, TypeError, AttributeError):
            raise self._damaged(first, "a tally that is not deals per code") from None
        if (
            not all(type(n) is int and n > 0 and 0 <= code < CODES for code, n in tally.items())
            or sum(tally.values()) != count
            or tally.get(WIN, 0) != won
            or tally.get(UNDECIDED, 0) != undecided
        ):
            raise self._damaged(first, "a tally that disagrees with its counts")
        return tally

    def _counted(self, rules: str, start: int, count: int) -> Iterator[tuple[StoredChunk, Tally | None]]:
        """Each chunk overlapping the range, with the tally of its deals inside the range when it is only partly in."""
        end = start + count
        for chunk in self.overlapping(rules, start, count):
            if start <= chunk.first and chunk.first + chunk.count <= end:
                yield chunk, None
            else:
                low, high = max(start, chunk.first), min(end, chunk.first + chunk.count)
                yield chunk, Tally.of(self.codes(rules, chunk.first)[low - chunk.first : high - chunk.first])

    def size(self) -> int:
        """Bytes of the database file and its write-ahead log."""
        wal = beside(self.path, "-wal")
        return self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def _make(path: Path) -> bool:
    """Make a new store at ``path`` whole: its table and marks are written under another name, then linked in place.

    So a run starting at the same moment finds no file or a whole store, never
    an empty file it must refuse; of two runs making it at once, one's store is
    linked and the other's is not (False). A failed making leaves no file.
    """
    draft = path.with_name(f"{path.name}.{os.getpid()}.new")
    try:
        draft.unlink(missing_ok=True)  # this process's own name: left only by a making cut short
        db = sqlite3.connect(draft)
        try:
            db.executescript(
                f"BEGIN; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; "
                f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            )
        finally:
            db.close()
        try:
            os.link(draft, path)
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links (FAT, some network shares)
            if path.exists():
                return False
            os.replace(draft, path)
    except sqlite3.DatabaseError as exc:
        raise ResultsStoreError(f"cannot use {str(path)!r} as a results database: {why(path, exc)}") from None
    except OSError as exc:
        raise ResultsStoreError(f"cannot use {str(path)!r} as a results database: {exc.strerror or exc}") from None
    finally:
        draft.unlink(missing_ok=True)
    return True


def _open_for_writing(path: Path) -> tuple[sqlite3.Connection, int]:
    """A connection that writes to the store at ``path`` in WAL mode, and the deals of the chunks it had to drop.

    A store holding chunks that share deals (two runs at once under an older
    kcsolve) keeps every chunk that shares none with one kept before it; the
    opening says how many deals are in no chunk any more.
    """
    try:
        db = sqlite3.connect(path, timeout=WAIT)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            with db:
                db.execute("BEGIN IMMEDIATE")  # a first write here: a store that cannot be written is refused now
                dropped = _drop_overlapping(db)
        except sqlite3.DatabaseError:
            db.close()
            raise
    except sqlite3.DatabaseError as exc:
        raise _write_refusal(path, exc) from None
    return db, dropped


class ReadOnlyStoreError(ResultsStoreError):
    """A store that may be read and not written: its file, its folder or its medium is read-only."""


def _write_refusal(path: Path, exc: sqlite3.DatabaseError) -> ResultsStoreError:
    """The refusal of a store that cannot be opened for writing: a ReadOnlyStoreError where it may still be read."""
    reason = why(path, exc)
    # SQLite says only 'unable to open database file' where the folder refuses the -wal file a writer makes
    if on_read_only_file_system(path) or not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        if "read-only" not in reason:
            reason = "it is read-only (no permission to write it or its directory)"
        return ReadOnlyStoreError(f"cannot use {str(path)!r} as a results database: {reason}")
    return ResultsStoreError(f"cannot use {str(path)!r} as a results database: {reason}")


def _overlaps(db: sqlite3.Connection) -> bool:
    """Whether two chunks of a rule set share a deal."""
    return db.execute(OVERLAPS).fetchone() is not None


def _drop_overlapping(db: sqlite3.Connection) -> int:
    """Keep every chunk that shares no deal with one kept before it (in deal order); the deals left in no chunk.

    The chunks are read in order and their row numbers kept only for those dropped.
    """
    if not _overlaps(db):
        return 0
    dropped: list[int] = []
    held = kept = 0  # deals in some chunk, deals in the kept chunks
    rules, reach, kept_end = None, 0, 0
    for rowid, name, first, count in db.execute("SELECT rowid, rules, first, count FROM chunks ORDER BY rules, first"):
        if name != rules:
            rules, reach, kept_end = name, first, first
        held += max(0, first + count - max(reach, first))
        reach = max(reach, first + count)
        if first >= kept_end:
            kept += count
            kept_end = first + count
        else:
            dropped.append(rowid)
    db.executemany("DELETE FROM chunks WHERE rowid = ?", ((rowid,) for rowid in dropped))
    return held - kept


def undecided_seeds(codes: bytes, first: int) -> tuple[int, ...]:
    """The deal numbers of a chunk's undecided deals."""
    return tuple(first + i for i, code in enumerate(codes) if code == UNDECIDED)


def _larger(budget: Budget, spent: str | None) -> bool:
    """Whether ``budget`` allows more than the stored budget text ``spent``."""
    if spent is None:
        return True
    before = parse_budget(spent)  # stored as str(Budget); the store's check refused a budget that does not parse
    if budget.nodes is None and budget.seconds is None:
        return before.nodes is not None or before.seconds is not None
    return (budget.nodes or 0) > (before.nodes or 0) or (budget.seconds or 0) > (before.seconds or 0)


def default_db() -> Path:
    """The results database in kcsolve's cache folder: KCSOLVE_DB, else KCSOLVE_CACHE_DIR, else the platform's.

    An empty variable counts as unset, as XDG's do.
    """
    if os.environ.get("KCSOLVE_DB"):
        return Path(os.environ["KCSOLVE_DB"])
    from platformdirs import user_cache_dir

    folder = cache_root() if os.environ.get(CACHE_ENV) else Path(user_cache_dir("kcsolve"))
    return made_folder(folder) / "results.sqlite3"  # kcsolve's own cache folder; a --db path's folder must exist


def open_store(path: Path, rules: str, start: int, count: int, budget: Budget) -> ResultsStore | ReadOnlyRun:
    """The store, opened read-only when every requested deal is already in it (nothing is written then)."""
    if path.exists() and path.stat().st_size:
        with refused_untouched(path):
            readonly = ResultsStore(path, readonly=True)
            try:
                readonly.check(rules, start, count)
                # chunks sharing deals count some twice: the store is opened for writing, which drops them
                if not readonly.has_overlaps() and readonly.done_count(rules, start, count, budget) == count:
                    return ReadOnlyRun(readonly)
            except sqlite3.DatabaseError as exc:
                readonly.close()
                raise ResultsStoreError(f"{str(path)!r} cannot be read: {one_line(exc)}") from None
            except ResultsStoreError:
                readonly.close()
                raise
            readonly.close()
    return ResultsStore(path)


class ReadOnlyRun:
    """A store whose range is complete: ``run`` has nothing to solve and writes nothing."""

    def __init__(self, store: ResultsStore) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def add(self, rules: str, result: ChunkResult) -> None:
        raise AssertionError("a complete range needs no writing")
