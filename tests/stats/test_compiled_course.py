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
from kcsolve.patience.stats.compiled import KEEP, accepts, course_codes, course_ends, shuffle_into, shuffle_ranks
from kcsolve.patience.stats.verdicts import describe

EDGE_SEEDS = [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]


@pytest.mark.slow
def test_shuffles_are_the_same_permutations() -> None:
    """20,000 seeds, small, huge and at the integer edges, give the Python shuffle's permutation exactly."""
    order = np.empty(52, np.int64)
    rng = np.random.default_rng(16)
    seeds = [*EDGE_SEEDS, *range(10_000), *(int(s) for s in rng.integers(0, 2**63, 9_992, dtype=np.uint64) * 2 + 1)]
    ranks = np.empty(52, np.int8)
    for seed in seeds:
        shuffle_into(np.uint64(seed), order)
        assert order.tolist() == shuffle_order(seed), seed
        shuffle_ranks(np.uint64(seed), ranks, KEEP)
        assert ranks.tolist() == list(deal_ranks(seed)), seed


@pytest.mark.parametrize("bound", range(2, 53))
def test_rejection_keeps_exactly_the_words_below_the_last_whole_multiple(bound: int) -> None:
    """The compiled test drops the top 2**64 mod bound words, as the Python loop does."""
    limit = SEED_LIMIT - SEED_LIMIT % bound
    for word in {0, limit - 1, limit, MASK64}:
        if word <= MASK64:
            assert accepts(np.uint64(word), np.uint64(bound)) == (word < limit), (word, bound)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "deplete", "swap+goal=clear", "optional+royals", "camelot"])
def test_course_ends_match_the_python_course(preset: str) -> None:
    """(won, cards drawn, deals) of the compiled course equal theory.course_end on 4,000 seeds per rule set."""
    rules = parse_rules(preset)
    seeds = [*EDGE_SEEDS, *range(7_000, 10_992)]
    batch = course_ends(seeds, rules)
    for k, seed in enumerate(seeds):
        won, end, deals = course_end(deal_ranks(seed), rules)
        assert (bool(batch.won[k]), int(batch.end[k]), int(batch.deals[k])) == (won, end, deals), seed


def stored_codes(
    path: Path, preset: str, start: int, count: int, pure_python: bool, monkeypatch: pytest.MonkeyPatch
) -> bytes:
    """Run `stats_run.run` on the compiled or the Python course; every deal's stored verdict code, in deal order."""
    monkeypatch.setenv(stats_chunks.PURE_PYTHON, "1" if pure_python else "0")
    store = stats_store.ResultsStore(path)
    stats_run.run(store, parse_rules(preset), start, count)
    seconds = [s for (s,) in store.db.execute("SELECT seconds FROM chunks")]
    assert seconds and all(math.isfinite(s) and s > 0 for s in seconds)
    assert {m for (m,) in store.db.execute("SELECT method FROM chunks")} == {"course"}
    codes = b"".join(piece for _, piece in store.pieces(preset, start, count))
    store.close()
    return codes


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset, start",
    [("standard", 95_000), ("deplete", 2**63 - 2_500), ("swap+goal=clear", 2**64 - 5_000), ("optional+royals", 31)],
)
def test_stored_verdicts_match_the_python_course(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preset: str, start: int
) -> None:
    """Over 5,000 seeds per rule set (20,000 in all, across 2**63 and up to the last seed) the stored codes agree."""
    compiled = stored_codes(tmp_path / "c.db", preset, start, 5_000, False, monkeypatch)
    python = stored_codes(tmp_path / "p.db", preset, start, 5_000, True, monkeypatch)
    assert len(compiled) == 5_000 and compiled == python
    assert {describe(c)[0] for c in compiled} == {"win", "loss"}


def test_codes_at_the_integer_edges_are_the_python_course() -> None:
    """The codes of seeds counted from 2**63 - 3 and from 2**64 - 4 are those of theory.course_end."""
    rules = parse_rules("standard")
    for first in (2**63 - 3, 2**64 - 4):
        codes = course_codes(first, 4, rules)
        for k in range(4):
            won, _, deals = course_end(deal_ranks(first + k), rules)
            assert describe(int(codes[k])) == (("win", None, None) if won else ("loss", "full", deals)), first + k


def test_compiled_course_applies_only_to_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Groups stay on the search; KCSOLVE_PURE_PYTHON=1 keeps pairs on the Python course."""
    monkeypatch.delenv(stats_chunks.PURE_PYTHON, raising=False)
    assert stats_chunks.compiled_applies(parse_rules("camelot")) and not stats_chunks.compiled_applies(
        parse_rules("groups")
    )
    monkeypatch.setenv(stats_chunks.PURE_PYTHON, "1")
    assert not stats_chunks.compiled_applies(parse_rules("standard"))
    result = stats_chunks.solve_chunk("standard", (0, 2, None), stats_route.Budget())
    assert (result.first, len(result), result.method, result.budget) == (0, 2, "course", None)


@pytest.mark.slow
def test_course_ends_match_on_100000_seeds() -> None:
    """The compiled and the Python course agree on seeds 0..99,999 under standard and deplete."""
    for preset in ("standard", "deplete"):
        rules = parse_rules(preset)
        batch = course_ends(range(100_000), rules)
        for seed in range(100_000):
            won, end, deals = course_end(deal_ranks(seed), rules)
            assert (bool(batch.won[seed]), int(batch.end[seed]), int(batch.deals[seed])) == (won, end, deals), seed
