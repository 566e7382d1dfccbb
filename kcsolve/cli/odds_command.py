"""The ``odds`` command: the exact chance that a shuffled deck can be won."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from kcsolve.cli.base import CONTEXT, Ticker, cli, fail
from kcsolve.common.words import NO_BREAK, paragraph, wrapped
from kcsolve.patience.odds.measured import no_peek_summary
from kcsolve.patience.odds.told import MAX_DEALS, no_peek_bound
from kcsolve.patience.rules import STANDARD, Rules, parse_rules

if TYPE_CHECKING:
    from kcsolve.patience.odds.exact import ExactOdds


@cli.command("odds", context_settings=CONTEXT)
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option(
    "--known",
    "known_text",
    default="",
    metavar="CARDS",
    help="The first cards of the deck, top first, e.g. 'KS 5H 9D' (the rest is shuffled).",
)
@click.option(
    "--no-peek",
    "no_peek",
    is_flag=True,
    help="Bound the best chance of a player who cannot see the deck instead (standard rules).",
)
@click.option(
    "--deals",
    type=click.IntRange(2, MAX_DEALS),
    default=None,
    metavar="N",
    help="With --no-peek: how many deals the bound samples.  [default: 2000]",
)
@click.option(
    "--start",
    type=click.IntRange(0),
    default=None,
    metavar="N",
    help="With --no-peek: the first deal number sampled.  [default: 0]",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def odds_command(
    rules_text: str, known_text: str, no_peek: bool, deals: int | None, start: int | None, fmt: str
) -> None:
    """The exact probability that a uniformly shuffled deck can be won by a player who sees it.

    No sampling: the winning orders are counted (in the source repository,
    docs/THEORY.md, section 8). This
    covers every rule set whose sets are pairs; there the forced course decides
    every deal. With --known, the probability is over the orders of the cards not
    given. The full deck takes a few seconds; 20 known cards well under a second.

    With --no-peek: what is known of the best chance of a player who cannot see
    the deck. It is not computed exactly. Above it: the exact value of an easier
    game (quoted: it takes half an hour), and a second easier game's exact chance
    sampled over --deals deals (about 2 ms a deal); below it, the best player
    measured (quoted). The proofs are in the source repository (docs/THEORY.md,
    section 10).
    """
    rules = parse_rules(rules_text)
    if no_peek:
        _check_no_peek(rules, known_text)
        no_peek_report(2000 if deals is None else deals, start or 0, fmt)
        return
    if deals is not None or start is not None:
        fail("--deals and --start go with --no-peek")
    from kcsolve.patience.odds.exact import exact_odds, parse_known  # numba and numpy load only for this command

    _print_odds(exact_odds(rules, parse_known(known_text)), fmt)


def _check_no_peek(rules: Rules, known_text: str) -> None:
    """Refuse --no-peek with known cards or rules other than the standard ones."""
    if known_text:
        fail("--no-peek bounds the chance from a shuffled deck; it takes no --known cards")
    if rules != STANDARD:
        fail(f"--no-peek covers standard rules only, not {str(rules)!r}")


def _print_odds(found: ExactOdds, fmt: str) -> None:
    """The exact odds as a JSON object, or as a fraction, its decimal and what it is, in lines of 80 columns."""
    from kcsolve.patience.odds.exact import MEANING

    if fmt == "json":
        click.echo(json.dumps(found.to_json()))
        return
    chance, known = found.odds.probability, found.known
    given = f" after {len(known)} known cards" if known else ""
    click.echo(paragraph(f"Rules {found.rules}{given}: {chance.numerator}/{chance.denominator}"))
    click.echo(
        paragraph(
            f"= {float(chance):.12f} ({float(chance):.4%}) of the orders of the {52 - len(known)} cards "
            f"left are winnable,{NO_BREAK}exactly",
            "  ",
            "    ",
        )
    )
    click.echo(f"  ({MEANING})")
    click.echo(
        paragraph(
            f"(every order counted exactly, by classes of orders: {found.odds.states:,} states in "
            f"{found.seconds:.2f}{NO_BREAK}s of CPU time)",
            "  ",
            "   ",
        )
    )


def no_peek_report(deals: int, start: int, fmt: str) -> None:
    """Print the bracket on the best no-peek chance: the exact and sampled upper bounds, the best player measured."""
    with Ticker("sampling the told game") as ticker:
        bound = no_peek_bound(deals, start, on_deal=lambda done: ticker.note(f"deal {done:,} of {deals:,}"))
    summary = no_peek_summary(bound)
    click.echo(json.dumps(summary) if fmt == "json" else no_peek_text(summary))


def no_peek_text(summary: dict[str, Any]) -> str:
    """The summary in words: the bracket, then each figure with what it is and the command that measured it."""
    edges = summary["bracket"]
    headline = (
        f"Standard rules, no peeking at the deck: the best chance lies between {edges['low']:.2%} and "
        f"{edges['high']:.3%} (each end a 95% confidence limit), a bracket "
        f"{edges['width_points']:.1f}{NO_BREAK}points wide; the exact value is not known."
    )
    lines = wrapped(headline, "", "")
    for text, command in no_peek_paragraphs(summary):
        lines += wrapped(text, "  ", "    ")
        for line in [command] if isinstance(command, str) else command or ():
            lines.append(f"      {line}")
    told = summary["told"]
    lines += wrapped(
        f"({told['deals']:,} deals sampled in {told['seconds']:.1f}{NO_BREAK}s of CPU time; the proofs are in the "
        f"source repository, docs/THEORY.md, section{NO_BREAK}10)",
        "  ",
        "    ",
    )
    return "\n".join(lines)


def no_peek_paragraphs(summary: dict[str, Any]) -> list[tuple[str, str | tuple[str, ...] | None]]:
    """Each figure of the summary as a paragraph and the command that measured it (None: measured here)."""
    exact, rearranging, relaxation = summary["exact_game"], summary["rearranging"], summary["relaxation"]
    told, best = summary["told"], summary["lower"]
    low, high = told["interval"]
    seer_low, seer_high = told["seer_interval"]
    first, last = told["first_deal"], told["first_deal"] + told["deals"] - 1
    relaxed_last = relaxation["first_deal"] + relaxation["deals"] - 1
    return [
        (
            f"The game without peeking has {exact['states_under_2304']:,} states under its 2,304 symmetries, "
            f"{exact['widest_under_2304']:,} of them with {exact['widest_drawn']} cards drawn. Computing "
            "the best chance is a matter of CPU, not memory: tens of microseconds a state, months on 2 cores, days "
            "on a hundred. Counted exactly by a script in the source repository:",
            exact["command"],
        ),
        (
            "Going back block by block (the states sharing one multiset of unseen cards), the most held at once is "
            "a block and the blocks it draws into: at least "
            f"{exact['largest_working_set_merged_at_least'] / 1e6:,.0f} million states under the symmetries, "
            f"{exact['largest_working_set'] / 1e9:.1f} billion without them ({exact['working_set_gb'][0]} "
            f"to {exact['working_set_gb'][1]}{NO_BREAK}GB at 8 bytes a value). Counted exactly by a script in the "
            "source repository:",
            exact["memory_command"],
        ),
        (
            f"At most {rearranging['value']:.3%}: an upper bound, exact. "
            "It is the best chance in the rearranging game, "
            "where the player may also move the number cards after each removal. Every real strategy can be played "
            f"there, so its best chance is at least the real one ({rearranging['states']:,} states). Computed by a "
            "script in the source repository:",
            rearranging["command"],
        ),
        (
            f"At most {relaxation['upper']:.3%} with 95% confidence: an upper bound, sampled. A player shown the "
            "whole deck is charged at every draw what the card was worth beyond the average unseen card, judged by "
            "the rearranging game's values, and by the exact values once ten cards are left unseen. The charges "
            "average zero for every player who cannot see the deck, so "
            "the mean of each deck's best charged result bounds the best chance. That mean is estimated at "
            f"{relaxation['mean']:.3%} over deals {relaxation['first_deal']:,}..{relaxed_last:,}, which played no "
            "part in choosing the charges. Computed by these two scripts in the source repository (the first writes "
            f"the rearranging game's table, 3.2{NO_BREAK}GB):",
            # the run's command is too long for one line: continued, as a shell reads it
            (relaxation["table_command"], *relaxation["command"].replace(" --jobs", " \\\n    --jobs").splitlines()),
        ),
        (
            f"A weaker upper bound, sampled: the told game's best chance averaged over deals {first:,}..{last:,} "
            f"is {told['mean']:.2%} (95% interval {low:.2%} to {high:.2%}). There the player is also told the order "
            "of the stock except which kind each court card is. A player who sees the deck can win "
            f"{told['seer_share']:.2%} of these deals (95% interval {seer_low:.2%} to {seer_high:.2%}).",
            None,
        ),
        (
            f"At least the true rate of the best player measured ({best['player']}): it won {best['won']:,} of deals "
            f"{best['first_deal']:,}..{best['first_deal'] + best['deals'] - 1:,}, which played no part in its design "
            f"({best['won'] / best['deals']:.2%}, 95% interval {best['interval'][0]:.2%} to "
            f"{best['interval'][1]:.2%}). Measured by:",
            best["command"],
        ),
    ]
