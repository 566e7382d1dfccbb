"""Kings Corner in OpenSpiel: where pyspiel is installed the game is registered, passes pyspiel's own random
simulation test with saving under every rule option, loads again from its string, refuses what it does not provide,
lends its bots to OpenSpiel, its MCTS bot plays a hand, and a resampled state keeps the player's information; where
it is not, nothing of OpenSpiel is imported."""

from __future__ import annotations

import pickle
import random
import re
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest

import kcsolve.corner.spiel  # noqa: F401  (registers the game where pyspiel is installed)


def test_without_open_spiel_nothing_of_it_is_imported() -> None:
    code = (
        "import importlib.util as u, sys\n"
        "real = u.find_spec\n"
        "u.find_spec = lambda name, *rest: None if name == 'pyspiel' else real(name, *rest)\n"
        "import kcsolve.corner.spiel\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyspiel', 'open_spiel', 'numpy')\n"
        "      or m == 'kcsolve.corner.spiel.openspiel'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.fixture
def pyspiel() -> ModuleType:
    """OpenSpiel's pyspiel, the test skipped where it is not installed."""
    return pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")


VARIANTS = [  # between them every rule option away from its default, and each table size
    {"players": 3, "draw": "start", "draw_two": True, "hand_size": 4},
    {"until_play": True, "under": "strict", "scoring": "aces"},
    {"players": 4, "under": "yes", "draw_three": True, "dealt_kings": "stay", "tie": True, "target": 100},
]


def midway(state: Any, steps: int, rng: random.Random) -> Any:
    """``state`` after ``steps`` random actions, or at the end of the hand."""
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("params", VARIANTS)
def test_pyspiel_checks_and_saves_the_game_under_every_variant(pyspiel: ModuleType, params: dict[str, Any]) -> None:
    """pyspiel's own random simulation test, saving and loading at every step; the game's string loads the same
    game, and a pickled state is the same state and plays on the same way."""
    game = pyspiel.load_game("kings_corner", params)
    assert game.num_players() == params.get("players", 2) and game.num_distinct_actions() == 865
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert str(pyspiel.load_game(str(game))) == str(game) == str(pickle.loads(pickle.dumps(game)))
    state = midway(game.new_initial_state(), 60, random.Random(1))
    copy = pickle.loads(pickle.dumps(state))
    for later in (state, copy):
        midway(later, 40, random.Random(2))
    assert str(copy) == str(state) and copy.history() == state.history()
    assert [copy.information_state_string(p) for p in range(game.num_players())] == [
        state.information_state_string(p) for p in range(game.num_players())
    ]


def test_the_rules_go_as_one_parameter_per_option_or_as_a_rule_text(pyspiel: ModuleType) -> None:
    from kcsolve.corner.game.engine import InvalidPlayersError
    from kcsolve.corner.game.rules import InvalidCornerRulesError

    text = pyspiel.load_game("kings_corner", {"players": 3, "rules": "draw=start+hand_size=4"})
    typed = pyspiel.load_game("kings_corner(draw=start,hand_size=4,players=3)")
    assert str(text) == str(typed) == "kings_corner(draw=start,hand_size=4,players=3)"
    assert str(pyspiel.load_game("kings_corner", {"rules": "default", "players": 2})) == "kings_corner()"
    assert text.get_parameters() == {"draw": "start", "hand_size": 4, "players": 3}
    refused = [
        ({"rules": "draw=start", "tie": True}, InvalidCornerRulesError, "rules given twice"),
        ({"until_play": True, "draw": "start"}, InvalidCornerRulesError, "never acts"),
        ({"under": "sideways"}, InvalidCornerRulesError, "'under' takes no or yes or strict, not 'sideways'"),
        ({"hand_size": 11}, InvalidCornerRulesError, "'hand_size' takes a whole number from 1 to 10"),
        ({"players": 5}, InvalidPlayersError, "2 to 4 players, not 5"),
    ]
    for params, error, message in refused:
        with pytest.raises(error, match=re.escape(message)):
            pyspiel.load_game("kings_corner", params)
    from kcsolve.corner.spiel.openspiel import PyKingsCornerGame

    with pytest.raises(InvalidCornerRulesError, match="unknown Kings Corner parameter 'colour'"):
        PyKingsCornerGame({"colour": "red"})  # pyspiel refuses it first; a direct call meets the game's own check


def test_the_game_says_what_it_provides_and_how_long_a_hand_lasts(pyspiel: ModuleType) -> None:
    from open_spiel.python.observation import make_observation

    from kcsolve.corner.spiel import OBSERVATION_SIZE, KingsCornerGame
    from kcsolve.corner.spiel.openspiel import InvalidObserverError, NoInformationStateTensorError

    game = pyspiel.load_game("kings_corner(players=4,hand_size=1)")
    assert game.max_game_length() == KingsCornerGame(4, "hand_size=1").max_game_length() < 600
    assert game.max_chance_nodes_in_history() == 52
    assert not game.get_type().provides_information_state_tensor and game.observation_tensor_shape() == [
        OBSERVATION_SIZE
    ]
    state = midway(game.new_initial_state(), 30, random.Random(3))
    with pytest.raises(NoInformationStateTensorError, match="no information state tensor"):
        state.information_state_tensor(0)
    assert len(state.observation_tensor(0)) == OBSERVATION_SIZE
    public = pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(InvalidObserverError, match="observes one seat"):
        make_observation(game, public)


def test_a_state_shows_the_table_and_copies_cheaply_and_apart(pyspiel: ModuleType) -> None:
    """str(state) is the whole table; a clone is the same state, and playing on it leaves the original alone."""
    game = pyspiel.load_game("kings_corner(players=3)")
    state = midway(game.new_initial_state(), 30, random.Random(4))
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    shown = str(state)
    assert re.search(
        r"^ ?NW .*\n.*\n.*\nStock: \d+ cards\nPlayer 1.*\nPlayer 2.*\nPlayer 3.*\nto move: player \d$", shown
    )
    copy = state.clone()
    assert str(copy) == shown and copy.history() == state.history()
    midway(copy, 20, random.Random(5))
    assert str(state) == shown and len(copy.history()) > len(state.history())


def test_the_built_in_bots_play_as_pyspiel_bots(pyspiel: ModuleType) -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from kcsolve.corner.spiel.openspiel import NotKingsCornerError, SpielBot

    game = pyspiel.load_game("kings_corner(players=3)")
    bots = [SpielBot("greedy", 0), SpielBot("random", 1, seed=2), SpielBot("turn", 2)]
    assert isinstance(bots[0], pyspiel.Bot) and [bot.player_id() for bot in bots] == [0, 1, 2]
    returns = [evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(hand)) for hand in range(3)]
    assert all(sum(r) == pytest.approx(1.0) for r in returns)
    assert sum(pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)) == pytest.approx(1.0)
    with pytest.raises(NotKingsCornerError, match=r"not one of tic_tac_toe\(\)"):
        bots[0].step(pyspiel.load_game("tic_tac_toe").new_initial_state())


@pytest.mark.slow
def test_open_spiels_mcts_plays_a_hand_and_resampling_keeps_the_information(pyspiel: ModuleType) -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("kings_corner(hand_size=3)")
    rng, choose = np.random.RandomState(0), random.Random(0)
    bot = mcts.MCTSBot(game, 1.4, 10, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state, resampled = game.new_initial_state(), False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(choose.choice([card for card, _ in state.chance_outcomes()]))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            if len(state.history()) > 30 and not resampled:
                resampled = True
                sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert sample.information_state_string(1) == state.information_state_string(1)
                assert sample.observation_tensor(1) == state.observation_tensor(1)
                assert sample.legal_actions() == state.legal_actions()
            state.apply_action(choose.choice(state.legal_actions()))
    assert sorted(state.returns()) == [0.0, 1.0]
