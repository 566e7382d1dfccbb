"""The page's store of games (web/store.mjs) under node: streaks, the import check, exports `kcsolve verify` accepts."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest
from clitools import run

from kcsolve.common.deal import deal
from kcsolve.patience.daily.calendar import candidate_seed
from kcsolve.patience.rules import parse_rules

CHECK = Path(__file__).parent / "js" / "store_check.mjs"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")
BAD = "<img src=x onerror=alert(1)>"


def store(tmp_path: Path, cases: dict) -> dict:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"statistics": [], "check": [], "export": [], "import": [], "deals": [], **cases}))
    done = subprocess.run([NODE, str(CHECK), str(path)], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def won(day: str, **help: int) -> dict:
    return {"moves": [{}], "daily": {"date": day, "first": {"status": "won", "moves": 1, "help": help}}}


def test_streaks_and_wins_by_help(tmp_path: Path) -> None:
    entries = [
        won("2027-02-27", undo=2),
        won("2027-03-01"),
        won("2027-03-02", hint=1),
        won("2027-03-03"),
        {"moves": [{}], "daily": {"date": "2027-03-04", "first": {"status": "lost", "moves": 9, "help": {}}}},
        won("2027-03-05", undo=1, hint=3),
        won("2027-03-06"),
        {"moves": [{}], "daily": {"date": "2027-03-07", "first": None}},
        {"moves": [], "daily": {"date": "2027-03-09", "first": None}},
    ]
    got = store(
        tmp_path,
        {"statistics": [{"entries": entries, "today": day} for day in ("2027-03-06", "2027-03-07", "2027-03-08")]},
    )["statistics"]
    assert [(s["current"], s["best"]) for s in got] == [(2, 3), (2, 3), (0, 3)]  # today unplayed keeps yesterday's run
    assert got[0]["played"] == 8 and got[0]["won"] == 6 and got[0]["percent"] == 75
    assert got[0]["byHelp"] == {"none": 3, "undo": 2, "hint": 2, "check": 0, "restart": 0, "solution": 0}
    assert got[0]["results"] == {"won": 3, "helped": 3, "shown": 0, "lost": 1, "playing": 1}  # what the archive marks


@pytest.fixture(scope="module")
def solution() -> dict:
    record = json.loads(run("solve", "--seed", "0", "--format", "json").stdout)
    return {
        "format": "kcsolve-record/1",
        "deck": record["deck"],
        "rules": "standard",
        "result": "unknown",
        "moves": record["moves"],
        "daily": {"date": "2027-03-01", "seed": "18433009452358771055", "help": {"undo": 1}, "first": None},
    }


def test_an_export_is_a_record_verify_accepts(tmp_path: Path, solution: dict) -> None:
    answers = store(tmp_path, {"check": [solution]})
    entry = answers["check"][0]["entry"]
    assert entry["result"] == "win" and entry["daily"]["help"]["undo"] == 1  # the result is replayed, not believed
    text = store(tmp_path, {"export": [entry]})["export"][0]
    path = tmp_path / "game.json"
    path.write_text(text)
    assert json.loads(text)["seed"] == 18433009452358771055  # written as the exact integer, past 2**53
    verdict = run("verify", str(path))
    assert verdict.exit_code == 0 and verdict.stdout.startswith("won: ")


@pytest.mark.slow
@pytest.mark.parametrize(
    "change, words",
    [
        ({"format": BAD}, "unknown format"),
        ({"deck": [BAD] * 52}, "deck card 1 is not a card"),
        ({"rules": BAD}, "'rules' is not a rule set"),
        ({"result": BAD}, "'result' must be win, loss or unknown"),
        ({"moves": [{"place": BAD, "cell": BAD}]}, "move 1 is not a placement"),
        ({"moves": [{"place": "KS", "cell": "a1"}]}, "illegal move 1: place KS in a1"),
        ({"daily": {"date": BAD}}, "'daily.date' is not a date"),
        ({"daily": {"date": "2027-02-30"}}, "'daily.date' is not a date"),
        ({"daily": {"date": "2027-03-01", "seed": BAD}}, "'daily.seed' must be a deal number"),
        ({"daily": {"date": "2027-03-01", "help": {"undo": BAD}}}, "'daily.help'.undo must be a whole number"),
        ({"daily": {"date": "2027-03-01", "first": {"status": BAD}}}, "'daily.first.status' must be one of"),
        ({"daily": None}, "no 'daily' object"),
    ],
)
def test_an_import_is_checked_field_by_field(tmp_path: Path, solution: dict, change: dict, words: str) -> None:
    refused = store(tmp_path, {"check": [{**solution, **change}]})["check"][0]
    assert "refused" in refused and words in refused["refused"], refused


def test_a_finish_is_believed_only_from_the_moves(tmp_path: Path, solution: dict) -> None:
    moves = len(solution["moves"])
    first = {"status": "won", "moves": moves, "help": {"undo": 1}}
    finished = {**solution, "daily": {**solution["daily"], "first": first}}
    claimed = {
        **finished,
        "moves": solution["moves"][:5],
        "daily": {**finished["daily"], "first": {**first, "moves": 5}},
    }
    undone_since = {**claimed, "daily": {**claimed["daily"], "help": {"undo": 2}, "first": first}}
    more_help = {**finished, "daily": {**finished["daily"], "first": {**first, "help": {"undo": 1, "hint": 1}}}}
    lost = {**finished, "daily": {**finished["daily"], "first": {**first, "status": "lost"}}}
    answers = store(tmp_path, {"check": [finished, claimed, undone_since, more_help, lost]})["check"]
    assert answers[0]["entry"]["daily"]["first"]["status"] == "won"
    assert "'daily.first' says won in 5 moves, but the moves end unfinished" in answers[1]["refused"]
    # An undo after the end no longer excuses the moves: the page freezes a finished game (play on is practice).
    assert f"'daily.first' says won in {moves} moves, but the moves end unfinished" in answers[2]["refused"]
    assert "'daily.first.help' counts more help than 'daily.help'" in answers[3]["refused"]
    assert f"'daily.first' says lost in {moves} moves, but the moves end won" in answers[4]["refused"]


def test_an_export_meets_the_record_schema(tmp_path: Path, solution: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(files("kcsolve.patience").joinpath("schema/record.schema.json").read_text(encoding="utf-8"))
    finished = {
        **solution,
        "daily": {
            **solution["daily"],
            "first": {"status": "won", "moves": len(solution["moves"]), "help": {"undo": 1}},
        },
    }
    entries = [answer["entry"] for answer in store(tmp_path, {"check": [solution, finished]})["check"]]
    for text in store(tmp_path, {"export": entries})["export"]:
        jsonschema.validate(json.loads(text), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**json.loads(text), "daily": {"date": "2027-03-01", "first": {"status": "won"}}}, schema)


DAY = "2027-03-04"
ATTEMPT = 1  # the first winnable candidate of DAY under standard rules


def test_the_deal_of_a_date_is_worked_out_as_python_does(tmp_path: Path) -> None:
    asked = [(DAY, "standard", ATTEMPT), ("2030-12-31", "camelot", 0), ("2027-01-01", "optional+goal=clear", 7)]
    cases = [{"date": d, "rules": str(parse_rules(r)), "attempt": k} for d, r, k in asked]
    got = store(tmp_path, {"deals": cases})["deals"]
    for (day, rules, attempt), answer in zip(asked, got):
        seed = candidate_seed(dt.date.fromisoformat(day), parse_rules(rules), attempt)
        assert answer == {"seed": str(seed), "deck": [str(card) for card in deal(seed)]}


@pytest.fixture(scope="module")
def site_game() -> dict:
    """A won game of the site's deal of DAY, as the page exports it."""
    seed = candidate_seed(dt.date.fromisoformat(DAY), parse_rules("standard"), ATTEMPT)
    record = json.loads(run("solve", "--seed", str(seed), "--format", "json").stdout)
    assert record["result"] == "win"
    moves = record["moves"]
    return {
        "format": "kcsolve-record/1",
        "deck": record["deck"],
        "rules": "standard",
        "result": "win",
        "moves": moves,
        "daily": {
            "date": DAY,
            "seed": str(seed),
            "help": {},
            "first": {"status": "won", "moves": len(moves), "help": {}},
        },
    }


