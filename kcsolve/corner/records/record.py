"""Kings Corner game records: one hand as JSON, checked against the documented schema, replayed and judged.

A record holds the deck (top first), the number of players, the rules and the
moves in the order they were made, each a short text ('play QH N', 'merge S N',
'under 9H W', 'end'). Whose move it is and every draw follow from the rules, so
nothing else is stored; ``result`` is a claim that ``judge_corner`` checks. The
schema (format ``kcsolve-corner-record/2``) is in docs/CORNER.md: every field has
one type and one meaning, and a field the schema does not name is refused.
Format 1 records (``winner`` instead of ``winners``; from ``sim``, ``game`` as the
game's index and ``seats`` as the bots) are still read.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from kcsolve.common.cards import KING, InvalidCardError, InvalidDeckError, check_deck, parse_card
from kcsolve.common.deal import SEED_LIMIT
from kcsolve.common.files import MAX_TEXT, TOO_LONG
from kcsolve.common.jsontext import JsonTextError, json_kind, read_json, read_object
from kcsolve.common.words import clipped, plural
from kcsolve.corner.bots.bots import BOTS
from kcsolve.corner.game.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILES,
    End,
    IllegalCornerMoveError,
    InvalidCornerMoveError,
    Move,
    Play,
    Position,
    Under,
    card_int,
    card_text,
    deal_hand,
    fits_on,
    parse_move,
    rank,
    seeded_deck,
)
from kcsolve.corner.game.rules import CornerRules, InvalidCornerRulesError, rules_from_json
from kcsolve.errors import KcsolveError

Piles = tuple[tuple[int, ...], ...]
RECORD_FORMAT = "kcsolve-corner-record/2"
OLD_RECORD_FORMAT = "kcsolve-corner-record/1"
GAME = "kings-corner"
POSITION_FORMAT = "kcsolve-corner-position/1"
MAX_MOVES = 5_000  # a hand has at most 52 plays and merges per card, far fewer in practice
FIELDS = ("format", "game", "players", "seed", "index", "bots", "lead", "rules", "deck", "moves", "result")
GAME_FORMAT = "kcsolve-corner-game/2"
OLD_GAME_FORMAT = "kcsolve-corner-game/1"
GAME_FIELDS = ("format", "game", "players", "index", "bots", "rules", "hands", "result")
GAME_RESULT_FIELDS = ("totals", "winners")
RESULT_FIELDS = ("over", "winners", "penalties")
SIM_SUMMARY = ("unit", "games", "bot_wins", "seat_wins")  # the keys of the line that ends 'corner sim' JSON output
POSITION_SHAPE = "{source}: a position is a JSON object with 'piles' and 'hand'"


class InvalidCornerRecordError(KcsolveError):
    """A record that is not a Kings Corner record: malformed JSON, a field missing, of the wrong type or unknown."""


@dataclass(frozen=True)
class CornerRecord:
    """One hand: the deck, the table, the rules and the moves made; in a tournament, its index and bots."""

    deck: tuple[int, ...]
    players: int
    rules: CornerRules
    moves: tuple[Move, ...]
    seed: int | None = None
    result: dict[str, Any] | None = None
    index: int | None = None
    bots: tuple[str, ...] | None = None
    lead: int | None = None  # in a game of several hands, the player who leads this one; seats count from player 1

    def person(self, seat: int) -> int:
        """The player (from 0) sitting in engine seat ``seat`` (seat 0 plays first)."""
        return ((self.lead or 0) + seat) % self.players

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object, in the schema's order of fields."""
        bots, deck = None if self.bots is None else list(self.bots), [card_text(c) for c in self.deck]
        head = (RECORD_FORMAT, GAME, self.players, self.seed, self.index, bots, self.lead, self.rules.to_json())
        return _present(FIELDS, *head, deck, [str(m) for m in self.moves], self.result)


def _present(fields: tuple[str, ...], *values: Any) -> dict[str, Any]:
    """A record's fields with their values, in the schema's order; a field whose value is None is left out."""
    return {name: value for name, value in zip(fields, values, strict=True) if value is not None}


