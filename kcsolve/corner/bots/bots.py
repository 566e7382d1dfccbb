"""Bots for Kings Corner. A bot sees only its seat's view: the piles, its own hand, the other hands' sizes
and the number of cards in the stock; the hidden cards reach it as one sorted list, never in their order.

- ``random``: any legal move, ``End`` included, uniformly.
- ``greedy``: the common rule order: Kings to corners, then pile moves, then plays
  onto piles (highest card first), then filling empty side spots; then ``End``.
- ``turn``: the best line of the turn solver (most cards shed, ...).
- ``search``: determinised search. It takes the turn's distinct endings, keeps the
  best few by the turn solver's ranking and the greedy line's ending, deals the
  hidden cards at random into the other hands and the stock many times, plays
  each sample out with greedy players, and chooses the ending that most often
  goes out first (ties: fewer penalty points).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from kcsolve.common.cards import KING
from kcsolve.corner.game.engine import (
    END,
    NO_MARKS,
    SIDES,
    BoardMove,
    End,
    Marks,
    Merge,
    Move,
    Play,
    Position,
    board_moves,
    ending_allowed,
    rank,
    step,
)
from kcsolve.corner.game.rules import CornerRules
from kcsolve.corner.solvers.turn import Piles, apply, best_turn, spots, turn_outcomes
from kcsolve.errors import KcsolveError

SEARCH_SAMPLES = 24
SEARCH_CANDIDATES = 6
PLAYOUT_MOVES = 2_000


class UnknownBotError(KcsolveError):
    """A bot name kcsolve does not know."""


@dataclass(frozen=True)
class SeatView:
    """What one seat may see: the table, its own hand, how many cards the others hold, whose turn it is."""

    rules: CornerRules
    seat: int
    piles: Piles
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    hidden: tuple[int, ...]  # the other hands and the stock, sorted: which cards, never where
    to_move: int
    moved: bool  # the player to move has moved this turn
    marks: Marks = NO_MARKS  # the turn so far of the player to move (strict play-under)
    winners: tuple[int, ...] = ()
    over: bool = False

    def legal_moves(self) -> list[Move]:
        """The moves open to the seat when it is to move, ``End`` last when the turn may end; else none."""
        if self.over or self.seat != self.to_move:
            return []
        moves = board_moves(self.piles, self.hand, self.rules, self.marks)
        may_end = ending_allowed(self.rules, self.marks) and (self.stock_size or self.moved or not moves)
        return [*moves, *([END] if may_end else [])]

    @property
    def must_move(self) -> bool:
        """The stock is empty and no move has been made this turn: the turn may not end while a move exists."""
        return not self.stock_size and not self.moved


def view_of(position: Position, seat: int | None = None) -> SeatView:
    """What ``seat`` (by default the player to move) may see of the position."""
    seat = position.player if seat is None else seat
    hidden = sorted(c for i, hand in enumerate(position.hands) if i != seat for c in hand)
    return SeatView(
        position.rules,
        seat,
        position.piles,
        position.hands[seat],
        tuple(len(h) for h in position.hands),
        len(position.stock),
        tuple(sorted(hidden + list(position.stock))),
        position.player,
        position.moved,
        position.marks,
        position.winners,
        position.over,
    )


def sample_position(view: SeatView, rng: random.Random) -> Position:
    """A position consistent with the view: the hidden cards dealt at random to the other hands and the stock."""
    hidden = list(view.hidden)
    rng.shuffle(hidden)
    hands = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(view.hand)
        else:
            hands.append(tuple(sorted(hidden[:size])))
            hidden = hidden[size:]
    return Position(
        view.rules,
        view.piles,
        tuple(hands),
        tuple(hidden),
        view.to_move,
        view.moved,
        view.marks,
        view.winners,
        view.over,
    )


class Bot(ABC):
    """A player for one seat; ``choose`` returns the next move from the seat's view."""

    name = "bot"

    @abstractmethod
    def choose(self, view: SeatView) -> Move:
        """The next move, ``End`` to end the turn."""


class RandomBot(Bot):
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        return self.rng.choice(view.legal_moves())


def greedy_move(piles: Piles, hand: tuple[int, ...], rules: CornerRules, marks: Marks = NO_MARKS) -> Move:
    """The greedy rule order: a King to a corner, a pile move, a play onto a pile, then filling a side spot.

    Every board move falls in one of these, so greedy ends its turn only when it has no move.
    """
    moves = board_moves(piles, hand, rules, marks)
    kings = [m for m in moves if isinstance(m, Play) and not piles[m.pile] and rank(m.card) == KING and m.pile >= 4]
    if kings:
        return kings[0]
    merges = [m for m in moves if isinstance(m, Merge)]
    if merges:
        return merges[0]
    onto = [m for m in moves if not isinstance(m, Merge) and piles[m.pile]]
    if onto:
        return max(onto, key=lambda m: (rank(m.card), isinstance(m, Play)))
    fills = [m for m in moves if isinstance(m, Play) and m.pile in SIDES]
    if fills:
        return max(fills, key=lambda m: rank(m.card))
    return END


