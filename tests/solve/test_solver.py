"""The solvers against each other, against the plain reference search, and against the engine."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kcsolve.common.cards import Card, full_deck
from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position, Remove, Status
from kcsolve.patience.record import judge, record_from_moves
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.methods.construct import solve as solve_construct
from kcsolve.patience.solve.methods.dfs import DepthFirstSearch
from kcsolve.patience.solve.methods.dfs import solve as solve_dfs
from kcsolve.patience.solve.reference import reference_solve
from kcsolve.patience.solve.route import Budget, solve
from kcsolve.patience.solve.theory import trajectory

PRESETS = ["standard", "deplete", "swap", "deplete+swap"]


def replays_as_claimed(solution) -> None:
    """A win must replay to a win; a loss line must replay to the loss the solver names."""
    verdict = judge(solution.record())
    if solution.result == "win":
        assert verdict.won, verdict
    elif solution.moves:
        assert verdict.outcome.status is Status.LOST and verdict.illegal is None, verdict
        assert verdict.outcome.reason in solution.reason


@pytest.mark.slow
def test_reference_cross_check_on_seeded_deals() -> None:
    """At least 300 seeded deals decided by the reference search agree with the solver."""
    rules = parse_rules("standard")
    finished = Counter()
    for seed in range(700):
        deck = deal(seed)
        solution = solve(deck, rules)
        replays_as_claimed(solution)
        reference = reference_solve(deck, rules, node_limit=800)
        if reference.result != "unfinished":
            assert reference.result == solution.result, seed
            finished[reference.result] += 1
        if reference.result == "win":
            assert judge(record_from_moves(deck, rules, list(reference.moves), "win")).won
    assert sum(finished.values()) >= 300, finished


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["deplete", "swap", "deplete+swap"])
def test_reference_cross_check_other_presets(preset: str) -> None:
    """The reference search agrees with the solver under the other presets too."""
    rules = parse_rules(preset)
    finished = 0
    for seed in range(1000, 1120):
        deck = deal(seed)
        solution = solve(deck, rules)
        reference = reference_solve(deck, rules, node_limit=600)
        if reference.result != "unfinished":
            assert reference.result == solution.result, seed
            finished += 1
    assert finished >= 30  # 32 to 44 of 120, by preset


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_methods_agree_and_every_line_replays(preset: str) -> None:
    """construct, the hinted search and the theory-free search agree on 300 deals."""
    rules = parse_rules(preset)
    plain_decided = 0
    for seed in range(2000, 2300):
        deck = deal(seed)
        built = solve_construct(deck, rules)
        searched = solve_dfs(deck, rules)
        assert built.result == searched.result, seed
        replays_as_claimed(built)
        replays_as_claimed(searched)
        plain = DepthFirstSearch(tuple(c.rank for c in deck), rules, Budget(nodes=1500), use_theory=False)
        result, line, _ = plain.run()
        if result != "unknown":
            assert result == built.result, seed
            plain_decided += 1
        if result == "win":
            assert judge(record_from_moves(deck, rules, line, "win")).won
    assert plain_decided >= 120  # 125 to 149 of 300, by preset


@pytest.mark.slow
def test_swap_wins_exactly_where_fixed_courts_win() -> None:
    """Corollary 3: swapping courts never changes the verdict."""
    for seed in range(500):
        deck = deal(seed)
        assert solve(deck, parse_rules("swap")).result == solve(deck, parse_rules("standard")).result


def test_budget_gives_unknown() -> None:
    """A search stopped by its budget says so instead of guessing."""
    deck = next(deal(s) for s in range(100) if solve(deal(s)).result == "win")
    search = DepthFirstSearch(tuple(c.rank for c in deck), parse_rules("standard"), Budget(nodes=5), use_theory=False)
    result, line, reason = search.run()
    assert result == "unknown" and line == [] and "budget" in reason


def awkward_decks() -> st.SearchStrategy[tuple[Card, ...]]:
    """Shuffles, plus decks with courts bunched early or late, or values sorted in runs."""

    def build(seed: int, style: int) -> tuple[Card, ...]:
        rng = random.Random(seed)
        cards = list(full_deck(suited=bool(seed % 2)))
        rng.shuffle(cards)
        courts = [c for c in cards if c.is_court]
        numbers = [c for c in cards if not c.is_court]
        if style == 1:
            return tuple(courts + numbers)
        if style == 2:
            return tuple(numbers[:20] + courts + numbers[20:])
        if style == 3:
            runs = sorted(numbers, key=lambda c: c.rank)
            cut = rng.randrange(len(runs))
            mixed = runs[cut:] + runs[:cut]
            for court in courts:
                mixed.insert(rng.randrange(len(mixed) + 1), court)
            return tuple(mixed)
        return tuple(cards)

    return st.builds(build, st.integers(0, 2**32), st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(awkward_decks(), st.sampled_from(PRESETS))
def test_theorem_2_on_awkward_decks(deck: tuple[Card, ...], preset: str) -> None:
    """The built line wins exactly when the forced course does not jam (Theorem 2, Corollary 3)."""
    rules = parse_rules(preset)
    solution = solve_construct(deck, rules)
    replays_as_claimed(solution)
    assert (solution.result == "win") == trajectory([c.rank for c in deck], rules).won


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**32), st.sampled_from(PRESETS))
def test_lemma_1_any_play_follows_the_forced_course(seed: int, play_seed: int, preset: str) -> None:
    """Random legal play leaves the same values after every removal phase as the forced course."""
    rules = parse_rules(preset)
    deck = deal(seed)
    course = trajectory([c.rank for c in deck], rules)
    rng = random.Random(play_seed)
    position = Position.start(deck, rules)
    phase_values: list[Counter] = []
    while position.outcome().status is Status.UNFINISHED:
        move = rng.choice(position.legal_moves())
        position = position.play(move)
        if isinstance(move, Remove) and not position.removing:
            phase_values.append(Counter(c.rank for c in map(position.card_at, range(16)) if c and not c.is_court))
    ranks = [c.rank for c in deck]
    for phase, values in enumerate(phase_values):
        end = course.rounds[phase][1]
        removed = {i for sets in course.removals[: phase + 1] for s in sets for i in s}
        expected = Counter(ranks[i] for i in range(end) if ranks[i] <= 10 and i not in removed)
        assert values == expected, phase
    if position.outcome().reason.startswith("grid full"):
        assert not course.won and course.end == position.drawn


def test_a_failed_seating_is_a_rejected_line_and_auto_asks_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should construct ever find no seat (Theorem 2 broken, or a bug), auto falls back to SAT, never to a guess."""
    from kcsolve.patience.solve import theory as theory_module

    def no_seat(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise theory_module.NoSeatError("no cell can hold card 7 from its placement until it leaves")

    monkeypatch.setattr(theory_module, "construct", no_seat)
    deck = deal(next(s for s in range(50) if solve(deal(s)).result == "win"))
    decided = solve(deck)
    assert decided.stats["method"] == "sat" and decided.result == "win"
    assert decided.stats["fallback"] == "construct: no cell can hold card 7 from its placement until it leaves"
