"""The OpenSpiel-style interface: random agents play whole hands through it, a user-written agent plays against
the built-in bots, actions stand for exactly the legal moves, cards are chance nodes, and a seat observes only what
it may see: two deals it cannot tell apart look the same to it, and a resampled state is one of them."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from kcsolve.common.cards import parse_card
from kcsolve.corner.game.engine import (
    IllegalCornerMoveError,
    InvalidPlayersError,
    Merge,
    Play,
    Position,
    Under,
    card_int,
    card_text,
    deal_hand,
    seeded_deck,
)
from kcsolve.corner.game.rules import parse_corner_rules
from kcsolve.corner.spiel import (
    CHANCE,
    END_ACTION,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    TERMINAL,
    BotAgent,
    InvalidDrawsError,
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


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, "default"), (3, "under=strict+tie=yes"), (4, "draw_two=yes"), (2, "until_play=yes+draw_two=yes")],
)
def test_random_agents_play_whole_hands(players: int, rules: str) -> None:
    """Under dealt draws the state follows the engine's own hand move for move; under chance draws every card
    comes from a chance node and the hands end the same way."""
    game = KingsCornerGame(players, rules, seed=1, draws="dealt")
    rng = random.Random(players)
    for deal in range(5):
        state = game.new_initial_state(deal)
        position = deal_hand(seeded_deck(deal), players, game.rules)
        while not state.is_terminal():
            player = state.current_player()
            assert 0 <= player < players and not state.is_chance_node()
            legal = state.legal_actions()
            assert legal == sorted(action_of(m) for m in position.legal_moves())
            assert all(state.legal_actions(p) == [] for p in range(players) if p != player)
            for seat in range(players):
                assert len(state.observation_tensor(seat)) == OBSERVATION_SIZE
            action = rng.choice(legal)
            state.apply_action(action)
            position = position.play(move_of(action))
        assert position.over and state.current_player() == TERMINAL and state.legal_actions() == []
        returns = state.returns()
        assert abs(sum(returns) - 1) < 1e-9
        assert [seat for seat, r in enumerate(returns) if r > 0] == sorted(position.winners)
        assert state.penalties() == list(position.penalties())
    chance = KingsCornerGame(players, rules)
    for _ in range(3):
        state, cards = chance.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert state.current_player() == CHANCE and len(outcomes) == 52 - cards
                assert all(abs(odds - 1 / len(outcomes)) < 1e-12 for _, odds in outcomes)
                state.apply_action(rng.choice(outcomes)[0])
                cards += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert abs(sum(state.returns()) - 1) < 1e-9


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = KingsCornerGame(2, draws="dealt").new_initial_state(seed=3)
    illegal = next(a for a in range(NUM_ACTIONS) if a not in state.legal_actions())
    before = [state.information_state_string(seat) for seat in (0, 1)]
    with pytest.raises(IllegalCornerMoveError):
        state.apply_action(illegal)
    assert [state.information_state_string(seat) for seat in (0, 1)] == before and state.history() == []
    chance = KingsCornerGame(2).new_initial_state()
    for bad in (52, -1, True):
        with pytest.raises(IllegalCornerMoveError, match="not a card nobody has seen"):
            chance.apply_action(bad)
    chance.apply_action(7)
    with pytest.raises(IllegalCornerMoveError, match="not a card nobody has seen"):
        chance.apply_action(7)
    with pytest.raises(InvalidDrawsError, match="draws='dealt'"):
        KingsCornerGame(2).new_initial_state(seed=3)
    with pytest.raises(InvalidDrawsError, match="'peek'"):
        KingsCornerGame(2, draws="peek")


def play_randomly(state: KingsCornerState, rng: random.Random, steps: int) -> KingsCornerState:
    """Up to ``steps`` random actions (chance outcomes included), stopping at the end of the hand."""
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def seen_by(state: KingsCornerState, seat: int) -> tuple[str, str, list[float], list[int]]:
    """Everything the interface shows ``seat``."""
    return (
        state.information_state_string(seat),
        state.observation_string(seat),
        state.observation_tensor(seat),
        state.legal_actions(seat),
    )


RULE_SETS = [
    "default",
    "until_play=yes",
    "draw=start+draw_two=yes",
    "under=yes+tie=yes",
    "under=strict",
    "draw_three=yes+dealt_kings=stay",
]


def same_information(states: list[KingsCornerState], seat: int, rules: str) -> bool:
    """Whether the seat's information states agree; only drawing until a card can be played shows a seat how many
    cards the others drew, so only there may a swap of cards it has not seen tell two deals apart."""
    same = states[0].information_state_string(seat) == states[1].information_state_string(seat)
    assert same or "until_play" in rules
    return same


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS)
def test_deals_a_seat_cannot_tell_apart_look_the_same_to_it(rules: str) -> None:
    """Property over seeded deals: swap two cards the seat has not seen in the deck, replay the same moves, and
    at every step the seat's information state, observation and legal actions are the same, while some other seat
    sees a difference."""
    compared = differed = 0
    for deal in range(16):
        rng = random.Random(deal)
        players = 2 + deal % 3
        game = KingsCornerGame(players, rules, draws="dealt")
        played = play_randomly(game.new_initial_state(deal), rng, rng.randrange(1, 120))
        seat = rng.randrange(players)
        deck = list(seeded_deck(deal))
        unseen = [i for i, card in enumerate(deck) if card_text(card) not in named(played, seat)]
        if len(unseen) < 2:
            continue
        first, second = rng.sample(unseen, 2)
        deck[first], deck[second] = deck[second], deck[first]
        states = [KingsCornerState(game, tuple(seeded_deck(deal))), KingsCornerState(game, tuple(deck))]
        try:
            for step, action in enumerate(played.history()):
                if step % 7 == 0 and same_information(states, seat, rules):
                    assert seen_by(states[0], seat) == seen_by(states[1], seat)
                for state in states:
                    state.apply_action(action)
        except IllegalCornerMoveError:  # the swap gave a pass with the stock empty a play: another deal, not this
            continue
        if not same_information(states, seat, rules):
            continue
        assert seen_by(states[0], seat) == seen_by(states[1], seat)
        compared += 1
        differed += any(seen_by(states[0], s) != seen_by(states[1], s) for s in range(players) if s != seat)
    assert compared >= 12 and differed >= 4


@pytest.mark.slow
@pytest.mark.parametrize("draws", ["chance", "dealt"])
@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_resampled_state_is_one_the_seat_cannot_tell_from_the_real_one(rules: str, draws: str) -> None:
    """Property over seeded deals: a state resampled for a seat shows that seat exactly what the real one does
    (information state, observation, legal actions), differs in the hidden cards, and plays on to the end."""
    differed = 0
    for deal in range(16):
        rng = random.Random(deal)
        players = 2 + deal % 3
        game = KingsCornerGame(players, rules, draws=draws)
        steps = rng.randrange(1, 150)
        state = play_randomly(
            game.new_initial_state(deal) if draws == "dealt" else game.new_initial_state(), rng, steps
        )
        seat = rng.randrange(players)
        sample = state.resample_from_infostate(seat, rng)
        assert seen_by(sample, seat) == seen_by(state, seat)
        assert sample.history()[-len(state.history()) :] == state.history() or draws == "chance"
        differed += any(sample.observation(s).hand != state.observation(s).hand for s in range(players) if s != seat)
        play_randomly(sample, rng, 2_000)
        assert sample.is_terminal()
    assert differed >= 8


def test_nothing_public_holds_the_hidden_cards() -> None:
    """The deck, the seed and the position are private, and a copy played on shows a draw as a chance node, not
    the card drawn."""
    for draws in ("chance", "dealt"):
        game = KingsCornerGame(3, draws=draws, seed=5)
        state = play_randomly(game.new_initial_state(), random.Random(1), 60)
        assert [name for name in vars(state) if not name.startswith("_")] == []
        assert state.penalties() == [0, 0, 0] and not state.is_terminal()  # they would tell what others hold
        assert [name for name in vars(game) if not name.startswith("_")] == ["players", "rules", "draws"]
    state = play_randomly(KingsCornerGame(2).new_initial_state(), random.Random(2), 25)
    while state.is_chance_node() or END_ACTION not in state.legal_actions():
        state.apply_action(random.Random(3).choice(state.legal_actions()))
    peek = state.clone()
    peek.apply_action(END_ACTION)  # draw=end: the player ends the turn and draws
    revealed = named(state, 0) | named(state, 1)
    assert peek.is_chance_node()
    assert {card_text(card) for card, _ in peek.chance_outcomes()} == {card_text(c) for c in range(52)} - revealed


def named(state: KingsCornerState, seat: int) -> set[str]:
    """The cards a seat's information state names: its own, those turned up, those played."""
    return set(re.findall(r"\b[A2-9TJQK][SHDC]\b", state.information_state_string(seat)))


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
    wins, cards = [0.0, 0.0, 0.0], random.Random(4)
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(cards.choice(state.legal_actions()))
                continue
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
        return tuple(
            tuple(card(t) for t in named.get(name, "").split()) for name in ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
        )

    game = KingsCornerGame(2, "under=strict", draws="dealt")
    hands = (tuple(sorted(card(t) for t in ["5H", "9H", "TS", "QD"])), (card("2C"),))
    position = Position(game.rules, piles(N="9D", E="4C", S="8S"), hands, (0, 1, 2))
    rest = [c for c in range(52) if c not in position.cards()]
    state = KingsCornerState(game, tuple(rest + position.cards()))
    state._position = position  # a position no deal reaches in one turn: set in place, its stock last in the deck
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


