"""Real processes started with a standard stream closed (``>&-``, ``<&-``, ``2>&-``): one line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CLOSED_OUTPUT = "Error: standard output is closed (to discard the output, use >/dev/null)\n"
CLOSED_INPUT = "Error: cannot read <stdin>: standard input is closed\n"
CLOSED_GAME_INPUT = "Error: standard input is closed: the game reads its commands there\n"


def kcsolve_closed(fd: int, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m kcsolve ARGS`` with descriptor ``fd`` closed, as a shell's ``>&-`` leaves it; the others piped."""
    return subprocess.run(
        [sys.executable, "-m", "kcsolve", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        preexec_fn=lambda: os.close(fd),
    )


def test_a_closed_standard_output_is_one_line_and_exit_2() -> None:
    done = kcsolve_closed(1, "--version")
    assert (done.returncode, done.stderr) == (2, CLOSED_OUTPUT)


def test_a_closed_standard_error_leaves_the_exit_status_to_the_result() -> None:
    """Exit 1 here would say "not winnable": the two deals were decided, so it is 0."""
    done = kcsolve_closed(2, "solve", "--seed", "0", "--count", "2")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "2 deals under standard: 1 winnable, 1 not, 0 undecided"


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--seed", "1"],
        ["rules"],
        ["solve", "--seed", "0"],
        ["verify", "game.json"],
        ["stats", "--count", "10", "--db", "results.sqlite3"],
        ["daily", "--date", "2026-11-01"],
        ["site", "--out", "site", "--from", "2026-11-01", "--days", "1"],
        ["corner", "deal"],
    ],
    ids=lambda args: args[0] if args[0] != "corner" else "corner-deal",
)
def test_every_command_refuses_a_closed_output_at_once(tmp_path: Path, args: list[str]) -> None:
    """Before any work: no database, no site, nothing made."""
    (tmp_path / "game.json").write_text("{}")
    done = kcsolve_closed(1, *args, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (2, CLOSED_OUTPUT)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.slow
@pytest.mark.parametrize("args", [["verify", "-"], ["solve", "-"]], ids=["verify", "solve"])
def test_reading_a_closed_standard_input_is_one_line(args: list[str]) -> None:
    done = kcsolve_closed(0, *args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", CLOSED_INPUT)


@pytest.mark.slow
@pytest.mark.parametrize("args", [["play", "--seed", "1"], ["corner", "play", "--seed", "1"]], ids=["play", "corner"])
def test_a_game_with_a_closed_standard_input_does_not_start(args: list[str]) -> None:
    done = kcsolve_closed(0, *args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", CLOSED_GAME_INPUT)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "status"),
    [(["solve", "--seed", "1"], 1), (["stats", "--count", "10", "--db", "results.sqlite3"], 0)],
    ids=["solve", "stats"],
)
def test_a_closed_standard_error_is_no_verdict(tmp_path: Path, args: list[str], status: int) -> None:
    done = kcsolve_closed(2, *args, cwd=tmp_path)
    assert done.returncode == status and done.stdout
