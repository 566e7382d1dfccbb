"""The exact odds as ``odds`` reports them: known cards read from text, the count timed, its JSON object."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kcsolve.common.cards import InvalidCardError, parse_card
from kcsolve.common.deal import deal
from kcsolve.patience.odds.count import InvalidKnownCardsError, odds
from kcsolve.patience.odds.exact import MAX_KNOWN_TEXT, MEANING, exact_odds, parse_known
from kcsolve.patience.rules import STANDARD


def test_known_cards_are_read_top_first_with_spaces_or_commas() -> None:
    assert parse_known("KS, 5H 9d") == [parse_card("KS"), parse_card("5H"), parse_card("9D")]
    assert parse_known("") == []


def test_known_cards_that_cannot_be_read_are_refused_by_position() -> None:
    with pytest.raises(InvalidCardError, match=r"^--known: unknown card 'ZZ' at position 2$"):
        parse_known("AS ZZ")
    with pytest.raises(InvalidKnownCardsError, match=r"^--known: more than 1,000 characters, longer than any deck$"):
        parse_known("A" * (MAX_KNOWN_TEXT + 1))


def test_the_exact_odds_are_the_count_with_its_json() -> None:
    known = deal(3)[:42]
    found = exact_odds(STANDARD, list(known))
    assert found.odds == odds(STANDARD, known) and found.known == known and found.seconds >= 0
    data = found.to_json()
    chance = found.odds.probability
    assert Fraction(data["numerator"], data["denominator"]) == chance and data["decimal"] == float(chance)
    assert data["known"] == [str(card) for card in known] and data["rules"] == "standard"
    assert data["figure_is"] == f"share of orders winnable, exact ({MEANING})"
    assert (data["winning_orders"], data["orders"], data["states"]) == (
        found.odds.winning,
        found.odds.orders,
        found.odds.states,
    )
