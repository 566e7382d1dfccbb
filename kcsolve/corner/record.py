"""Kings Corner game records: one hand as JSON, replayed and judged by the engine alone.

A record holds the deck (top first), the number of players, the rules and the
moves in the order they were made, each a short text ('play QH N', 'merge S N',
'under 9H W', 'end'). Whose move it is and every draw follow from the rules, so
nothing else is stored; ``result`` is a claim that ``verify`` checks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kcsolve.common.cards import KING, InvalidCardError, InvalidDeckError, check_deck, parse_card
from kcsolve.common.jsontext import JsonTextError, read_json
from kcsolve.common.words import plural
from kcsolve.corner.engine import (
    PILES,
    IllegalCornerMoveError,
    InvalidCornerMoveError,
    InvalidPlayersError,
    Move,
    Position,
    card_int,
    card_text,
    check_players,
    deal_hand,
    fits_on,
    parse_move,
    rank,
)
from kcsolve.corner.rules import CornerRules, InvalidCornerRulesError, rules_from_json
from kcsolve.errors import KcsolveError

Piles = tuple[tuple[int, ...], ...]
RECORD_FORMAT = "kcsolve-corner-record/1"
POSITION_FORMAT = "kcsolve-corner-position/1"
MAX_RECORD_TEXT = 1_000_000
MAX_MOVES = 5_000  # a hand has at most 52 plays and merges per card, far fewer in practice


class InvalidCornerRecordError(KcsolveError):
    """A record that is not a Kings Corner record: malformed JSON, a bad deck, rules or move text."""


@dataclass(frozen=True)
class CornerRecord:
    """One hand: the deck, the table, the rules and the moves made."""

    deck: tuple[int, ...]
    players: int
    rules: CornerRules
    moves: tuple[Move, ...]
    seed: int | None = None
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object."""
        data: dict[str, Any] = {"format": RECORD_FORMAT, "game": "kings-corner", "players": self.players}
        if self.seed is not None:
            data["seed"] = self.seed
        data["rules"] = self.rules.to_json()
        data["deck"] = [card_text(c) for c in self.deck]
        data["moves"] = [str(m) for m in self.moves]
        if self.result is not None:
            data["result"] = self.result
        return data


def result_of(position: Position) -> dict[str, Any]:
    """What a finished (or unfinished) hand came to: the winner and the penalty points."""
    return {"over": position.over, "winner": position.winner, "penalties": list(position.penalties())}


