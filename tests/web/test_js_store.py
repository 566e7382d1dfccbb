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
from kcsolve.patience.record import parse_record
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


def won(day: str, on: str | None = "", **help: int) -> dict:
    """A won first finish of ``day``, reached on ``on`` (the day itself unless given; None: an old entry without it)."""
    first = {"status": "won", "moves": 1, "help": help, **({} if on is None else {"on": on or day})}
    return {"moves": [{}], "daily": {"date": day, "first": first}}


def lost(day: str) -> dict:
    return {"moves": [{}], "daily": {"date": day, "first": {"status": "lost", "moves": 9, "help": {}, "on": day}}}


def test_streaks_and_wins_by_help(tmp_path: Path) -> None:
    """Won means won with no help (one meaning everywhere); a finish with help is counted by its kinds of help."""
    entries = [
        won("2027-02-27", undo=2),
        won("2027-03-01"),
        won("2027-03-02"),
        won("2027-03-03"),
        lost("2027-03-04"),
        won("2027-03-05", undo=1, hint=3),  # finished with help: not a win, so it breaks the run
        won("2027-03-06"),
        {"moves": [{}], "daily": {"date": "2027-03-07", "first": None}},
        {"moves": [], "daily": {"date": "2027-03-09", "first": None}},
    ]
    got = store(
        tmp_path,
        {"statistics": [{"entries": entries, "today": day} for day in ("2027-03-06", "2027-03-07", "2027-03-08")]},
    )["statistics"]
    assert [(s["current"], s["best"]) for s in got] == [(1, 3), (1, 3), (0, 3)]  # today unplayed keeps yesterday's run
    assert got[0]["played"] == 7 and got[0]["won"] == 4 and got[0]["percent"] == 57
    assert got[0]["byHelp"] == {"none": 4, "undo": 2, "hint": 1, "check": 0, "restart": 0, "solution": 0}
    assert got[0]["results"] == {"won": 4, "helped": 2, "shown": 0, "lost": 1, "playing": 1}  # what the archive marks


def stats_of(tmp_path: Path, entries: list[dict], today: str) -> dict:
    return store(tmp_path, {"statistics": [{"entries": entries, "today": today}]})["statistics"][0]


def test_a_game_is_played_when_it_ends(tmp_path: Path) -> None:
    """A game begun does not lower the win rate: 1 won and 1 in progress is 1 played, 100%."""
    begun = {"moves": [{}, {}], "daily": {"date": "2027-03-02", "first": None}}
    got = stats_of(tmp_path, [won("2027-03-01"), begun], "2027-03-02")
    assert (got["played"], got["won"], got["percent"]) == (1, 1, 100)
    assert got["results"]["playing"] == 1


def test_a_win_with_help_is_not_a_win(tmp_path: Path) -> None:
    """Lichess's rule, not Wordle's: help makes it "finished with help", in no count of wins nor any streak."""
    got = stats_of(tmp_path, [won("2027-03-01", undo=1), won("2027-03-02", check=1)], "2027-03-02")
    assert (got["played"], got["won"], got["percent"], got["current"], got["best"]) == (2, 0, 0, 0, 0)
    assert got["results"]["helped"] == 2 and got["byHelp"]["none"] == 0 and got["byHelp"]["undo"] == 1


def test_a_streak_is_days_won_on_the_day(tmp_path: Path) -> None:
    """As Wordle counts it: archive games count in played and won, never in a streak."""
    five = [won(f"2027-03-0{k}", on="2027-03-09") for k in range(1, 6)]  # a fresh profile catches up in one day
    got = stats_of(tmp_path, five, "2027-03-09")
    assert (got["played"], got["won"], got["current"], got["best"]) == (5, 5, 0, 0)
    today = [*five, won("2027-03-09")]
    got = stats_of(tmp_path, today, "2027-03-09")
    assert (got["won"], got["current"], got["best"]) == (6, 1, 1)
    # Filling a missed date later does not join the days around it.
    filled = [won("2027-03-01"), won("2027-03-02", on="2027-03-05"), won("2027-03-03")]
    got = stats_of(tmp_path, filled, "2027-03-03")
    assert (got["won"], got["current"], got["best"]) == (3, 1, 1)
    old = [won("2027-03-01", on=None), won("2027-03-02", on=None)]  # saved before `on` was kept: not on the day
    assert stats_of(tmp_path, old, "2027-03-02")["best"] == 0
    imported = [{**e, "daily": {**e["daily"], "imported": True}} for e in [won("2027-03-01"), won("2027-03-02")]]
    got = stats_of(tmp_path, imported, "2027-03-02")
    assert (got["won"], got["current"], got["best"]) == (2, 0, 0)  # any `on` can be written into a file


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
    face_up = {**finished, "mode": "face-up"}
    entries = [answer["entry"] for answer in store(tmp_path, {"check": [solution, finished, face_up]})["check"]]
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
    assert answer["refused"] == "the file holds one date twice in one mode"
    [answer] = imported(tmp_path, [{**site_game, "mode": "face-up"}, {**site_game, "mode": "face-up"}])
    assert answer["refused"] == "the file holds one date twice in one mode"


