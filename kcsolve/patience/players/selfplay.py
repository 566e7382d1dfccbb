"""Players who cannot see the deck, playing seeded deals by themselves: the public way to measure them.

Each game is played through the engine, so every move is legal by construction
and every record it writes can be judged by ``verify``. A player is told only
the position, and every player here decides from the cards already seen (the
no-peek contract, tests/test_no_peek.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial

from kcsolve.common.deal import check_seed, deal
from kcsolve.common.frozen import FrozenMap
from kcsolve.common.interval import wilson
from kcsolve.common.workers import check_jobs, ordered_map
from kcsolve.errors import KcsolveError
from kcsolve.patience.engine import Move, PlayerView, Position, Status, check_view
from kcsolve.patience.players.deep import deep_player
from kcsolve.patience.players.policy import greedy_player, random_player
from kcsolve.patience.players.quick import quick_player
from kcsolve.patience.players.strong import strong_player
from kcsolve.patience.record import Record, record_from_moves
from kcsolve.patience.rules import Rules

Player = Callable[[PlayerView], Move]


# Players and their makers are made of module functions, not closures, so that they pickle and copy.


def _random(seed: int) -> Player:
    """The random player, its choices drawn from ``seed``."""
    return partial(random_player, rng=random.Random(seed))


def _greedy(seed: int) -> Player:
    """The greedy player, who draws on no randomness."""
    return greedy_player


def _quick(seed: int) -> Player:
    """The quick player, who draws on no randomness."""
    return quick_player


def _strong(seed: int) -> Player:
    """The strong player, its sampled orders drawn from ``seed``."""
    return partial(strong_player, seed=seed)


def _deep(seed: int) -> Player:
    """The deep player, its playout orders drawn from ``seed``."""
    return partial(deep_player, seed=seed)


def _shown_a_view(player: Player, view: PlayerView) -> Move:
    """``player``'s move on ``view``, refused unless it is a PlayerView (a Position would show the deck)."""
    return player(check_view(view, "a player is given"))


@dataclass(frozen=True)
class _Maker:
    """Makes players from seeds, checked as deal() checks one; the players are shown only a PlayerView."""

    make: Callable[[int], Player]

    def __call__(self, seed: int) -> Player:
        return partial(_shown_a_view, self.make(check_seed(seed)))


# name -> the player made from a seed (its only source of randomness): PLAYERS["strong"](7)(view) is a move
PLAYERS: Mapping[str, Callable[[int], Player]] = FrozenMap(
    {
        "random": _Maker(_random),
        "greedy": _Maker(_greedy),
        "quick": _Maker(_quick),
        "strong": _Maker(_strong),
        "deep": _Maker(_deep),
    }
)


class UnknownPlayerError(KcsolveError):
    """A player name that is not one of :data:`PLAYERS`."""


def check_player(name: str) -> str:
    """The name itself, if it names a player."""
    if name not in PLAYERS:
        raise UnknownPlayerError(f"unknown player {name!r} (players: {', '.join(PLAYERS)})")
    return name


def make_player(name: str, seed: int) -> Player:
    """The player ``name``, its randomness drawn from ``seed`` only."""
    return PLAYERS[check_player(name)](seed)


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
        move = player(position.view())
        moves.append(move)
        position = position.play(move)
    result = "win" if position.outcome().status is Status.WON else "loss"
    record = record_from_moves(position.deck, rules, moves, result, seed=seed, player=name)
    return Game(seed, record, time.process_time() - began)


def _play_chunk(name: str, seeds: list[int], rules: Rules) -> list[Game]:
    """Several games in one worker."""
    return [play_deal(name, seed, rules) for seed in seeds]


def selfplay(name: str, start: int, count: int, rules: Rules, jobs: int = 1) -> Iterator[Game]:
    """Games on deals ``start`` .. ``start + count - 1`` in order, on ``jobs`` worker processes."""
    check_player(name)
    check_jobs(jobs)
    seeds = range(start, start + count)
    if jobs == 1:
        for seed in seeds:
            yield play_deal(name, seed, rules)
        return
    size = max(1, min(20, count // (4 * jobs)))
    chunks = [(name, list(seeds[k : k + size]), rules) for k in range(0, count, size)]
    for games in ordered_map(_play_chunk, chunks, jobs):
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
