"""Hints without peeking: exact chances against an engine-level expectimax, sampled chances against exact ones."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Place, Position, Status
from kcsolve.patience.players.hints import distinct_options, exact_chance, hints, sampled_hints
from kcsolve.patience.players.policy import greedy_player, random_player
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve.route import solve


def late(seed: int, left: int) -> Position | None:
    """A position with ``left`` unseen cards on the solver's winning line (None for a lost deal or an early win)."""
    solution = solve(deal(seed), STANDARD)
    if solution.result != "win":
        return None
    position = Position.start(deal(seed), STANDARD)
    after = None
    for move in solution.moves:
        if len(position.deck) - position.drawn == left and not position.removing:
            return position, after
        after = position.view().after(move)
        position = position.play(move)
    return None


def engine_expectimax(position: Position) -> float:
    """Best play against a random order of the unseen cards, move by move through the engine."""
    status = position.outcome().status
    if status is not Status.UNFINISHED:
        return 1.0 if status is Status.WON else 0.0
    if position.removing:
        return max(engine_expectimax(position.play(m)) for m in position.legal_moves())
    unseen = list(position.deck[position.drawn :])
    counts = Counter(c.rank for c in unseen)
    total = 0.0
    for rank, count in counts.items():
        card = next(c for c in unseen if c.rank == rank)
        rest = list(unseen)
        rest.remove(card)
        deck = (*position.deck[: position.drawn], card, *rest)
        drawn = Position(deck, position.rules, position.grid, position.drawn, False, position.courts_placed)
        moves = [m for m in drawn.legal_moves() if isinstance(m, Place)]
        best = max((engine_expectimax(drawn.play(m)) for m in moves), default=0.0)
        total += count / len(unseen) * best
    return total


def test_exact_chance_matches_an_engine_expectimax() -> None:
    """With one to three unseen cards, the class-level expectimax equals one over single engine moves."""
    compared = 0
    for seed in range(30):
        for left in (3, 2, 1):
            found = late(seed, left)
            if found is not None:
                position, after = found  # the chance before the next card is turned: from the move that led here
                assert exact_chance(after) == pytest.approx(engine_expectimax(position), abs=1e-12), seed
                compared += 1
                break
    assert compared >= 8


@pytest.mark.slow
def test_sampled_chances_sit_above_the_exact_ones() -> None:
    """Judging each sampled order as if seen never does worse than best play without seeing (within noise)."""
    checked = 0
    for seed in range(40):
        found = late(seed, 8)
        if found is None:
            continue
        view = found[0].view()
        options = distinct_options(view)
        for exact, sampled in zip(
            sorted((exact_chance(child), str(move)) for move, child in options),
            sorted((h.chance, str(h.move)) for h in sampled_hints(view, options, 800, seed)),
        ):
            assert sampled[0] >= exact[0] - 0.04
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("rules", ["camelot", "optional+groups", "groups+royals", "swap+goal=clear"])
def test_hints_under_every_rule_set(rules: str) -> None:
    """Rules the old playout model refused get hints too: each distinct option once, best first, with an interval."""
    position = Position.start(deal(7), parse_rules(rules))
    rng = random.Random(2)
    while position.drawn < 20 and position.outcome().status is Status.UNFINISHED:
        view = position.view()
        position = position.play(random_player(view, rng) if position.removing else greedy_player(view))
    while len(distinct_options(position.view())) < 2 and position.outcome().status is Status.UNFINISHED:
        position = position.play(greedy_player(position.view()))
    ranked = hints(position.view(), 100, 1)
    assert len(ranked) == len(distinct_options(position.view())) >= 2
    assert [h.chance for h in ranked] == sorted((h.chance for h in ranked), reverse=True)
    for h in ranked:
        low, high = h.interval
        assert 0 <= low <= h.chance <= high <= 1 and h.playouts == 100


def test_hints_rank_every_distinct_option() -> None:
    """A hint covers each distinct option once, best first, with chances in [0, 1]."""
    position = Position.start(deal(3), STANDARD)
    for _ in range(10):
        position = position.play(random_player(position.view(), random.Random(1)))
    ranked = hints(position.view(), 200, 1)
    assert len(ranked) == len(distinct_options(position.view()))
    assert [h.chance for h in ranked] == sorted((h.chance for h in ranked), reverse=True)
    assert all(0 <= h.chance <= 1 and h.interval[0] <= h.interval[1] for h in ranked)


def test_hints_do_not_peek() -> None:
    """Two decks that differ only in the order of the unseen cards get the same hints."""
    position = Position.start(deal(5), STANDARD)
    for _ in range(12):
        position = position.play(greedy_player(position.view()))
    rest = list(position.deck[position.drawn + 1 :])
    random.Random(9).shuffle(rest)
    other = Position(
        position.deck[: position.drawn + 1] + tuple(rest),
        position.rules,
        position.grid,
        position.drawn,
        position.removing,
        position.courts_placed,
    )
    first = [(str(h.move), h.chance) for h in hints(position.view(), 100, 3)]
    second = [(str(h.move), h.chance) for h in hints(other.view(), 100, 3)]
    assert first == second
