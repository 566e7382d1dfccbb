"""The compiled course of `stats` against the Python one: shuffles, verdicts and stored rows, seed for seed."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from kcsolve.common.deal import MASK64, SEED_LIMIT, deal_ranks, shuffle_order
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve import route as stats_route
from kcsolve.patience.solve.theory import course_end
from kcsolve.patience.stats import chunks as stats_chunks
from kcsolve.patience.stats import run as stats_run
from kcsolve.patience.stats import store as stats_store
from kcsolve.patience.stats.compiled import accepts, course_ends, shuffle_into

EDGE_SEEDS = [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]
COLUMNS = "rules, seed, result, reason, card, deal, method, budget, budget_kind"


def test_shuffles_are_the_same_permutations() -> None:
    """20,000 seeds, small, huge and at the integer edges, give the Python shuffle's permutation exactly."""
    order = np.empty(52, np.int64)
    rng = np.random.default_rng(16)
    seeds = [*EDGE_SEEDS, *range(10_000), *(int(s) for s in rng.integers(0, 2**63, 9_992, dtype=np.uint64) * 2 + 1)]
    for seed in seeds:
        shuffle_into(np.uint64(seed), order)
        assert order.tolist() == shuffle_order(seed), seed


@pytest.mark.parametrize("bound", range(2, 53))
def test_rejection_keeps_exactly_the_words_below_the_last_whole_multiple(bound: int) -> None:
    """The compiled test drops the top 2**64 mod bound words, as the Python loop does."""
    limit = SEED_LIMIT - SEED_LIMIT % bound
    for word in {0, limit - 1, limit, MASK64}:
        if word <= MASK64:
            assert accepts(np.uint64(word), np.uint64(bound)) == (word < limit), (word, bound)


@pytest.mark.parametrize("preset", ["standard", "deplete", "swap+goal=clear", "optional+royals", "camelot"])
def test_course_ends_match_the_python_course(preset: str) -> None:
    """(won, cards drawn, deals) of the compiled course equal theory.course_end on 4,000 seeds per rule set."""
    rules = parse_rules(preset)
    seeds = [*EDGE_SEEDS, *range(7_000, 10_992)]
    batch = course_ends(seeds, rules)
    for k, seed in enumerate(seeds):
        won, end, deals = course_end(deal_ranks(seed), rules)
        assert (bool(batch.won[k]), int(batch.end[k]), int(batch.deals[k])) == (won, end, deals), seed


def stored_rows(path: Path, preset: str, start: int, count: int, pure_python: bool,
                monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Run `stats_run.run` on the compiled or the Python course; every column but seconds, in seed order."""
    monkeypatch.setenv(stats_chunks.PURE_PYTHON, "1" if pure_python else "0")
    store = stats_store.ResultsStore(path)
    stats_run.run(store, parse_rules(preset), start, count)
    seconds = [s for (s,) in store.db.execute("SELECT seconds FROM deals")]
    assert seconds and all(math.isfinite(s) and s > 0 for s in seconds)
    rows = store.db.execute(f"SELECT {COLUMNS} FROM deals ORDER BY seed").fetchall()
    store.close()
    return rows


@pytest.mark.parametrize(
    "preset, start",
    [("standard", 95_000), ("deplete", 2**63 - 2_500), ("swap+goal=clear", 2**64 - 5_000), ("optional+royals", 31)],
)
def test_stored_rows_match_the_python_course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             preset: str, start: int) -> None:
    """Over 5,000 seeds per rule set (20,000 in all, across a window edge and the top seeds) the rows are equal."""
    compiled = stored_rows(tmp_path / "c.db", preset, start, 5_000, False, monkeypatch)
    python = stored_rows(tmp_path / "p.db", preset, start, 5_000, True, monkeypatch)
    assert len(compiled) == 5_000 and compiled == python
    assert {r[6] for r in compiled} == {"course"} and {r[2] for r in compiled} == {"win", "loss"}


def test_seeds_far_apart_are_stored_in_several_pieces(tmp_path: Path) -> None:
    """A batch spanning more than SPAN is cut into pieces, and every seed keeps its own verdict."""
    rules = parse_rules("standard")
    seeds = [5, stats_store.SPAN + 5, 2**64 - 1, 7]  # SPAN + 5 is the first seed too far from 5
    packed = stats_store.pack_courses(course_ends(seeds, rules))
    assert len(packed.pieces) == 3 and len(packed) == 4
    store = stats_store.ResultsStore(tmp_path / "r.db")
    store.add("standard", packed)
    got = store.db.execute("SELECT seed, result, card, deal FROM deals ORDER BY seed").fetchall()
    want = []
    for seed in sorted(seeds):
        won, end, deals = course_end(deal_ranks(seed), rules)
        want.append((seed - stats_store.SEED_OFFSET, "win" if won else "loss", None if won else end, None if won else deals))
    assert got == want


def test_compiled_course_applies_only_to_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Groups stay on the search; KCSOLVE_PURE_PYTHON=1 keeps pairs on the Python course."""
    monkeypatch.delenv(stats_chunks.PURE_PYTHON, raising=False)
    assert stats_chunks.compiled_applies(parse_rules("camelot")) and not stats_chunks.compiled_applies(parse_rules("groups"))
    monkeypatch.setenv(stats_chunks.PURE_PYTHON, "1")
    assert not stats_chunks.compiled_applies(parse_rules("standard"))
    rows = stats_chunks.solve_chunk("standard", [0, 1], stats_route.Budget())
    assert isinstance(rows, list) and rows[0][0] == 0


@pytest.mark.slow
def test_course_ends_match_on_100000_seeds() -> None:
    """The compiled and the Python course agree on seeds 0..99,999 under standard and deplete."""
    for preset in ("standard", "deplete"):
        rules = parse_rules(preset)
        batch = course_ends(range(100_000), rules)
        for seed in range(100_000):
            won, end, deals = course_end(deal_ranks(seed), rules)
            assert (bool(batch.won[seed]), int(batch.end[seed]), int(batch.deals[seed])) == (won, end, deals), seed