def result_of(position: Position, lead: int = 0) -> dict[str, Any]:
    """What a finished (or unfinished) hand came to: who went out, in order, and the penalty points; players are
    counted from the one ``lead`` places left of the hand's first player (from player 1 in a game of hands)."""
    players = position.players
    points = position.penalties()
    return {
        "over": position.over,
        "winners": [(lead + s) % players for s in position.winners],
        "penalties": [points[(p - lead) % players] for p in range(players)],
    }


def _count(value: object) -> TypeGuard[int]:
    """A JSON whole number (never true or false)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _counts(value: object, players: int = 0) -> bool:
    """A list of whole numbers from 0."""
    return isinstance(value, list) and all(_count(v) and v >= 0 for v in value)


def _seats(value: object, players: int) -> bool:
    """A list of distinct seats 0 to ``players`` - 1."""
    return (
        isinstance(value, list) and all(_count(v) and 0 <= v < players for v in value) and len(set(value)) == len(value)
    )


def _names(value: object, players: int, bots: bool = False) -> bool:
    """Null, or a list of ``players`` names: each a bot's (``bots``), else each of 1 to 40 characters."""
    return value is None or (
        isinstance(value, list)
        and len(value) == players
        and all(isinstance(b, str) and (b in BOTS if bots else 0 < len(b) <= 40) for b in value)
    )


@dataclass(frozen=True)
class Check:
    """A field checked by its value alone: the test it passes given the players; the words for a value that fails
    ({n}: the players, {last}: the last seat), to which ', not <the value>' is added; whether it must be there."""

    test: Callable[[Any, int], bool]
    words: str
    required: bool = False


# The fields of a hand record that their value alone decides (null stands for a field left out where it is allowed)
HAND_CHECKS = {
    "format": Check(lambda v, n: v == RECORD_FORMAT, f"'format' must be {RECORD_FORMAT!r}", required=True),
    "game": Check(lambda v, n: v == GAME, f"'game' must be {GAME!r}"),
    "players": Check(lambda v, n: _count(v) and MIN_PLAYERS <= v <= MAX_PLAYERS, "'players' must be 2, 3 or 4", True),
    "seed": Check(lambda v, n: _count(v) and 0 <= v < SEED_LIMIT, "'seed' must be a deal number from 0 to 2**64-1"),
    "index": Check(lambda v, n: v is None or (_count(v) and v >= 0), "'index' must be a whole number from 0"),
    "bots": Check(_names, "'bots' must be a list of {n} bot names"),
    "lead": Check(lambda v, n: v is None or (_count(v) and 0 <= v < n), "'lead' must be a player 0 to {last}"),
}
RESULT_CHECKS = {
    "over": Check(lambda v, n: isinstance(v, bool), "result 'over' must be true or false"),
    "winners": Check(_seats, "result 'winners' must be a list of distinct seats 0 to {last}"),
    "penalties": Check(
        lambda v, n: _counts(v) and len(v) == n, "result 'penalties' must be a list of {n} whole numbers from 0"
    ),
}
GAME_CHECKS = {
    **{name: HAND_CHECKS[name] for name in ("game", "players", "index")},
    "bots": Check(lambda v, n: _names(v, n, bots=True), "'bots' must be a list of {n} bot names"),
}
GAME_RESULT_CHECKS = {
    name: Check(_counts, f"result {name!r} must be a list of whole numbers") for name in GAME_RESULT_FIELDS
}
POSITION_CHECKS = {"format": Check(lambda v, n: v == POSITION_FORMAT, f"'format' must be {POSITION_FORMAT!r}")}


def _check(data: dict[str, Any], checks: dict[str, Check], players: int, source: str, *names: str) -> None:
    """Refuse the first of the fields ``names`` (every field of ``checks`` if none) whose value fails its check."""
    for name in names or tuple(checks):
        check = checks[name]
        if (name in data or check.required) and not check.test(data.get(name), players):
            words = check.words.format(n=players, last=players - 1)
            raise InvalidCornerRecordError(f"{source}: {words}, not {_brief(data.get(name))}")


def _known(data: dict[str, Any], fields: tuple[str, ...], source: str, what: str = "field") -> None:
    """Refuse a field that ``fields`` does not name."""
    unknown = [str(name) for name in data if name not in fields]
    if unknown:
        raise InvalidCornerRecordError(f"{source}: unknown {what} {_brief(unknown[0])} (fields: {', '.join(fields)})")


