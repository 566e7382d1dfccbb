"""Game records in the JSON format of the rules, their replay, and the independent judge.

Nothing here looks at how a record was made: :func:`judge` replays every move
through the engine and decides the position itself, so a solver's claim is
only as good as the replay says.
"""

from __future__ import annotations

import io
import json
import os
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from kcsolve.common.cards import (
    DECK_SIZE,
    Card,
    InvalidCardError,
    InvalidDeckError,
    deck_from_tokens,
    parse_card,
)
from kcsolve.common.deal import SEED_LIMIT, check_seed, is_whole
from kcsolve.common.files import MAX_TEXT, TOO_LONG, not_utf8, open_regular
from kcsolve.common.jsontext import JsonTextError, read_json, read_value
from kcsolve.common.words import brief, clipped
from kcsolve.errors import KcsolveError
from kcsolve.patience.engine import (
    IllegalMoveError,
    InvalidCellError,
    Move,
    Outcome,
    Place,
    Position,
    Remove,
    Status,
    cell_index,
    cell_name,
)
from kcsolve.patience.rules import STANDARD, InvalidRulesError, Rules, as_rules, parse_rules

RESULTS = ("win", "loss", "unknown")
FACE_DOWN, FACE_UP = "face-down", "face-up"
MODES = (FACE_DOWN, FACE_UP)  # a record's "mode": how the stock was shown; absent means face down
RECORD_FORMAT = "kcsolve-record/1"  # written into every record; records without it are read as this format
MAX_MOVES = 4 * DECK_SIZE  # placements, removals and deal calls together never come near this
GRID_CELLS = 16  # a removal naming more cells than the grid has is malformed, not an illegal move
MAX_RECORD_LIST = 1500  # records in a list, as the daily page's Export all writes: a few years of daily games
# the record keys that hold a number, as the schema bounds them: (key, lowest, highest, the highest as messages say it)
NUMBERED = (("seed", 0, SEED_LIMIT - 1, "2**64-1"), ("pysol", 1, 10**20, "10**20"))
NOT_JSON = "{source}: not valid JSON ({reason})"  # a record's text that is not JSON, in the words of every reader
RECORD_KEYS = {"format", "moves", "result"}  # one of these makes a JSON object with a deck a record, not a deck
# What verify, replay and analyse say of a file kcsolve wrote that is not a game record, and what reads it instead
DECK_WORDS = "a deck, not a game record: kcsolve solve or play takes it"
DAILY_WORDS = "a daily deal, not a game record (its 'solution' is one)"
CORNER_WORDS: dict[str | None, str] = {
    "kcsolve-corner-save/1": "a saved Kings Corner game: kcsolve corner play resumes it",
    "kcsolve-corner-position/1": "a Kings Corner position: kcsolve corner turn reads it",
    None: "a Kings Corner record: kcsolve corner verify reads it",
}


class InvalidRecordError(KcsolveError):
    """A record that cannot be read: bad JSON, a bad deck, or a malformed move."""


@dataclass(frozen=True)
class RecordedPlace:
    """A placement as written in a record: the card it names and the cell."""

    card: Card
    cell: int


Entry = RecordedPlace | Remove


