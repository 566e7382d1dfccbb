"""A deal's difficulty: the chance that a player who cannot see the deck wins it, estimated by steered games.

The player measured is the strong player with few sampled orders per choice
(:data:`SAMPLES`) who, at each choice, plays one of the distinct options at
random with probability :data:`EXPLORE` instead of its best. On most winnable
deals its chance is far too small for plain games to see, so each measuring game
is steered, as in importance sampling: the measurer, who sees the deck, follows
only options it knows to keep the deal won, choosing among them with the
player's probabilities, and the game's weight is the product over its choices of
the player's probability of taking such an option. The mean weight is an
unbiased estimate of the chance of winning along lines the measurer recognises:
on average never above the player's chance, below it where the measurer misses
a won option.

The measurer takes an option as won when it lies on the exact solver's winning
line, when the strong player's judge given the real order wins it, or when one
card-by-card search per deal, which remembers what it has proved across all the
games of the deal, finds it won. The judge's "won" is constructive under every
rule of court cards (under ``swap`` it shares the edges out between Queens and
Jacks); were it ever wrong, following a lost option could not raise the estimate
(its games end at weight 0), only lower it. The search is
asked about the player's best option when nothing cheaper sees it won, and about
every option when nothing cheaper sees any. Its budgets count positions, not
seconds (:data:`QUESTION_NODES` per question, :data:`SEARCH_NODES` per deal), so
a measurement is the same on every machine. A game on the solver's line can
always follow it: a game ends unwon only after leaving the line.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from kcsolve.common.budget import Budget
from kcsolve.common.cards import Card
from kcsolve.common.interval import t_interval
from kcsolve.patience.engine import Afterstate, Move, Position, Status
from kcsolve.patience.players.endgame import distinct_options, option_key
from kcsolve.patience.players.strong import best_option, strong_player, wins_in_order
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.methods.dfs import DepthFirstSearch
from kcsolve.patience.solve.peek import search_from
from kcsolve.patience.solve.route import Solution, Verdict, solve

PLAYOUTS = 16  # steered games per deal measured (scripts/tools/check_difficulty.py repeat: docs/PLAYERS.md)
SAMPLES = 2  # the measured player's sampled orders per choice
EXPLORE = 0.1  # how often the measured player plays a distinct option at random instead of its best
SEARCH_NODES = 600_000  # positions the measurer's search may visit on one deal, over all its games
QUESTION_NODES = 20_000  # of which one question may take at most this many


@dataclass(frozen=True)
class Difficulty:
    """A deal's measured difficulty: the player's estimated chance of winning it, and the court cards placed on average.

    ``wins`` counts the measuring games steered to a win; ``chance`` is the
    estimate itself, far smaller than ``wins / playouts`` on most deals.
    ``progress`` averages the court cards placed when each game ended: a game
    that can no longer be steered to a win stops where it is. ``spread`` is the
    standard error of the mean weight, None when not measured (fewer than two games).
    """

    chance: float
    wins: int
    playouts: int
    progress: float
    spread: float | None = None

    def interval(self) -> tuple[float, float]:
        """An approximate 95% interval for the chance: mean ± t(0.975, n-1) standard errors, within [0, 1].

        Approximate because the weights are heavy-tailed (one game can carry
        most of the mean), so the t interval's coverage is not assured. (0, 1)
        when the spread was not measured.
        """
        if self.spread is None:
            return (0.0, 1.0)
        return t_interval(self.chance, self.spread, self.playouts)

    def describe(self) -> str:
        """The chance in words: a percentage, '1 in N' below 1%, 'under 1 in 1,000,000' below that."""
        return in_words(self.chance) if self.chance > 0 else "0 (no winning game found)"

    def label(self) -> str:
        """What the figure is, the figure and its interval, in words for a player."""
        games = f"{self.playouts} steered game{'s' if self.playouts != 1 else ''}"
        if not self.wins:  # every weight 0: the t interval would shrink to a point and claim a certainty it lacks
            return f"{MEANING}: 0 (no winning game in {games})"
        low, high = self.interval()
        return f"{MEANING}: {self.describe()} (approx. 95% interval {in_words(low)} to {in_words(high)}; {games})"


MEANING = "estimated chance that an exploring no-peek player wins"  # what a difficulty is, wherever it is shown
DIFFICULTY_IS = (
    f"{MEANING} (the strong player, exploring a tenth of its choices), from steered games: on average "
    "at most that chance; its interval is approximate"
)
PROGRESS_IS = "court cards placed when each steered game ended, on average"


def in_words(chance: float) -> str:
    """A chance in words: a percentage, '1 in N' below 1%, 'under 1 in 1,000,000' below that, '0'."""
    if chance >= 0.01:
        return f"{chance:.0%}"
    if chance >= 1e-6:
        return f"1 in {float(f'{1 / chance:.2g}'):,.0f}"
    return "under 1 in 1,000,000" if chance > 0 else "0"


Option = tuple[Move, Position, Afterstate]  # a move, the real position it leads to, and what the player sees of it


class Measurer:
    """The one who sees the deck: which options it knows to keep a deal won."""

    def __init__(self, line: tuple[Move, ...], deck: tuple[Card, ...], rules: Rules, nodes: int = SEARCH_NODES) -> None:
        self.search = DepthFirstSearch(tuple(card.rank for card in deck), rules, Budget(nodes=0), use_theory=False)
        self.nodes = nodes
        self.rated: dict[tuple, bool] = {}
        self.searched: dict[tuple, bool] = {}
        self.ahead: dict[tuple, Option] = {}  # a position on the winning line -> the line's next step
        position = Position.start(deck, rules)
        for move in line:
            following = position.play(move)
            self.ahead[cell_key(position)] = (move, following, position.view().after(move))
            position = following
        self.on_line = {*self.ahead, cell_key(position)}

    def options(self, position: Position) -> list[Option]:
        """The player's distinct options, in its order; on the winning line, the line's move stands for its own."""
        options = [(move, position.play(move), after) for move, after in distinct_options(position.view())]
        step = self.ahead.get(cell_key(position))
        if step is None:
            return options
        key = option_key(step[2])
        return [step if option_key(option[2]) == key else option for option in options]

    def rates_won(self, option: Option) -> bool:
        """Whether the option is on the winning line, or the strong player's judge, given the real order, wins it."""
        _, child, after = option
        if cell_key(child) in self.on_line:
            return True
        key = option_key(after)
        if key not in self.rated:
            face_down = child.deck[child.drawn + (after.in_hand is not None) :]
            self.rated[key] = wins_in_order(after, [card.rank for card in face_down])
        return self.rated[key]

    def knows_won(self, option: Option) -> bool:
        """Whether the option is known won: by the judge, else by the search while its budget lasts."""
        if self.rates_won(option):
            return True
        child = option[1]
        if child.outcome().status is not Status.UNFINISHED:
            return False
        key = cell_key(child)
        if key not in self.searched:
            self.search.meter.budget = Budget(nodes=min(self.nodes, self.search.nodes + QUESTION_NODES))
            self.searched[key] = search_from(self.search, child) == "win"
        return self.searched[key]

    def keeps(self, options: list[Option], best: int) -> list[bool]:
        """Which options to follow: those judged won, the player's ``best`` if searched won, or any searched won."""
        keeps = [self.rates_won(option) for option in options]
        if not keeps[best]:
            keeps[best] = self.knows_won(options[best])
        if not any(keeps):
            keeps = [self.knows_won(option) for option in options]
        return keeps


