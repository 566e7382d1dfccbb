"""The Kings Corner table's screen: at most 23 lines of at most 80 columns, the prompt taking the 24th.

Pure functions returning lines; the command line decides whether to redraw them
in place (a terminal) or print them one after another (a pipe). From the top: a
title, the game's totals in a match, the piles around the stock, the other
players' hands (their sizes, or their cards once the hand is over), the player's
hand, the messages (cut to the lines left), and a line of commands.
"""

from __future__ import annotations

from kcsolve.common.words import plural, wrapped
from kcsolve.corner.game.engine import Position
from kcsolve.corner.game.render import WIDTH, draw_piles, hand_lines

HEIGHT = 24
SCORE_ROWS = 8  # hands shown in the score table; earlier ones are summed on one line


def table_lines(title: str, position: Position, me: int, names: list[str], totals: str = "") -> list[str]:
    """The table above the messages: every hand's cards once the hand is over, else only ``me``'s."""
    lines = [title[:WIDTH]]
    if totals:
        lines += wrapped(totals, "", "  ")
    lines += draw_piles(position.piles, f"Stock: {len(position.stock)}").splitlines()
    order = [(me + i) % position.players for i in range(1, position.players)]
    if position.over:
        label = max(len(names[s]) for s in range(position.players)) + 2
        for seat in [me, *order]:
            lines += hand_lines(f"{names[seat] + ':':<{label}}", position.hands[seat])
    else:
        lines += wrapped("   ".join(f"{names[s]}: {plural(len(position.hands[s]), 'card')}" for s in order), "", "  ")
        lines += hand_lines(f"Your hand ({len(position.hands[me])}): ", position.hands[me])
    return lines


def message_room(above: list[str]) -> int:
    """Lines left for messages under ``above``: the blank line, the footer and the prompt are kept."""
    return HEIGHT - 3 - len(above)


def message_lines(messages: list[str]) -> list[str]:
    """The messages as the screen shows them: a line too wide is wrapped."""
    return [part for line in messages for part in (wrapped(line, "", "  ") if len(line) > WIDTH else [line])]


def cut(lines: list[str], room: int) -> list[str]:
    """The first lines that fit in ``room``, the last of them saying how many more there were."""
    if len(lines) <= room:
        return lines
    return [*lines[: room - 1], f"... ({len(lines) - room + 1} more lines)"] if room > 0 else []


def screen(above: list[str], messages: list[str], footer: str) -> list[str]:
    """The whole screen above the prompt: ``above``, a blank line, the messages that fit, the footer."""
    messages = cut(message_lines(messages), message_room(above))
    return [*above, "", *(line[:WIDTH] for line in messages), footer[:WIDTH]][: HEIGHT - 1]


def score_table(
    names: list[str], points: list[tuple[int, ...]], target: int | None, shown: int = SCORE_ROWS
) -> list[str]:
    """Each hand's penalty points by player, the running totals, and the target; hands before the last ``shown``
    summed up on one line."""
    if not points:
        return ["No hand has been scored yet."]
    width = max(8, *(len(n) + 2 for n in names))
    head = "Hand".ljust(6) + "".join(n.rjust(width) for n in names)
    rows = [head]
    earlier = points[:-shown] if len(points) > shown else []
    if earlier:
        sums = [sum(hand[s] for hand in earlier) for s in range(len(names))]
        rows.append(f"1-{len(earlier)}".ljust(6) + "".join(str(p).rjust(width) for p in sums))
    for number, hand in enumerate(points[len(earlier) :], start=len(earlier) + 1):
        rows.append(str(number).ljust(6) + "".join(str(p).rjust(width) for p in hand))
    totals = [sum(hand[s] for hand in points) for s in range(len(names))]
    rows.append("Total".ljust(6) + "".join(str(t).rjust(width) for t in totals))
    if target is not None:
        rows.append(f"The game ends when a player reaches {target} points; the lowest total wins.")
    return rows
