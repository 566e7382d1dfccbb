"""A player before and after a change, on the same deals, in one run: wins, 95% intervals, CPU seconds, paired.

The earlier version is any git revision of this repository: it is checked out
into a temporary worktree and both versions run the same command, ``kcsolve
selfplay --format json``, on the same deal numbers. The games of both are kept
per deal, so the table also counts the deals only one of them won (McNemar's
paired comparison).

    python scripts/bench/bench_players.py --baseline 56c048d                 # strong, standard, deals 0..1999
    python scripts/bench/bench_players.py --baseline 56c048d --rules camelot --count 400
    python scripts/bench/bench_players.py --baseline main --after-player deep   # main's strong against deep
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_selfplay(
    tree: Path, player: str, rules: str, start: int, count: int, jobs: int
) -> tuple[dict, dict[int, bool]]:
    """The summary and the per-deal wins of ``kcsolve selfplay`` run from the source tree ``tree``."""
    command = [
        sys.executable,
        "-m",
        "kcsolve",
        "selfplay",
        "--player",
        player,
        "--rules",
        rules,
        "--seed",
        str(start),
        "--count",
        str(count),
        "--jobs",
        str(jobs),
        "--format",
        "json",
    ]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    summary = next(line for line in lines if line.get("summary"))
    wins = {line["seed"]: line["result"] == "win" for line in lines if not line.get("summary")}
    return summary, wins


def row(name: str, summary: dict) -> str:
    """One version's line of the table."""
    low, high = summary["ci95"]
    return (
        f"{name:<22} {summary['wins']:>6} {summary['win_rate']:>9.2%}  {low:.2%} to {high:.2%}"
        f"  {summary['seconds_per_game']:.3f}"
    )


def main() -> None:
    """Run both versions and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="The earlier git revision (a commit, tag or branch).")
    parser.add_argument("--player", default="strong")
    parser.add_argument(
        "--after-player", help="The player this tree plays (default: --player), to compare two players."
    )
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    after_player = args.after_player or args.player
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(2) as both:
        before_tree = Path(folder) / "baseline"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(before_tree), args.baseline], cwd=ROOT, check=True
        )
        try:  # both versions at once, each on --jobs workers
            earlier = both.submit(run_selfplay, before_tree, args.player, args.rules, args.start, args.count, args.jobs)
            later = both.submit(run_selfplay, ROOT, after_player, args.rules, args.start, args.count, args.jobs)
            (before, before_wins), (after, after_wins) = earlier.result(), later.result()
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before_tree)], cwd=ROOT, check=True)
    last = args.start + args.count - 1
    players = args.player if after_player == args.player else f"{args.player} before, {after_player} after"
    print(f"player {players}, rules {args.rules}, deals {args.start}..{last}; seconds are CPU seconds per game")
    print(f"{'version':<22} {'won':>6} {'win rate':>9}  95% interval        seconds")
    print(row(f"before ({args.baseline})", before))
    print(row("after (this tree)", after))
    only_before = sum(1 for seed, won in before_wins.items() if won and not after_wins.get(seed))
    only_after = sum(1 for seed, won in after_wins.items() if won and not before_wins.get(seed))
    z = (only_after - only_before) / math.sqrt(only_after + only_before) if only_after + only_before else 0.0
    print(
        f"deals won only before: {only_before}, only after: {only_after} (McNemar z = {z:+.2f}); "
        f"change {after['win_rate'] - before['win_rate']:+.2%}"
    )


if __name__ == "__main__":
    main()
