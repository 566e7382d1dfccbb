"""The OpenSpiel-style interface: random agents play whole hands through it, a user-written agent plays against
the built-in bots, actions stand for exactly the legal moves, and a seat observes only what it may see."""

from __future__ import annotations

import random

import pytest

from kcsolve.common.cards import parse_card
from kcsolve.corner.engine import (
    IllegalCornerMoveError,
    Merge,
    Play,
    Position,
    Under,
    card_int,
    deal_hand,
    seeded_deck,
)
from kcsolve.corner.rules import parse_corner_rules
from kcsolve.corner.spiel import (
    END_ACTION,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    TERMINAL,
    BotAgent,
    InvalidSeatError,
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


def test_the_strict_play_under_is_observed_and_a_seat_must_be_at_the_table() -> None:
    """Under 001's play-under the legal moves hang on the spots this turn's pile moves emptied and on the spot that
    filled the vacancy: the observation says both."""
    def card(text: str) -> int:
        return card_int(parse_card(text))

    def piles(**named: str) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(card(t) for t in named.get(name, "").split())
                     for name in ("N", "E", "S", "W", "NE", "SE", "SW", "NW"))

    game = KingsCornerGame(2, "under=strict")
    hands = (tuple(sorted(card(t) for t in ["5H", "9H", "TS", "QD"])), (card("2C"),))
    state = KingsCornerState(game, Position(game.rules, piles(N="9D", E="4C", S="8S"), hands, (0, 1, 2)), 0)
    marks = slice(OBSERVATION_SIZE - 8, OBSERVATION_SIZE)
    assert state.observation_tensor(0)[marks] == [0.0] * 8
    for move in (Merge(2, 0), Under(card("5H"), 1)):
        state.apply_action(action_of(move))
    assert state.observation_tensor(0)[marks] == [0.0, 0.0, 1.0, 0.0] + [0.0] * 4
    state.apply_action(action_of(Play(card("TS"), 2)))
    assert state.observation_tensor(0)[marks] == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert state.observation_tensor(1)[marks] == state.observation_tensor(0)[marks]
    for seat in (-1, 2, True, "0"):
        with pytest.raises(InvalidSeatError, match="no seat"):
            state.observation(seat)  # type: ignore[arg-type]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.observation_string(0).endswith("the hand is over")
