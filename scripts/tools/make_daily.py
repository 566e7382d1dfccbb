"""Write the daily calendar of a year: date, deal number, honest chance and grade for each day.

    python scripts/tools/make_daily.py                 # data/daily-2027.tsv: standard rules, --ramp
    python scripts/tools/make_daily.py --year 2028 --days 182 --out /tmp/daily-2028.tsv   # its first 26 weeks
    python scripts/tools/make_daily.py --year 2028 --rules deplete
    python scripts/tools/make_daily.py --dates 2027-03-30 2027-12-29 --out /tmp/two.tsv   # time two dates

Each row is what `kcsolve daily --date DATE --rules RULES` gives (--ramp is its
default). Prints the CPU seconds per date (median and worst) and, under
standard rules, fails if any date did not get its weekday's grade.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from kcsolve.patience.daily.calendar import RAMP, daily
from kcsolve.patience.rules import STANDARD, parse_rules

ROOT = Path(__file__).resolve().parents[2]
HEADER = "date\tseed\tdifficulty\tgrade"


def calendar_row(day: dt.date, rules_text: str) -> tuple[str, float]:
    """One TSV row, the ramped deal of ``day``, and the CPU seconds it took."""
    began = time.process_time()
    found = daily(day, parse_rules(rules_text), ramp=True)
    row = f"{day.isoformat()}\t{found.seed}\t{found.difficulty.chance:.3g}\t{found.grade}"
    return row, time.process_time() - began


def main() -> None:
    """Write the calendar file and say how long its dates took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--year", type=int, default=2027)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--days", type=int, help="only the first this many dates")
    parser.add_argument("--dates", nargs="+", type=dt.date.fromisoformat, help="only these dates (to time them)")
    parser.add_argument("--out", type=Path, help="where to write (default: data/daily-YEAR[-RULES].tsv)")
    args = parser.parse_args()
    first = dt.date(args.year, 1, 1)
    days = [first + dt.timedelta(days=n) for n in range((dt.date(args.year + 1, 1, 1) - first).days)][: args.days]
    days = args.dates or days
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        found = []
        for row, seconds in pool.map(calendar_row, days, [args.rules] * len(days)):
            print(f"{row}\t{seconds:.1f}", flush=True)  # as each date finishes, with its CPU seconds
            found.append((row, seconds))
    rows = [row for row, _ in found]
    suffix = "" if args.rules == "standard" else f"-{args.rules.replace('+', '-')}"
    out = args.out or ROOT / "data" / f"daily-{args.year}{suffix}.tsv"
    out.write_text("\n".join([HEADER, *rows]) + "\n")
    seconds = [s for _, s in found]
    worst = max(range(len(days)), key=seconds.__getitem__)
    print(f"wrote {out}: {len(rows)} days in {time.perf_counter() - began:.0f} s of wall time")
    print(
        f"CPU s per date: median {statistics.median(seconds):.1f}, worst {seconds[worst]:.1f} ({days[worst]}), "
        f"total {sum(seconds):.0f}"
    )
    off = [row for day, row in zip(days, rows) if row.split("\t")[3] != RAMP[day.weekday()]]
    if off:
        print(f"{len(off)} dates without their weekday's grade, first: {off[0]}")
        if parse_rules(args.rules) == STANDARD:
            sys.exit(1)


if __name__ == "__main__":
    main()
