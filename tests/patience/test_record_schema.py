"""Every kind of record kcsolve writes carries its format and validates against the shipped JSON Schema."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest
from clitools import run

from kcsolve.cli.base import shorten
from kcsolve.common.deal import deal
from kcsolve.patience.record import RECORD_FORMAT, parse_record
from kcsolve.patience.solve.route import solve

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads(files("kcsolve.patience").joinpath("schema/record.schema.json").read_text(encoding="utf-8"))


def valid(record: dict) -> dict:
    jsonschema.validate(record, SCHEMA)
    assert record["format"] == RECORD_FORMAT
    return record


def test_the_schema_is_itself_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "deplete", "camelot", "optional+groups", "royals"])
def test_solve_records_win_and_loss(rules: str) -> None:
    for seed in range(6):
        result = run("solve", "--seed", str(seed), "--rules", rules, "--format", "json")
        valid(json.loads(result.stdout))


def test_count_lines_and_undecided_records() -> None:
    for line in run("solve", "--seed", "0", "--count", "5", "--format", "json").stdout.splitlines():
        valid(json.loads(line))
    undecided = run(
        "solve", "--seed", "0", "--method", "dfs", "--rules", "optional", "--budget", "10", "--format", "json"
    )
    assert json.loads(undecided.stdout)["result"] == "unknown"
    valid(json.loads(undecided.stdout))


@pytest.mark.slow
def test_daily_solution_and_saved_game(tmp_path: Path) -> None:
    daily = json.loads(run("daily", "--date", "2027-01-01", "--format", "json").stdout)
    valid(daily["solution"])
    path = tmp_path / "game.json"
    run("play", "--seed", "0", "--plain", input=f"b2\nsave {path}\nquit\n")
    valid(json.loads(path.read_text()))


def test_library_records_carry_the_format_and_readers_accept_records_without_it() -> None:
    record = valid(solve(deal(0)).record(seed=0).to_json())
    del record["format"]
    assert parse_record(json.dumps(record)).result == "win"


def test_an_unknown_format_is_refused(tmp_path: Path) -> None:
    record = solve(deal(0)).record().to_json()
    record["format"] = "kcsolve-record/9"
    result = run("verify", "-", input=json.dumps(record))
    assert result.exit_code == 2
    message = "<stdin>: unknown record format 'kcsolve-record/9' (this kcsolve reads 'kcsolve-record/1')"
    assert result.stderr == f"Error: {shorten(message)}\n"
