"""Write the frozen verdict files: one per preset, the `auto` verdict of every seed 0..9,999.

    python scripts/tools/freeze_verdicts.py                 # all seven presets, seeds 0..9999
    python scripts/tools/freeze_verdicts.py --presets groups --count 100

Each file, data/verdicts-PRESET.tsv, has a header line and then `seed<TAB>verdict`
(win or loss) per line. tests/test_frozen_verdicts.py re-solves a sample of every
file, so any change of verdict is caught. An undecided seed stops the script: a
frozen verdict must be a verdict.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from kcsolve.common.deal import deal
from kcsolve.patience.rules import PRESETS
from kcsolve.patience.solve.route import solve

FOLDER = Path(__file__).resolve().parents[2] / "data"


def main() -> None:
    """Solve the seeds per preset and write the files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--count", type=int, default=10_000)
    args = parser.parse_args()
    for preset in args.presets.split(","):
        began = time.perf_counter()
        lines = ["seed\tverdict"]
        for seed in range(args.count):
            result = solve(deal(seed), preset).result
            if result == "unknown":
                raise SystemExit(f"seed {seed} is undecided under {preset}: no file written")
            lines.append(f"{seed}\t{result}")
        path = FOLDER / f"verdicts-{preset}.tsv"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        wins = sum(line.endswith("win") for line in lines)
        print(f"{path.name}: {wins} wins of {args.count} in {time.perf_counter() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main()
