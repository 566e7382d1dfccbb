"""The results store under faults: damaged or foreign files, full disks, dying workers, signals, lost schedulers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from clitools import alive, assert_bad_input, children, kcsolve_process, make_runner, unwrapped

from kcsolve.cli import cli
from kcsolve.cli.base import shorten
from kcsolve.common.deal import deal_ranks
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve.route import Budget
from kcsolve.patience.solve.theory import course_end
from kcsolve.patience.stats import checks as stats_checks
from kcsolve.patience.stats import chunks as stats_chunks
from kcsolve.patience.stats import cluster as stats_cluster
from kcsolve.patience.stats import convert as stats_convert
from kcsolve.patience.stats import pool as stats_pool
from kcsolve.patience.stats import run as stats_run
from kcsolve.patience.stats import store as stats_store


def stats_cli(*args: str):  # type: ignore[no-untyped-def]
    return make_runner().invoke(cli, ["stats", *args])


def filled_db(path: Path, count: int = 20_000) -> Path:
    """A kcsolve results database holding ``count`` standard deals."""
    result = stats_cli("--count", str(count), "--db", str(path), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    return path


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of a folder with its bytes and modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def stored(db: Path) -> int:
    """Deals committed so far; the connection is closed at once, so a run that ends finds no other one open."""
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            return conn.execute("SELECT COALESCE(SUM(count), 0) FROM chunks").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def wait_until(condition, what: str, limit: float = 60) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


# --- damaged, foreign and misplaced databases -------------------------------------------------------------------


def test_database_damaged_in_the_middle_is_refused_untouched(tmp_path: Path) -> None:
    db = filled_db(tmp_path / "r.db")
    with open(db, "r+b") as handle:
        handle.seek(4096 * 3)
        handle.write(b"\xff" * 4096)
    before = snapshot(tmp_path)
    result = stats_cli("--count", "30000", "--db", str(db))
    assert_bad_input(result, None)
    assert "is damaged" in result.stderr or "not a kcsolve results database" in result.stderr
    assert snapshot(tmp_path) == before  # byte for byte, and no -wal or -shm beside it


BOMB = zlib.compress(bytes(1 << 20), 9)  # a million verdicts in a kilobyte: never inflated whole


def damaged_row(db: Path, statement: str, *values: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(statement, values)
    conn.close()


@pytest.mark.parametrize(
    "statement, values, what",
    [
        ("UPDATE chunks SET verdicts = ? WHERE rowid = 1", (b"\x00\x01\x02\x03",), "verdicts that do not decompress"),
        (
            "UPDATE chunks SET verdicts = ? WHERE rowid = 1",
            (zlib.compress(bytes(7)),),
            "7 verdicts where the chunk has",
        ),
        ("UPDATE chunks SET verdicts = ? WHERE rowid = 1", (BOMB,), "more verdicts than the chunk's"),
        (
            "UPDATE chunks SET verdicts = ? WHERE rowid = 1",
            (zlib.compress(bytes(2_000)) + b"tail",),
            "verdicts cut short or followed by other bytes",
        ),
        ("UPDATE chunks SET verdicts = ? WHERE rowid = 1", (zlib.compress(b"\xff" * 2_000),), "a verdict code 255"),
        (
            "UPDATE chunks SET verdicts = ? WHERE rowid = 1",
            (zlib.compress(bytes(2_000)),),
            "verdicts that disagree with its tally",
        ),
        ("UPDATE chunks SET tally = ? WHERE rowid = 1", ('{"0": "x"}',), "a tally that disagrees with its counts"),
        ("UPDATE chunks SET tally = ? WHERE rowid = 1", ("[1, 2]",), "a tally that is not deals per code"),
        ("UPDATE chunks SET tally = ? WHERE rowid = 1", ("{not json",), "columns that no run writes"),
        ("UPDATE chunks SET verdicts = ? WHERE rowid = 1", ("text",), "columns that no run writes"),
        ("UPDATE chunks SET count = ? WHERE rowid = 1", (-5,), "columns that no run writes"),
        (
            "UPDATE chunks SET count = ?, won = won + ? - 2000 WHERE rowid = 1",
            (1 << 21, 1 << 21),
            "columns that no run writes",
        ),
        ("UPDATE chunks SET undecided = ? WHERE rowid = 1", ("many",), "columns that no run writes"),
        ("UPDATE chunks SET tally = ? WHERE rowid = 1", ("[" + "0," * 50_000 + "0]",), "columns that no run writes"),
        ("UPDATE chunks SET verdicts = ? WHERE rowid = 1", (os.urandom(3_000),), "columns that no run writes"),
        ("UPDATE chunks SET first = ? WHERE rowid = 2", ("abc",), "columns that no run writes"),
        ("UPDATE chunks SET first = ? WHERE rowid = 1", ((1 << 63) - 10,), "columns that no run writes"),
        ("UPDATE chunks SET rules = ? WHERE rowid = 2", ("bogus",), "from 2000: rules 'bogus' that name no rule set"),
        ("UPDATE chunks SET rules = ? WHERE rowid = 1", ("standard+" * 30 + "standard",), "columns that no run writes"),
        ("UPDATE chunks SET budget = ? WHERE rowid = 2", ("lots",), "from 2000: a budget 'lots' that does not parse"),
        ("UPDATE chunks SET budget = ? WHERE rowid = 1", (" " * 200 + "1000",), "columns that no run writes"),
    ],
)
def test_a_damaged_chunk_row_is_refused_in_one_line_untouched(
    tmp_path: Path, statement: str, values: tuple, what: str
) -> None:
    """Rows whose verdicts, tally or columns are not what a run writes: one line, exit 2, and no byte written."""
    db = tmp_path / "r.db"
    assert stats_cli("--count", "4000", "--db", str(db), "--jobs", "1").exit_code == 0  # rows 1 and 2: 0.. and 2000..
    damaged_row(db, statement, *values)
    before = snapshot(tmp_path)
    for args in (["--count", "4000"], ["--count", "5000"], ["--show", "3"], ["--count", "4000", "--list", "won"]):
        result = stats_cli(*args, "--db", str(db), "--jobs", "1")
        assert_bad_input(result, None)
        assert "' is damaged: --salvage NEW copies its intact chunks" in result.stderr, result.stderr
        assert snapshot(tmp_path) == before
    with pytest.raises(stats_checks.ResultsStoreError) as refused:
        stats_store.open_store(db, "standard", 0, 4000, Budget())
    assert str(refused.value).startswith(f"{str(db)!r} is damaged: --salvage NEW copies its intact chunks; the chunk ")
    assert what in str(refused.value)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "statement, what",
    [
        ("CREATE TABLE evil (x)", "table 'evil'"),
        ("CREATE VIEW seen AS SELECT rules FROM chunks", "view 'seen'"),
        ("CREATE INDEX by_method ON chunks (method)", "index 'by_method'"),
        ("CREATE TRIGGER spy AFTER INSERT ON chunks BEGIN SELECT 1; END", "trigger 'spy'"),
    ],
)
def test_a_store_holding_what_no_kcsolve_makes_is_refused_untouched(tmp_path: Path, statement: str, what: str) -> None:
    db = filled_db(tmp_path / "r.db", 100)
    damaged_row(db, statement)
    before = snapshot(tmp_path)
    assert_bad_input(
        stats_cli("--count", "200", "--db", str(db), "--jobs", "1"),
        f"{str(db)!r} holds the {what}, which no kcsolve makes; it is left as it is: choose another --db",
    )
    assert snapshot(tmp_path) == before


def test_an_empty_file_is_refused_not_taken_for_a_new_store(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    db.touch()
    assert_bad_input(
        stats_cli("--count", "10", "--db", str(db)),
        f"{str(db)!r} is an empty file, not a kcsolve results database; "
        "remove it to start a new one, or choose another --db",
    )
    assert db.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]


@pytest.mark.parametrize(
    "special, what",
    [("/dev/zero", "a character device"), ("/dev/urandom", "a character device"), ("fifo", "a named pipe (FIFO)")],
)
@pytest.mark.parametrize("convert", [False, True])
def test_a_device_or_a_pipe_is_named_for_what_it_is(tmp_path: Path, special: str, what: str, convert: bool) -> None:
    """They have a size of 0, but are no empty file to remove: the refusal says what they are, and opens nothing."""
    if special == "fifo":
        special = str(tmp_path / "fifo")
        os.mkfifo(special)
    if not os.path.exists(special):
        pytest.skip(f"no {special} here")
    args = ["--convert"] if convert else ["--count", "10"]
    assert_bad_input(stats_cli(*args, "--db", special), f"cannot use {special!r}: it is {what}, not a regular file")


def test_damage_whose_report_spans_lines_or_bytes_python_cannot_decode_is_one_line(tmp_path: Path) -> None:
    """Bytes overwritten in the schema: SQLite quotes them, newlines and all; the refusal is still one line."""
    for junk, seen in (
        (b"\n" * 16, "is damaged: --salvage NEW copies its intact chunks; malformed database schema"),
        (bytes(range(200, 216)), "is damaged: --salvage NEW copies its intact chunks; its schema is unreadable"),
    ):
        db = tmp_path / "r.db"
        filled_db(db, 100)
        with sqlite3.connect(db) as conn:  # the file alone: no -wal holds rows
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("PRAGMA journal_mode = DELETE")
            (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'chunks'").fetchone()
        conn.close()
        data = db.read_bytes()
        at = data.index(sql.encode()[:40]) + 20  # inside the table's CREATE statement
        db.write_bytes(data[:at] + junk + data[at + len(junk) :])
        assert_bad_input(stats_cli("--count", "10", "--db", str(db)), None)
        with pytest.raises(stats_checks.ResultsStoreError) as refused:
            stats_checks.check_store(db)
        assert seen in str(refused.value) and "\n" not in str(refused.value), str(refused.value)
        db.unlink()


def test_rows_only_in_the_wal_are_read_and_resumed(tmp_path: Path) -> None:
    """A checkpoint cut short by a full disk: the -wal holds the last committed rows; they are read, not refused."""
    live = tmp_path / "live.db"
    store = stats_store.ResultsStore(live)
    store.db.execute("PRAGMA wal_autocheckpoint = 0")  # every committed row stays in the -wal, as before a checkpoint
    stats_run.run(store, STANDARD, 0, 30_000)
    db = tmp_path / "r.db"
    db.write_bytes(live.read_bytes()[: 3 * 16384])  # the main file cut down to its first three pages
    Path(f"{db}-wal").write_bytes(Path(f"{live}-wal").read_bytes())
    store.close()
    assert stats_checks.check_store(db) == stats_checks.SCHEMA_VERSION
    result = stats_cli("--count", "40000", "--db", str(db), "--format", "json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["solved_now"] == 10_000 and summary["won"] + summary["lost"] == 40_000


def insert_chunk(db: Path, first: int, count: int) -> None:
    """Store a chunk of standard deals as an older kcsolve did, whatever the chunks already there."""
    result = stats_chunks.solve_chunk("standard", (first, count, None), Budget())
    tally = stats_store.Tally(result.tally)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO chunks VALUES ('standard', ?, ?, ?, ?, ?, ?, ?, 'course', 0.1, NULL, NULL)",
            (
                first - stats_store.SEED_OFFSET,
                count,
                tally.won,
                tally.lost,
                tally.undecided,
                json.dumps({str(k): v for k, v in tally.counts.items()}),
                result.codes,
            ),
        )
    conn.close()


@pytest.mark.parametrize("args", [["--count", "3000", "--format", "json"], ["--show", "1700", "--format", "json"]])
def test_chunks_sharing_deals_are_dropped_and_the_rest_kept(tmp_path: Path, args: list[str]) -> None:
    """Two runs at once under an older kcsolve stored chunks sharing deals, and it then refused the store whole.

    Now every chunk sharing no deal with one kept before it is kept, one line says how many deals must be solved
    again, and the run resumes to the counts of a store that never held them; a reader (--show) does the same.
    """
    db = filled_db(tmp_path / "r.db", 2000)  # chunks of deals 0..999 and 1000..1999
    insert_chunk(db, 1500, 1000)  # 1500..2499: 500 deals shared, 500 in no other chunk
    insert_chunk(db, 10, 5)  # inside the first chunk: nothing to solve again
    result = stats_cli(*args, "--db", str(db), "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"{str(db)!r} held chunks that share deals (two runs at once under an older kcsolve): "
        "the later ones are dropped and 500 deals must be solved again; the rest are kept\n"
    )
    clean = stats_cli(*args, "--db", str(tmp_path / "clean.db"), "--jobs", "1")
    same = {"db": "", "solved_now": 0}
    assert json.loads(result.stdout) | same == json.loads(clean.stdout) | same
    if args[0] == "--count":
        assert json.loads(result.stdout)["solved_now"] == 1000  # 2000..2999: the 500 dropped, and 500 never stored
    again = stats_cli("--count", "3000", "--db", str(db), "--jobs", "1")
    assert again.exit_code == 0 and again.stderr == ""
    with sqlite3.connect(db) as conn:
        assert conn.execute(stats_checks.OVERLAPS).fetchone() is None
    conn.close()


# --- the -wal file: the rows are in the database file when a run ends -----------------------------------------


def header_mode(db: Path) -> bytes:
    """Bytes 18 and 19 of a SQLite file: 1, 1 in rollback mode, 2, 2 in WAL mode."""
    return db.read_bytes()[18:20]


def alone(db: Path, folder: Path) -> Path:
    """A copy of the database file without its -wal and -shm, as a user who moves it alone has it."""
    folder.mkdir()
    shutil.copy(db, folder / db.name)
    return folder / db.name


def held(db: Path) -> int:
    """Deals in the database file itself, read as immutable: no -wal or -shm is made beside it."""
    with closing(sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)) as conn:
        return conn.execute("SELECT COALESCE(SUM(count), 0) FROM chunks").fetchone()[0]


@pytest.mark.slow
@pytest.mark.parametrize("how", ["cleanly", "interrupted"])
def test_a_run_ends_with_every_row_in_the_database_file(tmp_path: Path, how: str) -> None:
    db = tmp_path / "r.db"
    if how == "cleanly":
        assert stats_cli("--count", "4000", "--db", str(db), "--jobs", "1").exit_code == 0
    else:
        process = kcsolve_process("stats", "--count", "1000000", "--jobs", "2", "--db", str(db), pure_python=True)
        wait_until(lambda: stored(db) >= 2000, "the first rows")
        process.send_signal(signal.SIGINT)
        assert process.communicate(timeout=60)[0] == "" and process.returncode == 130
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"] and header_mode(db) == b"\x01\x01"
    assert held(alone(db, tmp_path / "moved")) == stored(db) >= 2000


def test_rows_are_copied_into_the_database_file_after_a_full_disk(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A run ended by a full disk still copies its rows out of the -wal: moving the database file alone keeps them."""
    real_connect = sqlite3.connect

    def small_disk(target, *args, **kwargs):  # type: ignore[no-untyped-def]
        conn = real_connect(target, *args, **kwargs)
        if not kwargs.get("uri"):
            conn.execute("PRAGMA max_page_count = 40")  # SQLite's own 'database or disk is full'
        return conn

    monkeypatch.setattr(stats_checks.sqlite3, "connect", small_disk)
    db = tmp_path / "r.db"
    result = stats_cli("--count", "2000000", "--db", str(db), "--jobs", "1")
    assert_bad_input(result, None)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]
    assert held(alone(db, tmp_path / "moved")) == stored(db) > 0


