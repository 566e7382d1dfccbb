"""The PIMC and IS-MCTS agents of docs/examples run on the interface and choose legal actions; the benchmark
script's figure is read back from its log."""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
import sys
from types import ModuleType

import pytest
from clitools import load_file

from kcsolve.corner.spiel import KingsCornerGame, KingsCornerState

ROOT = pathlib.Path(__file__).resolve().parents[2]


def example(name: str) -> ModuleType:
    """A file of docs/examples as a module."""
    return load_file(ROOT / "docs" / "examples" / f"{name}.py")


def decision(rules: str, seed: int) -> KingsCornerState:
    """A state where a player has a choice, reached by random play."""
    rng = random.Random(seed)
    state = KingsCornerGame(2, rules).new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2 or len(state.history()) < 40:
        state.apply_action(rng.choice(state.legal_actions()))
        assert not state.is_terminal()
    return state


@pytest.mark.parametrize(("name", "choose"), [("corner_pimc", "pimc_action"), ("corner_ismcts", "ismcts_action")])
def test_the_agents_choose_legal_actions(name: str, choose: str) -> None:
    agent = getattr(example(name), choose)
    for seed, rules in enumerate(["default", "until_play=yes", "under=strict+tie=yes"]):
        state = decision(rules, seed)
        before = state.history()
        action = agent(state, random.Random(seed), 3)
        assert action in state.legal_actions() and state.history() == before


@pytest.mark.slow
@pytest.mark.parametrize("name", ["corner_pimc", "corner_ismcts"])
def test_the_examples_run_as_scripts(name: str) -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "examples" / f"{name}.py"), "1"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    assert out.endswith("of 1 hands against greedy\n")


def test_the_benchmark_summarises_its_log(tmp_path: pathlib.Path) -> None:
    log = tmp_path / "ismcts.jsonl"
    log.write_text("".join(json.dumps({"hand": h, "seat": h % 2, "won": float(h % 3 == 0)}) + "\n" for h in range(9)))
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench" / "bench_corner_ismcts.py"), "--summarise", str(log)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out == "IS-MCTS won 3 of 9 hands against search (33.3%, 95% 12.1% to 64.6%)\n"
