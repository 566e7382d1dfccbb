"""An upper bound on the best no-peek chance by information relaxation with a penalty, deal by deal.

Usage: python -m research.nopeek.tools.bound_nopeek --from N --count K [--jobs J] [--w zero|rearranged|fitted]
       [--scale F] [--table DIR] [--factors FILE.json] [--penalty rearranging|real] [--exact-from K]
       --out FILE.jsonl

Each deal's score is the best line's win - sum of penalties (kcsolve.patience.players.
relaxed; docs/THEORY.md, section 10). The mean over deals is an upper bound on the
best chance without seeing the deck, for every W; the last line on stdout gives n,
the mean and its one-sided 95% upper limit. One JSON line per deal is appended to
--out as it is done, so a stopped run goes on from where it was (deals already in
the file with the same W, scale and penalty are skipped). W is `zero` (0 on unfinished
states) or `rearranged`, the rearranging game's value table written by
`python -m research.nopeek.tools.rearranged_value --table DIR`, times --scale, or `fitted`, that
table times a factor for each count of unseen cards, read from the --factors file
that `python -m research.nopeek.tools.fit_w` writes (logged by a hash of its content); the table is
read once, before the workers start, which share it (3.2 GB). The penalty is
`rearranging` (its after-draw value taken in the rearranging game; the compiled
search, about a second a deal) or `real` (taken over the real game's choices; the
Python search, minutes a deal). With --exact-from K (the rearranging penalty only), the
states with K unseen cards score their exact no-peek value, compiled, and the search
stops there (docs/THEORY.md, Theorem 13). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from multiprocessing import get_context
from pathlib import Path

from kcsolve.common.deal import deal_ranks
from research.nopeek import figures, relaxed, relaxed_search
from research.nopeek.figures import command_line
from research.nopeek.relaxed import (
    InvalidFactorsError,
    RearrangedTable,
    Valuation,
    check_layers,
    layer_scaled,
    mean_and_upper,
    read_factors,
    scaled,
    zero,
)

W: Valuation = zero
MODULE = "research.nopeek.tools.bound_nopeek"
PENALTY = "rearranging"
EXACT_FROM = 0


def _score(seed: int) -> tuple[int, float, float]:
    """One deal's score and the CPU seconds it took."""
    started = time.process_time()
    ranks = deal_ranks(seed)
    if PENALTY == "rearranging":
        score = relaxed_search.deck_score(ranks, W, exact_from=EXACT_FROM)
    else:
        score = relaxed.deck_score(ranks, W)
    return seed, score, time.process_time() - started


def main() -> int:
    """Score the deals not yet in --out, then print the estimate over all of the range that is in it."""
    global W, PENALTY, EXACT_FROM
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, required=True, help="first deal number")
    parser.add_argument("--count", type=int, required=True, help="number of deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--w", choices=("zero", "rearranged", "fitted"), default="rearranged", help="the function W")
    parser.add_argument("--scale", type=float, default=1.0, help="W is multiplied by this")
    parser.add_argument("--table", help="folder of the rearranging game's layer_*.npz files (--w rearranged, fitted)")
    parser.add_argument("--factors", help="the factors of each layer, from tools/fit_w.py (for --w fitted)")
    parser.add_argument("--penalty", choices=("rearranging", "real"), default="rearranging", help="the penalty")
    parser.add_argument("--exact-from", type=int, default=0, help="unseen cards at which the exact value takes over")
    parser.add_argument("--out", required=True, help="JSON lines file, appended to")
    parser.add_argument(
        "--record", action="store_true", help="write the estimate into the package's measured figures (relaxation)"
    )
    args = parser.parse_args()
    if args.w != "zero" and not args.table:
        print(f"--w {args.w} needs --table DIR", file=sys.stderr)
        return 2
    if (args.w == "fitted") != bool(args.factors):
        print("--factors FILE.json goes with --w fitted, and only with it", file=sys.stderr)
        return 2
    if args.exact_from and (args.penalty != "rearranging" or not 0 < args.exact_from <= 52):
        print("--exact-from takes 1..52 unseen cards, with the rearranging penalty", file=sys.stderr)
        return 2
    if args.record and (args.w, args.scale, args.penalty) != ("rearranged", 1.0, "rearranging"):
        print("--record takes the quoted bound: --w rearranged, the rearranging penalty, no --scale", file=sys.stderr)
        return 2
    out = Path(args.out)
    tag = {"w": args.w, "scale": args.scale, "penalty": args.penalty, "exact_from": args.exact_from}
    factors: dict[int, float] = {}
    if args.factors:
        # read and checked before the table (minutes); the log names the factors by their content
        try:
            raw = Path(args.factors).read_bytes()
            factors = read_factors(raw.decode("utf-8"))
            check_layers(factors)
        except (OSError, UnicodeDecodeError, InvalidFactorsError) as exc:
            print(f"--factors {args.factors!r}: {exc}", file=sys.stderr)
            return 2
        tag["factors"] = hashlib.sha256(raw).hexdigest()[:16]
    done: dict[int, float] = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            # records written before the penalty was a choice were scored with the real one
            key = {
                "w": record["w"],
                "scale": record["scale"],
                "penalty": record.get("penalty", "real"),
                "exact_from": record.get("exact_from", 0),
                **({"factors": record["factors"]} if "factors" in record else {}),
            }
            if key == tag:
                done[record["deal"]] = record["score"]
    wanted = range(args.first, args.first + args.count)
    todo = [seed for seed in wanted if seed not in done]
    if todo:
        base = RearrangedTable(Path(args.table)) if args.w != "zero" else zero
        if args.w == "fitted":
            base = layer_scaled(base, factors)
        W, PENALTY, EXACT_FROM = (
            (base if args.scale == 1.0 else scaled(base, args.scale)),
            args.penalty,
            args.exact_from,
        )
    # forked workers share the table the parent read
    with out.open("a", encoding="utf-8") as sink, get_context("fork").Pool(args.jobs) as pool:
        for i, (seed, score, seconds) in enumerate(pool.imap_unordered(_score, todo), 1):
            sink.write(json.dumps({"deal": seed, "score": score, "cpu_seconds": round(seconds, 3), **tag}) + "\n")
            sink.flush()
            done[seed] = score
            print(f"{i}/{len(todo)} deal {seed}: {score:.4f} ({seconds:.1f} s)", file=sys.stderr, flush=True)
    scores = [done[seed] for seed in wanted]
    mean, upper = mean_and_upper(scores)
    print(json.dumps({"n": len(scores), "mean": mean, "upper_95": upper, "from": args.first, **tag}))
    if args.record:
        fields = {"mean": mean, "upper": upper, "deals": len(scores), "first_deal": args.first}
        figures.record("relaxation", fields | {"exact_from": args.exact_from}, command_line(MODULE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
