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

from kcsolve.patience.engine import Move, PlayerView
from kcsolve.patience.players.endgame import distinct_options, exact_chance, exact_feasible
from kcsolve.patience.players.quick import quick_player
from kcsolve.patience.players.strong import SAMPLES, ahead_ranks, class_key, option_wins, strong_player
from kcsolve.patience.rules import Courts, Goal, Removal, Rules, Sets


def covered(rules: Rules) -> bool:
    """Whether the quick player models these rules: forced pair removal, fixed courts, goal courts or deplete."""
    return (
        rules.removal is Removal.FORCED
        and rules.sets is Sets.PAIRS
        and rules.courts is Courts.FIXED
        and rules.goal is not Goal.CLEAR
    )


def deep_player(view: PlayerView, seed: int = 0, samples: int = SAMPLES) -> Move:
    """The deep player's move: the option that wins most sampled orders, the quick player's choice on ties."""
    if not covered(view.rules):
        return strong_player(view, seed, samples)
    options = distinct_options(view)
    if len(options) == 1:
        return options[0][0]
    if exact_feasible(options[0][1]):
        scores = [exact_chance(child, ahead_ranks(view)) * samples for _, child in options]
    else:
        scores = [float(w) for w in option_wins(options, samples, seed, view)]
    preferred = class_key(view, quick_player(view))
    return options[max(range(len(options)), key=lambda k: (scores[k], class_key(view, options[k][0]) == preferred))][0]
