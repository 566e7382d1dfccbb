"""Dates as the daily deal names them: YYYY-MM-DD only, read strictly."""

from __future__ import annotations

import datetime as dt
import re

from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError

# Python's fromisoformat also takes '20240101' and week dates ('2024-W01-1'), and \d takes any script's digits:
# a date is written one way, so that a mistyped one is refused rather than read as some other day.
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class InvalidDateError(KcsolveError):
    """A date that is not a real calendar day written YYYY-MM-DD."""


def parse_day(text: str) -> dt.date:
    """The day ``text`` names, written YYYY-MM-DD; InvalidDateError for anything else."""
    if not isinstance(text, str) or not DATE.fullmatch(text):
        raise InvalidDateError(f"not a date: {brief(text)} (use YYYY-MM-DD)")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InvalidDateError(f"not a date: {text!r} (use YYYY-MM-DD)") from None


def check_day(day: object) -> dt.date:
    """``day`` itself when it is a calendar date (not a date and time); InvalidDateError if not."""
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise InvalidDateError(f"not a date: {brief(day)} (give a datetime.date)")
    return day
