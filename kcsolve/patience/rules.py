"""Rule sets: four independent axes, named presets, and ``+`` combination."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError


class Removal(Enum):
    """When cards may be removed and whether removal must go on to exhaustion."""

    FORCED = "forced"
    OPTIONAL = "optional"


class Sets(Enum):
    """Which sets of cards may be removed together."""

    PAIRS = "pairs"
    GROUPS = "groups"


class Courts(Enum):
    """Which cells a court card may go to."""

    FIXED = "fixed"
    SWAP = "swap"
    ROYALS = "royals"


class Goal(Enum):
    """When the game is won."""

    COURTS = "courts"
    DEPLETE = "deplete"
    CLEAR = "clear"


class InvalidRulesError(KcsolveError):
    """A rule text that names an unknown preset or option, or sets an axis twice; a Rules with a field of no axis."""


@dataclass(frozen=True)
class Rules:
    """One choice on each axis; the defaults are the standard game."""

    removal: Removal = Removal.FORCED
    sets: Sets = Sets.PAIRS
    courts: Courts = Courts.FIXED
    goal: Goal = Goal.COURTS

    def __post_init__(self) -> None:
        for axis, choices in AXES.items():
            if not isinstance(getattr(self, axis), choices):
                example = f"{choices.__name__}.{list(choices)[-1].name}"
                raise InvalidRulesError(
                    f"Rules({axis}=...) takes a {choices.__name__} such as {example}, not {brief(getattr(self, axis))}"
                )

    def __str__(self) -> str:
        return rules_name(self)


AXES: dict[str, type[Enum]] = {"removal": Removal, "sets": Sets, "courts": Courts, "goal": Goal}
STANDARD = Rules()

PRESETS: dict[str, dict[str, Enum]] = {
    "standard": {},
    "deplete": {"goal": Goal.DEPLETE},
    "swap": {"courts": Courts.SWAP},
    "optional": {"removal": Removal.OPTIONAL},
    "groups": {"sets": Sets.GROUPS},
    "royals": {"courts": Courts.ROYALS},
    "camelot": {"removal": Removal.OPTIONAL, "goal": Goal.CLEAR},
}


def _token_settings(token: str) -> dict[str, Enum]:
    """The axis settings one ``+``-separated token stands for."""
    if token in PRESETS:
        return PRESETS[token]
    if "=" in token:
        axis, _, option = token.partition("=")
        if axis not in AXES:
            raise InvalidRulesError(f"unknown rule axis {axis!r} (axes: {', '.join(AXES)})")
        choices = AXES[axis]
        try:
            return {axis: choices(option)}
        except ValueError:
            names = ", ".join(c.value for c in choices)
            raise InvalidRulesError(f"unknown option {option!r} for {axis} (options: {names})") from None
    raise InvalidRulesError(f"unknown rule preset {token!r} (kcsolve rules lists them)")


def parse_rules(text: str) -> Rules:
    """Parse ``standard``, ``optional+groups`` or ``swap+goal=deplete`` into Rules."""
    if not isinstance(text, str):
        raise InvalidRulesError(f"rules are a text such as 'standard' or 'swap+goal=deplete', not {brief(text)}")
    settings: dict[str, Enum] = {}
    source: dict[str, str] = {}
    tokens = [t.strip().lower() for t in text.split("+")]
    if not all(tokens):
        raise InvalidRulesError(f"empty preset name in rules {text!r}")
    for token in tokens:
        for axis, option in _token_settings(token).items():
            if axis in settings and settings[axis] != option:
                raise InvalidRulesError(f"rules {text!r} set {axis} twice: {source[axis]!r} and {token!r} disagree")
            settings[axis] = option
            source[axis] = token
    return Rules(**settings)  # type: ignore[arg-type]  # each axis got an option of its own enum


def rules_name(rules: Rules) -> str:
    """The shortest preset text that parses back to ``rules``."""
    rest = {f.name: getattr(rules, f.name) for f in fields(rules) if getattr(rules, f.name) != f.default}
    tokens: list[str] = []
    for preset in ("camelot", "deplete", "swap", "optional", "groups", "royals"):
        wanted = PRESETS[preset]
        if all(rest.get(axis) == option for axis, option in wanted.items()):
            tokens.append(preset)
            for axis in wanted:
                del rest[axis]
    tokens.extend(f"{axis}={option.value}" for axis, option in rest.items())
    return "+".join(tokens) or "standard"


OPTIONS: dict[Enum, tuple[str, str]] = {
    Removal.FORCED: (
        "once the grid is full, every Ten and every set that can go must go before the next card",
        "the rules' sources",
    ),
    Removal.OPTIONAL: (
        "once the grid is full (or the stock is empty) removal opens; remove as much or as little "
        "as you like, and placing the next card closes it",
        "PySolFC and AisleRiot 'Camelot'",
    ),
    Sets.PAIRS: ("a Ten alone, or two cards summing to 10", "the rules' sources"),
    Sets.GROUPS: ("a Ten alone, or any two or more Ace..Nine cards summing to 10", "Edge Solitaire, 'The Edge'"),
    Courts.FIXED: (
        "Kings in the corners, Queens on the top and bottom edges, Jacks on the left and right edges",
        "the rules' sources",
    ),
    Courts.SWAP: (
        "Queens and Jacks may use each other's cells, but never a Queen beside a Jack on one edge",
        "the sample game: the worked game of the rules, dealt and played step by step",
    ),
    Courts.ROYALS: ("any court card on any of the twelve edge cells", "Edge Solitaire's 'Royals on Edge'"),
    Goal.COURTS: ("won when the twelfth court card is placed", "the rules' sources"),
    Goal.DEPLETE: (
        "won when all twelve court cards are placed and the stock is empty; a stuck grid loses",
        "one of the rules' sources",
    ),
    Goal.CLEAR: ("won when the stock is empty and no Ace..Ten card is left on the grid", "PySolFC 'Camelot'"),
}


def describe(rules: Rules) -> dict[str, Any]:
    """A rule set in words: each axis with its option, what it means and where it comes from."""
    axes = {}
    for axis in AXES:
        option = getattr(rules, axis)
        meaning, source = OPTIONS[option]
        axes[axis] = {"option": option.value, "meaning": meaning, "source": source}
    return {"rules": str(rules), "axes": axes}


def catalogue() -> dict[str, Any]:
    """Every preset with what it sets, and every axis with its options."""
    presets = {name: {axis: getattr(parse_rules(name), axis).value for axis in AXES} for name in PRESETS}
    axes = {
        axis: [{"option": o.value, "meaning": OPTIONS[o][0], "source": OPTIONS[o][1]} for o in choices]
        for axis, choices in AXES.items()
    }
    return {"presets": presets, "axes": axes}


def as_rules(rules: object) -> Rules:
    """Rules from a Rules value or a preset string."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return parse_rules(rules)
    raise InvalidRulesError(f"rules must be a Rules value or a preset string, not {brief(rules)}")
