"""Hands played by bots, and tournaments: win rates with intervals, penalty points, the advantage of each seat.

Seat 0 plays first (the player left of the dealer). In game g of a tournament the
bots sit rotated by g places, so every bot plays every seat equally often, and
game g is dealt from deal number ``seed + g``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from kcsolve.common.interval import wilson
from kcsolve.common.workers import check_jobs, ordered_map
from kcsolve.corner.bots.bots import Bot, make_bot, view_of
from kcsolve.corner.game.engine import Move, Position, check_players, deal_hand, seeded_deck
from kcsolve.corner.game.rules import DEFAULT, CornerRules
from kcsolve.errors import KcsolveError

MAX_HAND_MOVES = 10_000  # far beyond any real hand; a bot that never ends its turn is a bug, not a long game
MAX_MATCH_HANDS = 10_000  # far beyond any real game to a target score
MATCH_DEALS = MAX_MATCH_HANDS + 1  # deal numbers set aside for each game of a tournament of matches, so none overlap


class RunawayHandError(KcsolveError):
    """A hand that did not end within MAX_HAND_MOVES moves."""


class TooManyBotsError(KcsolveError):
    """More bots named for a tournament than the table has seats."""


def check_bots(names: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The names themselves, if each names a bot and no more are named than there are seats."""
    if len(names) > players:  # the rotation would seat each bot against its neighbours in the list only
        raise TooManyBotsError(f"{len(names)} bots named for {players} players: at most one a seat")
    for name in names:
        make_bot(name)
    return names


def play_hand(position: Position, bots: list[Bot]) -> tuple[Position, list[Move]]:
    """Play a hand to its end, each seat's bot choosing from that seat's view only."""
    moves: list[Move] = []
    while not position.over:
        if len(moves) >= MAX_HAND_MOVES:
            raise RunawayHandError(f"a hand went past {MAX_HAND_MOVES:,} moves")
        move = bots[position.player].choose(view_of(position))
        position = position.play(move)
        moves.append(move)
    return position, moves


@dataclass(frozen=True)
class GameResult:
    """One game of a tournament: its index, the bot in each seat, who won, and the penalty points.

    ``winners`` lists who went out, in order (two or more on a tie under 'tie'); for a
    game of several hands, the seats with the lowest total.
    """

    index: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    penalties: tuple[int, ...]
    moves: tuple[str, ...]
    hand_moves: tuple[tuple[str, ...], ...] = ()  # a game of several hands: each hand's moves


def play_game(game: int, seed: int, players: int, names: tuple[str, ...], rules: CornerRules) -> GameResult:
    """Game ``game`` of a tournament: deal ``seed + game``, bots rotated by ``game`` seats."""
    seats = tuple(names[(s + game) % len(names)] for s in range(players))
    bots = [make_bot(name, seed * 1_000 + game * 10 + s) for s, name in enumerate(seats)]
    final, moves = play_hand(deal_hand(seeded_deck(seed + game), players, rules), bots)
    return GameResult(game, seats, final.winners, final.penalties(), tuple(str(m) for m in moves))


@dataclass(frozen=True)
class MatchResult:
    """A game of several hands: penalty totals by seat, the hands played, and the seats with the lowest total."""

    totals: tuple[int, ...]
    hands: int
    winners: tuple[int, ...]
    moves: tuple[tuple[Move, ...], ...] = ()  # each hand's moves, in order

    @property
    def winner(self) -> int | None:
        """The one seat with the lowest total, None on a tie."""
        return self.winners[0] if len(self.winners) == 1 else None


def play_match(seed: int, players: int, bots: list[Bot], rules: CornerRules = DEFAULT) -> MatchResult:
    """Hands until a player reaches the target score; the lead passes left each hand; the lowest total wins.

    Hand h is dealt from deal number ``seed + h`` and led by seat ``h mod players``.
    """
    totals = [0] * players
    hands = 0
    played: list[tuple[Move, ...]] = []
    while max(totals) < rules.target:
        lead = hands % players
        order = [(lead + i) % players for i in range(players)]
        final, moves = play_hand(deal_hand(seeded_deck(seed + hands), players, rules), [bots[s] for s in order])
        played.append(tuple(moves))
        for place, points in enumerate(final.penalties()):
            totals[order[place]] += points
        hands += 1
        if hands >= MAX_MATCH_HANDS and max(totals) < rules.target:
            raise RunawayHandError(f"a game went past {MAX_MATCH_HANDS:,} hands without reaching the target")
    low = min(totals)
    return MatchResult(tuple(totals), hands, tuple(s for s, t in enumerate(totals) if t == low), tuple(played))


