"""The face-up puzzle's grade over a calendar: how far ahead a player must look to win each date's deal.

Reads a calendar written by scripts/tools/make_daily.py (date, seed, difficulty,
grade), grades each deal with kcsolve.patience.players.lookahead.lookahead
(the least k in 0, 1, 2, 4, 8, 16 for which the deep player shown the next k
cards wins; "all" when none does), and prints the distribution of k, overall
and by the calendar's grade, with the CPU seconds per deal (median and worst).
The win that sets each grade is played again and its record replayed by the
independent checker (``is_win``); a disagreement stops the run. Each graded date is appended to
--out as it finishes; a rerun with the same --out grades only the dates not yet there.

    python scripts/tools/lookahead_grades.py --jobs 2 --out /tmp/lookahead-2027.tsv
    python scripts/tools/lookahead_grades.py --calendar data/daily-2027.tsv --dates 28
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from kcsolve.common.deal import deal
from kcsolve.common.workers import ordered_map
from kcsolve.patience.daily.calendar import GRADES
from kcsolve.patience.players.lookahead import LOOKAHEADS, game_looking_ahead, lookahead
from kcsolve.patience.record import FACE_UP, is_win, record_from_moves
from kcsolve.patience.rules import parse_rules

COLUMNS = [*(str(k) for k in LOOKAHEADS), "all"]


def grade_date(date: str, seed: int, grade: str, rules_text: str) -> str:
    """One output line: date, seed, the calendar's grade, the lookahead (a number or 'all') and its CPU seconds."""
    began = time.process_time()
    rules = parse_rules(rules_text)
    k = lookahead(deal(seed), rules, seed)
    if k is not None:  # the win that sets the grade, replayed by the independent checker
        moves, _ = game_looking_ahead(deal(seed), rules, seed, k)
        if not is_win(record_from_moves(deal(seed), rules, moves, "win", mode=FACE_UP)):
            raise AssertionError(f"{date}: deal {seed}, the win seeing {k} cards ahead does not replay as a win")
    return f"{date}\t{seed}\t{grade}\t{'all' if k is None else k}\t{time.process_time() - began:.2f}"


def read_calendar(path: Path, dates: int | None) -> list[tuple[str, int, str]]:
    """The (date, seed, grade) rows of a calendar, the first ``dates`` of them if given."""
    rows = [line.split("\t") for line in path.read_text().splitlines()[1:] if line.strip()]
    return [(row[0], int(row[1]), row[3]) for row in rows[:dates]]


def summary(lines: list[str]) -> str:
    """The distribution of the lookahead by grade and overall, and the CPU seconds per deal."""
    rows = [line.split("\t") for line in lines]
    out = ["| grade (days) | " + " | ".join(f"k = {c}" for c in COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    for name in (*GRADES, "all"):
        picked = [row for row in rows if name in (row[2], "all")]
        if not picked:
            continue
        counts = Counter(row[3] for row in picked)
        out.append(f"| {name} ({len(picked)}) | " + " | ".join(str(counts[c]) for c in COLUMNS) + " |")
    seconds = sorted(float(row[4]) for row in rows)
    worst = max(rows, key=lambda row: float(row[4]))
    out.append(
        f"CPU s per date: median {statistics.median(seconds):.2f}, worst {seconds[-1]:.2f} ({worst[0]}), "
        f"total {sum(seconds):.0f}"
    )
    return "\n".join(out)


def main() -> None:
    """Grade the calendar's dates not yet in --out, then print the distribution of all of them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calendar", type=Path, default=Path("data/daily-2027.tsv"))
    parser.add_argument("--rules", default="standard", help="the calendar's rules")
    parser.add_argument("--dates", type=int, help="only the first this many dates")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="the graded dates, one a line; resumed if it exists")
    args = parser.parse_args()
    wanted = read_calendar(args.calendar, args.dates)
    done = args.out.read_text().splitlines() if args.out and args.out.exists() else []
    finished = {line.split("\t")[0] for line in done}
    tasks = [(date, seed, grade, args.rules) for date, seed, grade in wanted if date not in finished]
    lines = [line for line in done if line.split("\t")[0] in {date for date, _, _ in wanted}]
    for line in ordered_map(grade_date, tasks, args.jobs):
        print(line, flush=True)
        lines.append(line)
        if args.out:
            with args.out.open("a") as out:
                out.write(line + "\n")
    print(summary(sorted(lines)))


if __name__ == "__main__":
    main()
