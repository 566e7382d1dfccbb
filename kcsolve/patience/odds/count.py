"""The exact chance that a shuffled deck can be won, by counting winning orders instead of sampling.

With sets of pairs a deal is winnable exactly when its forced course reaches the
goal (docs/THEORY.md, Theorems 2 and 5): the course draws into the free cells until
the grid is full, then every Ten, every pair summing to 10 and every two Fives go,
and it jams when a full grid has nothing to go. Under the courts goal it wins at the
twelfth court card; under the deplete and clear goals, at the empty stock. The
course depends only on the order of card *classes* (a court card, a Ten, a Five, one
side of a family {A,9}, {2,8}, {3,7}, {4,6}), so the winning class sequences are
counted (by :mod:`kcsolve.patience.odds.core`) and each stands for the same number
of card orders.

The deck's shape is a parameter (grid size, court cards, copies of each value,
families), so that small decks can be checked against every order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import factorial, isqrt, prod

import numpy as np

from kcsolve.common.cards import TEN, Card
from kcsolve.errors import KcsolveError
from kcsolve.patience.odds import core as oddscore
from kcsolve.patience.rules import Goal, Rules, Sets

FAMILIES = ((1, 9), (2, 8), (3, 7), (4, 6))


class UncountableRulesError(KcsolveError):
    """Rules whose sets are not pairs: there no forced course decides the deal, and nothing here counts it."""


class InvalidKnownCardsError(KcsolveError):
    """Known cards that are no legal start of a deck: a duplicate, a fifth of a rank, or cards past the end."""


@dataclass(frozen=True)
class Shape:
    """The size of the game: cells in the grid, court cards, copies of each number value, families {v, 10 - v}."""

    grid: int = 16
    courts: int = 12
    copies: int = 4
    families: int = 4

    @property
    def deck(self) -> int:
        """Cards in the deck: the court cards, then Tens, Fives and both sides of each family."""
        return self.courts + self.copies * (2 + 2 * self.families)

    def check(self) -> None:
        """Refuse shapes the packed state cannot hold."""
        if not (
            1 <= self.grid <= 16
            and 0 <= self.courts <= 15
            and 1 <= self.copies <= oddscore.MAX_COPIES
            and 0 <= self.families <= oddscore.MAX_FAMILIES
        ):
            raise ValueError(f"cannot count a deck of shape {self!r}")


FULL = Shape()


@dataclass(frozen=True)
class Odds:
    """Winning orders among all orders of the cards not known, and the probability they make."""

    winning: int
    orders: int
    known: int
    states: int = 0

    @property
    def probability(self) -> Fraction:
        """The exact probability, reduced."""
        return Fraction(self.winning, self.orders)


@dataclass
class ClassCourse:
    """The forced course after some cards, by card class rather than value: counts drawn and on the grid."""

    shape: Shape
    courts: int = 0
    tens: int = 0
    tens_on_grid: int = 0
    fives: int = 0
    fives_on_grid: int = 0
    sides: tuple[list[int], list[int], list[int]] = field(init=False)

    def __post_init__(self) -> None:
        n = self.shape.families
        self.sides = ([0] * n, [0] * n, [0] * n)  # drawn of side one, drawn of side two, pairs on the grid

    def drawn(self) -> int:
        """Cards drawn so far."""
        return self.courts + self.tens + self.fives + sum(self.sides[0]) + sum(self.sides[1])

    def on_grid(self) -> int:
        """Cards on the grid: a family holds its pairs plus the surplus of its larger side."""
        a, b, m = self.sides
        return (
            self.courts + self.tens_on_grid + self.fives_on_grid + sum(abs(x - y) + 2 * p for x, y, p in zip(a, b, m))
        )

    def draw(self, kind: str, family: int = 0, side: int = 0) -> None:
        """Draw one card of a class: 'court', 'ten', 'five', or one ``side`` (0 or 1) of ``family``."""
        if kind == "court":
            self.courts += 1
        elif kind == "ten":
            self.tens += 1
            self.tens_on_grid += 1
        elif kind == "five":
            self.fives += 1
            self.fives_on_grid += 1
        else:
            mine, other, pairs = self.sides[side], self.sides[1 - side], self.sides[2]
            if mine[family] < other[family]:
                pairs[family] += 1
            mine[family] += 1

    def remove(self) -> bool:
        """Forced pair removal from the full grid; False when nothing can go (a jam)."""
        if self.tens_on_grid == 0 and self.fives_on_grid < 2 and not any(self.sides[2]):
            return False
        self.tens_on_grid = 0
        self.fives_on_grid %= 2
        self.sides[2][:] = [0] * self.shape.families
        return True

    def left(self) -> list[int]:
        """Cards left in the stock, per class."""
        q = self.shape.copies
        return (
            [self.shape.courts - self.courts, q - self.tens, q - self.fives]
            + [q - x for x in self.sides[0]]
            + [q - y for y in self.sides[1]]
        )

    def key(self) -> int:
        """The packed canonical state of the compiled core."""
        a, b, m = self.sides
        codes = np.zeros(oddscore.MAX_FAMILIES, np.int64)
        for i in range(self.shape.families):
            codes[i] = oddscore.family_code(a[i], b[i])
        paired = self.tens_on_grid + self.fives_on_grid - self.fives % 2 + 2 * sum(m)
        return int(oddscore.pack(self.courts, self.tens, self.fives, paired, codes, self.shape.families))


def check_countable(rules: Rules) -> None:
    """Refuse rules this counting does not cover: it needs sets of pairs, where the forced course decides."""
    if rules.sets is not Sets.PAIRS:
        raise UncountableRulesError(
            f"cannot count rules {str(rules)!r}: the count follows the forced course, which decides the deal only "
            "when sets are pairs"
        )


def primes_below(limit: int, count: int) -> list[int]:
    """The ``count`` largest primes below ``limit``, by trial division."""
    found: list[int] = []
    n = limit - 1
    while len(found) < count:
        if n > 1 and all(n % d for d in range(2, isqrt(n) + 1)):
            found.append(n)
        n -= 1
    return found


def _moduli(bound: int) -> list[int]:
    """Primes below 2**31 whose product exceeds ``bound``, so residues determine any count up to it."""
    count = 1
    while prod(primes_below(1 << 31, count)) <= bound:
        count += 1
    return primes_below(1 << 31, count)


def _tables(primes: list[int], size: int) -> tuple[np.ndarray, np.ndarray]:
    """Factorials and their inverses up to ``size``, modulo each prime."""
    fact = np.zeros((len(primes), size + 1), np.int64)
    inverse = np.zeros((len(primes), size + 1), np.int64)
    for k, p in enumerate(primes):
        value = 1
        for n in range(size + 1):
            fact[k, n] = value
            inverse[k, n] = pow(value, -1, p)
            value = value * (n + 1) % p
    return fact, inverse


def _crt(residues: list[int], primes: list[int]) -> int:
    """The least non-negative number with the given residues."""
    total, modulus = 0, 1
    for r, p in zip(residues, primes):
        step = (r - total) * pow(modulus, -1, p) % p
        total += modulus * step
        modulus *= p
    return total


def multinomial(counts: list[int]) -> int:
    """Distinct orders of a multiset with these multiplicities."""
    return factorial(sum(counts)) // prod(factorial(n) for n in counts)


def winning_sequences(course: ClassCourse, stop_at_courts: bool) -> tuple[int, int, int]:
    """(winning class sequences, all class sequences, states visited) for the cards left after ``course``."""
    shape = course.shape
    left = course.left()
    total = multinomial(left)
    primes = _moduli(total)
    fact, inverse = _tables(primes, shape.deck)
    result = oddscore.count_wins(
        course.key(),
        shape.deck,
        shape.grid,
        shape.courts,
        shape.copies,
        shape.families,
        stop_at_courts,
        np.array(primes, np.int64),
        fact,
        inverse,
    )
    wins = _crt([int(r) for r in result[:-1]], primes)
    return wins, total, int(result[-1])


def class_of(rank: int) -> tuple[str, int, int]:
    """The class of a card of ``rank`` in the full deck: (kind, family, side)."""
    if rank > TEN:
        return ("court", 0, 0)
    if rank == TEN:
        return ("ten", 0, 0)
    if rank == 5:
        return ("five", 0, 0)
    family = next(i for i, pair in enumerate(FAMILIES) if rank in pair)
    return ("side", family, FAMILIES[family].index(rank))


def odds(rules: Rules, known: list[Card] | tuple[Card, ...] = ()) -> Odds:
    """The exact chance that a uniformly shuffled deck, starting with ``known``, can be won under ``rules``."""
    check_countable(rules)
    stop_at_courts = rules.goal is Goal.COURTS
    course = after_known(known, stop_at_courts)
    orders = factorial(FULL.deck - len(known))
    wins, total, states = winning_sequences(course, stop_at_courts)
    return Odds(wins * (orders // total), orders, len(known), states)


def after_known(known: list[Card] | tuple[Card, ...], stop_at_courts: bool) -> ClassCourse:
    """The course after the known cards, which must leave the game undecided."""
    seen: set[Card] = set()
    per_rank = [0] * 14
    course = ClassCourse(FULL)
    for position, card in enumerate(known, start=1):
        if card.suit is not None and card in seen:
            raise InvalidKnownCardsError(f"known card {position}, {str(card)!r}, is a duplicate")
        seen.add(card)
        per_rank[card.rank] += 1
        if per_rank[card.rank] > 4:
            raise InvalidKnownCardsError(f"known card {position}, {str(card)!r}, is a fifth of its rank")
        course.draw(*class_of(card.rank))
        if (stop_at_courts and course.courts == FULL.courts) or course.drawn() == FULL.deck:
            raise InvalidKnownCardsError(f"known card {position}, {str(card)!r}, already wins the game")
        if course.on_grid() == FULL.grid and not course.remove():
            raise InvalidKnownCardsError(
                f"known card {position}, {str(card)!r}, fills the grid with nothing to remove: the game is lost"
            )
    return course
