"""The quick player who cannot see the deck: one compiled rule per card, wary of a court class filling up.

It plays forced pair removal with courts on their home cells, at the level of
cell classes: ``cells[c, v]`` number cards of value v in class c (0 centre,
1 corners, 2 Queen cells, 3 Jack cells), ``courts[c]`` court cards placed in
class c, ``coming[r]`` unseen cards of rank r (never their order). Under these
rules the values on the grid follow the deck alone (docs/THEORY.md, Lemma 1),
so the player only decides the class of each number card and which copies a
removal takes:

- a number card goes where it costs least: a court class costs the chance that
  more of its court cards come before the grid is full (when the next removal
  frees cells) than it has cells left after this card, plus a little while its
  court cards outnumber its free cells; the centre costs a card that leaves at
  the next removal (a Ten, or a partner waiting on the grid) the centre cell a
  staying card could use;
- a removal takes each copy from the class that needs room most.

The same rule runs whole games in microseconds (:func:`deal_wins`), which is
how its weights were tuned (research/nopeek/tools/tune_quick.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from kcsolve.common.cards import TEN
from kcsolve.common.jit import jit
from kcsolve.patience.classes import CLASS_OF, class_view
from kcsolve.patience.engine import Move, Place, PlayerView
from kcsolve.patience.players.policy import greedy_player

# Costs of a placement: a leaving card in the centre, the window risk, a staying card in a court class, a short class.
# Tuned on deals 10,000..39,999 by research/nopeek/tools/tune_quick.py (docs/PLAYERS.md).
WEIGHTS = np.array([1.93, 5.07, -0.11, 1.32], dtype=np.float64)


def _python(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function itself: the pure-Python fallback when numba cannot be loaded."""
    return function


try:
    compiled = jit()
except ImportError:  # pragma: no cover - numba is a dependency; the fallback keeps a broken install playing
    compiled = _python


@compiled
def log_choose(n: int, k: int) -> float:
    """The natural logarithm of n choose k (minus a huge number when k is out of range)."""
    if k < 0 or k > n:
        return -1e300
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


@compiled
def at_least(total: int, marked: int, draws: int, least: int) -> float:
    """The chance that ``draws`` cards from ``total``, ``marked`` of them marked, hold ``least`` or more marked."""
    if least <= 0:
        return 1.0
    if draws <= 0:
        return 0.0
    whole = log_choose(total, draws)
    chance = 0.0
    for x in range(least, min(marked, draws) + 1):
        chance += math.exp(log_choose(marked, x) + log_choose(total - marked, draws - x) - whole)
    return chance


@compiled
def free_in(cells: np.ndarray, courts: np.ndarray, c: int) -> int:
    """Empty cells of class ``c``."""
    return 4 - courts[c] - cells[c].sum()


@compiled
def place_class(cells: np.ndarray, courts: np.ndarray, coming: np.ndarray, rank: int, w: np.ndarray) -> int:
    """The class (with a free cell) the quick player puts a number card of ``rank`` in."""
    on_grid = np.zeros(11, dtype=np.int64)
    for c in range(4):
        for v in range(1, 11):
            on_grid[v] += cells[c, v]
    if rank == 10:
        leaves = True
    elif rank == 5:
        leaves = on_grid[5] % 2 == 1
    else:
        leaves = on_grid[10 - rank] > on_grid[rank]
    unseen = coming.sum()
    window = -1  # cards still to come before the grid is full, once this one is placed
    for c in range(4):
        window += free_in(cells, courts, c)
    best = -1
    best_score = -1e18
    for c in range(4):
        free = free_in(cells, courts, c)
        if free <= 0:
            continue
        if c == 0:
            score = -w[0] if leaves else 0.0
        else:
            to_come = coming[14 - c]  # class 1 Kings (13), 2 Queens (12), 3 Jacks (11)
            score = -w[1] * at_least(unseen, to_come, window, free) - (0.0 if leaves else w[2])
            if free - 1 < to_come:
                score -= w[3]
        if score > best_score:
            best_score = score
            best = c
    return best


