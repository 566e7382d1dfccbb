"""Players who cannot see the deck, playing seeded deals by themselves: the public way to measure them.

Each game is played through the engine, so every move is legal by construction
and every record it writes can be judged by ``verify``. A player is told only
the position, and every player here decides from the cards already seen (the
no-peek contract, tests/test_no_peek.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ..common.cards import Card
from ..common.deal import deal
from .endgame import distinct_options, option_key
from .engine import Move, Position, Status
from .policy import Difficulty, greedy_player, random_player
from .record import Record, record_from_moves
from .rules import Rules
from .session import peek
from .solver import solve
from .stats import wilson
from .strong import judge_order, strong_player

PLAYERS = ("random", "greedy", "strong")
MEASURE_PLAYOUTS = 8  # games of the strong player per deal measured
MEASURE_SAMPLES = 2  # its sampled orders per choice in those games
EXPLORE = 0.1  # how often the measured player plays a distinct option at random instead of its best
STEER_SEARCH_SECONDS = 2.0  # CPU seconds of search one measuring game may spend where the judge sees no win
Player = Callable[[Position], Move]


class UnknownPlayerError(ValueError):
    """A player name that is not one of :data:`PLAYERS`."""


def check_player(name: str) -> str:
    """The name itself, if it names a player."""
    if name not in PLAYERS:
        raise UnknownPlayerError(f"unknown player {name!r} (players: {', '.join(PLAYERS)})")
    return name


def make_player(name: str, seed: int) -> Player:
    """The player ``name``, its randomness drawn from ``seed`` only."""
    check_player(name)
    if name == "random":
        rng = random.Random(seed)
        return lambda position: random_player(position, rng)
    if name == "greedy":
        return greedy_player
    return lambda position: strong_player(position, seed)


@dataclass(frozen=True)
class Game:
    """One game played: its record (result set) and the CPU seconds it took."""

    seed: int
    record: Record
    seconds: float

    @property
    def won(self) -> bool:
        """True for a won game."""
        return self.record.result == "win"


def play_deal(name: str, seed: int, rules: Rules) -> Game:
    """Play deal ``seed`` to its end as player ``name`` (seeded by the deal number)."""
    began = time.process_time()
    player = make_player(name, seed)
    position = Position.start(deal(seed), rules)
    moves: list[Move] = []
    while position.outcome().status is Status.UNFINISHED:
        move = player(position)
        moves.append(move)
        position = position.play(move)
    result = "win" if position.outcome().status is Status.WON else "loss"
    record = record_from_moves(position.deck, rules, moves, result, seed=seed, player=name)
    return Game(seed, record, time.process_time() - began)


def play_out(deck: tuple[Card, ...], rules: Rules, player: Player) -> Position:
    """The final position of ``player``'s game on ``deck``."""
    position = Position.start(deck, rules)
    while position.outcome().status is Status.UNFINISHED:
        position = position.play(player(position))
    return position


def measure(
    deck: tuple[Card, ...], rules: Rules, seed: int, playouts: int = MEASURE_PLAYOUTS, samples: int = MEASURE_SAMPLES
) -> Difficulty:
    """A deal's difficulty: the chance that the exploring strong player wins it, from ``playouts`` steered games.

    The player measured is the strong player (``samples`` sampled orders per
    choice) who, at each choice, instead plays one of the distinct options at
    random with probability :data:`EXPLORE`. Its chance on many winnable deals
    is far too small for plain games to see, so each game is steered, as in
    importance sampling (docs/PLAYERS.md): the measurer, who sees the deck, only
    follows options that keep the deal won, and the game's weight is the product
    of the player's probabilities of going that way. The mean weight estimates
    the chance of winning along the lines the measurer recognises, so it is
    below the player's true chance, if anything, never above it.
    """
    if solve(deck, rules).result == "loss":  # no line wins, so no game can: spare the steering its searches
        return Difficulty(0.0, 0, playouts, 0.0)
    total = 0.0
    wins = placed = 0
    for k in range(playouts):
        weight, final = steered_game(deck, rules, seed * playouts + k, samples)
        total += weight
        wins += weight > 0
        placed += final.courts_placed
    return Difficulty(total / playouts, wins, playouts, round(placed / playouts, 3))


def steered_game(deck: tuple[Card, ...], rules: Rules, seed: int, samples: int) -> tuple[float, Position]:
    """One steered game: its weight (0 if it could not be steered to a win) and its final position."""
    rng = random.Random(f"kcsolve-measure|{seed}")
    position = Position.start(deck, rules)
    weight = 1.0
    search_until = time.process_time() + STEER_SEARCH_SECONDS
    while position.outcome().status is Status.UNFINISHED:
        options = distinct_options(position)
        if len(options) > 1:
            best = option_key(position.play(strong_player(position, seed, samples)))
            chances = [(1 - EXPLORE) * (option_key(child) == best) + EXPLORE / len(options) for _, child in options]
            keeps = still_won(options, search_until)
            weight *= sum(c for c, keep in zip(chances, keeps) if keep)
            if not weight:
                return 0.0, position
            chances = [c if keep else 0.0 for c, keep in zip(chances, keeps)]
            options = [options[rng.choices(range(len(options)), chances)[0]]]
        position = options[0][1]
    return (weight if position.outcome().status is Status.WON else 0.0), position


def still_won(options: list[tuple[Move, Position]], search_until: float) -> list[bool]:
    """Which options the measurer, who sees the deck, knows to keep the deal won.

    The strong player's judge, given the real order, answers first: a
    judgement of 'won' is constructive, so it is never wrong. Where it finds
    no option won, the card-by-card search is asked, until CPU time
    ``search_until``; an option it leaves undecided is not followed.
    """
    judged = [judge_order(child, [card.rank for card in child.deck[child.drawn :]]) for _, child in options]
    if any(judged):
        return judged
    keeps = []
    for _, child in options:
        left = search_until - time.process_time()
        keeps.append(left > 0 and peek(child, left) == "win")
    return keeps


def _play_chunk(name: str, seeds: list[int], rules: Rules) -> list[Game]:
    """Several games in one worker."""
    return [play_deal(name, seed, rules) for seed in seeds]


def selfplay(name: str, start: int, count: int, rules: Rules, jobs: int = 1) -> Iterator[Game]:
    """Games on deals ``start`` .. ``start + count - 1`` in order, on ``jobs`` worker processes."""
    check_player(name)
    seeds = range(start, start + count)
    if jobs == 1:
        for seed in seeds:
            yield play_deal(name, seed, rules)
        return
    size = max(1, min(20, count // (4 * jobs)))
    chunks = [list(seeds[k : k + size]) for k in range(0, count, size)]
    with ProcessPoolExecutor(jobs) as pool:
        for games in pool.map(_play_chunk, [name] * len(chunks), chunks, [rules] * len(chunks)):
            yield from games


@dataclass(frozen=True)
class Tally:
    """Games, wins and CPU seconds, with the win rate's 95% Wilson interval."""

    games: int
    wins: int
    seconds: float

    @property
    def rate(self) -> float:
        """The share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def seconds_per_game(self) -> float:
        """Average CPU seconds per game."""
        return self.seconds / self.games if self.games else 0.0
