"""How `kcsolve stats` scales: deals/s by jobs, peak memory, the cost per deal as the count grows, Dask, the store.

Every run is a fresh `python -m kcsolve stats` process on a fresh database
(bench_stats.timed_run: wall seconds, CPU of the run and its workers, peak
resident set); "all" is os.cpu_count() jobs. The store's own limit is measured
apart: chunks of 100,000 verdicts, packed beforehand, written one transaction
each, as the run's main process writes them. The 16-core line is a projection
from those figures, not a measurement.

    python scripts/bench/bench_scaling.py                         # the README's table
    python scripts/bench/bench_scaling.py --quick                 # small counts, while developing
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_stats import timed_run

from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.route import Budget
from kcsolve.patience.stats.chunks import solve_chunk
from kcsolve.patience.stats.native import NUMBA_COURSE
from kcsolve.patience.stats.store import ChunkResult, ResultsStore

START = 5_000_000


def row(
    label: str, rules: str, count: int, args: list[str], folder: Path, name: str, env: dict[str, str] | None = None
) -> dict:
    """Run one `stats`, print its line and return its figures."""
    db = folder / f"{name}.sqlite3"
    seconds, cpu, summary, peak = timed_run(
        ["--rules", rules, "--start", str(START), "--count", str(count), "--db", str(db), *args], env or {}
    )
    size = db.stat().st_size + sum(p.stat().st_size for p in folder.glob(f"{name}.sqlite3-*"))
    figures = {
        "rate": count / seconds,
        "seconds": seconds,
        "cpu": cpu,
        "peak": peak,
        "bytes": size / count,
        "won": summary["won"],
    }
    print(
        f"| {rules} | {label} | {count:,} | {seconds:.2f} | {figures['rate']:,.0f} | {1e6 * cpu / count:.2f} "
        f"| {peak:.0f} | {figures['bytes']:.3f} |",
        flush=True,
    )
    return figures


def store_limit(folder: Path, chunks: int = 100) -> float:
    """Deals a second the store takes: packed chunks of 100,000 written one transaction each."""
    result = solve_chunk(str(STANDARD), (START, 100_000, None), Budget())
    store = ResultsStore(folder / "limit.sqlite3")
    began = time.perf_counter()
    for k in range(chunks):
        store.add(
            "standard",
            ChunkResult(
                START + k * result.count,
                result.count,
                None,
                result.codes,
                result.tally,
                result.method,
                result.seconds,
                None,
                None,
            ),
        )
    seconds = time.perf_counter() - began
    store.close()
    return chunks * result.count / seconds


def main() -> None:
    """Print the scaling tables and the projection."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the counts")
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--groups-count", type=int, default=100_000, help="optional+groups deals by jobs and on Dask")
    parser.add_argument("--groups-largest", type=int, default=1_000_000, help="the largest optional+groups count")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    cores = os.cpu_count() or 1
    jobs = sorted({1, 2, cores})
    print(f"{cores} cores; load average at the start {os.getloadavg()[0]:.2f}")
    header = (
        "| rules | jobs | deals | seconds | deals/s | CPU µs a deal | peak MB | store bytes a deal |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    rates = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print("\nBy jobs:\n" + header)
        for rules, count in (("standard", 2_000_000 // scale), ("optional+groups", args.groups_count // scale)):
            for j in jobs:
                label = f"{j} (all)" if j == cores else str(j)
                rates[rules, j] = row(label, rules, count, ["--jobs", str(j)], folder, f"{rules}-{j}")["rate"]
            print(f"| {rules} | 2 / 1 | | | {rates[rules, 2] / rates[rules, 1]:.2f}x | | | |")
        print(
            "\nThe same standard runs with numba's compiled course loaded in each process instead of the machine code "
            f"of stats/native.py ({NUMBA_COURSE}=1), side by side:\n" + header
        )
        before = {
            j: row(
                str(j), "standard", 2_000_000 // scale, ["--jobs", str(j)], folder, f"numba-{j}", {NUMBA_COURSE: "1"}
            )["rate"]
            for j in (1, 2)
        }
        print(f"| standard | 2 / 1 | | | {before[2] / before[1]:.2f}x | | | |")
        print("\nAs the count grows (all cores):\n" + header)
        for rules in ("standard", "optional+groups"):
            for count in (10_000, 100_000, 1_000_000):
                if rules != "standard" and count > args.groups_largest:
                    continue
                row(
                    str(cores),
                    rules,
                    count // (scale if count > 10_000 else 1),
                    ["--jobs", str(cores)],
                    folder,
                    f"{rules}-grow-{count}",
                )
        if not args.no_dask:
            from distributed import LocalCluster

            print("\nOn a Dask LocalCluster of two worker processes (one thread each):\n" + header)
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
                for rules, count in (("standard", 2_000_000 // scale), ("optional+groups", args.groups_count // scale)):
                    row(
                        "Dask, 2 workers",
                        rules,
                        count,
                        ["--scheduler", cluster.scheduler_address],
                        folder,
                        f"{rules}-dask",
                    )
        limit = store_limit(folder)
    per_core = rates["standard", 1]
    print(f"\nThe store takes {limit:,.0f} deals/s (100 chunks of 100,000, one transaction each).")
    print(
        f"Projection, not a measurement: 16 cores at {per_core:,.0f} deals/s a core (the --jobs 1 run) would give "
        f"{16 * per_core:,.0f} deals/s of standard deals, {'within' if 16 * per_core < limit else 'beyond'} the "
        f"store's {limit:,.0f}, so about {min(16 * per_core, limit):,.0f} deals/s; optional+groups "
        f"{16 * rates['optional+groups', 1]:,.0f} deals/s."
    )


if __name__ == "__main__":
    main()
