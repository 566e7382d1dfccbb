"""Kings Corner registered with OpenSpiel's ``pyspiel`` as the python game ``kings_corner``.

``kcsolve.corner.spiel`` imports this module only where OpenSpiel is installed
(``pip install open_spiel``); then ``pyspiel.load_game("kings_corner", {"players": 3,
"rules": "draw=start"})`` gives the game to OpenSpiel's algorithms and tests. Cards
are chance nodes, as in ``KingsCornerGame``'s default draws; each state wraps one of
its states, and the observer gives the same strings and tensor.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from kcsolve.corner.engine import MAX_PLAYERS, MIN_PLAYERS
from kcsolve.corner.spiel.game import NUM_ACTIONS, OBSERVATION_SIZE, KingsCornerGame, KingsCornerState
from kcsolve.errors import KcsolveError

SHORT_NAME = "kings_corner"
MAX_GAME_LENGTH = 52 + 10_000  # every card, then far more moves than any hand makes (sim's MAX_HAND_MOVES)
GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Kings Corner (kcsolve)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "rules": "default"},
)


class InvalidObserverError(KcsolveError):
    """Parameters given to the observer, which takes none."""


class PyKingsCornerGame(pyspiel.Game):
    """The game for pyspiel: parameters 'players' (2 to 4) and 'rules' (a rule text)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.corner = KingsCornerGame(int(params["players"]), str(params["rules"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=self.corner.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> PyKingsCornerState:
        """The hand before the deal."""
        return PyKingsCornerState(self, self.corner.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer: the information state (perfect recall) or the observation."""
        return Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class PyKingsCornerState(pyspiel.State):
    """A state for pyspiel, wrapping a KingsCornerState."""

    def __init__(self, game: PyKingsCornerGame, state: KingsCornerState) -> None:
        super().__init__(game)
        self._corner = state

    def current_player(self) -> int:
        return self._corner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._corner.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._corner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._corner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._corner.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self._corner.is_terminal()

    def returns(self) -> list[float]:
        return self._corner.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PyKingsCornerState:
        """A state ``player_id`` cannot tell from this one, drawn with OpenSpiel's sampler as the seed."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.get_game()
        sample = PyKingsCornerState(game, game.corner.new_initial_state())
        for action in self._corner.resample_from_infostate(player_id, rng).history():
            sample.apply_action(action)  # replayed through pyspiel, which keeps its own history
        return sample

    def __str__(self) -> str:
        return str(self._corner)


class Observer:
    """pyspiel's observer: the information state string where perfect recall is asked for, else the observation."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise InvalidObserverError(f"Kings Corner's observer takes no parameters, not {params!r}")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(0 if self.perfect_recall else OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PyKingsCornerState, player: int) -> None:
        """Fill the tensor with ``player``'s observation."""
        if not self.perfect_recall:
            self.tensor[:] = state._corner.observation_tensor(player)

    def string_from(self, state: PyKingsCornerState, player: int) -> str:
        """``player``'s information state or observation as text."""
        if self.perfect_recall:
            return state._corner.information_state_string(player)
        return state._corner.observation_string(player)


def register() -> None:
    """Register the game with pyspiel (once)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, PyKingsCornerGame)
