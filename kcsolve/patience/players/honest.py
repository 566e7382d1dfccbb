"""A deal's honest chance: how often a careful player who cannot see the deck wins it, from plain seeded games.

The model of that person is the hints' player, the deep player
(:mod:`.deep`), weighing :data:`SAMPLES` sampled orders of the unseen cards at
each choice (the hints weigh 48), and exploring: at each choice with two or
more distinct options it plays one of them at random with probability
:data:`EXPLORE` instead of its best. A person who plays with care still misjudges now and then; a player who
never errs would call a deal easy that a person loses, and every proved-winnable
deal keeps a chance above 0 for a player who can take any option. The chance is
the share of :data:`GAMES` plain games won, each seeded from the deal number, so
it is reproducible, with its 95% Wilson interval.

A deep game takes a tenth of a second or more, so the daily calendar first
looks at a cheap chance (:func:`cheap_chance`): the compiled quick player, with
the same exploration, playing whole games at the level of cell classes in
microseconds. Only candidates whose cheap chance makes the wanted grade
plausible are measured in full.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kcsolve.common.cards import Card
from kcsolve.common.interval import wilson
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.endgame import distinct_options
from kcsolve.patience.rules import Goal, Rules

GAMES = 24  # plain games per deal measured (docs/PLAYERS.md, "The daily difficulty")
STOP_Z = 1.0  # games stop once the Wilson interval at this many standard errors (68%) lies outside the grade,
STOP_AFTER = 4  # from this many games on
EXPLORE = 0.1  # how often the model player plays a distinct option at random instead of its best
SAMPLES = 8  # the model player's sampled orders per choice (the hints' player takes 48)
CHEAP_GAMES = 2000  # compiled quick games per candidate for the cheap chance


@dataclass(frozen=True)
class Difficulty:
    """A deal's honest chance: ``wins`` of ``playouts`` plain games of the exploring deep player."""

    wins: int
    playouts: int

    @property
    def chance(self) -> float:
        """The share of the games won."""
        return self.wins / self.playouts

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the chance."""
        return wilson(self.wins, self.playouts)

    def describe(self) -> str:
        """The chance in words: a percentage."""
        return in_words(self.chance)

    def label(self) -> str:
        """What the figure is, the figure and its interval, in words for a player."""
        low, high = self.interval()
        games = f"{self.playouts} game{'s' if self.playouts != 1 else ''}"
        return f"{MEANING}: {self.describe()} (95% interval {in_words(low)} to {in_words(high)}; {games})"


MEANING = "chance that a careful player who cannot see the deck wins"  # what a difficulty is, wherever it is shown
DIFFICULTY_IS = (
    f"{MEANING}: the share of {GAMES} plain seeded games won by the hints' player (deep, {SAMPLES} sampled "
    "orders a choice) playing a distinct option at random at a tenth of its choices; its interval is Wilson's 95%"
)


def in_words(chance: float) -> str:
    """A chance in words: a whole percentage, '1 in N' below 1%, '0'."""
    if chance >= 0.01:
        return f"{chance:.0%}"
    return f"1 in {float(f'{1 / chance:.2g}'):,.0f}" if chance > 0 else "0"


def honest_game(deck: tuple[Card, ...], rules: Rules, seed: int, game: int) -> bool:
    """Plain game ``game`` of the exploring deep player on ``deck`` (deal number ``seed``): True if it wins."""
    # deep loads numba (through the quick player), and the light commands import the daily calendar, which imports this
    from kcsolve.patience.players.deep import deep_player

    rng = random.Random(f"kcsolve-honest|{seed}|{game}")
    position = Position.start(deck, rules)
    while position.outcome().status is Status.UNFINISHED:
        view = position.view()
        options = distinct_options(view)
        if len(options) > 1 and rng.random() < EXPLORE:
            move = options[rng.randrange(len(options))][0]
        else:
            move = deep_player(view, seed * GAMES + game, SAMPLES, options)
        position = position.play(move)
    return position.outcome().status is Status.WON


def measure(deck: tuple[Card, ...], rules: Rules, seed: int, games: int = GAMES) -> Difficulty:
    """The honest chance of deal ``seed``: the share of ``games`` plain games of the exploring deep player won."""
    wins = sum(honest_game(deck, rules, seed, game) for game in range(games))
    return Difficulty(wins, games)


def measure_within(
    deck: tuple[Card, ...], rules: Rules, seed: int, low: float, high: float, games: int = GAMES
) -> Difficulty | None:
    """:func:`measure`, if its chance is at least ``low`` and below ``high``; None once the games played rule it out.

    The games stop early when the rest cannot bring the chance into range, or
    when, from :data:`STOP_AFTER` games on, the Wilson interval at :data:`STOP_Z`
    of the games played lies wholly outside it: a deal of the grade is then
    passed over now and then, and another is measured. A deal accepted carries exactly :func:`measure`'s figure.
    """
    wins = 0
    for game in range(games):
        wins += honest_game(deck, rules, seed, game)
        if wins >= high * games or wins + games - game - 1 < low * games:
            return None
        least, most = wilson(wins, game + 1, STOP_Z)
        if game + 1 >= STOP_AFTER and (most < low or least >= high):
            return None
    return Difficulty(wins, games)


def cheap_chance(deck: tuple[Card, ...], rules: Rules, seed: int, games: int = CHEAP_GAMES) -> float | None:
    """The share of ``games`` exploring quick games won; None where the quick player does not model the rules."""
    from kcsolve.patience.players.cheap import exploring_wins  # numba and numpy: only when a deal is measured
    from kcsolve.patience.players.deep import covered

    if not covered(rules):
        return None
    ranks = [card.rank for card in deck]
    return exploring_wins(ranks, rules.goal is Goal.DEPLETE, EXPLORE, games, seed % (1 << 31)) / games
