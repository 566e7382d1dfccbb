"""The exact value of the rearranging game from a shuffled deck: an upper bound on the best no-peek chance.

Usage: python -m research.nopeek.tools.rearranged_value [--threads N] [--out FILE.json] [--table DIR]

Lists every reachable state layer by layer (cards drawn), then computes the values
going back (research.nopeek.rearranged; docs/THEORY.md, section 10, Theorem 9).
Prints each layer as it is done; at the end the value, the states per layer, the
wall-clock and CPU time and the peak memory, also written to --out as JSON. It
takes tens of minutes and a few GB on one core; nothing is kept if it is stopped.
--table writes every state's value, one layer_NN.npz (sorted keys, values) a layer
(about 3.2 GB in all): the W of research/nopeek/tools/bound_nopeek.py.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

from research.nopeek.figures import command_line, record
from research.nopeek.rearranged import START, rearranged_values, state_key


def main() -> int:
    """Compute and print the value from the start of a shuffled deck."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="threads sharing each layer")
    parser.add_argument("--out", help="write the value and the counts to this JSON file")
    parser.add_argument("--table", help="write every state's value into this new folder, a file a layer")
    parser.add_argument("--record", action="store_true", help="write the value into the package's measured figures")
    args = parser.parse_args()
    folder = Path(args.table) if args.table else None
    if folder:
        folder.mkdir()

    def save(depth: int, keys: np.ndarray, values: np.ndarray) -> None:
        """Write one layer's sorted keys and values."""
        np.savez(folder / f"layer_{depth:02d}.npz", keys=keys, values=values)

    wall, cpu = time.perf_counter(), time.process_time()
    values, layers = rearranged_values(
        [state_key(*START)],
        log=lambda line: print(line, flush=True),
        threads=args.threads,
        keep=save if folder else None,
    )
    result = {
        "value": float(values[0]),
        "value_hex": float(values[0]).hex(),
        "states": sum(layers),
        "states_by_cards_drawn": layers,
        "wall_seconds": round(time.perf_counter() - wall, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }
    print(json.dumps(result), flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=1)
    if args.record:
        figure = {"value": result["value"], "states": result["states"]}
        record("rearranging", figure, command_line("research.nopeek.tools.rearranged_value"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
