"""The rules of Kings Corner: named options for the variants the sources describe.

The defaults follow seed 003 where the sources disagree (docs/CORNER.md lists each
choice and its source). Options are written ``name=value`` and joined with ``+``,
as in ``draw=start+under=yes``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError


class InvalidCornerRulesError(KcsolveError):
    """A rule text with an unknown option or value."""


SCORING = {
    "standard": {13: 10},  # seed 003: King 10, every other card 1
    "aces": {1: 25, 10: 10, 11: 10, 12: 10, 13: 10},  # seed 003's variation: Ace 25, faces and Tens 10, others 5
}
OTHER_POINTS = {"standard": 1, "aces": 5}


@dataclass(frozen=True)
class CornerRules:
    """One choice per option; the defaults are seed 003's game."""

    draw: str = "end"  # 'end' (003) or 'start' (001, 000): when the turn's card is drawn
    until_play: bool = False  # draw until a card can be played, instead of one card (001, 003 variations)
    draw_two: bool = False  # the turn's draw is two cards (000, "other variations")
    under: str = "no"  # 'yes': under a pile while a side spot is empty (000); 'strict': 001's stricter play-under
    draw_three: bool = False  # out of cards with a side spot empty: draw three and go on (001, 003 variation)
    dealt_kings: str = "corner"  # a King turned up for a side pile goes to a corner (000, 003) or 'stay'
    tie: bool = False  # after a player goes out, each other player has one more turn to go out too (001)
    scoring: str = "standard"  # 'standard' (King 10, others 1) or 'aces' (Ace 25, faces and Tens 10, others 5)
    target: int = 50  # a game ends when a player reaches this many penalty points (003: typically 25 to 50)
    hand_size: int = 7

    def __post_init__(self) -> None:
        for name in (f.name for f in fields(self)):
            check_option(name, getattr(self, name))

    @property
    def drawn(self) -> int:
        """Cards in the turn's draw."""
        return 2 if self.draw_two else 1

    def points(self, rank: int) -> int:
        """Penalty points of a card of ``rank`` left in hand."""
        return SCORING[self.scoring].get(rank, OTHER_POINTS[self.scoring])

    def __str__(self) -> str:
        changed = [
            f"{f.name}={_show(getattr(self, f.name))}" for f in fields(self) if getattr(self, f.name) != f.default
        ]
        return "+".join(changed) or "default"

    def to_json(self) -> dict[str, Any]:
        """Every option and its value."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


CHOICES: dict[str, tuple[str, ...]] = {
    "draw": ("end", "start"),
    "under": ("no", "yes", "strict"),
    "dealt_kings": ("corner", "stay"),
    "scoring": ("standard", "aces"),
}
FLAGS = ("until_play", "draw_two", "draw_three", "tie")
NUMBERS = {"target": 10_000, "hand_size": 10}  # each option's largest value

OPTIONS: dict[str, str] = {  # one line per option on what it changes, for 'corner rules'
    "draw": "end: draw after your moves; start: draw before them",
    "until_play": "yes: at the start of a turn draw until you hold a card you can play",
    "draw_two": "yes: the turn's draw is two cards instead of one",
    "under": "yes: while a side spot is empty, a card may go under a pile's base; "
    "strict: only after your own pile move emptied a side spot this turn, and filling it ends the turn",
    "draw_three": "yes: running out of cards while a side spot is empty, draw three and go on",
    "dealt_kings": "corner: a King dealt to a side pile moves to a corner; stay: it stays",
    "tie": "yes: after a player goes out, each other player has one last turn to go out too and tie",
    "scoring": "standard: King 10, others 1; aces: Ace 25, faces and Tens 10, others 5",
    "target": "the penalty total that ends a game of several hands",
    "hand_size": "cards dealt to each player",
}


def check_option(name: str, value: object) -> None:
    """Refuse a value of option ``name`` of the type ``to_json`` writes that the option does not take."""
    if name in FLAGS:
        if not isinstance(value, bool):
            raise InvalidCornerRulesError(f"rule {name!r} takes true or false, not {brief(value)}")
    elif name in NUMBERS:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= NUMBERS[name]:
            raise InvalidCornerRulesError(
                f"rule {name!r} takes a whole number from 1 to {NUMBERS[name]}, not {brief(value)}"
            )
    elif value not in CHOICES[name]:
        raise InvalidCornerRulesError(f"rule {name!r} takes {' or '.join(CHOICES[name])}, not {brief(value)}")


DEFAULT = CornerRules()

VARIANTS: dict[str, str] = {  # which variant of the sources each option follows, for 'corner rules'
    "draw": "the default is the most detailed source's; start is how two others play",
    "until_play": "a variation two sources mention",
    "draw_two": "one source's 'other variations'",
    "under": "yes is one source's alternate rules; strict is another source's own rule",
    "draw_three": "a variation two sources mention",
    "dealt_kings": "corner as two sources deal; stay leaves the King where it fell",
    "tie": "one source: the others may try to tie",
    "scoring": "standard is the most detailed source's; aces is its variation",
    "target": "that source: typically 25 to 50 (100 to 250 with aces)",
    "hand_size": "every source deals seven",
}

GUIDE = (  # 'corner rules --how': the game for someone who has never played it, in 80 columns
    "How to play Kings Corner (2 to 4 players)",
    "",
    "The deal: seven cards each, one at a time. Four cards go face up, one on each",
    "  side of the stock: the side piles N, E, S, W. The rest is the stock. The",
    "  player left of the dealer (player 1) plays first.",
    "Building: a card goes on a pile when it is one rank lower and the other colour",
    "  (red on black, black on red: 8H on 9S). Aces are low; nothing goes on an Ace.",
    "Sides and corners: any card may start an empty side spot (N E S W); only a",
    "  King may start a corner (NE SE SW NW). A King dealt to a side pile goes to",
    "  a corner.",
    "Moving a pile: a whole side pile may move onto another pile when its bottom",
    "  card fits that pile's top card. Its spot is left empty, for any card.",
    "Your turn: as many plays and pile moves as you like, in any order, then end",
    "  the turn. You draw one card at the end of your turn.",
    "When the stock is empty: nobody draws, and a player who can play must.",
    "Going out: the first player with no cards left wins the hand. The others",
    "  score penalty points for the cards they hold: a King 10, any other card 1.",
    "A game: hands until somebody reaches the target (50 points); the lowest total",
    "  wins. The lead passes to the left each hand.",
    "",
    "Variants: 'kcsolve corner rules' lists the options; give them with --rules.",
    "To play: 'kcsolve corner play'; there, 'help' lists the commands.",
)


def _show(value: object) -> str:
    """An option's value as written in a rule text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


