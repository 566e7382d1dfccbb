"""Check the daily difficulty's estimate: against plain games, and against itself with other seeds.

    python scripts/tools/check_difficulty.py plain --rules camelot --games 400 5 6 19
    python scripts/tools/check_difficulty.py repeat --deals 40

``plain`` plays the measured player (the exploring strong player of
kcsolve.patience.players.difficulty) in plain, unsteered games on each deal and prints
the share won with its 95% Wilson interval, beside the steered estimate from
the default number of games and from 64. ``repeat`` measures the first
winnable deals from seed 1000 on twice, with two seeds, and prints how often
the two grades agree and how far apart the two chances are (in powers of ten).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from kcsolve.common.deal import deal
from kcsolve.common.interval import wilson
from kcsolve.patience.daily.calendar import grade
from kcsolve.patience.players.difficulty import PLAYOUTS, measure, plain_game
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.solve.route import Verdict, solve


def check_plain(rules: Rules, games: int, seeds: list[int]) -> None:
    """Plain games against steered estimates, deal by deal."""
    for seed in seeds:
        wins = sum(
            plain_game(deal(seed), rules, random.Random(f"plain|{seed}|{game}"), 10_000 + game) for game in range(games)
        )
        low, high = wilson(wins, games)
        default = measure(deal(seed), rules, seed).chance
        many = measure(deal(seed), rules, seed, 64).chance
        print(
            f"{rules} deal {seed}: plain {wins}/{games} = {wins / games:.3g} (95%: {low:.3g} to {high:.3g}); "
            f"steered, {PLAYOUTS} games {default:.3g}, 64 games {many:.3g}",
            flush=True,
        )


def check_repeat(rules: Rules, deals: int, playouts: int) -> None:
    """Two measurements of each deal with different seeds: grade agreement and spread."""
    seeds = []
    seed = 1000
    while len(seeds) < deals:
        if solve(deal(seed), rules).result is Verdict.WIN:
            seeds.append(seed)
        seed += 1
    began = time.process_time()
    agree = 0
    spread = []
    for seed in seeds:
        first = measure(deal(seed), rules, seed, playouts)
        second = measure(deal(seed), rules, seed + 1_000_003, playouts)
        agree += grade(first) == grade(second)
        if first.chance > 0 and second.chance > 0:
            spread.append(abs(math.log10(first.chance / second.chance)))
    spread.sort()
    seconds = (time.process_time() - began) / (2 * deals)
    apart = (
        f"median {spread[len(spread) // 2]:.2f}, 90th percentile {spread[int(0.9 * len(spread))]:.2f} "
        f"(of {len(spread)} deals measured above 0 twice)"
        if spread
        else "none measured above 0 twice"
    )
    print(
        f"{rules}, {playouts} steered games: the two grades agree on {agree} of {deals} deals; |log10 of the ratio| "
        f"{apart}; {seconds:.2f} CPU s per measurement"
    )


def main() -> None:
    """Run one of the two checks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("check", choices=["plain", "repeat"])
    parser.add_argument("seeds", nargs="*", type=int)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    args = parser.parse_intermixed_args()
    rules = parse_rules(args.rules)
    if args.check == "plain":
        check_plain(rules, args.games, args.seeds or [84, 33, 19])
    else:
        check_repeat(rules, args.deals, args.playouts)


if __name__ == "__main__":
    main()
