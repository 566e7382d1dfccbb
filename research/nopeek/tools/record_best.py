"""Measure a no-peek player on held-out deals and record it as the best measured (the bracket's lower end).

Usage: python -m research.nopeek.tools.record_best --player deep --from 100000 --count 10000 --jobs 2 [--record]

Plays the player on deals FROM..FROM+COUNT-1 under standard rules (what
``kcsolve selfplay`` plays), prints the wins and the 95% Wilson interval, and
with --record writes them into the package's measured figures (best_measured),
which ``kcsolve odds --no-peek`` quotes. Use deals that played no part in the
player's design: the figure says so (held_out).
"""

from __future__ import annotations

import argparse
import json
import sys

from kcsolve.patience.players.selfplay import PLAYERS, Tally, selfplay
from kcsolve.patience.rules import STANDARD
from research.nopeek.figures import command_line, record


def main() -> int:
    """Play, print the tally and, when asked, record it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", choices=sorted(PLAYERS), default="deep")
    parser.add_argument("--from", dest="first", type=int, required=True, help="first deal number")
    parser.add_argument("--count", type=int, required=True, help="number of deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--record", action="store_true", help="write the tally into the package's measured figures")
    args = parser.parse_args()
    won = 0
    for done, game in enumerate(selfplay(args.player, args.first, args.count, STANDARD, args.jobs), 1):
        won += game.won
        print(f"{done}/{args.count}: {won} won", file=sys.stderr, flush=True)
    low, high = Tally(args.count, won, 0.0).interval  # as `kcsolve selfplay` reports it
    tally = {"player": args.player, "won": won, "deals": args.count, "first_deal": args.first}
    print(json.dumps(tally | {"interval": [low, high]}))
    if args.record:
        fields = tally | {"interval": [round(low, 4), round(high, 4)], "held_out": True}
        record("best_measured", fields, command_line("research.nopeek.tools.record_best"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
