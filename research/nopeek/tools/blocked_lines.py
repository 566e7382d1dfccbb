"""Lines that lose to a court card before any removal, scored with the real game's penalty: a floor under that bound.

Usage: python -m research.nopeek.tools.blocked_lines --from N --count K --table DIR [--out FILE.jsonl]

On a deck where a court card comes among the first sixteen, after enough number
cards to fill its home class, one line fills that class with the last of those
number cards and loses when the court card comes, before any removal. Charged with
the real game's penalty (`relaxed.penalty`: P the best W over the real game's
options) and W the rearranging value, such a line pays only what W expects its
choices to cost, never the loss itself. Every deck scores at least its best such
line, so the mean of these scores is a floor under what the real penalty could
give (a deck with no such line is counted apart: its score is not known). One JSON
line a deal: the best line's score, the court card's place in the deck and rank,
and whether W sees the class full when the court card comes (it does not while the
centre has room: W seats number cards centre first). Then a summary: the decks
with a line, their mean and lowest, and the mean over all decks with those
without a line counted 0 (docs/THEORY.md, section 10).
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import lru_cache
from pathlib import Path

from kcsolve.common.cards import TEN
from kcsolve.common.deal import deal_ranks
from kcsolve.patience.classes import with_value
from kcsolve.patience.players.policy import KIND_CLASS
from research.nopeek import relaxed
from research.nopeek.relaxed import (
    START,
    RearrangedTable,
    State,
    Valuation,
    centre_first,
    checked_stocks,
)


def blocked_line(ranks: tuple[int, ...], k: int) -> list[State] | None:
    """The states before each draw of a line that fills card k's home class with number cards just in time, or None."""
    home = KIND_CLASS[ranks[k]] if ranks[k] > TEN else None
    if home is None or k > 15:
        return None
    before = ranks[:k]
    needed = 4 - sum(1 for r in before if r > TEN and KIND_CLASS[r] == home)
    numbers = [t for t, r in enumerate(before) if r <= TEN]
    if len(numbers) < needed:
        return None
    into_home = set(numbers[len(numbers) - needed :])
    courts_to_come = [0, 0, 0, 0]
    for r in before:
        if r > TEN:
            courts_to_come[KIND_CLASS[r]] += 1
    states = [START]
    cells, courts = START
    for t, rank in enumerate(before):
        if rank > TEN:
            c = KIND_CLASS[rank]
            courts_to_come[c] -= 1
            courts = (*courts[:c], courts[c] + 1, *courts[c + 1 :])
        else:
            room = [4 - len(cells[c]) - courts[c] - (courts_to_come[c] if c else 0) for c in range(4)]
            # at most 15 cards come before k and the home class takes 4 of them, so the other 12 cells have room
            place = home if t in into_home else next(c for c in range(4) if c != home and room[c] > 0)
            cells = with_value(cells, place, rank)
        states.append((cells, courts))
    return states


def sees_class_full(state: State, home: int) -> bool:
    """Whether W, which sees a state seated centre first, sees class ``home`` full."""
    cells, courts = centre_first(state)
    return len(cells[home]) + courts[home] == 4


def line_score(ranks: tuple[int, ...], states: list[State], w: Valuation) -> float:
    """The line's score under the real game's penalty: it loses at its last draw, so 0 less every charge."""
    stocks = checked_stocks(ranks)
    return -sum(relaxed.penalty(state, stocks[t], ranks[t], w) for t, state in enumerate(states))


def main() -> int:
    """Score each deal's best blocked line and print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, required=True, help="first deal number")
    parser.add_argument("--count", type=int, required=True, help="number of deals")
    parser.add_argument("--table", required=True, help="folder of the rearranging game's layer_*.npz files")
    parser.add_argument("--out", help="JSON lines file, written anew")
    args = parser.parse_args()
    table = RearrangedTable(Path(args.table))
    w = lru_cache(maxsize=None)(table)
    found: list[dict] = []
    for seed in range(args.first, args.first + args.count):
        ranks = tuple(deal_ranks(seed))
        best = None
        for k in range(16):
            states = blocked_line(ranks, k)
            if states is not None:
                score = line_score(ranks, states, w)
                if best is None or score > best["score"]:
                    seen = sees_class_full(states[k], KIND_CLASS[ranks[k]])
                    best = {"deal": seed, "score": score, "court_at": k, "rank": ranks[k], "class_full_seen": seen}
        found.append(best or {"deal": seed, "score": None})
        print(f"deal {seed}: {found[-1]['score']}", file=sys.stderr, flush=True)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(line) + "\n" for line in found), encoding="utf-8")
    scores = [line["score"] for line in found if line["score"] is not None]
    summary = {"deals": len(found), "with_a_line": len(scores)}
    if scores:
        summary.update(mean=sum(scores) / len(scores), lowest=min(scores), all_others_zero=sum(scores) / len(found))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
