"""A whole game on one line, short enough to paste into a message.

    KC1 s0 standard b2a2c2a3b3c3d1b4a4c4d3d4(d3)(c2a3)(b2b3)...

Four fields separated by single spaces:
- ``KC1``, the notation and its version;
- the deck: ``s<N>`` for seeded deal N, ``p<N>`` for PySolFC game N, or ``d:``
  and the 52 cards run together, top first (``d:8CJD9S...``);
- the rules, as ``kcsolve rules`` names them (``standard``, ``camelot+groups``);
- the moves in play order: a placement is the cell the next stock card goes to
  (``b2``), a removal is its cells in brackets (``(c2a3)``). The cards are not
  repeated: the deck says which card each placement puts down.

A game with no moves ends after the rules field. Readers replay the moves and judge
the result themselves, as for a JSON record.
"""

from __future__ import annotations

import re

from kcsolve.common.cards import DECK_SIZE, InvalidDeckError, deck_from_tokens
from kcsolve.common.deal import SEED_LIMIT, deal
from kcsolve.patience.engine import Remove, cell_index, cell_name
from kcsolve.patience.pysol import PYSOL_MAX_GAME, PysolUnavailableError, pysol_deal
from kcsolve.patience.record import (
    GRID_CELLS,
    MAX_MOVES,
    InvalidRecordError,
    Record,
    RecordedPlace,
    parse_record,
)
from kcsolve.patience.rules import InvalidRulesError, parse_rules

PREFIX = "KC1"
_MOVES = re.compile(r"([a-d][1-4])|\(((?:[a-d][1-4])+)\)")
MAX_NOTATION = 4096


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
    return " ".join(part for part in (PREFIX, source, str(record.rules), moves) if part)


def from_notation(text: str, source: str = "notation") -> Record:
    """Read a one-line game; InvalidRecordError names what is wrong."""
    if len(text) > MAX_NOTATION:
        raise InvalidRecordError(f"{source}: {len(text):,} characters, more than a one-line game's {MAX_NOTATION:,}")
    fields = text.strip().lstrip("\ufeff").split(" ")
    if len(fields) not in (3, 4) or fields[0] != PREFIX:
        raise InvalidRecordError(f"{source}: expected 'KC1 DECK RULES MOVES', got {text.strip()[:40]!r}")
    deck, extra = _deck(fields[1], source)
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
    numbered = re.fullmatch(r"([sp])(\d+)", field)
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
    """A game from either form a record takes: a JSON object, or one line of this notation."""
    if is_notation(text):
        return from_notation(text, source)
    try:
        return parse_record(text, source)
    except InvalidRecordError as exc:
        start = text.lstrip("\ufeff \t\r\n")[:1]
        if start in "{[" or "not valid JSON" not in str(exc):
            raise
        shown = text.strip().splitlines()[0][:40]
    raise InvalidRecordError(
        f"{source}: not a record: a record is a JSON object or one line of the notation "
        f"'{PREFIX} DECK RULES MOVES'; this starts {shown!r}"
    )
