"""The ``selfplay`` command: a player who cannot see the deck plays seeded deals by itself."""

from __future__ import annotations

import json

import click

from kcsolve.cli.base import CONTEXT, Ticker, cli, fail
from kcsolve.common.deal import SEED_LIMIT, check_seed
from kcsolve.common.words import paragraph
from kcsolve.common.workers import MAX_JOBS
from kcsolve.patience.players.selfplay import (
    PLAYERS,
    Tally,
    check_player,
    selfplay,
)
from kcsolve.patience.rules import parse_rules


@cli.command("selfplay", context_settings=CONTEXT)
@click.option("--player", "name", default="strong", show_default=True, help=f"Who plays: {', '.join(PLAYERS)}.")
@click.option("--seed", "start", type=int, default=0, show_default=True, help="First deal number.")
@click.option("--count", type=click.IntRange(min=1), default=100, show_default=True, help="How many consecutive deals.")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option("--jobs", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True, help="Worker processes.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def selfplay_command(name: str, start: int, count: int, rules_text: str, jobs: int, fmt: str) -> None:
    """Play consecutive seeded deals without seeing the deck: games, wins, win rate, CPU seconds per game.

    The player sees each card only when it is turned (random: any legal move;
    greedy: one fixed rule per card; strong: sampled orders of the unseen cards,
    each judged as if seen). JSON gives one game record per line, its result
    set and accepted by ``verify`` for every win, then a summary object.
    """
    check_player(name)
    rules = parse_rules(rules_text)
    check_seed(start)
    if start + count > SEED_LIMIT:
        fail(f"--seed {start} --count {count} runs past the last deal number, {SEED_LIMIT - 1}")
    games = wins = 0
    seconds = 0.0
    with Ticker(f"{name} player") as ticker:
        for game in selfplay(name, start, count, rules, jobs):
            games += 1
            wins += game.won
            seconds += game.seconds
            ticker.note(f"deal {game.seed} ({games:,} of {count:,}, {wins:,} won)")
            if fmt == "json":
                click.echo(json.dumps(game.record.to_json()))
    tally = Tally(games, wins, seconds)
    low, high = tally.interval
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "summary": True,
                    "player": name,
                    "rules": str(rules),
                    "seed": start,
                    "games": games,
                    "wins": wins,
                    "win_rate": tally.rate,
                    "ci95": [low, high],
                    "seconds_per_game": tally.seconds_per_game,
                }
            )
        )
        return
    click.echo(paragraph(f"player {name}, rules {rules}, deals {start}..{start + count - 1}"))
    click.echo(f"games {games:,}, wins {wins:,}, win rate {tally.rate:.2%} (95% interval {low:.2%} to {high:.2%})")
    click.echo(f"{tally.seconds_per_game:.3f} CPU seconds per game")
