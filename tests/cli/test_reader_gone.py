"""Real processes whose output pipe loses its reader (``| head -1``): they stop at once, exit 141, say nothing.

Where the pipe's reading end is closed before kcsolve starts, no race against a
reader is possible; a reader who leaves after the first line shows a result
already reached keeping its status.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

READER_GONE = 141


def kcsolve_unread(*args: str, cwd: Path | None = None, limit: float = 30) -> subprocess.CompletedProcess[str]:
    """``python -m kcsolve ARGS`` writing to a pipe whose reader has already left; killed after ``limit`` seconds."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "kcsolve", *args],
            stdin=subprocess.DEVNULL,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=limit,
            cwd=cwd,
        )
    finally:
        os.close(write_end)


def test_a_long_run_stops_when_its_reader_has_gone() -> None:
    """A million deals would take minutes: the run stops at the first line."""
    done = kcsolve_unread("solve", "--seed", "0", "--count", "1000000")
    assert (done.returncode, done.stderr) == (READER_GONE, "")


def kcsolve_read_once(*args: str, cwd: Path | None = None, limit: float = 60) -> tuple[int, str]:
    """``python -m kcsolve ARGS`` whose reader takes its first line and leaves; its exit status and stderr."""
    with subprocess.Popen(
        [sys.executable, "-m", "kcsolve", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline()
        process.stdout.close()
        return process.wait(limit), process.stderr.read()


@pytest.mark.parametrize(("seed", "verdict"), [(0, 0), (1, 1)])
def test_one_deal_solved_keeps_its_verdict(seed: int, verdict: int) -> None:
    """The verdict was reached before its first line was printed: a reader leaving after it changes nothing."""
    assert kcsolve_read_once("solve", "--seed", str(seed)) == (verdict, "")


def test_a_run_writing_only_at_its_end_stops_when_its_reader_has_gone() -> None:
    """No write meets the closed pipe for minutes: kcsolve watches the pipe and stops at once."""
    done = kcsolve_unread("selfplay", "--player", "random", "--count", "100000000")
    assert (done.returncode, done.stderr) == (READER_GONE, "")


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["selfplay", "--player", "random", "--count", "10000000", "--format", "json"],
        ["selfplay", "--player", "random", "--count", "100000", "--jobs", "2", "--format", "json"],
        ["corner", "sim", "--games", "10000000", "--format", "json"],
        ["daily", "--date", "2026-01-01", "--days", "100000"],
        ["solve", "--pysol", "1", "--count", "1000000", "--format", "notation"],
        ["rules"],
    ],
    ids=["selfplay", "selfplay-jobs", "corner-sim", "daily", "pysol", "rules"],
)
def test_every_long_output_stops_when_its_reader_has_gone(args: list[str]) -> None:
    done = kcsolve_unread(*args)
    assert (done.returncode, done.stderr) == (READER_GONE, "")


@pytest.mark.slow
def test_stats_list_stops_and_keeps_the_store(tmp_path: Path) -> None:
    """The deals were solved and stored before the listing: the store is whole for the next run.

    The listing (about 250 KB) is larger than a pipe holds with the reader's first read: a listing that fits (3,000
    deals, 6 KB, as this test once had) may be written whole before the reader leaves, and then exit 0 is right.
    """
    status, said = kcsolve_read_once(
        "stats", "--count", "100000", "--list", "lost", "--db", "results.sqlite3", cwd=tmp_path
    )
    assert (status, said) == (READER_GONE, "")
    again = subprocess.run(
        [sys.executable, "-m", "kcsolve", "stats", "--count", "100000", "--db", "results.sqlite3"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert again.returncode == 0 and "this run solved 0 deals" in again.stdout


def test_a_command_that_ignores_its_interrupt_is_ended_when_its_reader_has_gone() -> None:
    """Code that swallows Ctrl-C cannot keep kcsolve working for no one: it is ended after a grace period."""
    script = (
        "import signal, sys, time\n"
        "from kcsolve.cli import base\n"
        "base.READER_GRACE = 0.2\n"
        "base.COMMAND_RUNNING.set()\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "base.watch_reader(sys.stdout.fileno())\n"
        "time.sleep(30)\n"
    )
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-c", script], stdout=write_end, stderr=subprocess.PIPE, timeout=20)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (READER_GONE, b"")
