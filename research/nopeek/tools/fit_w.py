"""A W for the information-relaxation bound fitted to the deep player's wins: V_r times a factor a layer.

Usage: python -m research.nopeek.tools.fit_w --from N --count K [--jobs J] --table DIR --games FILE.jsonl
       --out FACTORS.json

The deep player plays deals N..N+K-1. Before each draw, the state it is in is
valued by the rearranging game's table (V_r, of the state seated centre first,
the card about to be drawn counted unseen), the draw at which a game is lost for
want of room included; each win is checked by replaying its record (`is_win`).
For each count n of unseen cards, the factor is the games won among those alive
at n over the sum of their V_r there, at most 1: the rearranging value is an upper bound on the real one, so a
W fitted to the real value has no reason to exceed it. Layers no game reached
keep the factor 1. The games go to --games, one JSON line each, as they finish
(a stopped run goes on from where it was); the factors go to --out, which
`python -m research.nopeek.tools.bound_nopeek --w fitted --factors FACTORS.json` reads
(docs/THEORY.md, section 10). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import get_context
from pathlib import Path

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Move, Position, Status
from kcsolve.patience.players.deep import deep_player
from kcsolve.patience.players.policy import class_view
from kcsolve.patience.record import is_win, record_from_moves
from kcsolve.patience.rules import STANDARD
from research.nopeek.relaxed import RearrangedTable

TABLE: RearrangedTable | None = None  # read by main() before the workers fork, which share it


def play(seed: int) -> dict:
    """One game of deep on deal ``seed``: the result and (unseen cards, V_r) before each draw."""
    if TABLE is None:
        raise RuntimeError("the rearranging table is read by main() first")
    position = Position.start(deal(seed), STANDARD)
    trace = []
    moves: list[Move] = []
    while True:
        status = position.outcome().status
        if status is Status.WON:
            break
        # Between draws: the next card is about to come. A game lost because that card finds no room is
        # judged lost before it is drawn, and its state counts too: W is asked of it before the draw.
        if not position.removing and not position.is_full:
            view = position.view()
            assert view.in_hand is not None
            stock = [0] * 14
            for card in (*view.unseen, view.in_hand):
                stock[card.rank] += 1
            cells, courts = class_view(view.grid)
            seated = tuple(tuple(sorted(c)) for c in cells)
            trace.append((sum(stock), TABLE((seated, tuple(courts)), tuple(stock))))
        if status is Status.LOST:
            break
        moves.append(deep_player(position.view(), seed))
        position = position.play(moves[-1])
    won = status is Status.WON
    if won and not is_win(record_from_moves(position.deck, STANDARD, moves, "win", seed=seed, player="deep")):
        raise RuntimeError(f"deal {seed}: the checker refuses deep's win")
    return {"deal": seed, "player": "deep", "won": won, "trace": trace}


def factors(games: list[dict]) -> dict[int, float]:
    """For each count of unseen cards 1..52, the wins over the sum of V_r of the games alive there, at most 1."""
    won = dict.fromkeys(range(1, 53), 0)
    valued = dict.fromkeys(range(1, 53), 0.0)
    for game in games:
        for unseen, value in game["trace"]:
            won[unseen] += game["won"]
            valued[unseen] += value
    return {n: min(1.0, won[n] / valued[n]) if valued[n] > 0 else 1.0 for n in range(1, 53)}


def main() -> int:
    """Play the deals not yet in --games, then write the factors of the whole range."""
    global TABLE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, required=True, help="first deal number")
    parser.add_argument("--count", type=int, required=True, help="number of deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--table", required=True, help="folder of the rearranging game's layer_*.npz files")
    parser.add_argument("--games", required=True, help="JSON lines file of the games, appended to")
    parser.add_argument("--out", required=True, help="the factors, as JSON")
    args = parser.parse_args()
    games_file = Path(args.games)
    done: dict[int, dict] = {}
    if games_file.exists():
        for line in games_file.read_text(encoding="utf-8").splitlines():
            game = json.loads(line)
            done[game["deal"]] = game
    wanted = range(args.first, args.first + args.count)
    todo = [seed for seed in wanted if seed not in done]
    if todo:
        TABLE = RearrangedTable(Path(args.table))
    with games_file.open("a", encoding="utf-8") as sink, get_context("fork").Pool(args.jobs) as pool:
        for i, game in enumerate(pool.imap_unordered(play, todo, chunksize=8), 1):
            sink.write(json.dumps(game) + "\n")
            sink.flush()
            done[game["deal"]] = game
            if i % 100 == 0 or i == len(todo):
                print(f"{i}/{len(todo)} games", file=sys.stderr, flush=True)
    games = [done[seed] for seed in wanted]
    fitted = {
        "player": "deep",
        "from": args.first,
        "count": args.count,
        "won": sum(game["won"] for game in games),
        "factors": {str(n): h for n, h in factors(games).items()},
    }
    Path(args.out).write_text(json.dumps(fitted, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in fitted.items() if k != "factors"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
