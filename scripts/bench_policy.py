"""Players who cannot see the deck, on the same seeds: win rates with 95% Wilson intervals.

The random and greedy players play seeds 0..N-1 through the engine; the hint
engine plays as many of the same seeds as --hint-count allows, choosing each
move by its own hints (--playouts per option). The clairvoyant rate, a player
who sees the deck, comes from the exact solver on the same seeds.

    python scripts/bench_policy.py                                # 10,000 seeds, hint engine on 2,000
    python scripts/bench_policy.py --count 2000 --hint-count 500
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from kcsolve.common.deal import deal, deal_ranks
from kcsolve.patience.engine import Position, Status
from kcsolve.patience.hints import hint_player
from kcsolve.patience.policy import greedy_player, random_player
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.stats import wilson
from kcsolve.patience.theory import course_end


def play(seed: int, player: str, playouts: int) -> bool:
    """One game of ``player`` on deal ``seed``."""
    position = Position.start(deal(seed), STANDARD)
    rng = random.Random(seed)
    while position.outcome().status is Status.UNFINISHED:
        if player == "random":
            move = random_player(position, rng)
        elif player == "greedy":
            move = greedy_player(position)
        else:
            move = hint_player(position, playouts, seed)
        position = position.play(move)
    return position.outcome().status is Status.WON


def wins_on(player: str, seeds: range, playouts: int, jobs: int) -> int:
    """How many of the seeds the player wins."""
    with ProcessPoolExecutor(jobs) as pool:
        return sum(pool.map(play, seeds, [player] * len(seeds), [playouts] * len(seeds), chunksize=20))


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--hint-count", type=int, default=2_000)
    parser.add_argument("--playouts", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = []
    for player, count in (("random", args.count), ("greedy", args.count), ("hint engine", args.hint_count)):
        began = time.perf_counter()
        won = wins_on(player.split()[0], range(count), args.playouts, args.jobs)
        rows.append((player, won, count, time.perf_counter() - began))
    clairvoyant = sum(course_end(deal_ranks(s), STANDARD)[0] for s in range(args.count))
    rows.append(("sees the deck", clairvoyant, args.count, 0.0))
    print(f"standard rules, seeds from 0; hint engine: {args.playouts} playouts per option, common random numbers")
    print(f"{'player':<14} {'seeds':>7} {'won':>6} {'win rate':>9}  95% interval        seconds")
    for player, won, count, seconds in rows:
        low, high = wilson(won, count)
        print(f"{player:<14} {count:>7} {won:>6} {won / count:>9.2%}  {low:.2%} to {high:.2%}  {seconds:>8.0f}")
    hint_seeds = rows[2][2]
    greedy_same = sum(play(s, "greedy", 0) for s in range(hint_seeds))
    print(f"on the hint engine's {hint_seeds} seeds the greedy player wins {greedy_same} ({greedy_same / hint_seeds:.2%})")


if __name__ == "__main__":
    main()
