"""Kings Corner positions as text: the eight piles laid out like the table, the hands, the stock."""

from __future__ import annotations

from kcsolve.common.words import plural
from kcsolve.corner.engine import PILES, Position, card_text
from kcsolve.corner.turn import Piles


def pile_text(pile: tuple[int, ...]) -> str:
    """A pile from base to exposed card, '.' when empty."""
    return " ".join(card_text(c) for c in pile) or "."


def draw_piles(piles: Piles) -> str:
    """The piles in three rows, corners at the corners and sides between, as they lie around the stock."""
    cell = {name: f"{name:>2} {pile_text(piles[i])}" for i, name in enumerate(PILES)}
    width = max(len(text) for text in cell.values()) + 2
    rows = [("NW", "N", "NE"), ("W", None, "E"), ("SW", "S", "SE")]
    return "\n".join("".join((cell[name] if name else "").ljust(width) for name in row).rstrip() for row in rows)


def hand_text(hand: tuple[int, ...]) -> str:
    """A hand, '(empty)' when it has no cards."""
    return " ".join(card_text(c) for c in hand) or "(empty)"


def draw_position(position: Position, seat: int | None = None) -> str:
    """The table: piles, stock, and hands; only ``seat``'s hand is shown when a seat is given."""
    lines = [draw_piles(position.piles), f"Stock: {plural(len(position.stock), 'card')}"]
    for player, hand in enumerate(position.hands):
        shown = hand_text(hand) if seat is None or seat == player else plural(len(hand), "card")
        marker = " (to move)" if player == position.player and not position.over else ""
        lines.append(f"Player {player + 1}{marker}: {shown}")
    return "\n".join(lines)
