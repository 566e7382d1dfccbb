"""Benchmark the exact odds: known prefixes of seeded deals, and optionally the whole deck.

    python scripts/bench/bench_odds.py --known 20 --count 50
    python scripts/bench/bench_odds.py --known 20 --count 40 --repeat 3
    python scripts/bench/bench_odds.py --full standard deplete

Times are CPU seconds of this process. The first call loads (or compiles) the
compiled core; it is timed separately and left out of the per-prefix figures.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kcsolve.common.deal import deal
from kcsolve.patience.odds.count import InvalidKnownCardsError, odds
from kcsolve.patience.rules import parse_rules


def main() -> None:
    """Time prefixes of ``--count`` seeded deals, then the full decks asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--known", type=int, default=20, help="known cards per prefix")
    parser.add_argument("--count", type=int, default=50, help="seeded deals whose prefixes are counted")
    parser.add_argument("--rules", default="standard")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time each prefix this often and keep the least time "
        "(on a shared machine the least is the best estimate of the work itself)",
    )
    parser.add_argument("--full", nargs="*", default=[], metavar="RULES", help="also count the whole deck")
    args = parser.parse_args()
    rules = parse_rules(args.rules)
    started = time.process_time()
    odds(rules, deal(0)[: 45 if rules.goal.value == "courts" else 48])
    print(f"load the compiled core: {time.process_time() - started:.2f} s")
    seconds, states = [], []
    for seed in range(args.count):
        times = []
        try:
            for _ in range(args.repeat):
                started = time.process_time()
                result = odds(rules, deal(seed)[: args.known])
                times.append(time.process_time() - started)
        except InvalidKnownCardsError:
            continue  # the prefix already ends the game
        seconds.append(min(times))
        states.append(result.states)
    seconds.sort()
    print(
        f"{args.rules}, {args.known} known cards, {len(seconds)} prefixes, least of {args.repeat}: "
        f"mean {statistics.mean(seconds):.3f} s, "
        f"median {statistics.median(seconds):.3f} s, p95 {seconds[int(0.95 * (len(seconds) - 1))]:.3f} s, "
        f"max {seconds[-1]:.3f} s; states mean {statistics.mean(states):,.0f}, max {max(states):,}"
    )
    for name in args.full:
        started = time.process_time()
        result = odds(parse_rules(name))
        chance = result.probability
        print(
            f"{name}, whole deck: {chance.numerator}/{chance.denominator} = {float(chance):.12f}, "
            f"{result.states:,} states, {time.process_time() - started:.1f} s"
        )


if __name__ == "__main__":
    main()
