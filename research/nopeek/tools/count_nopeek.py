"""Count the reachable states of the standard game without peeking, layer by layer (cards drawn).

Usage: python -m research.nopeek.tools.count_nopeek [--max-layer N] [--mode 0|1|2] [--out FILE.jsonl]

Each finished layer is printed and appended to --out as one JSON line at once, so
an interrupted run keeps every layer it finished. The count runs over states merged
by the symmetry of --mode (2: family renamings and court-kind permutations, the
fastest) and gives, from their orbit sizes, the counts without symmetry and under
the 384 family renamings as well (docs/THEORY.md, section 10). ``to_win`` and
``to_loss`` count the steps into the layer (state, card drawn, placement) that
ended the game instead; ``seconds`` is wall-clock time since the start.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

from research.nopeek.nopeek import ORDER, Layers


def main() -> int:
    """Count layer after layer until --max-layer or the end of the game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-layer", type=int, default=52, help="stop after this many cards drawn")
    parser.add_argument("--mode", type=int, default=2, choices=(0, 1, 2), help="symmetry the search merges by")
    parser.add_argument("--out", help="append one JSON line per finished layer to this file")
    args = parser.parse_args()
    layers = Layers(args.mode)
    start = time.perf_counter()
    out = open(args.out, "a") if args.out else None  # noqa: SIM115  # closed in the finally below
    try:
        while True:
            raw, families, merged = layers.counts()
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            row = {
                "drawn": layers.drawn,
                "states": raw,
                "under_384": families if args.mode else raw,
                f"under_{ORDER[args.mode]}": merged,
                "to_win": layers.wins,
                "to_loss": layers.losses,
                "seconds": round(time.perf_counter() - start, 1),
                "peak_mib": peak,
            }
            print(json.dumps(row), flush=True)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if layers.drawn >= args.max_layer or not len(layers.states):
                return 0
            layers.step()
    except KeyboardInterrupt:
        print(f"interrupted while drawing card {layers.drawn + 1}; finished layers are kept", file=sys.stderr)
        return 130
    finally:
        if out:
            out.close()


if __name__ == "__main__":
    sys.exit(main())