def _rules(data: dict[str, Any], source: str) -> CornerRules:
    """The rules a record or a position names (the default ones when it names none)."""
    try:
        return rules_from_json(data.get("rules", {}))
    except InvalidCornerRulesError as exc:
        raise InvalidCornerRecordError(f"{source}: {exc}") from None


def parse_moves(texts: list[str]) -> tuple[Move, ...]:
    """Moves from their texts; InvalidCornerMoveError names the first bad one by its number, from 1."""
    parsed = []
    for number, text in enumerate(texts, start=1):
        try:
            parsed.append(parse_move(text))
        except InvalidCornerMoveError as exc:
            raise InvalidCornerMoveError(f"move {number}: {exc}") from None
    return tuple(parsed)


def _moves(value: object, source: str) -> tuple[Move, ...]:
    """A record's moves: a list of at most MAX_MOVES move texts."""
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise InvalidCornerRecordError(f"{source}: 'moves' must be a list of move texts")
    if len(value) > MAX_MOVES:
        raise InvalidCornerRecordError(f"{source}: more than {MAX_MOVES:,} moves")
    try:
        return parse_moves(value)
    except InvalidCornerMoveError as exc:
        raise InvalidCornerRecordError(f"{source}: {exc}") from None


def parse_corner_record(text: str, source: str = "record") -> CornerRecord:
    """Read a record's JSON text, checking it against the schema; an error names the field at fault."""
    return record_from_json(read_object(text, source, InvalidCornerRecordError, limit=MAX_TEXT), source)


def record_from_json(data: dict[str, Any], source: str) -> CornerRecord:
    """A hand record from its JSON object, checked against the schema."""
    if data.get("format") == OLD_RECORD_FORMAT:
        data = _from_format_1(data, source)
    else:
        _check(data, HAND_CHECKS, 0, source, "format")
    _known(data, FIELDS, source)
    _check(data, HAND_CHECKS, 0, source, "game")
    for name in ("players", "deck", "moves"):
        if name not in data:
            raise InvalidCornerRecordError(f"{source}: the field {name!r} is missing")
    deck = _deck(data["deck"], source)
    _check(data, HAND_CHECKS, 0, source, "players")
    players, rules = data["players"], _rules(data, source)
    if players * rules.hand_size + 4 > len(deck):
        raise InvalidCornerRecordError(f"{source}: {players} hands of {rules.hand_size} do not fit in one deck")
    _check(data, HAND_CHECKS, players, source, "seed", "index", "bots")
    bots = data.get("bots")
    unknown_bots = [name for name in bots or () if name not in BOTS]
    if unknown_bots:
        raise InvalidCornerRecordError(f"{source}: 'bots': unknown bot {unknown_bots[0]!r} (bots: {', '.join(BOTS)})")
    moves = _moves(data["moves"], source)
    _check(data, HAND_CHECKS, players, source, "lead")
    result = _result(data["result"], players, source) if "result" in data else None
    seed, index, lead = data.get("seed"), data.get("index"), data.get("lead")
    return CornerRecord(deck, players, rules, moves, seed, result, index, None if bots is None else tuple(bots), lead)


def _from_format_1(data: dict[str, Any], source: str) -> dict[str, Any]:
    """A format 1 record in format 2's fields: 'winner' becomes 'winners'; sim's 'game' and 'seats' are the
    index and the bots."""
    new = {("index" if k == "game" and _count(v) else "bots" if k == "seats" else k): v for k, v in data.items()}
    result = new.get("result")
    if isinstance(result, dict) and "winner" in result:
        result = {k: v for k, v in result.items() if k != "winner"}
        winner = data["result"]["winner"]
        if winner is not None and not _count(winner):
            raise InvalidCornerRecordError(f"{source}: result 'winner' must be a seat or null, not {_brief(winner)}")
        new["result"] = {**result, "winners": [] if winner is None else [winner]}
    return new


def _result(value: object, players: int, source: str) -> dict[str, Any]:
    """A record's claimed result: 'over' true or false, 'winners' a list of seats, 'penalties' one count a seat."""
    if not isinstance(value, dict):
        raise InvalidCornerRecordError(f"{source}: 'result' must be a JSON object, not {json_kind(value)}")
    _known(value, RESULT_FIELDS, source, "result field")
    _check(value, RESULT_CHECKS, players, source)
    return dict(value)


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
            return CornerReplay(tuple(positions), f"move {number} (player {record.person(position.player) + 1}): {exc}")
        positions.append(position)
    return CornerReplay(tuple(positions), None)


