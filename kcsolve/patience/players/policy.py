"""The simple players who cannot see the deck (random, greedy), who think in classes of cells, and a deal's difficulty.

Cells of one class (centre, corners, Queen cells, Jack cells) are
interchangeable for a player who keeps court cards on their home cells, which
every rule set allows, so the greedy player thinks in classes: the number cards
in each class and its court cards (the class view of :mod:`kcsolve.patience.classes`).
It knows only what it has seen: the cards already drawn, and so the multiset
still in the stock, never its order.

The greedy player:
- puts a number card in the centre while the centre has room;
- otherwise, in the court class with most room to spare (free cells minus court
  cards of that kind still to come), preferring a court class for a card whose
  partner is on the grid (it will leave at the next removal) and for a card
  that cannot stay long;
- puts a court card on its home cells;
- makes every removal it may, freeing first the court class that needs room most.
"""

from __future__ import annotations

import random

from kcsolve.common.cards import JACK, KING, QUEEN, TEN
from kcsolve.patience.classes import CENTRE, CLASS_OF, KIND_CLASS, class_view
from kcsolve.patience.engine import Move, Place, PlayerView, Remove
from kcsolve.patience.solve.theory import forced_takes


def _placement_score(
    c: int, rank: int, free: list[int], cells: list[list[int]], unseen: list[int], to_come: dict[int, int]
) -> float:
    """How good class ``c`` is for a number card of ``rank``: higher is better.

    The centre first; then the court class with most room to spare, more so for
    a card likely to leave soon (its partner is on the grid, or it is a Ten).
    """
    if c == CENTRE:
        return 100.0
    kind = (KING, QUEEN, JACK)[c - 1]
    room = free[c] - to_come[kind]
    partner = TEN - rank
    if rank == TEN:
        leaves = 2.0
    else:
        on_grid = sum(cell.count(partner) for cell in cells)
        leaves = 1.0 if on_grid else (0.5 if unseen[partner] else -2.0)
    return room + leaves


def takes_from(cells: list[list[int]] | tuple) -> list[int]:
    """How many cards of each value forced pair removal takes from the class contents of a full grid."""
    count = [0] * (TEN + 1)
    for cell in cells:
        for value in cell:
            count[value] += 1
    return forced_takes(count)


# Players: each is told only a PlayerView and returns the move it makes.


def random_player(view: PlayerView, rng: random.Random) -> Move:
    """Any legal move, uniformly at random."""
    moves = view.legal_moves()
    return moves[int(rng.random() * len(moves))]


def greedy_player(view: PlayerView) -> Move:
    """The good player without noise: the best-scored class for a card, the neediest class freed first.

    Under any rules: a court card goes to its home class, and whenever a
    removal may be made it is made (under optional removal too).
    """
    moves = view.legal_moves()
    cells, courts = class_view(view.grid)
    stock = [card.rank for card in ((view.in_hand,) if view.in_hand is not None else ()) + view.unseen]
    to_come = {kind: stock.count(kind) for kind in KIND_CLASS}
    free = [4 - len(cells[c]) - courts[c] for c in range(4)]
    removals = [m for m in moves if isinstance(m, Remove)]
    if not removals:
        places = [m for m in moves if isinstance(m, Place)]  # all of them: with no removal open, the card goes in
        card = view.in_hand
        if card is None:
            return moves[0]
        if card.rank > TEN:  # home cells first: under swap and royals courts may go elsewhere too
            return next((m for m in places if CLASS_OF[m.cell] == KIND_CLASS[card.rank]), moves[0])
        unseen = [0] * (TEN + 1)
        for rank in stock[1:]:
            if rank <= TEN:
                unseen[rank] += 1
        return max(places, key=lambda m: _placement_score(CLASS_OF[m.cell], card.rank, free, cells, unseen, to_come))
    need = [0.0] + [to_come[kind] - free[c] for c, kind in ((1, KING), (2, QUEEN), (3, JACK))]
    return max(removals, key=lambda m: sum(need[CLASS_OF[c]] for c in m.cells))
