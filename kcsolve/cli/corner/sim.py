"""``corner sim``: bots play a tournament of hands or matches, with win rates, intervals and seat shares."""

from __future__ import annotations

import json
import sys
import textwrap
from typing import Any

import click

from kcsolve.cli.base import (
    CONTEXT,
    Ticker,
    fail,
)
from kcsolve.cli.corner.group import corner, format_option, players_option, rules_option
from kcsolve.common.deal import SEED_LIMIT
from kcsolve.common.interval import wilson
from kcsolve.common.words import plural
from kcsolve.common.workers import MAX_JOBS
from kcsolve.corner.bots.bots import BOTS
from kcsolve.corner.bots.sim import MATCH_DEALS, check_bots, tournament
from kcsolve.corner.game.engine import (
    check_players,
    parse_move,
    seeded_deck,
)
from kcsolve.corner.game.rules import parse_corner_rules
from kcsolve.corner.records.record import (
    CornerRecord,
    game_of,
)


@corner.command("sim", context_settings=CONTEXT)
@players_option
@click.option(
    "--bots",
    "bot_text",
    default="greedy",
    show_default=True,
    help=f"Bots by name, comma-separated ({', '.join(BOTS)}), at most one a seat; they take turns in the seats.",
)
@click.option("--games", type=click.IntRange(1, 10**7), default=100, show_default=True)
@click.option(
    "--seed",
    type=click.IntRange(0, SEED_LIMIT - 1),
    default=0,
    show_default=True,
    help="Game g is dealt from deal number SEED + g; with --match, its hands from SEED + 10,001 g on.",
)
@click.option("--jobs", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True)
@click.option(
    "--match", is_flag=True, help="Each game is hands up to the target score (the lowest total wins), not one hand."
)
@rules_option
@format_option
def sim_command(
    players: int, bot_text: str, games: int, seed: int, jobs: int, match: bool, rules_text: str, fmt: str
) -> None:
    """A tournament: win rates with 95% intervals, mean penalty points, and each seat's share of wins.

    The bots rotate through the seats from game to game. JSON: one object per
    game (a hand record with its 'index' and 'bots'; with --match, the totals),
    then a summary with 'bot_wins' (by bot) and 'seat_wins' (by seat).
    """
    rules, players = parse_corner_rules(rules_text), check_players(players)
    names = check_bots(tuple(name.strip() for name in bot_text.split(",")), players)
    if seed + games * (MATCH_DEALS if match else 1) > SEED_LIMIT:
        fail(f"--seed {seed} with --games {games} runs past the last deal number")

    def each(result: Any) -> None:
        if fmt == "json" and match:
            first = seed + MATCH_DEALS * result.index
            hands = [tuple(parse_move(m) for m in moves) for moves in result.hand_moves]
            game = game_of(players, rules, [first + h for h in range(len(hands))], hands, result.index, result.bots)
            click.echo(json.dumps(game.to_json()))
        elif fmt == "json":
            deal = seed + result.index
            record = CornerRecord(
                seeded_deck(deal),
                players,
                rules,
                tuple(parse_move(m) for m in result.moves),
                deal,
                {"over": True, "winners": list(result.winners), "penalties": list(result.penalties)},
                result.index,
                result.bots,
            )
            click.echo(json.dumps(record.to_json()))

    played = f"of {plural(games, 'game' if match else 'hand')} played"
    try:
        with Ticker(f"0 {played}") as ticker:

            def counted(result: Any) -> None:
                each(result)
                done = result.index + 1
                ticker.note(f"{done:,} {played} ({done / games:.0%})")

            tally = tournament(players, names, games, seed, rules, jobs, counted, match)
    except KeyboardInterrupt:
        click.echo("kcsolve: interrupted", err=True)
        sys.exit(130)
    if fmt == "json":
        click.echo(json.dumps(tally.to_json(match)))
        return
    for line in tally_lines(tally, names, seed, rules, match):
        click.echo(textwrap.fill(line, 80, subsequent_indent="    "))


def _rate(wins: int, count: int) -> str:
    """' (40.0%, 95% 33.1% to 47.2%)' for two or more games; nothing for one, where a rate says nothing."""
    if count < 2:
        return ""
    low, high = wilson(wins, count)
    return f" ({wins / count:.1%}, 95% {low:.1%} to {high:.1%})"


def tally_lines(tally: Any, names: tuple[str, ...], seed: int, rules: Any, match: bool) -> list[str]:
    """A tournament's summary in words: each bot, each seat, and the games nobody won alone."""
    games, players = tally.games, tally.players
    unit = "game" if match else "hand"
    if match:
        head = (
            f"{plural(games, 'game')} to {rules.target} penalty points, {players} players, bots {', '.join(names)}, "
            f"rules {rules}; the hands of game g are deals {seed} + {MATCH_DEALS:,} g on"
        )
    else:
        head = (
            f"{plural(games, 'hand')}, {players} players, bots {', '.join(names)}, rules {rules}, "
            f"deals {seed}..{seed + games - 1}"
        )
    lines = [head]
    distinct = list(dict.fromkeys(names))
    alone = tally.bots_alone  # a bot that sits in two seats of one game wins against itself
    if len(distinct) == 1:
        lines.append(f"  {names[0]} in every seat")
    for name in distinct if len(distinct) > 1 else []:
        seats = tally.bot_seats[name]
        wins, points = tally.bot_wins[name], "mean total" if match else "mean penalty"
        if alone:
            counted = f"{plural(seats, unit)}{_rate(wins, seats)}"
        else:
            counted = f"{plural(seats, 'seat')} ({wins / seats:.1%}; it sat twice at some {unit}s, so no interval)"
        lines.append(f"  {name:<7} won {wins:,} of {counted}; {points} {tally.bot_points[name] / seats:.2f}")
    first = " (leads the first hand)" if match else " (plays first)"
    for seat, wins in enumerate(tally.seat_wins):
        lines.append(
            f"  seat {seat + 1}{first if seat == 0 else ''}: won {wins:,} of {plural(games, unit)}{_rate(wins, games)}"
        )
    if match:
        lines.append(f"  ties (the lowest total shared): {tally.ties:,}")
    elif rules.tie:
        lines.append(f"  ties: {tally.ties:,}")
    return lines
