"""The strong player and ``kcsolve selfplay``: every rule set played, records that verify, bad input refused."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from itertools import product
from pathlib import Path

import pytest

from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.selfplay import UnknownPlayerError, make_player, play_deal
from kcsolve.patience.players.strong import course, seen_order_wins, strong_player
from kcsolve.patience.rules import AXES, STANDARD, Rules, parse_rules
from kcsolve.patience.solve.theory import course_end
from tests.clitools import alive, assert_bad_input, children, kcsolve_process, run, write

ALL_RULES = [Rules(*combo) for combo in product(*AXES.values())]


def test_there_are_36_rule_sets() -> None:
    assert len(set(ALL_RULES)) == 36


@pytest.mark.slow
@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_the_strong_player_finishes_a_legal_game_under_every_rule_set(rules: Rules) -> None:
    position = Position.start(deal(3), rules)
    while position.outcome().status is Status.UNFINISHED:
        move = strong_player(position.view(), seed=3, samples=4)
        assert move in position.legal_moves()
        position = position.play(move)


def test_a_seen_order_is_never_judged_won_when_the_deal_is_lost() -> None:
    """From the opening, the scheduling judge matches the exact verdict on nearly every deal, and never claims more."""
    agree = 0
    for seed in range(300):
        ranks = list(deal_ranks(seed))
        judged = seen_order_wins([[], [], [], []], [0, 0, 0, 0], course([0] * 11, 0, ranks, False, STANDARD))
        exact = course_end(ranks, STANDARD)[0]
        assert not judged or exact, seed
        agree += judged == exact
    assert agree >= 0.97 * 300


@pytest.mark.long
def test_the_strong_player_beats_the_greedy_player() -> None:
    strong = sum(play_deal("strong", seed, STANDARD).won for seed in range(200))
    greedy = sum(play_deal("greedy", seed, STANDARD).won for seed in range(200))
    assert strong > greedy + 10, (strong, greedy)


def test_an_unknown_player_is_refused_by_the_library() -> None:
    with pytest.raises(UnknownPlayerError, match="'champion'"):
        make_player("champion", 0)


def test_selfplay_text_reports_games_wins_interval_and_time() -> None:
    result = run("selfplay", "--player", "greedy", "--count", "12", "--seed", "5")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "player greedy, rules standard, deals 5..16"
    assert re.fullmatch(
        r"games 12, wins \d+, win rate \d+\.\d\d% \(95% interval \d+\.\d\d% to \d+\.\d\d%\)", lines[1]
    ), lines[1]
    assert re.fullmatch(r"\d+\.\d{3} CPU seconds per game", lines[2]), lines[2]


@pytest.mark.slow
def test_selfplay_json_records_verify(tmp_path: Path) -> None:
    result = run("selfplay", "--player", "strong", "--count", "5", "--rules", "royals", "--format", "json")
    assert result.exit_code == 0, result.stderr
    *games, summary = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(games) == 5 and summary["games"] == 5 and summary["player"] == "strong"
    assert summary["wins"] == sum(g["result"] == "win" for g in games) > 0
    low, high = summary["ci95"]
    assert low <= summary["win_rate"] <= high
    for game in games:
        assert parse_rules(game["rules"]) == parse_rules("royals") and game["seed"] in range(5)
        verdict = run("verify", write(tmp_path, game))
        assert verdict.exit_code == (0 if game["result"] == "win" else 1), verdict.stdout


def test_selfplay_with_two_jobs_plays_the_same_games() -> None:
    one = run("selfplay", "--player", "random", "--count", "6", "--format", "json").stdout
    two = run("selfplay", "--player", "random", "--count", "6", "--jobs", "2", "--format", "json").stdout
    strip = [json.loads(line) for line in one.splitlines()][:-1]
    assert strip == [json.loads(line) for line in two.splitlines()][:-1]


def test_selfplay_refuses_an_unknown_player() -> None:
    assert_bad_input(
        run("selfplay", "--player", "champion"),
        "unknown player 'champion' (players: random, greedy, quick, strong, deep)",
    )


def test_selfplay_refuses_bad_rules_and_seeds() -> None:
    assert_bad_input(run("selfplay", "--rules", "nonsense"), None)
    assert_bad_input(run("selfplay", "--seed", "-1"), None)


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["selfplay", "--player", "strong", "--count", "2000", "--jobs", "2"],
        ["corner", "sim", "--players", "3", "--bots", "search", "--games", "5000", "--jobs", "2"],
    ],
    ids=["selfplay", "corner sim"],
)
def test_ctrl_c_stops_a_pool_at_once_and_its_workers_with_it(command: list[str]) -> None:
    """Ctrl-C: exit 130 within two seconds, no traceback, and every worker gone."""
    process = kcsolve_process(*command)
    deadline = time.monotonic() + 30
    while len(workers := children(process.pid)) < 2:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    time.sleep(1.0)  # let them get well into their games
    process.send_signal(signal.SIGINT)
    began = time.monotonic()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and time.monotonic() - began < 2.0, err
    assert "Traceback" not in err
    time.sleep(0.5)
    assert not [w for w in workers if alive(w)]


def test_a_map_left_mid_task_leaves_no_pool_thread_for_the_exit_hook() -> None:
    """Python 3.11's exit hook writes to the wakeup pipe of every live pool thread, racing that thread's close.

    Stopping a map must end the pool's manager thread before returning, so
    the hook finds every pipe closed; the Ctrl-C test above saw the race in
    about one run of forty, this sees its cause every time.
    """
    import threading

    from kcsolve.common.workers import ordered_map

    before = set(threading.enumerate())
    results = ordered_map(time.sleep, [(0.0,)] + [(30.0,)] * 6, 2)
    assert next(results) is None
    results.close()
    assert not [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]


def test_workers_of_a_killed_pool_do_not_outlive_it() -> None:
    """SIGKILL of the main process: the kernel ends its workers too (no orphans)."""
    process = kcsolve_process("selfplay", "--player", "strong", "--count", "2000", "--jobs", "2")
    deadline = time.monotonic() + 30
    while len(workers := children(process.pid)) < 2:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    process.kill()
    process.communicate(timeout=30)
    deadline = time.monotonic() + 5
    while [w for w in workers if alive(w)]:
        assert time.monotonic() < deadline, "orphaned workers"
        time.sleep(0.05)


def test_a_worker_whose_parent_died_before_it_started_leaves_at_once() -> None:
    """The parent is named by the parent: a worker started after its death must not adopt init as its parent."""
    code = "from kcsolve.common.workers import worker_start; worker_start(1); print('still here')"
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False)
    assert (started.returncode, started.stdout, started.stderr) == (1, "", "")


@pytest.mark.parametrize("jobs", [0, 257, 1_000_000, True, 2.0])
def test_selfplay_refuses_a_number_of_workers_it_cannot_fork(jobs: object) -> None:
    """Each worker is forked at the pool's first task: a million of them is refused before any is started."""
    from kcsolve.common.workers import InvalidJobsError
    from kcsolve.patience.players.selfplay import selfplay

    with pytest.raises(InvalidJobsError, match=r"^worker processes must be a whole number from 1 to 256, got "):
        next(selfplay("random", 0, 1, STANDARD, jobs))  # type: ignore[arg-type]


def test_selfplay_command_refuses_a_million_workers() -> None:
    assert_bad_input(
        run("selfplay", "--jobs", "1000000", "--count", "1"),
        {"Invalid value for '--jobs': 1000000 is not in the range 1<=x<=256."},
    )
