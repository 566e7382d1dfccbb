"""Daily deals: the date mapping, winnability, the ramp, the 2027 calendar, and the command."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from pathlib import Path

import pytest
from clitools import assert_bad_input, run
from hypothesis import given
from hypothesis import strategies as st

from kcsolve.common.deal import deal
from kcsolve.patience.daily import calendar as daily_module
from kcsolve.patience.daily.calendar import GRADES, RAMP, RAMP_CANDIDATES, candidate_seed, daily, grade, nearest
from kcsolve.patience.daily.dates import InvalidDateError, parse_day
from kcsolve.patience.engine import Position
from kcsolve.patience.players import difficulty as difficulty_module
from kcsolve.patience.players.difficulty import (
    PLAYOUTS,
    Difficulty,
    Measurer,
    cell_key,
    in_words,
    measure,
    plain_game,
    steered_game,
)
from kcsolve.patience.players.endgame import option_key
from kcsolve.patience.record import judge, parse_record
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve.methods.dfs import rank_grid
from kcsolve.patience.solve.peek import peek
from kcsolve.patience.solve.route import solve

EASY_SEED = 84  # the strong player, exploring, wins about half its games on this deal
CALENDAR = Path(__file__).resolve().parents[2] / "seeds" / "daily-2027.tsv"

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
        9895847090186742430,
        "KS 7C 7H TC 6C 6S 4H 9H 7D JD KD 2C 2H TD 3D QC QD 5H AC 4C KC 3H 3S QH 5S 5D JC JH 8H AS 7S 2D TH 9C 9S "
        "9D 5C 8D AD QS JS KH 8C 2S 6D AH 4S 6H TS 8S 4D 3C",
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


@pytest.mark.slow  # over 20 s: the difficulty of each date is measured
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


@pytest.mark.slow  # over 20 s: the difficulty of each date is measured
def test_the_ramp_follows_the_week() -> None:
    """With the ramp, each weekday gets its grade: Monday easy ... Sunday fiendish."""
    monday = dt.date(2027, 3, 1)
    assert monday.weekday() == 0
    for offset in range(7):
        day = monday + dt.timedelta(days=offset)
        assert daily(day, STANDARD, ramp=True, playouts=2).grade == RAMP[offset]
    assert RAMP[0] == GRADES[0] and RAMP[6] == GRADES[-1]


@pytest.mark.slow
def test_difficulty_is_reproducible() -> None:
    """The same deal and seed measure the same, another seed differently."""
    assert measure(deal(13), STANDARD, 13, 3) == measure(deal(13), STANDARD, 13, 3)
    assert measure(deal(13), STANDARD, 13, 3) != measure(deal(13), STANDARD, 14, 3)


def test_each_cut_is_the_lowest_chance_of_its_grade() -> None:
    """A chance equal to a cut takes the easier grade, one just below it the harder; 0 is fiendish."""
    for k, cut in enumerate(daily_module.GRADE_CUTS):
        assert grade(Difficulty(cut, 1, 1, 12.0)) == GRADES[k]
        assert grade(Difficulty(cut * 0.999, 1, 1, 12.0)) == GRADES[k + 1]
    assert grade(Difficulty(1.0, 1, 1, 12.0)) == "easy" and grade(Difficulty(0.0, 0, 1, 3.0)) == "fiendish"


@pytest.mark.slow
def test_difficulty_is_measured_under_rules_the_old_playouts_refused() -> None:
    """Camelot and optional+groups get a measured difficulty too: steered strong games on a winnable deal."""
    for text in ("camelot", "optional+groups"):
        rules = parse_rules(text)
        seed = next(s for s in range(40) if solve(deal(s), rules).result == "win")
        found = measure(deal(seed), rules, seed, 3)
        assert found.playouts == 3 and 0 <= found.wins <= 3 and 0 < found.progress <= 12 and 0 <= found.chance <= 1


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
    assert lines[0]["seed"] == PINNED[0][2]


@pytest.mark.slow
def test_daily_text_and_no_solution() -> None:
    """Text shows date, deal, difficulty and grade, the first cards and the deck; --no-solution drops the line."""
    full = run("daily", "--date", "2027-01-01", "--style", "line")
    short = run("daily", "--date", "2027-01-01", "--style", "line", "--no-solution")
    assert full.exit_code == short.exit_code == 0
    assert short.stdout.startswith(f"2027-01-01 (Friday): deal {PINNED[0][2]}, rules standard\ngrade ")
    found = daily(dt.date(2027, 1, 1), STANDARD)
    said = " ".join(short.stdout.split())
    low, high = found.difficulty.interval()
    assert f"grade {found.grade}; difficulty: estimated chance that an exploring no-peek player wins: " in said
    assert (
        f"{found.difficulty.describe()} (approx. 95% interval {in_words(low)} to {in_words(high)}; 16 steered games)"
    ) in said
    assert "the strong player wins" not in said
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
    assert data["rules"] == "camelot" and data["grade"] in GRADES and data["playouts"] == PLAYOUTS
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


@pytest.mark.long  # 300 plain games, about 40 s
def test_steered_games_estimate_the_chance_that_plain_games_see() -> None:
    """On a deal the player often wins, the steered estimate agrees with the share of plain games won."""
    plain = (
        sum(plain_game(deal(EASY_SEED), STANDARD, random.Random(f"plain|{10_000 + k}"), 10_000 + k) for k in range(300))
        / 300
    )
    steered = measure(deal(EASY_SEED), STANDARD, EASY_SEED, 64).chance
    assert 0.3 < plain < 0.7
    # Both are estimates: 300 plain games have a standard error near 0.03, 64 steered games about 0.04.
    assert abs(steered - plain) < 0.15


@pytest.mark.slow
def test_the_chance_is_positive_exactly_on_winnable_deals() -> None:
    """On seeds 0..11 every winnable deal gets a chance above 0 and every lost one 0.

    The code does not promise a chance above 0 (a game that leaves the line
    may find no option it knows to be won), so this is a check on these seeds.
    """
    seen = {"win": 0, "loss": 0}
    for seed in range(12):
        result = solve(deal(seed), STANDARD).result
        chance = measure(deal(seed), STANDARD, seed, 2).chance
        assert (chance > 0) == (result == "win"), seed
        seen[result] += 1
    assert seen["win"] and seen["loss"]


def test_a_chance_in_words() -> None:
    assert Difficulty(0.4567, 8, 8, 12.0).describe() == "46%"
    assert Difficulty(0.000234, 8, 8, 12.0).describe() == "1 in 4,300"
    assert Difficulty(3e-9, 8, 8, 12.0).describe() == "under 1 in 1,000,000"
    assert Difficulty(0.0, 0, 8, 5.0).describe() == "0 (no winning game found)"


# Steered games' weights, and their mean, standard error and 95% interval worked out by hand:
# mean 0.08 / 16 = 0.005; squared deviations 13 x 0.005^2 + 0.005^2 + 0.015^2 + 0.045^2 = 0.0026;
# standard error sqrt(0.0026 / 15) / 4; t(0.975, 15) = 2.131 (printed tables), so the interval is
# 0.005 -/+ 0.007016: below 0, clipped, to 0.012016.
WEIGHTS = [0.0] * 12 + [0.01, 0.02, 0.0, 0.05]
SPREAD = (0.0026 / 15) ** 0.5 / 4


def test_measure_keeps_the_spread_of_the_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mean weight is the chance, its standard error the spread; the interval is mean -/+ t standard errors."""
    games = iter(WEIGHTS)
    monkeypatch.setattr(
        difficulty_module,
        "steered_game",
        lambda deck, rules, seed, measurer: (next(games), Position.start(deck, rules)),
    )
    found = measure(deal(EASY_SEED), STANDARD, EASY_SEED, len(WEIGHTS))
    assert found.chance == pytest.approx(0.005) and found.wins == 3 and found.playouts == 16
    assert found.spread == pytest.approx(SPREAD)
    low, high = found.interval()
    assert low == 0.0 and high == pytest.approx(0.012016, abs=1e-6)


