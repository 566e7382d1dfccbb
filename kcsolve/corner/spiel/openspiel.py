"""Kings Corner registered with OpenSpiel's ``pyspiel`` as the python game ``kings_corner``.

``kcsolve.corner.spiel`` imports this module only where OpenSpiel is installed
(``pip install open_spiel``); then ``pyspiel.load_game("kings_corner(players=3,draw=start)")``
gives the game to OpenSpiel's algorithms and tests. The parameters are ``players`` and
one typed parameter per rule option, so the game's string loads the same game again;
``rules``, a rule text such as ``"draw=start+tie=yes"``, is accepted in a parameter
dict as a shorthand for them. Cards are chance nodes, as in ``KingsCornerGame``'s
default draws; each state wraps one of its states, and the observer gives the same
strings and tensor. ``SpielBot`` seats a built-in bot as a ``pyspiel.Bot``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from kcsolve.corner.game.engine import MAX_PLAYERS, MIN_PLAYERS
from kcsolve.corner.game.rules import DEFAULT, CornerRules, InvalidCornerRulesError, parse_corner_rules, rules_from_json
from kcsolve.corner.spiel.game import NUM_ACTIONS, OBSERVATION_SIZE, BotAgent, KingsCornerGame, KingsCornerState
from kcsolve.errors import KcsolveError

SHORT_NAME = "kings_corner"
RULE_OPTIONS = DEFAULT.to_json()  # each option's default, of the type a game string gives it
PARAMETERS: dict[str, Any] = {"players": MIN_PLAYERS, **RULE_OPTIONS, "rules": "default"}
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
    parameter_specification=PARAMETERS,
)


class InvalidObserverError(KcsolveError):
    """An observation type or parameters the game's observer does not offer."""


class NoInformationStateTensorError(KcsolveError):
    """The information state tensor was asked for: the game offers the string and the observation tensor."""


class NotKingsCornerError(KcsolveError):
    """A state of another game handed to a Kings Corner bot."""


def rules_of(params: dict[str, Any]) -> CornerRules:
    """The CornerRules the parameters give: the ``rules`` text, or the typed options, never both."""
    changed = {name: params[name] for name, default in RULE_OPTIONS.items() if params[name] != default}
    if params["rules"] != "default":
        if changed:
            raise InvalidCornerRulesError(
                f"rules given twice, as the text {params['rules']!r} and as options {changed!r}: give one of them"
            )
        return parse_corner_rules(params["rules"])
    return rules_from_json(changed)


class PyKingsCornerGame(pyspiel.Game):
    """The game for pyspiel: ``players`` (2 to 4) and one parameter per rule option (or the ``rules`` text)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**PARAMETERS, **(params or {})}
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise InvalidCornerRulesError(
                f"unknown Kings Corner parameter {unknown[0]!r} (parameters: {', '.join(PARAMETERS)})"
            )
        self.corner = KingsCornerGame(params["players"], rules_of(params))
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=self.corner.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.corner.max_game_length(),
        )
        # Only the typed values that differ from the defaults: the game's string then names each game one way,
        # and a rule text (which holds '=' and '+') never enters it.
        typed = {"players": self.corner.players, **self.corner.rules.to_json()}
        super().__init__(GAME_TYPE, info, {name: v for name, v in typed.items() if v != PARAMETERS[name]})

    def new_initial_state(self) -> PyKingsCornerState:
        """The hand before the deal."""
        return PyKingsCornerState(self, self.corner.new_initial_state())

    def max_chance_nodes_in_history(self) -> int:
        """One chance node for each card taken from the deck."""
        return self.corner.max_chance_nodes_in_history()

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer: a seat's information state (perfect recall) or its observation, nothing else."""
        return Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class PyKingsCornerState(pyspiel.State):
    """A state for pyspiel, wrapping a KingsCornerState."""

    def __init__(self, game: PyKingsCornerGame, state: KingsCornerState) -> None:
        super().__init__(game)
        self._corner = state

    @property
    def corner(self) -> KingsCornerState:
        """The KingsCornerState this state wraps."""
        return self._corner

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
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise InvalidObserverError(
                "Kings Corner observes one seat with the public cards (the information state or the observation), "
                f"not public_info={iig_obs_type.public_info!r}, private_info={iig_obs_type.private_info!r}"
            )
        self.perfect_recall = iig_obs_type.perfect_recall
        # pyspiel reads a tensor of None as "this observer has none"
        self.tensor = None if self.perfect_recall else np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {} if self.tensor is None else {"observation": self.tensor}

    def set_from(self, state: PyKingsCornerState, player: int) -> None:
        """Fill the tensor with ``player``'s observation; NoInformationStateTensorError for the information state."""
        if self.perfect_recall:
            raise NoInformationStateTensorError(
                "Kings Corner has no information state tensor: use information_state_string or observation_tensor"
            )
        assert self.tensor is not None
        self.tensor[:] = state.corner.observation_tensor(player)

    def string_from(self, state: PyKingsCornerState, player: int) -> str:
        """``player``'s information state or observation as text."""
        if self.perfect_recall:
            return state.corner.information_state_string(player)
        return state.corner.observation_string(player)


class SpielBot(pyspiel.Bot):
    """A built-in bot ('random', 'greedy', 'turn', 'search') as a ``pyspiel.Bot`` playing one seat of
    ``kings_corner`` from that seat's observation, for ``evaluate_bots`` and OpenSpiel's other tools."""

    def __init__(self, name: str, seat: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self._agent = BotAgent(name, seat, seed)

    def player_id(self) -> int:
        """The seat the bot plays."""
        return self._agent.seat

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to reset: the bot decides from the state it is given."""

    def step(self, state: pyspiel.State) -> int:
        """The bot's action, where its seat is to move."""
        if not isinstance(state, PyKingsCornerState):
            raise NotKingsCornerError(f"a Kings Corner bot plays kings_corner states, not one of {state.get_game()}")
        return self._agent.step(state.corner)


def register() -> None:
    """Register the game with pyspiel (once)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, PyKingsCornerGame)
