"""Hints for a player who cannot see the deck: every legal option ranked by its chance of winning.

An option's chance is estimated by playing on from it many times, each time with
the unseen cards in a fresh random order, by the good player of
:mod:`kcsolve.policy` (played greedily). Every option is scored on the *same*
orders of the unseen cards (common random numbers), so the differences between
options are measured far more sharply than the chances themselves. Options that
lead to the same position once cells of one class are merged are scored once.
Nothing here looks at the real order of the stock.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from functools import lru_cache

from ..common.cards import TEN
from .engine import (
    CENTRE,
    Move,
    Place,
    Position,
    Status,
)
from .policy import KIND_CLASS, check_rules, class_view, play_on, takes_from
from .rules import Goal

HINT_PLAYOUTS = 400
EXACT_STOCK = 8  # with this many unseen cards or fewer, chances are computed exactly


@dataclass(frozen=True)
class Hint:
    """One option and its estimated chance of winning, with a 95% margin."""

    move: Move
    chance: float
    playouts: int  # 0 when the chance is exact

    @property
    def margin(self) -> float:
        """Half-width of a normal-approximation 95% interval for the chance (0 when exact)."""
        p = self.chance
        return 1.96 * math.sqrt(p * (1 - p) / self.playouts) if self.playouts else 0.0


def _key(position: Position) -> tuple:
    """A position up to cells of one class, for merging equivalent options."""
    cells, courts = class_view(position)
    return (tuple(tuple(sorted(c)) for c in cells), tuple(courts), position.drawn, position.removing)


def distinct_options(position: Position) -> list[tuple[Move, Position]]:
    """The legal moves, one for each distinct resulting position."""
    seen: dict[tuple, tuple[Move, Position]] = {}
    for move in position.legal_moves():
        child = position.play(move)
        seen.setdefault(_key(child), (move, child))
    return list(seen.values())


def hints(position: Position, playouts: int = HINT_PLAYOUTS, seed: int = 0) -> list[Hint]:
    """Every distinct legal option, best first, with its chance of winning (exact when the stock is small)."""
    check_rules(position.rules)
    options = distinct_options(position)
    if not options:
        return []
    # sorted, so that not even the shuffles depend on the real order of the stock
    unseen = sorted(card.rank for card in position.deck[options[0][1].drawn :])
    if len(unseen) <= EXACT_STOCK:
        ranked = [Hint(move, exact_chance(child), 0) for move, child in options]
    else:
        ranked = _sampled(options, unseen, playouts, seed)
    ranked.sort(key=lambda h: (-h.chance, _tiebreak(h.move)))
    return ranked


def _sampled(options: list[tuple[Move, Position]], unseen: list[int], playouts: int, seed: int) -> list[Hint]:
    """Chances by playouts, every option on the same shuffles of the unseen cards."""
    rng = random.Random(seed)
    orders = []
    for _ in range(playouts):
        rng.shuffle(unseen)
        orders.append(list(unseen))
    ranked = []
    for move, child in options:
        status = child.outcome().status
        if status is not Status.UNFINISHED:
            ranked.append(Hint(move, 1.0 if status is Status.WON else 0.0, playouts))
            continue
        wins = 0
        for n, order in enumerate(orders):
            cells, courts = class_view(child)
            wins += play_on(cells, courts, list(order), child.rules, random.Random(n), 0.0, child.removing) == 12
        ranked.append(Hint(move, wins / playouts, playouts))
    return ranked


def exact_chance(position: Position) -> float:
    """The chance of winning with best play when the unseen cards come in a uniformly random order.

    Expectimax at class level: the average over the next card's rank, the best
    over the player's choices (the class of a number card, which equal cards a
    removal takes). Meant for a small stock; the work grows fast with its size.
    """
    status = position.outcome().status
    if status is not Status.UNFINISHED:
        return 1.0 if status is Status.WON else 0.0
    cells, courts = class_view(position)
    stock = [0] * 14
    for card in position.deck[position.drawn :]:
        stock[card.rank] += 1
    state = (tuple(tuple(sorted(c)) for c in cells), tuple(courts))
    return _expectimax(state, tuple(stock), position.removing, position.rules.goal is Goal.COURTS)


@lru_cache(maxsize=200_000)
def _expectimax(state: tuple, stock: tuple[int, ...], removal_due: bool, stop_at_courts: bool) -> float:
    """Best-play win chance from a class-level state with this multiset of unseen ranks."""
    cells, courts = state
    placed = sum(courts)
    if stop_at_courts and placed == 12:
        return 1.0
    free = [4 - len(cells[c]) - courts[c] for c in range(4)]
    if removal_due or not any(free):
        outcomes = _removal_outcomes(cells)
        if not outcomes:
            return 1.0 if not any(stock) and placed == 12 else 0.0
        return max(_expectimax((after, courts), stock, False, stop_at_courts) for after in outcomes)
    total = sum(stock)
    if not total:
        return 1.0 if placed == 12 else 0.0
    chance = 0.0
    for rank, count in enumerate(stock):
        if not count:
            continue
        rest = stock[:rank] + (count - 1,) + stock[rank + 1 :]
        if rank > TEN:
            home = KIND_CLASS[rank]
            if not free[home]:
                continue
            now = courts[:home] + (courts[home] + 1,) + courts[home + 1 :]
            best = _expectimax((cells, now), rest, False, stop_at_courts)
        else:
            best = max(
                _expectimax((_with(cells, c, rank), courts), rest, False, stop_at_courts)
                for c in range(4) if free[c]
            )
        chance += count / total * best
    return chance


def _with(cells: tuple, c: int, rank: int) -> tuple:
    """The class contents with ``rank`` added to class ``c``."""
    return cells[:c] + (tuple(sorted((*cells[c], rank))),) + cells[c + 1 :]


def _removal_outcomes(cells: tuple) -> list[tuple]:
    """Every distinct class content forced pair removal can leave (the values that go are fixed)."""
    take = takes_from(cells)
    if not any(take):
        return []
    per_value = []
    for value in range(1, TEN + 1):
        holders = [c for c in range(4) for _ in range(cells[c].count(value))]
        per_value.append({tuple(sorted(pick)) for pick in itertools.combinations(holders, take[value])})
    outcomes = set()
    for picks in itertools.product(*per_value):
        left = [list(c) for c in cells]
        for value, pick in zip(range(1, TEN + 1), picks):
            for c in pick:
                left[c].remove(value)
        outcomes.add(tuple(tuple(sorted(c)) for c in left))
    return list(outcomes)


def _tiebreak(move: Move) -> int:
    """Among equal estimates, prefer the centre for a placement."""
    return 0 if isinstance(move, Place) and move.cell in CENTRE else 1


def hint_move(position: Position, playouts: int = HINT_PLAYOUTS, seed: int = 0) -> Move:
    """The hint engine's own choice: the best-ranked option (the only one, when there is no choice)."""
    options = distinct_options(position)
    if len(options) == 1:
        return options[0][0]
    return hints(position, playouts, seed)[0].move


def hint_player(position: Position, playouts: int = 64, seed: int = 0) -> Move:
    """The hint engine playing by itself: the option its own hints rank first."""
    return hint_move(position, playouts, seed)
