"""The cheap chance of the daily filter: the compiled quick player, exploring, playing whole games at class level.

At each number card with two or more classes free it takes, with the given
probability, a free class at random instead of the quick player's; court cards
and removals are as the quick player plays them (:mod:`.quick`). A game takes
microseconds, so thousands of them rank a candidate before it is measured in
full (:func:`kcsolve.patience.players.honest.cheap_chance`).
"""

from __future__ import annotations

import numpy as np

from kcsolve.patience.players.quick import WEIGHTS, compiled, free_classes, free_in, place_class


@compiled
def explore_class(cells: np.ndarray, courts: np.ndarray, coming: np.ndarray, rank: int, explore: float) -> int:
    """The class of a number card: the quick player's, or with probability ``explore`` a free class at random."""
    free = 0
    for c in range(4):
        free += free_in(cells, courts, c) > 0
    if free > 1 and np.random.random() < explore:
        pick = np.random.randint(free)
        for c in range(4):
            if free_in(cells, courts, c) > 0:
                if pick == 0:
                    return c
                pick -= 1
    return place_class(cells, courts, coming, rank, WEIGHTS)


@compiled
def exploring_games(order: np.ndarray, deplete: bool, explore: float, games: int, seed: int) -> int:
    """How many of ``games`` class-level games of the exploring quick player win when ``order`` comes."""
    np.random.seed(seed)
    wins = 0
    for _ in range(games):
        cells = np.zeros((4, 11), dtype=np.int64)
        courts = np.zeros(4, dtype=np.int64)
        coming = np.zeros(14, dtype=np.int64)
        for t in range(order.shape[0]):
            coming[order[t]] += 1
        placed = 0
        won = True
        for t in range(order.shape[0]):
            rank = order[t]
            coming[rank] -= 1
            if rank > 10:
                c = 3 if rank == 11 else (2 if rank == 12 else 1)
                if free_in(cells, courts, c) == 0:
                    won = False
                    break
                courts[c] += 1
                placed += 1
                if placed == 12 and not deplete:
                    break
            else:
                cells[explore_class(cells, courts, coming, rank, explore), rank] += 1
            if placed + cells.sum() == 16 and t + 1 < order.shape[0] and not free_classes(cells, courts, coming):
                won = False
                break
        wins += won
    return wins


def exploring_wins(ranks: list[int], deplete: bool, explore: float, games: int, seed: int) -> int:
    """How many of ``games`` exploring quick games win when cards of ``ranks`` come in order (seeded by ``seed``)."""
    return int(exploring_games(np.array(ranks, dtype=np.int64), deplete, explore, games, seed))