def test_one_date_in_both_modes_is_taken(tmp_path: Path, site_game: dict) -> None:
    """Each mode keeps its own game of a date: a file with the date face down and face up holds two games."""
    face_up = {**site_game, "mode": "face-up", "daily": {**site_game["daily"], "help": {"hint": 2}}}
    [answer] = imported(tmp_path, [site_game, face_up])
    down, up = answer["entries"]
    assert "mode" not in down and up["mode"] == "face-up"  # face down writes no mode, as before modes were
    assert up["daily"]["help"]["hint"] == 2 and down["daily"]["help"]["hint"] == 0


def test_the_two_modes_are_counted_apart(tmp_path: Path) -> None:
    """Face-up games never make or break a face-down streak, win rate or row of help, nor the other way round."""

    def up(entry: dict) -> dict:
        return {**entry, "mode": "face-up"}

    entries = [
        won("2027-03-01"),
        won("2027-03-02"),
        won("2027-03-03", undo=1),
        up(lost("2027-03-02")),
        up(won("2027-03-03")),  # won face up: the face-down run still ends at 2027-03-02
        up(won("2027-03-04", hint=1)),
    ]
    cases = [
        {"entries": entries, "today": "2027-03-04"},
        {"entries": entries, "today": "2027-03-04", "mode": "face-up"},
    ]
    down, face_up = store(tmp_path, {"statistics": cases})["statistics"]
    assert (down["played"], down["won"], down["percent"], down["current"], down["best"]) == (3, 2, 67, 0, 2)
    assert down["byHelp"] == {"none": 2, "undo": 1, "hint": 0, "check": 0, "restart": 0, "solution": 0}
    assert (face_up["played"], face_up["won"], face_up["percent"], face_up["current"], face_up["best"]) == (
        3,
        1,
        33,
        1,
        1,
    )
    assert face_up["byHelp"]["hint"] == 1 and face_up["byHelp"]["none"] == 1
    assert face_up["results"] == {"won": 1, "helped": 1, "shown": 0, "lost": 1, "playing": 0}


def test_a_face_up_export_is_a_face_up_record_verify_accepts(tmp_path: Path, solution: dict) -> None:
    entry = store(tmp_path, {"check": [{**solution, "mode": "face-up"}]})["check"][0]["entry"]
    assert entry["mode"] == "face-up" and entry["result"] == "win"
    text = store(tmp_path, {"export": [entry]})["export"][0]
    assert json.loads(text)["mode"] == "face-up"
    assert parse_record(text).face_up  # the record says how it was played
    path = tmp_path / "face-up.json"
    path.write_text(text)
    verdict = run("verify", str(path))
    assert verdict.exit_code == 0 and verdict.stdout.startswith("won: ")
    down = store(tmp_path, {"check": [{**solution, "mode": "face-down"}, solution]})["check"]
    assert all("mode" not in answer["entry"] for answer in down)  # face down is written as records always were


@pytest.mark.parametrize("mode", [BAD, "face-sideways", 1, None])
def test_an_unknown_mode_is_refused(tmp_path: Path, solution: dict, mode: object) -> None:
    refused = store(tmp_path, {"check": [{**solution, "mode": mode}]})["check"][0]
    assert refused == {"refused": f"the game: 'mode' must be face-down or face-up, not {json.dumps(mode)}"}


def test_the_day_a_game_ended_is_checked_and_kept(tmp_path: Path, site_game: dict) -> None:
    """`daily.first.on`: a real day, kept through a check and an import (which builds no streak whatever it says)."""
    on = {**site_game["daily"]["first"], "on": "2030-01-01"}
    kept = {**site_game, "daily": {**site_game["daily"], "first": on}}
    bad = {**kept, "daily": {**kept["daily"], "first": {**on, "on": "2027-02-30"}}}
    answers = store(tmp_path, {"check": [kept, bad]})["check"]
    assert answers[0]["entry"]["daily"]["first"]["on"] == "2030-01-01"
    assert answers[1]["refused"] == "the game: 'daily.first.on' is not a date: \"2027-02-30\""
    [taken] = imported(tmp_path, kept)
    assert taken["entries"][0]["daily"]["first"]["on"] == "2030-01-01"


