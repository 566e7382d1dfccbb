"""The deep player who cannot see the deck: the strong player's judge, its ties broken by a window-wary quick player.

Under forced pair removal with courts on their home cells the player judges
each distinct option as the strong player does (sampled orders of the unseen
cards, each judged as a player who then saw it would play; exact expectimax
with few unseen cards). The strong player breaks ties, which are most choices,
by the greedy player's choice; this one by the quick player of
:mod:`.quick`, who puts a number card where it least risks a court card
finding its class full before the next removal. Under the other rules it plays
as the strong player.
"""

from __future__ import annotations

from kcsolve.patience.engine import Afterstate, Move, PlayerView
from kcsolve.patience.players.endgame import distinct_options, exact_chance, exact_feasible
from kcsolve.patience.players.quick import quick_player
from kcsolve.patience.players.strong import (
    SAMPLES,
    ahead_ranks,
    class_key,
    covered,
    option_class_key,
    option_wins,
    strong_player,
)


def deep_player(
    view: PlayerView,
    seed: int = 0,
    samples: int = SAMPLES,
    options: list[tuple[Move, Afterstate]] | None = None,
) -> Move:
    """The deep player's move: the option that wins most sampled orders, the quick player's choice on ties.

    ``options``: the view's distinct options, when the caller has them already.
    """
    if not covered(view.rules):
        return strong_player(view, seed, samples)
    if options is None:
        options = distinct_options(view)
    if len(options) == 1:
        return options[0][0]
    if exact_feasible(options[0][1]):
        scores = [exact_chance(child, ahead_ranks(view)) * samples for _, child in options]
    else:
        scores = [float(w) for w in option_wins(options, samples, seed, view, only_best=True)]
    best = max(scores)
    tied = [k for k in range(len(options)) if scores[k] == best]
    if len(tied) == 1:
        return options[tied[0]][0]
    preferred = class_key(view, quick_player(view))
    return options[max(tied, key=lambda k: option_class_key(*options[k]) == preferred)][0]
