"""The honest chance that chooses and grades the daily deal: its games, its early stop, its cheap filter, its grades."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

import pytest

from kcsolve.common.deal import deal
from kcsolve.common.interval import wilson
from kcsolve.patience.daily import calendar as daily_module
from kcsolve.patience.daily.calendar import GRADES, RAMP, RAMP_CANDIDATES, TAKE, WITHIN, daily, grade
from kcsolve.patience.daily.kept import KeptDays
from kcsolve.patience.players import honest as honest_module
from kcsolve.patience.players.honest import (
    GAMES,
    STOP_AFTER,
    STOP_Z,
    Difficulty,
    cheap_chance,
    honest_game,
    measure,
    measure_within,
)
from kcsolve.patience.rules import STANDARD, parse_rules

EASY_SEED = 84  # a deal the exploring deep player often wins


def test_the_grades_are_absolute() -> None:
    """Easy at least 50%, medium at least 25%, hard at least 10%, fiendish less."""
    for wins, games, named in [(1, 1, "easy"), (1, 2, "easy"), (49, 100, "medium"), (1, 4, "medium"), (6, 25, "hard")]:
        assert grade(Difficulty(wins, games)) == named
    assert grade(Difficulty(1, 10)) == "hard" and grade(Difficulty(99, 1000)) == "fiendish"
    assert [WITHIN[name][0] for name in GRADES] == [0.5, 0.25, 0.1, 1e-9]  # a deal of the day measures above 0


def test_the_interval_is_wilsons_and_the_label_says_what_the_figure_is() -> None:
    found = Difficulty(10, 16)
    assert found.interval() == wilson(10, 16)
    assert found.label() == (
        "chance that a careful player who cannot see the deck wins: 62% (95% interval 39% to 82%; 16 games)"
    )
    assert Difficulty(0, 16).describe() == "0"


def scripted(monkeypatch: pytest.MonkeyPatch, results: list[bool]) -> list[int]:
    """Make the honest games win as ``results`` says, game by game; the list of games played is returned."""
    played: list[int] = []

    def game(deck: object, rules: object, seed: int, k: int) -> bool:
        played.append(k)
        return results[k]

    monkeypatch.setattr(honest_module, "honest_game", game)
    return played


def test_a_deal_accepted_carries_the_full_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    results = [True, False] * (GAMES // 2)  # half the games: exactly the lowest easy chance
    played = scripted(monkeypatch, results)
    found = measure_within(deal(EASY_SEED), STANDARD, EASY_SEED, *WITHIN["easy"])
    assert found == measure(deal(EASY_SEED), STANDARD, EASY_SEED) == Difficulty(GAMES // 2, GAMES)
    assert played == [*range(GAMES), *range(GAMES)]


def test_the_games_stop_once_the_grade_is_ruled_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four losses put the one-sigma Wilson interval below 50% (no fewer games stop it); three of 24 are over 10%."""
    played = scripted(monkeypatch, [False] * GAMES)
    assert measure_within(deal(EASY_SEED), STANDARD, EASY_SEED, *WITHIN["easy"]) is None
    assert len(played) == STOP_AFTER == 4 and wilson(0, 4, STOP_Z)[1] < 0.5
    played = scripted(monkeypatch, [True] * GAMES)
    assert measure_within(deal(EASY_SEED), STANDARD, EASY_SEED, *WITHIN["fiendish"]) is None
    assert len(played) == 3 and 3 / GAMES >= 0.1 > 2 / GAMES
    played = scripted(monkeypatch, [False] * GAMES)
    assert measure_within(deal(EASY_SEED), STANDARD, EASY_SEED, *WITHIN["fiendish"]) is None
    assert len(played) == GAMES  # no game won: only the last game rules out a chance above 0


def test_honest_games_are_seeded_by_the_deal_number() -> None:
    assert honest_game(deal(EASY_SEED), STANDARD, EASY_SEED, 0) == honest_game(deal(EASY_SEED), STANDARD, EASY_SEED, 0)


