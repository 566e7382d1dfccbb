"""Dates as the daily deal names them: YYYY-MM-DD only, read strictly."""

from __future__ import annotations

import calendar
import datetime as dt
import re

from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError

# Python's fromisoformat also takes '20240101' and week dates ('2024-W01-1'), and \d takes any script's digits:
# a date is written one way, so that a mistyped one is refused rather than read as some other day.
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# in English whatever the locale, as every message is
MONTHS: tuple[str, ...] = ("January", "February", "March", "April", "May", "June", "July")
MONTHS += ("August", "September", "October", "November", "December")


class InvalidDateError(KcsolveError):
    """A date that is not a real calendar day written YYYY-MM-DD."""


def parse_day(text: str) -> dt.date:
    """The day ``text`` names, written YYYY-MM-DD; InvalidDateError for anything else."""
    if not isinstance(text, str) or not DATE.fullmatch(text):
        raise InvalidDateError(f"not a date: {brief(text)} (use YYYY-MM-DD)")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InvalidDateError(f"no such day: {text!r} ({_why_no_day(text)})") from None


def _why_no_day(text: str) -> str:
    """Why a well-formed YYYY-MM-DD names no day: no such year, month or day of the month."""
    year, month, day = (int(part) for part in text.split("-"))
    if year < dt.MINYEAR:
        return "there is no year 0"
    if not 1 <= month <= 12:
        return f"there is no month {month:02d}"
    if day < 1:
        return "there is no day 00"
    return f"{MONTHS[month - 1]} {year} has {calendar.monthrange(year, month)[1]} days"


def check_day(day: object) -> dt.date:
    """``day`` itself when it is a calendar date (not a date and time); InvalidDateError if not."""
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise InvalidDateError(f"not a date: {brief(day)} (give a datetime.date)")
    return day
