"""An upper bound on the best no-peek chance by information relaxation with a penalty, deal by deal.

Usage: python scripts/tools/bound_nopeek.py --from N --count K [--jobs J] [--w zero|rearranged]
       [--scale F] [--table DIR] --out FILE.jsonl

Each deal's score is the best line's win - sum of penalties (kcsolve.patience.players.
relaxed; docs/THEORY.md, section 10). The mean over deals is an upper bound on the
best chance without seeing the deck, for every W; the last line on stdout gives n,
the mean and its one-sided 95% upper limit. One JSON line per deal is appended to
--out as it is done, so a stopped run goes on from where it was (deals already in
the file with the same W are skipped). W is `zero` (no penalty: the player who sees the deck) or
`rearranged`, the rearranging game's value table written by
`python scripts/tools/rearranged_value.py --table DIR`, times --scale.
Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from kcsolve.common.deal import deal_ranks
from kcsolve.patience.players.relaxed import RearrangedTable, Valuation, deck_score, mean_and_upper, scaled, zero

W: Valuation = zero


def _setup(name: str, scale: float, table: str | None) -> None:
    """Build W once in each worker."""
    global W
    base = RearrangedTable(Path(table)) if name == "rearranged" and table else zero
    W = base if scale == 1.0 else scaled(base, scale)


def _score(seed: int) -> tuple[int, float, float]:
    """One deal's score and the CPU seconds it took."""
    started = time.process_time()
    score = deck_score(deal_ranks(seed), W)
    return seed, score, time.process_time() - started


def main() -> int:
    """Score the deals not yet in --out, then print the estimate over all of the range that is in it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, required=True, help="first deal number")
    parser.add_argument("--count", type=int, required=True, help="number of deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--w", choices=("zero", "rearranged"), default="rearranged", help="the function W")
    parser.add_argument("--scale", type=float, default=1.0, help="W is multiplied by this")
    parser.add_argument("--table", help="folder of the rearranging game's layer_*.npz files (for --w rearranged)")
    parser.add_argument("--out", required=True, help="JSON lines file, appended to")
    args = parser.parse_args()
    if args.w == "rearranged" and not args.table:
        print("--w rearranged needs --table DIR", file=sys.stderr)
        return 2
    out = Path(args.out)
    done: dict[int, float] = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if (record["w"], record["scale"]) == (args.w, args.scale):
                done[record["deal"]] = record["score"]
    wanted = range(args.first, args.first + args.count)
    todo = [seed for seed in wanted if seed not in done]
    with out.open("a", encoding="utf-8") as sink, Pool(args.jobs, _setup, (args.w, args.scale, args.table)) as pool:
        for i, (seed, score, seconds) in enumerate(pool.imap_unordered(_score, todo), 1):
            sink.write(
                json.dumps(
                    {"deal": seed, "score": score, "cpu_seconds": round(seconds, 3), "w": args.w, "scale": args.scale}
                )
                + "\n"
            )
            sink.flush()
            done[seed] = score
            print(f"{i}/{len(todo)} deal {seed}: {score:.4f} ({seconds:.1f} s)", file=sys.stderr, flush=True)
    scores = [done[seed] for seed in wanted]
    mean, upper = mean_and_upper(scores)
    print(
        json.dumps(
            {"n": len(scores), "mean": mean, "upper_95": upper, "from": args.first, "w": args.w, "scale": args.scale}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
