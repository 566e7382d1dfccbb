"""The cheap chance of the daily filter: the compiled quick player, exploring, playing whole games at class level.

At each number card with two or more classes free it takes, with the given
probability, a free class at random instead of the quick player's; court cards
and removals are as the quick player plays them (:mod:`.quick`). A game takes
microseconds, so thousands of them rank a candidate before it is measured in
full (:func:`kcsolve.patience.players.honest.cheap_chance`).
"""

from __future__ import annotations

import numpy as np

from kcsolve.patience.players.quick import WEIGHTS, compiled, wins_deal


@compiled
def exploring_games(order: np.ndarray, deplete: bool, explore: float, games: int, seed: int) -> int:
    """How many of ``games`` class-level games of the exploring quick player win when ``order`` comes."""
    np.random.seed(seed)
    wins = 0
    for _ in range(games):
        wins += wins_deal(order, deplete, WEIGHTS, explore)
    return wins


def exploring_wins(ranks: list[int], deplete: bool, explore: float, games: int, seed: int) -> int:
    """How many of ``games`` exploring quick games win when cards of ``ranks`` come in order (seeded by ``seed``)."""
    return int(exploring_games(np.array(ranks, dtype=np.int64), deplete, explore, games, seed))
