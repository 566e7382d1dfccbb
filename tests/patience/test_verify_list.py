"""`kcsolve verify` on a JSON list of records, as the daily page's Export all writes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import assert_bad_input, run, unwrapped

from kcsolve.common.files import MAX_TEXT, TOO_LONG
from kcsolve.patience.record import MAX_RECORD_LIST


@pytest.fixture(scope="module")
def games() -> tuple[dict, dict]:
    won = json.loads(run("solve", "--seed", "0", "--format", "json").stdout)
    lost = json.loads(run("solve", "--seed", "1", "--format", "json").stdout)
    return {**won, "daily": {"date": "2027-03-04"}}, lost


def test_each_game_gets_its_verdict_and_all_must_be_won(games: tuple[dict, dict], tmp_path: Path) -> None:
    won, lost = games
    both = run("verify", "-", input=json.dumps([won, {**lost, "result": "win"}]))
    assert both.exit_code == 1
    assert unwrapped(both.stdout) == [
        "game 1 (2027-03-04): won: the twelfth court card was placed as card 51; the page recorded: no help",
        "game 2: lost: grid full with nothing to remove after card 39 (the record claims 'win')",
        "2 games: 1 won",
    ]
    alone = run("verify", "-", input=json.dumps([won]))
    assert alone.exit_code == 0 and alone.stdout.splitlines()[-1] == "1 game: 1 won"
    assert run("verify", "-", input=json.dumps(won)).stdout.startswith("won: ")  # one record, as before


@pytest.mark.slow
@pytest.mark.parametrize(
    "make, message",
    [
        (lambda won: [], "<stdin>: a list of records must be a non-empty JSON list"),
        (lambda won: [won, 5], "<stdin>: game 2: a record must be a JSON object"),
        (lambda won: [won, {**won, "deck": ["<img src=x>"]}], "<stdin>: game 2 (2027-03-04): "),
        (lambda won: [won] * (MAX_RECORD_LIST + 1), f"<stdin>: {MAX_RECORD_LIST + 1:,} records, more than a list's "),
        (lambda won: [won, 1] + [0] * MAX_TEXT, f"<stdin>: {TOO_LONG}"),
        (lambda won: " " * MAX_TEXT + json.dumps(won), f"<stdin>: {TOO_LONG}"),
    ],
)
def test_a_bad_list_is_one_line(games: tuple[dict, dict], make, message: str) -> None:  # type: ignore[no-untyped-def]
    made = make(games[0])
    result = run("verify", "-", input=made if isinstance(made, str) else json.dumps(made))
    assert_bad_input(result, None)
    assert result.stderr.startswith(f"Error: {message}"), result.stderr
