"""The SAT method: agreement with the search, replayed wins, refutation, and budgets."""

from __future__ import annotations

import pytest
from pysat.solvers import Solver

from kcsolve.common.deal import deal
from kcsolve.patience.record import judge
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.methods.dfs import DepthFirstSearch
from kcsolve.patience.solve.methods.sat import (
    SOLVER_NAME,
    PairingEncoding,
    cell_classes,
    solve_sat,
)
from kcsolve.patience.solve.route import Budget, solve
from kcsolve.patience.solve.theory import trajectory

PRESETS = ["standard", "deplete", "swap", "deplete+swap"]


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_search_and_sat_agree_on_500_deals(preset: str) -> None:
    """dfs and sat give the same verdict on 500 seeded deals; every SAT win replays."""
    rules = parse_rules(preset)
    wins = 0
    for seed in range(500):
        deck = deal(seed)
        by_sat = solve(deck, rules, "sat")
        by_search = solve(deck, rules, "dfs")
        assert by_sat.result == by_search.result, seed
        if by_sat.result == "win":
            wins += 1
            assert judge(by_sat.record()).won
    assert 200 < wins < 400


@pytest.mark.parametrize("seed", [51, 115, 87])
@pytest.mark.slow
def test_losses_proved_by_search_without_theory(seed: int) -> None:
    """Early jams: the search that knows nothing of Lemma 1 proves the same losses as SAT."""
    rules = parse_rules("standard")
    deck = deal(seed)
    plain = DepthFirstSearch(tuple(c.rank for c in deck), rules, Budget(nodes=300_000), use_theory=False)
    assert plain.run()[0] == "loss"
    assert solve(deck, rules, "sat").result == "loss"


@pytest.mark.slow
def test_encoding_refutes_an_impossible_demand() -> None:
    """A number card kept to the end cannot sit in a corner when all four Kings come: UNSAT.

    The same card kept to the end in any class at all is satisfiable, so the
    refutation comes from the capacity clauses, not from a broken formula.
    """
    rules = parse_rules("standard")
    corners = next(i for i, c in enumerate(cell_classes(rules)) if c.name == "corners")
    checked = 0
    for seed in range(100):
        ranks = tuple(c.rank for c in deal(seed))
        path = trajectory(ranks, rules)
        if not path.won or ranks[: path.end].count(13) < 4:
            continue
        encoding = PairingEncoding(ranks, rules, path)
        removed = {i for sets in path.removals for s in sets for i in s}
        card = next((k for k in range(path.end) if ranks[k] <= 10 and k not in removed), None)
        if card is None:
            continue
        stays = [-encoding.r(card, p) for p in encoding.removable_in(card)]
        with Solver(name=SOLVER_NAME, bootstrap_with=encoding.clauses) as solver:
            assert solver.solve(assumptions=stays)
            assert not solver.solve(assumptions=[*stays, encoding.x(card, corners)])
        checked += 1
    assert checked >= 5


@pytest.mark.slow
def test_sat_budget_gives_unknown() -> None:
    """A conflict budget too small for a hard instance gives 'unknown', never a guess."""
    rules = parse_rules("deplete+swap")
    outcomes = {solve_sat(tuple(c.rank for c in deal(s)), rules, conflicts=1).result for s in range(60)}
    assert "unknown" in outcomes
    assert outcomes <= {"unknown", "win", "loss"}


def test_sat_stats_and_method() -> None:
    """The solution says which route decided it and how big the formula was."""
    deck = next(deal(s) for s in range(50) if solve(deal(s)).result == "win")
    solution = solve(deck, parse_rules("standard"), "sat")
    assert solution.stats["method"] == "sat"
    assert solution.stats["vars"] > 0 and solution.stats["clauses"] > 0
    assert judge(solution.record()).won


def test_auto_falls_back_to_sat_if_a_built_line_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were Theorem 2 ever contradicted, auto would let SAT decide and say so in stats."""
    import kcsolve.patience.solve.theory as theory_module

    monkeypatch.setattr(theory_module, "construct", lambda ranks, rules, path=None: [])
    deck = next(deal(s) for s in range(50) if solve(deal(s), parse_rules("standard"), "sat").result == "win")
    solution = solve(deck, parse_rules("standard"))
    assert solution.result == "win" and solution.stats["method"] == "sat"
    assert "construct" in solution.stats["fallback"]
    assert judge(solution.record()).won
