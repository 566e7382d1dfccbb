"""Benchmark `kcsolve stats`: the compiled and the pure-Python course, deals/s, CPU time and peak memory.

Each run is a fresh `python -m kcsolve stats` process on a fresh database; the
pure-Python runs set KCSOLVE_PURE_PYTHON=1. Deals/s is by the wall clock; CPU
seconds are those of the run and its workers (user + system). Peak memory is the
largest resident set of that run or any of its workers. The compiled and the
Python runs must count the same wins.

    python scripts/bench/bench_stats.py                    # 20,000 deals
    python scripts/bench/bench_stats.py --count 1000000    # the issue's full-scale target
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PATHS = {"compiled": {}, "python": {"KCSOLVE_PURE_PYTHON": "1"}}


# Runs the command and reports its own children's usage, so each run's figures are its alone.
LAUNCHER = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"code": done.returncode, "out": done.stdout, "err": done.stderr,
                  "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss / 1024}))
"""


def timed_run(args: list[str], env: dict[str, str]) -> tuple[float, float, dict, float]:
    """(wall seconds, CPU seconds, JSON summary, peak resident MB of the run and its workers)."""
    began = time.perf_counter()
    launched = subprocess.run(
        [sys.executable, "-c", LAUNCHER, sys.executable, "-m", "kcsolve", "stats", "--format", "json", *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )
    seconds = time.perf_counter() - began
    run = json.loads(launched.stdout)
    if run["code"] != 0:
        raise SystemExit(f"kcsolve stats failed ({run['code']}): {run['err'].strip()}")
    return seconds, run["cpu"], json.loads(run["out"]), run["peak"]


def main() -> None:
    """Print the table and the speed-up of the compiled course."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--rules", default="standard")
    args = parser.parse_args()
    print(f"kcsolve stats --rules {args.rules} --count {args.count:,}, fresh database each run")
    print(f"{'course':>8} {'jobs':>4} {'seconds':>9} {'deals/s':>9} {'CPU s':>7} {'peak MB':>8} {'win rate':>9}")
    rates: dict[tuple[str, int], float] = {}
    wins: dict[str, set[int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for path, env in PATHS.items():
            for jobs in (1, 2):
                db = Path(folder) / f"{path}{jobs}.sqlite3"
                seconds, cpu, summary, peak = timed_run(
                    ["--rules", args.rules, "--count", str(args.count), "--jobs", str(jobs), "--db", str(db)], env
                )
                rates[path, jobs] = args.count / seconds
                wins.setdefault(path, set()).add(summary["won"])
                print(
                    f"{path:>8} {jobs:>4} {seconds:>9.2f} {rates[path, jobs]:>9,.0f} {cpu:>7.2f} {peak:>8.1f} "
                    f"{summary['win_rate']:>9.4%}"
                )
        seconds, _, summary, _ = timed_run(
            [
                "--rules",
                args.rules,
                "--count",
                str(args.count),
                "--jobs",
                "2",
                "--db",
                str(Path(folder) / "compiled2.sqlite3"),
            ],
            {},
        )
        assert summary["solved_now"] == 0
        print(f"resuming the finished run (nothing left to solve): {seconds:.2f} s")
    assert len(wins["compiled"] | wins["python"]) == 1, f"the courses disagree: {wins}"
    for jobs in (1, 2):
        print(f"--jobs {jobs}: compiled / pure Python = {rates['compiled', jobs] / rates['python', jobs]:.1f}x")


if __name__ == "__main__":
    main()
