"""The daily deal's face-up grade: in its JSON, in `daily`'s text, and in the kept dates."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

import pytest
from clitools import run

from kcsolve.patience.daily import calendar
from kcsolve.patience.daily.kept import KeptDays
from kcsolve.patience.daily.words import face_up_words
from kcsolve.patience.players.lookahead import lookahead
from kcsolve.patience.rules import STANDARD

DAY = dt.date(2027, 1, 6)  # a Wednesday
PLAN_DAY = dt.date(2027, 1, 14)  # a Thursday, medium: the deep player wins it seeing one card ahead (2027's calendar)


@pytest.fixture(scope="module")
def found() -> calendar.DailyDeal:
    """The deal of DAY without --ramp, measured roughly (four games a deal: the lookahead does not depend on it)."""
    return calendar.daily(DAY, STANDARD, ramp=False, games=4)


def test_the_deal_taken_is_graded_face_up(found: calendar.DailyDeal) -> None:
    assert found.face_up_lookahead == lookahead(found.deck, STANDARD, found.seed) == 1
    data = found.to_json(solution=False)
    assert data["face_up_lookahead"] == 1 and "face_up_lookahead_is" not in data
    assert found.to_json(measured=True)["face_up_lookahead_is"] == calendar.LOOKAHEAD_IS
    everything = replace(found, face_up_lookahead=None).to_json()
    assert everything["face_up_lookahead"] == "all"


def test_a_kept_date_keeps_its_face_up_grade(found: calendar.DailyDeal, tmp_path: Path) -> None:
    days = KeptDays(STANDARD, ramp=False, root=tmp_path)
    for k in (1, None):
        days.put(replace(found, face_up_lookahead=k))
        kept = days.get(DAY)
        assert kept is not None and kept.face_up_lookahead == k


@pytest.mark.parametrize("stored", [True, 3, 1.0, "1", None, "missing"])
def test_a_kept_date_with_a_bad_face_up_grade_is_measured_again(
    found: calendar.DailyDeal, tmp_path: Path, stored: object
) -> None:
    days = KeptDays(STANDARD, ramp=False, root=tmp_path)
    days.put(found)
    data = json.loads(days.path(DAY).read_text())
    if stored == "missing":
        del data["face_up_lookahead"]
    else:
        data["face_up_lookahead"] = stored
    days.path(DAY).write_text(json.dumps(data))
    assert days.get(DAY) is None


@pytest.mark.slow
def test_daily_says_how_far_ahead_to_plan() -> None:
    result = run("daily", "--date", PLAN_DAY.isoformat(), "--ramp", "--no-solution")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[2] == face_up_words(1) == "Face up: plan 1 card ahead"
    shown = run("daily", "--date", PLAN_DAY.isoformat(), "--ramp", "--no-solution", "--format", "json").stdout
    data = json.loads(shown)
    assert data["face_up_lookahead"] == 1
