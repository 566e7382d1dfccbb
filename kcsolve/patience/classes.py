"""The classes of cells and the class-level state of the grid: what a player who cannot see the deck keeps of it.

The cells fall into four classes of four: the centre, the corners (the Kings'
home), the Queen cells and the Jack cells (:mod:`kcsolve.patience.engine` names
their cells). Cells of one class are interchangeable for a player who keeps court
cards on their home cells, which every rule set allows, so the players, the
solver's memo and the no-peek research think in classes. One vocabulary for them
all:

- ``CENTRE``, ``KINGS``, ``QUEENS``, ``JACKS``: the class indices 0..3, the order
  of every class view and class state;
- ``CLASS_CELLS``: the cells of each class, by class index (``CENTRE_CELLS``,
  ``CORNERS``, ``QUEEN_CELLS``, ``JACK_CELLS`` of the engine);
- ``CLASS_COUNT``: how many classes there are; ``CLASS_SIZE``: how many cells each has;
- a *class view* (:func:`class_view`): the number values and the court cards in
  each class, as lists; a *class state* (:data:`ClassState`, :func:`class_state`):
  the same with each class's values sorted, as tuples, so equal states are equal.
"""

from __future__ import annotations

from collections.abc import Callable

from kcsolve.common.cards import JACK, KING, QUEEN, TEN, Card
from kcsolve.patience.engine import CENTRE_CELLS, CORNERS, EDGE_PAIRS, EDGES, JACK_CELLS, QUEEN_CELLS
from kcsolve.patience.rules import Courts, Rules

CENTRE, KINGS, QUEENS, JACKS = 0, 1, 2, 3  # the class indices: the centre, the corners, the Queen cells, the Jack cells
CLASS_COUNT = 4  # the number of classes
CLASS_SIZE = 4  # the number of cells in each class
CLASS_CELLS = (CENTRE_CELLS, CORNERS, QUEEN_CELLS, JACK_CELLS)  # the cells of each class, by class index
CLASS_OF = {cell: c for c, cells in enumerate(CLASS_CELLS) for cell in cells}  # the class index of each cell
KIND_CLASS = {KING: KINGS, QUEEN: QUEENS, JACK: JACKS}  # the home class of each court rank

ClassContents = tuple[tuple[int, ...], ...]  # the number values in each class, sorted
ClassState = tuple[ClassContents, tuple[int, ...]]  # the class contents and the court cards in each class
ClassView = tuple[list[list[int]], list[int]]  # the same as lists, values in cell order (:func:`class_view`)


def class_view(grid: tuple[Card | None, ...]) -> ClassView:
    """The number values and the court cards in each class of cells (centre, corners, Queens, Jacks)."""
    cells: list[list[int]] = [[], [], [], []]
    courts = [0, 0, 0, 0]
    for c, home in enumerate(CLASS_CELLS):
        for cell in home:
            card = grid[cell]
            if card is None:
                continue
            rank = card.rank
            if rank > TEN:
                courts[c] += 1
            else:
                cells[c].append(rank)
    return cells, courts


def class_state(grid: tuple[Card | None, ...]) -> ClassState:
    """The class state of a grid: its class view with each class's values sorted, as tuples."""
    cells, courts = class_view(grid)
    return (tuple(tuple(sorted(c)) for c in cells), tuple(courts))


def with_value(cells: ClassContents, c: int, value: int) -> ClassContents:
    """The class contents with a number card of ``value`` added to class ``c``."""
    return (*cells[:c], tuple(sorted((*cells[c], value))), *cells[c + 1 :])


def canonical_key_function(rules: Rules) -> Callable[[tuple[int, ...]], tuple]:
    """The function giving a grid's canonical key: cells of one class are interchangeable.

    The grid is a rank per cell, 0 for an empty one. Under ``royals`` the twelve
    cells around the centre form one class; under ``swap`` the Queen and Jack
    cells form four interchangeable edge pairs instead of two classes.
    """
    corners, centre = CORNERS, CENTRE_CELLS
    if rules.courts is Courts.ROYALS:

        def royals_key(g: tuple[int, ...]) -> tuple:
            return (tuple(sorted([g[c] for c in EDGES])), tuple(sorted([g[c] for c in centre])))

        return royals_key
    if rules.courts is Courts.SWAP:

        def swap_key(g: tuple[int, ...]) -> tuple:
            return (
                tuple(sorted([g[c] for c in corners])),
                tuple(sorted([g[c] for c in centre])),
                tuple(sorted([(g[a], g[b]) if g[a] <= g[b] else (g[b], g[a]) for a, b in EDGE_PAIRS])),
            )

        return swap_key

    queens, jacks = QUEEN_CELLS, JACK_CELLS

    def fixed_key(g: tuple[int, ...]) -> tuple:
        return (
            tuple(sorted([g[c] for c in corners])),
            tuple(sorted([g[c] for c in queens])),
            tuple(sorted([g[c] for c in jacks])),
            tuple(sorted([g[c] for c in centre])),
        )

    return fixed_key
