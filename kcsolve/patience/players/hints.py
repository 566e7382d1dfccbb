"""Hints for a player who cannot see the deck: every distinct option of a view, ranked by a figure that says what it is.

An option's figure is the share of sampled orders of the unseen cards in which
the deal stays winnable after it, judged as the strong player of
:mod:`kcsolve.patience.players.strong` judges: the same orders for every option
(common random numbers, so differences between options are measured far more
sharply than the figures themselves), each judged as by a player who would then
know the order. That is an upper estimate of the chance of winning without
seeing the cards, never the chance itself. With few unseen cards under forced
pairs the figure is the exact chance of winning with best play (expectimax).
Nothing here is given more than a PlayerView.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcsolve.common.interval import wilson
from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError
from kcsolve.patience.engine import CENTRE_CELLS, Afterstate, Move, Place, PlayerView, check_view
from kcsolve.patience.players.endgame import distinct_options, exact_chance, exact_feasible
from kcsolve.patience.players.strong import option_wins

HINT_PLAYOUTS = 200
MAX_PLAYOUTS = 100_000  # sampled orders a hint may ask for: about a minute of work

__all__ = [
    "HINT_PLAYOUTS",
    "Hint",
    "distinct_options",
    "exact_chance",
    "heading",
    "hint_move",
    "hint_player",
    "hints",
    "sampled_hints",
]


EXACT_MEANING = "exact chance of winning with best play"
SAMPLED_MEANING = "share of sampled orders in which the deal stays winnable for a player who then sees them"


@dataclass(frozen=True)
class Hint:
    """One option and its figure: an exact chance of winning (``playouts`` 0), or a share of sampled orders.

    A sampled figure is the share of ``playouts`` random orders of the unseen
    cards in which the deal stays winnable after the option, for a player who
    would then know the order: an upper estimate of the chance of winning
    without seeing them, never the chance itself.
    """

    move: Move
    chance: float
    playouts: int

    @property
    def exact(self) -> bool:
        """Whether the figure is an exact chance of winning (computed by expectimax, not sampled)."""
        return not self.playouts

    @property
    def meaning(self) -> str:
        """What the figure is, in words."""
        return EXACT_MEANING if self.exact else SAMPLED_MEANING

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval for the figure (the figure itself when exact)."""
        return figure_interval(self.chance, self.playouts)


def figure_interval(chance: float, playouts: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share of ``playouts`` sampled orders (the figure itself when exact: 0 playouts)."""
    if not playouts:
        return (chance, chance)
    low, high = wilson(round(chance * playouts), playouts)
    return (min(low, chance), max(high, chance))  # the interval holds the chance; rounding aside


def hints(view: PlayerView, playouts: int = HINT_PLAYOUTS, seed: int = 0) -> list[Hint]:
    """Every distinct legal option, best first, with its chance of winning (exact when the stock is small)."""
    check_request(view, playouts, seed)
    options = distinct_options(view)
    if not options:
        return []
    if exact_feasible(options[0][1]):
        ranked = [Hint(move, exact_chance(child), 0) for move, child in options]
    else:
        ranked = sampled_hints(view, options, playouts, seed)
    ranked.sort(key=lambda h: (-h.chance, _tiebreak(h.move)))
    return ranked


class InvalidHintRequestError(KcsolveError):
    """A hint asked of something that is not a PlayerView, or with a number of orders or a seed that is not one."""


def check_request(view: object, playouts: object, seed: object) -> None:
    """Refuse what ``hints`` cannot answer: a view is needed, never a Position; orders and seed are whole numbers."""
    check_view(view, "hints are given for", InvalidHintRequestError)
    if type(playouts) is not int or not 1 <= playouts <= MAX_PLAYOUTS:
        raise InvalidHintRequestError(
            f"playouts must be a whole number from 1 to {MAX_PLAYOUTS:,}, not {brief(playouts)}"
        )
    if type(seed) is not int:
        raise InvalidHintRequestError(f"seed must be a whole number, not {brief(seed)}")


def sampled_hints(view: PlayerView, options: list[tuple[Move, Afterstate]], playouts: int, seed: int) -> list[Hint]:
    """Each option's share of the same ``playouts`` sampled orders of the unseen cards that it goes on to win."""
    wins = option_wins(options, playouts, seed, view)
    return [Hint(move, won / playouts, playouts) for (move, _), won in zip(options, wins)]


def _tiebreak(move: Move) -> int:
    """Among equal estimates, prefer the centre for a placement."""
    return 0 if isinstance(move, Place) and move.cell in CENTRE_CELLS else 1


def heading(ranked: list[Hint]) -> list[str]:
    """The lines that say what the figures of a hint are, each within 80 columns."""
    if ranked and ranked[0].exact:
        return [
            "Exact chance of winning with best play after each option (expectimax over every",
            "order of the unseen cards, none of them seen):",
        ]
    playouts = ranked[0].playouts if ranked else HINT_PLAYOUTS
    return [
        f"After each option, the share of {playouts} sampled orders of the unseen cards where",
        "the deal stays winnable for one who then sees them (above your own chances):",
    ]


def hint_move(view: PlayerView, playouts: int = HINT_PLAYOUTS, seed: int = 0) -> Move:
    """The hint engine's own choice: the best-ranked option (the only one, when there is no choice)."""
    options = distinct_options(view)
    if len(options) == 1:
        return options[0][0]
    return hints(view, playouts, seed)[0].move


def hint_player(view: PlayerView, playouts: int = 64, seed: int = 0) -> Move:
    """The hint engine playing by itself: the option its own hints rank first."""
    return hint_move(view, playouts, seed)
