"""Kings Corner positions as text: the eight piles laid out like the table, the hands, the stock; red suits in red.

Everything fits 80 columns: a pile too long for its third of the line shows its
base (what a pile move needs), '..', its last cards (what a play needs) and how
many cards it holds, as ``KC .. 7C 6H 5S 4D (10)``.
"""

from __future__ import annotations

import re

from kcsolve.common.words import plural
from kcsolve.corner.game.engine import PILES, Position, card_text

Piles = tuple[tuple[int, ...], ...]
WIDTH = 80
_CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][SHDC])(?![A-Za-z0-9])")
_RED = "\x1b[31m"
_RESET = "\x1b[0m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def pile_text(pile: tuple[int, ...]) -> str:
    """A pile from base to exposed card, '.' when empty."""
    return " ".join(card_text(c) for c in pile) or "."


def condensed_pile(pile: tuple[int, ...], width: int) -> str:
    """A pile in at most ``width`` columns: whole if it fits, else its base, '..', its last cards and its size."""
    whole = pile_text(pile)
    if len(whole) <= width:
        return whole
    count = f" ({len(pile)})"
    shown = max(1, (width - len("KC .. ") - len(count) + 1) // 3)  # the last cards, each two letters and a space
    return f"{card_text(pile[0])} .. {pile_text(pile[-shown:])}{count}"


def draw_piles(piles: Piles, centre: str = "", width: int = WIDTH) -> str:
    """The piles in three rows, corners at the corners and sides between, as they lie around the stock.

    ``centre`` goes in the middle of the middle row, where the stock lies. Each
    row takes at most ``width`` columns: long piles are condensed.
    """
    full = {name: f"{name:>2} {pile_text(piles[i])}" for i, name in enumerate(PILES)}
    cell = max(len(centre) + 5, *(len(text) + 2 for text in full.values()))
    if 3 * cell - 2 > width:
        cell = (width + 2) // 3
        full = {name: f"{name:>2} {condensed_pile(piles[i], cell - 5)}" for i, name in enumerate(PILES)}
    full["centre"] = f"   {centre}"
    rows = [("NW", "N", "NE"), ("W", "centre", "E"), ("SW", "S", "SE")]
    return "\n".join("".join((full[name] if name else "").ljust(cell) for name in row).rstrip() for row in rows)


def hand_text(hand: tuple[int, ...]) -> str:
    """A hand, '(empty)' when it has no cards."""
    return " ".join(card_text(c) for c in hand) or "(empty)"


def hand_lines(label: str, hand: tuple[int, ...], width: int = WIDTH) -> list[str]:
    """A hand after its label, wrapped at ``width`` columns under the first card."""
    lines, line = [], label
    for card in hand:
        if len(line) + 3 > width:
            lines.append(line.rstrip())
            line = " " * len(label)
        line += card_text(card) + " "
    if not hand:
        line += "(empty)"
    lines.append(line.rstrip())
    return lines


def draw_position(position: Position, seat: int | None = None) -> str:
    """The table: piles, stock, and hands; only ``seat``'s hand is shown when a seat is given."""
    lines = [draw_piles(position.piles), f"Stock: {plural(len(position.stock), 'card')}"]
    for player, hand in enumerate(position.hands):
        marker = " (to move)" if player == position.player and not position.over else ""
        if seat is None or seat == player:
            lines += hand_lines(f"Player {player + 1}{marker}: ", hand)
        else:
            lines.append(f"Player {player + 1}{marker}: {plural(len(hand), 'card')}")
    return "\n".join(lines)


def paint(text: str) -> str:
    """Hearts and Diamonds in red (ANSI); Spades and Clubs keep the terminal's own colour."""
    return _CARD.sub(lambda m: f"{_RED}{m.group(1)}{_RESET}" if m.group(1)[1] in "HD" else m.group(1), text)


def visible_width(line: str) -> int:
    """The columns a line takes on a terminal, colour codes left out."""
    return len(_ANSI.sub("", line))
