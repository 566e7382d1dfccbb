"""The exact chance that a shuffled deck can be won, by counting winning orders instead of sampling.

Under forced removal by pairs a deal is winnable exactly when its forced course reaches
the goal (docs/THEORY.md): the course draws into the free cells until the grid is
full, then every Ten, every pair summing to 10 and every two Fives go, and it jams
when a full grid has nothing to go. The course depends only on the order of card
*classes*: a court card (any of the twelve), a Ten, a Five, or one side of a
family {A,9}, {2,8}, {3,7}, {4,6}. So the number of winning orders of the cards
still in the stock is a function of a small state, counted once per state:

    W(state) = sum over classes k of  (cards of k left) * W(state after drawing a k)

with W = (cards left)! once the goal is reached and W = 0 at a jam. The four
families behave identically and so do the two sides of a family, so a state keeps
its families as a sorted tuple of canonical (drawn, drawn, on grid, on grid) per
family; that symmetry is what makes the whole deck countable.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial

from ..common.cards import DECK_SIZE, TEN, Card
from .rules import Goal, Removal, Rules, Sets

GRID = 16
COURTS = 12
FAMILIES = ((1, 9), (2, 8), (3, 7), (4, 6))


class UncountableRulesError(ValueError):
    """Rules whose sets are not pairs: there the course is not forced, and nothing here counts it."""


class InvalidKnownCardsError(ValueError):
    """Known cards that are no legal start of a deck: a duplicate, a fifth of a rank, or cards past the end."""


@dataclass(frozen=True)
class Odds:
    """Winning orders among all orders of the cards not known, and the probability they make."""

    winning: int
    orders: int
    known: int

    @property
    def probability(self) -> Fraction:
        """The exact probability, reduced."""
        return Fraction(self.winning, self.orders)


# A state: (courts drawn, tens drawn, tens on the grid, fives drawn, fives on the grid, families),
# each family (side-one drawn, side-two drawn, side-one on the grid, side-two on the grid).
State = tuple[int, int, int, int, int, tuple[tuple[int, int, int, int], ...]]
START: State = (0, 0, 0, 0, 0, ((0, 0, 0, 0),) * 4)


def check_countable(rules: Rules) -> None:
    """Refuse rules this counting does not cover: it needs forced removal by pairs, where the course is forced."""
    if rules.sets is not Sets.PAIRS or rules.removal is not Removal.FORCED:
        raise UncountableRulesError(
            f"cannot count rules {str(rules)!r}: the count follows the forced course, which needs forced removal "
            "by pairs"
        )


def canonical(state: State) -> State:
    """The state with each family's sides and the families themselves in a fixed order."""
    c, t, tg, f, fg, families = state
    return (c, t, tg, f, fg, tuple(sorted(max(fam, (fam[1], fam[0], fam[3], fam[2])) for fam in families)))


def drawn(state: State) -> int:
    """Cards drawn so far."""
    c, t, _, f, _, families = state
    return c + t + f + sum(a + b for a, b, _, _ in families)


def on_grid(state: State) -> int:
    """Cards on the grid."""
    c, _, tg, _, fg, families = state
    return c + tg + fg + sum(ga + gb for _, _, ga, gb in families)


def removal(state: State) -> State | None:
    """The state after forced pair removal from a full grid, or None when nothing can go (a jam)."""
    c, t, tg, f, fg, families = state
    paired = tuple((a, b, ga - min(ga, gb), gb - min(ga, gb)) for a, b, ga, gb in families)
    if tg == 0 and fg < 2 and paired == families:
        return None
    return (c, t, 0, f, fg % 2, paired)


