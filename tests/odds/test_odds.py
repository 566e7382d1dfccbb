"""Exact counting of winning orders (kcsolve.patience.odds.count) against two independent counts.

The compiled count runs over card classes with the family symmetries merged. It is
checked against ``theory.count_winning_orders`` (a rank-level memoised count with no
symmetry, sharing no code with it) on long known prefixes, and against a plain
simulation of the forced course over every order of small decks.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

from kcsolve.cli.base import cli, shorten
from kcsolve.common.cards import parse_card
from kcsolve.common.deal import deal
from kcsolve.common.interval import wilson
from kcsolve.patience.odds.count import (
    ClassCourse,
    InvalidKnownCardsError,
    Shape,
    UncountableRulesError,
    odds,
    winning_sequences,
)
from kcsolve.patience.odds.measured import measured
from kcsolve.patience.odds.told import no_peek_bound
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.theory import count_winning_orders

EXACT = {  # kcsolve odds --rules R --format json, checked again by the slow test below
    "standard": Fraction(1590539452901923817971025800157723, 2807359510359415123419357972796875),
    "deplete": Fraction(2404050841460376237703003020355621, 4678932517265691872365596621328125),
}
MONTE_CARLO = {
    "standard": 566_938,
    "deplete": 513_962,
}  # wins of seeds 0..999,999 (docs/MEASUREMENTS.md, kcsolve stats)


@pytest.mark.parametrize("rules", ["standard", "deplete", "royals", "camelot", "optional+swap"])
@pytest.mark.parametrize("known", [pytest.param(35, marks=pytest.mark.long), 40, 45])
def test_agrees_with_the_rank_level_count(rules: str, known: int) -> None:
    """Card-class states with family symmetry give the same probability as distinct rank orders."""
    compared = 0
    for seed in range(12):
        deck = deal(seed)
        ranks = [card.rank for card in deck]
        try:
            wins, orders = count_winning_orders(ranks[:known], ranks[known:], parse_rules(rules))
        except ValueError:
            continue  # the known cards already end the game
        assert odds(parse_rules(rules), deck[:known]).probability == Fraction(wins, orders)
        compared += 1
    assert compared >= 3


def _class_sequences(left: dict[str, int]):
    """Every distinct order of a multiset of class labels."""
    if not any(left.values()):
        yield ()
        return
    for label, n in left.items():
        if n:
            left[label] -= 1
            for rest in _class_sequences(left):
                yield (label, *rest)
            left[label] += 1


def _wins_by_simulation(order: tuple[str, ...], shape: Shape, stop_at_courts: bool) -> bool:
    """Play the forced pair course on one order of classes, card by card, with a plain list for the grid."""
    grid: list[str] = []
    courts = 0
    for drawn, label in enumerate(order, start=1):
        grid.append(label)
        courts += label == "K"
        if (stop_at_courts and courts == shape.courts) or drawn == len(order):
            return True
        if len(grid) == shape.grid:
            kept = [c for c in grid if c != "T"]
            fives = kept.count("5")
            kept = [c for c in kept if c != "5"] + ["5"] * (fives % 2)
            for family in range(shape.families):
                ones, twos = kept.count(f"{family}a"), kept.count(f"{family}b")
                gone = min(ones, twos)
                for side in "ab":
                    for _ in range(gone):
                        kept.remove(f"{family}{side}")
            if len(kept) == len(grid):
                return False
            grid = kept
    return True


@pytest.mark.slow
@pytest.mark.parametrize(
    "shape",
    [
        Shape(grid=3, courts=1, copies=2, families=1),
        Shape(grid=4, courts=2, copies=1, families=2),
        Shape(grid=3, courts=2, copies=1, families=2),
        Shape(grid=2, courts=1, copies=1, families=2),
    ],
)
@pytest.mark.parametrize("stop_at_courts", [True, False])
def test_small_decks_agree_with_every_order(shape: Shape, stop_at_courts: bool) -> None:
    """On decks small enough to enumerate, the count equals a simulation of every order of the classes."""
    left = {"K": shape.courts, "T": shape.copies, "5": shape.copies}
    for family in range(shape.families):
        left[f"{family}a"] = left[f"{family}b"] = shape.copies
    wins = sum(_wins_by_simulation(order, shape, stop_at_courts) for order in _class_sequences(dict(left)))
    counted, total, _ = winning_sequences(ClassCourse(shape), stop_at_courts)
    assert (counted, total) == (wins, math.factorial(shape.deck) // math.prod(math.factorial(n) for n in left.values()))
    assert 0 < wins < total


def test_all_pair_rule_sets_count_one_of_two_courses() -> None:
    """With pairs the removal and court axes never change the count; the goal picks one of two verdicts."""
    known = deal(3)[:42]
    by_goal: dict[str, set[Fraction]] = {}
    for removal in ("forced", "optional"):
        for courts in ("fixed", "swap", "royals"):
            for goal in ("courts", "deplete", "clear"):
                rules = parse_rules(f"removal={removal}+courts={courts}+goal={goal}")
                kind = "courts" if goal == "courts" else "stock"
                by_goal.setdefault(kind, set()).add(odds(rules, known).probability)
    assert len(by_goal["courts"]) == len(by_goal["stock"]) == 1


def test_the_exact_rate_lies_in_the_million_deal_interval() -> None:
    """The stored exact value (recomputed by the slow test) sits inside the Wilson interval of kcsolve stats."""
    for name, wins in MONTE_CARLO.items():
        low, high = wilson(wins, 1_000_000)
        assert low < EXACT[name] < high


@pytest.mark.slow
def test_the_whole_deck_count_matches_the_stored_value_and_the_sampled_rates() -> None:
    for name, wins in MONTE_CARLO.items():
        exact = odds(parse_rules(name)).probability
        assert exact == EXACT[name]
        low, high = wilson(wins, 1_000_000)
        assert low < exact < high


def test_known_cards_that_are_no_deck_are_refused() -> None:
    with pytest.raises(InvalidKnownCardsError, match="duplicate"):
        odds(parse_rules("standard"), [parse_card("AS"), parse_card("AS")])
    with pytest.raises(InvalidKnownCardsError, match="fifth"):
        odds(parse_rules("standard"), [parse_card(r) for r in ("K", "K", "K", "K", "K")])
    with pytest.raises(UncountableRulesError, match="sets are pairs"):
        odds(parse_rules("groups"))


def test_known_cards_that_end_the_game_are_refused() -> None:
    courts = [parse_card(r + s) for r in "JQK" for s in "SHDC"]
    with pytest.raises(InvalidKnownCardsError, match="known card 12, 'KC', already wins the game"):
        odds(parse_rules("standard"), courts)
    jam = [
        parse_card(c)
        for c in ["JS", "QS", "KS", "JH", "QH", "KH", "JD", "QD", "KD", "JC", "QC", "KC", "AS", "AH", "AD", "AC"]
    ]
    with pytest.raises(InvalidKnownCardsError, match="known card 16, 'AC', fills the grid with nothing to remove"):
        odds(parse_rules("deplete"), jam)


def _undecided_after(known: tuple) -> bool:
    """True when these known cards leave the standard game open."""
    try:
        odds(parse_rules("standard"), known)
    except InvalidKnownCardsError:
        return False
    return True


def test_cli_prints_the_fraction_and_json_parses_back() -> None:
    runner = CliRunner()
    seed = next(s for s in range(50) if _undecided_after(deal(s)[:40]))
    known = " ".join(str(card) for card in deal(seed)[:40])
    text = runner.invoke(cli, ["odds", "--known", known])
    data = runner.invoke(cli, ["odds", "--known", known, "--rules", "swap", "--format", "json"])
    assert text.exit_code == data.exit_code == 0
    parsed = json.loads(data.output)
    chance = Fraction(parsed["numerator"], parsed["denominator"])
    assert f"{chance.numerator}/{chance.denominator}" in text.output
    assert (
        "of the orders of the 12 cards left are winnable, exactly (by a player who sees them; an upper bound for "
        "one who cannot)"
    ) in " ".join(text.output.split())  # wrapped at 80 columns
    assert parsed["figure_is"] == (
        "share of orders winnable, exact (by a player who sees them; an upper bound for one who cannot)"
    )
    assert chance == Fraction(parsed["winning_orders"], parsed["orders"]) and parsed["orders"] == math.factorial(12)
    assert parsed["known"] == known.split()


def test_cli_no_peek_prints_a_labelled_bracket_and_json_parses_back() -> None:
    """The upper bounds say what they are (exact; sampled, with its interval); the lower end is the measured player."""
    runner = CliRunner()
    text = runner.invoke(cli, ["odds", "--no-peek", "--deals", "40", "--start", "7"])
    data = runner.invoke(cli, ["odds", "--no-peek", "--deals", "40", "--start", "7", "--format", "json"])
    assert text.exit_code == data.exit_code == 0
    parsed = json.loads(data.output)
    bound = no_peek_bound(40, start=7)
    assert parsed["value"] is None and parsed["upper"] == parsed["rearranging"]["value"]
    assert max(map(len, text.output.splitlines())) <= 80
    said = " ".join(text.output.split())  # the text as read, whatever its line breaks
    figures = measured()  # the file the command renders: every figure below is checked against it
    assert parsed["exact_game"] == figures["exact_game"] and parsed["lower"] == figures["best_measured"]
    assert parsed["rearranging"] == figures["rearranging"] | {"method": parsed["rearranging"]["method"]}
    assert parsed["relaxation"] == figures["relaxation"] | {"method": parsed["relaxation"]["method"]}
    exact = figures["exact_game"]
    assert parsed["exact_game"]["figure_is"] == "exact count of the states of the game without seeing the deck"
    assert f"The game without peeking has {exact['states_under_2304']:,} states under its 2,304 symmetries" in said
    assert "is a matter of CPU, not memory: tens of microseconds a state, months on 2 cores, days on a hundred." in said
    assert parsed["exact_game"]["cost"].startswith("CPU: about 4.8e11 states")
    assert f"\n      {exact['command']}\n" in text.output
    memory = parsed["exact_game"]  # the memory measured block by block (checked against the census in test_blocks)
    assert memory["largest_working_set"] == exact["largest_working_set"]
    assert (
        "the most held at once is a block and the blocks it draws into: at least "
        f"{exact['largest_working_set_merged_at_least'] / 1e6:,.0f} million states under the symmetries, "
        f"{exact['largest_working_set'] / 1e9:.1f} billion without them ({exact['working_set_gb'][0]} to "
        f"{exact['working_set_gb'][1]} GB at 8 bytes a value)."
    ) in said.replace("\u00a0", " ")
    assert f"\n      {exact['memory_command']}\n" in text.output
    assert parsed["upper_is"] == "exact upper bound on the best chance of a player who cannot see the deck"
    told = parsed["told"]
    assert told["upper"] == bound.upper and told["mean"] == bound.mean and told["interval"] == list(bound.interval)
    assert told["deals"] == 40 and told["first_deal"] == 7 and told["seer_share"] == bound.clairvoyant
    assert told["figure_is"] == "upper bound on the best chance of a player who cannot see the deck, sampled"
    assert f"At most {parsed['upper']:.3%}: an upper bound, exact." in said
    assert f"averaged over deals 7..46 is {bound.mean:.2%}" in said
    assert f"(95% interval {bound.interval[0]:.2%} to {bound.interval[1]:.2%})" in said
    seer = wilson(round(bound.clairvoyant * 40), 40)
    assert told["seer_interval"] == list(seer) and told["seer_share_is"].endswith("sampled")
    assert f"can win {bound.clairvoyant:.2%} of these deals (95% interval {seer[0]:.2%} to {seer[1]:.2%})" in said
    assert "chance of winning" not in text.output
    best = figures["best_measured"]
    last = best["first_deal"] + best["deals"] - 1
    assert (
        f"At least the true rate of the best player measured ({best['player']}): it won {best['won']:,} of deals "
        f"{best['first_deal']:,}..{last:,}, which played no part in its design ({best['won'] / best['deals']:.2%}, "
        f"95% interval {best['interval'][0]:.2%} to {best['interval'][1]:.2%}). Measured by:"
    ) in said
    assert f"\n      {best['command']}\n" in text.output
    assert parsed["lower"]["won"] / parsed["lower"]["deals"] < parsed["upper"] < bound.clairvoyant
    edges = parsed["bracket"]  # the headline: the bracket's ends, each as what it is, and its width
    relaxation = parsed["relaxation"]  # the bracket's top: the sampled bound, below the exact one
    assert edges["low"] == parsed["lower"]["interval"][0] and edges["high"] == relaxation["upper"] < parsed["upper"]
    assert edges["low_is"].startswith("lower 95% limit") and edges["high_is"].startswith("upper 95% limit")
    assert relaxation["figure_is"].endswith("sampled") and relaxation["deals"] == 5000
    assert (
        f"At most {relaxation['upper']:.3%} with 95% confidence: an upper bound, sampled." in said
        and f"estimated at {relaxation['mean']:.3%} over deals 310,000..314,999, which played no part in choosing"
        in said
    )
    assert f"\n      {relaxation['table_command']}\n" in text.output
    assert edges["width_points"] == pytest.approx((edges["high"] - edges["low"]) * 100, abs=1e-3)
    assert said.startswith(
        f"Standard rules, no peeking at the deck: the best chance lies between {edges['low']:.2%} and "
        f"{edges['high']:.3%} (each end a 95% confidence limit), a bracket {edges['width_points']:.1f} points wide; "
        "the exact value is not known."
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--rules", "groups"],
            "Error: cannot count rules 'groups': the count follows the forced course, which decides "
            "the deal only when sets are pairs\n",
        ),
        (["--known", "AS 2S AS"], "Error: known card 3, 'AS', is a duplicate\n"),
        (["--known", "AS ZZ"], "Error: --known: unknown card 'ZZ' at position 2\n"),
        (["--known", "5 5 5 5 5"], "Error: known card 5, '5', is a fifth of its rank\n"),
        (["--known", "A" * 2000], "Error: --known: more than 1,000 characters, longer than any deck\n"),
        (["--rules", "nonsense"], None),
        (["--frobnicate"], None),
        (
            ["--no-peek", "--known", "KS"],
            "Error: --no-peek bounds the chance from a shuffled deck; it takes no --known cards\n",
        ),
        (["--no-peek", "--rules", "camelot"], "Error: --no-peek covers standard rules only, not 'camelot'\n"),
        (["--deals", "50"], "Error: --deals and --start go with --no-peek\n"),
        (["--no-peek", "--deals", "1"], None),
        (["--no-peek", "--start", "-1"], None),
        (
            ["--no-peek", "--start", str(2**64 - 1), "--deals", "2"],
            "Error: 2 deals from 18,446,744,073,709,551,615 go past the last deal number, 2**64-1\n",
        ),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: list[str], message: str | None) -> None:
    result = CliRunner().invoke(cli, ["odds", *args])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stdout == ""
    if message is not None:
        assert result.stderr == f"Error: {shorten(message.removeprefix('Error: ').rstrip())}\n"
