"""Deciding a deal: the route chooser over the methods in :mod:`kcsolve.patience.solve.methods`.

Each method is one module with the same entry point, ``solve(deck, rules, budget)``
returning a :class:`Solution`; adding a method means adding its module and one
line in :data:`ROUTES`. This module only picks the route, applies the budget and
hands back the answer.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Protocol, cast

from kcsolve.common.budget import Budget, InvalidBudgetError, parse_budget
from kcsolve.common.cards import (
    Card,
    InvalidDeckError,
    check_deck,
    deck_from_tokens,
    parse_deck,
)
from kcsolve.patience.rules import STANDARD, Rules, as_rules
from kcsolve.patience.solve import theory
from kcsolve.patience.solve.solution import (
    DEFAULT_BUDGET,
    RejectedLineError,
    Solution,
    UnsupportedMethodError,
    Verdict,
    as_budget,
)

# method name -> module under kcsolve.patience.solve.methods (loaded on first use, so pysat loads only for sat)
ROUTES = {
    "construct": "construct",
    "course": "course",
    "sat": "sat",
    "dfs": "dfs",
}
METHODS = ("auto", *ROUTES)

__all__ = [
    "DEFAULT_BUDGET",
    "METHODS",
    "ROUTES",
    "Budget",
    "InvalidBudgetError",
    "RejectedLineError",
    "Solution",
    "UnsupportedMethodError",
    "Verdict",
    "as_deck",
    "as_rules",
    "method_module",
    "parse_budget",
    "solve",
]


class Method(Protocol):
    """What each module under :mod:`kcsolve.patience.solve.methods` provides."""

    def covers(self, rules: Rules) -> bool:
        """Whether the method decides every deal under ``rules``."""

    def solve(self, deck: tuple[Card, ...], rules: Rules, budget: Budget) -> Solution:
        """Decide ``deck`` within ``budget``."""


def method_module(name: str) -> Method:
    """The module that implements method ``name``."""
    return cast(Method, importlib.import_module(f"{__package__}.methods.{ROUTES[name]}"))


def solve(
    deck: Sequence[Card | str] | str,
    rules: Rules | str = STANDARD,
    method: str = "auto",
    budget: Budget | str | None = None,
) -> Solution:
    """Decide a deal: 'win' with a complete line, 'loss' with the reason, or 'unknown' on budget.

    ``deck`` is 52 cards top first (``Card`` values, card strings such as ``"TS"``,
    or the text of a deck file); ``rules`` a :class:`Rules` or a preset string
    such as ``"camelot"``; ``budget`` a :class:`Budget`, its text (``"2s,100000"``)
    or None for :data:`DEFAULT_BUDGET`. Bad input raises :class:`InvalidDeckError`,
    :class:`InvalidRulesError`, :class:`UnsupportedMethodError` or
    :class:`InvalidBudgetError`, all ValueErrors.

    ``auto`` takes the fastest exact route: under forced pair removal the forced
    course and the built line (Theorem 2), which needs no search, with SAT as the
    referee should the engine ever refuse a built line; elsewhere the search over
    value-level courses, whose winning course is seated the same way.
    """
    cards = as_deck(deck)
    rules = as_rules(rules)
    limits = as_budget(budget)
    if not isinstance(method, str) or method not in METHODS:
        raise UnsupportedMethodError(f"unknown method {method!r} (methods: {', '.join(METHODS)})")
    if method != "auto":
        chosen = method_module(method)
        if not chosen.covers(rules):
            raise UnsupportedMethodError(
                f"method {method!r} does not cover rules {str(rules)!r}; methods for them: "
                + ", ".join(m for m in METHODS if m == "auto" or method_module(m).covers(rules))
            )
        return chosen.solve(cards, rules, limits)
    if not theory.covers(rules):
        return method_module("course").solve(cards, rules, limits)
    try:
        return method_module("construct").solve(cards, rules, limits)
    except RejectedLineError as refused:
        return method_module("sat").solve(cards, rules, limits).noting(fallback=str(refused))


def as_deck(deck: object) -> tuple[Card, ...]:
    """A checked deck from Card values, card strings or deck-file text."""
    if isinstance(deck, str):
        return parse_deck(deck)
    if not isinstance(deck, (list, tuple)):
        raise InvalidDeckError(f"a deck is a list of 52 cards, not {type(deck).__name__}")
    if all(isinstance(c, str) for c in deck):
        return deck_from_tokens(deck)
    check_deck(deck)
    return tuple(deck)
