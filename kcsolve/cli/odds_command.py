"""The ``odds`` command: the exact chance that a shuffled deck can be won."""

from __future__ import annotations

import json
import time
from typing import Any

import click

from kcsolve.cli.base import CONTEXT, Ticker, cli, fail
from kcsolve.common.cards import Card, InvalidCardError, parse_card, split_deck_text
from kcsolve.common.interval import wilson
from kcsolve.common.words import NO_BREAK, paragraph, wrapped
from kcsolve.patience.odds.told import MAX_DEALS, no_peek_bound
from kcsolve.patience.rules import STANDARD, parse_rules

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
        if known_text:
            fail("--no-peek bounds the chance from a shuffled deck; it takes no --known cards")
        if rules != STANDARD:
            fail(f"--no-peek covers standard rules only, not {str(rules)!r}")
        no_peek_report(2000 if deals is None else deals, start or 0, fmt)
        return
    if deals is not None or start is not None:
        fail("--deals and --start go with --no-peek")
    from kcsolve.patience.odds.count import odds  # numba and numpy load only for this command

    known = parse_known(known_text)
    started = time.process_time()
    result = odds(rules, known)
    seconds = time.process_time() - started
    chance = result.probability
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "rules": str(rules),
                    "known": [str(card) for card in known],
                    "numerator": chance.numerator,
                    "denominator": chance.denominator,
                    "decimal": float(chance),
                    "figure_is": f"share of orders winnable, exact ({MEANING})",
                    "winning_orders": result.winning,
                    "orders": result.orders,
                    "states": result.states,
                    "seconds": round(seconds, 3),
                }
            )
        )
        return
    given = f" after {len(known)} known cards" if known else ""
    click.echo(paragraph(f"Rules {rules}{given}: {chance.numerator}/{chance.denominator}"))
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
            f"(every order counted exactly, by classes of orders: {result.states:,} states in "
            f"{seconds:.2f}{NO_BREAK}s of CPU time)",
            "  ",
            "   ",
        )
    )


