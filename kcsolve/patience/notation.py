"""A whole game on one line, short enough to paste into a message.

    KC1 s0 standard b2a2c2a3b3c3d1b4a4c4d3d4(d3)(c2a3)(b2b3)...

Four fields separated by single spaces, a fifth for a game played face up:
- ``KC1``, the notation and its version;
- the deck: ``s<N>`` for seeded deal N, ``p<N>`` for PySolFC game N, or ``d:``
  and the 52 cards run together, top first (``d:8CJD9S...``);
- the rules, as ``kcsolve rules`` names them (``standard``, ``camelot+groups``);
- ``face-up`` for a game played with the whole stock shown in order, absent for
  one played face down (a reader takes ``face-down`` there too);
- the moves in play order: a placement is the cell the next stock card goes to
  (``b2``), a removal is its cells in brackets (``(c2a3)``). The cards are not
  repeated: the deck says which card each placement puts down.

A game with no moves ends after the rules field (or after ``face-up``). Readers replay the moves and judge
the result themselves, as for a JSON record.
"""

from __future__ import annotations

import re

from kcsolve.common.cards import DECK_SIZE, InvalidDeckError, deck_from_tokens, parse_deck
from kcsolve.common.deal import SEED_LIMIT, deal
from kcsolve.common.files import MAX_TEXT, TOO_LONG
from kcsolve.common.jsontext import JsonTextError, read_json
from kcsolve.patience.engine import Remove, cell_index, cell_name
from kcsolve.patience.pysol import PYSOL_MAX_GAME, PysolUnavailableError, pysol_deal
from kcsolve.patience.record import (
    DECK_WORDS,
    FACE_UP,
    GRID_CELLS,
    MAX_MOVES,
    MODES,
    InvalidRecordError,
    NotJsonError,
    Record,
    RecordedPlace,
    not_a_game,
    record_from_json,
    record_json,
)
from kcsolve.patience.rules import InvalidRulesError, parse_rules

PREFIX = "KC1"
_MOVES = re.compile(r"([a-d][1-4])|\(((?:[a-d][1-4])+)\)")


def is_notation(text: str) -> bool:
    """Whether a text is a game in this notation rather than JSON."""
    return text.lstrip("\ufeff \t\r\n").startswith(PREFIX + " ")


def to_notation(record: Record) -> str:
    """The record on one line."""
    seed, pysol = record.extra.get("seed"), record.extra.get("pysol")
    if isinstance(seed, int) and tuple(deal(seed)) == record.deck:
        source = f"s{seed}"
    elif isinstance(pysol, int):
        source = f"p{pysol}"
    else:
        source = "d:" + "".join(str(c) for c in record.deck)
    moves = "".join(
        cell_name(m.cell) if isinstance(m, RecordedPlace) else "(" + "".join(map(cell_name, m.cells)) + ")"
        for m in record.moves
    )
    mode = FACE_UP if record.face_up else ""
    return " ".join(part for part in (PREFIX, source, str(record.rules), mode, moves) if part)


def from_notation(text: str, source: str = "notation") -> Record:
    """Read a one-line game; InvalidRecordError names what is wrong."""
    if len(text) > MAX_TEXT:
        raise InvalidRecordError(f"{source}: {TOO_LONG}")
    fields = text.strip().lstrip("\ufeff").split(" ")
    mode = fields.pop(3) if len(fields) > 3 and fields[3] in MODES else None
    if len(fields) not in (3, 4) or fields[0] != PREFIX:
        raise InvalidRecordError(f"{source}: expected 'KC1 DECK RULES MOVES', got {text.strip()[:40]!r}")
    deck, extra = _deck(fields[1], source)
    if mode == FACE_UP:
        extra["mode"] = FACE_UP
    try:
        rules = parse_rules(fields[2])
    except InvalidRulesError as exc:
        raise InvalidRecordError(f"{source}: {exc}") from None
    moves_text = fields[3] if len(fields) == 4 else ""
    entries: list[RecordedPlace | Remove] = []
    position = placed = 0
    for match in _MOVES.finditer(moves_text):
        if match.start() != position:
            raise InvalidRecordError(f"{source}: cannot read the moves at {moves_text[position : position + 8]!r}")
        position = match.end()
        if len(entries) == MAX_MOVES:
            raise InvalidRecordError(f"{source}: more than {MAX_MOVES} moves, more than any game has")
        if match.group(1):
            if placed == DECK_SIZE:
                raise InvalidRecordError(f"{source}: more placements than the deck has cards")
            entries.append(RecordedPlace(deck[placed], cell_index(match.group(1))))
            placed += 1
        else:
            cells = re.findall(r"[a-d][1-4]", match.group(2))
            if len(cells) > GRID_CELLS:
                raise InvalidRecordError(
                    f"{source}: move {len(entries) + 1}: a removal names {len(cells):,} cells, "
                    f"more than the grid's {GRID_CELLS}"
                )
            entries.append(Remove(tuple(cell_index(c) for c in cells)))
    if position != len(moves_text):
        raise InvalidRecordError(f"{source}: cannot read the moves at {moves_text[position : position + 8]!r}")
    return Record(deck, rules, "unknown", tuple(entries), extra)


