"""What a player types at the Kings Corner table, read into a command: a move, or a word such as ``undo``.

Case does not matter ('PLAY qh n', 'Undo'), except in a file name. Besides the
engine's own move texts, a card and a pile ('QH N') plays the card there, two
piles ('S N') move the first onto the second, and a number plays that move of
the ``moves`` list. A bare Enter is the command ``show``.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcsolve.common.cards import InvalidCardError, parse_card
from kcsolve.common.deal import is_whole
from kcsolve.corner.game.engine import PILES, InvalidCornerMoveError, Move, parse_move
from kcsolve.errors import KcsolveError

WORDS = {
    "help": "help",
    "?": "help",
    "moves": "moves",
    "undo": "undo",
    "hint": "hint",
    "scores": "scores",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "save": "save",
    "next": "next",
    "pass": "end",
    "end": "end",
}
MAX_PICK = 10_000


class InvalidCommandError(KcsolveError):
    """Text that is neither a command nor a move."""


@dataclass(frozen=True)
class Command:
    """A typed command: ``verb`` is 'move' (with ``move``), 'pick' (with ``number``), or a word of WORDS."""

    verb: str
    move: Move | None = None
    number: int = 0
    argument: str = ""


def parse_command(text: str) -> Command:
    """Read one typed line; InvalidCommandError says why it is neither a command nor a move."""
    words = text.split()
    if not words:
        return Command("show")
    verb = WORDS.get(words[0].lower())
    if verb == "save":
        if len(words) != 2:
            raise InvalidCommandError("usage: save FILE")
        return Command("save", argument=words[1])
    if verb == "end":
        verb = "move" if len(words) == 1 else None
    if verb is not None and len(words) == 1:
        return Command(verb) if verb != "move" else Command("move", move=parse_move("end"))
    if len(words) == 1 and is_whole(words[0]) and len(words[0]) <= 5 and 1 <= int(words[0]) <= MAX_PICK:
        return Command("pick", number=int(words[0]))
    try:
        return Command("move", move=parse_move(_move_text(words)))
    except InvalidCornerMoveError:
        pass
    shown = repr(text.strip())
    shown = shown if len(shown) <= 42 else shown[:39] + "..."
    raise InvalidCommandError(f"not a command or a move: {shown} (type 'help')")


def _move_text(words: list[str]) -> str:
    """The engine's text for a typed move: the verb in lower case, cards and piles in upper case, shorthands in full."""
    if len(words) == 2 and words[1].upper() in PILES:
        if words[0].upper() in PILES:
            return f"merge {words[0].upper()} {words[1].upper()}"
        if _is_card(words[0]):
            return f"play {words[0].upper()} {words[1].upper()}"
    return " ".join([words[0].lower(), *(w.upper() for w in words[1:])])


def _is_card(word: str) -> bool:
    """Whether a word names a suited card."""
    try:
        return parse_card(word).suit is not None
    except InvalidCardError:
        return False