@compiled
def pair_takes(count: np.ndarray) -> np.ndarray:
    """How many cards of each value (1..10) forced pair removal takes from ``count`` (Lemma 1, compiled)."""
    take = np.zeros(11, dtype=np.int64)
    take[10] = count[10]
    for low in range(1, 5):
        pairs = min(count[low], count[10 - low])
        take[low] = pairs
        take[10 - low] = pairs
    take[5] = count[5] // 2 * 2
    return take


@compiled
def free_classes(cells: np.ndarray, courts: np.ndarray, coming: np.ndarray) -> bool:
    """Forced pair removal to exhaustion, each copy taken from the class that needs room most; False if none."""
    count = np.zeros(11, dtype=np.int64)
    for c in range(4):
        for v in range(1, 11):
            count[v] += cells[c, v]
    take = pair_takes(count)
    if take.sum() == 0:
        return False
    for v in range(1, 11):
        for _ in range(take[v]):
            best = -1
            best_need = -1e18
            for c in range(4):
                if cells[c, v] == 0:
                    continue
                need = -100.0 if c == 0 else float(coming[14 - c] - free_in(cells, courts, c))
                if need > best_need:
                    best_need = need
                    best = c
            cells[best, v] -= 1
    return True


@compiled
def wins_deal(order: np.ndarray, deplete: bool, w: np.ndarray, explore: float = 0.0) -> bool:
    """Whether the quick player (exploring, see :func:`choose_class`) wins the deal whose ranks come in ``order``."""
    return wins_from(np.zeros((4, 11), dtype=np.int64), np.zeros(4, dtype=np.int64), order, False, deplete, w, explore)


@compiled
def choose_class(
    cells: np.ndarray, courts: np.ndarray, coming: np.ndarray, rank: int, w: np.ndarray, explore: float
) -> int:
    """The class of a number card: :func:`place_class`'s, or with probability ``explore`` a free class at random."""
    if explore > 0.0:  # no random draw for the quick player itself, whose games are then the same every time
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
    return place_class(cells, courts, coming, rank, w)


@compiled
def wins_from(
    cells0: np.ndarray,
    courts0: np.ndarray,
    order: np.ndarray,
    due: bool,
    deplete: bool,
    w: np.ndarray,
    explore: float = 0.0,
) -> bool:
    """Whether the quick player wins from a class-level state (``due``: a removal is owed) when ``order`` comes;
    with ``explore``, a number card goes to a free class at random that often (numpy's seeded generator)."""
    cells = cells0.copy()
    courts = courts0.copy()
    coming = np.zeros(14, dtype=np.int64)
    for t in range(order.shape[0]):
        coming[order[t]] += 1
    placed = courts.sum()
    if (due or placed + cells.sum() == 16) and not free_classes(cells, courts, coming):
        return False
    n = order.shape[0]
    for t in range(n):
        rank = order[t]
        coming[rank] -= 1
        if rank > 10:
            c = 3 if rank == 11 else (2 if rank == 12 else 1)
            if free_in(cells, courts, c) == 0:
                return False
            courts[c] += 1
            placed += 1
            if placed == 12 and not deplete:
                return True
        else:
            cells[choose_class(cells, courts, coming, rank, w, explore), rank] += 1
        if placed + cells.sum() == 16 and t + 1 < n and not free_classes(cells, courts, coming):
            return False
    return True


@compiled
def deal_wins(decks: np.ndarray, deplete: bool, w: np.ndarray) -> int:
    """How many deals (one order of ranks per row) the quick player wins."""
    wins = 0
    for k in range(decks.shape[0]):
        wins += wins_deal(decks[k], deplete, w)
    return wins


def quick_player(view: PlayerView) -> Move:
    """The quick player's move: a number card to the class :func:`place_class` picks; otherwise as greedy."""
    card = view.in_hand
    if view.removing or card is None or card.rank > TEN:
        return greedy_player(view)
    numbers, courts = class_view(view.grid)
    cells = np.zeros((4, TEN + 1), dtype=np.int64)
    for c, values in enumerate(numbers):
        for value in values:
            cells[c, value] += 1
    coming = np.zeros(14, dtype=np.int64)
    for unseen in view.unseen:
        coming[unseen.rank] += 1
    home = place_class(cells, np.array(courts, dtype=np.int64), coming, card.rank, WEIGHTS)
    return next(m for m in view.legal_moves() if isinstance(m, Place) and CLASS_OF[m.cell] == home)
