"""peek from mid-game: a forced course that jams is a loss at once, and the search never disagrees."""

from __future__ import annotations

import pytest

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.policy import greedy_player
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.methods.dfs import DepthFirstSearch
from kcsolve.patience.solve.peek import _course_jams, peek, search_from
from kcsolve.patience.solve.route import Budget


@pytest.mark.parametrize("rules_text", ["standard", "deplete", "standard+goal=clear"])
@pytest.mark.slow
def test_a_jammed_course_is_a_loss_the_search_confirms(rules_text: str) -> None:
    """Positions of greedy games (with removals open too): every jam the course finds, the search finds lost."""
    rules = parse_rules(rules_text)
    jams = confirmed = 0
    for seed in range(12):
        position = Position.start(deal(seed), rules)
        while position.outcome().status is Status.UNFINISHED:
            ranks = tuple(card.rank for card in position.deck)
            if position.drawn % 4 == seed % 4 and _course_jams(ranks, position):
                jams += 1
                found = search_from(DepthFirstSearch(ranks, rules, Budget(nodes=5_000), use_theory=False), position)
                assert found != "win", (rules_text, seed, position.drawn)
                confirmed += found == "loss"
            position = position.play(greedy_player(position.view()))
    assert jams >= 10 and confirmed >= jams / 2  # the rest undecided within the budget, none won


def test_a_lost_deal_is_known_lost_after_one_move() -> None:
    """Deal 7 is lost whatever the play: one placement in, peek says so without searching (it once ran 5 s)."""
    position = Position.start(deal(7), parse_rules("standard"))
    position = position.play(greedy_player(position.view()))
    assert peek(position, seconds=0.001) == "loss"