def test_the_cheap_chance_is_reproducible_and_only_where_the_quick_player_models_the_rules() -> None:
    first = cheap_chance(deal(EASY_SEED), STANDARD, EASY_SEED)
    assert first is not None and 0 <= first <= 1 and first == cheap_chance(deal(EASY_SEED), STANDARD, EASY_SEED)
    assert cheap_chance(deal(EASY_SEED), STANDARD, EASY_SEED, 64) != cheap_chance(deal(33), STANDARD, 33, 64)
    assert cheap_chance(deal(EASY_SEED), parse_rules("camelot"), EASY_SEED) is None


def quick_measures(monkeypatch: pytest.MonkeyPatch, percent: int) -> list[int]:
    """Every candidate measures ``percent`` wins in 100 games, face-up grade 0; the seeds measured are returned."""
    measured: list[int] = []
    found = Difficulty(percent, 100)

    def within(deck: object, rules: object, seed: int, low: float, high: float, games: int = GAMES) -> object:
        measured.append(seed)
        return found if low <= found.chance < high else None

    monkeypatch.setattr(daily_module, "measure_within", within)
    monkeypatch.setattr(daily_module, "measure", lambda deck, rules, seed, games: found)
    monkeypatch.setattr(daily_module, "lookahead", lambda deck, rules, seed: 0)
    return measured


def test_the_ramp_takes_its_grade_and_measures_only_plausible_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    measured = quick_measures(monkeypatch, 40)
    wednesday = dt.date(2027, 3, 3)
    assert RAMP[wednesday.weekday()] == "medium"
    found = daily(wednesday, STANDARD)
    assert found.grade == "medium" and found.seed == measured[-1] and len(measured) == 1
    low, high = daily_module.CHEAP_WINDOWS["medium"]
    cheap = cheap_chance(deal(found.seed), STANDARD, found.seed)
    assert cheap is not None and low <= cheap <= high


def test_easy_and_medium_days_take_the_upper_part_of_their_grade(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Wednesday passes over deals at 30% (medium, but low in it): 64 are measured, then the nearest grade."""
    assert TAKE["easy"] == (0.65, 2.0) and TAKE["medium"] == (0.375, 0.5)
    assert [TAKE[name] for name in ("hard", "fiendish")] == [WITHIN["hard"], WITHIN["fiendish"]]
    measured = quick_measures(monkeypatch, 30)
    found = daily(dt.date(2027, 3, 3), STANDARD)
    assert len(measured) == RAMP_CANDIDATES and found.grade == "medium" and found.seed == measured[0]


def test_the_nearest_grade_when_no_candidate_has_the_weekdays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under rules without a cheap chance every winnable candidate is measured, at most RAMP_CANDIDATES."""
    measured = quick_measures(monkeypatch, 30)
    told: list[int] = []
    monday = dt.date(2027, 3, 1)
    found = daily(monday, parse_rules("camelot"), on_candidate=told.append)
    assert told == list(range(1, RAMP_CANDIDATES + 1)) and len(measured) == RAMP_CANDIDATES
    assert found.grade == "medium" and found.seed == measured[0]


def test_without_the_ramp_the_first_candidate_above_0(monkeypatch: pytest.MonkeyPatch) -> None:
    measured = quick_measures(monkeypatch, 5)
    found = daily(dt.date(2027, 3, 1), STANDARD, ramp=False)
    assert found.grade == "fiendish" and found.seed == measured[0] and found.difficulty.chance > 0


def test_a_kept_date_whose_difficulty_does_not_check_out_is_measured_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A difficulty is kept as wins and games alone: a chance kept beside them, or more wins than games, is refused."""
    quick_measures(monkeypatch, 30)
    day = dt.date(2027, 3, 3)
    days = KeptDays(STANDARD, ramp=True, root=tmp_path)
    days.put(replace(daily(day, STANDARD), difficulty=Difficulty(7, 24)))
    assert days.get(day) is not None and days.get(day).difficulty == Difficulty(7, 24)  # type: ignore[union-attr]
    kept = json.loads(days.path(day).read_text())
    assert kept["difficulty"] == {"wins": 7, "playouts": 24}
    for damaged in (
        {"wins": 7, "playouts": 24, "chance": 0.3},
        {"wins": 25, "playouts": 24},
        {"wins": 7.0, "playouts": 24},
    ):
        days.path(day).write_text(json.dumps(kept | {"difficulty": damaged}))
        assert days.get(day) is None, damaged
