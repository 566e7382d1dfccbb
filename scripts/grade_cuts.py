"""Measure the difficulty of the first winnable seeded deals and cut it into grades.

Each deal is measured as ``kcsolve daily`` measures it: games of the strong
player (kcsolve.patience.selfplay.measure). Prints the distribution of the win
chance, the share of winnable deals the strong player never wins, the CPU
seconds per deal, and the cut points between easy / medium / hard / fiendish at
the 75th, 50th and 25th percentiles of the difficulty key (win chance, then
court cards placed on average), as used by kcsolve.patience.daily.GRADE_CUTS.

    python scripts/grade_cuts.py --deals 1000
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.policy import Difficulty
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.selfplay import measure
from kcsolve.patience.theory import course_end


def measure_seed(seed: int) -> tuple[int, Difficulty, float] | None:
    """The difficulty of a seeded deal and the CPU seconds it took, or None if it cannot be won."""
    rules = parse_rules("standard")
    if not course_end(deal_ranks(seed), rules)[0]:
        return None
    began = time.process_time()
    found = measure(deal(seed), rules, seed)
    return seed, found, time.process_time() - began


def main() -> None:
    """Print the distribution and the cut points."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    measured: list[tuple[int, Difficulty, float]] = []
    seed = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        while len(measured) < args.deals:
            batch = range(seed, seed + 100)
            seed += 100
            measured += [m for m in pool.map(measure_seed, batch) if m is not None]
    measured = measured[: args.deals]
    keys = sorted(d.key for _, d, _ in measured)
    n = len(keys)
    playouts = measured[0][1].playouts
    seconds = [s for _, _, s in measured]
    print(f"{n} winnable deals (seeds 0..{measured[-1][0]}), {playouts} games of the strong player each, standard rules")
    bins = [(0, 0), (0, 0.02), (0.02, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 0.4), (0.4, 1.01)]
    for low, high in bins:
        if low == high:
            count = sum(1 for rate, _ in keys if rate == 0)
            label = "never won"
        else:
            count = sum(1 for rate, _ in keys if low < rate <= high)
            label = f"{low:.0%} < chance <= {min(high, 1):.0%}"
        print(f"  {label:<26} {count:>5}  {count / n:6.1%}")
    print(f"CPU seconds per deal: mean {sum(seconds) / n:.2f}, max {max(seconds):.2f}")
    cuts = [keys[int(q * n)] for q in (0.75, 0.5, 0.25)]
    print("GRADE_CUTS =", tuple((round(rate, 4), progress) for rate, progress in cuts))


if __name__ == "__main__":
    main()
