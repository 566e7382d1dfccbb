"""`kcsolve verify` on a daily page's export: after the verdict of the moves, what the page recorded."""

from __future__ import annotations

import json
from typing import Any

import pytest
from clitools import assert_bad_input, run, unwrapped
from hypothesis import given, settings
from hypothesis import strategies as st

from kcsolve.common.deal import deal
from kcsolve.patience.record import judge, parse_record
from kcsolve.patience.recorded import HELP_KINDS, HELP_NAMES, DailyGame, read_daily, recorded_words

WON = "won: the twelfth court card was placed as card 51"
SMALL = {"deck": [str(card) for card in deal(0)], "moves": []}  # deal 0 unplayed: an unfinished game


@pytest.fixture(scope="module")
def won() -> dict[str, Any]:
    """The solver's win of deal 0 (70 moves), as a record with no daily object."""
    return json.loads(run("solve", "--seed", "0", "--format", "json").stdout)


def export(record: dict[str, Any], **daily: Any) -> dict[str, Any]:
    """``record`` as the daily page exports it, with ``daily`` in its daily object."""
    return {**record, "daily": {"date": "2027-03-04", "seed": "0", **daily}}


def verified(record: object) -> tuple[int, list[str]]:
    """Exit status and unwrapped lines of ``kcsolve verify -`` on ``record``."""
    result = run("verify", "-", input=json.dumps(record))
    return result.exit_code, unwrapped(result.stdout)


def test_the_page_recorded_words(won: dict[str, Any]) -> None:
    moves = len(won["moves"])
    first = {"status": "won", "moves": moves}
    helped = {"undo": 1, "hint": 2, "check": 0, "restart": 0, "solution": 0}
    cases = [
        ({"first": first}, "the page recorded: no help"),
        ({"help": helped, "first": {**first, "help": helped}}, "the page recorded: 1 undo, 2 hints"),
        ({"help": {"check": 3, "restart": 1}}, "the page recorded: 3 still-winnable checks, 1 restart"),
        (
            {"help": {"hint": 1, "solution": 1}, "first": {"status": "shown", "moves": 10, "help": {"solution": 1}}},
            "the page recorded: solution shown before the end",
        ),
        ({"first": first, "imported": True}, "the page recorded: no help; imported"),
        ({"first": first, "imported": False}, "the page recorded: no help"),
        (
            {"first": {**first, "moves": 3}},
            "the page recorded: no help (but its first finish, won in 3 moves, is not what the moves make)",
        ),
    ]
    for daily, words in cases:
        assert verified(export(won, **daily)) == (0, [f"{WON}; {words}"]), daily


def test_a_claimed_finish_the_moves_do_not_make_is_said(won: dict[str, Any]) -> None:
    cut = {**won, "moves": won["moves"][:10], "result": "unknown"}
    code, lines = verified(export(cut, first={"status": "lost", "moves": 10}))
    assert code == 1 and len(lines) == 1
    assert lines[0].endswith(
        "; the page recorded: no help (but its first finish, lost in 10 moves, is not what the moves make)"
    )


def test_a_list_says_it_game_by_game_on_one_line_each(won: dict[str, Any]) -> None:
    games = [
        export(won, help={"undo": 2}),
        {**export(won, imported=True), "daily": {"date": "2027-03-05", "imported": True}},
    ]
    result = run("verify", "-", input=json.dumps(games))
    assert result.exit_code == 0
    assert unwrapped(result.stdout) == [
        f"game 1 (2027-03-04): {WON}; the page recorded: 2 undos",
        f"game 2 (2027-03-05): {WON}; the page recorded: no help; imported",
        "2 games: 2 won",
    ]


def test_a_record_without_a_daily_object_is_told_as_before(won: dict[str, Any]) -> None:
    assert verified(won) == (0, [WON])


@pytest.mark.parametrize(
    "daily, message",
    [
        (5, "'daily' must be a JSON object, not 5"),
        ({}, "'daily.date' must be a date (YYYY-MM-DD), not null"),
        ({"date": "2027-02-30"}, "'daily.date' must be a date (YYYY-MM-DD), not \"2027-02-30\""),
        ({"date": "2027-03-04", "help": []}, "'daily.help' must be a JSON object, not []"),
        (
            {"date": "2027-03-04", "help": {"hint": -1}},
            "'daily.help.hint' must be a whole number from 0 to 100,000, not -1",
        ),
        (
            {"date": "2027-03-04", "help": {"undo": True}},
            "'daily.help.undo' must be a whole number from 0 to 100,000, not true",
        ),
        (
            {"date": "2027-03-04", "help": {"undo": 1.5}},
            "'daily.help.undo' must be a whole number from 0 to 100,000, not 1.5",
        ),
        ({"date": "2027-03-04", "first": "won"}, "'daily.first' must be a JSON object or null, not \"won\""),
        (
            {"date": "2027-03-04", "first": {"status": "draw"}},
            "'daily.first.status' must be one of won, lost, shown, not \"draw\"",
        ),
        (
            {"date": "2027-03-04", "first": {"status": "won"}},
            "'daily.first.moves' must be a whole number from 0 to 100,000, not null",
        ),
        (
            {"date": "2027-03-04", "first": {"status": "won", "moves": 70, "help": {"restart": "1"}}},
            "'daily.first.help.restart' must be a whole number from 0 to 100,000, not \"1\"",
        ),
        (
            {"date": "2027-03-04", "first": {"status": "won", "moves": 70, "help": {"hint": 1}}},
            "'daily.first.help' counts more help than 'daily.help'",
        ),
        ({"date": "2027-03-04", "imported": "yes"}, "'daily.imported' must be true or false, not \"yes\""),
    ],
)
def test_a_malformed_daily_object_is_refused_naming_the_field(won: dict[str, Any], daily: object, message: str) -> None:
    assert_bad_input(run("verify", "-", input=json.dumps({**won, "daily": daily})), f"<stdin>: {message}")
    listed = run("verify", "-", input=json.dumps([won, {**won, "daily": daily}]))
    assert_bad_input(listed, None)  # the whole list is refused, before any game's line
    assert listed.stderr.startswith("Error: <stdin>: game 2")


COUNTS = st.fixed_dictionaries({kind: st.integers(0, 100_000) for kind in HELP_KINDS})


@settings(max_examples=150, deadline=None)
@given(help_used=COUNTS, status=st.sampled_from([None, "won", "lost", "shown"]), imported=st.booleans())
def test_the_words_come_from_the_checked_counts(help_used: dict[str, int], status: str | None, imported: bool) -> None:
    record = parse_record(json.dumps(SMALL))
    first = None if status is None else {"status": status, "moves": 0, "help": help_used}
    game = read_daily({"daily": {"date": "2027-03-04", "help": help_used, "first": first, "imported": imported}}, "x")
    assert isinstance(game, DailyGame)
    words = recorded_words(game, judge(record))
    assert words.startswith("the page recorded: ") and "\n" not in words
    assert words.endswith("; imported") == imported
    for kind, name in HELP_NAMES.items():
        count = help_used[kind]
        assert (f"{count:,} {name}" in words) == bool(count), words
    assert ("solution shown" in words) == (bool(help_used["solution"]) or status == "shown")
    assert ("no help" in words) == (not any(help_used.values()) and status != "shown")
