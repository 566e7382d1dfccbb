"""kcsolve: an exact solver and puzzle tool for the patience Kings in the Corners."""

from kcsolve.common.cards import (
    Card,
    InvalidCardError,
    InvalidDeckError,
    parse_card,
    parse_deck,
)
from kcsolve.common.deal import deal
from kcsolve.patience.engine import IllegalMoveError, Outcome, Place, Position, Remove, Status
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

__version__ = "0.1.0"

__all__ = [
    "Card", "InvalidCardError", "InvalidDeckError", "parse_card", "parse_deck", "deal",
    "IllegalMoveError", "Outcome", "Place", "Position", "Remove", "Status",
    "InvalidRecordError", "Record", "is_win", "judge", "parse_record", "read_record", "replay",
    "STANDARD", "InvalidRulesError", "Rules", "parse_rules",
    "solve", "Solution", "Verdict", "Budget", "DEFAULT_BUDGET", "METHODS", "parse_budget",
    "InvalidBudgetError", "UnsupportedMethodError",
]
