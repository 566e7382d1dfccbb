"""The OpenSpiel-style interface: random agents play whole hands through it, a user-written agent plays against
the built-in bots, actions stand for exactly the legal moves, and a seat observes only what it may see."""

from __future__ import annotations

import random

import pytest

from kcsolve.corner.engine import IllegalCornerMoveError, deal_hand, seeded_deck
from kcsolve.corner.rules import parse_corner_rules
from kcsolve.corner.spiel import (
    END_ACTION,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    TERMINAL,
    BotAgent,
    KingsCornerGame,
    KingsCornerState,
    action_of,
    move_of,
)


def test_every_action_stands_for_one_move_and_back() -> None:
    assert all(action_of(move_of(a)) == a for a in range(NUM_ACTIONS))
    for bad in (-1, NUM_ACTIONS, True, 2.0):
        with pytest.raises(IllegalCornerMoveError, match="not an action"):
            move_of(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "rules"), [(2, "default"), (3, "under=strict+tie=yes"), (4, "draw_two=yes"),
                                                (2, "until_play=yes+draw=start")])
def test_random_agents_play_whole_hands(players: int, rules: str) -> None:
    game = KingsCornerGame(players, rules, seed=1)
    rng = random.Random(players)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            assert 0 <= player < players and not state.is_chance_node()
            legal = state.legal_actions()
            assert legal == sorted(action_of(m) for m in state.position.legal_moves())
            assert all(state.legal_actions(p) == [] for p in range(players) if p != player)
            for seat in range(players):
                assert len(state.observation_tensor(seat)) == OBSERVATION_SIZE
            state.apply_action(rng.choice(legal))
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        returns = state.returns()
        assert sum(returns) in (0.0, 1.0) or abs(sum(returns) - 1) < 1e-9
        assert [seat for seat, r in enumerate(returns) if r > 0] == sorted(state.position.winners)
        replay = game.new_initial_state(state.seed)
        for action in state.history():
            replay.apply_action(action)
        assert replay.position == state.position


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = KingsCornerGame(2).new_initial_state(seed=3)
    illegal = next(a for a in range(NUM_ACTIONS) if a not in state.legal_actions())
    before = state.position
    with pytest.raises(IllegalCornerMoveError):
        state.apply_action(illegal)
    assert state.position == before and state.history() == []


def test_a_seat_observes_only_what_it_may_see() -> None:
    """Two deals that differ only in cards hidden from seat 0 look the same to it, and not to seat 1."""
    deck = seeded_deck(9)
    hidden = list(range(18, 52))  # the stock
    other = list(deck)
    swapped = [deck[i] for i in hidden]
    random.Random(2).shuffle(swapped)
    for place, card in zip(hidden, swapped):
        other[place] = card
    game = KingsCornerGame(2)
    states = [KingsCornerState(game, deal_hand(cards, 2, game.rules), 9) for cards in (deck, tuple(other))]
    assert states[0].position != states[1].position
    for seat in (0, 1):
        assert states[0].observation_tensor(seat) == states[1].observation_tensor(seat)
        assert states[0].observation_string(seat) == states[1].observation_string(seat)
    assert states[0].observation_tensor(0) != states[0].observation_tensor(1)


def highest_card_first(state: KingsCornerState, seat: int) -> int:
    """A user-written agent: the play of its highest card, a pile move if none, else the end of the turn."""
    legal = state.legal_actions(seat)
    plays = [a for a in legal if a < END_ACTION - 32]
    if plays:
        return max(plays, key=lambda a: (a // 8) % 13)
    return min(legal)  # pile moves are numbered before the end


def test_a_user_agent_plays_against_the_built_in_bots() -> None:
    game = KingsCornerGame(3, parse_corner_rules("default"), seed=11)
    bots = {1: BotAgent("greedy", 1), 2: BotAgent("turn", 2)}
    wins = [0.0, 0.0, 0.0]
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            action = highest_card_first(state, seat) if seat == 0 else bots[seat].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        wins = [w + r for w, r in zip(wins, state.returns())]
    assert sum(wins) >= 6 and wins[1] + wins[2] > 0  # hands are won, and the bots win some of them