# The best no-peek player measured on deals that played no part in its design (docs/PLAYERS.md): quoted, not
# played here, since 10,000 games take half an hour of CPU.
BEST_MEASURED: dict[str, Any] = {
    "figure_is": "measured win rate of a no-peek player: the best chance is at least its true rate",
    "player": "deep",
    "won": 642,
    "deals": 10000,
    "first_deal": 100000,
    "interval": [0.0596, 0.0692],
    "held_out": True,
    "command": "kcsolve selfplay --player deep --seed 100000 --count 10000 --jobs 2",
    "measured": "2026-11-27",
}
# The rearranging game's value from the start (docs/THEORY.md, Theorem 9): quoted, since computing it
# takes half an hour.
REARRANGING: dict[str, Any] = {
    "figure_is": "exact upper bound on the best chance of a player who cannot see the deck",
    "value": 0.17654051306332452,
    "states": 198_362_042,
    "command": "python scripts/tools/rearranged_value.py --threads 2",
    "measured": "2026-11-27",
}
# The information relaxation with the rearranging game's value as W and the exact value from ten unseen cards on
# (docs/THEORY.md, Theorems 11 to 13), on deals that played no part in choosing them: quoted, since it takes
# hours of CPU and the 3.2 GB table.
RELAXATION: dict[str, Any] = {
    "figure_is": "upper bound on the best chance of a player who cannot see the deck, sampled",
    "mean": 0.17252089472112786,
    "upper": 0.17281793510112445,
    "upper_is": "one-sided 95% limit of the mean",
    "deals": 5000,
    "first_deal": 310_000,
    "w": "the rearranging game's value",
    "exact_from": 10,
    "command": (
        "python scripts/tools/bound_nopeek.py --from 310000 --count 5000 --jobs 2 --w rearranged "
        "--table DIR --exact-from 10 --out FILE.jsonl"
    ),
    "table_command": "python scripts/tools/rearranged_value.py --table DIR",
    "measured": "2026-11-28",
}
# The real no-peek game's states, counted exactly without a search (docs/THEORY.md, Theorem 10): quoted, since
# the count takes a minute. The cost of the value is CPU: a backward induction block by block (states sharing an
# unseen multiset) holds one block and the 13 it draws into, not two whole layers; the largest such working set
# is counted exactly by scripts/tools/nopeek_blocks.py (a minute), unmerged and, from below, merged.
EXACT_GAME: dict[str, Any] = {
    "figure_is": "exact count of the states of the game without seeing the deck",
    "states": 729_606_548_453_993,
    "states_under_2304": 479_075_753_983,
    "widest_drawn": 25,
    "widest_under_2304": 49_592_322_098,
    "two_widest_under_2304": 95_851_566_061,
    "cost": "CPU: about 4.8e11 states at tens of microseconds each, months on 2 cores, days on 100",
    "memory": "one block of states sharing an unseen multiset and the at most 13 blocks it draws into",
    "largest_block": 832_440_228,
    "largest_working_set": 7_297_409_023,
    "largest_working_set_merged_at_least": 227_952_262,
    "working_set_gb": [1.8, 58.4],
    "working_set_gb_is": "the largest working set at 8 bytes a value: merged by the symmetries (at least), unmerged",
    "memory_command": "python scripts/tools/nopeek_blocks.py",
    "command": "python scripts/tools/count_nopeek_exact.py",
    "measured": "2026-11-27",
}
RELAXATION_METHOD = (
    "information relaxation: the player sees the whole deck but is charged, at every draw, what the card drawn "
    "was worth beyond the average unseen card, by the rearranging game's values and, from ten unseen cards on, "
    "by the exact values; the charges average zero for "
    "every player who cannot see the deck, so the mean over decks of the best charged result bounds the best chance"
)
REARRANGING_GAME = (
    "the rearranging game: the real game without seeing the deck, except that the number cards "
    "may be moved to any cells after each removal; every real strategy can be played there, "
    "so its best chance is at least the real one"
)
TOLD_GAME = (
    "the told game: the player is told the order of the stock except which kind each court card is, "
    "and may move the number cards after each removal; every real strategy can be played there, "
    "so its best chance is at least the real one"
)


def bracket() -> dict[str, Any]:
    """The two ends of what is known of the best no-peek chance, each saying what it is, and the width between."""
    low, high = BEST_MEASURED["interval"][0], RELAXATION["upper"]
    return {
        "low": low,
        "low_is": f"lower 95% limit of the best player measured ({BEST_MEASURED['player']}), sampled",
        "high": high,
        "high_is": "upper 95% limit of the information relaxation bound, sampled",
        "width_points": round((high - low) * 100, 3),
    }


