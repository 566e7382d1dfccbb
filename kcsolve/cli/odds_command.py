"""The ``odds`` command: the exact chance that a shuffled deck can be won."""

from __future__ import annotations

import json
import time

import click

from kcsolve.cli.base import CONTEXT, cli, fail
from kcsolve.common.cards import Card, InvalidCardError, parse_card, split_deck_text
from kcsolve.patience.rules import parse_rules

MAX_KNOWN_TEXT = 1_000


def parse_known(text: str) -> list[Card]:
    """The known cards of ``--known``: card tokens separated by spaces or commas, top of the stock first."""
    if len(text) > MAX_KNOWN_TEXT:
        fail(f"--known: more than {MAX_KNOWN_TEXT:,} characters, longer than any deck")
    cards = []
    for position, token in enumerate(split_deck_text(text), start=1):
        try:
            cards.append(parse_card(token))
        except InvalidCardError:
            fail(f"--known: unknown card {token[:20]!r} at position {position}")
    return cards


# The count is of deals a player who sees the deck can win: not a chance of winning for a player who cannot.
MEANING = "by a player who sees them; an upper bound for one who cannot"


@cli.command("odds", context_settings=CONTEXT)
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option("--known", "known_text", default="", metavar="CARDS",
              help="The first cards of the deck, top first, e.g. 'KS 5H 9D' (the rest is shuffled).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def odds_command(rules_text: str, known_text: str, fmt: str) -> None:
    """The exact probability that a uniformly shuffled deck can be won by a player who sees it.

    No sampling: the winning orders are counted (docs/THEORY.md, section 8). This
    covers every rule set whose sets are pairs; there the forced course decides
    every deal. With --known, the probability is over the orders of the cards not
    given. The full deck takes a few seconds; 20 known cards well under a second.
    """
    from kcsolve.patience.odds.count import odds  # numba and numpy load only for this command

    rules = parse_rules(rules_text)
    known = parse_known(known_text)
    started = time.process_time()
    result = odds(rules, known)
    seconds = time.process_time() - started
    chance = result.probability
    if fmt == "json":
        click.echo(json.dumps({
            "rules": str(rules), "known": [str(card) for card in known],
            "numerator": chance.numerator, "denominator": chance.denominator, "decimal": float(chance),
            "figure_is": f"share of orders winnable, exact ({MEANING})",
            "winning_orders": result.winning, "orders": result.orders,
            "states": result.states, "seconds": round(seconds, 3),
        }))
        return
    given = f" after {len(known)} known cards" if known else ""
    click.echo(f"Rules {rules}{given}: {chance.numerator}/{chance.denominator}")
    click.echo(f"  = {float(chance):.12f} ({float(chance):.4%}) of the orders of the {52 - len(known)} cards left "
               "are winnable")
    click.echo(f"  ({MEANING})")
    click.echo(f"  ({result.states:,} states counted in {seconds:.2f} s of CPU time)")
