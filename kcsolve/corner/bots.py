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
from dataclasses import dataclass, replace

from kcsolve.common.cards import KING
from kcsolve.corner.engine import END, SIDES, End, Merge, Move, Play, Position, board_moves, rank
from kcsolve.corner.rules import CornerRules
from kcsolve.corner.turn import Piles, apply, best_turn, spots, turn_outcomes
from kcsolve.errors import KcsolveError

SEARCH_SAMPLES = 24
SEARCH_CANDIDATES = 6
PLAYOUT_MOVES = 2_000


class UnknownBotError(KcsolveError):
    """A bot name kcsolve does not know."""


@dataclass(frozen=True)
class SeatView:
    """What one seat may see when it is to move."""

    rules: CornerRules
    seat: int
    piles: Piles
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    hidden: tuple[int, ...]  # the other hands and the stock, sorted: which cards, never where
    moved: bool
    idle: int


def view_of(position: Position) -> SeatView:
    """The view of the player to move."""
    seat = position.player
    hidden = sorted(c for i, hand in enumerate(position.hands) if i != seat for c in hand)
    return SeatView(position.rules, seat, position.piles, position.hand, tuple(len(h) for h in position.hands),
                    len(position.stock), tuple(sorted(hidden + list(position.stock))), position.moved, position.idle)


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
    return Position(view.rules, view.piles, tuple(hands), tuple(hidden), view.seat, view.moved, view.idle)


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
        return self.rng.choice([*board_moves(view.piles, view.hand, view.rules), END])


def greedy_move(piles: Piles, hand: tuple[int, ...], rules: CornerRules) -> Move:
    """The greedy rule order: a King to a corner, a pile move, a play onto a pile, then filling a side spot."""
    moves = board_moves(piles, hand, rules)
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
        return greedy_move(view.piles, view.hand, view.rules)


class TurnBot(Bot):
    """The first move of the turn solver's best line."""

    name = "turn"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, view: SeatView) -> Move:
        line = best_turn(view.piles, view.hand, view.rules).line
        return line[0] if line else END


def greedy_playout(position: Position, limit: int = PLAYOUT_MOVES) -> Position:
    """Play a position to the end of the hand with greedy moves for every seat."""
    for _ in range(limit):
        if position.over:
            break
        position = position.play(greedy_move(position.piles, position.hand, position.rules))
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
        self.plan = list(self._best_line(view)) + [END]
        self.planned_for = (view.piles, view.hand)
        return self.choose(view)

    def _best_line(self, view: SeatView) -> tuple[Move, ...]:
        """The turn ending that goes out first most often over sampled hidden cards."""
        endings = turn_outcomes(view.piles, view.hand, view.rules, limit=20_000)
        ranked = sorted(endings.items(), key=lambda item: _rank_key(item[0], view.rules))
        chosen = dict(ranked[: self.candidates])
        greedy_end, greedy_line = _greedy_ending(view)
        chosen.setdefault(greedy_end, greedy_line)
        if len(chosen) == 1:
            return next(iter(chosen.values()))
        rng = random.Random(f"{self.seed}/{view.piles}/{view.hand}")
        samples = [sample_position(view, rng) for _ in range(self.samples)]
        best, best_score = (), (-1.0, 0.0)
        for (piles, hand), line in chosen.items():
            if not hand:
                return line
            won, points = 0, 0
            for sample in samples:
                start = replace(sample, piles=piles, hands=_with_hand(sample, hand), moved=True)
                final = greedy_playout(start.play(END))
                won += final.winner == view.seat
                points += final.penalties()[view.seat]
            score = (won / len(samples), -points / len(samples))
            if score > best_score:
                best, best_score = line, score
        return best


def _with_hand(position: Position, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The hands with the player to move's replaced."""
    return position.hands[: position.player] + (hand,) + position.hands[position.player + 1:]


def _rank_key(ending: tuple[Piles, tuple[int, ...]], rules: CornerRules) -> tuple[int, int, int]:
    """The turn solver's order of endings: fewest cards, fewest points, fewest spots."""
    piles, hand = ending
    return (len(hand), sum(rules.points(rank(c)) for c in hand), spots(piles, hand))


def _greedy_ending(view: SeatView) -> tuple[tuple[Piles, tuple[int, ...]], tuple[Move, ...]]:
    """Where the greedy rule order ends this turn, and its line."""
    piles, hand, line = view.piles, view.hand, []
    while hand:
        move = greedy_move(piles, hand, view.rules)
        if isinstance(move, End):
            break
        piles, hand = apply(piles, hand, move)
        line.append(move)
    return (piles, hand), tuple(line)


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "turn": TurnBot, "search": SearchBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A fresh bot by name; UnknownBotError names the choices."""
    if name not in BOTS:
        raise UnknownBotError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return BOTS[name](seed)
