"""The quick player: its compiled rule agrees with the game, and the deep player stays within the rules it models."""

from __future__ import annotations

import numpy as np

from kcsolve.common.deal import deal
from kcsolve.patience.classes import CLASS_OF
from kcsolve.patience.engine import Place, Position, Status
from kcsolve.patience.players.deep import covered, deep_player
from kcsolve.patience.players.quick import WEIGHTS, at_least, deal_wins, place_class, quick_player, wins_deal
from kcsolve.patience.rules import STANDARD, parse_rules


def test_at_least_is_the_hypergeometric_tail() -> None:
    # 2 draws from 4 cards, 2 marked: P(both marked) = 1/6, P(at least one) = 5/6
    assert abs(at_least(4, 2, 2, 2) - 1 / 6) < 1e-12
    assert abs(at_least(4, 2, 2, 1) - 5 / 6) < 1e-12
    assert at_least(10, 3, 0, 1) == 0.0
    assert at_least(10, 3, 4, 0) == 1.0


def test_a_card_that_leaves_goes_to_a_safe_court_class_but_not_into_the_last_cell_a_court_needs() -> None:
    cells = np.zeros((4, 11), dtype=np.int64)
    cells[0, 3] = 1  # a Three in the centre: a Seven will leave with it at the next removal
    courts = np.array([0, 4, 4, 0], dtype=np.int64)  # Kings and Queens all placed: their classes are full
    coming = np.zeros(14, dtype=np.int64)
    coming[2] = 4
    coming[11] = 1  # one Jack still to come, 4 Jack cells free
    coming[7] = 1
    assert place_class(cells, courts, coming, 7, WEIGHTS) == 3
    cells[3, 2] = 3  # now one Jack cell is left, and the Jack still to come needs it
    assert place_class(cells, courts, coming, 7, WEIGHTS) == 0


def test_the_compiled_games_are_the_players_games_in_the_engine() -> None:
    """On most deals the class-level game ends as the engine's game of quick_player (removals are chosen apart)."""
    seeds = range(20)
    agree = 0
    for seed in seeds:
        position = Position.start(deal(seed), STANDARD)
        while position.outcome().status is Status.UNFINISHED:
            position = position.play(quick_player(position.view()))
        order = np.array([card.rank for card in deal(seed)], dtype=np.int64)
        agree += (position.outcome().status is Status.WON) == wins_deal(order, False, WEIGHTS)
    assert agree >= 18
    decks = np.array([[card.rank for card in deal(seed)] for seed in seeds], dtype=np.int64)
    assert deal_wins(decks, False, WEIGHTS) == sum(wins_deal(deck, False, WEIGHTS) for deck in decks)


def test_quick_places_a_number_card_in_the_class_it_picks() -> None:
    position = Position.start(deal(5), STANDARD)
    for _ in range(12):
        view = position.view()
        move = quick_player(view)
        assert move in view.legal_moves()
        if view.in_hand is not None and view.in_hand.rank <= 10:
            assert isinstance(move, Place) and CLASS_OF[move.cell] in range(4)
        position = position.play(move)


def test_deep_plays_as_strong_outside_the_rules_it_models() -> None:
    assert covered(STANDARD) and covered(parse_rules("deplete"))
    assert not covered(parse_rules("camelot")) and not covered(parse_rules("swap"))
    position = Position.start(deal(9), parse_rules("camelot"))
    for _ in range(20):
        if position.outcome().status is not Status.UNFINISHED:
            break
        move = deep_player(position.view(), 9, samples=6)
        assert move in position.view().legal_moves()
        position = position.play(move)