LISTED = "kcsolve corner rules lists them"  # where an error sends the reader: the list is too long for its line


def parse_corner_rules(text: str) -> CornerRules:
    """Read ``default`` or options joined with '+', such as ``draw=start+under=yes+target=100``."""
    if not isinstance(text, str):
        raise InvalidCornerRulesError(f"rules are a CornerRules or a text such as 'draw=start', not {brief(text)}")
    if text.strip() in ("", "default"):
        return DEFAULT
    settings: dict[str, object] = {}
    source: dict[str, str] = {}
    for token in text.split("+"):
        name, _, value = token.strip().partition("=")
        name = name.replace("-", "_")
        setting: object
        if name in CHOICES:
            if value not in CHOICES[name]:
                raise InvalidCornerRulesError(f"option {name!r} takes {' or '.join(CHOICES[name])}, not {value!r}")
            setting = value
        elif name in FLAGS:
            if value not in ("yes", "no"):
                raise InvalidCornerRulesError(f"option {name!r} takes yes or no, not {value!r}")
            setting = value == "yes"
        elif name in NUMBERS:
            digits = value.lstrip("0")  # counted before int(), which raises its own ValueError past 4,300 digits
            if not (
                value.isascii()
                and value.isdigit()
                and len(digits) <= len(str(NUMBERS[name]))
                and 1 <= int(digits or "0") <= NUMBERS[name]
            ):
                raise InvalidCornerRulesError(
                    f"option {name!r} takes a whole number from 1 to {NUMBERS[name]}, not {value!r}"
                )
            setting = int(digits)
        else:
            raise InvalidCornerRulesError(f"unknown Kings Corner option {token.strip()!r} ({LISTED})")
        if name in settings and settings[name] != setting:  # the last one winning would hide a typo
            raise InvalidCornerRulesError(
                f"rules {text!r} set {name} twice: {source[name]!r} and {token.strip()!r} disagree"
            )
        settings[name], source[name] = setting, token.strip()
    return check_acting(replace(DEFAULT, **settings))  # type: ignore[arg-type]  # each value was checked against its option above


def check_acting(rules: CornerRules) -> CornerRules:
    """``rules`` itself unless an option it sets can never act: a record must not carry a rule that changed nothing.

    Under ``until_play`` the drawing at the start of a turn is until a card can be
    played and a turn ended without a move draws at its end, whatever ``draw`` says,
    so ``draw=start`` would be recorded without acting.
    """
    if rules.until_play and rules.draw == "start":
        raise InvalidCornerRulesError("draw=start never acts with until_play=yes: leave one of them out")
    return rules


def rules_from_json(data: object) -> CornerRules:
    """Rules from a record's JSON object (every key optional), each value of the type ``to_json`` writes."""
    if not isinstance(data, dict):
        raise InvalidCornerRulesError(f"rules must be a JSON object, not {type(data).__name__}")
    rules = DEFAULT
    for name, value in data.items():
        key = str(name).replace("-", "_")
        if key == "under" and isinstance(value, bool):  # format 1 records wrote it as a flag
            value = "yes" if value else "no"
        if key not in (*CHOICES, *FLAGS, *NUMBERS):
            raise InvalidCornerRulesError(f"unknown Kings Corner rule {brief(name)} ({LISTED})")
        rules = replace(rules, **{key: value})  # CornerRules checks the value
    return check_acting(rules)
