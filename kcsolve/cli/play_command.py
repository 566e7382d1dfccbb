"""The ``play`` command: the patience in the terminal, with hints."""

from __future__ import annotations

import secrets
import sys

import click

from kcsolve.cli.base import (
    CONTEXT,
    check_input,
    cli,
    colour_option,
    fail,
    load_deck,
    parse_date,
    read_line,
    read_text,
    redraws_in_place,
    source_name,
    style_option,
    too_small,
    use_colour,
)
from kcsolve.common.deal import SEED_LIMIT, check_seed, deal
from kcsolve.common.words import wrapped
from kcsolve.patience.record import InvalidRecordError, is_saved_game, parse_record
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import Verdict, solve
from kcsolve.patience.terminal.render import draw
from kcsolve.patience.terminal.screen import HEIGHT, WIDTH, screen
from kcsolve.patience.terminal.session import Session

CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen: the board is redrawn in place
# what a finished game's prompt takes, as whole words, besides the commands in STILL_OPEN
AFTER_THE_GAME = {"r": "retry", "retry": "retry", "n": "next", "next": "next", "q": "quit", "quit": "quit"}
STILL_OPEN = ("save", "load", "undo", "help", "exit")
GAME_OVER = "The game is over: r retry, n next deal, q quit; or save FILE, undo, help."


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
@click.option(
    "--face-up",
    is_flag=True,
    help="Show the whole stock in order (the game the solver decides); hints are then the solver's, exact.",
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
    face_up: bool,
    plain: bool,
    style: str,
    colour: bool | None,
) -> None:
    """Play a game in the terminal, with hints from a player who cannot see the stock.

    Type a cell to place the turned card (b2), cells to remove cards (b2 d2),
    or: deal, undo, hint, peek, auto, save FILE, load FILE, help, quit. Giving a
    game saved with 'save' resumes it. On a terminal the 80x24 screen is redrawn
    in place; in a pipe (or with --plain) everything is printed line by line.
    With --face-up the whole stock shows in order, the next four cards first,
    and 'hint' says which options keep the deal winnable (the exact solver);
    a game saved face up resumes face up.

    Exit status: 0 after quit or the end of input, 130 on Ctrl-C (nothing is
    written unless you save), 141 when the reader of its output leaves, 2 for
    bad input.
    """
    if sum(x is not None for x in (game_path, seed, daily_date)) > 1:
        fail("give one of DECK_FILE, SAVED.json, --seed N or --daily [DATE]")
    check_input()
    session, title = _start(game_path, seed, daily_date, rules_text, auto, face_up)
    full_screen = redraws_in_place(plain)
    paint = use_colour(colour)
    try:
        _game_loop(session, title, full_screen, style, paint)
    except KeyboardInterrupt:
        click.echo("\nBye.")
        sys.exit(130)
    except EOFError:  # end of input: leaving is always clean, and nothing is written unless asked
        click.echo("\nBye.")


def _start(
    game_path: str | None, seed: int | None, daily_date: str | None, rules_text: str | None, auto: bool, face_up: bool
) -> tuple[Session, str]:
    """The session to play and its title: a saved game resumed, a deck file, a daily deal or a seeded deal."""
    session, title = _session(game_path, seed, daily_date, rules_text, auto, face_up)
    return session, title + (", face up" if session.face_up else "")


def _session(
    game_path: str | None, seed: int | None, daily_date: str | None, rules_text: str | None, auto: bool, face_up: bool
) -> tuple[Session, str]:
    """The session to play and its title, before the mode is added to it."""
    rules = parse_rules(rules_text or "standard")
    if game_path is not None:
        text = read_text(game_path)
        if is_saved_game(text):
            if rules_text is not None:
                fail("a saved game is played under its own rules: leave out --rules")
            record = parse_record(text, source=source_name(game_path))
            try:
                session = Session.resume(record, auto, face_up)
            except InvalidRecordError as exc:
                fail(f"{source_name(game_path)}: {exc}")
            return session, f"Saved game {game_path}"
        return Session(load_deck(game_path), rules, auto=auto, face_up=face_up), f"Deck {game_path}"
    if daily_date is not None:
        from kcsolve.patience.daily.calendar import daily

        day = parse_date(None if daily_date == "today" else daily_date)
        found = daily(day, rules)
        return (
            Session(found.deck, rules, found.seed, auto, face_up),
            f"Daily deal of {day.isoformat()} (deal {found.seed}, grade {found.grade})",
        )
    number = check_seed(seed if seed is not None else secrets.randbelow(SEED_LIMIT))
    return Session(deal(number), rules, number, auto, face_up), f"Deal {number}"


def _game_loop(session: Session, title: str, full_screen: bool, style: str, paint: bool) -> None:
    """Play until the player quits; after each game, offer a retry or the next deal."""
    while True:
        messages = [
            *wrapped(f"{title}, rules {session.rules}. Type 'help' for the commands.", "", "  "),
            *session.play_forced(),
        ]
        _show(session, title, messages, full_screen, style, paint, True)
        choice = _play_deal(session, title, full_screen, style, paint)
        if choice == "quit":
            return
        if choice == "retry":
            session = Session(session.deck, session.rules, session.seed, session.auto, session.face_up)
        else:
            number = (session.seed + 1) % SEED_LIMIT if session.seed is not None else secrets.randbelow(SEED_LIMIT)
            session = Session(deal(number), session.rules, number, session.auto, session.face_up)
            title = f"Deal {number}" + (", face up" if session.face_up else "")


def _play_deal(session: Session, title: str, full_screen: bool, style: str, paint: bool) -> str:
    """Play one deal to its end and past it, until the player asks to retry it, for the next deal, or to quit.

    After the end the game's commands that still mean something (save, undo,
    help, load) go on working; only a whole word picks what comes next.
    """
    summed_up = False
    while True:
        if session.over and not summed_up:
            winnable = solve(session.deck, session.rules).result
            summary = session.summary(None if winnable is Verdict.UNKNOWN else winnable)
            _show(session, title, summary, full_screen, style, paint, False)
            summed_up = True
        line = read_line("> ")
        if session.over:
            choice = AFTER_THE_GAME.get(line.strip().lower())
            if choice == "quit":
                click.echo("Bye.")
            if choice is not None:
                return choice
            words = line.split()
            if words and words[0].lower() not in STILL_OPEN:
                _show(session, title, [GAME_OVER], full_screen, style, paint, False)
                continue
        reply = session.command(line)
        if reply.done:
            _echo_lines(reply.lines)
            return "quit"
        summed_up = summed_up and session.over  # an undo reopens the game: its end is summed up again
        _show(session, title, reply.lines, full_screen, style, paint, reply.redraw)


def _show(
    session: Session, title: str, messages: list[str], full_screen: bool, style: str, paint: bool, redraw: bool
) -> None:
    """On a terminal, redraw the whole screen in place (or say it is too small); in a pipe, print what changed."""
    if full_screen:
        heading = f"{title}, rules {session.rules}"
        click.echo(CLEAR, nl=False, color=True)  # a control sequence, never stripped like colour
        lines = too_small(WIDTH, HEIGHT) or screen(heading, session.position, messages, paint, session.face_up)
        click.echo("\n".join(lines), color=paint)
        return
    _echo_lines(messages)
    if redraw:
        click.echo(draw(session.position, style, paint), color=paint)
        _echo_lines(session.status_lines())


def _echo_lines(lines: list[str]) -> None:
    """Print lines as they are."""
    for line in lines:
        click.echo(line)
