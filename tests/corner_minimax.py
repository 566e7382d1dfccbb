"""A plain minimax for Kings Corner hands, the independent check the corner solver tests compare against."""

from __future__ import annotations

from kcsolve.corner.game.engine import Position


def brute_forces_out(position: Position, me: int) -> bool:
    """Plain minimax over single moves, sharing only the engine's rules with the solver: can ``me`` go out first?"""
    memo: dict[Position, bool] = {}

    def forces(at: Position) -> bool:
        if at.over:
            return at.winners == (me,)
        if at not in memo:
            results = (forces(at.play(m)) for m in at.legal_moves())
            memo[at] = any(results) if at.player == me else all(results)
        return memo[at]

    return forces(position)