def test_the_interval_is_t_standard_errors_wide_within_0_and_1() -> None:
    """Mean -/+ t(0.975, n-1) standard errors, clipped to [0, 1]; (0, 1) when the spread was not measured."""
    t15, t3 = 2.131450, 3.182446  # printed tables, two-sided 95%
    assert Difficulty(0.3, 10, 16, 12.0, 0.05).interval() == pytest.approx((0.3 - t15 * 0.05, 0.3 + t15 * 0.05))
    assert Difficulty(0.3, 3, 4, 12.0, 0.05).interval() == pytest.approx((0.3 - t3 * 0.05, 0.3 + t3 * 0.05))
    assert Difficulty(0.9, 16, 16, 12.0, 0.1).interval() == pytest.approx((0.9 - 0.213145, 1.0))
    assert Difficulty(0.3, 1, 1, 12.0).interval() == (0.0, 1.0)


def test_the_label_says_what_the_figure_is_and_shows_its_interval() -> None:
    """Not 'the strong player wins': an estimate, for the exploring no-peek player, with its interval and games."""
    assert Difficulty(0.005, 3, 16, 12.0, SPREAD).label() == (
        "estimated chance that an exploring no-peek player wins: 1 in 200 (approx. 95% interval 0 to 1%; "
        "16 steered games)"
    )
    assert Difficulty(0.000234, 2, 16, 12.0, 0.0001).label() == (
        "estimated chance that an exploring no-peek player wins: 1 in 4,300 (approx. 95% interval 1 in 48,000 to "
        "1 in 2,200; 16 steered games)"
    )
    assert Difficulty(0.0, 0, 16, 5.0, 0.0).label() == (
        "estimated chance that an exploring no-peek player wins: 0 (no winning game in 16 steered games)"
    )


