"""What the quick and deep players' choices cost late in a game, against the exact best, in points a game.

Usage: python -m research.nopeek.tools.nopeek_headroom [--unseen K] --from N --count C [--jobs J]

The quick player plays each deal until at most K cards are unseen (12 by default).
From there to the end of its game, at every choice with two or more distinct
options, every option is valued exactly (``exact_chance``: the class-level
expectimax of the no-peek game), and the choice of the quick player and that of
the deep player are each charged what they lose against the best option. The
game goes on along the quick player's line. The sum of the charges over the games,
over the number of games, is how many points a game a player who chose exactly in
this stretch would gain over each, at those positions: an estimate of what better
late play could add, measured along the quick player's line (not deep's own). It
prints one JSON line. The expectimax grows fast with K: about 0.3 s a game at 12,
0.7 s at 13; a first try at 14 did not finish in 20 minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import get_context

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.deep import deep_player
from kcsolve.patience.players.endgame import distinct_options, exact_chance
from kcsolve.patience.players.quick import quick_player
from kcsolve.patience.players.strong import class_key
from kcsolve.patience.rules import STANDARD

UNSEEN = 12


def charges(seed: int) -> tuple[int, float, float]:
    """One deal: the choices valued, and what the quick and the deep player's choices lose at them in all."""
    position = Position.start(deal(seed), STANDARD)
    while position.outcome().status is Status.UNFINISHED and len(position.view().unseen) > UNSEEN:
        position = position.play(quick_player(position.view()))
    choices, quick_loss, deep_loss = 0, 0.0, 0.0
    while position.outcome().status is Status.UNFINISHED:
        view = position.view()
        options = distinct_options(view)
        if len(options) > 1:
            value = {class_key(view, move): exact_chance(after) for move, after in options}
            best = max(value.values())
            quick_loss += best - value[class_key(view, quick_player(view))]
            deep_loss += best - value[class_key(view, deep_player(view, seed))]
            choices += 1
        position = position.play(quick_player(view))
    return choices, quick_loss, deep_loss


def main() -> int:
    """Charge every deal asked for and print the totals and the points a game."""
    global UNSEEN
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unseen", type=int, default=UNSEEN, help="value every choice from this many unseen cards")
    parser.add_argument("--from", dest="first", type=int, required=True, help="first deal number")
    parser.add_argument("--count", type=int, required=True, help="number of deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    if args.unseen < 1 or args.count < 1 or args.jobs < 1:
        print("--unseen, --count and --jobs must be at least 1", file=sys.stderr)
        return 2
    UNSEEN = args.unseen
    with get_context("fork").Pool(args.jobs) as pool:
        found = pool.map(charges, range(args.first, args.first + args.count), chunksize=1)
    quick = sum(q for _, q, _ in found)
    deep = sum(d for _, _, d in found)
    summary = {
        "deals": [args.first, args.first + args.count - 1],
        "unseen": UNSEEN,
        "choices": sum(c for c, _, _ in found),
        "quick_loss": round(quick, 4),
        "deep_loss": round(deep, 4),
        "quick_points_a_game": round(100 * quick / args.count, 3),
        "deep_points_a_game": round(100 * deep / args.count, 3),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
