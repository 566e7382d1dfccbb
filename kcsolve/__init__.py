"""kcsolve: an exact solver and puzzle tool for the patience Kings in the Corners."""

from .common.cards import (
    Card,
    InvalidCardError,
    InvalidDeckError,
    parse_card,
    parse_deck,
)
from .common.deal import deal
from .patience.engine import IllegalMoveError, Outcome, Place, Position, Remove, Status
from .patience.record import (
    InvalidRecordError,
    Record,
    is_win,
    judge,
    parse_record,
    read_record,
    replay,
)
from .patience.rules import STANDARD, InvalidRulesError, Rules, parse_rules
from .patience.solver import (
    DEFAULT_BUDGET,
    METHODS,
    Budget,
    InvalidBudgetError,
    Solution,
    UnsupportedMethodError,
    parse_budget,
    solve,
)

__version__ = "0.1.0"

__all__ = [
    "Card", "InvalidCardError", "InvalidDeckError", "parse_card", "parse_deck", "deal",
    "IllegalMoveError", "Outcome", "Place", "Position", "Remove", "Status",
    "InvalidRecordError", "Record", "is_win", "judge", "parse_record", "read_record", "replay",
    "STANDARD", "InvalidRulesError", "Rules", "parse_rules",
    "solve", "Solution", "Budget", "DEFAULT_BUDGET", "METHODS", "parse_budget",
    "InvalidBudgetError", "UnsupportedMethodError",
]
