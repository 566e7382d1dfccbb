"""How the players who cannot see the deck fare on a daily calendar, by grade, and its honest chances by grade.

    python scripts/tools/daily_players.py --calendar data/daily-2027.tsv --jobs 2
    python scripts/tools/daily_players.py --calendar /tmp/daily-2028.tsv --players quick greedy strong

Reads a calendar written by scripts/tools/make_daily.py (date, seed, difficulty,
grade, ...), plays each date's deal once with each player (seeded by the deal
number, as ``kcsolve selfplay`` does; each game replayed by ``is_win``), and prints a Markdown table of wins by
grade, then the honest chance (the calendar's difficulty column) by grade:
least, median and greatest.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from kcsolve.common.workers import ordered_map
from kcsolve.patience.daily.calendar import GRADES
from kcsolve.patience.players.selfplay import play_deal
from kcsolve.patience.record import is_win
from kcsolve.patience.rules import parse_rules

PLAYERS = ("deep", "quick", "greedy", "strong")


def wins_of(seed: int, players: tuple[str, ...], rules_text: str) -> tuple[bool, ...]:
    """Whether each player wins deal ``seed``; each game's record is replayed by the independent checker first."""
    games = [play_deal(name, seed, parse_rules(rules_text)) for name in players]
    for name, game in zip(players, games):
        if game.won != is_win(game.record):
            raise AssertionError(f"deal {seed}, player {name}: the game and the checker's replay of it disagree")
    return tuple(game.won for game in games)


def table(rows: list[list[str]], won: list[tuple[bool, ...]], players: tuple[str, ...]) -> str:
    """Wins by grade, one column per player, in Markdown."""
    out = ["| grade (days) | " + " | ".join(players) + " |", "|---" * (len(players) + 1) + "|"]
    for name in (*GRADES, "easy and medium", "all"):
        picked = [
            w
            for row, w in zip(rows, won)
            if name in ("all", row[3]) or (name == "easy and medium" and row[3] in GRADES[:2])
        ]
        if not picked:
            continue
        cells = [
            f"{sum(w[k] for w in picked)} ({sum(w[k] for w in picked) / len(picked):.0%})" for k in range(len(players))
        ]
        out.append(f"| {name} ({len(picked)}) | " + " | ".join(cells) + " |")
    return "\n".join(out)


def chances(rows: list[list[str]]) -> str:
    """The honest chance by grade: least, median and greatest, in Markdown."""
    out = ["| grade | days | least | median | greatest |", "|---|---|---|---|---|"]
    for name in GRADES:
        found = sorted(float(row[2]) for row in rows if row[3] == name)
        if found:
            out.append(f"| {name} | {len(found)} | {found[0]:.0%} | {statistics.median(found):.0%} | {found[-1]:.0%} |")
    return "\n".join(out)


def main() -> None:
    """Play every date's deal with each player and print the two tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calendar", type=Path, default=Path("data/daily-2027.tsv"))
    parser.add_argument("--rules", default="standard", help="the calendar's rules")
    parser.add_argument("--players", nargs="+", default=list(PLAYERS))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = [line.split("\t") for line in args.calendar.read_text().splitlines()[1:] if line.strip()]
    players = tuple(args.players)
    won = list(ordered_map(wins_of, [(int(row[1]), players, args.rules) for row in rows], args.jobs))
    print(f"{args.calendar}: {len(rows)} dates, rules {args.rules}")
    print(table(rows, won, players))
    print()
    print(chances(rows))


if __name__ == "__main__":
    main()
