"""Write data/pysol-camelot-verdicts.tsv: the verdict of every PySolFC Camelot game 1..100,000.

    python scripts/tools/pysol_verdicts.py                     # games 1..100000, two processes
    python scripts/tools/pysol_verdicts.py --count 1000 --jobs 1

One line per game: the game number, the verdict under kcsolve's `camelot` rules
(win, loss, or unknown should a search run out of budget), and the court cards
placed in best play (12 for a win). Games are dealt exactly as PySolFC deals them
(kcsolve/patience/pysol.py). Like Black Hole Solver's published table, it lets
anyone check a game number without running a solver.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from kcsolve.patience.solve.camelot import camelot_verdict

OUT = Path(__file__).resolve().parents[2] / "data" / "pysol-camelot-verdicts.tsv"


def verdicts(first: int, stop: int) -> list[str]:
    """Table lines for games first..stop-1."""
    return [f"{game}\t{result}\t{courts}" for game in range(first, stop) for result, courts in [camelot_verdict(game)]]


def main() -> None:
    """Decide the games in blocks and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    began = time.perf_counter()
    stop = args.start + args.count
    blocks = [(s, min(s + 1000, stop)) for s in range(args.start, stop, 1000)]
    with ProcessPoolExecutor(args.jobs) as pool:
        lines = [line for block in pool.map(verdicts, *zip(*blocks)) for line in block]
    OUT.write_text("game\tverdict\tcourts\n" + "\n".join(lines) + "\n", encoding="utf-8")
    wins = sum(line.split("\t")[1] == "win" for line in lines)
    undecided = sum(line.split("\t")[1] == "unknown" for line in lines)
    print(
        f"{OUT.name}: {len(lines):,} games, {wins:,} winnable ({wins / len(lines):.2%}), {undecided} undecided, "
        f"in {time.perf_counter() - began:.0f} s with {args.jobs} processes"
    )


if __name__ == "__main__":
    main()
