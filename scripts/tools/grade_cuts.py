"""Measure the honest chance of the first winnable seeded deals and how many fall in each grade.

Each deal is measured as ``kcsolve daily`` measures it: plain games of the
exploring deep player (kcsolve.patience.players.honest.measure). Prints the
distribution of the chance, the share of winnable deals never won, how many
deals each grade of kcsolve.patience.daily.calendar.GRADE_CUTS gets, the CPU
seconds per deal, and the chances at the 75th, 50th and 25th percentiles.

    python scripts/tools/grade_cuts.py --deals 200
    python scripts/tools/grade_cuts.py --deals 40 --rules camelot
    python scripts/tools/grade_cuts.py --deals 12 --rules all     # one summary line for each of the 36 rule sets
"""

from __future__ import annotations

import argparse
import itertools
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from kcsolve.common.deal import deal
from kcsolve.patience.daily.calendar import GRADE_CUTS, GRADES
from kcsolve.patience.players.honest import Difficulty, measure
from kcsolve.patience.rules import Courts, Goal, Removal, Rules, Sets, parse_rules
from kcsolve.patience.solve.route import Verdict, solve

BINS = [(0.75, 1.0), (0.5, 0.75), (0.25, 0.5), (0.1, 0.25), (0, 0.1)]


def measure_seed(rules: Rules, seed: int) -> tuple[int, Difficulty, float] | None:
    """A seeded deal's difficulty and the CPU seconds of its solve and measurement; None unless it is proved won."""
    began = time.process_time()
    solution = solve(deal(seed), rules)
    if solution.result is not Verdict.WIN:
        return None
    found = measure(deal(seed), rules, seed, solution=solution)
    return seed, found, time.process_time() - began


def measure_deals(rules: Rules, deals: int, jobs: int, quiet: bool) -> list[tuple[int, Difficulty, float]]:
    """The first ``deals`` winnable seeded deals under ``rules``, measured."""
    measured: list[tuple[int, Difficulty, float]] = []
    seed = 0
    with ProcessPoolExecutor(jobs) as pool:
        while len(measured) < deals:
            batch = range(seed, seed + 20)
            seed += 20
            measured += [m for m in pool.map(partial(measure_seed, rules), batch) if m is not None]
            if not quiet:
                print(f"  {min(len(measured), deals)} of {deals} deals measured", flush=True)
    return measured[:deals]


def graded(chances: list[float]) -> list[int]:
    """How many chances fall in each grade."""
    bounds = zip((*GRADE_CUTS, 0.0), (float("inf"), *GRADE_CUTS))
    return [sum(1 for chance in chances if low <= chance < high) for low, high in bounds]


def report(rules: Rules, measured: list[tuple[int, Difficulty, float]]) -> None:
    """The distribution of one rule set's chances, its grades, its CPU time and its quartiles."""
    chances = sorted(d.chance for _, d, _ in measured)
    n = len(chances)
    seconds = [s for _, _, s in measured]
    print(f"{n} winnable deals (seeds 0..{measured[-1][0]}), {measured[0][1].playouts} plain games each, rules {rules}")
    never = sum(1 for chance in chances if chance == 0)
    print(f"  {'never won (chance 0)':<26} {never:>5}  {never / n:6.1%}")
    for low, high in BINS:
        count = sum(1 for chance in chances if low < chance <= high)
        print(f"  {f'{low:.0%} < chance <= {high:.0%}':<26} {count:>5}  {count / n:6.1%}")
    for name, count in zip(GRADES, graded(chances)):
        print(f"  graded {name:<19} {count:>5}  {count / n:6.1%}")
    print(f"CPU seconds per deal: mean {sum(seconds) / n:.2f}, max {max(seconds):.2f}")
    print("quartile chances:", tuple(float(f"{chances[int(q * n)]:.2g}") for q in (0.75, 0.5, 0.25)))


def main() -> None:
    """Print the distribution and the cut points, for one rule set or a line for each of all 36."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.rules != "all":
        rules = parse_rules(args.rules)
        report(rules, measure_deals(rules, args.deals, args.jobs, quiet=False))
        return
    print(
        f"{'rules':<32} {'deals':>5} {'never':>5} {'median':>8} {'easy':>4} {'med':>4} {'hard':>4} {'fiend':>5} "
        f"{'mean s':>6} {'max s':>6}"
    )
    for axes in itertools.product(Removal, Sets, Courts, Goal):
        rules = Rules(*axes)
        measured = measure_deals(rules, args.deals, args.jobs, quiet=True)
        chances = sorted(d.chance for _, d, _ in measured)
        seconds = [s for _, _, s in measured]
        counts = " ".join(f"{c:>4}" for c in graded(chances))
        print(
            f"{rules!s:<32} {len(chances):>5} {sum(1 for c in chances if c == 0):>5} "
            f"{chances[len(chances) // 2]:>8.2g} {counts}  {sum(seconds) / len(seconds):>6.2f} {max(seconds):>6.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
