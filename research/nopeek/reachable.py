"""Which no-peek states the standard game reaches, and how many each layer holds, counted without a search.

The search in ``nopeek`` lists states and cannot pass the wide layers near the
first full grid; ``nopeek.early_layers`` counts layers 0..15 by a formula. This
module counts every layer, by dynamic programming over the values.

A state (docs/THEORY.md, section 10) is the grid (number values per class, court
cards per class) and the cards removed (pairs of each family, pairs of Fives,
Tens); its layer is the number of cards drawn. Whether a state is reached depends
only on a few figures of it (docs/THEORY.md, Theorem 10):

- *kept*: the most number cards of the grid, Fives aside, among which no two make
  ten: of each family, the side with more cards on the grid;
- whether the grid holds a Five;
- the court cards placed;
- the pairs removed (all families together), the pairs of Fives and the Tens.

``history`` finds the removals of a game that reaches it, splitting the removals
made so far, the latest first; ``reachable`` says whether there are any.
``layer_counts`` counts, per layer, the states with nothing removed (layers 0..15;
they repeat ``early_layers``), the states reached after a removal, and the states
that merely agree with the deck (at most four cards of a value or court kind, court
cards at home, the grid not full, fewer than twelve court cards, something
removed, at least 16 cards drawn): their excess over the reached ones is what the
rule excludes. Orbits under the family renamings and court-kind
permutations are counted by Burnside's lemma, as in ``early_layers``.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from kcsolve.patience.classes import CLASS_COUNT
from research.nopeek.nopeek import (
    MODES,
    ORDER,
    InvalidNoPeekStateError,
    _cycles,
    _fixed_columns,
    _symmetries,
)

LAYERS = 52
GRID = 16
KEPT = 17  # 0..16
PAIRS = 17  # pairs of the four families removed: 0..16
FIVE_PAIRS = 3
TENS = 5
FIVE = 4  # value index of the Five
TEN = 9
Block = dict[tuple[int, ...], int]  # (cards added per class..., figures added...) -> ways


@dataclass(frozen=True)
class LayerCounts:
    """Per layer (cards drawn, 0..51): states with nothing removed, states reached after a removal, valid ones."""

    early: tuple[int, ...]
    reached: tuple[int, ...]
    valid: tuple[int, ...]

    def states(self, drawn: int) -> int:
        """Every state reached with ``drawn`` cards drawn."""
        return self.early[drawn] + self.reached[drawn]


class Step(NamedTuple):
    """One removal of a game that reaches a state: what it takes, and the full grid it takes it from."""

    pairs: int  # pairs of the four families, all together
    five_pairs: int
    tens: int
    placed: int  # court cards on the grid
    survivors: int  # number cards left, with no set among them
    five: bool  # a Five among the survivors


@functools.cache
def _history(cap: int, five_ok: bool, courts: int, pairs: int, five_pairs: int, tens: int) -> tuple[Step, ...] | None:
    """Removals, the earliest first, that the removals left can be split into, given what comes after them.

    At each removal the grid is full: its court cards, the survivors (number cards
    with no set among them) and the cards removed. The survivors of a removal are
    among the cards of the next full grid (or of the grid now, for the latest), so
    they number at most ``cap`` without Fives, hold a Five only if ``five_ok``, and
    sit beside at most ``courts`` court cards. That bound on the survivors also
    keeps the cards drawn between two removals within the cells the earlier one
    freed, and a removal within 16 cards (docs/THEORY.md, Theorem 10). The first
    removal, at the 16th card, needs nothing before it. None when there is no such
    split.
    """
    for p, e, t in itertools.product(range(pairs + 1), range(five_pairs + 1), range(tens + 1)):
        size = 2 * p + 2 * e + t
        if not size:
            continue
        for placed in range(courts + 1):
            survivors = GRID - size - placed
            for five in (0, 1) if five_ok else (0,):
                if five > survivors or survivors - five > cap:
                    continue
                step = Step(p, e, t, placed, survivors, bool(five))
                if (p, e, t) == (pairs, five_pairs, tens):
                    return (step,)
                before = _history(
                    min(GRID, survivors - five + p), bool(five or e), placed, pairs - p, five_pairs - e, tens - t
                )
                if before is not None:
                    return (*before, step)
    return None


def history(kept: int, five: bool, placed: int, pairs: int, five_pairs: int, tens: int) -> tuple[Step, ...] | None:
    """The removals of a game that reaches a valid state with these figures (see the module's docstring), or None.

    A state with nothing removed has no removals and is reached: any placement is.
    """
    if not pairs and not five_pairs and not tens:
        return ()
    return _history(kept, five, placed, pairs, five_pairs, tens)


def reachable(kept: int, five: bool, placed: int, pairs: int, five_pairs: int, tens: int) -> bool:
    """Whether a valid state with these figures is reached by some game and play."""
    return history(kept, five, placed, pairs, five_pairs, tens) is not None


def _add(block: Block, added: tuple[int, ...], *figures: int) -> None:
    """Count one more way for a block to add cards per class and its figures."""
    if max(added) <= 4:
        key = (*added, *figures)
        block[key] = block.get(key, 0) + 1


def _family_cycles(values: tuple[int, ...]) -> list[tuple[int, bool]]:
    """Each cycle of the values Ace..Four and Six..Nine, with its mirror taken once: (length, holds both sides)."""
    found = []
    seen: set[int] = set()
    for start in [v for v in range(10) if v not in (FIVE, TEN)]:
        if start in seen:
            continue
        cycle, v = [], start
        while v not in cycle:
            cycle.append(v)
            v = values[v]
        mirror = {8 - v for v in cycle}
        seen.update(cycle)
        seen.update(mirror)
        found.append((len(cycle), mirror == set(cycle)))
    return sorted(found)


def _family_blocks(values: tuple[int, ...], classes: tuple[int, ...]) -> list[Block]:
    """What each cycle of families adds to a placement one symmetry fixes: cards per class, kept, pairs removed.

    A cycle of values that holds both sides of its families carries one column (both
    sides then have as many cards, so each family keeps that many); otherwise the
    cycle and its mirror carry one column each. The pairs removed are equal along a
    cycle of families, since the removals are fixed too.
    """
    blocks: list[Block] = []
    for length, both_sides in _family_cycles(values):
        block: Block = {}
        if both_sides:
            families = length // 2
            for size, added in _fixed_columns(length, classes):
                for pairs in range(5 - size):
                    _add(block, added, families * size, pairs * families)
        else:
            columns = _fixed_columns(length, classes)
            for (size_x, added_x), (size_y, added_y) in itertools.product(columns, columns):
                both = tuple(a + b for a, b in zip(added_x, added_y))
                for pairs in range(5 - max(size_x, size_y)):
                    _add(block, both, length * max(size_x, size_y), pairs * length)
        blocks.append(block)
    return blocks


def _five_and_ten(classes: tuple[int, ...]) -> Block:
    """What the Fives and the Tens add: cards per class, a Five on the grid, pairs of Fives and Tens removed."""
    block: Block = {}
    columns = _fixed_columns(1, classes)
    for (fives, added_5), (tens, added_10) in itertools.product(columns, columns):
        both = tuple(a + b for a, b in zip(added_5, added_10))
        for five_pairs, removed in itertools.product(range((4 - fives) // 2 + 1), range(5 - tens)):
            _add(block, both, min(fives, 1), five_pairs, removed)
    return block


def _convolve(table: np.ndarray, block: Block) -> np.ndarray:
    """The placements so far combined with every way of a family block (cards per class capped at four)."""
    grown = np.zeros_like(table)
    for (a0, a1, a2, a3, kept, pairs), ways in block.items():
        grown[a0:, a1:, a2:, a3:, kept:, pairs:] += (
            ways * table[: 5 - a0, : 5 - a1, : 5 - a2, : 5 - a3, : KEPT - kept, : PAIRS - pairs]
        )
    return grown


def _fixed_counts(
    values: tuple[int, ...], classes: tuple[int, ...], placed_only: int | None, rule: np.ndarray
) -> tuple[list[int], list[int], list[int]]:
    """Per layer, the states with nothing removed, reached and valid that one symmetry leaves unchanged."""
    families = np.zeros((5, 5, 5, 5, KEPT, PAIRS), np.int64)
    families[0, 0, 0, 0, 0, 0] = 1
    for block in _family_blocks(values, classes):
        families = _convolve(families, block)
    # grid: [cards per class x4, kept, a Five on the grid, pairs, pairs of Fives, Tens]
    grid = np.zeros((5, 5, 5, 5, KEPT, 2, PAIRS, FIVE_PAIRS, TENS), np.int64)
    for (a0, a1, a2, a3, five, five_pairs, tens), ways in _five_and_ten(classes).items():
        grid[a0:, a1:, a2:, a3:, :, five, :, five_pairs, tens] += (
            ways * families[: 5 - a0, : 5 - a1, : 5 - a2, : 5 - a3]
        )
    sizes = np.indices((5, 5, 5, 5)).sum(axis=0)
    early, reached, valid = [0] * LAYERS, [0] * LAYERS, [0] * LAYERS
    for kinds in itertools.product(range(5), repeat=3):
        courts = (0, *kinds)
        placed = sum(kinds)
        if placed >= 12 or placed_only not in (None, placed):
            continue
        if any(courts[classes[c]] != courts[c] for c in range(CLASS_COUNT)):
            continue
        part = grid[:, : 5 - kinds[0], : 5 - kinds[1], : 5 - kinds[2]]
        numbers = sizes[:, : 5 - kinds[0], : 5 - kinds[1], : 5 - kinds[2]]
        for n in range(GRID - placed):
            here = part[numbers == n]  # [state, kept, five, pairs, five pairs, tens]
            every = here.sum(axis=(0, 1, 2))
            kept = (here * rule[:, :, placed]).sum(axis=(0, 1, 2))
            early[n + placed] += int(every[0, 0, 0])
            for pairs, five_pairs, tens in zip(*np.nonzero(every)):
                drawn = n + placed + 2 * pairs + 2 * five_pairs + tens
                if drawn < GRID:
                    continue
                valid[drawn] += int(every[pairs, five_pairs, tens])
                reached[drawn] += int(kept[pairs, five_pairs, tens])
    return early, reached, valid


def _rule_table() -> np.ndarray:
    """``reachable`` for every figure of a state after a removal: [kept, five, placed, pairs, five pairs, Tens]."""
    table = np.zeros((KEPT, 2, 12, PAIRS, FIVE_PAIRS, TENS), np.int64)
    for index in itertools.product(range(KEPT), range(2), range(12), range(PAIRS), range(FIVE_PAIRS), range(TENS)):
        if any(index[3:]):
            table[index] = reachable(index[0], bool(index[1]), *index[2:])
    return table


def layer_counts(mode: int = 0, placed: int | None = None) -> LayerCounts:
    """The states per layer under the symmetry of ``mode`` (Burnside's lemma over its group).

    ``placed`` keeps only the states with that many court cards placed: the
    symmetries keep that number, so the slice is counted the same way.
    """
    if mode not in MODES:
        raise InvalidNoPeekStateError(f"unknown symmetry mode {mode!r} (modes: 0, 1, 2)")
    rule = _rule_table()
    done: dict[tuple, tuple[list[int], list[int], list[int]]] = {}
    totals = [[0] * LAYERS for _ in range(3)]
    for values, classes in _symmetries(mode):
        # the counts depend only on how the families cycle and on the cycle lengths of the classes
        kind = (tuple(_family_cycles(values)), tuple(sorted(_cycles(classes))))
        if kind not in done:
            done[kind] = _fixed_counts(values, classes, placed, rule)
        for total, fixed in zip(totals, done[kind]):
            for d in range(LAYERS):
                total[d] += fixed[d]
    size = ORDER[mode]
    assert all(n % size == 0 for total in totals for n in total), "Burnside's average is a whole number"
    early, reached, valid = ([n // size for n in total] for total in totals)
    return LayerCounts(tuple(early), tuple(reached), tuple(valid))
