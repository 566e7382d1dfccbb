"""The compiled judge of one order agrees with the Python judge, its reference, wherever it is used.

The two share no code: the compiled one (players/judge.py) follows the forced
course and seats the cards in numba arrays, the Python one (players/strong.py,
``python_wins``) through ``course`` and ``seen_order_wins``.
"""

from __future__ import annotations

import random

import pytest

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.players.strong import compiled_wins, covered, python_wins, wins_in_order
from kcsolve.patience.rules import STANDARD, parse_rules


def afterstates(rules_text: str, deals: range, rng: random.Random):  # type: ignore[no-untyped-def]
    """Every option's afterstate along random games of ``deals``, unfinished ones only."""
    rules = parse_rules(rules_text)
    for seed in deals:
        position = Position.start(deal(seed), rules)
        while position.outcome().status is Status.UNFINISHED:
            view = position.view()
            moves = view.legal_moves()
            for move in moves:
                after = view.after(move)
                if after.outcome.status is Status.UNFINISHED:
                    yield view, after
            position = position.play(rng.choice(moves))


@pytest.mark.parametrize("rules_text", ["standard", "deplete"])
def test_the_compiled_judge_is_the_python_judge_on_random_grids_and_orders(rules_text: str) -> None:
    rng = random.Random(f"judge|{rules_text}")
    judged = won = 0
    for view, after in afterstates(rules_text, range(40), rng):
        unseen = [card.rank for card in view.unseen]
        for _ in range(2):
            rng.shuffle(unseen)
            expected = python_wins(after, unseen)
            assert compiled_wins(after, unseen) is expected, (view, after, unseen)
            judged += 1
            won += expected
    assert judged > 2000 and 0.05 < won / judged < 0.95  # both verdicts are met often


def test_wins_in_order_takes_the_compiled_judge_only_under_the_rules_it_models() -> None:
    assert covered(STANDARD) and covered(parse_rules("deplete"))
    for text in ("camelot", "swap", "royals", "optional", "groups", "goal=clear"):
        assert not covered(parse_rules(text)), text
    rng = random.Random("judge|dispatch")
    for view, after in afterstates("swap", range(3), rng):
        unseen = [card.rank for card in view.unseen]
        assert wins_in_order(after, unseen) is python_wins(after, unseen)
