"""Frozen verdicts: `auto` must reproduce a sample of every preset's verdict file (data/verdicts-PRESET.tsv).

The files were written by scripts/tools/freeze_verdicts.py; a change of verdict anywhere in
the solvers shows up here as a failing seed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kcsolve.common.deal import deal
from kcsolve.patience.rules import PRESETS
from kcsolve.patience.solve.route import solve

SEEDS = Path(__file__).resolve().parents[2] / "data"
SAMPLE = 40


def verdicts(preset: str) -> dict[int, str]:
    lines = (SEEDS / f"verdicts-{preset}.tsv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "seed\tverdict"
    table = {int(seed): verdict for seed, verdict in (line.split("\t") for line in lines[1:])}
    assert sorted(table) == list(range(10_000)) and set(table.values()) <= {"win", "loss"}
    return table


@pytest.mark.parametrize("preset", list(PRESETS))
def test_auto_reproduces_a_sample_of_the_frozen_verdicts(preset: str) -> None:
    table = verdicts(preset)
    for seed in random.Random(preset).sample(sorted(table), SAMPLE):
        assert solve(deal(seed), preset).result == table[seed], (preset, seed)


def test_the_frozen_files_agree_where_the_theory_says_they_must() -> None:
    assert verdicts("optional") == verdicts("standard") == verdicts("swap") == verdicts("royals")
    assert verdicts("camelot") == verdicts("deplete")