def no_peek_report(deals: int, start: int, fmt: str) -> None:
    """Print the bracket on the best no-peek chance: the exact and sampled upper bounds, the best player measured."""
    with Ticker("sampling the told game") as ticker:
        bound = no_peek_bound(deals, start, on_deal=lambda done: ticker.note(f"deal {done:,} of {deals:,}"))
    last = start + deals - 1
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "rules": "standard",
                    "value": None,
                    "exact_game": EXACT_GAME,
                    "upper": REARRANGING["value"],
                    "upper_is": REARRANGING["figure_is"],
                    "rearranging": {**REARRANGING, "method": REARRANGING_GAME},
                    "relaxation": {**RELAXATION, "method": RELAXATION_METHOD},
                    "told": {
                        "figure_is": "upper bound on the best chance of a player who cannot see the deck, sampled",
                        "upper": bound.upper,
                        "upper_is": "one-sided 95% limit of the mean",
                        "mean": bound.mean,
                        "interval": list(bound.interval),
                        "deals": deals,
                        "first_deal": start,
                        "method": TOLD_GAME,
                        "seer_share": bound.clairvoyant,
                        "seer_share_is": "share of these deals winnable by a player who sees the deck, sampled",
                        "seer_interval": list(wilson(round(bound.clairvoyant * deals), deals)),
                        "seconds": round(bound.seconds, 3),
                    },
                    "lower": BEST_MEASURED,
                    "bracket": bracket(),
                }
            )
        )
        return
    low, high = bound.interval
    best: dict[str, Any] = BEST_MEASURED
    seer_low, seer_high = wilson(round(bound.clairvoyant * deals), deals)
    paragraphs = [
        (
            f"The game without peeking has {EXACT_GAME['states_under_2304']:,} states under its 2,304 symmetries, "
            f"{EXACT_GAME['widest_under_2304']:,} of them with {EXACT_GAME['widest_drawn']} cards drawn. Computing "
            "the best chance is a matter of CPU, not memory: tens of microseconds a state, months on 2 cores, days "
            "on a hundred. Counted exactly by a script in the source repository:",
            EXACT_GAME["command"],
        ),
        (
            "Going back block by block (the states sharing one multiset of unseen cards), the most held at once is "
            "a block and the blocks it draws into: at least "
            f"{EXACT_GAME['largest_working_set_merged_at_least'] / 1e6:,.0f} million states under the symmetries, "
            f"{EXACT_GAME['largest_working_set'] / 1e9:.1f} billion without them ({EXACT_GAME['working_set_gb'][0]} "
            f"to {EXACT_GAME['working_set_gb'][1]}{NO_BREAK}GB at 8 bytes a value). Counted exactly by a script in the "
            "source repository:",
            EXACT_GAME["memory_command"],
        ),
        (
            f"At most {REARRANGING['value']:.3%}: an upper bound, exact. "
            "It is the best chance in the rearranging game, "
            "where the player may also move the number cards after each removal. Every real strategy can be played "
            f"there, so its best chance is at least the real one ({REARRANGING['states']:,} states). Computed by a "
            "script in the source repository:",
            REARRANGING["command"],
        ),
        (
            f"At most {RELAXATION['upper']:.3%} with 95% confidence: an upper bound, sampled. A player shown the "
            "whole deck is charged at every draw what the card was worth beyond the average unseen card, judged by "
            "the rearranging game's values, and by the exact values once ten cards are left unseen. The charges "
            "average zero for every player who cannot see the deck, so "
            "the mean of each deck's best charged result bounds the best chance. That mean is estimated at "
            f"{RELAXATION['mean']:.3%} over deals {RELAXATION['first_deal']:,}.."
            f"{RELAXATION['first_deal'] + RELAXATION['deals'] - 1:,}, which played no part in choosing the "
            f"charges. Computed by these two scripts in the source repository (the first writes the rearranging "
            f"game's table, 3.2{NO_BREAK}GB):",
            # the run's command is too long for one line: continued, as a shell reads it
            (RELAXATION["table_command"], *RELAXATION["command"].replace(" --jobs", " \\\n    --jobs").splitlines()),
        ),
        (
            f"A weaker upper bound, sampled: the told game's best chance averaged over deals {start:,}..{last:,} "
            f"is {bound.mean:.2%} (95% interval {low:.2%} to {high:.2%}). There the player is also told the order of "
            "the stock except which kind each court card is. A player who sees the deck can win "
            f"{bound.clairvoyant:.2%} of these deals (95% interval {seer_low:.2%} to {seer_high:.2%}).",
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
    edges = bracket()
    headline = (
        f"Standard rules, no peeking at the deck: the best chance lies between {edges['low']:.2%} and "
        f"{edges['high']:.3%} (each end a 95% confidence limit), a bracket "
        f"{edges['width_points']:.1f}{NO_BREAK}points wide; the exact value is not known."
    )
    lines = wrapped(headline, "", "")
    for text, command in paragraphs:
        lines += wrapped(text, "  ", "    ")
        for line in [command] if isinstance(command, str) else command or ():
            lines.append(f"      {line}")
    lines += wrapped(
        f"({deals:,} deals sampled in {bound.seconds:.1f}{NO_BREAK}s of CPU time; the proofs are in the source "
        f"repository, docs/THEORY.md, section{NO_BREAK}10)",
        "  ",
        "    ",
    )
    click.echo("\n".join(lines))