class NoRoomToCheckpoint(sqlite3.Connection):
    """A connection on a full disk: the rows it committed stay in the -wal, which cannot be copied into the file."""

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:  # type: ignore[override]
        if "wal_checkpoint" in sql:
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)  # type: ignore[arg-type]


def test_rows_left_in_the_wal_are_named_and_a_file_moved_without_it_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = tmp_path / "r.db"
    real_connect = sqlite3.connect
    monkeypatch.setattr(
        stats_store.sqlite3,
        "connect",
        lambda *args, **kwargs: real_connect(*args, factory=NoRoomToCheckpoint, **kwargs),
    )
    three = "r.db, r.db-wal and r.db-shm"
    filled_db(db, 1000)
    watcher = real_connect(db)  # another reader keeps SQLite from copying the rows when the run's connection closes
    watcher.execute("PRAGMA journal_mode = WAL")
    result = stats_cli("--count", "3000", "--db", str(db), "--jobs", "1")
    monkeypatch.undo()
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"the last rows stored are still only in '{db}-wal' (database or disk is full); "
        f"the next run copies them into {str(db)!r}: moving the three "
        f"files ({three}) together keeps the work\n"
    )
    moved = alone(db, tmp_path / "moved")
    assert held(moved) == 1000 and header_mode(moved) == b"\x02\x02"
    result = stats_cli("--count", "3000", "--db", str(moved), "--jobs", "1", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["solved_now"] == 2000
    assert result.stderr == (
        f"{str(moved)!r} comes without '{moved}-wal', which its last run may have left rows in: "
        f"moving the three files ({three}) together keeps the work\n"
    )
    assert stats_cli("--count", "3000", "--db", str(moved), "--jobs", "1").stderr == ""  # the file is whole now
    resumed = stats_cli("--count", "3000", "--db", str(db), "--jobs", "1", "--format", "json")
    assert resumed.stderr == "" and json.loads(resumed.stdout)["solved_now"] == 0  # with its -wal, nothing is lost
    watcher.close()


def test_a_file_that_cannot_be_read_without_its_wal_names_it(tmp_path: Path) -> None:
    """A checkpoint cut short by a full disk: the file is only whole with its -wal; without it, one line says so."""
    db = filled_db(tmp_path / "r.db", 20_000)
    data = bytearray(db.read_bytes())
    data[18:20] = b"\x02\x02"  # in WAL mode, as a run leaves it mid-way
    db.write_bytes(bytes(data[: len(data) // 2]))  # the file grown to half its pages when the disk filled
    before = snapshot(tmp_path)
    assert_bad_input(
        stats_cli("--count", "100", "--db", str(db)),
        f"{str(db)!r} cannot be read without '{db}-wal', which is not beside it: "
        "moving the three files (r.db, r.db-wal and r.db-shm) together keeps the work",
    )
    assert snapshot(tmp_path) == before


def test_an_empty_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    """A SQLite file with pages but no table, as another tool may leave it: kcsolve never makes one."""
    db = tmp_path / "r.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("DROP TABLE t")
    conn.close()
    assert db.stat().st_size > 0
    before = snapshot(tmp_path)
    assert_bad_input(
        stats_cli("--count", "100", "--db", str(db)),
        f"{str(db)!r} is an empty SQLite database, not a kcsolve results database; "
        "remove it to start a new one, or choose another --db",
    )
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("failing", ["application_id", "journal_mode"])
def test_a_new_store_is_made_whole_or_not_at_all(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, failing: str) -> None:
    """A first opening that fails leaves no file, or a store with its marks: never one a later run refuses."""
    db = tmp_path / "r.db"
    real_connect = sqlite3.connect

    class Failing:
        def __init__(self, *args: object, **kwargs: object) -> None:
            self.conn = real_connect(*args, **kwargs)  # type: ignore[arg-type]

        def executescript(self, sql: str):  # type: ignore[no-untyped-def]
            if failing in sql:
                raise sqlite3.OperationalError("database or disk is full")
            return self.conn.executescript(sql)

        def execute(self, sql: str, *rest: object):  # type: ignore[no-untyped-def]
            if failing in sql:
                raise sqlite3.OperationalError("database or disk is full")
            return self.conn.execute(sql, *rest)

        def close(self) -> None:
            self.conn.close()

    monkeypatch.setattr(stats_store.sqlite3, "connect", Failing)
    with pytest.raises(stats_checks.ResultsStoreError, match="database or disk is full"):
        stats_store.ResultsStore(db)
    monkeypatch.undo()
    if failing == "application_id":
        assert list(tmp_path.iterdir()) == []
    else:
        result = stats_cli("--count", "100", "--db", str(db), "--format", "json")
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["solved_now"] == 100


def test_a_damage_report_over_several_lines_is_refused_in_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = filled_db(tmp_path / "r.db", 100)
    report = "*** in database main ***\nPage 5: btreeInitPage() returns error code 11\nPage 7: never used"
    real = stats_checks.open_readonly

    class Probe:
        """A connection whose quick_check reports damage the way SQLite does, over several lines."""

        def __init__(self) -> None:
            self.conn = real(db)

        def execute(self, sql: str):  # type: ignore[no-untyped-def]
            return iter([(report,)]) if "quick_check" in sql else self.conn.execute(sql)

        def close(self) -> None:
            self.conn.close()

    monkeypatch.setattr(stats_checks, "open_readonly", lambda path: Probe())
    assert_bad_input(stats_cli("--count", "100", "--db", str(db)), None)
    with pytest.raises(stats_checks.ResultsStoreError) as refused:
        stats_checks.check_store(db)
    assert (
        "copies its intact chunks; *** in database main *** Page 5: btreeInitPage() returns error code 11 Page 7"
        in str(refused.value)
    )


def test_a_refused_open_leaves_no_empty_wal_or_shm(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A store that cannot be opened for writing (here: SQLite refuses WAL mode) leaves nothing new beside it."""
    db = tmp_path / "r.db"
    real_connect = sqlite3.connect

    class Refusing:
        def __init__(self, *args: object, **kwargs: object) -> None:
            self.conn = real_connect(*args, **kwargs)  # type: ignore[arg-type]
            Path(f"{db}-wal").touch()
            Path(f"{db}-shm").touch()

        def executescript(self, sql: str):  # type: ignore[no-untyped-def]
            return self.conn.executescript(sql)

        def execute(self, sql: str, *rest: object):  # type: ignore[no-untyped-def]
            if "journal_mode" in sql:
                raise sqlite3.OperationalError("unable to open database file")
            return self.conn.execute(sql, *rest)

        def close(self) -> None:
            self.conn.close()

    class ReadOnly:
        f_flag = os.ST_RDONLY

    monkeypatch.setattr(stats_store.sqlite3, "connect", Refusing)
    monkeypatch.setattr(stats_checks.os, "statvfs", lambda path: ReadOnly())
    with pytest.raises(stats_checks.ResultsStoreError, match="it is on a read-only file system"):
        stats_store.ResultsStore(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]


@contextmanager
def unwritable(path: Path, how: str) -> Iterator[None]:
    """``path`` made read-only by its mode or immutable (chattr +i); the test is skipped where neither holds."""
    if how == "mode 444":
        path.chmod(0o444)
        if os.access(path, os.W_OK):
            pytest.skip("this user writes a file of mode 444 all the same")
        yield
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("chattr +i is not allowed here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@pytest.mark.parametrize("how", ["mode 444", "immutable"])
def test_a_read_only_database_is_refused_with_no_shm_left_beside_it(tmp_path: Path, how: str) -> None:
    """SQLite makes a 32 KB -shm for a connection before it finds it cannot write: the refusal takes it away."""
    db = filled_db(tmp_path / "r.db", 200)
    before = snapshot(tmp_path)
    with unwritable(db, how):
        assert_bad_input(
            stats_cli("--count", "300", "--db", str(db), "--jobs", "1"),
            f"cannot use {str(db)!r} as a results database: "
            "it is read-only (no permission to write it or its directory)",
        )
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "damage, what",
    [
        ("PRAGMA application_id = 7", "is a SQLite database of something else"),
        ("UPDATE chunks SET verdicts = x'00010203' WHERE rowid = 1", "is damaged: --salvage NEW copies its intact"),
    ],
)
def test_a_refused_database_with_a_wal_gets_no_shm_left_beside_it(tmp_path: Path, damage: str, what: str) -> None:
    """Rows only in the -wal are read as SQLite reads them, which makes a -shm: a refusal takes it away."""
    live = tmp_path / "live.db"
    store = stats_store.ResultsStore(live)
    store.db.execute("PRAGMA wal_autocheckpoint = 0")
    stats_run.run(store, STANDARD, 0, 4000)
    with store.db:
        store.db.execute(damage)
    folder = tmp_path / "copy"
    folder.mkdir()
    db = folder / "r.db"
    db.write_bytes(live.read_bytes())
    Path(f"{db}-wal").write_bytes(Path(f"{live}-wal").read_bytes())
    store.close()
    before = snapshot(folder)
    result = stats_cli("--count", "5000", "--db", str(db), "--jobs", "1")
    assert_bad_input(result, None)
    assert what in result.stderr, result.stderr
    assert snapshot(folder) == before


def test_other_schema_version_is_refused_without_touching_it(tmp_path: Path) -> None:
    db = filled_db(tmp_path / "r.db", 100)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 7")
    conn.close()
    before = snapshot(tmp_path)
    assert_bad_input(
        stats_cli("--count", "200", "--db", str(db)),
        f"{str(db)!r} is a kcsolve results database of schema version 7; "
        "this kcsolve reads version 3 and converts versions 1 and 2: choose another --db",
    )
    assert snapshot(tmp_path) == before


PER_DEAL_SCHEMA = """
CREATE TABLE deals (rules TEXT NOT NULL, seed INTEGER NOT NULL, result TEXT NOT NULL, reason TEXT, card INTEGER,
    deal INTEGER, method TEXT NOT NULL, seconds REAL NOT NULL, budget TEXT, budget_kind TEXT,
    PRIMARY KEY (rules, seed)) WITHOUT ROWID
"""


def per_deal_db(path: Path, version: int) -> Path:
    """A database of the older per-deal schema: seeds 0..5 and 8 standard, seed 7 undecided under 1000 nodes."""
    with sqlite3.connect(path) as conn:
        conn.execute(PER_DEAL_SCHEMA if version == 2 else PER_DEAL_SCHEMA.replace(", budget_kind TEXT", ""))
        for seed in (*range(6), 8):
            won, end, deals = course_end(deal_ranks(seed), STANDARD)
            row = ("win", None, None, None) if won else ("loss", "full", end, deals)
            conn.execute(
                f"INSERT INTO deals VALUES ('standard', ?, ?, ?, ?, ?, 'course', 0.1, NULL{', NULL' * (version == 2)})",
                (seed - stats_store.SEED_OFFSET, *row),
            )
        conn.execute(
            f"INSERT INTO deals VALUES ('groups', ?, 'unknown', NULL, NULL, NULL, 'course', 0.1, '1000'"
            f"{', ' + repr('nodes') if version == 2 else ''})",
            (7 - stats_store.SEED_OFFSET,),
        )
        conn.execute(f"PRAGMA application_id = {stats_checks.APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {version}")
    conn.close()
    return path


@pytest.mark.parametrize("version", [1, 2])
def test_per_deal_database_is_refused_until_converted(tmp_path: Path, version: int) -> None:
    db = per_deal_db(tmp_path / "old.db", version)
    before = snapshot(tmp_path)
    assert_bad_input(
        stats_cli("--count", "10", "--db", str(db)),
        f"{str(db)!r} holds one row per deal (schema version {version}, an older kcsolve); "
        f"convert it with: kcsolve stats --convert --db {str(db)!r}",
    )
    assert snapshot(tmp_path) == before
    converted = stats_cli("--convert", "--db", str(db))
    assert converted.exit_code == 0
    assert unwrapped(converted.stdout) == [f"converted {str(db)!r}: 8 deals stored by chunks"]
    result = stats_cli("--count", "10", "--db", str(db), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["solved_now"] == 3  # 6, 7 and 9: the converted deals are kept
    shown = stats_cli("--show", "7", "--rules", "groups", "--budget", "1000", "--db", str(db), "--format", "json")
    assert json.loads(shown.stdout) == {
        "rules": "groups",
        "seed": 7,
        "result": "unknown",
        "reason": None,
        "deal": None,
        "budget": "1000",
    }
    again = stats_cli("--convert", "--db", str(db))
    assert_bad_input(
        again,
        f"{str(db)!r} is not a per-deal results database of an older kcsolve "
        "(its schema version is 3): there is nothing to convert",
    )


@pytest.mark.parametrize(
    "change, where, what",
    [
        ("reason = 'X' WHERE result = 'loss'", "row of deal 1", "columns that no run writes"),
        ("seed = 'abc' WHERE seed = (SELECT MIN(seed) FROM deals)", "row", "its deal number is 'abc'"),
        ("deal = 'zz' WHERE result = 'loss'", "row of deal 1", "columns that no run writes"),
        ("seconds = 'fast'", "row of deal 7", "columns that no run writes"),  # groups, the first rule set
        ("deal = 1e9 WHERE result = 'loss'", "row of deal 1", "a fill round 1000000000 that no deal has"),
        ("deal = -3 WHERE result = 'loss'", "row of deal 1", "a fill round -3 that no deal has"),
        ("deal = 300 WHERE result = 'loss'", "row of deal 1", "a fill round 300 that no deal has"),
        ("reason = NULL WHERE result = 'loss'", "row of deal 1", "a loss with no reason"),
        ("rules = 'bogus' WHERE result = 'unknown'", "row of deal 7", "rules 'bogus' that name no rule set"),
        ("budget = 'lots' WHERE result = 'unknown'", "row of deal 7", "a budget 'lots' that does not parse"),
        (
            "rules = replace(hex(zeroblob(30)), '00', 'standard+') || 'standard'",  # a rule set, but 278 characters
            "row of deal 0",
            "columns that no run writes",
        ),
    ],
)
def test_a_per_deal_database_with_rows_no_run_wrote_is_not_converted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, change: str, where: str, what: str
) -> None:
    """The line names the file and the damaged row; the library's message says what is wrong with it, too."""
    db = per_deal_db(tmp_path / "old.db", 2)
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE deals SET {change}")
    conn.close()
    before = snapshot(tmp_path)
    monkeypatch.chdir(tmp_path)  # a path of ordinary length, which the line shows whole
    result = stats_cli("--convert", "--db", "old.db")
    assert_bad_input(result, None)
    message = f"cannot convert 'old.db': damaged {where}; {what}; it is left as it was"
    assert result.stderr == f"Error: {shorten(message)}\n"
    assert result.stderr.startswith(f"Error: cannot convert 'old.db': damaged {where}"), result.stderr
    with pytest.raises(stats_checks.ResultsStoreError) as refusal:
        stats_convert.convert(db)
    assert str(refusal.value) == f"cannot convert {str(db)!r}: damaged {where}; {what}; it is left as it was"
    assert snapshot(tmp_path) == before


def test_a_per_deal_database_holding_a_deal_twice_is_not_converted(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:  # the table without its primary key, as a damaged copy may have it
        conn.execute(PER_DEAL_SCHEMA.replace(",\n    PRIMARY KEY (rules, seed)) WITHOUT ROWID", ")"))
        for _ in range(2):
            conn.execute(
                "INSERT INTO deals VALUES ('standard', ?, 'win', NULL, NULL, NULL, 'course', 0.1, NULL, NULL)",
                (3 - stats_store.SEED_OFFSET,),
            )
        conn.execute(f"PRAGMA application_id = {stats_checks.APPLICATION_ID}")
        conn.execute("PRAGMA user_version = 2")
    conn.close()
    before = snapshot(tmp_path)
    assert_bad_input(
        stats_cli("--convert", "--db", str(db)),
        f"cannot convert {str(db)!r}: damaged rows of deal 3; two under 'standard'; it is left as it was",
    )
    assert snapshot(tmp_path) == before


def test_a_per_deal_database_holding_another_table_is_not_converted(tmp_path: Path) -> None:
    db = per_deal_db(tmp_path / "old.db", 1)
    damaged_row(db, "CREATE TABLE evil (x)")
    before = snapshot(tmp_path)
    assert_bad_input(
        stats_cli("--convert", "--db", str(db)),
        f"{str(db)!r} holds the table 'evil', which no kcsolve makes; it is left as it is: choose another --db",
    )
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("how", ["mode 444", "immutable"])
def test_a_read_only_per_deal_database_is_not_converted_and_gets_no_shm(tmp_path: Path, how: str) -> None:
    db = per_deal_db(tmp_path / "old.db", 2)
    with sqlite3.connect(db) as conn:  # older kcsolve kept its stores in WAL mode too
        conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    before = snapshot(tmp_path)
    with unwritable(db, how):
        assert_bad_input(
            stats_cli("--convert", "--db", str(db)),
            f"cannot convert {str(db)!r}: it is read-only (no permission to write it or its directory); "
            "it is left as it was",
        )
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize("folder", ["/", "."])
def test_a_folder_with_no_name_is_refused_as_a_directory(folder: str) -> None:
    with pytest.raises(stats_checks.ResultsStoreError, match=f"cannot use {folder!r}: it is a directory"):
        stats_store.ResultsStore(Path(folder))


@pytest.mark.parametrize("where", ["missing", "file"])
def test_db_whose_directory_is_missing_or_a_file_is_refused(tmp_path: Path, where: str) -> None:
    parent = tmp_path / "nowhere" / "deeper"
    if where == "file":
        parent = tmp_path / "plain"
        parent.write_text("not a folder")
    db = parent / "x.db"
    what = "does not exist" if where == "missing" else "is not a directory"
    assert_bad_input(
        stats_cli("--count", "10", "--db", str(db)), f"cannot use {str(db)!r}: its directory {str(parent)!r} {what}"
    )
    assert not (tmp_path / "nowhere").exists()


def test_complete_range_is_reported_without_writing(tmp_path: Path) -> None:
    db = filled_db(tmp_path / "r.db", 3000)
    before = snapshot(tmp_path)
    result = stats_cli("--count", "3000", "--db", str(db), "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["solved_now"] == 0
    assert snapshot(tmp_path) == before


def test_read_only_media_gives_the_real_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    class ReadOnly:
        f_flag = os.ST_RDONLY

    monkeypatch.setattr(stats_checks.os, "statvfs", lambda path: ReadOnly())
    error = sqlite3.OperationalError("attempt to write a readonly database")
    assert stats_checks.why(tmp_path / "r.db", error) == "it is on a read-only file system"


def test_full_disk_is_one_line_and_keeps_what_was_stored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real_connect = sqlite3.connect

    def small_disk(target, *args, **kwargs):  # type: ignore[no-untyped-def]
        conn = real_connect(target, *args, **kwargs)
        if not kwargs.get("uri"):
            conn.execute("PRAGMA max_page_count = 40")  # SQLite's own 'database or disk is full'
        return conn

    monkeypatch.setattr(stats_checks.sqlite3, "connect", small_disk)
    monkeypatch.chdir(tmp_path)  # a path of ordinary length, which the line shows whole
    result = stats_cli("--count", "2000000", "--db", "r.db", "--jobs", "1")  # about 0.4 byte a deal: 800 kB
    assert_bad_input(result, "cannot write to 'r.db': database or disk is full; stored deals are kept")
    assert stored(tmp_path / "r.db") > 0


# --- options ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "nonsense",
        "http://127.0.0.1:8786",
        "tcp://host",
        "tcp://a:b:c",
        "tcp://127.0.0.1:65536",
        "tls://h:0",
    ],
)
def test_malformed_scheduler_address(tmp_path: Path, address: str) -> None:
    assert_bad_input(
        stats_cli("--count", "10", "--db", str(tmp_path / "r.db"), "--scheduler", address),
        f"not a Dask scheduler address: {address!r} (use tcp://HOST:PORT)",
    )
    assert not (tmp_path / "r.db").exists()


def test_an_unreachable_scheduler_makes_no_file(tmp_path: Path) -> None:
    """Nothing listens at the address: the run is refused before the database is made, or touched when it exists."""
    pytest.importorskip("distributed")
    db = tmp_path / "r.db"
    with socket.socket() as taken:  # bound and never listening: connecting is refused
        taken.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{taken.getsockname()[1]}"
        result = stats_cli("--count", "10", "--db", str(db), "--scheduler", address)
        assert_bad_input(result, f"cannot reach Dask at {address!r}: Connection refused")
        assert list(tmp_path.iterdir()) == []
        filled_db(db, 100)
        before = snapshot(tmp_path)
        assert_bad_input(stats_cli("--count", "200", "--db", str(db), "--scheduler", address), None)
        assert snapshot(tmp_path) == before


@pytest.mark.parametrize("budget", [str(2**63), "1e300s", "99999999999h"])
def test_budgets_out_of_range(tmp_path: Path, budget: str) -> None:
    result = stats_cli("--count", "10", "--db", str(tmp_path / "r.db"), "--budget", budget)
    assert_bad_input(result, None)
    assert result.stderr == f"Error: bad budget {budget!r}: use NODES < 2**63, TIME ('2s') or both\n"


@pytest.mark.parametrize("args", [["--count", "10"], ["--convert"]])
def test_an_empty_db_path_is_refused_not_taken_for_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str]
) -> None:
    default = tmp_path / "default.db"
    monkeypatch.setenv("KCSOLVE_DB", str(default))
    assert_bad_input(stats_cli(*args, "--db", ""), "--db '': the value is empty; give one, or leave --db out")
    assert not default.exists()


def test_show_and_list_together_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    assert_bad_input(
        stats_cli("--show", "5", "--list", "won", "--db", str(db)), "give either --show 5 or --list won, not both"
    )
    assert not db.exists()


def test_rows_record_the_budget_and_its_kind(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    assert stats_cli("--count", "3", "--rules", "groups", "--budget", "2s,50000", "--db", str(db)).exit_code in (0, 3)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT budget, budget_kind FROM chunks").fetchall()
    assert rows and set(rows) == {("2s,50000", "nodes+cpu")}


# --- workers and signals ------------------------------------------------------------------------------------------


def _die(rules_text: str, seeds: list[int], budget: Budget) -> list:  # runs in a worker: kill it
    os._exit(1)


def test_workers_that_keep_dying_end_the_run_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(stats_pool, "solve_chunk", _die)
    result = stats_cli("--count", "5000", "--db", str(tmp_path / "r.db"), "--jobs", "2")
    assert_bad_input(
        result,
        "worker processes died 4 times in this run; every finished deal is stored, "
        "run the same command again to resume",
    )


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_signals_stop_the_run_cleanly(tmp_path: Path, signum: int) -> None:
    db = tmp_path / "r.db"
    process = kcsolve_process("stats", "--count", "1000000", "--jobs", "2", "--db", str(db))
    wait_until(lambda: stored(db) >= 2000, "the first rows")
    workers = children(process.pid)
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err.lstrip("\n").startswith("interrupted: ") and "Traceback" not in err
    assert 2000 <= stored(db) < 1_000_000
    wait_until(lambda: not any(alive(w) for w in workers), "the workers to leave", 10)


@pytest.mark.slow
def test_searched_rule_sets_store_work_within_seconds_and_stop_at_once(tmp_path: Path) -> None:
    """Under groups (no compiled course) chunks are sized by time: Ctrl-C soon after the start still keeps deals."""
    db = tmp_path / "r.db"
    # numba's cache, filled here: on a fresh checkout the workers would spend the wait compiling the search
    stats_chunks.decide_compiled(range(16), parse_rules("optional+groups"), Budget())
    process = kcsolve_process(
        "stats", "--rules", "optional+groups", "--count", "100000", "--jobs", "2", "--db", str(db)
    )
    wait_until(lambda: stored(db) > 0, "the first stored deals", 20)
    process.send_signal(signal.SIGINT)
    began = time.monotonic()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and time.monotonic() - began < 5, err
    assert 0 < stored(db) < 100_000


def test_chunks_follow_the_time_a_deal_takes_and_spread_over_the_workers() -> None:
    sizer = stats_chunks.ChunkSizer(stats_chunks.CHUNK, 2000, 2)
    assert sizer.limit == 500  # two chunks a worker at least: 2,000 deals are not one worker's
    assert sizer() == stats_chunks.FIRST_CHUNK
    sizer.observe(16, 16 * 0.001)  # a millisecond a deal: a chunk of two seconds would be 2,000, capped at 500
    assert sizer() == 500
    sizer.observe(16, 16 * 0.5)
    assert 1 <= sizer() < 50  # slow deals, small chunks
    assert stats_chunks.ChunkSizer(stats_chunks.CHUNK, 10**9, 2).limit == stats_chunks.CHUNK


@pytest.mark.slow
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    process = kcsolve_process("stats", "--count", "1000000", "--jobs", "2", "--db", str(db))
    wait_until(lambda: stored(db) >= 2000, "the first rows")
    workers = children(process.pid)
    assert workers
    process.kill()
    process.wait(timeout=10)
    wait_until(lambda: not any(alive(w) for w in workers), "the orphaned workers to die", 10)


# --- Dask -----------------------------------------------------------------------------------------------------------


def test_dask_scheduler_lost_mid_run(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    store = stats_store.ResultsStore(tmp_path / "r.db")

    def pull_the_plug(progress: stats_run.Progress) -> None:
        if progress.solved:
            cluster.close()

    with pytest.raises(
        stats_cluster.SchedulerError,
        match=r"^lost Dask at .* mid-run \(\w+\): run again to resume; every finished deal is stored$",
    ):
        stats_run.run(store, STANDARD, 0, 200_000, report=pull_the_plug, scheduler=cluster.scheduler_address)
    assert stored(tmp_path / "r.db") >= stats_chunks.CHUNK


def test_dask_cluster_without_workers_is_refused_in_bounded_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(stats_cluster, "DASK_WAIT", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        result = stats_cli("--count", "10", "--db", str(tmp_path / "r.db"), "--scheduler", cluster.scheduler_address)
    assert_bad_input(result, f"no Dask workers at {cluster.scheduler_address!r} (waited 1 s)")
    assert list(tmp_path.iterdir()) == []  # refused before the database is made


# --- memory does not grow with the range ----------------------------------------------------------------------------


def test_seeds_to_solve_come_in_bounded_windows(tmp_path: Path) -> None:
    store = stats_store.ResultsStore(tmp_path / "r.db")
    pending = stats_chunks.chunks_to_solve(store, "standard", 0, 10**12, Budget())
    first = next(pending)
    assert first == (0, stats_chunks.CHUNK, None)  # a trillion-deal range starts at once


def test_progress_of_a_huge_range_is_counted_at_once(tmp_path: Path) -> None:
    store = stats_store.ResultsStore(filled_db(tmp_path / "r.db", 100))
    began = time.perf_counter()
    assert store.done_count("standard", 0, 10**15, Budget()) == 100
    assert time.perf_counter() - began < 1


def test_the_default_database_follows_kcsolve_s_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """KCSOLVE_DB, else KCSOLVE_CACHE_DIR (as the daily cache does); an empty variable counts as unset."""
    monkeypatch.setenv("KCSOLVE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("KCSOLVE_DB", "")
    assert stats_store.default_db() == tmp_path / "cache" / "results.sqlite3"
    monkeypatch.setenv("KCSOLVE_DB", str(tmp_path / "mine.db"))
    assert stats_store.default_db() == tmp_path / "mine.db"


def test_two_runs_making_a_store_at_once_both_use_the_one_linked_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The other run links its new store between this run's check and its own link: this one opens that store."""
    db = tmp_path / "r.db"
    real_link = os.link
    other = []

    def other_run_first(source: Path, target: Path) -> None:
        if not other:
            monkeypatch.setattr(stats_store.os, "link", real_link)
            other.append(stats_store.ResultsStore(db))
            other[0].add("standard", stats_chunks.solve_chunk("standard", (0, 100, None), Budget()))
            monkeypatch.setattr(stats_store.os, "link", other_run_first)
        real_link(source, target)

    monkeypatch.setattr(stats_store.os, "link", other_run_first)
    store = stats_store.ResultsStore(db)
    assert store.done_count("standard", 0, 100, Budget()) == 100
    store.close()
    other[0].close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]


def test_a_run_leaving_wal_mode_is_not_taken_for_a_missing_wal(tmp_path: Path) -> None:
    """A run that ends deletes its -wal a moment before its header says rollback mode: a store opened in that
    moment is not called one moved without its -wal (two runs on one store said so now and then)."""
    db = tmp_path / "r.db"
    with closing(sqlite3.connect(db)) as setup:
        setup.execute("PRAGMA journal_mode = WAL")
        setup.execute("CREATE TABLE t (x)")
    leaving = alone(db, tmp_path / "leaving")
    with leaving.open("r+b") as handle:
        handle.seek(18)
        handle.write(b"\x02\x02")  # in WAL mode, its -wal already gone: the moment between the two steps
    assert stats_checks.missing_wal(leaving) == leaving.with_name("r.db-wal")  # a header that stays so is one

    def leave() -> None:
        time.sleep(stats_checks.WAL_LOOK_PAUSE * 1.5)
        with leaving.open("r+b") as handle:
            handle.seek(18)
            handle.write(b"\x01\x01")

    ending = threading.Thread(target=leave)
    ending.start()
    try:
        assert stats_checks.missing_wal(leaving) is None
    finally:
        ending.join()


@pytest.mark.parametrize("how", ["mode 444", "immutable", "immutable folder"])
def test_show_on_a_read_only_store_answers(tmp_path: Path, how: str) -> None:
    """A deal stored is read; one not stored is solved and not kept, with a line saying so; nothing is written."""
    folder = tmp_path / "kept"
    folder.mkdir()
    db = filled_db(folder / "r.db", 200)
    before = snapshot(folder)
    with unwritable(folder if how == "immutable folder" else db, how.removesuffix(" folder")):
        stored = stats_cli("--show", "3", "--db", str(db))
        assert (stored.exit_code, stored.stdout, stored.stderr) == (0, "deal 3 under standard: winnable\n", "")
        solved = stats_cli("--show", "999", "--db", str(db), "--format", "json")
        assert solved.exit_code == 0, solved.stderr
        assert json.loads(solved.stdout) == {
            "rules": "standard",
            "seed": 999,
            "result": "loss",
            "reason": "full",
            "deal": 8,
            "budget": None,
        }
        assert unwrapped(solved.stderr) == [f"{str(db)!r} is read-only: deal 999 was solved now and is not stored"]
        assert_bad_input(
            stats_cli("--count", "300", "--db", str(db)),
            f"cannot use {str(db)!r} as a results database: "
            "it is read-only (no permission to write it or its directory)",
        )
        assert snapshot(folder) == before


@pytest.mark.parametrize("below", ["", "/sub"])
def test_a_cache_folder_named_by_a_file_is_one_line_naming_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, below: str
) -> None:
    (tmp_path / "file").write_text("mine")
    monkeypatch.delenv("KCSOLVE_DB", raising=False)
    monkeypatch.setenv("KCSOLVE_CACHE_DIR", f"{tmp_path / 'file'}{below}")
    assert_bad_input(
        stats_cli("--count", "10"),
        f"KCSOLVE_CACHE_DIR={str(tmp_path / 'file') + below!r} cannot be used: "
        f"{str(tmp_path / 'file')!r} is a file, not a folder",
    )
    assert (tmp_path / "file").read_text() == "mine"
