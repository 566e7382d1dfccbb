"""The ``pysol-solvable`` command: PySolFC Camelot game numbers proved winnable, as a solvable_seeds file."""

from __future__ import annotations

import click

from kcsolve.cli.base import CONTEXT, Ticker, cli, fail
from kcsolve.patience.pysol import (
    PYSOL_MAX_GAME,
    SOLVABLE_FROM,
    check_pysol_game,
    solvable_seeds_module,
)
from kcsolve.patience.solve.camelot import camelot_verdict


@cli.command("pysol-solvable", context_settings=CONTEXT)
@click.option("--from", "first", type=int, default=SOLVABLE_FROM, show_default=True, help="First PySolFC game number.")
@click.option(
    "--count",
    type=click.IntRange(min=1, max=10**7),
    default=1000,
    show_default=True,
    help="How many consecutive game numbers to decide.",
)
def pysol_solvable_command(first: int, count: int) -> None:
    """Print PySolFC's Camelot game numbers that kcsolve proves winnable, as a solvable_seeds module.

    The output has the form of the files in PySolFC's pysollib/games/solvable_seeds/
    (a SOLVABLE_SEEDS tuple), for an "always solvable" Camelot. Like those files it
    holds numbers from 32000 on only: below that PySolFC deals such games with
    another generator. Undecided games (none are expected) are left out and counted.
    """
    check_pysol_game(first)
    if first < SOLVABLE_FROM:
        fail(
            f"--from {first}: PySolFC's solvable_seeds hold game numbers >= {SOLVABLE_FROM} only "
            "(below that its always-solvable games are dealt by another generator)"
        )
    last = first + count - 1
    if last > PYSOL_MAX_GAME:
        fail(f"--from {first} --count {count} runs past the last PySolFC game number, 10**20")
    winnable, undecided = [], 0
    with Ticker("PySolFC Camelot games") as ticker:
        for game in range(first, last + 1):
            ticker.note(f"game {game} ({game - first + 1:,} of {count:,})")
            result, _ = camelot_verdict(game)
            winnable += [game] if result == "win" else []
            undecided += result == "unknown"
    click.echo(solvable_seeds_module(winnable, first, last, undecided), nl=False)
