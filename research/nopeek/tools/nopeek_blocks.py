"""Measure the memory of a backward induction over the game without peeking: its largest blocks, exactly.

Usage: python -m research.nopeek.tools.nopeek_blocks [--out FILE.json]

A block is the states sharing one multiset of unseen cards; going back block by
block, a backward induction holds a block and the at most 13 blocks it draws into
(its working set). Prints the largest block and working set without merging by
the symmetries, the least they can be merged (Burnside's lemma), which cards drawn
give them, the check that the blocks add up to the layer counts of Theorem 10, and
the CPU time (docs/THEORY.md, section 10; research.nopeek.blocks).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from research.nopeek.blocks import block_census
from research.nopeek.figures import command_line, record

VALUE_BYTES = 8


def main() -> int:
    """Count every block and print the largest ones."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the figures to this file as JSON")
    parser.add_argument("--record", action="store_true", help="write the figures into the package's measured figures")
    args = parser.parse_args()
    start = time.process_time()
    census = block_census()
    seconds = time.process_time() - start
    merged_floor = census.largest_merged_working_set
    figures: dict[str, Any] = {
        "states": sum(census.states_by_drawn),
        "largest_block": census.largest_block,
        "largest_block_drawn": census.largest_block_drawn.describe(),
        "largest_merged_block_at_least": census.largest_merged_block,
        "largest_working_set": census.largest_working_set,
        "largest_working_set_drawn": census.largest_working_set_drawn.describe(),
        "largest_working_set_merged_at_least": merged_floor,
        "largest_merged_working_set_drawn": census.largest_merged_working_set_drawn.describe(),
        "working_set_gb": [
            math.floor(merged_floor * VALUE_BYTES / 1e8) / 10,  # a floor, rounded down
            round(census.largest_working_set * VALUE_BYTES / 1e9, 1),
        ],
        "cpu_seconds": round(seconds, 1),
        "states_by_drawn": list(census.states_by_drawn),
    }
    print(f"states, the blocks added up: {figures['states']:,} (Theorem 10's count, layer by layer)")
    drawn = figures["largest_block_drawn"]
    print(f"largest block: {census.largest_block:,} states unmerged, when the cards drawn are {drawn}")
    print(f"largest block merged by the 2,304 symmetries: at least {figures['largest_merged_block_at_least']:,} states")
    print(
        f"largest working set (a block and the blocks it draws into): {census.largest_working_set:,} states unmerged "
        f"({figures['largest_working_set_drawn']} drawn)"
    )
    print(
        f"largest working set merged: at least {merged_floor:,} states ({figures['largest_merged_working_set_drawn']} "
        "drawn)"
    )
    low, high = figures["working_set_gb"]
    print(
        f"memory at {VALUE_BYTES} bytes a value: at least {low} GB merged, {high} GB unmerged; {seconds:.0f} s of CPU"
    )
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if args.record:
        quoted = ("largest_block", "largest_working_set", "largest_working_set_merged_at_least", "working_set_gb")
        command = command_line("research.nopeek.tools.nopeek_blocks")
        record("exact_game", {key: figures[key] for key in quoted}, command, command_field="memory_command")
    return 0


if __name__ == "__main__":
    sys.exit(main())
