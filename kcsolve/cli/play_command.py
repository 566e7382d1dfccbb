"""The ``play`` command: the patience in the terminal, with hints."""


from __future__ import annotations

import secrets
from typing import Any

import click

from ..common.deal import SEED_LIMIT, check_seed, deal
from ..patience.render import draw
from ..patience.rules import parse_rules
from .base import (
    CONTEXT,
    _use_colour,
    cli,
    colour_option,
    fail,
    load_deck,
    parse_date,
    style_option,
)


@cli.command("play", context_settings=CONTEXT)
@click.argument("deck_path", metavar="[DECK_FILE]", required=False)
@click.option("--seed", type=int, help="Play deal number N (default: a random one, shown).")
@click.option("--daily", "daily_date", is_flag=False, flag_value="today", default=None, metavar="[DATE]",
              help="Play the daily deal of DATE (default: today).")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@style_option
@colour_option
def play_command(
    deck_path: str | None, seed: int | None, daily_date: str | None, rules_text: str, style: str, colour: bool | None,
) -> None:
    """Play a game in the terminal, with hints from a player who cannot see the stock.

    Type a cell to place the turned card (b2), cells to remove cards (b2 d2),
    or: deal, undo, hint, peek, save FILE, load FILE, help, quit.
    """
    from ..patience.session import Session

    rules = parse_rules(rules_text)
    if sum(x is not None for x in (deck_path, seed, daily_date)) > 1:
        fail("give one of DECK_FILE, --seed N or --daily [DATE]")
    if deck_path is not None:
        deck, title = load_deck(deck_path), f"Deck {deck_path}"
    elif daily_date is not None:
        from ..patience.daily import daily

        day = parse_date(None if daily_date == "today" else daily_date)
        found = daily(day, rules)
        deck, title = found.deck, f"Daily deal of {day.isoformat()} (deal {found.seed}, grade {found.grade})"
    else:
        number = check_seed(seed if seed is not None else secrets.randbelow(SEED_LIMIT))
        deck, title = deal(number), f"Deal {number}"
    paint = _use_colour(colour)
    session = Session(deck, rules)
    click.echo(f"{title}, rules {rules}. Type 'help' for the commands.")
    _show(session, style, paint)
    try:
        while True:
            reply = session.command(input("> "))
            for line in reply.lines:
                click.echo(line)
            if reply.done:
                return
            if reply.redraw:
                _show(session, style, paint)
    except (EOFError, KeyboardInterrupt):  # nothing is written unless asked: leaving is always clean
        click.echo("\nBye.")


def _show(session: Any, style: str, paint: bool) -> None:
    """Draw the grid and the lines under it."""
    position = session.position
    click.echo(draw(position, style, paint), color=paint)
    for line in session.status_lines():
        click.echo(line)
