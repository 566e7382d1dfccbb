"""How far ahead a person must look to win a deal face up: the face-up puzzle's grade.

A player who sees the whole stock in order faces exactly the game the solver
decides. The grade asks how much of that sight a win needs: the least k of
:data:`LOOKAHEADS` for which the deep player, shown the next k face-down cards
in order at every move (and judging the rest as unseen, as it always does),
wins the deal; None when none of them does, so that only the whole stock
suffices (on a deal the solver proves winnable, a player who sees it all wins
by definition). The games are seeded by the deal number, so the grade is
reproducible. docs/PLAYERS.md, "The face-up puzzle's grade", gives the
definition and its measured spread.
"""

from __future__ import annotations

import dataclasses

from kcsolve.common.cards import Card
from kcsolve.patience.engine import Move, PlayerView, Position, Status
from kcsolve.patience.rules import Rules

LOOKAHEADS = (0, 1, 2, 4, 8, 16)  # the cards ahead tried, fewest first; the grade "all" follows them


def view_ahead(position: Position, k: int) -> PlayerView:
    """The position as a player who also sees the next ``k`` face-down cards in order knows it."""
    view = position.view()
    face_down = view.drawn + (view.in_hand is not None)
    return dataclasses.replace(view, ahead=position.deck[face_down : face_down + k])


def lookahead_move(position: Position, k: int, seed: int) -> Move:
    """The move of the deep player who sees the next ``k`` face-down cards (k = 0: the deep player itself)."""
    # deep loads numba (through the quick player), and the light commands import the daily calendar, which imports this
    from kcsolve.patience.players.deep import deep_player

    return deep_player(view_ahead(position, k), seed)


def game_looking_ahead(deck: tuple[Card, ...], rules: Rules, seed: int, k: int) -> tuple[list[Move], bool]:
    """The moves of the deep player who sees the next ``k`` face-down cards at every move, and whether they win."""
    position = Position.start(deck, rules)
    moves: list[Move] = []
    while position.outcome().status is Status.UNFINISHED:
        moves.append(lookahead_move(position, k, seed))
        position = position.play(moves[-1])
    return moves, position.outcome().status is Status.WON


def wins_looking_ahead(deck: tuple[Card, ...], rules: Rules, seed: int, k: int) -> bool:
    """Whether the deep player who sees the next ``k`` face-down cards at every move wins ``deck``."""
    return game_looking_ahead(deck, rules, seed, k)[1]


def lookahead(deck: tuple[Card, ...], rules: Rules, seed: int) -> int | None:
    """The least k of LOOKAHEADS for which the deep player seeing k cards ahead wins; None: only the whole stock."""
    return next((k for k in LOOKAHEADS if wins_looking_ahead(deck, rules, seed, k)), None)


def plan_words(k: int | None) -> str:
    """The face-up grade as a player reads it: 'face up: plan 4 cards ahead'."""
    if k == 0:
        return "face up: no need to plan ahead"
    return f"face up: plan {'the whole stock' if k is None else f'{k} card' + 's' * (k > 1)} ahead"
