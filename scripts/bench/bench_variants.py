"""Benchmark the presets that need search: decided share at 0.1 s, 1 s and 10 s, and the hardest seeds.

Each deal is solved once under the default budget, 1,000,000 removal choices or
positions (a budget in nodes, so a verdict never depends on the machine's load); a
deal decided in at most t seconds of CPU counts as decided within t (CPU time, so
the figures hold on a busy machine too). Wins are replayed by the engine inside the solver. The last
lines repeat the results as a Markdown table.

    python scripts/bench/bench_variants.py                          # optional and camelot, seeds 0..9999
    python scripts/bench/bench_variants.py --presets groups,royals --count 2000
    python scripts/bench/bench_variants.py --presets all --count 2000   # all 36 rule combinations
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor

from kcsolve.common.deal import deal
from kcsolve.patience.rules import Courts, Goal, Removal, Rules, Sets, parse_rules
from kcsolve.patience.solve.route import DEFAULT_BUDGET, Verdict, solve

LIMIT = 10.0  # the last column: decided within this many seconds of CPU


def timed_range(preset: str, start: int, stop: int) -> list[tuple[int, str, float]]:
    """(seed, result, seconds) for each seed of the range."""
    rules = parse_rules(preset)
    rows = []
    for seed in range(start, stop):
        began = time.process_time()
        result = solve(deal(seed), rules, "auto", DEFAULT_BUDGET).result
        rows.append((seed, result, time.process_time() - began))
    return rows


def all_combinations() -> list[str]:
    """The canonical names of all 36 rule combinations."""
    return [str(Rules(*axes)) for axes in itertools.product(Removal, Sets, Courts, Goal)]


def main() -> None:
    """Print the table per preset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="optional,camelot")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    last = args.start + args.count - 1
    print(f"seeds {args.start}..{last}, budget {DEFAULT_BUDGET.describe('nodes')} per deal, one core per deal")
    bounds = [(s, min(s + 250, args.start + args.count)) for s in range(args.start, args.start + args.count, 250)]
    verdicts = {}
    table = [
        "| rules | within 0.1 s | within 1 s | within 10 s | median | slowest seed |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    presets = all_combinations() if args.presets == "all" else args.presets.split(",")
    with ProcessPoolExecutor(args.jobs) as pool:
        for preset in presets:
            rows = [r for chunk in pool.map(timed_range, [preset] * len(bounds), *zip(*bounds)) for r in chunk]
            verdicts[preset] = {seed: result for seed, result, _ in rows}
            decided = [(seed, t) for seed, result, t in rows if result is not Verdict.UNKNOWN]
            wins = sum(1 for _, result, _ in rows if result is Verdict.WIN)
            losses = sum(1 for _, result, _ in rows if result is Verdict.LOSS)
            shares = "  ".join(
                f"<= {t:g} s: {sum(1 for _, s in decided if s <= t) / len(rows):.2%}" for t in (0.1, 1, LIMIT)
            )
            times = sorted(t for _, _, t in rows)
            print(
                f"{preset}: {wins} won, {losses} lost, {len(rows) - len(decided)} undecided "
                f"(win rate between {wins / len(rows):.2%} and {1 - losses / len(rows):.2%})"
            )
            print(f"  decided {shares}")
            print(
                f"  median {times[len(times) // 2] * 1e3:.1f} ms, max {times[-1]:.2f} s; hardest seeds: "
                + ", ".join(f"{seed} ({t:.2f} s)" for seed, _, t in sorted(rows, key=lambda r: -r[2])[:5]),
                flush=True,
            )
            slowest = max(rows, key=lambda r: r[2])
            within = [f"{sum(1 for _, s in decided if s <= t) / len(rows):.2%}" for t in (0.1, 1, LIMIT)]
            table.append(
                f"| {preset} | {' | '.join(within)} | {times[len(times) // 2] * 1e3:.1f} ms "
                f"| {slowest[0]} ({slowest[2]:.2f} s) |"
            )
    print("\n".join(table))
    if "optional" in verdicts:
        standard = {
            s: r for s, r, _ in (row for chunk in map(lambda b: timed_range("standard", *b), bounds) for row in chunk)
        }
        same = sum(1 for s in standard if standard[s] == verdicts["optional"][s])
        print(f"optional and standard give the same verdict on {same} of {len(standard)} seeds")


if __name__ == "__main__":
    main()
