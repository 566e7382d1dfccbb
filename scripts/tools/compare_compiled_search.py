"""Compare the compiled course search with the Python one (methods/course.search_courses) deal for deal.

For each rule set and deal number: the verdict, the furthest point (cards drawn,
deals) and the removal choices counted must be equal; the first difference stops
the run. Deals are split over --jobs processes. Prints the counts and CPU times.

    python scripts/tools/compare_compiled_search.py --rules groups,optional+groups --count 100000
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from kcsolve.common.budget import Budget
from kcsolve.common.deal import deal_ranks
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.compiled_course import CourseSearcher
from kcsolve.patience.solve.methods.course import search_courses
from kcsolve.patience.solve.solution import DEFAULT_BUDGET


def compare(preset: str, start: int, stop: int) -> tuple[dict[str, int], float, float, list[int]]:
    """(verdict counts, Python CPU s, compiled CPU s, deals that differ) over a range."""
    rules = parse_rules(preset)
    searcher = CourseSearcher(rules)
    nodes = DEFAULT_BUDGET.nodes
    counts = {"win": 0, "loss": 0, "unknown": 0}
    python_cpu = compiled_cpu = 0.0
    differ = []
    for seed in range(start, stop):
        ranks = deal_ranks(seed)
        began = time.process_time()
        python = search_courses(ranks, rules, Budget(nodes=nodes))
        python_cpu += time.process_time() - began
        array = np.array(ranks, np.int8)
        began = time.process_time()
        compiled = searcher.search(array, nodes)
        compiled_cpu += time.process_time() - began
        if (compiled.result, compiled.furthest, compiled.nodes) != (python.result, python.furthest, python.nodes):
            differ.append(seed)
        counts[python.result] += 1
    return counts, python_cpu, compiled_cpu, differ


def main() -> None:
    """Print, per rule set, the verdicts and whether both searches agree on every deal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="groups,optional+groups")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    step = 2_000
    bounds = [(s, min(s + step, args.start + args.count)) for s in range(args.start, args.start + args.count, step)]
    with ProcessPoolExecutor(args.jobs) as pool:
        for preset in args.rules.split(","):
            totals = {"win": 0, "loss": 0, "unknown": 0}
            python_cpu = compiled_cpu = 0.0
            differ: list[int] = []
            for counts, p, c, d in pool.map(compare, [preset] * len(bounds), *zip(*bounds)):
                for key in totals:
                    totals[key] += counts[key]
                python_cpu, compiled_cpu, differ = python_cpu + p, compiled_cpu + c, differ + d
            verdicts = (
                "the same verdict, furthest point and node count on every deal"
                if not differ
                else f"{len(differ)} DIFFER: {differ[:10]}"
            )
            print(
                f"{preset}: deals {args.start}..{args.start + args.count - 1}: {totals['win']} won, "
                f"{totals['loss']} lost, {totals['unknown']} undecided; "
                f"{verdicts}; "
                f"CPU: Python search {python_cpu:.1f} s, compiled {compiled_cpu:.1f} s "
                f"({python_cpu / max(compiled_cpu, 1e-9):.1f}x)",
                flush=True,
            )
            if differ:
                raise SystemExit(1)


if __name__ == "__main__":
    main()
