"""Players who cannot see the deck, and the difficulty of a deal measured by their playouts.

The playouts run on a compact model of the game under forced pair removal: for
each class of cells (centre, corners, Queen cells, Jack cells) the number cards
in it and its court cards. Cells of one class are interchangeable, so this is
the whole game for such a player. The player knows only what it has seen: the
cards already drawn, and so the multiset still in the stock, never its order.
Under ``swap`` and ``royals`` the player keeps courts on their home cells,
which those rules allow.

The randomised good player:
- puts a number card in the centre while the centre has room;
- otherwise, in the court class with most room to spare (free cells minus court
  cards of that kind still to come), preferring a court class for a card whose
  partner is on the grid (it will leave at the next removal) and for a card
  that cannot stay long;
- when a removal may take one of several equal cards, takes the one in the court
  class that needs room most;
- with probability ``noise`` makes a uniformly random legal placement instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..common.cards import JACK, KING, QUEEN, TEN
from .engine import CENTRE as CENTRE_CELLS
from .engine import CORNERS, EMPTY, JACK_CELLS, QUEEN_CELLS, Move, Position, Remove
from .rules import Goal, Removal, Rules, Sets
from .theory import forced_takes

CENTRE, KINGS, QUEENS, JACKS = 0, 1, 2, 3
KIND_CLASS = {KING: KINGS, QUEEN: QUEENS, JACK: JACKS}
CLASSES = (CENTRE_CELLS, CORNERS, QUEEN_CELLS, JACK_CELLS)  # the cells of classes 0..3
CLASS_OF = {cell: c for c, home in enumerate(CLASSES) for cell in home}
PLAYOUTS = 1000
NOISE = 0.15


class UnsupportedPolicyRules(ValueError):
    """Rules the playout model does not cover (it needs forced removal by pairs)."""


def check_rules(rules: Rules) -> None:
    """Refuse rules the playout model does not cover."""
    if rules.removal is not Removal.FORCED or rules.sets is not Sets.PAIRS or rules.goal is Goal.CLEAR:
        raise UnsupportedPolicyRules(
            f"playouts cover forced removal by pairs (standard, deplete, swap, royals), not {str(rules)!r}"
        )


def playout(ranks: tuple[int, ...] | list[int], rules: Rules, rng: random.Random, noise: float = NOISE) -> int:
    """Play one game as the randomised good player: the court cards it placed (12 for a win)."""
    return play_on([[], [], [], []], [0, 0, 0, 0], list(ranks), rules, rng, noise)


def play_on(
    cells: list[list[int]], courts: list[int], stock: list[int], rules: Rules, rng: random.Random,
    noise: float = NOISE, removal_due: bool = False,
) -> int:
    """Play on from a class-level position, ``stock`` (top first) still to come: the court cards placed in the end.

    ``cells`` holds the number values in each class and ``courts`` the court cards
    in each; both are changed in place. ``removal_due``: a full grid's removal
    has begun and must be finished first.
    """
    stop_at_courts = rules.goal is Goal.COURTS
    placed = sum(courts)
    unseen_courts = {kind: stock.count(kind) for kind in KIND_CLASS}
    unseen = [0] * (TEN + 1)  # number cards of each value still to come
    for rank in stock:
        if rank <= TEN:
            unseen[rank] += 1
    drawn = 0
    uniform = rng.random
    if removal_due and not _remove(cells, courts, unseen_courts):
        return placed
    while True:
        while True:  # one deal: draw until the grid is full
            free = [4 - len(cells[c]) - courts[c] for c in range(4)]
            if not any(free):
                break
            if drawn == len(stock):
                return placed
            rank = stock[drawn]
            drawn += 1
            if rank > TEN:
                home = KIND_CLASS[rank]
                if not free[home]:
                    return placed
                courts[home] += 1
                unseen_courts[rank] -= 1
                placed += 1
                if stop_at_courts and placed == 12:
                    return placed
                continue
            unseen[rank] -= 1
            choices = [c for c in range(4) if free[c]]
            if len(choices) > 1 and uniform() < noise:
                target = choices[int(uniform() * len(choices))]
            else:
                target = max(choices, key=lambda c: _placement_score(c, rank, free, cells, unseen, unseen_courts))
            cells[target].append(rank)
        if drawn == len(stock):
            return placed
        if not _remove(cells, courts, unseen_courts):
            return placed


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


def _remove(cells: list[list[int]], courts: list[int], to_come: dict[int, int]) -> bool:
    """Forced removal to exhaustion, freeing the neediest court class first; False if nothing goes."""
    take = takes_from(cells)
    if not any(take):
        return False
    need = [0.0] + [to_come[kind] - (4 - len(cells[c]) - courts[c]) for c, kind in ((1, KING), (2, QUEEN), (3, JACK))]
    order = sorted(range(4), key=lambda c: -need[c])  # neediest first, the centre last
    for value in range(1, TEN + 1):
        for c in order:
            while take[value] and value in cells[c]:
                cells[c].remove(value)
                take[value] -= 1
    return True


@dataclass(frozen=True)
class Difficulty:
    """A deal's measured difficulty: wins out of playouts, and the court cards placed on average."""

    wins: int
    playouts: int
    progress: float

    @property
    def rate(self) -> float:
        """The estimated chance that the randomised good player wins."""
        return self.wins / self.playouts

    @property
    def key(self) -> tuple[float, float]:
        """Easier deals sort higher: by win chance, then by how far the player gets."""
        return (self.rate, self.progress)


