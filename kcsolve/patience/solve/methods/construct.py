"""The ``construct`` method: the forced course decides, and the winning line is built (Theorem 2)."""

from __future__ import annotations

import time

from kcsolve.common.budget import Budget
from kcsolve.common.cards import Card
from kcsolve.patience.rules import STANDARD, Rules
from kcsolve.patience.solve import theory
from kcsolve.patience.solve.solution import (
    Loss,
    RejectedLineError,
    Solution,
    UnsupportedMethodError,
    Verdict,
    confirm_win,
    deck_ranks,
    jam_reason,
    win_reason,
)

covers = theory.covers  # forced removal by pairs: the deck alone decides (Lemma 1)


def solve(deck: tuple[Card, ...], rules: Rules = STANDARD, budget: Budget = Budget()) -> Solution:
    """Decide by the forced course and build the line directly (Theorem 2), checked by the engine."""
    if not covers(rules):
        raise UnsupportedMethodError(
            f"method 'construct' does not cover rules {str(rules)!r} (it needs forced pair removal)"
        )
    started = time.perf_counter()
    ranks = deck_ranks(deck)
    path = theory.trajectory(ranks, rules)
    try:
        moves = theory.construct(ranks, rules, path)
    except theory.NoSeatError as exc:
        raise RejectedLineError(f"construct: {exc}") from None  # auto then asks SAT, which seats cards itself
    result = Verdict.WIN if path.won else Verdict.LOSS
    reason = win_reason(rules) if path.won else jam_reason(path)
    stats = {"method": "construct", "nodes": 0, "cards": path.end, "deals": len(path.rounds)}
    if path.won:
        confirm_win(deck, rules, moves, "construct (Theorem 2 contradicted)")
    stats["seconds"] = round(time.perf_counter() - started, 6)
    loss = None if path.won else Loss("full", path.end, path.jam_round)
    return Solution(deck, rules, result, tuple(moves), reason, stats, loss)
