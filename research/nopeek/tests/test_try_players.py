"""The candidate players of research/nopeek/tools/try_nopeek_players.py: honest by construction, and the run's log.

The candidates are not in the package (none beat the deep player, research/nopeek/NOTEBOOK.md),
but the figures quoted for them come from this script, so it is held to the same
contract: the same view gives the same move whatever the order of the unseen
cards, and every win it logs was replayed by the checker.
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kcsolve.patience.engine import PlayerView, Status
from kcsolve.patience.rules import STANDARD
from tests.players.test_player_view import ORDERS, played_to, reordered

LOGS = Path(__file__).resolve().parents[1] / "logs"  # the runs quoted by the docs

ROOT = Path(__file__).resolve().parents[3]
TOOL = "research.nopeek.tools.try_nopeek_players"


@pytest.fixture(scope="module")
def tried() -> ModuleType:
    """The script, imported as a module."""
    return importlib.import_module(TOOL)


def candidate_moves(tried: ModuleType, view: PlayerView, seed: int) -> list[str]:
    """The moves of the candidates that need no table, each on a small budget."""
    budgets = {"lookahead": 2, "rollouts": 40, "tiebreak": 40, "uct": 200}
    return [str(tried.CANDIDATES[name](view, seed, orders)) for name, orders in budgets.items()]


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_the_candidates_move_alike_whatever_the_order_of_the_unseen_cards(
    tried: ModuleType, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every candidate but the table one (it needs 3.2 GB), with the deal itself out of their reach."""

    def no_deck(number: int) -> None:
        raise AssertionError(f"a candidate dealt deal {number} again")

    monkeypatch.setattr(tried, "deal", no_deck)
    moves = 0
    for depth in (6, 14, 22, 30):
        position = played_to(seed, STANDARD, depth)
        if position.outcome().status is not Status.UNFINISHED:
            continue
        view = position.view()
        want = candidate_moves(tried, view, seed)
        for how in ORDERS:
            other = reordered(position, how, random.Random(seed)).view()
            assert other == view
            assert candidate_moves(tried, other, seed) == want
        moves += 1
    assert moves >= 2


@pytest.mark.slow
def test_the_run_logs_each_game_once_and_compares_the_players(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    command = [
        sys.executable,
        "-m",
        TOOL,
        "--player",
        "lookahead",
        "--orders",
        "2",
        "--from",
        "400011",
        "--count",
        "3",
    ]
    first = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, check=True, cwd=ROOT)
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((g["player"], g["deal"]) for g in games) == [
        (player, deal) for player in ("deep", "lookahead") for deal in (400011, 400012, 400013)
    ]
    found = json.loads(first.stdout.splitlines()[-1])
    for player in ("deep", "lookahead"):
        assert found[player]["wins"] == sum(g["won"] for g in games if g["player"] == player)
    won = {(g["player"], g["deal"]) for g in games if g["won"]}
    assert found["only_lookahead"] == sum(
        ("lookahead", d) in won and ("deep", d) not in won for d in range(400011, 400014)
    )
    assert found["only_deep"] == sum(("deep", d) in won and ("lookahead", d) not in won for d in range(400011, 400014))
    again = subprocess.run([*command, "--out", str(out)], capture_output=True, text=True, check=True, cwd=ROOT)
    assert len(out.read_text().splitlines()) == len(games)  # nothing played twice
    assert json.loads(again.stdout.splitlines()[-1]) == found


def test_headroom_charges_nothing_to_a_player_who_is_exact_there() -> None:
    """With ten unseen cards or fewer the deep player plays the exact chances, so its choices cost nothing."""
    headroom = importlib.import_module("research.nopeek.tools.nopeek_headroom")
    headroom.UNSEEN = 10
    found = [headroom.charges(seed) for seed in range(400100, 400130)]
    assert sum(choices for choices, _, _ in found) >= 5
    assert all(deep == 0.0 and quick >= 0.0 for _, quick, deep in found)
    assert any(quick > 0.0 for _, quick, _ in found)  # the quick rule is not exact, and the charge sees it


def test_the_table_in_the_notebook_is_the_log_of_the_run(tried: ModuleType) -> None:
    """The notebook's rows for the candidates are recomputed from logs/try-nopeek-players.jsonl, each game once."""
    lines = (LOGS / "try-nopeek-players.jsonl").read_text().splitlines()
    games = {(g["player"], g["orders"], g["deal"]): g for g in map(json.loads, lines)}
    assert len(games) == len(lines) == 6000
    page = " ".join((LOGS.parent / "NOTEBOOK.md").read_text().split())
    labels = {
        "lookahead": "lookahead, 8 orders per next rank",
        "rollouts": "rollouts, 1,000 per option",
        "table": "table (the rearranging value)",
        "tiebreak": "tiebreak, 500 playouts per tied option",
        "uct": "uct, 2,000 simulations per option",
    }

    def share(side: dict) -> str:
        low, high = side["ci95"]
        return f"{side['wins']} ({side['wins'] / 10:.2f}%, {low:.2%} to {high:.2%})"

    for name, orders in (("lookahead", 8), ("rollouts", 1000), ("table", 0), ("tiebreak", 500), ("uct", 2000)):
        found = tried.summary(name, orders, games, 400000, 1000)
        mine, deep = found[name], found["deep"]
        row = (
            f"| {labels[name]} | {share(mine)} | {share(deep)} | {found['only_' + name]} / {found['only_deep']} "
            f"| {found['mcnemar_z']:+.2f} | {mine['cpu_seconds_per_game']:.2f} / {deep['cpu_seconds_per_game']:.2f} |"
        )
        assert row in page, row


def test_deep_on_the_issues_deals_is_the_figure_quoted() -> None:
    """data/deep-200000.json holds one entry per won deal: the wins and interval the notebook and PLAYERS quote."""
    found = json.loads((ROOT / "data" / "deep-200000.json").read_text())
    first, last = found["deals"]
    assert found["games"] == last - first + 1 == 10000
    assert len(set(found["won"])) == len(found["won"]) == found["wins"]
    assert all(first <= deal <= last for deal in found["won"])
    low, high = found["ci95"]
    quoted = f"won {found['wins']} of deals 200,000..209,999 ({found['wins'] / 100:.2f}%, {low:.2%} to {high:.2%};"
    assert quoted in " ".join((LOGS.parent / "NOTEBOOK.md").read_text().split())
    players = " ".join((ROOT / "docs" / "PLAYERS.md").read_text().split())
    assert f"The deep player itself won {found['wins']} of the issue's deals ({found['wins'] / 100:.2f}%;" in players


def test_the_headroom_quoted_is_the_log_of_the_runs() -> None:
    """The notebook's headroom rows are logs/nopeek-headroom.jsonl's, one line per number of unseen cards."""
    page = " ".join((LOGS.parent / "NOTEBOOK.md").read_text().split())
    for line in (LOGS / "nopeek-headroom.jsonl").read_text().splitlines():
        found = json.loads(line)
        row = (
            f"| {found['unseen']} | {found['choices']} | {found['quick_loss']:.2f} games "
            f"({found['quick_points_a_game']:.3f} points a game) | {found['deep_loss']:.2f} games "
            f"({found['deep_points_a_game']:.3f} points a game) |"
        )
        assert found["deals"] == [400100, 400999] and row in page, row
