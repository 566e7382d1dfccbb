"""What a daily page recorded of a game: the ``daily`` object of an exported record, read and checked, in words.

The page (``daily/web/store.mjs``) keeps with each game the help used and its
first finish; ``kcsolve verify`` says them after its own verdict of the moves.
Every field is checked as the page's ``checkEntry`` checks an import, so a
malformed object is refused, naming the field, and no word comes from
anything but a checked field.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kcsolve.common.words import clipped, plural
from kcsolve.patience.engine import Status
from kcsolve.patience.record import InvalidRecordError, Verdict

HELP_KINDS = ("undo", "hint", "check", "restart", "solution")  # store.mjs HELP_KINDS, in the share line's order
HELP_NAMES = {"undo": "undo", "hint": "hint", "check": "still-winnable check", "restart": "restart"}
FIRST_STATUSES = ("won", "lost", "shown")  # store.mjs FIRST_STATUSES: how the date's first finish ended
MAX_COUNT = 100_000  # store.mjs wholeNumber's bound on a count
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class FirstFinish:
    """The first finish the page recorded: won, lost or solution shown, after how many moves, with what help."""

    status: str
    moves: int
    help: dict[str, int]


@dataclass(frozen=True)
class DailyGame:
    """A record's checked ``daily`` object: the date, the help counted, the first finish, whether it was imported."""

    date: str
    help: dict[str, int]
    first: FirstFinish | None
    imported: bool


def read_daily(extra: Mapping[str, Any], source: str) -> DailyGame | None:
    """The checked ``daily`` object of a record's extra keys, or None without one; InvalidRecordError names a bad
    field."""
    if "daily" not in extra:
        return None
    daily = extra["daily"]
    if not isinstance(daily, dict):
        raise InvalidRecordError(f"{source}: 'daily' must be a JSON object, not {_shown(daily)}")
    date = daily.get("date")
    if not (isinstance(date, str) and _DATE.fullmatch(date) and _is_date(date)):
        raise InvalidRecordError(f"{source}: 'daily.date' must be a date (YYYY-MM-DD), not {_shown(date)}")
    help_used = _help(daily.get("help", {}), f"{source}: 'daily.help")
    first = None
    if daily.get("first") is not None:
        first = _first(daily["first"], source)
        if any(first.help[kind] > help_used[kind] for kind in HELP_KINDS):
            raise InvalidRecordError(f"{source}: 'daily.first.help' counts more help than 'daily.help'")
    imported = daily.get("imported", False)
    if not isinstance(imported, bool):
        raise InvalidRecordError(f"{source}: 'daily.imported' must be true or false, not {_shown(imported)}")
    return DailyGame(date, help_used, first, imported)


def _first(first: object, source: str) -> FirstFinish:
    """The checked ``daily.first`` object."""
    if not isinstance(first, dict):
        raise InvalidRecordError(f"{source}: 'daily.first' must be a JSON object or null, not {_shown(first)}")
    status = first.get("status")
    if status not in FIRST_STATUSES:
        raise InvalidRecordError(
            f"{source}: 'daily.first.status' must be one of {', '.join(FIRST_STATUSES)}, not {_shown(status)}"
        )
    moves = _count(first.get("moves"), f"{source}: 'daily.first.moves'")
    return FirstFinish(status, moves, _help(first.get("help", {}), f"{source}: 'daily.first.help"))


def _help(help_used: object, where: str) -> dict[str, int]:
    """The checked counts of a help object; ``where`` is the message's start, the field name's quote left open."""
    if not isinstance(help_used, dict):
        raise InvalidRecordError(f"{where}' must be a JSON object, not {_shown(help_used)}")
    return {kind: _count(help_used.get(kind, 0), f"{where}.{kind}'") for kind in HELP_KINDS}


def _count(value: object, where: str) -> int:
    """A count the page keeps: a whole number from 0 to MAX_COUNT (true and 1.5 are not)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise InvalidRecordError(f"{where} must be a whole number from 0 to {MAX_COUNT:,}, not {_shown(value)}")
    return value


def _is_date(text: str) -> bool:
    """Whether YYYY-MM-DD ``text`` names a real day (no 2027-02-30)."""
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _shown(value: object) -> str:
    """A value as JSON writes it, cut short, for an error line."""
    try:
        return clipped(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return clipped(repr(value))


def recorded_words(game: DailyGame, verdict: Verdict) -> str:
    """What the page recorded, as the clause after verify's verdict: the help of the first finish (as the share line
    counts it), a first finish the moves do not make, and whether the game was imported."""
    help_used = game.first.help if game.first else game.help  # the share line's counts
    shown = game.first is not None and game.first.status == "shown"
    words = [plural(help_used[kind], HELP_NAMES[kind]) for kind in HELP_NAMES if help_used[kind]]
    if shown:
        words.append("solution shown before the end")
    elif help_used["solution"]:
        words.append("solution shown")
    line = "the page recorded: " + (", ".join(words) or "no help")
    if game.first is not None and not shown and not _finish_matches(game.first, verdict):
        finish = f"{game.first.status} in {plural(game.first.moves, 'move')}"
        line += f" (but its first finish, {finish}, is not what the moves make)"
    return line + ("; imported" if game.imported else "")


def _finish_matches(first: FirstFinish, verdict: Verdict) -> bool:
    """Whether a recorded win or loss is what the moves make, in that many moves (the page freezes a finish)."""
    status = {"won": Status.WON, "lost": Status.LOST}[first.status]
    return verdict.illegal is None and verdict.outcome.status is status and verdict.moves == first.moves
