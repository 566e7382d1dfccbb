"""Saved games of the Kings Corner table: a JSON file holding what it takes to deal and replay every hand so far.

``{"format": "kcsolve-corner-save/1", "game": "kings-corner", "seed": 3, "players": 4,
"bots": "greedy", "rules": {...}, "match": true, "hands": [["play 8D N", "end", ...], ...]}``:
hand h (from 0) is deal number ``seed + h``; ``hands`` holds every hand's moves,
the last one the hand in play. The file is checked field by field here and
replayed by the table; anything else is refused with the field named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from kcsolve.common.deal import SEED_LIMIT
from kcsolve.common.files import MAX_TEXT
from kcsolve.common.jsontext import read_object
from kcsolve.common.words import brief
from kcsolve.corner.bots.bots import BOTS
from kcsolve.corner.game.engine import MAX_PLAYERS, MIN_PLAYERS, InvalidCornerMoveError, Move
from kcsolve.corner.game.rules import CornerRules, InvalidCornerRulesError, rules_from_json
from kcsolve.corner.records.record import MAX_MOVES, parse_moves
from kcsolve.errors import KcsolveError

SAVE_FORMAT = "kcsolve-corner-save/1"
MAX_HANDS = 10_000  # a game to the largest target scores at least a point a hand
FIELDS = ("format", "game", "seed", "players", "bots", "rules", "match", "hands")
SAVE_SHAPE = "{source}: {what} is a JSON object"


class InvalidCornerSaveError(KcsolveError):
    """A saved game that cannot be resumed: malformed, damaged, or not a saved Kings Corner game."""


@dataclass(frozen=True)
class SavedGame:
    """A game at the table as saved: the deal numbers, the table, and each hand's moves."""

    seed: int
    players: int
    bots: str
    rules: CornerRules
    match: bool
    hands: tuple[tuple[Move, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The saved game as a JSON object."""
        return {
            "format": SAVE_FORMAT,
            "game": "kings-corner",
            "seed": self.seed,
            "players": self.players,
            "bots": self.bots,
            "rules": self.rules.to_json(),
            "match": self.match,
            "hands": [[str(m) for m in hand] for hand in self.hands],
        }


def parse_saved(text: str, source: str = "saved game") -> SavedGame:
    """Read a saved game's JSON text; InvalidCornerSaveError names the source and the bad field."""

    def bad(why: str) -> InvalidCornerSaveError:
        return InvalidCornerSaveError(f"{source}: {why}")

    data = read_object(text, source, InvalidCornerSaveError, "a saved game", MAX_TEXT, not_object=SAVE_SHAPE)
    unknown = [key for key in data if key not in FIELDS]
    if unknown:
        raise bad(f"unknown field {str(unknown[0])[:40]!r} (fields: {', '.join(FIELDS)})")
    if data.get("format") != SAVE_FORMAT:
        raise bad(f"format {brief(data.get('format'))} is not {SAVE_FORMAT!r}")
    if data.get("game") != "kings-corner":
        raise bad(f"game {brief(data.get('game'))} is not 'kings-corner'")
    seed, players, bots, match = data.get("seed"), data.get("players"), data.get("bots"), data.get("match")
    if not _whole(seed) or not 0 <= seed < SEED_LIMIT:
        raise bad(f"'seed' must be a deal number from 0 to 2**64-1, not {brief(seed)}")
    if not _whole(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise bad(f"'players' must be 2, 3 or 4, not {brief(players)}")
    names = bots.split(",") if isinstance(bots, str) else []  # a list or an object cannot be looked up in a dict
    if (
        not isinstance(bots, str)
        or not names
        or any(name not in BOTS for name in names)
        or len(names) not in (1, players - 1)
    ):
        raise bad(
            f"'bots' must be one of {', '.join(BOTS)}, or one a seat besides yours joined with commas, "
            f"not {brief(bots)}"
        )
    if not isinstance(match, bool):
        raise bad(f"'match' must be true or false, not {brief(match)}")
    try:
        rules = rules_from_json(data.get("rules"))
    except InvalidCornerRulesError as exc:
        raise bad(str(exc)) from None
    if players * rules.hand_size + 4 > 52:
        raise bad(f"{players} hands of {rules.hand_size} do not fit in one deck")
    return SavedGame(seed, players, bots, rules, match, _hands(data.get("hands"), match, bad))


def _hands(value: object, match: bool, bad: Any) -> tuple[tuple[Move, ...], ...]:
    """Each hand's moves, read with the engine's move parser."""
    most = MAX_HANDS if match else 1
    if not isinstance(value, list) or not 1 <= len(value) <= most:
        raise bad(f"'hands' must be a list of 1 to {most:,} lists of moves")
    hands = []
    for number, hand in enumerate(value, start=1):
        if not isinstance(hand, list) or not all(isinstance(m, str) for m in hand) or len(hand) > MAX_MOVES:
            raise bad(f"hand {number}: must be a list of at most {MAX_MOVES:,} move texts")
        try:
            hands.append(parse_moves(hand))
        except InvalidCornerMoveError as exc:
            raise bad(f"hand {number}, {exc}") from None
    return tuple(hands)


def _whole(value: object) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)