# s<N> and p<N>: the numbers each may carry, as the error line states them
NUMBER_RANGES = {
    "s": ("a deal number", 0, SEED_LIMIT - 1, "2**64-1"),
    "p": ("a PySolFC game number", 1, PYSOL_MAX_GAME, "10**20"),
}


def _check_number(field: str, source: str) -> None:
    """Refuse an s<N> or p<N> whose number is out of range, quoting the field whole (the error line bounds it)."""
    what, low, high, shown = NUMBER_RANGES[field[0]]
    digits = field[1:].lstrip("0")
    if len(digits) > len(str(high)) or not low <= int(digits or "0") <= high:
        raise InvalidRecordError(f"{source}: {field!r} is out of range: {what} is from {low} to {shown}")


def _deck(field: str, source: str) -> tuple[tuple, dict]:
    """The deck a notation's second field names, and the record keys that say where it came from."""
    numbered = re.fullmatch(r"([sp])([0-9]+)", field)  # \d and int() would take other scripts' digits
    if numbered:
        _check_number(field, source)
    try:
        if numbered and field[0] == "s":
            seed = int(field[1:])
            return deal(seed), {"seed": seed}
        if numbered:
            number = int(field[1:])
            return pysol_deal(number), {"pysol": number}
        if field.startswith("d:"):
            return deck_from_tokens(re.findall(r"..", field[2:])), {}
    except PysolUnavailableError:
        raise  # a missing package, not a bad record: its message stands alone
    except (InvalidDeckError, ValueError) as exc:
        raise InvalidRecordError(f"{source}: {exc}") from None
    raise InvalidRecordError(f"{source}: the deck must be s<N>, p<N> or d:<52 cards>, got {field[:20]!r}")


def read_game(text: str, source: str = "record") -> Record:
    """A game from either form a record takes: a JSON object, or one line of this notation; a deck, a daily deal
    or a Kings Corner file is refused as what it is."""
    if is_notation(text):
        return from_notation(text, source)
    try:
        data = record_json(text, source)
    except NotJsonError:
        why = _not_json(text)
        if why is None:
            raise
        raise InvalidRecordError(f"{source}: {why}") from None
    what = not_a_game(data)
    if what is not None:
        raise InvalidRecordError(f"{source}: {what}")
    return record_from_json(data, source)


def _not_json(text: str) -> str | None:
    """What a text that is neither JSON nor the notation is, when it is not a game record; None for broken JSON."""
    lines = text.lstrip("\ufeff \t\r\n").splitlines() or [""]
    try:
        first = read_json(lines[0])
    except JsonTextError:
        first = None
    if isinstance(first, dict) and len(lines) > 1:  # JSON Lines, as 'solve --count' and 'corner sim' write them
        what = not_a_game(first)
        return f"line 1 is {what}" if what else "records one a line: give one record, or a JSON list of them"
    if lines[0][:1] in "{[":
        return None
    try:
        parse_deck(text)
    except InvalidDeckError:
        return (
            f"not a record: a record is a JSON object or one line of the notation '{PREFIX} DECK RULES MOVES'; "
            f"this starts {lines[0][:40]!r}"
        )
    return DECK_WORDS
