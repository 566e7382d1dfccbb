"""A site's dates checked before any is measured, and each date's deal found or kept from an earlier run."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from kcsolve.patience.daily import site
from kcsolve.patience.daily.site import MAX_SITE_DAYS, SiteDatesError, SiteError, site_dates, site_deals
from kcsolve.patience.rules import STANDARD

TODAY = dt.date(2027, 3, 10)


def test_the_dates_stop_at_today_unless_the_future_is_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert site_dates(dt.date(2027, 3, 8), 5, out, today=TODAY) == [dt.date(2027, 3, d) for d in (8, 9, 10)]
    dates = site_dates(dt.date(2027, 3, 8), 5, out, include_future=True, today=TODAY)
    assert dates == [dt.date(2027, 3, d) for d in range(8, 13)]


@pytest.mark.parametrize(
    "first, days, options, message",
    [
        (TODAY, MAX_SITE_DAYS + 1, {}, f"--days {MAX_SITE_DAYS + 1}: at most {MAX_SITE_DAYS:,} dates in one site"),
        (dt.date.max, 2, {}, "--from 9999-12-31 --days 2 runs past the last date, 9999-12-31"),
        (
            dt.date(2027, 3, 11),
            1,
            {},
            "--from 2027-03-11 is after today (2027-03-10, UTC): give --include-future to write future dates",
        ),
    ],
)
def test_dates_a_site_cannot_hold_are_refused(
    tmp_path: Path, first: dt.date, days: int, options: dict, message: str
) -> None:
    with pytest.raises(SiteDatesError) as refused:
        site_dates(first, days, tmp_path / "site", today=TODAY, **options)
    assert str(refused.value) == message
    assert not (tmp_path / "site").exists()


def test_a_feed_needs_an_address_and_the_folder_is_checked(tmp_path: Path) -> None:
    with pytest.raises(SiteError, match=r"^--feed needs --base-url URL: feed readers cannot follow"):
        site_dates(TODAY, 1, tmp_path / "site", want_feed=True, today=TODAY)
    with pytest.raises(SiteError, match="is not an http:// or https:// address"):
        site_dates(TODAY, 1, tmp_path / "site", base_url="ftp://example.org", today=TODAY)
    (tmp_path / "file").write_text("mine")
    with pytest.raises(SiteError, match="is not a directory"):
        site_dates(TODAY, 1, tmp_path / "file", today=TODAY)


def test_each_date_is_found_in_turn_and_kept_ones_are_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []

    def found(day: dt.date, rules: object, ramp: bool, kept: object) -> tuple[str, bool]:
        asked.append((day, ramp, kept is not None))
        return f"deal of {day}", day.day % 2 == 0

    monkeypatch.setattr(site, "kept_daily", found)
    notes: list[tuple[dt.date, int]] = []
    dates = [dt.date(2027, 3, d) for d in (1, 2, 3, 4)]
    deals, reused = site_deals(dates, STANDARD, ramp=False, on_date=lambda day, n: notes.append((day, n)))
    assert deals == [f"deal of {day}" for day in dates] and reused == 2
    assert notes == [(day, n) for n, day in enumerate(dates, start=1)]
    assert asked == [(day, False, True) for day in dates]
    site_deals(dates[:1], STANDARD, cache=False)
    assert asked[-1] == (dates[0], True, False)