def play_match_game(game: int, seed: int, players: int, names: tuple[str, ...], rules: CornerRules) -> GameResult:
    """Game ``game`` of a tournament of matches: bots rotated by ``game`` seats, hands from ``seed + MATCH_DEALS g``."""
    seats = tuple(names[(s + game) % len(names)] for s in range(players))
    bots = [make_bot(name, seed * 1_000 + game * 10 + s) for s, name in enumerate(seats)]
    result = play_match(seed + MATCH_DEALS * game, players, bots, rules)
    return GameResult(
        game, seats, result.winners, result.totals, (), tuple(tuple(str(m) for m in moves) for moves in result.moves)
    )


@dataclass
class Tally:
    """Running totals of a tournament: a game won alone counts for its seat and bot; a tie is counted apart.
    A dealt hand always has a winner: the impasse cannot come (docs/CORNER.md proves it)."""

    players: int
    names: tuple[str, ...]
    games: int = 0
    ties: int = 0
    seat_wins: list[int] = field(default_factory=list)
    bot_wins: dict[str, int] = field(default_factory=dict)
    bot_seats: dict[str, int] = field(default_factory=dict)
    bot_points: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seat_wins = [0] * self.players
        for name in self.names:
            self.bot_wins.setdefault(name, 0)
            self.bot_seats.setdefault(name, 0)
            self.bot_points.setdefault(name, 0)

    def add(self, result: GameResult) -> None:
        """Count one game."""
        self.games += 1
        if len(result.winners) > 1:
            self.ties += 1
        elif result.winners:
            self.seat_wins[result.winners[0]] += 1
            self.bot_wins[result.bots[result.winners[0]]] += 1
        for seat, name in enumerate(result.bots):
            self.bot_seats[name] += 1
            self.bot_points[name] += result.penalties[seat]

    @property
    def bots_alone(self) -> bool:
        """Whether no bot ever sits in two seats of one game: only then are a bot's seats independent samples."""
        return len(set(self.names)) == len(self.names) >= self.players

    def to_json(self, match: bool = False) -> dict[str, Any]:
        """The summary object; rates are fractions, each with its 95% Wilson interval as [low, high] where the
        games are independent samples (two or more, a bot never playing itself), else null."""
        return {
            "summary": True,
            "unit": "game" if match else "hand",
            "games": self.games,
            "players": self.players,
            "ties": self.ties,
            "bot_wins": self.bot_wins,
            "bot_seats": self.bot_seats,
            "bot_win_rate": {n: self.bot_wins[n] / self.bot_seats[n] for n in self.bot_wins if self.bot_seats[n]},
            "bot_win_interval": {
                n: _interval(self.bot_wins[n], self.bot_seats[n]) if self.bots_alone else None
                for n in self.bot_wins
                if self.bot_seats[n]
            },
            "seat_wins": self.seat_wins,
            "seat_win_rate": [w / self.games for w in self.seat_wins] if self.games else [],
            "seat_win_interval": [_interval(w, self.games) for w in self.seat_wins] if self.games else [],
            "mean_penalty": {n: self.bot_points[n] / self.bot_seats[n] for n in self.bot_points if self.bot_seats[n]},
        }


def _interval(wins: int, count: int) -> list[float] | None:
    """The 95% Wilson interval of ``wins`` in ``count`` games as [low, high]; None for one game, where it says
    nothing."""
    return list(wilson(wins, count)) if count >= 2 else None


def tournament(
    players: int,
    names: tuple[str, ...],
    games: int,
    seed: int,
    rules: CornerRules = DEFAULT,
    jobs: int = 1,
    report: Callable[[GameResult], None] | None = None,
    match: bool = False,
) -> Tally:
    """Play ``games`` games (single hands, or whole games to the target with ``match``) and tally them in order."""
    check_players(players)
    check_jobs(jobs)
    check_bots(names, players)
    tally = Tally(players, names)
    for result in _results(players, names, games, seed, rules, jobs, play_match_game if match else play_game):
        tally.add(result)
        if report is not None:
            report(result)
    return tally


def _results(
    players: int,
    names: tuple[str, ...],
    games: int,
    seed: int,
    rules: CornerRules,
    jobs: int,
    play: Callable[..., GameResult],
) -> Iterator[GameResult]:
    """The games' results in order, in this process or in a pool of ``jobs`` processes."""
    if jobs <= 1:
        for game in range(games):
            yield play(game, seed, players, names, rules)
        return
    size = max(1, games // (8 * jobs))
    batches = [
        (play, range(first, min(games, first + size)), seed, players, names, rules) for first in range(0, games, size)
    ]
    for results in ordered_map(_play_batch, batches, jobs):
        yield from results


def _play_batch(
    play: Callable[..., GameResult], games: range, seed: int, players: int, names: tuple[str, ...], rules: CornerRules
) -> list[GameResult]:
    """Several games in one worker, in order."""
    return [play(game, seed, players, names, rules) for game in games]