def draws(state: State) -> list[tuple[int, State, bool]]:
    """(cards of the class left, state after drawing one, whether it is a court card) for each class left."""
    c, t, tg, f, fg, families = state
    options = []
    if c < COURTS:
        options.append((COURTS - c, (c + 1, t, tg, f, fg, families), True))
    if t < 4:
        options.append((4 - t, (c, t + 1, tg + 1, f, fg, families), False))
    if f < 4:
        options.append((4 - f, (c, t, tg, f + 1, fg + 1, families), False))
    for i, (a, b, ga, gb) in enumerate(families):
        rest = families[:i] + families[i + 1 :]
        if a < 4:
            options.append((4 - a, (c, t, tg, f, fg, rest + ((a + 1, b, ga + 1, gb),)), False))
        if b < 4:
            options.append((4 - b, (c, t, tg, f, fg, rest + ((a, b + 1, ga, gb + 1),)), False))
    return [(n, canonical(s), court) for n, s, court in options]


def winning_orders(state: State, stop_at_courts: bool) -> int:
    """How many orders of the cards still in the stock win from ``state`` (a point between two draws)."""
    return _count(canonical(state), stop_at_courts)


@lru_cache(maxsize=None)
def _count(state: State, stop_at_courts: bool) -> int:
    left = DECK_SIZE - drawn(state)
    if left == 0:
        return 1
    if on_grid(state) == GRID:
        after = removal(state)
        return 0 if after is None else _count(canonical(after), stop_at_courts)
    total = 0
    for number, after, court in draws(state):
        if court and stop_at_courts and after[0] == COURTS:
            total += number * factorial(left - 1)
        else:
            total += number * _count(after, stop_at_courts)
    return total


def odds(rules: Rules, known: list[Card] | tuple[Card, ...] = ()) -> Odds:
    """The exact chance that a uniformly shuffled deck, starting with ``known``, can be won under ``rules``."""
    check_countable(rules)
    stop_at_courts = rules.goal is Goal.COURTS
    state, finished = _after_known(known, stop_at_courts)
    orders = factorial(DECK_SIZE - len(known))
    if finished is not None:
        return Odds(orders if finished else 0, orders, len(known))
    return Odds(winning_orders(state, stop_at_courts), orders, len(known))


def _after_known(known: list[Card] | tuple[Card, ...], stop_at_courts: bool) -> tuple[State, bool | None]:
    """The state after the known cards are drawn (removals included), and True/False if they already end it."""
    seen: set[Card] = set()
    per_rank = [0] * 14
    state = START
    for position, card in enumerate(known, start=1):
        if card.suit is not None and card in seen:
            raise InvalidKnownCardsError(f"known card {position}, {str(card)!r}, is a duplicate")
        seen.add(card)
        per_rank[card.rank] += 1
        if per_rank[card.rank] > 4:
            raise InvalidKnownCardsError(f"known card {position}, {str(card)!r}, is a fifth of its rank")
        if on_grid(state) == GRID:
            after = removal(state)
            if after is None:
                raise InvalidKnownCardsError(f"known card {position}, {str(card)!r}, comes after the course has jammed")
            state = after
        state = _draw(state, card.rank)
        if stop_at_courts and state[0] == COURTS and position < len(known):
            raise InvalidKnownCardsError(f"known card {position + 1} comes after the twelfth court card has won")
    if stop_at_courts and state[0] == COURTS:
        return state, True
    if on_grid(state) == GRID and drawn(state) < DECK_SIZE and removal(state) is None:
        return state, False
    return state, None


def _draw(state: State, rank: int) -> State:
    """The state after drawing a card of ``rank`` (not canonical: family order follows FAMILIES)."""
    c, t, tg, f, fg, families = state
    if rank > TEN:
        return (c + 1, t, tg, f, fg, families)
    if rank == TEN:
        return (c, t + 1, tg + 1, f, fg, families)
    if rank == 5:
        return (c, t, tg, f + 1, fg + 1, families)
    index = next(i for i, pair in enumerate(FAMILIES) if rank in pair)
    a, b, ga, gb = families[index]
    new = (a + 1, b, ga + 1, gb) if rank == FAMILIES[index][0] else (a, b + 1, ga, gb + 1)
    return (c, t, tg, f, fg, families[:index] + (new,) + families[index + 1 :])
