"""The compiled course search under groups against the Python search, the reference search and the engine."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from kcsolve.common.budget import Budget
from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.record import judge
from kcsolve.patience.rules import Courts, Goal, Removal, Rules, Sets, parse_rules
from kcsolve.patience.solve.compiled_course import CourseSearcher
from kcsolve.patience.solve.methods.course import search_courses
from kcsolve.patience.solve.reference import reference_solve
from kcsolve.patience.solve.route import solve
from kcsolve.patience.stats import chunks as stats_chunks
from kcsolve.patience.stats.run import run
from kcsolve.patience.stats.store import ResultsStore
from kcsolve.patience.stats.verdicts import WIN, describe

GROUPS = [str(Rules(*axes)) for axes in itertools.product(Removal, [Sets.GROUPS], Courts, Goal)]


def agree(preset: str, seeds: range, nodes: int) -> None:
    """Result, furthest point and removal choices of both searches, seed for seed."""
    rules = parse_rules(preset)
    searcher = CourseSearcher(rules)
    for seed in seeds:
        ranks = deal_ranks(seed)
        python = search_courses(ranks, rules, Budget(nodes=nodes))
        compiled = searcher.search(np.array(ranks, np.int8), nodes)
        assert (compiled.result, compiled.furthest, compiled.nodes) == (python.result, python.furthest, python.nodes), (
            seed
        )


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["groups", "optional+groups", "camelot+swap+groups"])
def test_compiled_search_is_the_python_search(preset: str) -> None:
    """25 deals decided, and 15 cut short by a budget of 30 removal choices, exactly as the Python search."""
    agree(preset, range(300, 325), 1_000_000)
    agree(preset, range(400, 415), 30)


def test_stats_under_groups_store_the_solver_verdicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through `stats`, the compiled search stores the verdict and loss round `solve` gives (its wins replayed)."""
    monkeypatch.delenv(stats_chunks.PURE_PYTHON, raising=False)
    rules = parse_rules("optional+groups")
    store = ResultsStore(tmp_path / "r.db")
    run(store, rules, 1_000, 40)
    codes = b"".join(piece for _, piece in store.pieces(str(rules), 1_000, 40))
    assert {m for (m,) in store.db.execute("SELECT method FROM chunks")} == {"course"}
    for seed, code in zip(range(1_000, 1_040), codes):
        solution = solve(deal(seed), rules)
        result, reason, round_no = describe(code)
        assert result == solution.result, seed
        if result == "loss":
            assert (reason, round_no) == (solution.loss.reason, solution.loss.deal), seed


@pytest.mark.long
@pytest.mark.parametrize("preset", GROUPS)
def test_compiled_search_matches_on_held_out_deals(preset: str) -> None:
    """Every groups rule set: 1,500 deals from 700,000 and 200 under a 200-choice budget, as the Python search."""
    agree(preset, range(700_000, 701_500), 1_000_000)
    agree(preset, range(701_500, 701_700), 200)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["groups", "optional+groups", "deplete+swap+groups"])
def test_compiled_search_agrees_with_the_reference_search(preset: str) -> None:
    """The theory-free reference search (single moves through the engine) reaches the same verdicts.

    Within its 600 nodes the reference finishes 7 of the first 60 deals under
    optional+groups and 4 under deplete+swap+groups (none under camelot+groups, left out).
    """
    rules = parse_rules(preset)
    searcher = CourseSearcher(rules)
    finished = 0
    for seed in range(910_000, 910_100):
        reference = reference_solve(deal(seed), rules, node_limit=600)
        if reference.result != "unfinished":
            assert searcher.search(np.array(deal_ranks(seed), np.int8), None).result == reference.result, seed
            finished += 1
    assert finished >= 5, finished


@pytest.mark.slow
def test_stored_wins_replay_through_the_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every win the compiled search stores for 150 deals under camelot+groups replays as a won game."""
    monkeypatch.delenv(stats_chunks.PURE_PYTHON, raising=False)
    rules = parse_rules("camelot+groups")
    store = ResultsStore(tmp_path / "r.db")
    run(store, rules, 920_000, 150)
    wins = [
        first + i for first, codes in store.pieces(str(rules), 920_000, 150) for i, c in enumerate(codes) if c == WIN
    ]
    assert len(wins) > 50
    for seed in wins:
        solution = solve(deal(seed), rules)
        assert solution.result == "win" and judge(solution.record()).won, seed


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset, least", [("standard", 60), ("camelot", 40), ("deplete+swap", 30), ("groups", 10), ("optional+groups", 5)]
)
def test_stored_verdicts_agree_with_the_reference_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preset: str, least: int
) -> None:
    """What `stats` stores (the compiled course where sets are pairs, the compiled search under groups) on held-out
    deals agrees with every verdict the theory-free reference search reaches within 600 nodes (65, 45, 37, 12 and 6
    of these 120 deals, by preset)."""
    monkeypatch.delenv(stats_chunks.PURE_PYTHON, raising=False)
    rules = parse_rules(preset)
    store = ResultsStore(tmp_path / "r.db")
    run(store, rules, 930_000, 120)
    assert {m for (m,) in store.db.execute("SELECT method FROM chunks")} == {"course"}
    codes = b"".join(piece for _, piece in store.pieces(str(rules), 930_000, 120))
    finished = 0
    for seed, code in zip(range(930_000, 930_120), codes):
        reference = reference_solve(deal(seed), rules, node_limit=600)
        if reference.result != "unfinished":
            assert describe(code)[0] == reference.result, seed
            finished += 1
    assert finished >= least, finished