def imported(tmp_path: Path, *files: object, runs: list | None = None) -> list[dict]:
    """Each file's import answer on a site of DAY and the next day (DAY's own candidate, then 0)."""
    runs = runs or [[DAY, [ATTEMPT, 0]]]
    cases = [{"text": json.dumps(f), "rules": "standard", "runs": runs} for f in files]
    return store(tmp_path, {"import": cases})["import"]


def test_an_import_of_the_sites_own_deal_is_taken(tmp_path: Path, site_game: dict) -> None:
    [answer] = imported(tmp_path, site_game)
    assert answer["entries"][0]["daily"]["first"]["status"] == "won" and answer["entries"][0]["result"] == "win"


def test_a_short_record_claiming_a_long_win_after_an_undo_is_refused(tmp_path: Path, site_game: dict) -> None:
    """The issue's first lie: 3 moves that claim a 70-move win, and an undo after the end to excuse them."""
    claimed = {
        **site_game,
        "moves": site_game["moves"][:3],
        "daily": {**site_game["daily"], "help": {"undo": 1}, "first": {"status": "won", "moves": 70, "help": {}}},
    }
    [answer] = imported(tmp_path, claimed)
    assert answer["refused"] == "the game: 'daily.first' says won in 70 moves, but the moves end unfinished"


