"""Benchmark `kcsolve stats`: deals/s and peak memory for --jobs 1 and 2, and the cost of resuming.

Each run is a fresh `python -m kcsolve stats` process on a fresh database; peak
memory is the largest resident set of that process or any of its workers.

    python scripts/bench_stats.py                    # 20,000 deals
    python scripts/bench_stats.py --count 1000000    # the issue's full-scale target
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed_run(args: list[str]) -> tuple[float, dict, float]:
    """(wall seconds, JSON summary, peak resident MB of the run and its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "kcsolve", "stats", "--format", "json", *args],
                         check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return seconds, json.loads(out.stdout), peak


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--rules", default="standard")
    args = parser.parse_args()
    print(f"kcsolve stats --rules {args.rules} --count {args.count:,}, fresh database each run")
    print(f"{'jobs':>4} {'seconds':>9} {'deals/s':>9} {'peak MB':>8} {'win rate':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for jobs in (1, 2):
            db = Path(folder) / f"jobs{jobs}.sqlite3"
            seconds, summary, peak = timed_run(
                ["--rules", args.rules, "--count", str(args.count), "--jobs", str(jobs), "--db", str(db)]
            )
            print(f"{jobs:>4} {seconds:>9.2f} {args.count / seconds:>9,.0f} {peak:>8.1f} {summary['win_rate']:>9.4%}")
        seconds, summary, _ = timed_run(["--rules", args.rules, "--count", str(args.count), "--jobs", "2", "--db", str(db)])
        assert summary["solved_now"] == 0
        print(f"resuming the finished run (nothing left to solve): {seconds:.2f} s")


if __name__ == "__main__":
    main()
