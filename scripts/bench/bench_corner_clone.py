"""The cost of copying a Kings Corner state, inside kcsolve and through OpenSpiel's ``pyspiel``.

    python scripts/bench/bench_corner_clone.py [--copies N]

A search copies the state at every step of every playout, so the copy must cost
little next to a move. States are taken from random hands (chance draws, two
players, default rules) at 20, 100 and 250 actions in; each figure is the mean
over N copies (default 2,000) in microseconds, wall time of this process.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from kcsolve.corner.spiel import KingsCornerGame

DEPTHS = (20, 100, 250)


def advanced(state: Any, depth: int, rng: random.Random) -> None:
    """Play ``depth`` random actions on ``state``, a KingsCornerState or a pyspiel one (or up to the hand's end)."""
    for _ in range(depth):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


def mean_micros(copy: Callable[[], object], copies: int) -> float:
    """Mean wall time of ``copy()`` in microseconds."""
    start = time.perf_counter()
    for _ in range(copies):
        copy()
    return (time.perf_counter() - start) / copies * 1e6


def main() -> None:
    """Print the copy's cost at each depth, inside and through pyspiel where OpenSpiel is installed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=2_000)
    copies = parser.parse_args().copies
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    print(f"{'actions':>8} {'clone() us':>11} {'pyspiel clone() us':>19}")
    for depth in DEPTHS:
        inside = KingsCornerGame(2).new_initial_state()
        advanced(inside, depth, random.Random(depth))
        through = "-"
        if pyspiel is not None:
            state = pyspiel.load_game("kings_corner").new_initial_state()
            advanced(state, depth, random.Random(depth))
            through = f"{mean_micros(state.clone, copies):.1f}"
        print(f"{depth:>8} {mean_micros(inside.clone, copies):>11.1f} {through:>19}")


if __name__ == "__main__":
    main()
