"""An upper bound on the best chance without seeing the deck: information relaxation with a penalty.

Brown, Smith and Sun (Operations Research 58(4), 2010): let the player see the
whole deck, but charge it at every draw the penalty
z = P(state, card) - E[P(state, c)], the mean over the unseen cards c, where
P(state, card) is the best W over the ways to place the drawn card (and the forced
removal that may follow) and W is any function of the no-peek state. Under every
strategy that does not see the deck the penalties have mean zero, so the mean over
decks of the best line's win - sum of z is an upper bound on the best no-peek
chance, for every W; with W the exact value every deck scores that value
(docs/THEORY.md, section 10, "An upper bound by information relaxation").

States are at the level of cell classes, as in
:mod:`kcsolve.patience.players.endgame`: class states of :mod:`kcsolve.patience.classes`,
the unseen cards following from the deck and the cards drawn. Standard rules only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from kcsolve.common.cards import TEN
from kcsolve.errors import KcsolveError
from kcsolve.patience.classes import KIND_CLASS, ClassState, with_value
from kcsolve.patience.players.endgame import removal_outcomes
from research.nopeek.rearranged import state_key, unseen_count

State = ClassState  # a no-peek state between draws: class contents (sorted values), court cards per class
Stock = tuple[int, ...]  # unseen cards by rank 0..13
Valuation = Callable[[State, Stock], float]  # W: any function of a no-peek state between draws
WON, LOST = 1.0, 0.0
START: State = (((), (), (), ()), (0, 0, 0, 0))
FULL_STOCK: Stock = (0,) + (4,) * 13


class InvalidDeckError(KcsolveError, ValueError):
    """A deck that is no order of the 52 ranks, four of each."""


class InvalidFactorsError(KcsolveError, ValueError):
    """Layer factors for a W that are no JSON factors, out of range, or leave out a count of unseen cards."""


class MissingTableError(KcsolveError, ValueError):
    """A rearranging value table that is absent or lacks a state asked of it."""


def children(state: State, rank: int) -> list[State | float]:
    """Every distinct outcome of placing a drawn ``rank``: a state between draws, or WON / LOST."""
    cells, courts = state
    free = [4 - len(cells[c]) - courts[c] for c in range(4)]
    if rank > TEN:
        home = KIND_CLASS[rank]
        if not free[home]:
            return [LOST]
        now = (*courts[:home], courts[home] + 1, *courts[home + 1 :])
        return [WON] if sum(now) == 12 else [_settled((cells, now))]
    return list({_settled((with_value(cells, c, rank), courts)) for c in range(4) if free[c]} - {LOST}) or [LOST]


def _settled(state: State) -> State | float:
    """The state after a placement: unchanged, or after a forced removal (one outcome of each choice), or LOST."""
    cells, courts = state
    if sum(len(c) for c in cells) + sum(courts) < 16:
        return state
    outcomes = removal_outcomes(cells)
    if not outcomes:
        return LOST
    if len(outcomes) == 1:
        return (outcomes[0], courts)
    return _Choice(tuple((after, courts) for after in outcomes))


class _Choice(tuple):
    """The removal outcomes the player chooses among, kept together until they are flattened."""


def _flat(outcomes: list) -> list[State | float]:
    """Outcomes with every removal choice spread out."""
    flat: list[State | float] = []
    for child in outcomes:
        flat.extend(child if isinstance(child, _Choice) else (child,))
    return flat


@lru_cache(maxsize=1_000_000)
def options(state: State, rank: int) -> tuple[State | float, ...]:
    """The player's choices after drawing ``rank``: placements and removal choices, each leading to one outcome.

    Cached: the penalty asks for every rank's options at every state the search visits.
    """
    return tuple(_flat(children(state, rank)))


def worth(child: State | float, stock: Stock, w: Valuation) -> float:
    """W of an outcome: 1 or 0 if the game is over, else W of the state with this stock."""
    return child if isinstance(child, float) else w(child, stock)


def post_draw(state: State, stock: Stock, rank: int, w: Valuation) -> float:
    """P: the best W over the choices after drawing ``rank`` from ``stock`` (the stock after the draw is given W)."""
    rest = (*stock[:rank], stock[rank] - 1, *stock[rank + 1 :])
    return max(worth(child, rest, w) for child in options(state, rank))


def mean_post_draw(state: State, stock: Stock, w: Valuation) -> float:
    """E[P]: the mean of P over the next card, uniform over the unseen cards (what a no-peek player knows)."""
    total = sum(stock)
    return sum(count * post_draw(state, stock, rank, w) for rank, count in enumerate(stock) if count) / total


Penalty = Callable[[State, Stock, int, Valuation], float]


def penalty(state: State, stock: Stock, rank: int, w: Valuation) -> float:
    """z at a draw: P(state, the card drawn) - E[P(state, c)] over the unseen cards c; mean zero whatever the play."""
    return post_draw(state, stock, rank, w) - mean_post_draw(state, stock, w)


def checked_stocks(ranks: Sequence[int]) -> list[Stock]:
    """The unseen cards by rank before each draw of ``ranks`` (and after the last); InvalidDeckError if no deck."""
    stock = [0] * 14
    for rank in ranks:
        if type(rank) is not int or not 1 <= rank <= 13:
            raise InvalidDeckError(f"a deck lists ranks 1..13, got {rank!r}")
        stock[rank] += 1
    if max(stock) > 4:
        raise InvalidDeckError(f"a deck holds at most four cards of a rank, got {list(stock[1:])!r}")
    stocks = [tuple(stock)]
    for rank in ranks:
        stock[rank] -= 1
        stocks.append(tuple(stock))
    return stocks


def deck_score(order: Sequence[int], w: Valuation, state: State = START, charge: Penalty = penalty) -> float:
    """The best line's win - sum of penalties on one deck: ``order`` lists the ranks still to come, first drawn first.

    ``state`` is the position before the first of them is drawn (the start by
    default). A deterministic search over the deck's class-level states, the
    score of a state being the best over the choices after its draw of the
    child's score, less the draw's penalty (the same for every choice).
    """
    ranks = tuple(order)
    stocks = checked_stocks(ranks)

    @cache
    def score(here: State, drawn: int) -> float:
        """The best score from a state with ``drawn`` of the deck's cards drawn."""
        if drawn == len(ranks):
            return LOST
        rank = ranks[drawn]
        z = charge(here, stocks[drawn], rank, w)
        return max(child if isinstance(child, float) else score(child, drawn + 1) for child in options(here, rank)) - z

    return score(state, 0)


