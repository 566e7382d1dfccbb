"""``corner deal``, ``corner turn`` and ``corner solve``: one hand dealt, one turn solved, one open hand solved."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from kcsolve.cli.base import (
    CONTEXT,
    read_text,
    source_name,
)
from kcsolve.cli.corner.group import card_list, corner, format_option, players_option, rules_option, seed_or_random
from kcsolve.common.budget import parse_budget
from kcsolve.common.words import paragraph, plural
from kcsolve.corner.game.engine import (
    check_players,
    deal_hand,
    seeded_deck,
)
from kcsolve.corner.game.render import draw_piles, draw_position, hand_text
from kcsolve.corner.game.rules import parse_corner_rules
from kcsolve.corner.records.record import (
    parse_position,
    position_to_json,
)
from kcsolve.corner.solvers.openhands import DEFAULT_NODES, solve_open
from kcsolve.corner.solvers.turn import DEFAULT_TURN_NODES, best_turn


@corner.command("deal", context_settings=CONTEXT)
@click.option("--seed", type=int, help="Deal number N (default: a random one, shown).")
@players_option
@rules_option
@format_option
def deal_command(seed: int | None, players: int, rules_text: str, fmt: str) -> None:
    """Deal a hand: seven cards each, the four side piles, the stock.

    With --format json the output is also a position file for 'corner turn' (the
    hand in it is player 1's, who plays first).
    """
    rules, players, seed = parse_corner_rules(rules_text), check_players(players), seed_or_random(seed)
    position = deal_hand(seeded_deck(seed), players, rules)
    if fmt == "json":
        data = position_to_json(position)
        data.update(
            {
                "seed": seed,
                "players": players,
                "hands": [card_list(h) for h in position.hands],
                "stock": card_list(position.stock),
            }
        )
        click.echo(json.dumps(data))
        return
    click.echo(paragraph(f"Kings Corner, deal {seed}, {players} players, rules {rules}; player 1 plays first."))
    click.echo(draw_position(position))


@corner.command("turn", context_settings=CONTEXT)
@click.argument("position_path", metavar="POSITION.json")
@click.option(
    "--budget",
    "budget_text",
    default=str(DEFAULT_TURN_NODES),
    show_default=True,
    help="Positions (or CPU time, e.g. '2s') the search may use; then the best line seen is shown, "
    "not proven best, and the exit status is 3.",
)
@format_option
def turn_command(position_path: str, budget_text: str, fmt: str) -> None:
    """The best turn for the hand in a position file: most cards shed, then fewest points, then fewest spots.

    Exit status: 0 the best line, 3 the budget ran out (the best line seen), 2 bad input.
    """
    budget = parse_budget(budget_text)
    piles, hand, rules = parse_position(read_text(position_path), source_name(position_path))
    turn = best_turn(piles, hand, rules, budget=budget)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "line": [str(m) for m in turn.line],
                    "proven": turn.proven,
                    "shed": turn.shed,
                    "hand_after": card_list(turn.hand),
                    "points_left": turn.points,
                    "spots_left": turn.spots,
                    "states": turn.states,
                }
            )
        )
        sys.exit(0 if turn.proven else 3)
    if not turn.proven:
        click.echo(f"Undecided: the budget of {budget.describe('positions')} ran out.")
        click.echo("The best line seen follows, not proven best.")
    _print_turn(piles, hand, turn)
    sys.exit(0 if turn.proven else 3)


def _print_turn(piles: Any, hand: tuple[int, ...], turn: Any) -> None:
    """A turn solver's answer in words."""
    click.echo(draw_piles(piles))
    click.echo(paragraph(f"Hand: {hand_text(hand)}"))
    if not turn.line:
        click.echo("Best turn: no play helps; end the turn.")
        return
    title = "Best turn" if turn.proven else "Best turn seen"
    click.echo(
        f"{title} ({plural(len(turn.line), 'move')}, {plural(turn.shed, 'card')} shed, "
        f"{plural(turn.states, 'position')} searched):"
    )
    for number, move in enumerate(turn.line, start=1):
        click.echo(f"  {number}. {move}")
    click.echo(draw_piles(turn.piles))
    if turn.hand:
        click.echo(
            paragraph(
                f"Hand after: {hand_text(turn.hand)} ({turn.points} penalty points, {turn.spots} spots left open)"
            )
        )
    else:
        click.echo("Hand after: (empty): the player goes out.")


@corner.command("solve", context_settings=CONTEXT)
@click.option("--seed", type=int, help="Deal number N (default: a random one, shown).")
@rules_option
@click.option(
    "--budget",
    type=click.IntRange(1, 10**9),
    default=DEFAULT_NODES,
    show_default=True,
    help="Positions and turn endings the search may visit before it answers 'undecided'.",
)
@format_option
def solve_command(seed: int | None, rules_text: str, budget: int, fmt: str) -> None:
    """Two players, both hands and the stock order known: can player 1 force going out first?

    Exit status: 0 yes, 1 no, 3 undecided (the budget ran out), 2 bad input.
    """
    rules, seed = parse_corner_rules(rules_text), seed_or_random(seed)
    verdict = solve_open(deal_hand(seeded_deck(seed), 2, rules), budget)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "seed": seed,
                    "rules": rules.to_json(),
                    "result": verdict.result,
                    "first_turn": [str(m) for m in verdict.line],
                    "nodes": verdict.nodes,
                }
            )
        )
    else:
        answer = {
            "win": "yes: player 1 can force going out first",
            "loss": "no: player 1 cannot force going out first",
            "unknown": f"undecided: the budget of {budget:,} positions ran out",
        }[verdict.result]
        click.echo(paragraph(f"Deal {seed}, open hands: {answer} ({verdict.nodes:,} positions)."))
        if verdict.line:
            click.echo(paragraph("First turn: " + ", ".join(str(m) for m in verdict.line)))
    sys.exit({"win": 0, "loss": 1, "unknown": 3}[verdict.result])
