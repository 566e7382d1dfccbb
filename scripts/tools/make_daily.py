"""Write the daily calendar of a year: date, deal number, difficulty and grade for each day.

    python scripts/tools/make_daily.py                 # seeds/daily-2027.tsv: standard rules, --ramp
    python scripts/tools/make_daily.py --year 2028 --rules deplete

Each row is what `kcsolve daily --date DATE --rules RULES --ramp` gives.
"""

from __future__ import annotations

import argparse
import datetime as dt
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from kcsolve.patience.daily.calendar import daily
from kcsolve.patience.rules import parse_rules

ROOT = Path(__file__).resolve().parents[2]
HEADER = "date\tseed\tdifficulty\tgrade"


def calendar_row(day: dt.date, rules_text: str) -> str:
    """One TSV row: the ramped deal of ``day``."""
    found = daily(day, parse_rules(rules_text), ramp=True)
    return f"{day.isoformat()}\t{found.seed}\t{found.difficulty.chance:.3g}\t{found.grade}"


def main() -> None:
    """Write the calendar file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--year", type=int, default=2027)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    first = dt.date(args.year, 1, 1)
    days = [first + dt.timedelta(days=n) for n in range((dt.date(args.year + 1, 1, 1) - first).days)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(calendar_row, days, [args.rules] * len(days), chunksize=8))
    suffix = "" if args.rules == "standard" else f"-{args.rules.replace('+', '-')}"
    out = ROOT / "seeds" / f"daily-{args.year}{suffix}.tsv"
    out.write_text("\n".join([HEADER, *rows]) + "\n")
    print(f"wrote {out.relative_to(ROOT)}: {len(rows)} days")


if __name__ == "__main__":
    main()
