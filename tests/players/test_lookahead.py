"""The face-up puzzle's grade: the deep player shown the next k cards, and the least k that wins."""

from __future__ import annotations

import dataclasses
import random

import pytest

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.deep import deep_player
from kcsolve.patience.players.endgame import distinct_options, exact_chance, exact_feasible
from kcsolve.patience.players.lookahead import (
    LOOKAHEADS,
    lookahead,
    lookahead_move,
    plan_words,
    view_ahead,
)
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve.route import Verdict, solve

# A deal of the 2027 calendar before its grades were honest chances (2027-01-06, medium, until issue 53).
MEDIUM_SEED = 16222879950874316379  # the deep player loses it, and wins it seeing one card ahead


def positions(seed: int, rules_text: str = "standard", every: int = 3) -> list[Position]:
    """Every ``every``-th position of deal ``seed`` as the deep player plays it, while the game goes on."""
    position = Position.start(deal(seed), parse_rules(rules_text))
    found = []
    while position.outcome().status is Status.UNFINISHED:
        if position.drawn % every == 0:
            found.append(position)
        position = position.play(deep_player(position.view(), seed))
    return found


def reordered_beyond(position: Position, k: int, rng: random.Random) -> Position:
    """The same position on a deck whose face-down cards after the next ``k`` are shuffled."""
    view = position.view()
    start = view.drawn + (view.in_hand is not None) + k
    rest = list(position.deck[start:])
    rng.shuffle(rest)
    deck = position.deck[:start] + tuple(rest)
    return Position(deck, position.rules, position.grid, position.drawn, position.removing, position.courts_placed)


def test_a_view_shows_no_card_ahead_unless_told() -> None:
    """Position.view() is the no-peek view: nothing ahead. view_ahead adds exactly the next k face-down cards."""
    for position in positions(3):
        view = position.view()
        assert view.ahead == () and view_ahead(position, 0) == view
        face_down = view.drawn + (view.in_hand is not None)
        shown = view_ahead(position, 4)
        assert shown.ahead == position.deck[face_down : face_down + 4]
        assert dataclasses.replace(shown, ahead=()) == view


@pytest.mark.parametrize("seed", [0, 5])
def test_seeing_no_card_ahead_is_the_deep_player_move_for_move(seed: int) -> None:
    position = Position.start(deal(seed), STANDARD)
    while position.outcome().status is Status.UNFINISHED:
        move = lookahead_move(position, 0, seed)
        assert move == deep_player(position.view(), seed)
        position = position.play(move)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_the_cards_beyond_the_ones_seen_do_not_change_a_move(k: int) -> None:
    rng = random.Random(k)
    for position in positions(MEDIUM_SEED):
        want = lookahead_move(position, k, MEDIUM_SEED)
        for _ in range(2):
            assert lookahead_move(reordered_beyond(position, k, rng), k, MEDIUM_SEED) == want


def test_the_cards_ahead_do_change_moves() -> None:
    """The player really looks: other cards ahead (the rest unchanged as a multiset) change some of its moves."""
    rng = random.Random(1)
    changed = 0
    for position in positions(MEDIUM_SEED, every=2):
        changed += lookahead_move(reordered_beyond(position, 0, rng), 4, MEDIUM_SEED) != lookahead_move(
            position, 4, MEDIUM_SEED
        )
    assert changed >= 3


def test_the_exact_endgame_reads_the_next_card() -> None:
    """The next card known, averaged over what it may be, is worth the unknown card's chance (more before a removal)."""
    line = solve(deal(MEDIUM_SEED), STANDARD).moves
    position = Position.start(deal(MEDIUM_SEED), STANDARD)
    checked = 0
    for move in line:
        view = position.view()
        for _, after in distinct_options(view):
            if not exact_feasible(after) or after.outcome.status is not Status.UNFINISHED:
                continue
            ranks = [card.rank for card in after.unseen]
            known = sum(exact_chance(after, (rank,)) * ranks.count(rank) for rank in set(ranks)) / len(ranks)
            blind = exact_chance(after)
            assert known == pytest.approx(blind) if not after.removing else known >= blind - 1e-12
            order = tuple(card.rank for card in position.deck[after.drawn :])
            assert exact_chance(after, order) in (0.0, 1.0)
            checked += 1
        position = position.play(move)
    assert checked >= 5


def test_the_grade_is_the_least_k_that_wins() -> None:
    """The deep player loses this deal (k = 0) and wins it seeing one card ahead: the grade is 1."""
    assert lookahead(deal(MEDIUM_SEED), STANDARD, MEDIUM_SEED) == 1


@pytest.mark.slow
def test_a_lost_deal_needs_the_whole_stock() -> None:
    """No player wins a deal the solver proves lost, whatever it sees: the grade is None (the whole stock)."""
    seed = next(s for s in range(100) if solve(deal(s), STANDARD).result is Verdict.LOSS)
    assert lookahead(deal(seed), STANDARD, seed) is None


def test_the_grade_in_words() -> None:
    assert [plan_words(k) for k in (*LOOKAHEADS[:3], None)] == [
        "face up: no need to plan ahead",
        "face up: plan 1 card ahead",
        "face up: plan 2 cards ahead",
        "face up: plan the whole stock ahead",
    ]
