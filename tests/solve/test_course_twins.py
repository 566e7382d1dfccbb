"""Copies of the forced course held to ``theory.trajectory``, their reference (docs/DESIGN.md, "Twins").

``theory.course_end`` follows the course by value counts, ``strong.course`` by
card ids from a class-level position, and the quick player's ``free_classes``
makes one forced removal class by class: each is written apart from the
reference, and none had a test holding it equal to it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kcsolve.common.deal import deal_ranks
from kcsolve.patience.players.quick import free_classes
from kcsolve.patience.players.strong import course
from kcsolve.patience.rules import PRESETS, parse_rules
from kcsolve.patience.solve.theory import course_end, covers, forced_takes, trajectory

COVERED = [name for name in PRESETS if covers(parse_rules(name))]  # sets are pairs: the forced course decides


@pytest.mark.parametrize("preset", COVERED)
def test_the_value_course_and_the_strong_players_course_are_the_card_course(preset: str) -> None:
    """(won, cards drawn, rounds) by value counts, and where strong.course jams, equal the card-level course."""
    rules = parse_rules(preset)
    lost = 0
    for seed in range(200):
        ranks = deal_ranks(seed)
        path = trajectory(ranks, rules)
        assert course_end(ranks, rules) == (path.won, path.end, len(path.rounds)), seed
        for last_first in (True, False):
            assert course([0] * 11, 0, ranks, False, rules, last_first).jams is not path.won, (seed, last_first)
        lost += not path.won
    assert 0 < lost < 200  # both ends are met


def test_the_quick_players_removal_takes_the_forced_values() -> None:
    """free_classes takes from the classes exactly the values theory.forced_takes names, and jams where it does."""
    rng = random.Random("quick|takes")
    jams = 0
    for _ in range(5000):
        courts = np.array([0] + [rng.randint(0, 4) for _ in range(3)], dtype=np.int64)
        cells = np.zeros((4, 11), dtype=np.int64)
        for c in range(4):
            for _ in range(4 - courts[c]):
                cells[c, rng.randint(1, 10)] += 1
        coming = np.array([0] + [rng.randint(0, 4) for _ in range(13)], dtype=np.int64)
        count = [int(x) for x in cells.sum(axis=0)]
        take = forced_takes(count)
        after = cells.copy()
        assert free_classes(after, courts, coming) == any(take), cells
        if any(take):
            assert [int(x) for x in after.sum(axis=0)] == [n - t for n, t in zip(count, take)]
            assert after.min() >= 0
        jams += not any(take)
    assert jams > 0
