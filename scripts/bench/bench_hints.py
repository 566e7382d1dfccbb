"""CPU time of one hint, measured over whole games: median, 95th percentile and slowest, per rule set.

Each game is played to its end by following the hints (the best-ranked option
each time), from seeded deals 0..N-1; every call of ``hints`` on a position with
a choice (two or more distinct options) is timed in CPU time (time.process_time).

    python scripts/bench/bench_hints.py                      # standard, camelot, optional+groups; 10 games each
    python scripts/bench/bench_hints.py --rules royals --games 20
"""

from __future__ import annotations

import argparse
import time

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.endgame import distinct_options
from kcsolve.patience.players.hints import HINT_PLAYOUTS, hints
from kcsolve.patience.rules import parse_rules


def hint_times(seed: int, rules_text: str, playouts: int) -> tuple[list[float], bool]:
    """The CPU seconds of every hint with a choice in one game played by the hints, and whether it was won."""
    position = Position.start(deal(seed), parse_rules(rules_text))
    times = []
    while position.outcome().status is Status.UNFINISHED:
        view = position.view()
        if len(distinct_options(view)) == 1:
            position = position.play(position.legal_moves()[0])
            continue
        began = time.process_time()
        ranked = hints(view, playouts, seed)
        times.append(time.process_time() - began)
        position = position.play(ranked[0].move)
    return times, position.outcome().status is Status.WON


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by the nearest-rank method."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    """Print one row per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", action="append", help="rule set (repeatable; default: three)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--playouts", type=int, default=HINT_PLAYOUTS)
    args = parser.parse_args()
    print(f"{args.playouts} sampled orders per hint; games played by following the hints, deals 0..{args.games - 1}")
    print(f"{'rules':<18} {'hints':>6} {'median s':>9} {'p95 s':>7} {'max s':>7} {'won':>5}")
    for rules_text in args.rules or ["standard", "camelot", "optional+groups"]:
        times: list[float] = []
        won = 0
        for seed in range(args.games):
            game, win = hint_times(seed, rules_text, args.playouts)
            times += game
            won += win
        print(
            f"{rules_text:<18} {len(times):>6} {percentile(times, 0.5):>9.3f} {percentile(times, 0.95):>7.3f} "
            f"{max(times):>7.3f} {won:>5}"
        )


if __name__ == "__main__":
    main()
