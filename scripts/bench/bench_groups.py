"""Benchmark `kcsolve stats` under groups: the compiled course search against today's Python search, side by side.

Each run is a fresh `python -m kcsolve stats --jobs 2` process on a fresh
database; the Python runs set KCSOLVE_PURE_PYTHON=1. Both paths must store the
same verdict for every deal (compared code for code); the ratio of their
deals/s is the speed-up.

    python scripts/bench/bench_groups.py                      # 10,000 deals from 5,000,000
    python scripts/bench/bench_groups.py --count 100000 --python-count 10000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_stats import timed_run

from kcsolve.patience.stats.store import ResultsStore

RULES = ("groups", "optional+groups")


def codes(db: Path, rules: str, start: int, count: int) -> bytes:
    """Every stored verdict code of the range, in deal order."""
    store = ResultsStore(db, readonly=True)
    try:
        return b"".join(piece for _, piece in store.pieces(rules, start, count))
    finally:
        store.close()


def main() -> None:
    """Print deals/s of both paths per rule set, the ratio, and whether the verdicts agree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=5_000_000)
    parser.add_argument("--count", type=int, default=10_000, help="deals for the compiled search")
    parser.add_argument("--python-count", type=int, default=None, help="deals for the Python search (default: --count)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rules", nargs="+", default=list(RULES))
    args = parser.parse_args()
    python_count = args.python_count or args.count
    print(f"kcsolve stats --jobs {args.jobs} from deal {args.start:,}, fresh database each run")
    print(
        f"{'rules':>16} {'path':>8} {'deals':>9} {'seconds':>8} {'deals/s':>9} {'CPU s':>8} {'peak MB':>8} {'won':>7}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for rules in args.rules:
            rates = {}
            for path, env, count in (
                ("compiled", {}, args.count),
                ("python", {"KCSOLVE_PURE_PYTHON": "1"}, python_count),
            ):
                db = Path(folder) / f"{rules}-{path}.sqlite3"
                seconds, cpu, summary, peak = timed_run(
                    [
                        "--rules",
                        rules,
                        "--start",
                        str(args.start),
                        "--count",
                        str(count),
                        "--jobs",
                        str(args.jobs),
                        "--db",
                        str(db),
                    ],
                    env,
                )
                rates[path] = count / seconds
                print(
                    f"{rules:>16} {path:>8} {count:>9,} {seconds:>8.2f} {rates[path]:>9,.0f} {cpu:>8.2f} {peak:>8.1f} "
                    f"{summary['won']:>7,}"
                )
            shared = min(args.count, python_count)
            same = codes(Path(folder) / f"{rules}-compiled.sqlite3", rules, args.start, shared) == codes(
                Path(folder) / f"{rules}-python.sqlite3", rules, args.start, shared
            )
            print(
                f"{rules:>16}: compiled / Python = {rates['compiled'] / rates['python']:.1f}x; "
                f"the verdicts of the first {shared:,} deals {'agree' if same else 'DIFFER'}"
            )
            if not same:
                raise SystemExit(f"the compiled and the Python search disagree under {rules}")


if __name__ == "__main__":
    main()
