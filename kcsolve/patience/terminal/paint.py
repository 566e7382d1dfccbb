"""Colour for the terminal: court cards by their letter, red suits in red, as ANSI codes."""

from __future__ import annotations

from kcsolve.common.cards import TEN, Card, rank_symbol

_COLOURS = {"K": "33", "Q": "35", "J": "36", "red": "31"}


def paint(text: str, code: str | None, colour: bool) -> str:
    """Wrap text in an ANSI colour when colour is on."""
    return f"\x1b[1;{code}m{text}\x1b[0m" if colour and code else text


def colour_of(card: Card) -> str | None:
    """The ANSI colour for a card: by court letter, else red suits."""
    if card.rank > TEN:
        return _COLOURS[rank_symbol(card.rank)]
    return _COLOURS["red"] if card.suit in ("H", "D") else None


def dim(text: str, colour: bool) -> str:
    """Text dimmed when colour is on: what matters less than the text around it."""
    return f"\x1b[2m{text}\x1b[0m" if colour else text
