"""Kings Corner in OpenSpiel: where pyspiel is installed the game is registered and passes pyspiel's own random
simulation test, its MCTS bot plays a hand, and a resampled state keeps the player's information; where it is not,
nothing of OpenSpiel is imported."""

from __future__ import annotations

import random
import subprocess
import sys

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


def test_pyspiel_runs_its_own_checks_on_the_game() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    game = pyspiel.load_game("kings_corner", {"players": 3, "rules": "draw=start+hand_size=4"})
    assert game.num_players() == 3 and game.num_distinct_actions() == 865
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.slow
def test_open_spiels_mcts_plays_a_hand_and_resampling_keeps_the_information() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("kings_corner", {"players": 2, "rules": "hand_size=3"})
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