class GreedyBot(Bot):
    """The common rule order, deterministic."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, view: SeatView) -> Move:
        return greedy_move(view.piles, view.hand, view.rules, view.marks)


class TurnBot(Bot):
    """The first move of the turn solver's best line."""

    name = "turn"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, view: SeatView) -> Move:
        line = best_turn(view.piles, view.hand, view.rules, view.marks, view.must_move).line
        return line[0] if line else END


def greedy_playout(position: Position, limit: int = PLAYOUT_MOVES) -> Position:
    """Play a position to the end of the hand with greedy moves for every seat."""
    for _ in range(limit):
        if position.over:
            break
        position = position.play(greedy_move(position.piles, position.hand, position.rules, position.marks))
    return position


class SearchBot(Bot):
    """Determinised search over the turn's endings (see the module docstring)."""

    name = "search"

    def __init__(self, seed: int = 0, samples: int = SEARCH_SAMPLES, candidates: int = SEARCH_CANDIDATES) -> None:
        self.seed = seed
        self.samples = samples
        self.candidates = candidates
        self.plan: list[Move] = []
        self.planned_for: tuple[Piles, tuple[int, ...]] | None = None

    def choose(self, view: SeatView) -> Move:
        if self.plan and self.planned_for == (view.piles, view.hand):
            move = self.plan.pop(0)
            self.planned_for = apply(view.piles, view.hand, move) if not isinstance(move, End) else None
            return move
        self.plan = [*list(self._best_line(view)), END]
        self.planned_for = (view.piles, view.hand)
        return self.choose(view)

    def _best_line(self, view: SeatView) -> tuple[Move, ...]:
        """The turn ending that goes out first most often over sampled hidden cards."""
        endings = turn_outcomes(view.piles, view.hand, view.rules, limit=20_000, marks=view.marks)
        if view.must_move and len(endings) > 1:
            del endings[view.piles, view.hand]  # the stock is empty: a player who can move must
        ranked = sorted(endings.items(), key=lambda item: _rank_key(item[0], view.rules))
        chosen = dict(ranked[: self.candidates])
        greedy_end, greedy_line = _greedy_ending(view)
        chosen.setdefault(greedy_end, greedy_line)
        if len(chosen) == 1:
            return next(iter(chosen.values()))
        rng = random.Random(f"{self.seed}/{view.piles}/{view.hand}")
        samples = [sample_position(view, rng) for _ in range(self.samples)]
        best: tuple[Move, ...] = ()
        best_score = (-1.0, 0.0)
        for (_piles, hand), line in chosen.items():
            if not hand:
                return line
            won, points = 0, 0
            for sample in samples:
                final = greedy_playout(after_line(sample, line))
                won += final.winner == view.seat
                points += final.penalties()[view.seat]
            score = (won / len(samples), -points / len(samples))
            if score > best_score:
                best, best_score = line, score
        return best


def after_line(position: Position, line: tuple[Move, ...]) -> Position:
    """The position once the player to move has played ``line`` and ended the turn, as the engine plays it
    (a pass draws, or counts as one, exactly as at the table)."""
    seat = position.player
    for move in line:
        position = position.play(move)
    return position if position.over or position.player != seat else position.play(END)


def _rank_key(ending: tuple[Piles, tuple[int, ...]], rules: CornerRules) -> tuple[int, int, int]:
    """The turn solver's order of endings: fewest cards, fewest points, fewest spots."""
    piles, hand = ending
    return (len(hand), sum(rules.points(rank(c)) for c in hand), spots(piles, hand))


def _greedy_ending(view: SeatView) -> tuple[tuple[Piles, tuple[int, ...]], tuple[BoardMove, ...]]:
    """Where the greedy rule order ends this turn, and its line."""
    piles, hand, marks, line = view.piles, view.hand, view.marks, []
    while hand:
        move = greedy_move(piles, hand, view.rules, marks)
        if isinstance(move, End):
            break
        piles, hand, marks = step(piles, hand, view.rules, marks, move)
        line.append(move)
    return (piles, hand), tuple(line)


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "turn": TurnBot, "search": SearchBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A fresh bot by name; UnknownBotError names the choices."""
    if name not in BOTS:
        raise UnknownBotError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return BOTS[name](seed)