def judge_corner(record: CornerRecord) -> tuple[bool, str]:
    """(True, summary) when the deal number gives the deck, every move is legal, the hand is over and any claimed
    result is what happened; else (False, the first thing wrong)."""
    if record.seed is not None:
        dealt = seeded_deck(record.seed)
        if dealt != record.deck:
            place = next(i for i, (a, b) in enumerate(zip(dealt, record.deck)) if a != b)
            return False, (
                f"deal number {record.seed} does not give this deck: card {place + 1} is "
                f"{card_text(dealt[place])}, not {card_text(record.deck[place])}"
            )
    played = replay_corner(record)
    if played.error:
        return False, f"illegal {played.error}"
    final = played.final
    found = result_of(final, record.lead or 0)
    for key in RESULT_FIELDS:
        if record.result is not None and key in record.result and record.result[key] != found[key]:
            return (
                False,
                f"the record claims {_in_words(key, record.result[key])}; the replay gives "
                f"{_in_words(key, found[key])}",
            )
    if not final.over:
        return False, f"unfinished after {plural(len(record.moves), 'move')}"
    return True, describe_result(final, record.lead or 0)


def untested_options(record: CornerRecord, played: CornerReplay) -> list[str]:
    """The options the record sets (other than their defaults) that its moves never put to the test, as rule texts:
    'under=yes' with no card put under a pile, 'tie=yes' with no last round, 'target' in a single hand, ..."""
    rules, first, final = record.rules, played.positions[0], played.final
    steps = list(zip(played.positions, record.moves, played.positions[1:]))
    ends = [(before, after) for before, move, after in steps if isinstance(move, End)]
    dealt = record.players * rules.hand_size + 4
    drew = len(first.stock) < 52 - dealt or any(len(a.stock) < len(b.stock) for b, _, a in steps)
    tested = {
        "draw": drew,
        "until_play": drew,
        "draw_two": any(
            len(before.stock) >= 2 and not before.winners and not (rules.until_play and before.moved)
            for before, _ in ends
        )
        or (rules.draw == "start" and len(first.stock) < 52 - dealt - 1),
        "under": any(isinstance(move, Under) for move in record.moves),
        "draw_three": any(
            isinstance(move, Play | Under) and len(before.hand) == 1 and after.hands[before.player]
            for before, move, after in steps
        ),
        "dealt_kings": any(rank(card) == KING for card in record.deck[dealt - 4 : dealt]),
        "tie": any(before.winners for before, _, _ in steps),
        "scoring": any(final.hands),
        "target": False,
        "hand_size": True,
    }
    options = [text for text in str(rules).split("+") if text != "default"]
    return [text for text in options if not tested[text.partition("=")[0]]]


@dataclass(frozen=True)
class CornerGame:
    """A game of several hands to the target score: each hand's record (players counted from player 1 throughout,
    each hand saying who led it), and the claimed totals and winners."""

    players: int
    rules: CornerRules
    hands: tuple[CornerRecord, ...]
    index: int | None = None
    bots: tuple[str, ...] | None = None
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The game as a JSON object, in the schema's order of fields."""
        bots, hands = None if self.bots is None else list(self.bots), [hand.to_json() for hand in self.hands]
        return _present(
            GAME_FIELDS, GAME_FORMAT, GAME, self.players, self.index, bots, self.rules.to_json(), hands, self.result
        )


def game_of(
    players: int,
    rules: CornerRules,
    deals: list[int],
    hand_moves: list[tuple[Move, ...]],
    index: int | None = None,
    bots: tuple[str, ...] | None = None,
) -> CornerGame:
    """The record of a game whose hand h (from 0) was dealt from ``deals[h]``, led by player h mod ``players``, and
    played with ``hand_moves[h]``; each hand's result and the game's totals and winners as the replay gives them."""
    hands = []
    for number, (deal, moves) in enumerate(zip(deals, hand_moves)):
        lead = number % players
        record = CornerRecord(seeded_deck(deal), players, rules, moves, deal, lead=lead)
        hands.append(
            CornerRecord(
                record.deck, players, rules, moves, deal, result_of(replay_corner(record).final, lead), lead=lead
            )
        )
    totals = [sum(hand.result["penalties"][p] for hand in hands if hand.result) for p in range(players)]
    winners = [p for p, total in enumerate(totals) if total == min(totals)]
    return CornerGame(players, rules, tuple(hands), index, bots, {"totals": totals, "winners": winners})


