"""Calibrate the daily calendar's cheap filter: the cheap chance beside the honest chance, on dates not used elsewhere.

    python scripts/tools/calibrate_honest.py --year 2026 --dates 40 --per-date 3 --jobs 2 > cal-2026.tsv

For the first winnable candidates of each date (dates spread over the year),
prints the deal number, the cheap chance (compiled exploring quick games), and
the honest chance (plain games of the exploring deep player) as wins of games.
The cheap windows of kcsolve.patience.daily.calendar.CHEAP_WINDOWS were read
from the 2026 output (docs/PLAYERS.md, "The daily difficulty").
"""

from __future__ import annotations

import argparse
import datetime as dt
from concurrent.futures import ProcessPoolExecutor
from itertools import count

from kcsolve.common.deal import deal
from kcsolve.patience.daily.calendar import candidate_seed
from kcsolve.patience.players.honest import GAMES, cheap_chance, measure
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.route import Verdict, solve


def rows_of(day: dt.date, per_date: int) -> list[str]:
    """The first ``per_date`` winnable candidates of ``day``: date, seed, cheap chance, honest wins."""
    rows: list[str] = []
    for attempt in count():
        seed = candidate_seed(day, STANDARD, attempt)
        if solve(deal(seed), STANDARD).result is not Verdict.WIN:
            continue
        cheap = cheap_chance(deal(seed), STANDARD, seed)
        honest = measure(deal(seed), STANDARD, seed)
        rows.append(f"{day.isoformat()}\t{seed}\t{cheap:.4f}\t{honest.wins}")
        if len(rows) == per_date:
            return rows
    raise AssertionError("unreachable")


def main() -> None:
    """Print the rows, tab-separated, with a header."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--year", type=int, default=2026)
    parser.add_argument("--dates", type=int, default=40)
    parser.add_argument("--per-date", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    days = [dt.date(args.year, 1, 1) + dt.timedelta(days=9 * n) for n in range(args.dates)]
    print(f"date\tseed\tcheap\thonest wins of {GAMES}", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for rows in pool.map(rows_of, days, [args.per_date] * len(days)):
            print("\n".join(rows), flush=True)


if __name__ == "__main__":
    main()
