"""``corner play``: you against the bots at the table, in the terminal."""

from __future__ import annotations

import os

import click

from kcsolve.cli.base import (
    CONTEXT,
    colour_option,
    fail,
    read_text,
    redraws_in_place,
    source_name,
    use_colour,
)
from kcsolve.cli.corner.group import corner, seed_or_random
from kcsolve.cli.corner.loop import run_table
from kcsolve.corner.bots.bots import BOTS
from kcsolve.corner.game.engine import (
    check_players,
)
from kcsolve.corner.game.rules import parse_corner_rules
from kcsolve.corner.records.saved import parse_saved
from kcsolve.corner.table.table import Table


@corner.command("play", context_settings=CONTEXT)
@click.argument("saved_path", metavar="[SAVED.json]", required=False)
@click.option(
    "--seed", type=int, help="Deal number N (default: a random one, shown); hand h of a match is deal N + h - 1."
)
@click.option("--players", type=int, help="Players at the table, 2 to 4.  [default: 2]")
@click.option(
    "--bots",
    "bot_name",
    help=f"The bot in every other seat ({', '.join(BOTS)}), or one a seat from "
    "player 2 on, comma-separated (greedy,search,turn seats three).  "
    "[default: greedy]",
)
@click.option(
    "--match",
    is_flag=True,
    help="Play hands until a player reaches the target score (rules option target, default 50); the lowest total wins.",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Write each hand's record to this file (hand 2 to FILE-2.json, ...) when it ends or you leave.",
)
@click.option("--rules", "rules_text", help="Kings Corner options joined with '+'.  [default: default]")
@click.option("--plain", is_flag=True, help="Print line by line instead of redrawing the screen (always so in a pipe).")
@colour_option
def play_command(
    saved_path: str | None,
    seed: int | None,
    players: int | None,
    bot_name: str | None,
    match: bool,
    record_path: str | None,
    rules_text: str | None,
    plain: bool,
    colour: bool | None,
) -> None:
    """Play Kings Corner in the terminal against bots: you are player 1 and lead the first hand.

    Type a move ('play QH N' or 'QH N', 'merge S N' or 'S N', 'under 9H W'),
    'end' to end your turn, or: moves, undo, hint, scores, save FILE, help,
    quit; case does not matter. Giving a file saved with 'save' resumes it.

    Exit status: 0 after quit, the end of the game or the end of input (the
    record of the hand so far is written); 130 on Ctrl-C (nothing is written
    but records of hands already ended); 2 for bad input, a damaged save or a
    record that cannot be written (the game stops there).
    """
    if record_path is not None and not os.path.basename(record_path):  # a folder's path, never writable
        fail(f"--record needs a file name, not {record_path!r}")
    if record_path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(record_path))):
        fail(f"cannot write the record to {record_path!r}: its folder does not exist")  # said before, not after, a game
    if saved_path is not None:
        given = [
            name
            for name, value in (
                ("--seed", seed),
                ("--players", players),
                ("--bots", bot_name),
                ("--rules", rules_text),
                ("--match", match or None),
            )
            if value is not None
        ]
        if given:
            fail(f"a saved game keeps its own deal, players, bots and rules: leave out {given[0]}")
        source = source_name(saved_path)
        table = Table.resume(parse_saved(read_text(saved_path), source), source)
    else:
        rules = parse_corner_rules(rules_text or "default")
        if bot_name is not None and not bot_name.strip():
            fail(f"--bots needs a bot name ({', '.join(BOTS)}), not {bot_name!r}")
        named = len((bot_name or "greedy").split(","))
        default_players = named + 1 if named > 1 else 2  # one name a seat says how many sit at the table
        table = Table(
            seed_or_random(seed),
            check_players(default_players if players is None else players),
            bot_name or "greedy",
            rules,
            match,
        )
    run_table(table, record_path, redraws_in_place(plain), use_colour(colour))
