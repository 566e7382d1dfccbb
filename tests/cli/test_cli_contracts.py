"""Contracts of the command line a new user met: wording, refusals, default budgets, progress on a terminal."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import pytest
from clitools import assert_bad_input, run, verdict_sentences

from kcsolve.common.deal import deal
from kcsolve.patience.solve.route import solve


def test_deplete_wins_say_the_stock_is_empty() -> None:
    result = run("solve", "--seed", "0", "--count", "1", "--rules", "deplete")
    assert result.stdout.splitlines()[0].startswith(
        "seed 0: win (all twelve court cards are placed and the stock is empty; "
    )
    assert result.stdout.splitlines()[-1] == "1 deal under deplete: 1 winnable, 0 not, 0 undecided"


@pytest.mark.parametrize(
    "method, rules, others",
    [
        ("sat", "groups", "auto, course, dfs"),
        ("construct", "groups", "auto, course, dfs"),
        ("construct", "camelot+groups", "auto, course, dfs"),
        ("sat", "optional", "auto, construct, course, dfs"),
        ("sat", "camelot", "auto, construct, course, dfs"),
    ],
)
def test_methods_that_do_not_cover_the_rules_refuse_alike(method: str, rules: str, others: str) -> None:
    assert_bad_input(
        run("solve", "--seed", "1", "--rules", rules, "--method", method),
        f"method {method!r} does not cover rules {rules!r}; methods for them: {others}",
    )


def test_the_default_budget_is_stated_and_applied() -> None:
    assert "[default: 1000000 nodes]" in " ".join(run("solve", "--help").stdout.split())
    assert "default 1000000 nodes" in " ".join(run("stats", "--help").stdout.split())


def test_budget_wording_counts_what_was_searched() -> None:
    seed = next(s for s in range(50) if solve(deal(s)).result == "win")
    result = run("solve", "--seed", str(seed), "--method", "dfs", "--budget", "10", "--rules", "optional")
    assert result.exit_code == 3
    assert result.stdout.splitlines()[-1] == "Undecided: the search budget (10 positions) ran out after 10 positions."


def test_no_search_is_not_called_zero_positions() -> None:
    line = verdict_sentences(run("solve", "--seed", "5747").stdout)[-2]
    assert "no search needed" in line and "0 positions" not in line


def test_json_error_wording() -> None:
    assert_bad_input(
        run("verify", "-", input='{"deck": "AS'), "<stdin>: not valid JSON (Unterminated string starting at line 1)"
    )


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_long_search_shows_progress_on_a_terminal_only() -> None:
    name = f"kcsolve-progress-{os.getpid()}"
    command = f"{sys.executable} -m kcsolve solve --seed 2 --rules camelot+groups --method dfs --budget 4s; sleep 30"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", command], check=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout
            if re.search(r"solving with dfs  \d+ s \(Ctrl-C stops\)", screen) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert re.search(r"solving with dfs  \d+ s \(Ctrl-C stops\)", screen), screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    piped = subprocess.run(
        [
            sys.executable,
            "-m",
            "kcsolve",
            "solve",
            "--seed",
            "2",
            "--rules",
            "camelot+groups",
            "--method",
            "dfs",
            "--budget",
            "2s",
        ],
        capture_output=True,
        text=True,
    )
    assert piped.returncode == 3 and piped.stderr == ""
