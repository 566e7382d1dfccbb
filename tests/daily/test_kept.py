"""Measured dates kept between runs of `kcsolve site`: reused only when they check out, kept when a run stops."""

from __future__ import annotations

import datetime as dt
import json
import os
import stat
import threading
from pathlib import Path

import pytest
from clitools import run, unwrapped

from kcsolve.common.cache import CACHE_ENV
from kcsolve.patience.daily import calendar, kept
from kcsolve.patience.daily.kept import KeptDays, kept_daily
from kcsolve.patience.rules import parse_rules

FIRST = "2027-03-01"
DAYS = [dt.date(2027, 3, 1) + dt.timedelta(days=k) for k in range(3)]
STANDARD = parse_rules("standard")


def site_files(out: Path) -> dict[str, bytes]:
    """Every file of a site, by its path under the site."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def build(out: Path, *extra: str) -> str:
    """Build three dates of a site into ``out``; what the command printed."""
    result = run("site", "--from", FIRST, "--days", "3", "--out", str(out), "--include-future", "--force", *extra)
    assert result.exit_code == 0, result.stderr
    return "".join(line + "\n" for line in unwrapped(result.stdout))  # its line is wrapped at 80 columns


def no_measuring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any measurement fail the test: what follows must come from kept dates."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a kept date was measured again")

    for name in ("measure", "measure_within", "cheap_chance", "lookahead"):
        assert callable(getattr(calendar, name))  # a measurement renamed would leave the test patching nothing
        monkeypatch.setattr(calendar, name, refuse)


@pytest.mark.slow
def test_a_rebuild_measures_nothing_and_writes_the_same_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = build(tmp_path / "a")
    assert first == f"wrote 12 files for 3 dates under standard to {tmp_path / 'a'}\n"
    no_measuring(monkeypatch)
    again = build(tmp_path / "b")
    assert (
        again == f"wrote 12 files for 3 dates under standard to {tmp_path / 'b'}; 3 of them kept from an earlier run\n"
    )
    assert site_files(tmp_path / "a") == site_files(tmp_path / "b")


@pytest.mark.slow
def test_no_cache_measures_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(tmp_path / "a")
    no_measuring(monkeypatch)
    with pytest.raises(AssertionError, match="measured again"):
        build(tmp_path / "b", "--no-cache")


@pytest.mark.slow
def test_a_stopped_run_keeps_the_dates_it_finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = calendar.daily

    def stop_on_the_third(day: dt.date, *args: object, **kwargs: object) -> calendar.DailyDeal:
        if day == DAYS[2]:
            raise KeyboardInterrupt
        return real(day, *args, **kwargs)

    monkeypatch.setattr(kept, "daily", stop_on_the_third)
    result = run("site", "--from", FIRST, "--days", "3", "--out", str(tmp_path / "a"), "--include-future")
    assert result.exit_code == 130
    assert not (tmp_path / "a").exists()
    monkeypatch.setattr(kept, "daily", real)
    measured: list[dt.date] = []

    def counting(day: dt.date, *args: object, **kwargs: object) -> calendar.DailyDeal:
        measured.append(day)
        return real(day, *args, **kwargs)

    monkeypatch.setattr(kept, "daily", counting)
    assert build(tmp_path / "a").endswith("; 2 of them kept from an earlier run\n")
    assert measured == [DAYS[2]]


@pytest.fixture(scope="module")
def measured() -> dict[dt.date, calendar.DailyDeal]:
    """The deals of the first two dates, measured once for the file's tests of damaged kept dates."""
    return {day: calendar.daily(day, STANDARD, False) for day in DAYS[:2]}


def kept_file(day: dt.date) -> tuple[KeptDays, Path, dict]:
    """The cache of standard dates after measuring ``day``, its file, and the file's JSON."""
    days = KeptDays(STANDARD, ramp=False)
    kept_daily(day, STANDARD, False, days)
    path = days.path(day)
    return days, path, json.loads(path.read_text())


def other_candidate(day: dt.date, seed: int) -> int:
    """A candidate of ``day`` that is not ``seed``."""
    return next(s for k in range(10) if (s := calendar.candidate_seed(day, STANDARD, k)) != seed)


