"""The ``corner`` command group of Kings Corner, the game for 2 to 4 players, and what its commands share."""

from __future__ import annotations

import secrets

import click

from kcsolve.cli.base import (
    CONTEXT,
    cli,
)
from kcsolve.common.deal import SEED_LIMIT, check_seed
from kcsolve.corner.game.engine import (
    card_text,
)


@cli.group("corner", context_settings=CONTEXT, invoke_without_command=True)
@click.pass_context
def corner(ctx: click.Context) -> None:
    """Kings Corner, the game for 2 to 4 players: deal, turn, solve, sim, play, rules, replay, verify.

    Rules are options joined with '+', e.g. 'draw=start+under=yes+scoring=aces'
    ('kcsolve corner rules' lists them; each one's source is in the source
    repository, docs/CORNER.md).
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def seed_or_random(seed: int | None) -> int:
    """A checked seed, or a random one (printed by the caller)."""
    return secrets.randbelow(SEED_LIMIT) if seed is None else check_seed(seed)


rules_option = click.option(
    "--rules",
    "rules_text",
    default="default",
    show_default=True,
    help="Kings Corner options joined with '+', e.g. draw=start+under=yes.",
)
players_option = click.option("--players", type=int, default=2, show_default=True, help="Players at the table, 2 to 4.")
format_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)


def card_list(cards: tuple[int, ...]) -> list[str]:
    """Cards as JSON strings; an empty hand is an empty list."""
    return [card_text(card) for card in cards]
