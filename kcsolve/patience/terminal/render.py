"""Text output: the boxed grid of the sample game (seed 000), a one-line grid, and colour.

The boxed style draws each cell as a 5x5 box; a court card fills its box with
its letter (``KKK``), a Ten is shown as ``X``, an empty cell is a blank box, and a
blank line separates grid rows, exactly as the sample game draws them.
"""

from __future__ import annotations

from collections.abc import Iterator

from kcsolve.common.cards import TEN, Card, rank_symbol
from kcsolve.common.words import paragraph
from kcsolve.patience.engine import Place, Position, Remove, Status, cell_name
from kcsolve.patience.record import Step
from kcsolve.patience.terminal.paint import colour_of, paint


def box_symbol(card: Card | None) -> str:
    """The one character a number card shows in its box (``X`` for a Ten)."""
    if card is None:
        return " "
    return "X" if card.rank == TEN else rank_symbol(card.rank)


def _box_lines(card: Card | None, colour: bool) -> list[str]:
    """The five lines of one cell's box."""
    if card is not None and card.rank > TEN:
        fill = paint(rank_symbol(card.rank) * 3, colour_of(card), colour)
        middle = [f"|{fill}|"] * 3
    else:
        symbol = paint(box_symbol(card), colour_of(card) if card else None, colour)
        middle = ["|   |", f"| {symbol} |", "|   |"]
    return ["+---+", *middle, "+---+"]


def draw_grid(position: Position, colour: bool = False) -> str:
    """The grid as four rows of boxes, a blank line between rows."""
    return draw_cards([position.card_at(cell) for cell in range(16)], colour)


def draw_cards(cards: list[Card | None], colour: bool = False) -> str:
    """Sixteen cards (or empty cells) as four rows of boxes, a1 to d4 in reading order."""
    rows = []
    for row in range(4):
        boxes = [_box_lines(cards[row * 4 + col], colour) for col in range(4)]
        rows.append("\n".join(" ".join(parts) for parts in zip(*boxes)))
    return "\n\n".join(rows)


def draw(position: Position, style: str = "boxes", colour: bool = False) -> str:
    """The grid in a style: ``boxes`` like the sample game, or ``line``."""
    return draw_grid(position, colour) if style == "boxes" else grid_line(position)


def grid_line(position: Position) -> str:
    """The grid on one line: rows a..d separated by ``/``, ``.`` for an empty cell."""

    def symbol(cell: int) -> str:
        card = position.card_at(cell)
        return "." if card is None else rank_symbol(card.rank)

    return "/".join("".join(symbol(r * 4 + c) for c in range(4)) for r in range(4))


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def describe_removal(before: Position, cells: tuple[int, ...]) -> str:
    """``Remove 7H (b2) + 3C (d2)``: the cards and the cells of one removal."""
    return "Remove " + " + ".join(f"{before.card_at(c)} ({cell_name(c)})" for c in cells)


def tell_game(start: Position, steps: list[Step], style: str = "boxes", colour: bool = False) -> Iterator[str]:
    """Tell a game like the sample game: each deal's grid, each removal and its grid, the outcome."""
    round_no = removal_no = 0
    first_card = None
    previous = start
    for index, step in enumerate(steps):
        after = step.position
        following = steps[index + 1].move if index + 1 < len(steps) else None
        if isinstance(step.move, Place):
            if first_card is None:
                round_no += 1
                first_card = after.drawn
            round_over = following is None or isinstance(following, Remove) or after.removing
            if round_over:
                span = f"card {first_card}" if first_card == after.drawn else f"cards {first_card}-{after.drawn}"
                yield f"{_ordinal(round_no)} deal: {span}"
                yield draw(after, style, colour)
                first_card = None
        else:
            if index == 0 or not isinstance(steps[index - 1].move, Remove):
                removal_no += 1
                yield f"Removal {removal_no}"
            yield describe_removal(previous, step.move.cells)
            yield draw(after, style, colour)
        previous = after
    yield paragraph(verdict_line(previous), "", "")


def verdict_line(position: Position) -> str:
    """One line judging the final position."""
    outcome = position.outcome()
    label = {Status.WON: "Won", Status.LOST: "Lost", Status.UNFINISHED: "Unfinished"}[outcome.status]
    return f"{label}: {outcome.reason}."