def twin_states(rules: str, hand: int) -> Iterator[tuple[KingsCornerState, KingsCornerState, int]]:
    """Pairs of states one seat should not tell apart, step by step: a random hand under chance draws, and the same
    hand with two cards that seat never sees swapped wherever chance deals them, as long as the swap lets it replay."""
    rng = random.Random(hand)
    players = 2 + hand % 3
    game = KingsCornerGame(players, rules)
    played = play_randomly(game.new_initial_state(), rng, rng.randrange(20, 160))
    seat = rng.randrange(players)
    unseen = sorted(set(range(52)) - {card_int(parse_card(text)) for text in named(played, seat)})
    if len(unseen) < 2:
        return
    first, second = rng.sample(unseen, 2)
    swap = {first: second, second: first}
    states = [game.new_initial_state(), game.new_initial_state()]
    for action in played.history():
        yield states[0], states[1], seat
        if states[0].is_chance_node() != states[1].is_chance_node():
            return  # the swapped card ended a draw the real one did not: the hands go different ways from here
        twin_action = swap.get(action, action) if states[1].is_chance_node() else action
        if twin_action not in states[1].legal_actions():
            return
        states[0].apply_action(action)
        states[1].apply_action(twin_action)


@pytest.mark.parametrize("rules", ["until_play=yes", "until_play=yes+draw_two=yes", "under=strict+tie=yes"])
def test_an_information_state_tells_apart_whatever_the_seat_observes(rules: str) -> None:
    """Property: two states with the same information state for a seat show it the same observation and the same
    player to move (under until_play a draw stops at the first card that plays, and the seat sees it stop)."""
    compared = 0
    for hand in range(24):
        for real, twin, seat in twin_states(rules, hand):
            if real.information_state_string(seat) == twin.information_state_string(seat):
                assert real.observation_string(seat) == twin.observation_string(seat)
                assert real.current_player() == twin.current_player()
                compared += 1
    assert compared >= 500


