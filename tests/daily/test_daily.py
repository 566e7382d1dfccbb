"""Daily deals: the date mapping, winnability, the ramp, the 2027 calendar, and the command."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest
from clitools import assert_bad_input, run
from hypothesis import given
from hypothesis import strategies as st

from kcsolve.common.deal import deal
from kcsolve.patience.daily.calendar import GRADES, RAMP, candidate_seed, daily, nearest
from kcsolve.patience.daily.dates import InvalidDateError, parse_day
from kcsolve.patience.daily.words import about_sentences
from kcsolve.patience.players.honest import GAMES, measure
from kcsolve.patience.record import judge, parse_record
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve.route import solve

CALENDAR = Path(__file__).resolve().parents[2] / "data" / "daily-2027.tsv"

PINNED = [
    (
        dt.date(2027, 1, 1),
        False,
        355003130913543165,
        "9S 8C QD 7C 8S KC AC 7H JH TH 2D 7S AD JC TC 6D JS 5C 2C 2H 5S 4D 9H 4S TD 9D JD 3S 7D 8H 2S 8D 3D 3H 9C "
        "KD TS 6H 5H QS 3C KS QC 4C AS 6S 6C AH QH 5D KH 4H",
    ),
    (
        dt.date(2027, 3, 14),
        False,
        6743139480840023969,
        "2S 8H 8S AS 6H 4S TH 4H JH KD 5H 9C 7C 3D QC 8C 7H 3S TS JC QS 6C 2D 9S QD AH JS 5D TC 6D 8D 9D JD 5C AD 2H "
        "KC KS TD 4C QH AC 3H 9H 6S KH 3C 5S 2C 4D 7S 7D",
    ),
    (
        dt.date(2027, 7, 4),
        True,
        8006296163647119106,
        "3H AD 5D 9D 3D 9H 6C 4C 5C TD KD TH 8C QC 7S 6H 3C QH TS 8H QS 9C 4D 2D QD 5H KC 7C KS 2C 7D JS 8D 9S 5S "
        "4H AH JC 4S JD TC 2H 3S 6D AC AS KH 7H JH 8S 2S 6S",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("day, ramp, seed, deck", PINNED)
def test_pinned_dates(day: dt.date, ramp: bool, seed: int, deck: str) -> None:
    """Three dates keep their deals (since issue 53 moved them: honest chances choose the deal)."""
    found = daily(day, STANDARD, ramp)
    assert found.seed == seed
    assert " ".join(str(c) for c in found.deck) == deck


def test_candidate_seed_is_the_documented_hash() -> None:
    """Candidate k of a date is the first 8 bytes of SHA-256 of 'kcsolve-daily|RULES|DATE|k'."""
    day = dt.date(2027, 5, 17)
    for attempt in range(3):
        digest = hashlib.sha256(f"kcsolve-daily|deplete+swap|2027-05-17|{attempt}".encode()).digest()
        assert candidate_seed(day, parse_rules("swap+deplete"), attempt) == int.from_bytes(digest[:8], "big")


@pytest.mark.slow  # over 20 s: the difficulty of each date is measured
def test_sixty_consecutive_days_are_winnable_and_different() -> None:
    """60 dates in a row: every deal is won by its solution (replayed), and no two deals repeat."""
    decks = set()
    start = dt.date(2027, 2, 1)
    for offset in range(60):
        found = daily(start + dt.timedelta(days=offset), STANDARD, ramp=False, games=1)
        assert found.solution.result == "win"
        assert judge(found.solution.record()).won
        assert found.deck == deal(found.seed)
        decks.add(found.deck)
    assert len(decks) == 60


@pytest.mark.slow  # over 20 s: the difficulty of each date is measured
def test_the_ramp_follows_the_week() -> None:
    """With the ramp, each weekday gets its grade: Monday easy ... Sunday fiendish."""
    monday = dt.date(2027, 3, 1)
    assert monday.weekday() == 0
    for offset in range(7):
        day = monday + dt.timedelta(days=offset)
        assert daily(day, STANDARD, ramp=True, games=12).grade == RAMP[offset]  # 12: every grade can be met
    assert RAMP[0] == GRADES[0] and RAMP[6] == GRADES[-1]


@pytest.mark.slow
def test_difficulty_is_reproducible() -> None:
    """The same deal and seed measure the same."""
    assert measure(deal(84), STANDARD, 84, 3) == measure(deal(84), STANDARD, 84, 3)


@pytest.mark.slow
def test_difficulty_is_measured_under_rules_the_quick_player_does_not_model() -> None:
    """Camelot and optional+groups get an honest chance too: plain games of the exploring deep (strong) player."""
    for text in ("camelot", "optional+groups"):
        rules = parse_rules(text)
        seed = next(s for s in range(40) if solve(deal(s), rules).result == "win")
        found = measure(deal(seed), rules, seed, 3)
        assert found.playouts == 3 and 0 <= found.wins <= 3 and found.chance == found.wins / 3


def calendar_rows() -> list[list[str]]:
    """The rows of data/daily-2027.tsv under its header."""
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


@pytest.mark.parametrize(
    "index",
    [
        0,
        *(pytest.param(i, marks=pytest.mark.slow) for i in (45, 180)),
        *(pytest.param(i, marks=pytest.mark.long) for i in (281, 364)),
    ],
)
def test_calendar_rows_regenerate_and_win(index: int) -> None:
    """A sample of rows: regenerating gives the same row, and the deal's solution replays to a win."""
    date_text, seed, rate, named = calendar_rows()[index]
    found = daily(dt.date.fromisoformat(date_text), STANDARD, ramp=True)
    assert (str(found.seed), f"{found.difficulty.chance:.3g}", found.grade) == (seed, rate, named)
    assert judge(found.solution.record()).won


