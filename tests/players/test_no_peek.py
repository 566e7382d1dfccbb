"""Players who cannot see the deck really cannot: two decks that share their first k cards get the same moves.

For every player (random, greedy, the hint engine, the strong player) and several k, the player is run
with the same seed on a seeded deck and on the same deck with the cards after the
k-th shuffled differently; every move made before card k+1 is turned must be the same.
"""

from __future__ import annotations

import random

import pytest

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position
from kcsolve.patience.players.hints import hint_player
from kcsolve.patience.players.policy import greedy_player, random_player
from kcsolve.patience.players.strong import strong_player
from kcsolve.patience.rules import parse_rules


def seeded_random_player(seed: int):  # type: ignore[no-untyped-def]
    """A random player with a generator of its own, kept from move to move."""
    rng = random.Random(seed)
    return lambda position: random_player(position, rng)


PLAYERS = {
    "random": seeded_random_player,
    "greedy": lambda seed: greedy_player,
    "hint": lambda seed: lambda position: hint_player(position, playouts=8, seed=seed),
    "strong": lambda seed: lambda position: strong_player(position, seed, samples=8),
}
SLOW = ("hint", "strong")


def moves_before_card(deck: tuple, rules_text: str, player, k: int, look=Position.view) -> list:  # type: ignore[no-untyped-def]
    """The moves a player makes until it has seen the first k cards of the deck; it is shown ``look(position)``."""
    position = Position.start(deck, parse_rules(rules_text))
    moves = []
    while position.legal_moves() and position.drawn < k:
        move = player(look(position))
        moves.append(move)
        position = position.play(move)
    return moves


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PLAYERS))
@pytest.mark.parametrize("k", [3, 16, 30])
def test_decks_differing_only_in_unseen_cards_get_the_same_moves(name: str, k: int) -> None:
    compared = 0
    for seed in range(3 if name in SLOW else 12):
        deck = deal(seed)
        rest = list(deck[k:])
        random.Random(seed).shuffle(rest)
        other = deck[:k] + tuple(rest)
        assert other != deck and sorted(map(str, other)) == sorted(map(str, deck))
        for rules in ("standard", "deplete", "optional+groups"):
            first = moves_before_card(deck, rules, PLAYERS[name](seed), k)
            second = moves_before_card(other, rules, PLAYERS[name](seed), k)
            assert first == second, (name, seed, k, rules)
            compared += len(first)
    assert compared > 0


def test_the_check_would_catch_a_player_that_peeks() -> None:
    """A player shown the position, who looks at the bottom card of the stock, does differ: the test above can fail."""

    def peeker(position: Position):  # type: ignore[no-untyped-def]
        moves = position.legal_moves()
        hidden = position.deck[51]  # the bottom of the stock, never seen before the end
        return moves[hidden.rank % len(moves)]

    differs = 0
    for seed in range(12):
        deck = deal(seed)
        rest = list(deck[16:])
        random.Random(seed).shuffle(rest)
        other = deck[:16] + tuple(rest)
        shown = lambda position: position  # noqa: E731  (the position itself, as players were once shown)
        differs += moves_before_card(deck, "standard", peeker, 16, shown) != moves_before_card(
            other, "standard", peeker, 16, shown
        )
    assert differs