def parse_corner_record(text: str, source: str = "record") -> CornerRecord:
    """Read a record's JSON text, checking every field; errors name the field."""
    if len(text) > MAX_RECORD_TEXT:
        raise InvalidCornerRecordError(f"{source}: more than {MAX_RECORD_TEXT:,} characters")
    try:
        data = read_json(text)
    except JsonTextError as exc:
        raise InvalidCornerRecordError(f"{source}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidCornerRecordError(f"{source}: a record must be a JSON object")
    if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise InvalidCornerRecordError(f"{source}: format {data.get('format')!r} is not {RECORD_FORMAT!r}")
    deck = _deck(data.get("deck"), source)
    players = data.get("players")
    try:
        check_players(players if isinstance(players, int) and not isinstance(players, bool) else -1)
        rules = rules_from_json(data.get("rules", {}))
    except (InvalidPlayersError, InvalidCornerRulesError) as exc:
        raise InvalidCornerRecordError(f"{source}: {exc}") from None
    if players * rules.hand_size + 4 > len(deck):
        raise InvalidCornerRecordError(f"{source}: {players} hands of {rules.hand_size} do not fit in one deck")
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise InvalidCornerRecordError(f"{source}: 'moves' must be a list of move texts")
    if len(moves) > MAX_MOVES:
        raise InvalidCornerRecordError(f"{source}: more than {MAX_MOVES:,} moves")
    parsed = []
    for number, move in enumerate(moves, start=1):
        try:
            parsed.append(parse_move(move))
        except InvalidCornerMoveError as exc:
            raise InvalidCornerRecordError(f"{source}: move {number}: {exc}") from None
    seed = data.get("seed")
    result = data.get("result")
    return CornerRecord(deck, players, rules, tuple(parsed), seed if isinstance(seed, int) else None,
                        result if isinstance(result, dict) else None)


def _deck(value: object, source: str) -> tuple[int, ...]:
    """A record's deck: 52 distinct suited cards."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise InvalidCornerRecordError(f"{source}: 'deck' must be a list of card texts")
    if len(value) != 52:
        raise InvalidCornerRecordError(f"{source}: the deck has {len(value)} cards, not 52")
    try:
        cards = tuple(parse_card(c) for c in value)
        check_deck(cards)
        return tuple(card_int(c) for c in cards)
    except (InvalidCardError, InvalidDeckError) as exc:
        raise InvalidCornerRecordError(f"{source}: the deck is not a pack: {exc}") from None


@dataclass(frozen=True)
class CornerReplay:
    """The positions a record passes through, and its first illegal move if any."""

    positions: tuple[Position, ...]
    error: str | None

    @property
    def final(self) -> Position:
        """The position after the last legal move."""
        return self.positions[-1]


def replay_corner(record: CornerRecord) -> CornerReplay:
    """Deal the record's deck and play its moves, stopping at the first illegal one."""
    position = deal_hand(record.deck, record.players, record.rules)
    positions = [position]
    for number, move in enumerate(record.moves, start=1):
        try:
            position = position.play(move)
        except IllegalCornerMoveError as exc:
            return CornerReplay(tuple(positions), f"move {number} (player {position.player + 1}): {exc}")
        positions.append(position)
    return CornerReplay(tuple(positions), None)


def judge_corner(record: CornerRecord) -> tuple[bool, str]:
    """(True, summary) when every move is legal, the hand is over and any claimed result is what happened."""
    played = replay_corner(record)
    if played.error:
        return False, f"illegal {played.error}"
    final = played.final
    found = result_of(final)
    if record.result is not None:
        for key in ("winner", "penalties", "over"):
            if key in record.result and json.dumps(record.result[key]) != json.dumps(found[key]):  # true is not 1
                claimed, actual = _in_words(key, record.result[key], record.players), _in_words(key, found[key], 0)
                return False, f"the record claims {claimed}; the replay gives {actual}"
    if not final.over:
        return False, f"unfinished after {plural(len(record.moves), 'move')}"
    return True, describe_result(final)


def _in_words(key: str, value: object, players: int) -> str:
    """A result field as a player reads it: seats counted from 1, no winner said so, a bad value shown as JSON."""
    if key == "winner":
        if value is None:
            return "no winner (an impasse)"
        if isinstance(value, int) and not isinstance(value, bool) and (not players or 0 <= value < players):
            return f"player {value + 1} went out"
        return f"the winner {json.dumps(value)[:40]}, which is no seat"
    if key == "penalties" and isinstance(value, list):
        return "penalty points " + ", ".join(f"player {i + 1}: {json.dumps(p)[:20]}" for i, p in enumerate(value))
    if key == "over":
        return "the hand over" if value is True else "the hand not over" if value is False else f"over {json.dumps(value)[:40]}"
    return f"{key} {json.dumps(value)[:40]}"


def describe_result(position: Position) -> str:
    """One line on how a hand ended."""
    points = ", ".join(f"player {i + 1}: {p}" for i, p in enumerate(position.penalties()))
    if position.winner is None:
        return f"impasse: nobody can draw or play; penalty points {points}"
    return f"player {position.winner + 1} went out; penalty points {points}"


def position_to_json(position: Position) -> dict[str, Any]:
    """A position as seen by the player to move: the piles, that player's hand, the rules."""
    return {
        "format": POSITION_FORMAT,
        "rules": position.rules.to_json(),
        "piles": {PILES[i]: [card_text(c) for c in pile] for i, pile in enumerate(position.piles)},
        "hand": [card_text(c) for c in position.hand],
    }


def parse_position(text: str, source: str = "position") -> tuple[Piles, tuple[int, ...], CornerRules]:
    """Read a position file: piles (base first) that follow the building rule, a hand, rules; no card twice."""
    if len(text) > MAX_RECORD_TEXT:
        raise InvalidCornerRecordError(f"{source}: more than {MAX_RECORD_TEXT:,} characters")
    try:
        data = read_json(text)
    except JsonTextError as exc:
        raise InvalidCornerRecordError(f"{source}: not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("piles", {}), dict):
        raise InvalidCornerRecordError(f"{source}: a position is a JSON object with 'piles' and 'hand'")
    try:
        rules = rules_from_json(data.get("rules", {}))
    except InvalidCornerRulesError as exc:
        raise InvalidCornerRecordError(f"{source}: {exc}") from None
    seen: set[int] = set()
    piles: list[tuple[int, ...]] = [()] * 8
    for name, cards in data.get("piles", {}).items():
        if name not in PILES:
            raise InvalidCornerRecordError(f"{source}: unknown pile {name!r} (piles: {', '.join(PILES)})")
        pile = _cards(cards, f"pile {name}", source, seen)
        for below, above in zip(pile, pile[1:]):
            if not fits_on(above, below):
                raise InvalidCornerRecordError(
                    f"{source}: pile {name}: {card_text(above)} cannot lie on {card_text(below)}")
        if pile and PILES.index(name) >= 4 and rank(pile[0]) != KING:
            raise InvalidCornerRecordError(f"{source}: pile {name}: a corner pile starts with a King")
        piles[PILES.index(name)] = pile
    hand = _cards(data.get("hand"), "hand", source, seen)
    return tuple(piles), tuple(sorted(hand)), rules


def _cards(value: object, what: str, source: str, seen: set[int]) -> tuple[int, ...]:
    """A list of card texts, none seen before in the file."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value) or len(value) > 52:
        raise InvalidCornerRecordError(f"{source}: {what} must be a list of at most 52 card texts")
    cards = []
    for text in value:
        try:
            card = card_int(parse_card(text))
        except InvalidCardError:
            raise InvalidCornerRecordError(f"{source}: {what}: not a suited card: {text[:20]!r}") from None
        if card in seen:
            raise InvalidCornerRecordError(f"{source}: {what}: {card_text(card)} appears twice in the position")
        seen.add(card)
        cards.append(card)
    return tuple(cards)
