"""kcsolve: an exact solver and puzzle tool for the patience Kings in the Corners.

The library's names are loaded on first use (PEP 562), so ``import kcsolve`` and
``kcsolve --version`` stay cheap: ``kcsolve.solve`` imports the solver, not the
players, and nothing here imports numba or numpy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> the module that defines it
_HOMES = {
    "KcsolveError": "kcsolve.errors",
    **dict.fromkeys(
        ["Card", "InvalidCardError", "InvalidDeckError", "parse_card", "parse_deck"], "kcsolve.common.cards"
    ),
    **dict.fromkeys(["InvalidSeedError", "deal"], "kcsolve.common.deal"),
    **dict.fromkeys(
        [
            "Afterstate",
            "IllegalMoveError",
            "InvalidViewError",
            "Outcome",
            "Place",
            "PlayerView",
            "Position",
            "Remove",
            "Status",
        ],
        "kcsolve.patience.engine",
    ),
    **dict.fromkeys(["Hint", "InvalidHintRequestError", "hints"], "kcsolve.patience.players.hints"),
    **dict.fromkeys(["PLAYERS", "Player"], "kcsolve.patience.players.selfplay"),
    **dict.fromkeys(
        ["InvalidRecordError", "Record", "is_win", "judge", "parse_record", "read_record", "replay"],
        "kcsolve.patience.record",
    ),
    **dict.fromkeys(["STANDARD", "InvalidRulesError", "Rules", "parse_rules"], "kcsolve.patience.rules"),
    **dict.fromkeys(
        [
            "DEFAULT_BUDGET",
            "METHODS",
            "Budget",
            "InvalidBudgetError",
            "Solution",
            "UnsupportedMethodError",
            "Verdict",
            "parse_budget",
            "solve",
        ],
        "kcsolve.patience.solve.route",
    ),
}

__all__ = [
    "DEFAULT_BUDGET",
    "METHODS",
    "PLAYERS",
    "STANDARD",
    "Afterstate",
    "Budget",
    "Card",
    "Hint",
    "IllegalMoveError",
    "InvalidBudgetError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidHintRequestError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidSeedError",
    "InvalidViewError",
    "KcsolveError",
    "Outcome",
    "Place",
    "Player",
    "PlayerView",
    "Position",
    "Record",
    "Remove",
    "Rules",
    "Solution",
    "Status",
    "UnsupportedMethodError",
    "Verdict",
    "deal",
    "hints",
    "is_win",
    "judge",
    "parse_budget",
    "parse_card",
    "parse_deck",
    "parse_record",
    "parse_rules",
    "read_record",
    "replay",
    "solve",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module 'kcsolve' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names only: not the helpers this module imports for itself."""
    return sorted([*__all__, "__version__"])


if TYPE_CHECKING:
    from kcsolve.common.cards import Card, InvalidCardError, InvalidDeckError, parse_card, parse_deck
    from kcsolve.common.deal import InvalidSeedError, deal
    from kcsolve.errors import KcsolveError
    from kcsolve.patience.engine import (
        Afterstate,
        IllegalMoveError,
        InvalidViewError,
        Outcome,
        Place,
        PlayerView,
        Position,
        Remove,
        Status,
    )
    from kcsolve.patience.players.hints import Hint, InvalidHintRequestError, hints
    from kcsolve.patience.players.selfplay import PLAYERS, Player
    from kcsolve.patience.record import (
        InvalidRecordError,
        Record,
        is_win,
        judge,
        parse_record,
        read_record,
        replay,
    )
    from kcsolve.patience.rules import STANDARD, InvalidRulesError, Rules, parse_rules
    from kcsolve.patience.solve.route import (
        DEFAULT_BUDGET,
        METHODS,
        Budget,
        InvalidBudgetError,
        Solution,
        UnsupportedMethodError,
        Verdict,
        parse_budget,
        solve,
    )