@pytest.mark.slow
def test_daily_json() -> None:
    """One JSON object per date with the promised keys; the solution verifies."""
    result = run("daily", "--date", "2027-01-01", "--days", "2", "--format", "json")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["date"] for line in lines] == ["2027-01-01", "2027-01-02"]
    for line in lines:
        assert {"date", "seed", "rules", "deck", "difficulty", "difficulty_interval", "grade", "solution"} <= set(line)
        assert line["grade"] in GRADES and 0 <= line["difficulty"] <= 1
        low, high = line["difficulty_interval"]
        assert 0 <= low <= line["difficulty"] <= high <= 1 and low < high
    found = daily(dt.date(2027, 1, 1), STANDARD)
    assert lines[0]["difficulty_interval"] == list(found.difficulty.interval())
    assert lines[0]["seed"] == int(calendar_rows()[0][1])  # ramped by default, as the calendar and the site are


@pytest.mark.slow
def test_daily_text_and_no_solution() -> None:
    """Text shows date, deal, difficulty and grade, the first cards and the deck; --no-solution drops the line."""
    full = run("daily", "--date", "2027-01-01", "--style", "line")
    short = run("daily", "--date", "2027-01-01", "--style", "line", "--no-solution")
    assert full.exit_code == short.exit_code == 0
    found = daily(dt.date(2027, 1, 1), STANDARD)
    assert short.stdout.startswith(f"2027-01-01 (Friday), rules standard: grade {found.grade}\n")
    said = " ".join(short.stdout.split())
    assert f"About this deal: {' '.join(about_sentences(found))}" in said
    assert "1st deal" not in short.stdout
    assert "1st deal: cards 1-16" in full.stdout and "Won: the twelfth court card" in full.stdout
    short_json = json.loads(run("daily", "--date", "2027-01-01", "--no-solution", "--format", "json").stdout)
    assert "solution" not in short_json


def test_daily_bad_input() -> None:
    """A bad date or bad rules: one line, exit 2."""
    assert_bad_input(run("daily", "--date", "2027-02-30"), "no such day: '2027-02-30' (February 2027 has 28 days)")
    assert_bad_input(run("daily", "--rules", "camelot+nonsense"), None)


@pytest.mark.slow
def test_daily_under_camelot() -> None:
    """Camelot, once refused, gets a winnable deal with a measured difficulty."""
    result = run("daily", "--date", "2027-01-01", "--rules", "camelot", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rules"] == "camelot" and data["grade"] in GRADES and data["playouts"] == GAMES
    assert judge(parse_record_json(data["solution"])).won


def test_daily_range_past_the_last_date_is_refused_before_any_output() -> None:
    assert_bad_input(
        run("daily", "--date", "9999-12-31", "--days", "2"),
        "--date 9999-12-31 --days 2 runs past the last date, 9999-12-31",
    )


@pytest.mark.slow
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
    before = dt.datetime.now(dt.UTC).date()
    data = json.loads(run("daily", "--no-solution", "--format", "json").stdout)
    after = dt.datetime.now(dt.UTC).date()
    assert data["date"] in {before.isoformat(), after.isoformat()}


def parse_record_json(data: dict) -> object:  # type: ignore[type-arg]
    """A record from its JSON form."""
    return parse_record(json.dumps(data))


def test_the_nearest_grade_is_the_earliest_on_a_tie() -> None:
    """Two candidates equally near the wanted grade: the earlier is the day's, so the choice never varies."""
    assert nearest(["hard", "easy"], "medium") == 0 and nearest(["easy", "hard"], "medium") == 0
    assert nearest(["easy", "hard", "medium"], "medium") == 2


@pytest.mark.parametrize(
    "text",
    [
        "20270101",
        "2027-W01-1",
        "2027-001",
        "\uff12\uff10\uff12\uff17-01-01",
        " 2027-01-01",
        "2027-01-01T00:00",
        "2027-1-1",
        "+2027-01-01",
    ],
)
def test_a_date_is_written_yyyy_mm_dd_only(text: str) -> None:
    """Python's fromisoformat reads basic and week forms, and any script's digits: each is refused, named."""
    for command in (["daily", "--date", text], ["site", "--out", "unused", "--from", text], ["play", "--daily", text]):
        assert_bad_input(run(*command), f"not a date: {text!r} (use YYYY-MM-DD)")


@given(st.dates())
def test_every_calendar_day_reads_back_from_its_iso_text(day: dt.date) -> None:
    assert parse_day(day.isoformat()) == day


@given(st.text(max_size=12))
def test_any_other_text_is_refused_as_a_date(text: str) -> None:
    try:
        day = parse_day(text)
    except InvalidDateError as exc:
        assert str(exc).startswith(("not a date: ", "no such day: "))
    else:
        assert day.isoformat() == text


def test_the_daily_deal_of_a_non_date_is_refused() -> None:
    with pytest.raises(InvalidDateError, match=r"^not a date: '2027-01-01' \(give a datetime.date\)$"):
        daily("2027-01-01", STANDARD)  # type: ignore[arg-type]
