"""The turn solver: the best sequence of plays and pile moves for one turn, by exhaustive search with a memo.

A turn may stop after any move the rules let it end on, so every such position
reached within the turn is a candidate end. Candidates are ranked, best first, by:

1. the most cards shed (the fewest left in hand);
2. the fewest penalty points left in hand;
3. the fewest playable spots left to the opponents: piles whose exposed card is
   not an Ace, empty side spots, and empty corners while a King is still unseen;
4. the shortest line.

An empty hand is the best ending there is (the hand is won, or, under 'draw three',
the player draws cards nobody can know), so the first line found that empties the
hand ends the search; plays onto piles are tried first, so a chain is found at once.
Only the piles and the player's own hand are used: the solver cannot see other
hands or the stock. A budget (common/budget.py) bounds the search: when it runs
out the answer is the best line seen so far, marked as not proven best.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcsolve.common.budget import Budget, Meter, OutOfBudget
from kcsolve.common.cards import KING
from kcsolve.corner.game.engine import (
    CORNERS,
    NO_MARKS,
    SIDES,
    BoardMove,
    Marks,
    Merge,
    Play,
    Under,
    board_moves,
    ending_allowed,
    rank,
    step,
)
from kcsolve.corner.game.rules import DEFAULT, CornerRules

Piles = tuple[tuple[int, ...], ...]
DEFAULT_TURN_NODES = 20_000  # positions of one turn searched before the answer is 'not proven best' (under 1 s)


@dataclass(frozen=True)
class Turn:
    """The best line of a turn, and where it leaves the piles and the hand."""

    line: tuple[BoardMove, ...]
    piles: Piles
    hand: tuple[int, ...]
    points: int
    spots: int
    states: int
    proven: bool = True  # False when the budget ran out: the best line seen, not proven best

    @property
    def shed(self) -> int:
        """Cards played from hand along the line."""
        return sum(1 for move in self.line if not isinstance(move, Merge))


def apply(piles: Piles, hand: tuple[int, ...], move: BoardMove) -> tuple[Piles, tuple[int, ...]]:
    """Piles and hand after a legal move (no checks: the moves come from ``board_moves``)."""
    after_piles, after_hand, _ = step(piles, hand, DEFAULT, NO_MARKS, move)
    return after_piles, after_hand


def spots(piles: Piles, hand: tuple[int, ...]) -> int:
    """Places an opponent might play on: non-Ace exposed cards, empty sides, empty corners while a King is unseen."""
    seen_kings = sum(1 for pile in piles for c in pile if rank(c) == KING) + sum(1 for c in hand if rank(c) == KING)
    count = sum(1 for pile in piles if pile and rank(pile[-1]) > 1)
    count += sum(1 for i in SIDES if not piles[i])
    if seen_kings < 4:
        count += sum(1 for i in CORNERS if not piles[i])
    return count


def distinct_moves(piles: Piles, hand: tuple[int, ...], rules: CornerRules, marks: Marks = NO_MARKS) -> list[BoardMove]:
    """The board moves, keeping one of several empty spots of the same kind (they are interchangeable);
    plays onto piles first, then pile moves, then cards under piles, then cards into empty spots."""
    empty_side = next((i for i in SIDES if not piles[i]), None)
    empty_corner = next((i for i in CORNERS if not piles[i]), None)
    kept = []
    for move in board_moves(piles, hand, rules, marks):
        if (
            isinstance(move, Play)
            and not piles[move.pile]
            and move.pile not in (empty_side, empty_corner)
            and not marks.opened
        ):  # spots a pile move emptied this turn are not interchangeable (strict under)
            continue
        kept.append(move)
    return sorted(
        kept, key=lambda move: _ORDER[type(move)] + (3 if isinstance(move, Play) and not piles[move.pile] else 0)
    )


_ORDER = {Play: 0, Merge: 1, Under: 2}  # plays onto piles shed cards without opening anything: tried first


State = tuple[Piles, tuple[int, ...], Marks]
Score = tuple[int, int, int, int]


class _WentOut(Exception):
    """Raised inside the search when a line empties the hand: nothing can beat it."""

    def __init__(self, line: tuple[BoardMove, ...]) -> None:
        super().__init__()
        self.line = line


def best_turn(
    piles: Piles,
    hand: tuple[int, ...],
    rules: CornerRules,
    marks: Marks = NO_MARKS,
    must_move: bool = False,
    budget: Budget | None = None,
) -> Turn:
    """The best line for ``hand`` on ``piles`` under the ranking of the module docstring.

    ``marks`` are the turn's so far (strict play-under); ``must_move`` says the turn
    may not end before a move (the stock is empty and no move was made yet).
    """
    memo: dict[State, tuple[Score, tuple[BoardMove, ...]] | None] = {}
    meter = Meter(budget or Budget(nodes=DEFAULT_TURN_NODES), every=256)
    seen: list[tuple[Score, tuple[BoardMove, ...]]] = []
    path: list[BoardMove] = []

    def score(at_piles: Piles, at_hand: tuple[int, ...]) -> tuple[int, int, int]:
        return (-len(at_hand), -sum(rules.points(rank(c)) for c in at_hand), -spots(at_piles, at_hand))

    def may_stop(at_marks: Marks, depth: int) -> bool:
        return ending_allowed(rules, at_marks) and not (
            must_move and depth == 0 and board_moves(piles, hand, rules, marks)
        )

    def search(state: State) -> tuple[Score, tuple[BoardMove, ...]] | None:
        if state in memo:
            return memo[state]
        at_piles, at_hand, at_marks = state
        if not at_hand:
            raise _WentOut(tuple(path))
        meter.tick()
        best: tuple[Score, tuple[BoardMove, ...]] | None
        best = ((*score(at_piles, at_hand), 0), ()) if may_stop(at_marks, len(path)) else None
        if best is not None and (not seen or (*best[0][:3], -len(path)) > seen[0][0]):
            seen[:] = [((*best[0][:3], -len(path)), tuple(path))]
        for move in distinct_moves(at_piles, at_hand, rules, at_marks):
            path.append(move)
            found = search(step(at_piles, at_hand, rules, at_marks, move))
            path.pop()
            if found is None:
                continue
            candidate = ((*found[0][:3], found[0][3] - 1), (move, *found[1]))
            if best is None or candidate[0] > best[0]:
                best = candidate
        memo[state] = best
        return best

    proven = True
    try:
        found = search((piles, hand, marks))
        line = found[1] if found is not None else ()
    except _WentOut as out:
        line = out.line
    except OutOfBudget:
        line, proven = (seen[0][1] if seen else ()), False
    end_piles, end_hand, end_marks = piles, hand, marks
    for move in line:
        end_piles, end_hand, end_marks = step(end_piles, end_hand, rules, end_marks, move)
    return Turn(
        line,
        end_piles,
        end_hand,
        sum(rules.points(rank(c)) for c in end_hand),
        spots(end_piles, end_hand) if end_hand else 0,
        meter.nodes,
        proven,
    )


def turn_outcomes(
    piles: Piles, hand: tuple[int, ...], rules: CornerRules, limit: int = 100_000, marks: Marks = NO_MARKS
) -> dict[tuple[Piles, tuple[int, ...]], tuple[BoardMove, ...]]:
    """Every distinct (piles, hand) a turn can end in (the turn's marks allowing), with one line reaching it;
    at most ``limit`` explored. The start is among them whether or not the turn may end there."""
    found: dict[tuple[Piles, tuple[int, ...]], tuple[BoardMove, ...]] = {}
    start = (piles, hand, marks)
    visited = {start}
    frontier: list[tuple[State, tuple[BoardMove, ...]]] = [(start, ())]
    while frontier and len(visited) < limit:
        (at_piles, at_hand, at_marks), line = frontier.pop()
        if not line or ending_allowed(rules, at_marks) or not at_hand:
            found.setdefault((at_piles, at_hand), line)
        if not at_hand:
            continue
        for move in distinct_moves(at_piles, at_hand, rules, at_marks):
            after = step(at_piles, at_hand, rules, at_marks, move)
            if after not in visited:
                visited.add(after)
                frontier.append((after, (*line, move)))
    return found