def game_from_json(data: dict[str, Any], source: str) -> CornerGame:
    """A game record from its JSON object, checked against the schema; each hand as a hand record."""
    _known(data, GAME_FIELDS, source)
    _check(data, GAME_CHECKS, 0, source, "game", "players")
    players, hands, rules = data["players"], data.get("hands"), _rules(data, source)
    if not isinstance(hands, list) or not hands or not all(isinstance(hand, dict) for hand in hands):
        raise InvalidCornerRecordError(f"{source}: 'hands' must be a list of hand records, one at least")
    records = tuple(record_from_json(hand, f"{source}: hand {n}") for n, hand in enumerate(hands, start=1))
    for n, record in enumerate(records, start=1):
        if record.players != players or record.rules != rules:
            raise InvalidCornerRecordError(f"{source}: hand {n}: its players and rules must be the game's")
    _check(data, GAME_CHECKS, players, source, "index", "bots")
    index, bots, result = data.get("index"), data.get("bots"), data.get("result")
    if result is not None:
        if not isinstance(result, dict) or any(name not in GAME_RESULT_FIELDS for name in result):
            raise InvalidCornerRecordError(
                f"{source}: 'result' must be an object with {' and '.join(GAME_RESULT_FIELDS)}"
            )
        _check(result, GAME_RESULT_CHECKS, players, source)
    return CornerGame(players, rules, records, index, None if bots is None else tuple(bots), result)


def parse_corner_file(text: str, source: str = "record") -> CornerRecord | CornerGame:
    """A hand record or a game record, by its format."""
    if len(text) > MAX_TEXT:
        raise InvalidCornerRecordError(f"{source}: {TOO_LONG}")
    if is_json_lines(text):
        raise InvalidCornerRecordError(f"{source}: records one a line: kcsolve corner verify reads them; give one here")
    return corner_from_json(read_object(text, source, InvalidCornerRecordError), source)


def corner_from_json(data: dict[str, Any], source: str) -> CornerRecord | CornerGame:
    """A hand record or a game record from its JSON object, by its format."""
    if data.get("format") == OLD_GAME_FORMAT:
        raise InvalidCornerRecordError(
            f"{source}: a {OLD_GAME_FORMAT} record holds totals only, no hands to "
            f"replay ('corner sim --match --format json' now writes {GAME_FORMAT})"
        )
    return game_from_json(data, source) if data.get("format") == GAME_FORMAT else record_from_json(data, source)


def is_json_lines(text: str) -> bool:
    """Whether a text is records one a line (JSON Lines, as 'corner sim --format json' writes): more than one line
    holds something, and the first of them is a JSON object by itself."""
    lines = [line for line in text.removeprefix("\ufeff").splitlines() if line.strip()]
    if len(lines) < 2 or not lines[0].lstrip().startswith("{"):
        return False
    try:
        return isinstance(read_json(lines[0]), dict)
    except JsonTextError:
        return False


def parse_corner_lines(text: str, source: str = "records") -> list[tuple[str, CornerRecord | CornerGame]]:
    """The records of a JSON Lines text, each named by its line ('line 3'); the summary that ends sim's output and
    blank lines are passed over."""
    if len(text) > MAX_TEXT:
        raise InvalidCornerRecordError(f"{source}: {TOO_LONG}")
    named: list[tuple[str, CornerRecord | CornerGame]] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{source}: line {number}"
        data = read_object(line, where, InvalidCornerRecordError)
        if "format" not in data and all(key in data for key in SIM_SUMMARY):
            continue
        named.append((f"line {number}", corner_from_json(data, where)))
    if not named:
        raise InvalidCornerRecordError(f"{source}: no records, only a summary")
    return named


def judge_any(record: CornerRecord | CornerGame) -> tuple[bool, str]:
    """judge_game for a game of hands, judge_corner for one hand."""
    return judge_game(record) if isinstance(record, CornerGame) else judge_corner(record)


