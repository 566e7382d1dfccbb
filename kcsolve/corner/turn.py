"""The turn solver: the best sequence of plays and pile moves for one turn, by exhaustive search with a memo.

A turn may stop after any move, so every position reached within the turn is a
candidate end. Candidates are ranked, best first, by:

1. the most cards shed (the fewest left in hand);
2. the fewest penalty points left in hand;
3. the fewest playable spots left to the opponents: piles whose exposed card is
   not an Ace, empty side spots, and empty corners while a King is still unseen;
4. the shortest line.

An empty hand ends the search (the hand is won, or, under 'draw three', the
player draws cards nobody can know). Only the piles and the player's own hand
are used: the solver cannot see other hands or the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcsolve.common.cards import KING
from kcsolve.corner.engine import CORNERS, SIDES, Merge, Move, Play, board_moves, rank
from kcsolve.corner.rules import CornerRules

Piles = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Turn:
    """The best line of a turn, and where it leaves the piles and the hand."""

    line: tuple[Move, ...]
    piles: Piles
    hand: tuple[int, ...]
    points: int
    spots: int
    states: int

    @property
    def shed(self) -> int:
        """Cards played from hand along the line."""
        return sum(1 for move in self.line if not isinstance(move, Merge))


def apply(piles: Piles, hand: tuple[int, ...], move: Move) -> tuple[Piles, tuple[int, ...]]:
    """Piles and hand after a legal move (no checks: the moves come from ``board_moves``)."""
    new = list(piles)
    if isinstance(move, Merge):
        new[move.target] = piles[move.target] + piles[move.source]
        new[move.source] = ()
        return tuple(new), hand
    if isinstance(move, Play):
        new[move.pile] = piles[move.pile] + (move.card,)
    else:
        new[move.pile] = (move.card,) + piles[move.pile]
    return tuple(new), tuple(c for c in hand if c != move.card)


def spots(piles: Piles, hand: tuple[int, ...]) -> int:
    """Places an opponent might play on: non-Ace exposed cards, empty sides, empty corners while a King is unseen."""
    seen_kings = sum(1 for pile in piles for c in pile if rank(c) == KING) + sum(1 for c in hand if rank(c) == KING)
    count = sum(1 for pile in piles if pile and rank(pile[-1]) > 1)
    count += sum(1 for i in SIDES if not piles[i])
    if seen_kings < 4:
        count += sum(1 for i in CORNERS if not piles[i])
    return count


def distinct_moves(piles: Piles, hand: tuple[int, ...], rules: CornerRules) -> list[Move]:
    """The board moves, keeping one of several empty spots of the same kind (they are interchangeable)."""
    empty_side = next((i for i in SIDES if not piles[i]), None)
    empty_corner = next((i for i in CORNERS if not piles[i]), None)
    kept = []
    for move in board_moves(piles, hand, rules):
        if isinstance(move, Play) and not piles[move.pile] and move.pile not in (empty_side, empty_corner):
            continue
        kept.append(move)
    return kept


def best_turn(piles: Piles, hand: tuple[int, ...], rules: CornerRules) -> Turn:
    """The best line for ``hand`` on ``piles`` under the ranking of the module docstring."""
    memo: dict[tuple[Piles, tuple[int, ...]], tuple[tuple[int, int, int, int], tuple[Move, ...]]] = {}

    def score(at_piles: Piles, at_hand: tuple[int, ...]) -> tuple[int, int, int]:
        return (-len(at_hand), -sum(rules.points(rank(c)) for c in at_hand), -spots(at_piles, at_hand))

    def search(at_piles: Piles, at_hand: tuple[int, ...]) -> tuple[tuple[int, int, int, int], tuple[Move, ...]]:
        key = (at_piles, at_hand)
        if key in memo:
            return memo[key]
        best: tuple[tuple[int, int, int, int], tuple[Move, ...]] = ((*score(at_piles, at_hand), 0), ())
        if at_hand:
            for move in distinct_moves(at_piles, at_hand, rules):
                found, line = search(*apply(at_piles, at_hand, move))
                candidate = ((*found[:3], found[3] - 1), (move, *line))
                if candidate[0] > best[0]:
                    best = candidate
        memo[key] = best
        return best

    (shed, points, open_spots, _), line = search(piles, hand)
    end_piles, end_hand = piles, hand
    for move in line:
        end_piles, end_hand = apply(end_piles, end_hand, move)
    return Turn(line, end_piles, end_hand, -points, -open_spots, len(memo))


def turn_outcomes(piles: Piles, hand: tuple[int, ...], rules: CornerRules,
                  limit: int = 100_000) -> dict[tuple[Piles, tuple[int, ...]], tuple[Move, ...]]:
    """Every distinct (piles, hand) a turn can end in, with one line reaching it; at most ``limit`` explored."""
    found: dict[tuple[Piles, tuple[int, ...]], tuple[Move, ...]] = {(piles, hand): ()}
    frontier = [(piles, hand, ())]
    while frontier and len(found) < limit:
        at_piles, at_hand, line = frontier.pop()
        if not at_hand:
            continue
        for move in distinct_moves(at_piles, at_hand, rules):
            after = apply(at_piles, at_hand, move)
            if after not in found:
                found[after] = (*line, move)
                frontier.append((*after, (*line, move)))
    return found
