"""Exact counting of winning orders under removal by pairs (kcsolve.patience.odds), against the rank-level DP."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kcsolve.common.cards import parse_card
from kcsolve.common.deal import deal
from kcsolve.patience.odds import InvalidKnownCardsError, UncountableRulesError, odds
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.theory import count_winning_orders


@pytest.mark.parametrize("rules", ["standard", "deplete", "royals", "swap+goal=clear"])
@pytest.mark.parametrize("known", [pytest.param(35, marks=pytest.mark.slow), 40, 45])
def test_agrees_with_the_rank_level_count(rules: str, known: int) -> None:
    """Card-class states with family symmetry give the same probability as distinct rank orders."""
    compared = 0
    for seed in range(12):
        deck = deal(seed)
        ranks = [card.rank for card in deck]
        try:
            wins, orders = count_winning_orders(ranks[:known], ranks[known:], parse_rules(rules))
        except ValueError:
            continue  # the known cards already end the game
        assert odds(parse_rules(rules), deck[:known]).probability == Fraction(wins, orders)
        compared += 1
    assert compared >= 3


def test_known_cards_that_are_no_deck_are_refused() -> None:
    with pytest.raises(InvalidKnownCardsError, match="duplicate"):
        odds(parse_rules("standard"), [parse_card("AS"), parse_card("AS")])
    with pytest.raises(InvalidKnownCardsError, match="fifth"):
        odds(parse_rules("standard"), [parse_card(r) for r in ("K", "K", "K", "K", "K")])
    with pytest.raises(UncountableRulesError, match="forced removal by pairs"):
        odds(parse_rules("groups"))
