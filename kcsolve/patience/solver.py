"""Deciding a deal: the route chooser over the methods in :mod:`kcsolve.patience.methods`.

Each method is one module with the same entry point, ``solve(deck, rules, budget)``
returning a :class:`Solution`; adding a method means adding its module and one
line in :data:`ROUTES`. This module only picks the route, applies the budget and
hands back the answer.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..common.cards import Card
from . import theory
from .rules import STANDARD, Rules
from .solution import (
    Budget,
    InvalidBudgetError,
    RejectedLineError,
    Solution,
    UnsupportedMethodError,
    parse_budget,
)

# method name -> module under kcsolve.patience.methods (loaded on first use, so pysat loads only for sat)
ROUTES = {
    "construct": "construct",
    "course": "course",
    "sat": "sat",
    "dfs": "dfs",
}
METHODS = ("auto", *ROUTES)

__all__ = [
    "METHODS", "ROUTES", "Budget", "InvalidBudgetError", "RejectedLineError", "Solution",
    "UnsupportedMethodError", "parse_budget", "solve", "method_module",
]


def method_module(name: str) -> ModuleType:
    """The module that implements method ``name``."""
    return importlib.import_module(f"{__package__}.methods.{ROUTES[name]}")


def solve(deck: tuple[Card, ...], rules: Rules = STANDARD, method: str = "auto", budget: Budget = Budget()) -> Solution:
    """Decide a deal: 'win' with a complete line, 'loss' with the reason, or 'unknown' on budget.

    ``auto`` takes the fastest exact route: under forced pair removal the forced
    course and the built line (Theorem 2), which needs no search, with SAT as the
    referee should the engine ever refuse a built line; elsewhere the search over
    value-level courses, whose winning course is seated the same way.
    """
    if method not in METHODS:
        raise UnsupportedMethodError(f"unknown method {method!r} (methods: {', '.join(METHODS)})")
    if method != "auto":
        return method_module(method).solve(deck, rules, budget)
    if not theory.covers(rules):
        return method_module("course").solve(deck, rules, budget)
    try:
        return method_module("construct").solve(deck, rules, budget)
    except RejectedLineError as refused:
        decided = method_module("sat").solve(deck, rules, budget)
        decided.stats["fallback"] = str(refused)
        return decided
