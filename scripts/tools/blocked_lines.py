"""Why a W built on the rearranging table cannot bound far below it, even with the real game's penalty: blocked lines.

Usage: python scripts/tools/blocked_lines.py --from N --count K --table DIR [--out FILE.jsonl]

W(s, U) = V_r of s seated centre first cannot tell a state whose court class is
full of number cards from one where they sit in the centre. So on a deck where a
court card comes among the first sixteen, after enough number cards to fill its
home class, one line fills that class with the last of those number cards and
loses when the court card comes. Charged with the real game's penalty
(`relaxed.penalty`: P the best W over the real game's options), that line pays
only the residuals of the states with the class full, about the chance of the
court card times V_r, and scores close to V_r(start). Every deck scores at least
its best such line, so the mean of these scores over decks (0 for a deck with
none is not a bound: such decks are counted apart) is a floor under what the real
penalty could give. One JSON line a deal (the best line's score, the court card's
place in the deck and its rank), then a summary (docs/THEORY.md, section 10).
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import lru_cache
from pathlib import Path

from kcsolve.common.cards import TEN
from kcsolve.common.deal import deal_ranks
from kcsolve.patience.players import relaxed
from kcsolve.patience.players.endgame import _with
from kcsolve.patience.players.policy import KIND_CLASS
from kcsolve.patience.players.relaxed import START, RearrangedTable, State, Valuation, checked_stocks


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
            places = [home] if t in into_home else [c for c in range(4) if c != home and room[c] > 0]
            if not places:
                return None
            cells = _with(cells, places[0], rank)
        states.append((cells, courts))
    return states


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
                    best = {"deal": seed, "score": score, "court_at": k, "rank": ranks[k]}
        found.append(best or {"deal": seed, "score": None})
        print(f"deal {seed}: {found[-1]['score']}", file=sys.stderr, flush=True)
    if args.out:
        Path(args.out).write_text("".join(json.dumps(line) + "\n" for line in found), encoding="utf-8")
    scores = [line["score"] for line in found if line["score"] is not None]
    print(
        json.dumps(
            {"deals": len(found), "with_a_line": len(scores), "mean": sum(scores) / len(scores), "lowest": min(scores)}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
