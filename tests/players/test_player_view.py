"""Players who cannot see the deck, by construction: the same view, the same moves and the same hints.

A player, the hint engine and every chance figure are given a PlayerView: the
grid, the card in hand, the seen cards and the unseen cards as a sorted
multiset. Positions are reached by play under all 36 rule sets; the unseen
cards are then reordered three ways (shuffled, reversed, sorted), the next
face-down card included, and every player's move and the whole hint list
(options and figures, exactly) must stay the same.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcsolve import PLAYERS, InvalidSeedError, InvalidViewError, PlayerView, hints
from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.hints import hint_move
from kcsolve.patience.players.strong import strong_player
from kcsolve.patience.rules import Courts, Goal, Removal, Rules, Sets

RULE_SETS = [Rules(*axes) for axes in itertools.product(Removal, Sets, Courts, Goal)]
ORDERS = ("shuffled", "reversed", "sorted")


def played_to(seed: int, rules: Rules, moves: int) -> Position:
    """The position after ``moves`` random legal moves on deal ``seed`` (fewer if the game ends first)."""
    rng = random.Random(seed)
    position = Position.start(deal(seed), rules)
    for _ in range(moves):
        legal = position.legal_moves()
        if not legal:
            break
        position = position.play(legal[rng.randrange(len(legal))])
    return position


def reordered(position: Position, how: str, rng: random.Random) -> Position:
    """The same position on a deck whose face-down cards (those no view shows) come in another order."""
    face_down = position.drawn + (position.view().in_hand is not None)
    rest = list(position.deck[face_down:])
    if how == "shuffled":
        rng.shuffle(rest)
    elif how == "reversed":
        rest.reverse()
    else:
        rest.sort(key=lambda card: (card.rank, card.suit or ""))
    deck = position.deck[:face_down] + tuple(rest)
    return Position(deck, position.rules, position.grid, position.drawn, position.removing, position.courts_placed)


def advice(view: PlayerView, seed: int, every_player: bool = True) -> tuple:
    """Everything a player could be told from ``view``: the players' moves, the hint engine's, and the hint list.

    ``every_player`` adds each player of PLAYERS as made (the strong one with its full 48 orders a choice).
    """
    moves = tuple(str(PLAYERS[name](seed)(view)) for name in PLAYERS) if every_player else ()
    ranked = tuple((str(h.move), h.chance, h.playouts) for h in hints(view, playouts=12, seed=seed))
    light = (str(PLAYERS["random"](seed)(view)), str(PLAYERS["greedy"](seed)(view)))
    return (*moves, *light, str(strong_player(view, seed, samples=6)), str(hint_move(view, 12, seed)), ranked)


def check_same_advice(position: Position, seed: int, every_player: bool = True) -> int:
    """Compare the advice on ``position`` and on its three reorderings; how many differed in the next card."""
    view = position.view()
    want = advice(view, seed, every_player)
    rng = random.Random(seed)
    new_next = 0
    for how in ORDERS:
        other = reordered(position, how, rng)
        assert other.view() == view, how
        assert advice(other.view(), seed, every_player) == want, (how, str(position.rules), seed)
        face_down = position.drawn + (view.in_hand is not None)
        new_next += face_down < len(position.deck) and other.deck[face_down] != position.deck[face_down]
    return new_next


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(RULE_SETS), seed=st.integers(0, 10_000), moves=st.integers(0, 60))
def test_the_same_view_gets_the_same_moves_and_hints(rules: Rules, seed: int, moves: int) -> None:
    position = played_to(seed, rules, moves)
    if position.outcome().status is Status.UNFINISHED:
        check_same_advice(position, seed)


@pytest.mark.slow
def test_every_rule_set_and_a_new_next_card_are_covered() -> None:
    """A fixed sweep: every one of the 36 rule sets, with reorderings that turn a different next card."""
    new_next = 0
    for k, rules in enumerate(RULE_SETS):
        position = played_to(k, rules, 20 + k % 15)
        if position.outcome().status is Status.UNFINISHED:
            new_next += check_same_advice(position, k)
    assert new_next >= 36


def test_the_view_holds_no_deck_and_no_order() -> None:
    """The view has no deck, no position and no order of the face-down cards: only their sorted multiset."""
    position = played_to(3, RULE_SETS[0], 25)
    view = position.view()
    assert not any(isinstance(value, Position) for value in vars(view).values())
    assert list(view.unseen) == sorted(view.unseen)
    assert len(view.seen) + (view.in_hand is not None) + len(view.unseen) == len(position.deck)


@pytest.mark.slow
def test_a_thousand_positions_under_every_rule_set() -> None:
    """The seeded sweep of the slow suite: at least 1,000 positions across the 36 rule sets."""
    checked = 0
    for seed in range(1000):
        if checked >= 1000:
            break
        rules = RULE_SETS[seed % len(RULE_SETS)]
        for moves in (5, 25, 45):
            position = played_to(seed, rules, moves)
            if position.outcome().status is Status.UNFINISHED:
                check_same_advice(position, seed, every_player=False)
                checked += 1
    assert checked >= 1000


@pytest.mark.parametrize("name", list(PLAYERS))
@pytest.mark.parametrize("given_instead", [Position.start(deal(0)), None, "b2", Position.start(deal(0)).view().after])
def test_every_player_refuses_anything_but_a_view(name: str, given_instead: object) -> None:
    with pytest.raises(InvalidViewError) as refused:
        PLAYERS[name](7)(given_instead)  # type: ignore[arg-type]
    assert str(refused.value) == (
        f"a player is given a PlayerView (Position.view() makes one), not {type(given_instead).__name__}"
    )


@pytest.mark.parametrize("name", list(PLAYERS))
@pytest.mark.parametrize("seed", ["x", -1, 2**64, True, None, 1.5])
def test_every_player_checks_its_seed_as_deal_does(name: str, seed: object) -> None:
    with pytest.raises(InvalidSeedError) as refused:
        PLAYERS[name](seed)  # type: ignore[arg-type]
    with pytest.raises(InvalidSeedError) as by_deal:
        deal(seed)  # type: ignore[arg-type]
    assert str(refused.value) == str(by_deal.value)


def test_a_seed_given_as_its_text_makes_the_same_player() -> None:
    view = played_to(5, Rules(), 20).view()
    assert all(PLAYERS[name]("7")(view) == PLAYERS[name](7)(view) for name in PLAYERS)