@pytest.mark.slow
def test_copies_of_one_deck_on_made_up_dates_are_refused(tmp_path: Path, site_game: dict) -> None:
    """The issue's second lie: 1,500 copies of one won deck, each on another date, made 1502 wins."""
    start = dt.date.fromisoformat(DAY)
    copies = [
        {**site_game, "daily": {**site_game["daily"], "date": (start + dt.timedelta(days=k)).isoformat()}}
        for k in range(1500)
    ]
    whole, outside = imported(tmp_path, copies, copies[2:])
    assert whole["refused"].startswith("game 2: deal ") and "is not the deal of 2027-03-05" in whole["refused"]
    assert outside["refused"] == "game 1: 2027-03-06 is not a date of this site"


@pytest.mark.parametrize(
    "change, words",
    [
        ({"daily": {"date": "2027-03-05"}}, "the game: the deck is not the deal of 2027-03-05"),
        ({"daily": {"date": "2027-03-09"}}, "the game: 2027-03-09 is not a date of this site"),
        ({"daily": {"seed": "12345"}}, "the game: deal 12345 is not the deal of 2027-03-04"),
        ({"rules": "camelot"}, 'the game: rules "camelot", but this site deals under "standard"'),
        (
            {"result": "win", "daily": {"first": {"status": "lost", "moves": 3, "help": {}}}},
            "the game: 'daily.first' says lost in 3 moves, but the moves end won",
        ),
    ],
)
def test_an_import_is_held_to_the_sites_deals(tmp_path: Path, site_game: dict, change: dict, words: str) -> None:
    daily = {**site_game["daily"], **change.pop("daily", {})}
    if daily["date"] != DAY and "seed" not in change:
        daily.pop("seed")  # the deck is judged, not only the number
    [answer] = imported(tmp_path, {**site_game, **change, "daily": daily})
    assert "refused" in answer and answer["refused"].startswith(words), answer


def test_one_date_twice_in_a_file_is_refused(tmp_path: Path, site_game: dict) -> None:
    [answer] = imported(tmp_path, [site_game, site_game])
    assert answer["refused"] == "the file holds one date twice"
