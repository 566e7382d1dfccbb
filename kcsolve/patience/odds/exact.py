"""The exact odds as ``kcsolve odds`` reports them: the known cards read from text, the count timed, its JSON.

The count itself is :func:`kcsolve.patience.odds.count.odds`; importing this
module loads numba and numpy with it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from kcsolve.common.cards import Card, InvalidCardError, parse_card, split_deck_text
from kcsolve.patience.odds.count import InvalidKnownCardsError, Odds, odds
from kcsolve.patience.rules import Rules

MAX_KNOWN_TEXT = 1_000  # characters of known cards read: far more than a deck's 52 tokens take
# The count is of deals a player who sees the deck can win: not a chance of winning for a player who cannot.
MEANING = "by a player who sees them; an upper bound for one who cannot"


def parse_known(text: str) -> list[Card]:
    """The known cards of ``--known``: card tokens separated by spaces or commas, top of the stock first."""
    if len(text) > MAX_KNOWN_TEXT:
        raise InvalidKnownCardsError(f"--known: more than {MAX_KNOWN_TEXT:,} characters, longer than any deck")
    cards = []
    for position, token in enumerate(split_deck_text(text), start=1):
        try:
            cards.append(parse_card(token))
        except InvalidCardError:
            raise InvalidCardError(f"--known: unknown card {token[:20]!r} at position {position}") from None
    return cards


@dataclass(frozen=True)
class ExactOdds:
    """The exact odds of a deck starting with ``known`` under ``rules``, and the CPU seconds the count took."""

    rules: Rules
    known: tuple[Card, ...]
    odds: Odds
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The odds as a JSON-ready dict: the exact fraction, its decimal, what it is, and the count's size."""
        chance = self.odds.probability
        return {
            "rules": str(self.rules),
            "known": [str(card) for card in self.known],
            "numerator": chance.numerator,
            "denominator": chance.denominator,
            "decimal": float(chance),
            "figure_is": f"share of orders winnable, exact ({MEANING})",
            "winning_orders": self.odds.winning,
            "orders": self.odds.orders,
            "states": self.odds.states,
            "seconds": round(self.seconds, 3),
        }


def exact_odds(rules: Rules, known: list[Card] | tuple[Card, ...] = ()) -> ExactOdds:
    """Count the exact odds of a shuffled deck starting with ``known``, timing the count in CPU seconds."""
    started = time.process_time()
    result = odds(rules, known)
    return ExactOdds(rules, tuple(known), result, time.process_time() - started)
