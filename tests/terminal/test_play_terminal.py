"""`kcsolve play` in real terminals (tmux): one too small, one without cursor codes, one whose output is piped away."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time

import pytest
from clitools import tmux_rows, wait_for_screen

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@contextlib.contextmanager
def tmux(command: str, width: int = 80, height: int = 24):  # type: ignore[no-untyped-def]
    """A shell command in a detached tmux session of this size, its last screen kept; the session's name."""
    name = f"kcsolve-test-{os.getpid()}-{time.monotonic_ns()}"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height), command], check=True)
    subprocess.run(["tmux", "set-option", "-t", name, "remain-on-exit", "on"], check=True)
    try:
        yield name
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


def wait_for(name: str, text: str, limit: float = 30.0) -> str:
    """The screen once ``text`` shows on it."""
    deadline = time.monotonic() + limit
    while text not in (screen := "\n".join(tmux_rows(name))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert text in screen, screen
    return screen


def kcsolve(arguments: str) -> str:
    return f"{sys.executable} -m kcsolve {arguments}"


def test_a_terminal_too_small_is_told_so_in_lines_that_fit_and_the_board_comes_back_larger() -> None:
    with tmux(kcsolve("play --seed 0 --no-color"), width=40) as name:
        screen = wait_for(name, "this one is 40x24")
        assert "needs a terminal of 80x24 or more" in " ".join(screen.split())
        assert all(len(row.rstrip()) < 40 for row in tmux_rows(name))
        subprocess.run(["tmux", "resize-window", "-t", name, "-x", "80", "-y", "24"], check=True)
        subprocess.run(["tmux", "send-keys", "-t", name, "Enter"], check=True)
        rows = wait_for_screen(name, "Card 1 is turned: 8C.")
        assert rows[0] == "Deal 0, rules standard"


def test_a_dumb_terminal_gets_no_cursor_codes() -> None:
    """Line by line, as in a pipe: the opening line, then the grid, and the terminal never cleared."""
    with tmux(f"TERM=dumb {kcsolve('play --seed 0 --no-color --style line')} | od -c") as name:
        subprocess.run(["tmux", "send-keys", "-t", name, "quit", "Enter"], check=True)
        screen = wait_for(name, "B   y   e")
        assert "033" not in screen  # od -c shows an escape as \033


def test_a_game_whose_reader_leaves_stops_without_waiting_for_a_keystroke() -> None:
    with tmux(f"{kcsolve('play --seed 7')} | head -3; echo status=${{PIPESTATUS[0]}}") as name:
        screen = wait_for(name, "status=")
        assert "status=141" in screen and "+---+ +---+ +---+ +---+" in screen