def measure(ranks: tuple[int, ...] | list[int], rules: Rules, seed: int, playouts: int = PLAYOUTS) -> Difficulty:
    """Playouts of the randomised good player, reproducible from ``seed``.

    Only ``random.Random(seed).random()`` is used, whose sequence Python keeps
    the same across versions.
    """
    check_rules(rules)
    rng = random.Random(seed)
    placed = [playout(ranks, rules, rng) for _ in range(playouts)]
    return Difficulty(sum(1 for p in placed if p == 12), playouts, round(sum(placed) / playouts, 3))


# Players on engine positions: each returns the move it makes in a position.

def random_player(position: Position, rng: random.Random) -> Move:
    """Any legal move, uniformly at random."""
    moves = position.legal_moves()
    return moves[int(rng.random() * len(moves))]


def greedy_player(position: Position) -> Move:
    """The good player without noise: the best-scored class for a card, the neediest class freed first.

    Under any rules: a court card goes to its home class, and whenever a
    removal may be made it is made (under optional removal too).
    """
    moves = position.legal_moves()
    cells, courts = class_view(position)
    stock = [card.rank for card in position.deck[position.drawn :]]
    to_come = {kind: stock.count(kind) for kind in KIND_CLASS}
    free = [4 - len(cells[c]) - courts[c] for c in range(4)]
    removals = [m for m in moves if isinstance(m, Remove)]
    if not removals:
        card = position.next_card
        if card is None:
            return moves[0]
        if card.rank > TEN:  # home cells first: under swap and royals courts may go elsewhere too
            return next((m for m in moves if CLASS_OF[m.cell] == KIND_CLASS[card.rank]), moves[0])  # type: ignore[union-attr]
        unseen = [0] * (TEN + 1)
        for rank in stock[1:]:
            if rank <= TEN:
                unseen[rank] += 1
        return max(moves, key=lambda m: _placement_score(CLASS_OF[m.cell], card.rank, free, cells, unseen, to_come))
    need = [0.0] + [to_come[kind] - free[c] for c, kind in ((1, KING), (2, QUEEN), (3, JACK))]
    return max(removals, key=lambda m: sum(need[CLASS_OF[c]] for c in m.cells))


def class_view(position: Position) -> tuple[list[list[int]], list[int]]:
    """The number values and the court cards in each class of cells (centre, corners, Queens, Jacks)."""
    cells: list[list[int]] = [[], [], [], []]
    courts = [0, 0, 0, 0]
    for c, home in enumerate(CLASSES):
        for cell in home:
            index = position.grid[cell]
            if index == EMPTY:
                continue
            rank = position.deck[index].rank
            if rank > TEN:
                courts[c] += 1
            else:
                cells[c].append(rank)
    return cells, courts
