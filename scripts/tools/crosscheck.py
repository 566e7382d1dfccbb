"""Cross-check the exact methods on consecutive seeds, per preset.

For each deal, `construct`, `sat` and `dfs` must give the same verdict; every
win each of them claims is replayed by the engine inside the solver (a rejected
line raises). Prints a table and exits 1 on any disagreement.

    python scripts/tools/crosscheck.py                      # seeds 0..9999, four presets, 2 processes
    python scripts/tools/crosscheck.py --count 500 --jobs 1
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from kcsolve.common.deal import deal
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import solve

PRESETS = ("standard", "deplete", "swap", "deplete+swap")
METHODS = ("construct", "sat", "dfs")


def check_range(preset: str, start: int, stop: int) -> tuple[int, int, list[str]]:
    """(wins, deals, disagreements) for seeds start..stop-1 under one preset."""
    rules = parse_rules(preset)
    wins, problems = 0, []
    for seed in range(start, stop):
        deck = deal(seed)
        verdicts = {method: solve(deck, rules, method).result for method in METHODS}
        if len(set(verdicts.values())) != 1:
            problems.append(f"{preset} seed {seed}: {verdicts}")
        wins += verdicts["construct"] == "win"
    return wins, stop - start, problems


def main() -> None:
    """Run the cross-check and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--presets", default=",".join(PRESETS))
    args = parser.parse_args()
    chunk = 250
    failures: list[str] = []
    print(f"seeds {args.start}..{args.start + args.count - 1}; methods {', '.join(METHODS)} must agree")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for preset in args.presets.split(","):
            began = time.perf_counter()
            bounds = [
                (s, min(s + chunk, args.start + args.count)) for s in range(args.start, args.start + args.count, chunk)
            ]
            results = list(pool.map(check_range, [preset] * len(bounds), *zip(*bounds)))
            wins = sum(r[0] for r in results)
            deals = sum(r[1] for r in results)
            problems = [p for r in results for p in r[2]]
            failures += problems
            status = "agree" if not problems else f"{len(problems)} DISAGREE"
            print(
                f"{preset:<14} {deals:>6} deals  {wins:>6} wins ({wins / deals:.2%})  {status}  "
                f"{time.perf_counter() - began:.0f} s"
            )
    for problem in failures:
        print(problem)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
