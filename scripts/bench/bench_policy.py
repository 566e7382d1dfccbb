"""Players who cannot see the deck, on the same seeds: win rates with 95% Wilson intervals and CPU time.

The random, greedy and strong players (kcsolve.patience.players.selfplay, the same
games as ``kcsolve selfplay``) play seeds 0..N-1; the clairvoyant rate, a player
who sees the deck, comes from the exact solver on the same seeds.

    python scripts/bench/bench_policy.py                                  # standard, 2,000 seeds
    python scripts/bench/bench_policy.py --rules camelot --count 1000
"""

from __future__ import annotations

import argparse

from kcsolve.common.deal import deal
from kcsolve.patience.players.selfplay import PLAYERS, Tally, selfplay
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import Verdict, solve


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rules = parse_rules(args.rules)
    print(f"rules {rules}, seeds 0..{args.count - 1}; seconds are CPU seconds per game")
    print(f"{'player':<14} {'won':>6} {'win rate':>9}  95% interval        seconds")
    for name in PLAYERS:
        games = list(selfplay(name, 0, args.count, rules, args.jobs))
        tally = Tally(len(games), sum(g.won for g in games), sum(g.seconds for g in games))
        low, high = tally.interval
        print(f"{name:<14} {tally.wins:>6} {tally.rate:>9.2%}  {low:.2%} to {high:.2%}  {tally.seconds_per_game:>8.3f}")
    seen = sum(solve(deal(seed), rules).result is Verdict.WIN for seed in range(args.count))
    low, high = Tally(args.count, seen, 0.0).interval
    print(f"{'sees the deck':<14} {seen:>6} {seen / args.count:>9.2%}  {low:.2%} to {high:.2%}")


if __name__ == "__main__":
    main()
