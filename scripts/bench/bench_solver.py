"""Benchmark the solver's methods over consecutive seeds.

For each method it prints median, p99 and max seconds per deal, deals per second
and the peak memory of a fresh process running only that method; then the
winnable share per preset, and the end-to-end time of ``kcsolve solve --seed 1``.

    python scripts/bench/bench_solver.py                 # seeds 0..9999
    python scripts/bench/bench_solver.py --count 2000    # quicker
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time

from kcsolve.common.deal import deal
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import Verdict, solve

METHODS = ("auto", "construct", "dfs", "sat")
PRESETS = ("standard", "deplete", "swap", "deplete+swap")


def run_method(method: str, preset: str, start: int, count: int) -> dict:
    """Solve the seeds with one method in this process; timings exclude dealing."""
    rules = parse_rules(preset)
    times, wins = [], 0
    for seed in range(start, start + count):
        deck = deal(seed)
        began = time.perf_counter()
        solution = solve(deck, rules, method)
        times.append(time.perf_counter() - began)
        wins += solution.result is Verdict.WIN
    times.sort()
    return {
        "method": method,
        "preset": preset,
        "deals": count,
        "wins": wins,
        "median": statistics.median(times),
        "mean": statistics.fmean(times),
        "p99": times[min(len(times) - 1, int(0.99 * len(times)))],
        "max": times[-1],
        "rate": count / sum(times),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def in_fresh_process(method: str, preset: str, start: int, count: int) -> dict:
    """Run one method in its own interpreter so its peak memory is its own."""
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--worker",
            method,
            "--preset",
            preset,
            "--start",
            str(start),
            "--count",
            str(count),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


def end_to_end(runs: int = 10) -> float:
    """Median wall time of ``kcsolve solve --seed 1``, process start included."""
    found = shutil.which("kcsolve")
    command = [found] if found else [sys.executable, "-m", "kcsolve"]
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        done = subprocess.run([*command, "solve", "--seed", "1"], capture_output=True)
        if done.returncode not in (0, 1):  # 1 is the verdict (deal 1 cannot be won), not a failure
            raise SystemExit(f"kcsolve solve --seed 1 failed: {done.stderr.decode()[-500:]}")
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    """Print the benchmark table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--worker", choices=METHODS, help=argparse.SUPPRESS)
    parser.add_argument("--preset", default="standard", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(run_method(args.worker, args.preset, args.start, args.count)))
        return
    last = args.start + args.count - 1
    print(f"standard rules, seeds {args.start}..{last}, one core")
    print(
        f"{'method':<10} {'median ms':>10} {'mean ms':>9} {'p99 ms':>8} "
        f"{'max ms':>8} {'deals/s':>9} {'peak MB':>8} {'winnable':>9}"
    )
    rows = {}
    for method in METHODS:
        row = rows[method] = in_fresh_process(method, "standard", args.start, args.count)
        print(
            f"{method:<10} {row['median'] * 1e3:>10.3f} {row['mean'] * 1e3:>9.3f} {row['p99'] * 1e3:>8.3f} "
            f"{row['max'] * 1e3:>8.2f} {row['rate']:>9.0f} {row['peak_mb']:>8.1f} {row['wins'] / row['deals']:>9.2%}"
        )
    for other in ("construct", "dfs", "sat"):
        print(
            f"{other} / auto on the same deals: mean {rows[other]['mean'] / rows['auto']['mean']:.2f}x, "
            f"p99 {rows[other]['p99'] / rows['auto']['p99']:.2f}x, max {rows[other]['max'] / rows['auto']['max']:.2f}x"
        )
    print()
    print(f"winnable share, seeds {args.start}..{last} (auto)")
    for preset in PRESETS:
        row = in_fresh_process("auto", preset, args.start, args.count)
        print(f"  {preset:<14} {row['wins']:>6} / {row['deals']}  = {row['wins'] / row['deals']:.2%}")
    print()
    print(f"kcsolve solve --seed 1, end to end (median of 10): {end_to_end():.3f} s")


if __name__ == "__main__":
    main()
