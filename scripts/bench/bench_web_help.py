"""Time of the daily page's help in node: a hint and a "Still winnable?" over the positions of the hint corpus.

Every position of tests/golden/hint-corpus.jsonl (all 36 rule sets) is asked
for a hint with 200 sampled orders, and whether it is still winnable with the
page's node budget, through tests/web/js/help_check.mjs (wall time in node,
CPU time of one node process, warm after the first positions). Python's own hint time on the
same positions is printed beside it, for the ratio.

    python scripts/bench/bench_web_help.py
    python scripts/bench/bench_web_help.py --nodes 100000 --python 0
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from kcsolve.patience.players.hints import hints
from kcsolve.patience.record import replay

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "golden" / "hint-corpus.jsonl"
CHECK = ROOT / "tests" / "web" / "js" / "help_check.mjs"
PAGE_NODES = 50_000  # help.mjs WINNABLE_NODES


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by the nearest-rank method."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, millis: list[float]) -> str:
    """One line of figures in milliseconds."""
    return (
        f"{name:<28} {len(millis):>5} {percentile(millis, 0.5):>9.1f} {percentile(millis, 0.95):>8.1f}"
        f" {max(millis):>8.1f}"
    )


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=PAGE_NODES)
    parser.add_argument("--python", type=int, default=40, help="positions Python's hints are timed on (0: none)")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not installed")
    cases = [{**json.loads(line), "playouts": 200} for line in CORPUS.read_text().splitlines()]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cases.jsonl"
        path.write_text("".join(json.dumps(case) + "\n" for case in cases))
        hinted = [
            json.loads(line)
            for line in subprocess.run(
                [node, str(CHECK), "hints", str(path)], check=True, capture_output=True, text=True
            ).stdout.splitlines()
        ]
        asked = [
            json.loads(line)
            for line in subprocess.run(
                [node, str(CHECK), "winnable", str(path), str(args.nodes)], check=True, capture_output=True, text=True
            ).stdout.splitlines()
        ]
    print(f"{len(cases)} positions, all 36 rule sets; CPU milliseconds in node")
    print(f"{'':<28} {'asked':>5} {'median':>9} {'p95':>8} {'max':>8}")
    print(row("hint, 200 orders (JS)", [a["millis"] for a in hinted]))
    searched = sum(a["nodes"] for a in asked)
    spent = sum(a["millis"] for a in asked) / 1000
    print(row(f"still winnable, {args.nodes:,} nodes", [a["millis"] for a in asked]))
    decided = sum(a["answer"] != "unknown" for a in asked)
    print(f"still winnable decided {decided} of {len(asked)}; {searched / spent:,.0f} nodes per second")
    if args.python:
        sample = cases[:: max(1, len(cases) // args.python)]
        times = []
        for case in sample:
            view = replay(case["record"]).final.view()
            began = time.process_time()
            hints(view, 200, int(case["seed"]))
            times.append((time.process_time() - began) * 1000)
        js = sorted(a["millis"] for a in hinted[:: max(1, len(cases) // args.python)])
        print(row("hint, 200 orders (Python)", times))
        print(f"Python / JS, sum over the same {len(sample)} positions: {sum(times) / sum(js):.1f}")


if __name__ == "__main__":
    main()
