"""The terminal game's screen: a compact board with column letters and row numbers that fits 80x24.

Pure functions returning lines; the command line decides whether to redraw them
in place (a terminal) or print them one after another (a pipe). An empty court
cell shows the court card it waits for (``·K·``); the cells where the turned card
may go are marked ``»  «``; during a removal the sets that may go are listed
with their cards. Face up, the whole stock is listed in order, the next cards
first, in brackets (and bold in colour), the rest dimmed.
"""

from __future__ import annotations

from collections import Counter

from kcsolve.common.cards import Card, rank_symbol
from kcsolve.common.words import plural, wrapped
from kcsolve.patience.engine import CORNERS, EMPTY, JACK_CELLS, QUEEN_CELLS, Position, Status, cell_name
from kcsolve.patience.rules import Courts, Removal
from kcsolve.patience.terminal.paint import colour_of, dim, paint

WIDTH, HEIGHT = 80, 24
REMOVAL_LINES = 2  # removable sets shown under the board (dozens under groups): six lines stay for the messages
NEXT_CARDS = 4  # the stock's first cards, shown prominently face up: the ones a careful player plans with
_HOME = {**{c: "K" for c in CORNERS}, **{c: "Q" for c in QUEEN_CELLS}, **{c: "J" for c in JACK_CELLS}}
RULE = "    +-----+-----+-----+-----+"


def card_name(card: Card) -> str:
    """A card as the board shows it: ``8C``, ``TD``, ``KS``; rank alone in a rank-only deck."""
    return rank_symbol(card.rank) + (card.suit or "")


def _cell_text(position: Position, cell: int, legal: set[int], colour: bool) -> str:
    """The five characters inside one cell of the board."""
    card = position.card_at(cell)
    if card is not None:
        return paint(f"{card_name(card):^5}", colour_of(card), colour)
    home = _HOME.get(cell) if position.rules.courts is Courts.FIXED else None
    inner = f"·{home}·" if home else "   "
    return f"»{inner}«" if cell in legal else f" {inner} "


def board(position: Position, colour: bool = False) -> list[str]:
    """The grid as 10 lines: column letters, then each row between rules, with its number."""
    card = position.next_card
    placing = card is not None and not position.removing and position.outcome().status is Status.UNFINISHED
    legal = set(position.cells_for(card)) if placing and card is not None else set()
    lines = ["       a     b     c     d", RULE]
    for row in range(4):
        cells = "|".join(_cell_text(position, row * 4 + col, legal, colour) for col in range(4))
        lines += [f"  {row + 1} |{cells}|", RULE]
    return lines


def to_come(position: Position) -> str:
    """The court cards still in the stock, by kind."""
    counts = Counter(rank_symbol(c.rank) for c in position.deck[position.drawn :] if c.is_court)
    return ", ".join(f"{kind} {counts[kind]}" for kind in "KQJ")


def removal_options(position: Position) -> list[str]:
    """Each set that may go now, with its cards: ``d3 (TS)``, ``c2 a3 (9S+AS)``."""
    options = []
    for cells in position.removable_sets():
        cards = "+".join(card_name(position.card_at(c)) for c in cells)  # type: ignore[arg-type]  # a removable set's cells hold cards
        options.append(f"{' '.join(cell_name(c) for c in cells)} ({cards})")
    return options


def wrap(words: list[str], width: int, first: str, indent: str, gap: str = "   ") -> list[str]:
    """Words joined by ``gap`` into lines of at most ``width`` characters."""
    lines, line = [], first
    for word in words:
        if len(line) + len(word) > width and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += word + gap
    lines.append(line.rstrip())
    return lines


def condensed(lines: list[str], most: int) -> list[str]:
    """At most ``most`` lines: the last one kept for how many sets were left out and how to see them all."""
    if len(lines) <= most:
        return lines
    hidden = sum(line.count("(") for line in lines[most - 1 :])
    return [*lines[: most - 1], f"        ... and {hidden} more sets: 'sets' lists them all"]


def stock_in_order(position: Position, colour: bool = False, width: int = WIDTH) -> list[str]:
    """The whole stock in order, face up: the next cards in brackets (bold in colour), then the rest (dimmed).

    While a card is turned to be placed the list starts after it, since the
    screen names it already; during a removal it starts with the card to come.
    """
    turned = position.next_card is not None and not position.removing
    stock = position.deck[position.drawn + turned :]
    if not stock:
        return ["Stock: empty after the turned card." if turned else "Stock: empty."]
    soon = f"[{' '.join(map(card_name, stock[:NEXT_CARDS]))}]"
    words = [(soon, paint(soon, "39", colour))]  # 39: the terminal's own colour, in bold
    words += [(card_name(card), dim(card_name(card), colour)) for card in stock[NEXT_CARDS:]]
    lines: list[str] = []
    line = shown = (
        f"Stock {'after the turned card' if turned else 'in order'}, next first ({plural(len(stock), 'card')}): "
    )
    for plain, painted in words:  # wrapped by the plain text's width: colour codes take no room on the screen
        if len(line) + len(plain) > width:
            lines.append(shown.rstrip())
            line = shown = "  "
        line, shown = line + plain + " ", shown + painted + " "
    return [*lines, shown.rstrip()]


def status(position: Position, colour: bool = False, face_up: bool = False) -> list[str]:
    """What the player needs under the board: the stock (in order, face up), the turned card and where it may go,
    or the removal."""
    outcome = position.outcome()
    left = len(position.deck) - position.drawn
    if face_up:
        lines = stock_in_order(position, colour)
    else:
        lines = [f"Stock: {plural(left, 'card')} left; court cards to come: {to_come(position)}."]
    if outcome.status is not Status.UNFINISHED:
        return lines + wrapped(f"{outcome.status.value.capitalize()}: {outcome.reason}.", "", "")
    if position.removing and position.removable_sets():
        lines += condensed(wrap(removal_options(position), WIDTH, "Remove: ", "        "), REMOVAL_LINES)
        if position.next_card is not None and position.rules.removal is Removal.OPTIONAL:
            lines.append(f"(or 'deal' to place the next card, {card_name(position.next_card)})")
    elif position.next_card is not None:
        card = position.next_card
        cells = position.cells_for(card)
        where = "any free cell" if len(cells) == position.grid.count(EMPTY) else " ".join(map(cell_name, cells))
        lines += wrap(
            where.split(" ") if where != "any free cell" else [where + "."],
            WIDTH,
            f"Card {position.drawn + 1} is turned: {card_name(card)}. It may go in: ",
            "  ",
            " ",
        )
    return lines


def screen(
    title: str, position: Position, messages: list[str], colour: bool = False, face_up: bool = False
) -> list[str]:
    """The whole screen above the prompt: at most HEIGHT - 1 lines of at most WIDTH characters."""
    above = [title[:WIDTH], *board(position, colour), *status(position, colour, face_up), ""]
    room = HEIGHT - 2 - len(above)  # every line the board and the status leave, the command line kept
    shown = (
        messages
        if len(messages) <= room
        else [
            *messages[: room - 1],
            f"... ({len(messages) - room + 1} more lines; the plain mode, --plain, shows everything)",
        ]
    )
    lines = [*above, *shown]
    lines.append("b2: place   b2 d2: remove   undo  hint  peek  auto  save FILE  help  quit")
    return lines[: HEIGHT - 1]
