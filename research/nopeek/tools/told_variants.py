"""Two variants of the told game (docs/THEORY.md, section 10), to see where the upper bound's slack is.

Usage: python -m research.nopeek.tools.told_variants {numbers-only|no-moving} --start N --deals N

- ``numbers-only``: the player is told only the order of the number cards, not
  where the court cards fall among them; a court card may come at any turn, with
  its chance. Number cards may still be moved after each removal. About 0.08 s a deal.
- ``no-moving``: the player is told the order except the kinds, as in the told
  game, but may not move cards after a removal: the real placement (any class with
  room, the centre included) and the real choice of which equal cards a removal
  takes. About 15 s a deal; prints the told game's value beside it on each deal.

Each is, like the told game, a relaxation of the game without peeking, so its
average over deals is an upper bound too (the proof of Theorem 8 goes through:
a real strategy is a strategy of each). One line per deal as it finishes, then the
mean with a 95% interval. Plain Python; research code, not used by kcsolve.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from functools import cache

from kcsolve.common.deal import deal_ranks
from kcsolve.patience.odds.told import _seatings, told_chance
from kcsolve.patience.solve.theory import forced_takes

NUMBERS = 40


def numbers_only(ranks: list[int]) -> float:
    """The best chance when only the order of the number cards is told; court cards come by chance."""
    numbers = tuple(r for r in ranks if r <= 10)

    @cache
    def value(i: int, placed: tuple[int, ...], grid: tuple[int, ...], held: tuple[int, ...]) -> float:
        """Before the next card, with ``i`` number cards drawn and ``held`` numbers in each court class."""
        unseen = 52 - i - sum(placed)
        chance = 0.0
        if i < NUMBERS:
            grown = (*grid[: numbers[i]], grid[numbers[i]] + 1, *grid[numbers[i] + 1 :])
            if sum(grid) < 4:
                best = settle(i + 1, placed, grown, held)
            else:
                best = max(
                    settle(i + 1, placed, grown, (*held[:k], held[k] + 1, *held[k + 1 :]))
                    for k in range(3)
                    if held[k] + placed[k] < 4
                )
            chance += (NUMBERS - i) / unseen * best
        for k in range(3):
            if placed[k] < 4 and held[k] + placed[k] < 4:
                chance += (
                    (4 - placed[k]) / unseen * settle(i, (*placed[:k], placed[k] + 1, *placed[k + 1 :]), grid, held)
                )
        return chance

    def settle(i: int, placed: tuple[int, ...], grid: tuple[int, ...], held: tuple[int, ...]) -> float:
        """After a card: a win, the removal and the best seating, or the next card."""
        if sum(placed) == 12:
            return 1.0
        if sum(grid) + sum(placed) < 16:
            return canonical(i, placed, grid, held)
        take = forced_takes(list(grid))
        if not any(take):
            return 0.0
        grid = tuple(g - t for g, t in zip(grid, take))
        rest = max(0, sum(grid) - 4)
        return max(canonical(i, placed, grid, seats) for seats in _seatings(rest, placed))

    def canonical(i: int, placed: tuple[int, ...], grid: tuple[int, ...], held: tuple[int, ...]) -> float:
        """The court kinds play identical parts: store them sorted."""
        pairs = sorted(zip(placed, held))
        return value(i, tuple(k for k, _ in pairs), grid, tuple(h for _, h in pairs))

    return value(0, (0, 0, 0), (0,) * 11, (0, 0, 0))


def no_moving(ranks: list[int]) -> float:
    """The best chance when the order is told except the kinds, and nothing moves after a removal."""
    order = tuple(ranks)

    @cache
    def value(p: int, placed: tuple[int, ...], classes: tuple[tuple[int, ...], ...]) -> float:
        """Before card ``p``; ``classes`` holds the count of each value in the centre and each court class."""
        rank = order[p]
        if rank > 10:
            chance = 0.0
            for k in range(3):
                if placed[k] < 4 and sum(classes[k + 1]) + placed[k] < 4:
                    now = (*placed[:k], placed[k] + 1, *placed[k + 1 :])
                    chance += (4 - placed[k]) / (12 - sum(placed)) * settle(p, now, classes)
            return chance
        best = 0.0
        for c in range(4):
            if sum(classes[c]) < (4 if c == 0 else 4 - placed[c - 1]):
                grown = (*classes[c][:rank], classes[c][rank] + 1, *classes[c][rank + 1 :])
                best = max(best, settle(p, placed, (*classes[:c], grown, *classes[c + 1 :])))
        return best

    def settle(p: int, placed: tuple[int, ...], classes: tuple[tuple[int, ...], ...]) -> float:
        """After card ``p``: a win, the removal in every way equal cards may go, or the next card."""
        if sum(placed) == 12:
            return 1.0
        if sum(sum(c) for c in classes) + sum(placed) < 16:
            return canonical(p + 1, placed, classes)
        take = forced_takes([sum(c[v] for c in classes) for v in range(11)])
        if not any(take):
            return 0.0
        ways = [_takes_from(take[v], [c[v] for c in classes]) for v in range(11)]
        best = 0.0
        for pick in itertools.product(*ways):
            left = tuple(tuple(classes[c][v] - pick[v][c] for v in range(11)) for c in range(4))
            best = max(best, canonical(p + 1, placed, left))
            if best == 1.0:
                break
        return best

    def canonical(p: int, placed: tuple[int, ...], classes: tuple[tuple[int, ...], ...]) -> float:
        """The court kinds play identical parts: store them sorted, with their classes."""
        kinds = sorted(zip(placed, classes[1:]))
        return value(p, tuple(k for k, _ in kinds), (classes[0], *tuple(c for _, c in kinds)))

    empty = (0,) * 11
    return value(0, (0, 0, 0), (empty,) * 4)


def _takes_from(total: int, holders: list[int]) -> list[tuple[int, ...]]:
    """Every way to take ``total`` equal cards from classes holding ``holders`` of them."""
    return [split for split in itertools.product(*(range(h + 1) for h in holders)) if sum(split) == total]


def main() -> int:
    """Print each deal's value as it finishes, then the mean and its 95% interval."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=("numbers-only", "no-moving"))
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--deals", type=int, default=100)
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)
    variant = numbers_only if args.variant == "numbers-only" else no_moving
    values, told = [], []
    started = time.process_time()
    for number in range(args.start, args.start + args.deals):
        ranks = deal_ranks(number)
        values.append(variant(ranks))
        told.append(told_chance(ranks))
        print(f"{number} {values[-1]:.6f} told {told[-1]:.6f}", flush=True)
    n = len(values)
    for name, column in (
        (args.variant, values),
        ("told game", told),
        ("difference", [a - b for a, b in zip(values, told)]),
    ):
        mean = sum(column) / n
        spread = math.sqrt(sum((x - mean) ** 2 for x in column) / (n - 1) / n) if n > 1 else 0.0
        print(f"{name}: {mean:.4%} (95% interval {mean - 1.96 * spread:.4%} to {mean + 1.96 * spread:.4%})")
    print(f"{n} deals, {time.process_time() - started:.0f} s of CPU time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
