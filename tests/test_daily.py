"""Daily deals: the date mapping, winnability, the ramp, the 2027 calendar, and the command."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from clitools import assert_bad_input, run

from kcsolve.common.deal import deal
from kcsolve.patience.daily import GRADES, RAMP, candidate_seed, daily, grade
from kcsolve.patience.record import judge, parse_record
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.selfplay import measure

CALENDAR = Path(__file__).resolve().parent.parent / "seeds" / "daily-2027.tsv"

PINNED = [
    (dt.date(2027, 1, 1), False, 355003130913543165,
     "9S 8C QD 7C 8S KC AC 7H JH TH 2D 7S AD JC TC 6D JS 5C 2C 2H 5S 4D 9H 4S TD 9D JD 3S 7D 8H 2S 8D 3D 3H 9C "
     "KD TS 6H 5H QS 3C KS QC 4C AS 6S 6C AH QH 5D KH 4H"),
    (dt.date(2027, 3, 14), False, 9895847090186742430,
     "KS 7C 7H TC 6C 6S 4H 9H 7D JD KD 2C 2H TD 3D QC QD 5H AC 4C KC 3H 3S QH 5S 5D JC JH 8H AS 7S 2D TH 9C 9S "
     "9D 5C 8D AD QS JS KH 8C 2S 6D AH 4S 6H TS 8S 4D 3C"),
    (dt.date(2027, 7, 4), True, 8006296163647119106,
     "3H AD 5D 9D 3D 9H 6C 4C 5C TD KD TH 8C QC 7S 6H 3C QH TS 8H QS 9C 4D 2D QD 5H KC 7C KS 2C 7D JS 8D 9S 5S "
     "4H AH JC 4S JD TC 2H 3S 6D AC AS KH 7H JH 8S 2S 6S"),
]


@pytest.mark.parametrize("day, ramp, seed, deck", PINNED)
def test_pinned_dates(day: dt.date, ramp: bool, seed: int, deck: str) -> None:
    """Three dates keep their deals for good."""
    found = daily(day, STANDARD, ramp)
    assert found.seed == seed
    assert " ".join(str(c) for c in found.deck) == deck


def test_candidate_seed_is_the_documented_hash() -> None:
    """Candidate k of a date is the first 8 bytes of SHA-256 of 'kcsolve-daily|RULES|DATE|k'."""
    day = dt.date(2027, 5, 17)
    for attempt in range(3):
        digest = hashlib.sha256(f"kcsolve-daily|deplete+swap|2027-05-17|{attempt}".encode()).digest()
        assert candidate_seed(day, parse_rules("swap+deplete"), attempt) == int.from_bytes(digest[:8], "big")


def test_sixty_consecutive_days_are_winnable_and_different() -> None:
    """60 dates in a row: every deal is won by its solution (replayed), and no two deals repeat."""
    decks = set()
    start = dt.date(2027, 2, 1)
    for offset in range(60):
        found = daily(start + dt.timedelta(days=offset), STANDARD, playouts=1)
        assert found.solution.result == "win"
        assert judge(found.solution.record()).won
        assert found.deck == deal(found.seed)
        decks.add(found.deck)
    assert len(decks) == 60


def test_the_ramp_follows_the_week() -> None:
    """With the ramp, each weekday gets its grade: Monday easy ... Sunday fiendish."""
    monday = dt.date(2027, 3, 1)
    assert monday.weekday() == 0
    for offset in range(7):
        day = monday + dt.timedelta(days=offset)
        assert daily(day, STANDARD, ramp=True, playouts=2).grade == RAMP[offset]
    assert RAMP[0] == GRADES[0] and RAMP[6] == GRADES[-1]


def test_difficulty_is_reproducible_and_grades_are_ordered() -> None:
    """The same deal measures the same; an easier measurement never grades harder."""
    assert measure(deal(12), STANDARD, 12, 3) == measure(deal(12), STANDARD, 12, 3)
    samples = sorted((measure(deal(s), STANDARD, s, 2) for s in range(10)), key=lambda d: d.key)
    order = [GRADES.index(grade(d)) for d in samples]
    assert order == sorted(order, reverse=True)


def test_difficulty_is_measured_under_rules_the_old_playouts_refused() -> None:
    """Camelot and optional+groups get a measured difficulty too: strong games on the deal."""
    for rules in ("camelot", "optional+groups"):
        found = measure(deal(4), parse_rules(rules), 4, 3)
        assert found.playouts == 3 and 0 <= found.wins <= 3 and 0 < found.progress <= 12


def calendar_rows() -> list[list[str]]:
    """The rows of seeds/daily-2027.tsv under its header."""
    lines = CALENDAR.read_text().splitlines()
    assert lines[0] == "date\tseed\tdifficulty\tgrade"
    return [line.split("\t") for line in lines[1:]]


def test_calendar_covers_2027_with_the_ramp() -> None:
    """Every day of 2027 once, in order, each with its weekday's grade."""
    rows = calendar_rows()
    assert len(rows) == 365
    for n, (date_text, _, _, named) in enumerate(rows):
        day = dt.date(2027, 1, 1) + dt.timedelta(days=n)
        assert date_text == day.isoformat() and named == RAMP[day.weekday()]


