"""The blocks of a backward induction (research.nopeek.blocks), against a brute force and the layer counts.

- A brute force lists, for small multisets of cards drawn, every removal split and
  every seating of the grid one by one, and keeps what Theorem 10 accepts: the
  census's tabled seatings and loops must give its count.
- Over every multiset drawn, weighted by its orbit, the blocks add up to the layer
  counts of ``reachable.layer_counts``, a dynamic programming over families that
  shares with the census only the rule ``reachable`` (slow).
- The figures ``odds --no-peek`` quotes are what ``research/nopeek/tools/nopeek_blocks.py`` prints (slow).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kcsolve.patience.odds.measured import measured
from research.nopeek.blocks import Drawn, _canonical, _orbit, block_states, reach_table, seating_table
from research.nopeek.nopeek import InvalidNoPeekStateError
from research.nopeek.reachable import layer_counts, reachable

EXACT_GAME = measured()["exact_game"]  # the figure as the package quotes it

FAMILIES = ((1, 9), (2, 8), (3, 7), (4, 6))


@functools.cache
def tables():
    """The seating and rule tables, built once for the file."""
    return seating_table(), reach_table()


def _seatings(grid: dict[int, int], caps: list[int]) -> set[tuple]:
    """Every distinct class contents of the grid's number cards within the free cells, one card at a time."""
    cards = [v for v, n in sorted(grid.items()) for _ in range(n)]
    found = set()
    for classes in itertools.product(range(4), repeat=len(cards)):
        if all(classes.count(c) <= caps[c] for c in range(4)):
            found.add(tuple(tuple(sorted(v for v, c in zip(cards, classes) if c == k)) for k in range(4)))
    return found


def brute_block(counts: tuple[int, ...]) -> int:
    """States with these cards drawn (by rank 1..13), listed one by one."""
    kings, queens, jacks = counts[12], counts[11], counts[10]
    courts = kings + queens + jacks
    caps = [4, 4 - kings, 4 - queens, 4 - jacks]
    total = 0
    ranges = [range(min(counts[a - 1], counts[b - 1]) + 1) for a, b in FAMILIES]
    for *pairs, five_pairs, tens in itertools.product(*ranges, range(counts[4] // 2 + 1), range(counts[9] + 1)):
        grid = {v: counts[v - 1] for v in range(1, 11)}
        for (a, b), r in zip(FAMILIES, pairs):
            grid[a] -= r
            grid[b] -= r
        grid[5] -= 2 * five_pairs
        grid[10] -= tens
        if sum(grid.values()) + courts > 15:
            continue
        kept = sum(max(grid[a], grid[b]) for a, b in FAMILIES)
        if sum(pairs) + five_pairs + tens and not reachable(kept, grid[5] > 0, courts, sum(pairs), five_pairs, tens):
            continue
        total += len(_seatings(grid, caps))
    return total


def small_draws(count: int, seed: int, least: int):
    """Random multisets of at least ``least`` cards drawn whose grids stay small enough to list every seating."""
    rng = random.Random(seed)
    while count:
        counts = [0] * 13
        for rank in rng.sample(range(13), rng.randint(4, 9)):
            counts[rank] = rng.randint(1, 4)
        if sum(counts[:10]) <= 8 and sum(counts[10:]) <= 11 and sum(counts) >= least:
            count -= 1
            yield tuple(counts)


@pytest.mark.parametrize("counts", [*small_draws(10, 7, 12), *small_draws(30, 8, 16)])
def test_a_block_counts_what_a_brute_force_lists(counts):
    seat, reach = tables()
    assert block_states(Drawn(counts), seat, reach) == brute_block(counts)


def test_small_blocks_by_hand():
    seat, reach = tables()
    # two Aces and two Nines, before any removal: each value's two cards share out among four classes in 10 ways
    assert (
        block_states(Drawn((2,) + (0,) * 7 + (2,) + (0,) * 4), seat, reach)
        == 100
        == brute_block((2,) + (0,) * 7 + (2,) + (0,) * 4)
    )
    # an Ace beside four Kings, four Queens and three Jacks: the centre or the last Jack cell
    assert block_states(Drawn((1,) + (0,) * 9 + (3, 4, 4)), seat, reach) == 2


def test_a_drawn_multiset_is_checked():
    with pytest.raises(InvalidNoPeekStateError, match=r"not \(5,"):
        block_states(Drawn((5,) + (0,) * 12))
    assert Drawn((4,) * 10 + (0, 0, 0)).describe() == "every number card and no court card"
    assert Drawn((1, 0, 0, 0, 2) + (0,) * 7 + (1,)).describe() == "1 Ace, 2 Fives, 1 King"


@pytest.mark.slow
def test_the_blocks_add_up_to_every_layer_and_the_quoted_figures(tmp_path: Path) -> None:
    out = tmp_path / "blocks.json"
    root = Path(__file__).resolve().parents[3]
    command = [sys.executable, "-m", "research.nopeek.tools.nopeek_blocks", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=root)
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text(encoding="utf-8"))
    counts = layer_counts(0)
    assert figures["states_by_drawn"] == [counts.states(d) for d in range(52)]
    assert figures["states"] == EXACT_GAME["states"]
    for name in ("largest_block", "largest_working_set", "largest_working_set_merged_at_least", "working_set_gb"):
        assert figures[name] == EXACT_GAME[name], name
    assert figures["largest_block_drawn"] == "every number card and no court card"
    assert f"largest block: {EXACT_GAME['largest_block']:,} states unmerged" in done.stdout


def test_symmetric_images_share_a_canonical_number() -> None:
    """The working set counts a merged block once: images under renaming, swapped sides or court kinds agree."""
    family = np.array([[3, 1], [2, 2], [0, 4], [1, 1]], np.int64)
    image = np.array([[1, 1], [4, 0], [2, 2], [1, 3]], np.int64)  # families renamed, two of them with sides swapped
    assert _canonical(family, 2, 1, 4, 0, 3) == _canonical(image, 2, 1, 0, 3, 4)
    assert _orbit(family, 4, 0, 3) == _orbit(image, 0, 3, 4)
    other = np.array([[3, 1], [2, 2], [0, 4], [1, 2]], np.int64)
    assert _canonical(family, 2, 1, 4, 0, 3) not in {
        _canonical(other, 2, 1, 4, 0, 3),
        _canonical(family, 1, 2, 4, 0, 3),
        _canonical(family, 2, 1, 4, 1, 3),
    }