def rearranging_options(state: State, rank: int) -> tuple[State | float, ...]:
    """The rearranging game's choices after drawing ``rank`` at ``state`` seated centre first, seated centre first.

    A number card goes to the centre while it has room, else to a court class with
    room; a forced removal is followed by every seating of the number cards left
    (the centre filled first), as that game allows. Every outcome the real game can
    reach from ``state`` seats centre first to one of these (docs/THEORY.md,
    Theorem 12).
    """
    cells, courts = centre_first(state)
    free = [4 - len(cells[c]) - courts[c] for c in range(4)]
    if rank > TEN:
        home = KIND_CLASS[rank]
        if not free[home]:
            return (LOST,)
        now = (*courts[:home], courts[home] + 1, *courts[home + 1 :])
        return (WON,) if sum(now) == 12 else _reseated(cells, now)
    places = (0,) if free[0] else tuple(c for c in (1, 2, 3) if free[c])
    return tuple(child for c in places for child in _reseated(with_value(cells, c, rank), courts)) or (LOST,)


def _reseated(cells: tuple[tuple[int, ...], ...], courts: tuple[int, ...]) -> tuple[State | float, ...]:
    """A placement's outcomes in the rearranging game: itself, or after a full grid's removal every seating."""
    if sum(len(c) for c in cells) + sum(courts) < 16:
        return ((cells, courts),)
    outcomes = removal_outcomes(cells)
    if not outcomes:
        return (LOST,)
    values = tuple(sorted(v for c in outcomes[0] for v in c))
    centre = min(4, len(values))
    rest = len(values) - centre
    seatings = []
    for a in range(min(rest, 4 - courts[1]) + 1):
        for b in range(min(rest - a, 4 - courts[2]) + 1):
            if rest - a - b <= 4 - courts[3]:
                ends = (0, centre, centre + a, centre + a + b, len(values))
                seatings.append((tuple(values[ends[c] : ends[c + 1]] for c in range(4)), courts))
    return tuple(seatings)


@lru_cache(maxsize=200_000)
def _rearranging_post(seated: State, stock: Stock, rank: int, w: Valuation) -> float:
    """The best W over the rearranging game's choices after drawing ``rank`` (cached by the seating centre first)."""
    rest = (*stock[:rank], stock[rank] - 1, *stock[rank + 1 :])
    return max(worth(child, rest, w) for child in rearranging_options(seated, rank))


@lru_cache(maxsize=100_000)
def _rearranging_mean(seated: State, stock: Stock, w: Valuation) -> float:
    """The mean of :func:`_rearranging_post` over the next card."""
    total = sum(stock)
    return sum(count * _rearranging_post(seated, stock, rank, w) for rank, count in enumerate(stock) if count) / total


def rearranging_penalty(state: State, stock: Stock, rank: int, w: Valuation) -> float:
    """z with P taken in the rearranging game from the state seated centre first: still mean zero.

    Any function of the no-peek state and the card drawn, less its mean over the
    card, is a valid penalty (Theorem 11). This one depends on the state only
    through its seating centre first, so the many seatings a deck reaches before
    its first removal share it, and with W the rearranging value every deck scores
    at most that value (Theorem 12).
    """
    seated = centre_first(state)
    return _rearranging_post(seated, stock, rank, w) - _rearranging_mean(seated, stock, w)


