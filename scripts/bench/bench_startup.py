"""Start-up cost of the light commands: CPU seconds per run (median of N), and whether numba or numpy loaded.

python scripts/bench/bench_startup.py            # 15 runs of each command
python scripts/bench/bench_startup.py --runs 40
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys

COMMANDS = [["--version"], ["rules"], ["deal", "--seed", "1"], ["solve", "--seed", "1"], ["odds", "--known", "KS"]]
TARGET = 0.15  # CPU seconds for a light command (not odds, which loads numba by design)


def cpu_of(args: list[str]) -> float:
    """The CPU seconds (user + system) of one run of ``kcsolve ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "kcsolve", *args], capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def heavy_modules(args: list[str]) -> str:
    """Which of numba and numpy one run imports."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "kcsolve", *args], capture_output=True, text=True)
    loaded = {line.split("|")[-1].strip().split(".")[0] for line in done.stderr.splitlines() if "|" in line}
    return ", ".join(sorted(loaded & {"numba", "numpy"})) or "neither"


def main() -> None:
    """Print one row per command."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"{'command':<22} {'median CPU s':>12} {'max':>7}  loads        (target for light commands: {TARGET} s)")
    for command in COMMANDS:
        cpu_of(command)  # the first run warms the file cache and numba's on-disk cache
        times = [cpu_of(command) for _ in range(args.runs)]
        print(f"{' '.join(command):<22} {statistics.median(times):>12.3f} {max(times):>7.3f}  {heavy_modules(command)}")


if __name__ == "__main__":
    main()
