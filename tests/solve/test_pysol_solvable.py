"""`kcsolve pysol-solvable`: PySolFC's solvable_seeds form, only proved wins, only numbers PySolFC deals alike."""

from __future__ import annotations

import ast
from pathlib import Path

from clitools import assert_bad_input, run

from kcsolve.patience.pysol import pysol_deal
from kcsolve.patience.record import is_win
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import solve


def test_output_is_a_solvable_seeds_module_of_proved_wins() -> None:
    result = run("pysol-solvable", "--from", "32000", "--count", "30")
    assert result.exit_code == 0 and result.stderr == ""
    tree = ast.parse(result.stdout)
    names = {node.targets[0].id: node.value for node in tree.body if isinstance(node, ast.Assign)}
    seeds = ast.literal_eval(names["SOLVABLE_SEEDS"])
    assert isinstance(seeds, tuple) and seeds == tuple(sorted(seeds)) and seeds
    assert all(32000 <= n < 32030 for n in seeds)
    camelot = parse_rules("camelot")
    for game in range(32000, 32030):
        solution = solve(pysol_deal(game), camelot)
        assert (game in seeds) == (solution.result == "win")
        if game in seeds:
            assert is_win(solution.record())
    assert f"# {len(seeds)} seeds, covering 32000-32029." in result.stdout


def test_numbers_below_32000_are_refused() -> None:
    assert_bad_input(
        run("pysol-solvable", "--from", "31999", "--count", "5"),
        "--from 31999: PySolFC's solvable_seeds hold game numbers >= 32000 only "
        "(below that its always-solvable games are dealt by another generator)",
    )
    assert_bad_input(run("pysol-solvable", "--from", "0"), None)


def test_the_published_verdict_table_reproduces(repo: Path) -> None:
    import random

    from kcsolve.patience.solve.camelot import camelot_verdict

    path = repo / "data" / "pysol-camelot-verdicts.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "game\tverdict\tcourts" and len(lines) == 100_001
    rows = [line.split("\t") for line in lines[1:]]
    assert [int(game) for game, _, _ in rows] == list(range(1, 100_001))
    for game, verdict, courts in random.Random(7).sample(rows, 25):
        assert camelot_verdict(int(game)) == (verdict, int(courts))
