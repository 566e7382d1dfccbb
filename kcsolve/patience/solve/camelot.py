"""PySolFC's Camelot games decided: the verdicts behind its solvable_seeds files."""

from __future__ import annotations

from kcsolve.patience.pysol import pysol_deal
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import Verdict, solve


def camelot_verdict(game: int) -> tuple[str, int]:
    """PySolFC Camelot game ``game`` under kcsolve's ``camelot`` rules: (verdict, court cards placed in best play)."""
    solution = solve(pysol_deal(game), parse_rules("camelot"))
    courts = 12 if solution.result is Verdict.WIN else solution.best_reach()[0]
    return solution.result, courts
