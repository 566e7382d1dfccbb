"""Kings Corner for other programs, in the manner of OpenSpiel: ``game`` holds the game and its states (chance
nodes for the cards, information states, resampling); where OpenSpiel is installed, ``openspiel`` registers the game
with ``pyspiel`` as ``kings_corner``, and nothing of OpenSpiel is imported otherwise."""

from __future__ import annotations

import importlib.util

from kcsolve.corner.spiel.game import (
    CARD_PLANES,
    CHANCE,
    END_ACTION,
    MERGES,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    PLAYS,
    RESAMPLE_TRIES,
    TERMINAL,
    UNDERS,
    BotAgent,
    InvalidDrawsError,
    InvalidSeatError,
    KingsCornerGame,
    KingsCornerState,
    ResampleError,
    action_of,
    move_of,
)

__all__ = [
    "CARD_PLANES",
    "CHANCE",
    "END_ACTION",
    "MERGES",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "PLAYS",
    "RESAMPLE_TRIES",
    "TERMINAL",
    "UNDERS",
    "BotAgent",
    "InvalidDrawsError",
    "InvalidSeatError",
    "KingsCornerGame",
    "KingsCornerState",
    "ResampleError",
    "action_of",
    "move_of",
]

if importlib.util.find_spec("pyspiel") is not None:  # OpenSpiel is installed: give it the game
    from kcsolve.corner.spiel import openspiel

    openspiel.register()