@pytest.mark.slow
@pytest.mark.parametrize(
    "damage",
    [
        "junk",
        "empty",
        "huge",
        "nested",
        "a list",
        "seed as text",
        "another date's deal",
        "another candidate",
        "a move changed",
        "moves cut short",
        "grade flattered",
        "chance above 1",
        "unknown difficulty field",
        "rules changed",
        "no reason",
    ],
)
def test_a_damaged_or_forged_kept_date_is_measured_again(
    damage: str, measured: dict[dt.date, calendar.DailyDeal], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[dt.date, tuple]] = []

    def measure(day: dt.date, *args: object) -> calendar.DailyDeal:
        asked.append((day, args))
        return measured[day]

    monkeypatch.setattr(kept, "daily", measure)  # the measuring itself is the same every time, and takes a second
    day = DAYS[0]
    days, path, data = kept_file(day)
    good = days.get(day)
    assert good is not None and good.seed == data["seed"]
    moves = data["solution"]["moves"]
    text = {
        "junk": "\x00\xff not json",
        "empty": "",
        "huge": json.dumps(data) + " " * kept.MAX_KEPT_BYTES,  # valid JSON, but no kept date is this large
        "nested": "[" * 100_000,
        "a list": "[1, 2]",
    }.get(damage)
    if text is None:
        if damage == "seed as text":
            data["seed"] = str(data["seed"])
        elif damage == "another date's deal":  # whole and winnable, but not one of this date's candidates
            data = {**kept_file(DAYS[1])[2], "date": day.isoformat()}
        elif damage == "another candidate":
            data["seed"] = other_candidate(day, data["seed"])
        elif damage == "a move changed":
            moves[1]["cell"] = moves[0]["cell"]  # the second card onto the first, before any removal
        elif damage == "moves cut short":
            del moves[len(moves) // 2 :]
        elif damage == "grade flattered":
            data["grade"] = "easy" if data["grade"] != "easy" else "fiendish"
        elif damage == "chance above 1":
            data["difficulty"]["chance"] = 1.5
        elif damage == "unknown difficulty field":
            data["difficulty"]["bonus"] = 1
        elif damage == "rules changed":
            data["rules"] = "camelot"
        elif damage == "no reason":
            del data["reason"]
        text = json.dumps(data)
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    assert days.get(day) is None
    asked.clear()
    again, was_kept = kept_daily(day, STANDARD, False, days)
    assert asked == [(day, (STANDARD, False))]  # the rules and the ramp the cache is kept for
    assert not was_kept and again.seed == good.seed and again.grade == good.grade
    assert days.get(day) is not None  # measured again and kept again


def test_a_pipe_where_a_kept_date_would_be_is_not_waited_on(tmp_path: Path) -> None:
    """open() of a FIFO waits for a writer for ever: the date counts as not kept, and the pipe is left alone."""
    days = KeptDays(STANDARD, ramp=False, root=tmp_path)
    path = days.path(DAYS[0])
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    found: list[object] = []
    reader = threading.Thread(target=lambda: found.append(days.get(DAYS[0])), daemon=True)
    reader.start()
    reader.join(10)
    waited = reader.is_alive()
    if waited:  # let the reader go: a writer that opens and closes gives it an end of file
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    assert not waited and found == [None] and stat.S_ISFIFO(path.stat().st_mode)


@pytest.mark.slow
def test_a_cache_that_cannot_be_written_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    assert build(tmp_path / "a") == f"wrote 12 files for 3 dates under standard to {tmp_path / 'a'}\n"
    assert build(tmp_path / "b") == f"wrote 12 files for 3 dates under standard to {tmp_path / 'b'}\n"


@pytest.mark.slow
def test_other_rules_other_ramp_and_other_code_keep_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    day = DAYS[0]
    kept_daily(day, STANDARD, False, KeptDays(STANDARD, ramp=False))
    assert KeptDays(STANDARD, ramp=False).get(day) is not None
    assert KeptDays(STANDARD, ramp=True).get(day) is None
    assert KeptDays(parse_rules("camelot"), ramp=False).get(day) is None
    monkeypatch.setattr(kept, "fingerprint", lambda: "changed-code")
    assert KeptDays(STANDARD, ramp=False).get(day) is None