def test_an_import_is_marked_imported_for_good(tmp_path: Path, site_game: dict) -> None:
    """The page marks what it takes from a file; the mark goes out with an export and comes back with it."""
    [answer] = imported(tmp_path, site_game)
    entry = answer["entries"][0]
    assert entry["daily"]["imported"] is True
    text = store(tmp_path, {"export": [entry]})["export"][0]
    assert json.loads(text)["daily"]["imported"] is True
    again = store(
        tmp_path, {"check": [json.loads(text), {**site_game, "daily": {**site_game["daily"], "imported": "yes"}}]}
    )
    assert again["check"][0]["entry"]["daily"]["imported"] is True
    assert again["check"][1]["refused"] == "the game: 'daily.imported' must be true or false, not \"yes\""
    plain = store(tmp_path, {"check": [site_game]})["check"][0]["entry"]
    assert "imported" not in plain["daily"]  # a game played here says nothing of it


def saved_as(tmp_path: Path, game: dict, *texts: str) -> list[dict]:
    """readSaved's answer on each saved text, as the key of ``game``'s date reads it (the page's deck or none)."""
    known = {"rules": "standard", "date": game["daily"]["date"], "mode": "face-down"}
    cases = [{"text": t, "known": {**known, "deck": deck}} for t in texts for deck in (None, game["deck"])]
    return store(tmp_path, {"saved": cases})["saved"]


def test_a_hand_edited_save_is_repaired_from_its_moves(tmp_path: Path, site_game: dict) -> None:
    """Issue 54 item 12: a result changed by hand no longer drops the game; the moves say how it ended."""
    moves = len(site_game["moves"])
    first = {"status": "won", "moves": moves, "help": {}, "on": DAY}
    clean = {**site_game, "daily": {**site_game["daily"], "first": first}}
    as_lost = {**clean, "result": "lost", "daily": {**clean["daily"], "first": {**first, "status": "lost"}}}
    answers = saved_as(tmp_path, clean, json.dumps(clean), json.dumps(as_lost))
    assert [(a["damaged"], a["cut"]) for a in answers] == [(False, False)] * 2 + [(True, False)] * 2  # nothing lost
    for repaired in answers[2:]:
        entry = repaired["entry"]
        nothing = dict.fromkeys(("undo", "hint", "check", "restart", "solution"), 0)
        assert entry["result"] == "win" and entry["daily"]["first"] == {**first, "help": nothing}  # won, on its day
        assert entry["moves"] == site_game["moves"]


def test_a_save_with_bad_moves_keeps_the_legal_ones_and_offers_no_fresh_win(tmp_path: Path, site_game: dict) -> None:
    moves = site_game["moves"]
    first = {"status": "won", "moves": len(moves), "help": {}, "on": DAY}
    spoilt = [*moves[:9], {"place": BAD, "cell": "a1"}, *moves[10:]]
    broken = {**site_game, "moves": spoilt, "daily": {**site_game["daily"], "first": first}}
    begun = {**site_game, "moves": [*moves[:5], moves[7]], "daily": {**site_game["daily"], "first": None}}
    answers = saved_as(tmp_path, site_game, json.dumps(broken), json.dumps(begun), "{not json", "[]")
    for answer in answers[:4]:
        entry = answer["entry"]
        assert answer["damaged"] and answer["cut"] and entry["moves"] == moves[: len(entry["moves"])]
        assert len(entry["moves"]) == (9 if answer is answers[0] or answer is answers[1] else 5)
        assert entry["daily"]["first"] is None and entry["daily"]["help"]["restart"] == 1  # a finish after it is helped
    assert answers[4] == answers[6] == {"entry": None, "damaged": True, "cut": True}  # no deck, none known: past repair
    for answer in (answers[5], answers[7]):  # the page knows its deck: a fresh game, counted as restarted
        assert answer["entry"]["moves"] == [] and answer["entry"]["daily"]["help"]["restart"] == 1
    shown = {**begun, "daily": {**begun["daily"], "help": {"solution": "x"}}}
    [repaired, _] = saved_as(tmp_path, site_game, json.dumps(shown))
    assert repaired["entry"]["daily"]["first"]["status"] == "shown"  # help no one can read may have been the solution
