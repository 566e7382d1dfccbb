"""Measure the difficulty of the first 1,000 winnable seeded deals and cut it into grades.

Prints the distribution of the win chance (1,000 playouts each) and the cut
points between easy / medium / hard / fiendish at the 75th, 50th and 25th
percentiles of the difficulty key (win chance, then court cards placed on
average), as used by kcsolve.patience.daily.GRADE_CUTS.

    python scripts/grade_cuts.py
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from kcsolve.common.deal import deal_ranks
from kcsolve.patience.policy import Difficulty, measure
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.theory import course_end


def measure_seed(seed: int) -> tuple[int, Difficulty] | None:
    """The difficulty of a seeded deal, or None if it cannot be won."""
    rules = parse_rules("standard")
    ranks = deal_ranks(seed)
    if not course_end(ranks, rules)[0]:
        return None
    return seed, measure(ranks, rules, seed)


def main() -> None:
    """Print the distribution and the cut points."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    measured: list[tuple[int, Difficulty]] = []
    seed = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        while len(measured) < args.deals:
            batch = range(seed, seed + 200)
            seed += 200
            measured += [m for m in pool.map(measure_seed, batch) if m is not None]
    measured = measured[: args.deals]
    keys = sorted(d.key for _, d in measured)
    n = len(keys)
    print(f"{n} winnable deals (seeds 0..{measured[-1][0]}), 1,000 playouts each, standard rules")
    bins = [(0, 0), (0, 0.005), (0.005, 0.01), (0.01, 0.02), (0.02, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 1.01)]
    for low, high in bins:
        if low == high:
            count = sum(1 for rate, _ in keys if rate == 0)
            label = "0 wins"
        else:
            count = sum(1 for rate, _ in keys if low < rate <= high or (low == 0 and 0 < rate <= high))
            label = f"{low:.1%} < chance <= {min(high, 1):.1%}"
        print(f"  {label:<26} {count:>5}  {count / n:6.1%}")
    cuts = [keys[int(q * n)] for q in (0.75, 0.5, 0.25)]
    print("GRADE_CUTS =", tuple((round(rate, 4), progress) for rate, progress in cuts))


if __name__ == "__main__":
    main()