def judge_game(game: CornerGame) -> tuple[bool, str]:
    """(True, summary) when every hand is good (judge_corner), each is led by the next player to the left, the
    game ends with the first hand that takes a player to the target, and the claimed totals and winners are the
    replay's; else (False, the first thing wrong, naming the hand)."""
    totals = [0] * game.players
    for number, hand in enumerate(game.hands, start=1):
        if max(totals) >= game.rules.target:
            return False, f"hand {number} was played after a player reached {game.rules.target} points"
        lead = (number - 1) % game.players
        if (hand.lead or 0) != lead:
            return False, (
                f"hand {number} is led by player {(hand.lead or 0) + 1}; the lead passes left, so player "
                f"{lead + 1} leads it"
            )
        good, summary = judge_corner(hand)
        if not good:
            return False, f"hand {number}: {summary}"
        points = result_of(replay_corner(hand).final, lead)["penalties"]
        totals = [total + p for total, p in zip(totals, points)]
    if max(totals) < game.rules.target:
        return False, f"unfinished: after {plural(len(game.hands), 'hand')} nobody has {game.rules.target} points"
    winners = [p for p, total in enumerate(totals) if total == min(totals)]
    found = {"totals": totals, "winners": winners}
    for key in GAME_RESULT_FIELDS:
        if game.result is not None and key in game.result and game.result[key] != found[key]:
            return False, f"the record claims {key} {game.result[key]}; the replay gives {found[key]}"
    who = (
        f"player {winners[0] + 1} wins"
        if len(winners) == 1
        else "a tie between players " + " and ".join(str(w + 1) for w in winners)
    )
    points = ", ".join(f"player {p + 1}: {total}" for p, total in enumerate(totals))
    return True, f"{plural(len(game.hands), 'hand')}; {who} with the lowest total; totals {points}"


def _in_words(key: str, value: Any) -> str:
    """A result field as a player reads it: seats counted from 1, no winner said so."""
    if key == "winners":
        return winners_text(value) if value else "no winner"
    if key == "penalties":
        return "penalty points " + ", ".join(f"player {i + 1}: {p}" for i, p in enumerate(value))
    return "the hand over" if value else "the hand not over"


def winners_text(winners: list[int] | tuple[int, ...]) -> str:
    """Who went out, seats from 1: 'player 2 went out', 'player 2 went out and players 1 and 3 tied'."""
    first = f"player {winners[0] + 1} went out"
    if len(winners) == 1:
        return first
    tied = [str(w + 1) for w in winners[1:]]
    names = tied[0] if len(tied) == 1 else ", ".join(tied[:-1]) + " and " + tied[-1]
    return f"{first} and {'player' if len(tied) == 1 else 'players'} {names} tied"


def describe_result(position: Position, lead: int = 0) -> str:
    """One line on how a hand ended, players counted as ``result_of`` counts them."""
    found = result_of(position, lead)
    points = ", ".join(f"player {i + 1}: {p}" for i, p in enumerate(found["penalties"]))
    if not position.winners:
        return f"impasse: no card can be drawn or played; penalty points {points}"
    return f"{winners_text(found['winners'])}; penalty points {points}"


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
    data = read_object(text, source, InvalidCornerRecordError, limit=MAX_TEXT, not_object=POSITION_SHAPE)
    if not isinstance(data.get("piles", {}), dict):
        raise InvalidCornerRecordError(POSITION_SHAPE.format(source=source))
    _check(data, POSITION_CHECKS, 0, source)  # a hand-written position may leave its format out
    rules = _rules(data, source)
    seen: set[int] = set()
    piles: list[tuple[int, ...]] = [()] * 8
    for name, cards in data.get("piles", {}).items():
        if name not in PILES:
            raise InvalidCornerRecordError(f"{source}: unknown pile {name!r} (piles: {', '.join(PILES)})")
        pile = _cards(cards, f"pile {name}", source, seen)
        for below, above in itertools.pairwise(pile):
            if not fits_on(above, below):
                raise InvalidCornerRecordError(
                    f"{source}: pile {name}: {card_text(above)} cannot lie on {card_text(below)}"
                )
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


def _brief(value: object) -> str:
    """A JSON value as JSON, cut to 40 characters, for an error line."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return clipped(text)