@dataclass(frozen=True)
class Record:
    """A deal, its rules, a claimed result and the moves played."""

    deck: tuple[Card, ...]
    rules: Rules = STANDARD
    result: str = "unknown"
    moves: tuple[Entry, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def face_up(self) -> bool:
        """Whether the game was played face up, the whole stock shown in order."""
        return self.extra.get("mode") == FACE_UP

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict: the format, extra keys (seed, stats), then the game."""
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            **{k: v for k, v in self.extra.items() if k not in ("format", "deck", "rules", "result", "moves")},
            "deck": [str(c) for c in self.deck],
            "rules": str(self.rules),
            "result": self.result,
            "moves": [_entry_json(m) for m in self.moves],
        }
        return data


def _entry_json(entry: Entry) -> dict[str, Any]:
    """One move in record form."""
    if isinstance(entry, RecordedPlace):
        return {"place": str(entry.card), "cell": cell_name(entry.cell)}
    return {"remove": [cell_name(c) for c in entry.cells]}


def record_from_moves(deck: tuple[Card, ...], rules: Rules, moves: list[Move], result: str, **extra: Any) -> Record:
    """Build a record from engine moves, naming each placed card as the deck does; a ``seed`` is a deal number."""
    if "seed" in extra:
        extra["seed"] = check_seed(extra["seed"])
    entries: list[Entry] = []
    drawn = 0
    for move in moves:
        if isinstance(move, Place):
            entries.append(RecordedPlace(deck[drawn], move.cell))
            drawn += 1
        else:
            entries.append(move)
    return Record(deck, rules, result, tuple(entries), dict(extra))


class NotJsonError(InvalidRecordError):
    """A record's text that is not JSON."""


def parse_record(text: str, source: str = "record") -> Record:
    """Read a record from JSON text; InvalidRecordError names what is wrong."""
    return record_from_json(record_json(text, source), source)


def record_json(text: str, source: str = "record") -> object:
    """The JSON value of a record's text; InvalidRecordError when it is too long or empty, NotJsonError if not JSON."""
    if not isinstance(text, str):
        raise InvalidRecordError(f"{source}: a record's text is a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidRecordError(f"{source}: {TOO_LONG}")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise InvalidRecordError(f"{source}: the file is empty")
    return read_value(text, source, NotJsonError, not_json=NOT_JSON)


def not_a_game(data: object) -> str | None:
    """What a JSON value is, in words for an error line, when it is something else kcsolve writes and not a game
    record (a deck, a daily deal, a Kings Corner file); None when it may be a record."""
    if isinstance(data, list) and data and all(isinstance(card, str) for card in data):
        return DECK_WORDS
    if not isinstance(data, dict):
        return None
    deck = data.get("deck")
    if isinstance(deck, list) and all(isinstance(card, str) for card in deck) and not data.keys() & RECORD_KEYS:
        return DAILY_WORDS if "date" in data and "solution" in data else DECK_WORDS
    return corner_kind(data)


def corner_kind(data: dict[str, Any]) -> str | None:
    """What a Kings Corner file is and which command reads it, for an error line; None for anything else."""
    kind = data.get("format")
    if not (isinstance(kind, str) and kind.startswith("kcsolve-corner-")) and data.get("game") != "kings-corner":
        return None
    return CORNER_WORDS.get(kind if isinstance(kind, str) else None) or CORNER_WORDS[None]


def is_saved_game(text: str) -> bool:
    """Whether a text is a record with moves (a game saved to resume) rather than a deck; any JSON error says no."""
    try:
        data = read_json(text)
    except JsonTextError:
        return False
    return isinstance(data, dict) and "moves" in data


def parse_record_list(text: str, source: str = "records") -> list[tuple[str, Record]]:
    """Records from a JSON list, each with its name in messages: ``game N``, and its daily date if it has one."""
    data = read_value(text, source, InvalidRecordError, MAX_TEXT, NOT_JSON)
    if (what := not_a_game(data)) is not None:
        raise InvalidRecordError(f"{source}: {what}")
    if not isinstance(data, list) or not data:
        raise InvalidRecordError(f"{source}: a list of records must be a non-empty JSON list")
    if len(data) > MAX_RECORD_LIST:
        raise InvalidRecordError(f"{source}: {len(data):,} records, more than a list's {MAX_RECORD_LIST:,}")
    named = []
    for number, item in enumerate(data, start=1):
        daily = item.get("daily") if isinstance(item, dict) else None
        day = daily.get("date") if isinstance(daily, dict) else None
        name = f"game {number}" + (f" ({day})" if isinstance(day, str) and len(day) == 10 and day[4] == "-" else "")
        named.append((name, record_from_json(item, f"{source}: {name}")))
    return named


def record_from_json(data: object, source: str = "record") -> Record:
    """A record from its JSON value (a dict, as ``json.load`` gives it); InvalidRecordError names what is wrong."""
    if not isinstance(data, dict):
        raise InvalidRecordError(f"{source}: a record must be a JSON object")
    if (corner := corner_kind(data)) is not None:
        raise InvalidRecordError(f"{source}: {corner}")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise InvalidRecordError(
            f"{source}: unknown record format {data['format']!r} (this kcsolve reads {RECORD_FORMAT!r})"
        )
    if "deck" not in data:
        raise InvalidRecordError(f"{source}: no 'deck' key")
    if not isinstance(data["deck"], list) or not all(isinstance(c, str) for c in data["deck"]):
        raise InvalidRecordError(f"{source}: 'deck' must be a list of card strings")
    rules_text = data.get("rules", "standard")
    if not isinstance(rules_text, str):
        raise InvalidRecordError(f"{source}: 'rules' must be a string, got {json.dumps(rules_text)}")
    try:
        deck = deck_from_tokens(data["deck"])
        rules = parse_rules(rules_text)
    except (InvalidDeckError, InvalidRulesError) as exc:
        raise InvalidRecordError(f"{source}: {exc}") from None
    result = data.get("result", "unknown")
    if result not in RESULTS:
        raise InvalidRecordError(f"{source}: 'result' must be one of {', '.join(RESULTS)}, got {result!r}")
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise InvalidRecordError(f"{source}: 'moves' must be a list")
    if len(moves) > MAX_MOVES:
        raise InvalidRecordError(f"{source}: {len(moves):,} moves, more than any game has ({MAX_MOVES})")
    entries = tuple(_parse_entry(m, n, source) for n, m in enumerate(moves, start=1))
    _check_numbers(data, source)
    if data.get("mode", FACE_DOWN) not in MODES:
        raise InvalidRecordError(f"{source}: 'mode' must be face-down or face-up, not {_shown(data['mode'])}")
    extra = {k: v for k, v in data.items() if k not in ("format", "deck", "rules", "result", "moves")}
    return Record(deck, rules, result, entries, extra)


def _check_numbers(data: dict[str, Any], source: str) -> None:
    """Refuse a 'seed' or 'pysol' the schema does not allow: a record that carries one is saved again with it."""
    for key, low, high, shown in NUMBERED:
        value = data.get(key, low)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidRecordError(
                f"{source}: {key!r} must be a whole number from {low} to {shown}, not {_shown(value)}"
            )
    daily = data.get("daily")
    seed = daily.get("seed") if isinstance(daily, dict) else None
    if seed is not None and not (is_whole(seed) and len(seed) <= 20 and int(seed) < SEED_LIMIT):
        raise InvalidRecordError(f"{source}: daily 'seed' must be a deal number's digits or null, not {_shown(seed)}")


def _shown(value: object) -> str:
    """A value as JSON writes it (true, null, NaN), cut short, for an error line; Python's repr if JSON has none."""
    try:
        return clipped(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return brief(value)


def _parse_entry(move: object, number: int, source: str) -> Entry:
    """Read move ``number`` of a record."""
    where = f"{source}: move {number}"
    try:
        if isinstance(move, dict) and set(move) == {"place", "cell"}:
            card, cell = move["place"], move["cell"]
            if isinstance(card, str) and isinstance(cell, str):
                return RecordedPlace(parse_card(card), cell_index(cell))
        if isinstance(move, dict) and set(move) == {"remove"} and isinstance(move["remove"], list):
            cells = move["remove"]
            if 0 < len(cells) <= GRID_CELLS and all(isinstance(c, str) for c in cells):
                return Remove(tuple(cell_index(c) for c in cells))
            if len(cells) > GRID_CELLS:
                raise InvalidRecordError(
                    f"{where}: a removal names {len(cells):,} cells, more than the grid's {GRID_CELLS}"
                )
    except (InvalidCardError, InvalidCellError) as exc:
        raise InvalidRecordError(f"{where}: {exc}") from None
    raise InvalidRecordError(
        f'{where}: expected {{"place": CARD, "cell": CELL}} or {{"remove": [CELLS]}}, got {json.dumps(move)!r}'
    )


def read_record(path: str | os.PathLike[str] | TextIO) -> Record:
    """Read a record from a path or an open text file (left open); InvalidRecordError if it cannot be read.

    No more than a record's size is read. An int is refused, not taken for a file
    descriptor: ``read_record(1)`` would close the caller's stdout.
    """
    if not isinstance(path, (str, os.PathLike)):
        return _read_open_record(path)
    try:
        with io.TextIOWrapper(open_regular(path), encoding="utf-8") as handle:  # a pipe would wait for ever
            text = handle.read(MAX_TEXT + 1)
    except UnicodeDecodeError as exc:
        raise InvalidRecordError(f"cannot read {path!r}: {not_utf8(exc.object[:2])}") from None
    except (OSError, TypeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InvalidRecordError(f"cannot read {path!r}: {reason}") from None
    return parse_record(text, repr(path))  # one character past a record's size was read: record_json refuses it


def _read_open_record(handle: object) -> Record:
    """Read a record from an open text file, which stays open."""
    read = getattr(handle, "read", None)
    if not callable(read):
        raise InvalidRecordError(f"a record is read from a path or an open text file, not {brief(handle)}")
    name = getattr(handle, "name", None)
    source = repr(name) if isinstance(name, str) else "the open file"
    try:
        text = read(MAX_TEXT + 1)
    except (OSError, ValueError) as exc:  # ValueError: a closed file, or one that is not UTF-8
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InvalidRecordError(f"cannot read {source}: {reason}") from None
    if not isinstance(text, str):
        raise InvalidRecordError(f"{source} is open in binary mode: open a record as text")
    return parse_record(text, source)


@dataclass(frozen=True)
class Step:
    """One replayed move: its number (from 1), the move, and the position after it."""

    number: int
    move: Move
    card: Card | None
    position: Position


class IllegalRecordMoveError(IllegalMoveError):
    """A move of a record that the rules do not allow; carries its number."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(f"move {number}: {message}")
        self.number = number


@dataclass(frozen=True)
class Replay:
    """The legal prefix of a record's moves, and the first illegal move if any."""

    start: Position
    steps: tuple[Step, ...]
    error: IllegalRecordMoveError | None

    @property
    def final(self) -> Position:
        """The position after the last legal move."""
        return self.steps[-1].position if self.steps else self.start


def replay(record: Record | Mapping[str, Any], rules: Rules | str | None = None) -> Replay:
    """Play the record's moves from the start, stopping at the first illegal one."""
    record = as_record(record)
    try:  # Position.start checks the deck; a record's bad deck is said to be the record's
        start = Position.start(record.deck, record.rules if rules is None else as_rules(rules))
    except InvalidDeckError as exc:
        raise InvalidRecordError(f"the record's deck is not a pack: {exc}") from None
    position = start
    steps: list[Step] = []
    for number, entry in enumerate(record.moves, start=1):
        card = None
        judged = position.outcome()
        if judged.status is not Status.UNFINISHED:
            what = f"place {entry.card} in {cell_name(entry.cell)}" if isinstance(entry, RecordedPlace) else str(entry)
            return Replay(start, tuple(steps), IllegalRecordMoveError(number, f"{what}: the game is already {judged}"))
        if isinstance(entry, RecordedPlace):
            card = position.next_card
            if card is not None and entry.card != card:
                error = IllegalRecordMoveError(
                    number, f"place {entry.card} in {cell_name(entry.cell)}: the next stock card is {card}"
                )
                return Replay(start, tuple(steps), error)
            move: Move = Place(entry.cell)
        else:
            move = entry
        try:
            position = position.play(move)
        except IllegalMoveError as exc:
            return Replay(start, tuple(steps), IllegalRecordMoveError(number, str(exc)))
        steps.append(Step(number, move, card, position))
    return Replay(start, tuple(steps), None)


@dataclass(frozen=True)
class Verdict:
    """What the judge says of a record: the outcome, the moves replayed, and any illegal move."""

    outcome: Outcome
    moves: int
    illegal: str | None = None

    @property
    def won(self) -> bool:
        """True only for a won game reached by legal moves."""
        return self.outcome.status is Status.WON and self.illegal is None

    def __str__(self) -> str:
        return f"illegal {self.illegal}" if self.illegal else str(self.outcome)


def as_record(record: Record | Mapping[str, Any]) -> Record:
    """A Record itself, or the record a JSON object (the dict ``json.load`` gives) holds."""
    if isinstance(record, Record):
        return record
    if isinstance(record, Mapping):
        return record_from_json(dict(record))
    raise InvalidRecordError(f"not a record: {reprlib.repr(record)} (give a Record or its JSON object)")


def judge(record: Record | Mapping[str, Any], rules: Rules | str | None = None) -> Verdict:
    """Replay a record and judge the position it reaches, trusting nothing it claims."""
    played = replay(record, rules)
    illegal = str(played.error) if played.error else None
    return Verdict(played.final.outcome(), len(played.steps), illegal)


def is_win(record: Record | Mapping[str, Any], rules: Rules | str | None = None) -> bool:
    """True when the record's moves, replayed, win the game."""
    return judge(record, rules).won