def stalling(legal: list[int], rng: random.Random) -> int:
    """A player that makes hands long: it ends the turn whenever it may, else moves a pile where it can."""
    if END_ACTION in legal:
        return END_ACTION
    return rng.choice([a for a in legal if a >= END_ACTION - 32] or legal)


@pytest.mark.parametrize(
    ("players", "rules"),
    [(2, "default"), (4, "hand_size=1+under=yes+tie=yes"), (3, "until_play=yes+draw_two=yes"), (4, "draw=start")],
)
def test_no_hand_is_longer_than_the_games_bound(players: int, rules: str) -> None:
    """Random and stalling players never make more moves in a hand than max_game_length() says, nor chance more
    draws than max_chance_nodes_in_history()."""
    game = KingsCornerGame(players, rules)
    rng, longest = random.Random(players), 0
    for hand in range(24):
        state, moves, cards = game.new_initial_state(), 0, 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node():
                cards += 1
                state.apply_action(rng.choice(legal))
            else:
                moves += 1
                state.apply_action(stalling(legal, rng) if hand % 2 else rng.choice(legal))
        assert moves <= game.max_game_length() and cards <= game.max_chance_nodes_in_history() == 52
        longest = max(longest, moves)
    assert game.max_game_length() < 600 and longest > 100


@pytest.mark.parametrize("players", ["3", 3.0, True, 1, 5])
def test_a_table_of_other_than_two_to_four_players_is_refused(players: object) -> None:
    with pytest.raises(InvalidPlayersError, match=re.escape(f"2 to 4 players, not {players!r}")):
        KingsCornerGame(players)  # type: ignore[arg-type]
