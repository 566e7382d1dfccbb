"""`kcsolve corner play`'s loop: read a line, hand it to the table, show what comes back.

On a terminal the 80x24 screen is redrawn in place at every prompt; in a pipe
everything is printed line by line. The record of each hand is written when the
hand ends, and of the hand in play when the player leaves.
"""

from __future__ import annotations

import json
import os
import sys

import click

from kcsolve.cli.base import check_input, fail, read_line, too_small
from kcsolve.common.files import write_atomically
from kcsolve.corner.game.render import WIDTH, paint
from kcsolve.corner.table.screen import HEIGHT, message_lines
from kcsolve.corner.table.table import Reply, Table

CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen: the table is redrawn in place


def run_table(table: Table, record_path: str | None, full_screen: bool, colour: bool) -> None:
    """Play until the game ends, the player quits or the input ends; Ctrl-C leaves with status 130."""
    check_input()
    written: set[int] = set()
    try:
        messages, redraw = [*table.opening(), *table.advance()], True
        told = messages  # what the bots did last: a full screen keeps it above replies that change nothing
        while True:
            if table.hand_over:
                messages += _keep_record(table, record_path, written, messages, colour)
            if table.game_over:
                _show(table, messages, True, full_screen, colour, prompt=False)
                return
            _show(table, messages, redraw, full_screen, colour, prompt=True)
            try:
                reply = table.command(read_line())
            except EOFError:  # the end of input is a quit
                click.echo()
                reply = Reply(["Bye."], done=True)
            if reply.done:
                lines = [] if table.hand_over else _keep_record(table, record_path, written, reply.lines, colour)
                _echo(message_lines([*lines, *reply.lines]), colour)
                return
            messages, redraw = reply.lines, reply.redraw
            if redraw:
                told = messages
            elif full_screen:
                messages = [*told, *messages]
    except KeyboardInterrupt:
        click.echo("\nBye.")
        sys.exit(130)


def _keep_record(
    table: Table, record_path: str | None, written: set[int], pending: list[str], colour: bool
) -> list[str]:
    """Write the hand's record once (hand 2 on to FILE-2.json, ...); a line saying where.

    A record that cannot be written stops the game with an error, after the ``pending`` lines.
    """
    if record_path is None or table.number in written:
        return []
    written.add(table.number)
    root, extension = os.path.splitext(record_path)
    path = record_path if table.number == 0 else f"{root}-{table.number + 1}{extension}"
    try:
        write_atomically(path, json.dumps(table.record().to_json()) + "\n")
    except OSError as exc:
        _echo(pending, colour)  # how the hand ended, or the goodbye: the player should see it before the error
        fail(
            f"cannot write the record to {path!r}: {exc.strerror or exc}; the game was played but hand "
            f"{table.number + 1} is not recorded"
        )
    state = "" if table.hand_over else " so far (unfinished)"
    return [f"The record of hand {table.number + 1}{state} is in {path}."]


def _show(table: Table, messages: list[str], redraw: bool, full_screen: bool, colour: bool, prompt: bool) -> None:
    """On a terminal, the whole screen in place; in a pipe, the messages and, when asked, the table."""
    if full_screen:
        click.echo(CLEAR, nl=False, color=True)  # a control sequence, never stripped like colour
        _echo(too_small(WIDTH, HEIGHT) or table.screen(messages), colour)
    else:
        _echo(message_lines(messages), colour)  # wrapped as the screen wraps them
        if redraw:
            _echo(table.board(), colour)
    if prompt:
        click.echo("> ", nl=False)


def _echo(lines: list[str], colour: bool) -> None:
    """Print lines, the red suits in red when colour is on."""
    for line in lines:
        click.echo(paint(line) if colour else line, color=colour)
