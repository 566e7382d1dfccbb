"""The ``play`` command: the patience in the terminal, with hints."""

from __future__ import annotations

import secrets
import sys

import click

from kcsolve.cli.base import (
    CONTEXT,
    MAX_RECORD_TEXT,
    _read_text,
    _source_name,
    _use_colour,
    cli,
    colour_option,
    fail,
    load_deck,
    parse_date,
    read_line,
    style_option,
)
from kcsolve.common.deal import SEED_LIMIT, check_seed, deal
from kcsolve.common.words import wrapped
from kcsolve.patience.record import InvalidRecordError, is_saved_game, parse_record
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import Verdict, solve
from kcsolve.patience.terminal.render import draw
from kcsolve.patience.terminal.screen import screen
from kcsolve.patience.terminal.session import Session

CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen: the board is redrawn in place


@cli.command("play", context_settings=CONTEXT)
@click.argument("game_path", metavar="[DECK_FILE|SAVED.json]", required=False)
@click.option("--seed", type=int, help="Play deal number N (default: a random one, shown).")
@click.option(
    "--daily",
    "daily_date",
    is_flag=False,
    flag_value="today",
    default=None,
    metavar="[DATE]",
    help="Play the daily deal of DATE (default: today, UTC).",
)
@click.option("--rules", "rules_text", help="Rule preset(s), joined with '+'.  [default: standard, or a saved game's]")
@click.option(
    "--auto/--no-auto", default=False, help="Let forced moves play themselves (the 'auto' command toggles it)."
)
@click.option("--plain", is_flag=True, help="Print line by line instead of redrawing the screen (always so in a pipe).")
@style_option
@colour_option
def play_command(
    game_path: str | None,
    seed: int | None,
    daily_date: str | None,
    rules_text: str | None,
    auto: bool,
    plain: bool,
    style: str,
    colour: bool | None,
) -> None:
    """Play a game in the terminal, with hints from a player who cannot see the stock.

    Type a cell to place the turned card (b2), cells to remove cards (b2 d2),
    or: deal, undo, hint, peek, auto, save FILE, load FILE, help, quit. Giving a
    game saved with 'save' resumes it. On a terminal the 80x24 screen is redrawn
    in place; in a pipe (or with --plain) everything is printed line by line.

    Exit status: 0 after quit or the end of input, 130 on Ctrl-C (nothing is
    written unless you save), 2 for bad input.
    """
    if sum(x is not None for x in (game_path, seed, daily_date)) > 1:
        fail("give one of DECK_FILE, SAVED.json, --seed N or --daily [DATE]")
    session, title = _start(game_path, seed, daily_date, rules_text, auto)
    full_screen = not plain and sys.stdin.isatty() and sys.stdout.isatty()
    paint = _use_colour(colour)
    try:
        _game_loop(session, title, full_screen, style, paint)
    except KeyboardInterrupt:
        click.echo("\nBye.")
        sys.exit(130)
    except EOFError:  # end of input: leaving is always clean, and nothing is written unless asked
        click.echo("\nBye.")


def _start(
    game_path: str | None, seed: int | None, daily_date: str | None, rules_text: str | None, auto: bool
) -> tuple[Session, str]:
    """The session to play and its title: a saved game resumed, a deck file, a daily deal or a seeded deal."""
    rules = parse_rules(rules_text or "standard")
    if game_path is not None:
        text = _read_text(game_path, MAX_RECORD_TEXT)
        if is_saved_game(text):
            if rules_text is not None:
                fail("a saved game is played under its own rules: leave out --rules")
            record = parse_record(text, source=_source_name(game_path))
            try:
                session = Session.resume(record, auto)
            except InvalidRecordError as exc:
                fail(f"{_source_name(game_path)}: {exc}")
            return session, f"Saved game {game_path}"
        return Session(load_deck(game_path), rules, auto=auto), f"Deck {game_path}"
    if daily_date is not None:
        from kcsolve.patience.daily.calendar import daily

        day = parse_date(None if daily_date == "today" else daily_date)
        found = daily(day, rules)
        return (
            Session(found.deck, rules, found.seed, auto),
            f"Daily deal of {day.isoformat()} (deal {found.seed}, grade {found.grade})",
        )
    number = check_seed(seed if seed is not None else secrets.randbelow(SEED_LIMIT))
    return Session(deal(number), rules, number, auto), f"Deal {number}"


def _game_loop(session: Session, title: str, full_screen: bool, style: str, paint: bool) -> None:
    """Play until the player quits; after each game, offer a retry or the next deal."""
    while True:
        messages = [
            *wrapped(f"{title}, rules {session.rules}. Type 'help' for the commands.", "", "  "),
            *session.play_forced(),
        ]
        _show(session, title, messages, full_screen, style, paint, True)
        while not session.over:
            reply = session.command(read_line("> "))
            if reply.done:
                _echo_lines(reply.lines)
                return
            _show(session, title, reply.lines, full_screen, style, paint, reply.redraw)
        winnable = solve(session.deck, session.rules).result
        _show(
            session,
            title,
            session.summary(None if winnable is Verdict.UNKNOWN else winnable),
            full_screen,
            style,
            paint,
            False,
        )
        choice = ""
        while choice not in ("r", "n", "q"):
            choice = read_line("> ").strip().lower()[:1]
        if choice == "q":
            click.echo("Bye.")
            return
        if choice == "r":
            session = Session(session.deck, session.rules, session.seed, session.auto)
        else:
            number = (session.seed + 1) % SEED_LIMIT if session.seed is not None else secrets.randbelow(SEED_LIMIT)
            session, title = Session(deal(number), session.rules, number, session.auto), f"Deal {number}"


def _show(
    session: Session, title: str, messages: list[str], full_screen: bool, style: str, paint: bool, redraw: bool
) -> None:
    """On a terminal, redraw the whole screen in place; in a pipe, print what changed."""
    if full_screen:
        heading = f"{title}, rules {session.rules}"
        click.echo(CLEAR, nl=False, color=True)  # a control sequence, never stripped like colour
        click.echo("\n".join(screen(heading, session.position, messages, paint)), color=paint)
        return
    _echo_lines(messages)
    if redraw:
        click.echo(draw(session.position, style, paint), color=paint)
        _echo_lines(session.status_lines())


def _echo_lines(lines: list[str]) -> None:
    """Print lines as they are."""
    for line in lines:
        click.echo(line)
