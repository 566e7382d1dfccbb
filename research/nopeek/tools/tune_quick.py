"""Tune the quick player's weights by whole games at class level, on deals that no measurement uses.

Coordinate search from the shipped weights: each weight is moved up and down
by a step; a move is kept when the player wins more of the training deals.
The result is then played on held-out deals. Deals 0..2,599 are left alone
(the figures in docs/PLAYERS.md are measured there).

    python -m research.nopeek.tools.tune_quick                       # train 10,000..39,999, test 40,000..69,999
"""

from __future__ import annotations

import argparse

import numpy as np

from kcsolve.common.deal import deal
from kcsolve.patience.players.quick import WEIGHTS, deal_wins


def ranks(start: int, count: int) -> np.ndarray:
    """The rank orders of ``count`` deals from ``start``, one per row."""
    return np.array([[card.rank for card in deal(seed)] for seed in range(start, start + count)], dtype=np.int64)


def main() -> None:
    """Search, then print the weights and both win rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=10_000)
    parser.add_argument("--test", type=int, default=40_000)
    parser.add_argument("--count", type=int, default=30_000)
    args = parser.parse_args()
    train, test = ranks(args.train, args.count), ranks(args.test, args.count)
    weights = [float(w) for w in WEIGHTS]
    best = deal_wins(train, False, np.array(weights))
    print(f"start {weights}: {best} of {args.count}")
    for step in (1.0, 0.5, 0.25, 0.12):
        for k in range(len(weights)):
            for move in (step, -step):
                trial = list(weights)
                trial[k] += move
                won = deal_wins(train, False, np.array(trial))
                if won > best:
                    best, weights = won, trial
                    print(f"step {step}: {[round(w, 3) for w in weights]}: {best}", flush=True)
    held = deal_wins(test, False, np.array(weights))
    shipped = deal_wins(test, False, WEIGHTS)
    print(
        f"weights {[round(w, 3) for w in weights]}: train {best / args.count:.2%}, "
        f"held out {held / args.count:.2%} (shipped weights {shipped / args.count:.2%})"
    )


if __name__ == "__main__":
    main()