def cell_key(position: Position) -> tuple:
    """A position exactly, cell by cell (the deck being fixed)."""
    return (position.grid, position.drawn, position.removing)


def measure(
    deck: tuple[Card, ...],
    rules: Rules,
    seed: int,
    playouts: int = PLAYOUTS,
    nodes: int = SEARCH_NODES,
    solution: Solution | None = None,
) -> Difficulty:
    """A deal's difficulty: the measured player's chance of winning it, and its spread, from ``playouts`` steered games.

    ``solution`` is the exact solver's verdict on the deal, if already known. A
    deal the solver does not prove won (within its default budget) measures 0.
    """
    if solution is None:
        solution = solve(deck, rules)
    if solution.result is not Verdict.WIN:
        return Difficulty(0.0, 0, playouts, 0.0, 0.0 if playouts > 1 else None)
    measurer = Measurer(solution.moves, deck, rules, nodes)
    weights = []
    placed = 0
    for k in range(playouts):
        weight, final = steered_game(deck, rules, seed * playouts + k, measurer)
        weights.append(weight)
        placed += final.courts_placed
    spread = statistics.stdev(weights) / math.sqrt(playouts) if playouts > 1 else None
    wins = sum(weight > 0 for weight in weights)
    return Difficulty(sum(weights) / playouts, wins, playouts, round(placed / playouts, 3), spread)


def plain_game(deck: tuple[Card, ...], rules: Rules, rng: random.Random, seed: int) -> bool:
    """A plain, unsteered game of the measured player: True if it wins.

    ``rng`` draws its exploring moves, ``seed`` seeds the strong player's
    sampled orders. Plain games check the steered estimate (tests/test_daily.py,
    scripts/tools/check_difficulty.py).
    """
    position = Position.start(deck, rules)
    while position.outcome().status is Status.UNFINISHED:
        view = position.view()
        options = distinct_options(view)
        if len(options) > 1 and rng.random() < EXPLORE:
            move = options[rng.randrange(len(options))][0]
        else:
            move = strong_player(view, seed, SAMPLES)
        position = position.play(move)
    return position.outcome().status is Status.WON


def steered_game(deck: tuple[Card, ...], rules: Rules, seed: int, measurer: Measurer) -> tuple[float, Position]:
    """One steered game: its weight (0 if it could not be steered to a win) and its final position."""
    rng = random.Random(f"kcsolve-measure|{seed}")
    position = Position.start(deck, rules)
    weight = 1.0
    while position.outcome().status is Status.UNFINISHED:
        options = measurer.options(position)
        if len(options) > 1:
            best = best_option(position.view(), [(move, after) for move, _, after in options], seed, SAMPLES)
            chances = [(1 - EXPLORE) * (k == best) + EXPLORE / len(options) for k in range(len(options))]
            keeps = measurer.keeps(options, best)
            weight *= sum(c for c, keep in zip(chances, keeps) if keep)
            if not weight:
                return 0.0, position
            chances = [c if keep else 0.0 for c, keep in zip(chances, keeps)]
            options = [options[rng.choices(range(len(options)), chances)[0]]]
        position = options[0][1]
    return (weight if position.outcome().status is Status.WON else 0.0), position