def mean_and_upper(scores: Sequence[float]) -> tuple[float, float]:
    """The mean of per-deck scores and its one-sided 95% upper limit (normal approximation, 1.645 standard errors)."""
    n = len(scores)
    mean = sum(scores) / n
    if n < 2:
        return mean, math.inf
    variance = sum((s - mean) ** 2 for s in scores) / (n - 1)
    return mean, mean + 1.6448536269514722 * math.sqrt(variance / n)


def zero(state: State, stock: Stock) -> float:
    """W = 0 on unfinished states; a draw that can end the game is still charged, finished games counting 1 or 0."""
    return 0.0


def scaled(w: Valuation, factor: float) -> Valuation:
    """W times a factor (still a valid W: any function of the no-peek state is)."""
    return lambda state, stock: factor * w(state, stock)


def read_factors(text: str) -> dict[int, float]:
    """The factors of each count of unseen cards 1..52 from the JSON that research/nopeek/tools/fit_w.py writes."""
    try:
        given = json.loads(text)["factors"]
        factors = {int(n): float(h) for n, h in given.items()}
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise InvalidFactorsError(f"not a factors file (a JSON object with 'factors'): {text[:60]!r}") from exc
    bad = [n for n, h in factors.items() if not 1 <= n <= 52 or not 0 <= h <= 1]
    if bad:
        raise InvalidFactorsError(
            f"a factor is for 1..52 unseen cards and lies in 0..1, got {bad[0]!r}: {factors[bad[0]]!r}"
        )
    return factors


def check_layers(factors: Mapping[int, float]) -> None:
    """Refuse factors that leave out a count of unseen cards 1..52 (InvalidFactorsError)."""
    missing = [n for n in range(1, 53) if n not in factors]
    if missing:
        raise InvalidFactorsError(f"no factor for {missing[0]!r} unseen cards")


def layer_scaled(w: Valuation, factors: Mapping[int, float]) -> Valuation:
    """W times a factor for each count of unseen cards (a W fitted to a player's wins layer by layer)."""
    check_layers(factors)
    return lambda state, stock: factors[sum(stock)] * w(state, stock)


def blended(first: Valuation, second: Valuation, weight: float) -> Valuation:
    """weight * first + (1 - weight) * second."""
    return lambda state, stock: weight * first(state, stock) + (1 - weight) * second(state, stock)


def centre_first(state: State) -> State:
    """The state with number cards moved into the centre until it holds min(4, numbers), fullest court class first.

    The rearranging game keeps its states that way; which cards move does not
    matter to its key (only each class's count and the values on the grid do).
    """
    cells, courts = state
    values = sorted(v for c in cells for v in c)
    counts = [len(c) for c in cells]
    while counts[0] < min(4, len(values)):
        fullest = max((1, 2, 3), key=lambda c: counts[c])
        counts[fullest] -= 1
        counts[0] += 1
    seated, at = [], 0
    for count in counts:
        seated.append(tuple(values[at : at + count]))
        at += count
    return tuple(seated), courts


class RearrangedTable:
    """W from the rearranging game's value table, read from a folder of layer files (sorted keys, values).

    The layers are kept apart, by the number of unseen cards of their states, so
    the table is held once in memory with no sorting: 3.2 GB for the whole game.
    """

    def __init__(self, folder: Path) -> None:
        files = sorted(folder.glob("layer_*.npz"))
        if not files:
            raise MissingTableError(f"no layer_*.npz files in {str(folder)!r}")
        parts: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}
        for file in files:
            with np.load(file) as layer:
                keys, values = layer["keys"], layer["values"]
            if len(keys):
                parts.setdefault(unseen_count(int(keys[0])), []).append((keys, values))
        self.layers: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for unseen, found in parts.items():
            if len(found) == 1:
                self.layers[unseen] = found[0]
                continue
            keys = np.concatenate([k for k, _ in found])
            order = np.argsort(keys)
            self.layers[unseen] = keys[order], np.concatenate([v for _, v in found])[order]

    def __call__(self, state: State, stock: Stock) -> float:
        """The rearranging game's value of the state, seated centre first."""
        cells, courts = centre_first(state)
        key = state_key(cells, courts, stock)
        keys, values = self.layers.get(sum(stock), (np.zeros(0, np.int64), np.zeros(0)))
        i = int(np.searchsorted(keys, key))
        if i == len(keys) or keys[i] != key:
            raise MissingTableError(f"state {state!r} with unseen {list(stock)!r} is not in the rearranging table")
        return float(values[i])
