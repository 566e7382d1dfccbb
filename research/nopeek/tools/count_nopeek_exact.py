"""Count the no-peek states of every layer exactly, without a search (research.nopeek.reachable).

Usage: python -m research.nopeek.tools.count_nopeek_exact [--out FILE.json]

Prints, per layer (cards drawn), the states reached under no symmetry, under the
384 family renamings and under all 2304 symmetries, and the states that agree with
the deck but are never reached (under all 2304); then the totals, the widest layer,
the widest two adjacent layers (what a backward induction holds at once), the CPU
time and the peak memory (docs/THEORY.md, section 10).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

from research.nopeek.figures import command_line, record
from research.nopeek.nopeek import MODES, ORDER
from research.nopeek.reachable import LAYERS, layer_counts


def main() -> int:
    """Count under each symmetry and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the counts to this file as JSON")
    parser.add_argument("--record", action="store_true", help="write the counts into the package's measured figures")
    args = parser.parse_args()
    start = time.process_time()
    counts = {ORDER[mode]: layer_counts(mode) for mode in MODES}
    seconds = time.process_time() - start
    print("| cards drawn | states | under the 384 | under all 2304 | never reached, under all 2304 |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for d in range(LAYERS):
        row = {
            "drawn": d,
            **{f"under_{n}": c.states(d) for n, c in counts.items()},
            "unreached_under_2304": counts[2304].valid[d] - counts[2304].reached[d],
        }
        rows.append(row)
        print(
            f"| {d} | "
            + " | ".join(f"{c.states(d):,}" for c in counts.values())
            + f" | {row['unreached_under_2304']:,} |"
        )
    totals = {n: sum(c.states(d) for d in range(LAYERS)) for n, c in counts.items()}
    print(
        "| all | "
        + " | ".join(f"{t:,}" for t in totals.values())
        + f" | {sum(r['unreached_under_2304'] for r in rows):,} |"
    )
    merged = counts[2304]
    widest = max(range(LAYERS), key=merged.states)
    pair = max(range(LAYERS - 1), key=lambda d: merged.states(d) + merged.states(d + 1))
    held = merged.states(pair) + merged.states(pair + 1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(
        f"widest layer: {widest} cards drawn; widest two adjacent layers: {pair} and {pair + 1}, {held:,} states, "
        f"{held * 4 / 1e9:.0f} GB of values at 4 bytes a state"
    )
    print(f"{seconds:.1f} s of CPU time, peak {peak} MiB")
    if args.out:
        with open(args.out, "w") as out:
            json.dump(
                {
                    "layers": rows,
                    "totals": totals,
                    "widest": widest,
                    "widest_pair": [pair, pair + 1],
                    "widest_pair_states": held,
                    "seconds": round(seconds, 1),
                    "peak_mib": peak,
                },
                out,
                indent=1,
            )
    if args.record:
        fields = {
            "states": totals[1],
            "states_under_2304": totals[2304],
            "widest_drawn": widest,
            "widest_under_2304": merged.states(widest),
            "two_widest_under_2304": held,
        }
        record("exact_game", fields, command_line("research.nopeek.tools.count_nopeek_exact"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
