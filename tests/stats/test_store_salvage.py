"""A damaged results store: named as damaged, left untouched, and its intact chunks salvaged into a new store."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from clitools import assert_bad_input, make_runner, unwrapped

from kcsolve.cli import cli
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.stats import checks as stats_checks
from kcsolve.patience.stats import run as stats_run
from kcsolve.patience.stats import store as stats_store
from kcsolve.patience.stats.salvage import salvage

CHUNKS, DEALS = 120, 500  # chunks of the store built, deals in each


def stats_cli(*args: str):  # type: ignore[no-untyped-def]
    return make_runner().invoke(cli, ["stats", *args])


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of CHUNKS chunks of standard deals, over several pages of the file."""
    path = tmp_path_factory.mktemp("store") / "whole.db"
    store = stats_store.ResultsStore(path)
    for k in range(CHUNKS // 2):
        stats_run.run(store, STANDARD, 2 * DEALS * k, 2 * DEALS)  # two chunks a run of one worker
    store.close()
    return path


def rows(db: Path) -> dict[int, bytes]:
    """Every chunk's verdicts by its first deal."""
    with closing(sqlite3.connect(db)) as conn:
        return {
            first + stats_store.SEED_OFFSET: blob for first, blob in conn.execute("SELECT first, verdicts FROM chunks")
        }


def truncated(whole: Path, at: Path, share: float) -> Path:
    """A copy of ``whole`` cut down to ``share`` of its bytes."""
    data = whole.read_bytes()
    at.write_bytes(data[: int(len(data) * share)])
    return at


def test_a_truncated_store_is_named_damaged_with_how_to_keep_its_chunks(
    whole: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = truncated(whole, tmp_path / "r.db", 0.6)
    before = db.read_bytes()
    assert_bad_input(stats_cli("--count", "10", "--db", "r.db"), None)
    assert stats_cli("--count", "10", "--db", "r.db").stderr == (
        "Error: 'r.db' is damaged: --salvage NEW copies its intact chunks\n"
    )
    with pytest.raises(stats_checks.ResultsStoreError) as refused:
        stats_checks.check_store(Path("r.db"))
    size = whole.stat().st_size
    assert str(refused.value) == (
        "'r.db' is damaged: --salvage NEW copies its intact chunks; "
        f"truncated: {int(size * 0.6):,} of {size:,} bytes; it is left untouched"
    )
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["r.db"]


def test_salvage_keeps_every_intact_chunk_and_a_run_resumes_from_them(whole: Path, tmp_path: Path) -> None:
    db = truncated(whole, tmp_path / "r.db", 0.6)
    new = tmp_path / "new.db"
    result = stats_cli("--salvage", str(new), "--db", str(db))
    assert result.exit_code == 0, result.stderr
    kept = rows(new)
    assert 0 < len(kept) < CHUNKS
    assert unwrapped(result.stdout) == [
        f"salvaged {len(kept)} chunks ({len(kept) * DEALS:,} deals) of {str(db)!r} into {str(new)!r}; "
        f"use it with --db {str(new)!r}"
    ]
    original = rows(whole)
    assert all(original[first] == blob for first, blob in kept.items())
    assert stats_checks.check_store(new) == stats_checks.SCHEMA_VERSION
    count = str(CHUNKS * DEALS)
    resumed = json.loads(stats_cli("--count", count, "--db", str(new), "--format", "json", "--jobs", "1").stdout)
    clean = json.loads(stats_cli("--count", count, "--db", str(whole), "--format", "json").stdout)
    assert resumed["solved_now"] == (CHUNKS - len(kept)) * DEALS
    assert (resumed["won"], resumed["lost"]) == (clean["won"], clean["lost"])


def test_salvage_leaves_out_damaged_chunks(whole: Path, tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    db.write_bytes(whole.read_bytes())
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE chunks SET verdicts = x'00010203' WHERE rowid = 3")  # the chunk of deals from 1000
        conn.execute("UPDATE chunks SET won = won + 1, lost = lost - 1 WHERE rowid = 5")  # sums, tally disagree
    kept = salvage(db, tmp_path / "new.db")
    assert (kept.chunks, kept.deals, kept.left_out) == (CHUNKS - 2, (CHUNKS - 2) * DEALS, 2)
    assert set(rows(whole)) - set(rows(tmp_path / "new.db")) == {1000, 2000}


def test_salvage_refuses_what_it_cannot_do_in_one_line(whole: Path, tmp_path: Path) -> None:
    new = tmp_path / "new.db"
    new.write_text("mine")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    for args, message in (
        (["--db", str(whole)], f"--salvage {str(new)!r} exists: name a new file for the salvaged store"),
        (["--db", str(junk)], None),
        (["--db", str(tmp_path / "none.db")], None),
    ):
        result = stats_cli("--salvage", str(new if message else tmp_path / "other.db"), *args)
        assert_bad_input(result, message)
    assert new.read_text() == "mine" and not (tmp_path / "other.db").exists()
    with pytest.raises(stats_checks.ResultsStoreError, match="is not a kcsolve results database: there is nothing"):
        salvage(junk, tmp_path / "other.db")
    with pytest.raises(stats_checks.ResultsStoreError, match="is not a file: there is nothing to salvage"):
        salvage(tmp_path / "none.db", tmp_path / "other.db")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.db", "new.db"]
