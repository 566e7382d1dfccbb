"""Statistics at scale: verdicts, the results store, resuming, interruption, bad databases, Dask."""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from clitools import kcsolve_process, unwrapped

from kcsolve.cli import cli
from kcsolve.cli.base import shorten
from kcsolve.common.deal import deal
from kcsolve.common.interval import wilson
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import Budget, solve
from kcsolve.patience.stats.run import run
from kcsolve.patience.stats.store import ChunkResult, ResultsStore
from kcsolve.patience.stats.summary import summarize
from kcsolve.patience.stats.verdicts import UNDECIDED, WIN, describe, pack


def stats_json(*args: str) -> tuple[int, dict]:
    """Run ``kcsolve stats --format json`` in-process; (exit code, parsed output)."""
    result = CliRunner().invoke(cli, ["stats", "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else {}


def stored(db: Path) -> int:
    """Rows committed so far (read-only, while a run may be writing)."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return conn.execute("SELECT COALESCE(SUM(count), 0) FROM chunks").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def wait_for_rows(db: Path, at_least: int, process: subprocess.Popen, limit: float = 60) -> None:
    """Wait until a running job has committed some rows."""
    deadline = time.monotonic() + limit
    while stored(db) < at_least:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no rows committed in time"
        time.sleep(0.05)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "deplete", "swap"])
def test_stored_verdicts_match_the_solver(tmp_path: Path, preset: str) -> None:
    """Every stored row agrees with `solve` (whose wins replay through the engine)."""
    rules = parse_rules(preset)
    store = ResultsStore(tmp_path / "r.db")
    run(store, rules, 500, 300)
    rows = {
        first + i: describe(code)[0] for first, codes in store.pieces(preset, 500, 300) for i, code in enumerate(codes)
    }
    assert len(rows) == 300
    for seed in range(500, 800):
        assert rows[seed] == solve(deal(seed), rules).result, seed
    summary = summarize(store, rules, 500, 300)
    assert summary.won + summary.lost == 300 and summary.undecided == 0
    assert summary.won == sum(r == "win" for r in rows.values())


def test_wilson_interval() -> None:
    """Known values of the Wilson score interval."""
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)


def test_json_summary_and_resume(tmp_path: Path) -> None:
    """The JSON has the promised keys; a second, larger run solves only the new seeds."""
    db = str(tmp_path / "r.db")
    code, first = stats_json("--count", "1000", "--db", db, "--jobs", "1")
    assert code == 0
    for key in ("rules", "start", "count", "won", "lost", "undecided", "win_rate", "ci95", "loss_reasons"):
        assert key in first
    assert first["won"] + first["lost"] == 1000 and first["solved_now"] == 1000
    low, high = first["ci95"]
    assert low < first["win_rate"] < high
    code, again = stats_json("--count", "2500", "--db", db, "--jobs", "2")
    assert code == 0 and again["solved_now"] == 1500 and again["count"] == 2500
    code, repeat = stats_json("--count", "2500", "--db", db)
    assert repeat["solved_now"] == 0 and repeat["won"] == again["won"]


def test_text_summary(tmp_path: Path) -> None:
    """The text form gives the rate, the interval, the 80% claim and the loss splits."""
    result = CliRunner().invoke(cli, ["stats", "--count", "400", "--db", str(tmp_path / "r.db"), "--jobs", "1"])
    assert result.exit_code == 0
    text = result.stdout
    assert "\nwinnable " in text and "95% Wilson interval" in text and "80%" in text
    assert "(by one who sees the deck: an upper bound on the win rate of a player who cannot)" in " ".join(text.split())
    assert " winnable, " in unwrapped(text)[0] and " lost whatever the play, " in unwrapped(text)[0]
    data = json.loads(
        CliRunner().invoke(cli, ["stats", "--count", "400", "--db", str(tmp_path / "r.db"), "--format", "json"]).stdout
    )
    assert data["win_rate_is"].startswith("share of the deals winnable by a player who sees the deck")
    assert "grid full with nothing to remove" in text and "deal 3" in text
    one = CliRunner().invoke(cli, ["stats", "--start", "1000", "--count", "1", "--db", str(tmp_path / "r.db")])
    assert one.stdout.startswith("standard, seeds 1000..1000 (1 deal): ")
    assert "this run solved 1 deal at " in " ".join(one.stdout.split())


@pytest.mark.slow
def test_interrupted_run_keeps_rows_and_resumes(tmp_path: Path) -> None:
    """Ctrl-C keeps every finished row; running again (compiled, after Python) completes the range with equal verdicts.

    The interrupted run takes the slower Python course, so the signal surely comes mid-run.
    """
    db = tmp_path / "r.db"
    process = kcsolve_process(
        "stats", "--count", "100000", "--jobs", "2", "--db", str(db), "--format", "json", pure_python=True
    )
    wait_for_rows(db, 4000, process)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted:" in err and "run the same command again to resume" in " ".join(err.split())
    assert "Traceback" not in err
    kept = stored(db)
    assert 4000 <= kept < 100000
    code, resumed = stats_json("--count", "100000", "--db", str(db), "--jobs", "2")
    assert code == 0 and resumed["solved_now"] == 100000 - kept
    _, clean = stats_json("--start", "0", "--count", "100000", "--db", str(tmp_path / "clean.db"), "--jobs", "2")
    assert (resumed["won"], resumed["lost"], resumed["loss_deals"]) == (
        clean["won"],
        clean["lost"],
        clean["loss_deals"],
    )


@pytest.mark.slow
def test_killed_worker_loses_nothing(tmp_path: Path) -> None:
    """A worker killed mid-run costs a pool restart; the run (Python, so it is still running) loses no verdict."""
    db = tmp_path / "r.db"
    process = kcsolve_process(
        "stats", "--count", "100000", "--jobs", "2", "--db", str(db), "--format", "json", pure_python=True
    )
    wait_for_rows(db, 2000, process)
    children = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert children, "no worker processes found"
    os.kill(int(children[0]), signal.SIGKILL)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    summary = json.loads(out)
    assert summary["won"] + summary["lost"] == 100000 and stored(db) == 100000
    _, clean = stats_json("--count", "100000", "--db", str(tmp_path / "clean.db"), "--jobs", "2")
    assert summary["won"] == clean["won"]


def test_corrupt_database_is_refused_untouched(tmp_path: Path) -> None:
    """A file that is not SQLite: one error line, exit 2, the file byte for byte unchanged."""
    db = tmp_path / "junk.db"
    db.write_bytes(b"this is not a database at all" * 100)
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    result = CliRunner().invoke(cli, ["stats", "--count", "10", "--db", str(db)])
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"Error: {shorten(f'{str(db)!r} is not a kcsolve results database (file is not a database)')}\n"
    )
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.db"]


def test_foreign_database_is_refused_untouched(tmp_path: Path) -> None:
    """Another program's SQLite file is named as such and left alone."""
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        conn.execute("INSERT INTO invoices VALUES (1, 9.5)")
    conn.close()
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    result = CliRunner().invoke(cli, ["stats", "--count", "10", "--db", str(db)])
    assert result.exit_code == 2
    message = f"{str(db)!r} is a SQLite database of something else (application_id 0x0, tables: invoices)"
    assert result.stderr == f"Error: {shorten(message + '; choose another --db')}\n"
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before


def test_undecided_rows_are_retried_only_with_a_larger_budget(tmp_path: Path) -> None:
    """An undecided row stays so under the same budget (exit 3) and is solved under a larger one."""
    db = tmp_path / "r.db"
    store = ResultsStore(db)
    store.add(
        "standard", ChunkResult(7, 1, None, pack(bytes([UNDECIDED])), {UNDECIDED: 1}, "auto", 0.1, "1000", "nodes")
    )
    assert store.done_count("standard", 7, 1, Budget(nodes=1000)) == 1
    assert store.done_count("standard", 7, 1, Budget(nodes=5000)) == 0
    assert store.done_count("standard", 7, 1, Budget()) == 0
    store.close()
    code, same = stats_json("--start", "7", "--count", "1", "--db", str(db), "--budget", "1000")
    assert code == 3 and same["undecided"] == 1 and same["win_rate"] is None and same["bounds"] == [0.0, 1.0]
    code, larger = stats_json("--start", "7", "--count", "1", "--db", str(db), "--budget", "5000")
    assert code == 0 and larger["undecided"] == 0 and larger["solved_now"] == 1


def test_a_range_partly_in_a_chunk_retries_only_its_own_undecided_deals(tmp_path: Path) -> None:
    """A decided deal of a chunk with undecided ones elsewhere is shown as stored; the others stay as they were."""
    db = tmp_path / "r.db"
    store = ResultsStore(db)
    codes = bytes([UNDECIDED, WIN, UNDECIDED])
    store.add("standard", ChunkResult(7, 3, None, pack(codes), {UNDECIDED: 2, WIN: 1}, "auto", 0.1, "1000", "nodes"))
    store.close()
    shown = CliRunner().invoke(cli, ["stats", "--show", "8", "--db", str(db), "--budget", "5000"])
    assert (shown.exit_code, shown.stdout, shown.stderr) == (0, "deal 8 under standard: winnable\n", "")
    undecided = CliRunner().invoke(cli, ["stats", "--show", "9", "--db", str(db), "--budget", "1000"])
    assert undecided.exit_code == 3 and "undecided within the budget 1000" in undecided.stdout  # as for a summary
    listed = CliRunner().invoke(
        cli, ["stats", "--start", "7", "--count", "3", "--list", "won", "--db", str(db), "--budget", "1000"]
    )
    assert (listed.exit_code, listed.stdout) == (3, "8\n")
    code, first = stats_json("--start", "7", "--count", "2", "--db", str(db), "--budget", "5000")
    assert code == 0 and first["solved_now"] == 1 and first["undecided"] == 0
    assert ResultsStore(db, readonly=True).codes("standard", 7)[2] == UNDECIDED  # deal 9 was not asked for


@pytest.mark.parametrize(
    "args, message",
    [
        (["--start", "-1"], "seed must be between 0 and 2**64-1, got -1"),
        (
            ["--start", str(2**64 - 1), "--count", "2"],
            f"--start {2**64 - 1} --count 2 runs past the last deal number, 2**64-1",
        ),
        (
            ["--rules", "bogus"],
            "unknown rule preset 'bogus' (kcsolve rules lists them)",
        ),
        (
            ["--budget", "x"],
            "bad budget 'x': use NODES < 2**63, TIME ('2s') or both",
        ),
    ],
)
def test_bad_stats_input(tmp_path: Path, args: list[str], message: str) -> None:
    """Bad options: exit 2, one line."""
    result = CliRunner().invoke(cli, ["stats", "--db", str(tmp_path / "r.db"), *args])
    assert result.exit_code == 2 and result.stderr == f"Error: {shorten(message)}\n"


@pytest.mark.slow
def test_dask_cluster_gives_the_same_verdicts(tmp_path: Path) -> None:
    """The same range on a Dask LocalCluster stores the same verdicts as the local run."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, processes=True) as cluster:
        code, remote = stats_json(
            "--count", "3000", "--db", str(tmp_path / "d.db"), "--scheduler", cluster.scheduler_address
        )
    assert code == 0
    _, local = stats_json("--count", "3000", "--db", str(tmp_path / "l.db"), "--jobs", "2")
    for key in ("won", "lost", "undecided", "loss_reasons", "loss_deals"):
        assert remote[key] == local[key]
    remote_store, local_store = ResultsStore(tmp_path / "d.db"), ResultsStore(tmp_path / "l.db")
    assert b"".join(c for _, c in remote_store.pieces("standard", 0, 3000)) == b"".join(
        c for _, c in local_store.pieces("standard", 0, 3000)
    )


def test_unreachable_scheduler(tmp_path: Path) -> None:
    """A scheduler address nobody answers is one error line and exit 2, at once rather than after Dask's retries."""
    pytest.importorskip("distributed")
    with socket.socket() as taken:  # bound and never listening: connecting is refused, and no one else can take it
        taken.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{taken.getsockname()[1]}"
        result = CliRunner().invoke(
            cli, ["stats", "--count", "10", "--db", str(tmp_path / "r.db"), "--scheduler", address]
        )
    assert result.exit_code == 2
    # the probe's words, the address whole; Dask's client retries, then says others
    assert result.stderr == f"Error: cannot reach Dask at {address!r}: Connection refused\n"


def test_show_and_list_answer_per_deal(tmp_path: Path) -> None:
    """--show gives one deal's verdict as `solve` does; --list won gives exactly the winnable deal numbers."""
    db = str(tmp_path / "r.db")
    listed = CliRunner().invoke(cli, ["stats", "--start", "40", "--count", "60", "--db", db, "--list", "won"])
    assert listed.exit_code == 0
    wins = [int(n) for n in listed.stdout.split()]
    assert wins == [s for s in range(40, 100) if solve(deal(s), parse_rules("standard")).result == "win"]
    # a range that cuts a stored chunk and runs past it lists from both
    more = CliRunner().invoke(cli, ["stats", "--start", "90", "--count", "20", "--db", db, "--list", "won"])
    assert [int(n) for n in more.stdout.split()] == [
        s for s in range(90, 110) if solve(deal(s), parse_rules("standard")).result == "win"
    ]
    lost = next(s for s in range(40, 100) if s not in wins)
    shown = CliRunner().invoke(cli, ["stats", "--show", str(lost), "--db", db])
    loss = solve(deal(lost), parse_rules("standard")).loss
    assert unwrapped(shown.stdout) == [
        f"deal {lost} under standard: lost under best play: grid full with nothing to remove, in deal {loss.deal}"
    ]
    shown = CliRunner().invoke(cli, ["stats", "--show", str(wins[0]), "--db", db, "--format", "json"])
    assert json.loads(shown.stdout)["result"] == "win"


def test_damaged_chunk_is_refused_in_one_line(tmp_path: Path) -> None:
    """A chunk whose verdicts do not unpack is damage: one line, exit 2."""
    db = tmp_path / "r.db"
    assert CliRunner().invoke(cli, ["stats", "--count", "50", "--db", str(db)]).exit_code == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE chunks SET verdicts = x'00ff'")
    conn.close()
    result = CliRunner().invoke(cli, ["stats", "--count", "30", "--start", "10", "--db", str(db)])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "' is damaged: --salvage NEW copies its intact chunks" in result.stderr


def test_a_million_workers_are_refused_before_the_database_is_made(tmp_path: Path) -> None:
    from clitools import assert_bad_input
    from clitools import run as run_cli

    from kcsolve.common.workers import InvalidJobsError

    db = tmp_path / "r.sqlite3"
    assert_bad_input(
        run_cli("stats", "--jobs", "1000000", "--count", "1", "--db", str(db)),
        {"Invalid value for '--jobs': 1000000 is not in the range 1<=x<=256."},
    )
    assert not db.exists()
    store = ResultsStore(db)
    with pytest.raises(InvalidJobsError, match=r"got 1000000$"):
        run(store, parse_rules("standard"), 0, 1, jobs=1_000_000)
    store.close()


COUNTED = ("won", "lost", "undecided", "loss_reasons", "loss_deals")


def shared_deals(db: Path) -> int:
    """How many deals two stored chunks of one rule set both hold."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT rules, first, count FROM chunks ORDER BY rules, first").fetchall()
    conn.close()
    return sum(max(0, min(a + n, b + m) - b) for (r, a, n), (s, b, m) in itertools.pairwise(rows) if r == s)


@pytest.mark.parametrize("rules, count", [("standard", 3000), ("groups", 1000), ("optional+groups", 1000)])
@pytest.mark.slow
def test_two_writers_and_a_reader_at_once_give_the_counts_of_one_run(tmp_path: Path, rules: str, count: int) -> None:
    """Two runs over one range, with different chunk sizes, and a reader of its stored start, all started together.

    Each writer's counts, the reader's list and the store's counts are those of one run alone, and no deal is
    stored twice (an older kcsolve stored chunks sharing deals, counted them twice, then refused the store).
    """
    db = tmp_path / "shared.db"
    assert stats_json("--rules", rules, "--count", "100", "--db", str(db), "--jobs", "1")[0] == 0
    common = ("stats", "--rules", rules, "--db", str(db))
    # standard deals on the Python course: slow enough that the writers' runs overlap in time
    processes = [
        kcsolve_process(
            *common, "--count", str(count), "--jobs", jobs, "--format", "json", pure_python=rules == "standard"
        )
        for jobs in "12"
    ]
    processes.append(kcsolve_process(*common, "--count", "100", "--list", "won"))
    outputs = [process.communicate(timeout=120) for process in processes]
    assert [process.returncode for process in processes] == [0, 0, 0], outputs
    assert all(err == "" for _, err in outputs), outputs
    _, alone = stats_json("--rules", rules, "--count", str(count), "--db", str(tmp_path / "alone.db"), "--jobs", "1")
    for out, _ in outputs[:2]:
        assert {key: json.loads(out)[key] for key in COUNTED} == {key: alone[key] for key in COUNTED}
    listed = CliRunner().invoke(
        cli, ["stats", "--rules", rules, "--count", "100", "--db", str(tmp_path / "alone.db"), "--list", "won"]
    )
    assert outputs[2][0] == listed.stdout
    assert shared_deals(db) == 0 and stored(db) == count
    code, again = stats_json(*common[1:], "--count", str(count))
    assert (
        code == 0
        and again["solved_now"] == 0
        and {key: again[key] for key in COUNTED} == {key: alone[key] for key in COUNTED}
    )


def test_a_chunk_stores_only_the_deals_no_other_run_stored_meanwhile(tmp_path: Path) -> None:
    """Two stores open on one file, as two runs: chunks cut differently are written in turn, and none shares a deal."""
    from kcsolve.patience.stats.chunks import solve_chunk

    db = tmp_path / "r.db"
    one, other = ResultsStore(db), ResultsStore(db)
    one.add("standard", solve_chunk("standard", (100, 500, None), Budget()))
    for first, count in ((0, 300), (300, 400), (700, 50), (740, 100)):
        other.add("standard", solve_chunk("standard", (first, count, None), Budget()))
    one.add("standard", solve_chunk("standard", (650, 200, None), Budget()))
    assert [(c.first, c.count) for c in one.overlapping("standard", 0, 1000)] == [
        (0, 100),
        (100, 500),
        (600, 100),
        (700, 50),
        (750, 90),
        (840, 10),
    ]
    alone = ResultsStore(tmp_path / "alone.db")
    run(alone, parse_rules("standard"), 0, 850)
    assert one.tally("standard", 0, 850) == alone.tally("standard", 0, 850)
    assert b"".join(c for _, c in one.pieces("standard", 0, 850)) == b"".join(
        c for _, c in alone.pieces("standard", 0, 850)
    )
    for store in (one, other, alone):
        store.close()


def test_a_retried_deal_decided_meanwhile_by_another_run_stays_decided(tmp_path: Path) -> None:
    """Two runs retrying one chunk's undecided deals: the later merge never turns a verdict back to undecided."""
    db = tmp_path / "r.db"
    one, other = ResultsStore(db), ResultsStore(db)
    one.add(
        "groups",
        ChunkResult(
            0, 3, None, pack(bytes([WIN, UNDECIDED, UNDECIDED])), {WIN: 1, UNDECIDED: 2}, "auto", 0.1, "10", "nodes"
        ),
    )
    one.add(
        "groups",
        ChunkResult(0, 3, (1, 2), pack(bytes([WIN, UNDECIDED])), {WIN: 1, UNDECIDED: 1}, "auto", 0.1, "1000", "nodes"),
    )
    other.add(
        "groups",
        ChunkResult(0, 3, (1, 2), pack(bytes([UNDECIDED, UNDECIDED])), {UNDECIDED: 2}, "auto", 0.1, "1000", "nodes"),
    )
    assert b"".join(c for _, c in one.pieces("groups", 0, 3)) == bytes([WIN, WIN, UNDECIDED])
    one.close()
    other.close()
