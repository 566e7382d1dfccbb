"""Derive the sample game record (seed 000) from its 18 grid drawings.

Reads tests/golden/sample_game_drawings.txt and writes tests/golden/sample_game.json.
Between two drawings, cells that fill are placements (taken in cell order: the
deck order inside one deal is not shown, and any order that fills the drawn
cells is a faithful replay) and cells that empty are removals, split into a
Ten alone or pairs summing to 10. The game ends when card 40, a King, finds no
free corner; the 12 cards never seen follow it in rank order.

    python scripts/tools/transcribe_sample.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from kcsolve.common.cards import RANKS
from kcsolve.patience.engine import cell_name

ROOT = Path(__file__).resolve().parents[2]
DRAWINGS = ROOT / "tests" / "golden" / "sample_game_drawings.txt"
RECORD = ROOT / "tests" / "golden" / "sample_game.json"
# Which drawings follow a deal; the rest follow removals (see the seed's headings).
DEAL_DRAWINGS = {0, 5, 7, 9, 11, 13, 15, 17}
LAST_CARD = "K"


def read_drawings(path: Path) -> list[list[str]]:
    """Each drawing as 16 cell symbols ('' for an empty cell), a1..d4."""
    text = "\n".join(ln for ln in path.read_text().splitlines() if not ln.startswith("#"))
    grids = []
    for block in text.split("\n=\n"):
        middles = [ln for ln in block.splitlines() if ln.startswith("|")][1::3]
        grids.append(
            [ln[6 * col + 1 : 6 * col + 4].strip()[:1].replace("X", "T") for ln in middles for col in range(4)]
        )
    return grids


def split_removal(symbols: dict[int, str]) -> list[list[int]]:
    """Split the cells emptied in one removal phase into Tens and pairs summing to 10."""
    value = {c: RANKS.index(s) + 1 for c, s in symbols.items()}
    sets = [[c] for c, v in value.items() if v == 10]
    rest = sorted(c for c, v in value.items() if v != 10)
    while rest:
        first = rest.pop(0)
        partner = next(c for c in rest if value[c] + value[first] == 10)
        rest.remove(partner)
        sets.append([first, partner])
    return sets


def transcribe() -> dict:
    """The sample game as a record of RULES.md."""
    grids = read_drawings(DRAWINGS)
    before = [""] * 16
    known: list[str] = []
    moves: list[dict] = []
    for number, grid in enumerate(grids):
        if number in DEAL_DRAWINGS:
            for cell in range(16):
                if grid[cell] and not before[cell]:
                    known.append(grid[cell])
                    moves.append({"place": grid[cell], "cell": cell_name(cell)})
        else:
            gone = {c: before[c] for c in range(16) if before[c] and not grid[c]}
            for cells in split_removal(gone):
                moves.append({"remove": [cell_name(c) for c in cells]})
        before = grid
    known.append(LAST_CARD)
    unseen = Counter({r: 4 for r in RANKS}) - Counter(known)
    deck = known + sorted(unseen.elements(), key=RANKS.index)
    return {
        "source": "../shared/seeds/000_80dffbc5a67ad82e.txt, sample game",
        "deck": deck,
        "rules": "standard",
        "result": "loss",
        "moves": moves,
    }


if __name__ == "__main__":
    RECORD.write_text(json.dumps(transcribe(), indent=1) + "\n")
    print(f"wrote {RECORD.relative_to(ROOT)}")