@pytest.mark.slow
def test_the_ramp_takes_the_nearest_grade_when_the_wanted_one_is_out_of_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """No chance reaches 'easy' once its cut is above 1: a Monday measures its 32 candidates, then takes the nearest."""
    monkeypatch.setattr(daily_module, "GRADE_CUTS", (1.5, *daily_module.GRADE_CUTS[1:]))
    told: list[int] = []
    monday = dt.date(2027, 3, 1)
    found = daily(monday, STANDARD, ramp=True, playouts=1, on_candidate=told.append)
    assert told == list(range(1, RAMP_CANDIDATES + 1))
    assert found.grade == "medium"  # 32 standard deals always hold a medium one (about a quarter of deals are)


def test_the_nearest_grade_is_the_earliest_on_a_tie() -> None:
    """Two candidates equally near the wanted grade: the earlier is the day's, so the choice never varies."""
    assert nearest(["hard", "easy"], "medium") == 0 and nearest(["easy", "hard"], "medium") == 0
    assert nearest(["easy", "hard", "medium"], "medium") == 2


def test_the_ramp_under_camelot_gives_a_monday_its_deal() -> None:
    """Under camelot a Monday gets an easy deal, or, after all 32 candidates, the nearest grade found."""
    told: list[int] = []
    found = daily(dt.date(2027, 1, 4), parse_rules("camelot"), ramp=True, playouts=2, on_candidate=told.append)
    assert found.solution.result == "win" and judge(found.solution.record()).won
    assert found.grade == "easy" or len(told) == RAMP_CANDIDATES


@pytest.mark.parametrize(
    "text",
    [
        "standard",
        "deplete+royals",
        pytest.param("camelot", marks=pytest.mark.long),
        pytest.param("optional+groups", marks=pytest.mark.slow),
    ],
)
def test_the_measurer_follows_only_options_that_win(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """In real steered games, every option kept for the game to follow is won: a fresh search of each (peek) agrees.

    Not under swap, where the judge can take a lost option as won (docs/PLAYERS.md).
    """
    rules = parse_rules(text)
    seed = next(s for s in range(40) if solve(deal(s), rules).result == "win")
    measurer = Measurer(solve(deal(seed), rules).moves, deal(seed), rules)
    kept: dict[tuple, Position] = {}
    keeps = Measurer.keeps

    def recording(self: Measurer, options: list, best: int) -> list[bool]:
        answer = keeps(self, options, best)
        kept.update((cell_key(child), child) for (_, child, _), keep in zip(options, answer) if keep)
        return answer

    monkeypatch.setattr(Measurer, "keeps", recording)
    for game in range(3):
        steered_game(deal(seed), rules, seed * 3 + game, measurer)
    assert len(kept) > 30
    for child in kept.values():
        assert peek(child, 60.0) == "win", (text, seed, child.drawn)


def test_the_line_stands_in_only_for_the_same_position() -> None:
    """Under swap, where two cells of one class are not always alike, the option the line's move stands for is the
    line's own position up to the search's symmetry: option keys tell edges apart."""
    rules = parse_rules("swap")
    steps = 0
    for seed in range(12):
        solution = solve(deal(seed), rules)
        if solution.result != "win":
            continue
        measurer = Measurer(solution.moves, deal(seed), rules)
        position = Position.start(deal(seed), rules)
        for move in solution.moves:
            step = position.play(move)
            alike = [
                child
                for _, child, after in measurer.options(position)
                if option_key(after) == option_key(position.view().after(move))
            ]
            assert len(alike) == 1 and measurer.search.key(rank_grid(alike[0])) == measurer.search.key(rank_grid(step))
            steps += 1
            position = step
    assert steps > 100


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