@pytest.mark.parametrize("index", [0, *(pytest.param(i, marks=pytest.mark.slow) for i in (45, 180, 281, 364))])
def test_calendar_rows_regenerate_and_win(index: int) -> None:
    """A sample of rows: regenerating gives the same row, and the deal's solution replays to a win."""
    date_text, seed, rate, named = calendar_rows()[index]
    found = daily(dt.date.fromisoformat(date_text), STANDARD, ramp=True)
    assert (str(found.seed), f"{found.difficulty.rate:.3f}", found.grade) == (seed, rate, named)
    assert judge(found.solution.record()).won


def test_daily_json() -> None:
    """One JSON object per date with the promised keys; the solution verifies."""
    result = run("daily", "--date", "2027-01-01", "--days", "2", "--format", "json")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["date"] for line in lines] == ["2027-01-01", "2027-01-02"]
    for line in lines:
        assert {"date", "seed", "rules", "deck", "difficulty", "grade", "solution"} <= set(line)
        assert line["grade"] in GRADES and 0 <= line["difficulty"] <= 1
    assert lines[0]["seed"] == PINNED[0][2]


def test_daily_text_and_no_solution() -> None:
    """Text shows date, deal, difficulty and grade, the first cards and the deck; --no-solution drops the line."""
    full = run("daily", "--date", "2027-01-01", "--style", "line")
    short = run("daily", "--date", "2027-01-01", "--style", "line", "--no-solution")
    assert full.exit_code == short.exit_code == 0
    assert short.stdout.startswith(f"2027-01-01 (Friday): deal {PINNED[0][2]}, rules standard\ndifficulty ")
    assert "grade hard" in short.stdout and "1st deal" not in short.stdout
    assert "1st deal: cards 1-16" in full.stdout and "Won: the twelfth court card" in full.stdout
    short_json = json.loads(run("daily", "--date", "2027-01-01", "--no-solution", "--format", "json").stdout)
    assert "solution" not in short_json


def test_daily_bad_input() -> None:
    """A bad date or bad rules: one line, exit 2."""
    assert_bad_input(run("daily", "--date", "2027-02-30"), "not a date: '2027-02-30' (use YYYY-MM-DD)")
    assert_bad_input(run("daily", "--rules", "camelot+nonsense"), None)


@pytest.mark.slow
def test_daily_under_camelot() -> None:
    """Camelot, once refused, gets a winnable deal with a measured difficulty."""
    result = run("daily", "--date", "2027-01-01", "--rules", "camelot", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rules"] == "camelot" and data["grade"] in GRADES and data["playouts"] == 8
    assert judge(parse_record_json(data["solution"])).won


def test_daily_range_past_the_last_date_is_refused_before_any_output() -> None:
    assert_bad_input(run("daily", "--date", "9999-12-31", "--days", "2"),
                     "--date 9999-12-31 --days 2 runs past the last date, 9999-12-31")


@pytest.mark.parametrize("style", ["boxes", "line"])
def test_daily_shows_the_deck_once_in_rows_of_sixteen(style: str) -> None:
    result = run("daily", "--date", "2027-01-01", "--style", style, "--no-solution", "--no-color")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    found = daily(dt.date(2027, 1, 1), STANDARD)
    names = [str(c) for c in found.deck]
    rows = [line.split() for line in lines if line and all(len(w) == 2 for w in line.split())]
    assert rows == [names[0:16], names[16:32], names[32:48], names[48:52]]
    assert "+---+" not in result.stdout  # no grid of boxes that could be read as a position


def test_daily_defaults_to_the_utc_date() -> None:
    before = dt.datetime.now(dt.timezone.utc).date()
    data = json.loads(run("daily", "--no-solution", "--format", "json").stdout)
    after = dt.datetime.now(dt.timezone.utc).date()
    assert data["date"] in {before.isoformat(), after.isoformat()}


def parse_record_json(data: dict) -> object:  # type: ignore[type-arg]
    """A record from its JSON form."""
    return parse_record(json.dumps(data))
