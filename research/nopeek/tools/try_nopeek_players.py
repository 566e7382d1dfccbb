"""Candidate players who cannot see the deck, each against the deep player on the same deals: paired and resumable.

Usage: python -m research.nopeek.tools.try_nopeek_players --player lookahead|rollouts|table|tiebreak|uct
       [--orders M] [--table DIR] --from N --count K [--jobs J] --out FILE.jsonl

The families issue 42 names, each tried on top of the deep player (its exact
endgame with ten unseen cards or fewer, its ties broken by the quick player):

- ``lookahead``: an expectimax over the next draw. Each distinct option is scored
  by the mean, over the next card's rank (exact class-level chance node), of the
  best choice for that card, each choice judged by the sampled-orders judge on
  ``--orders`` orders of the rest (8 by default; the same orders for every option
  and choice, so the comparison is paired). The choice for the next card is made
  knowing that card only, so the fusion of the judge starts one draw later.
- ``rollouts``: policy improvement on the quick player. Each option is played to
  the end by the compiled quick rule on ``--orders`` orders (1,000 by default),
  the same orders for every option; the option that wins most is played.
- ``table``: the option of highest rearranging value W (docs/THEORY.md, Theorem 9),
  read from the table that ``python -m research.nopeek.tools.rearranged_value --table DIR``
  writes (3.2 GB, read once and shared by the workers).
- ``tiebreak``: deep's own choice, except that options tied on deep's count are
  told apart by quick-rule playouts on ``--orders`` orders (500 by default).
- ``uct``: information-set MCTS, which here is UCT over class-level states with the
  unseen multiset, the chance nodes sampled: ``--orders`` simulations per option
  (2,000 by default), the quick rule past the tree.

All are shown a PlayerView only, like every player in the package, and draw their
orders from the deal number and what has been seen. Each deal is played by the
candidate and by ``deep``; every win is replayed by the independent checker
(``is_win``) before it is written. One JSON line per game is appended to --out,
so a stopped run goes on where it was. The last line on stdout compares the two
on the deals asked for: wins, 95% Wilson intervals, CPU seconds a game, the deals
only one of them won and McNemar's z. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Callable
from multiprocessing import get_context
from pathlib import Path

import numpy as np
from numba import njit, types
from numba.typed import Dict

from kcsolve.common.cards import TEN
from kcsolve.common.deal import deal
from kcsolve.common.interval import wilson
from kcsolve.patience.engine import Afterstate, Move, PlayerView, Position, Status
from kcsolve.patience.players.deep import covered, deep_player
from kcsolve.patience.players.endgame import distinct_options, exact_chance, exact_feasible, removal_outcomes
from kcsolve.patience.players.policy import KIND_CLASS, class_view
from kcsolve.patience.players.quick import WEIGHTS, free_classes, free_in, place_class, quick_player, wins_from
from kcsolve.patience.players.strong import SAMPLES, Course, class_key, course, option_wins, seen_order_wins
from kcsolve.patience.record import is_win, record_from_moves
from kcsolve.patience.rules import STANDARD
from research.nopeek.relaxed import RearrangedTable

DEFAULT_ORDERS = {"lookahead": 8, "rollouts": 1000, "table": 0, "tiebreak": 500, "uct": 2000}
UCT_EXPLORE = 0.5  # UCB1's exploration weight (results are 0 or 1): set once, not tuned
TABLE: RearrangedTable | None = None  # the rearranging game's values, read by main() for ``table``
Cells = list[list[int]]


def judged_wins(cells: Cells, courts: list[int], order: list[int], removing: bool, runs: dict) -> bool:
    """Whether a class-level state wins ``order`` for a player who then knew it (the strong player's judge)."""
    count = [0] * (TEN + 1)
    for held in cells:
        for value in held:
            count[value] += 1
    for last_first in (True, False):
        key = (tuple(count), sum(courts), removing, last_first, id(order))  # the orders live through the choice
        run: Course | None = runs.get(key)
        if run is None:
            run = runs[key] = course(count, sum(courts), order, removing, STANDARD, last_first)
        if run.jams:
            return False
        if seen_order_wins([list(c) for c in cells], list(courts), run):
            return True
    return False


def after_next_draw(
    cells: Cells, courts: list[int], stock: list[int], removing: bool, orders: dict, runs: dict
) -> float:
    """The mean over the next card's rank of the best choice for it, each choice judged on that rank's orders."""
    if removing:  # the removal is a choice made before the next card is seen
        outcomes = removal_outcomes(tuple(tuple(sorted(c)) for c in cells))
        return max(
            (after_next_draw([list(o) for o in left], courts, stock, False, orders, runs) for left in outcomes),
            default=0.0,
        )
    total = sum(stock)
    if not total:
        return 1.0 if sum(courts) == 12 else 0.0
    free = [4 - len(cells[c]) - courts[c] for c in range(4)]
    value = 0.0
    for rank, copies in enumerate(stock):
        if not copies:
            continue
        given = orders[rank]
        if rank > TEN:
            home = KIND_CLASS[rank]
            if not free[home]:
                continue
            now = [*courts]
            now[home] += 1
            if sum(now) == 12:
                value += copies / total
                continue
            full = sum(map(len, cells)) + sum(now) == 16
            best = sum(judged_wins(cells, now, order, full, runs) for order in given)
        else:
            best = 0
            for c in (c for c in range(4) if free[c]):
                placed = [sorted([*held, rank]) if k == c else held for k, held in enumerate(cells)]
                full = sum(map(len, placed)) + sum(courts) == 16
                best = max(best, sum(judged_wins(placed, courts, order, full, runs) for order in given))
        value += copies / total * best / len(given)
    return value


def lookahead_judge(view: PlayerView, seed: int, orders: int) -> Callable[[Afterstate], float]:
    """Scores an option by the best choice for each next rank (chance exact), each judged on that rank's orders."""
    stock = [0] * 14
    for card in view.unseen:
        stock[card.rank] += 1
    rng = random.Random(f"lookahead|{seed}|{view.drawn}|{int(view.removing)}")
    by_rank = {}
    for rank in (r for r in range(14) if stock[r]):
        rest = [r for r in range(14) for _ in range(stock[r] - (r == rank))]
        by_rank[rank] = [rng.sample(rest, len(rest)) for _ in range(orders)]
    runs: dict[tuple[object, ...], Course] = {}

    def score(child: Afterstate) -> float:
        cells, courts = class_view(child.grid)
        return after_next_draw(cells, courts, stock, child.removing, by_rank, runs)

    return score


@njit  # not cached on disk: a script loaded by the tests under another name would find a cache it cannot load
def rollout_wins(cells: np.ndarray, courts: np.ndarray, orders: np.ndarray, w: np.ndarray, due: bool) -> int:
    """How many of ``orders`` the quick rule wins from a class-level state (counts of each value per class)."""
    wins = 0
    for k in range(orders.shape[0]):
        wins += wins_from(cells, courts, orders[k], due, False, w)
    return wins


@njit
def node_key(cells: np.ndarray, courts: np.ndarray, coming: np.ndarray, rank: int) -> np.uint64:
    """A 64-bit FNV-1a key of a choice: the class-level state, the unseen cards and the card in hand."""
    key = np.uint64(14695981039346656037)
    prime = np.uint64(1099511628211)
    for c in range(4):
        for v in range(1, 11):
            key = (key ^ np.uint64(cells[c, v])) * prime
        key = (key ^ np.uint64(courts[c] + 16)) * prime
    for r in range(1, 14):
        key = (key ^ np.uint64(coming[r] + 32)) * prime
    return (key ^ np.uint64(rank + 64)) * prime


@njit
def uct_value(
    cells0: np.ndarray, courts0: np.ndarray, coming0: np.ndarray, due: bool, sims: int, explore: float, seed: int
) -> float:
    """The share of ``sims`` simulations won from a class-level state, by UCT over the real chance nodes.

    Each simulation draws a uniformly random order of the unseen cards (the chance
    nodes, sampled); at a number card with a choice of classes it follows UCB1 while
    the choice is in the tree, adds one new choice to the tree per simulation, and
    plays the quick rule after that. A removal takes the copies the quick rule takes.
    """
    np.random.seed(seed)
    pool = np.empty(coming0.sum(), np.int64)
    k = 0
    for r in range(14):
        for _ in range(coming0[r]):
            pool[k] = r
            k += 1
    index = Dict.empty(key_type=types.uint64, value_type=types.int64)
    visits = np.zeros((sims + 1, 4))
    wins = np.zeros((sims + 1, 4))
    path_node = np.empty(64, np.int64)
    path_move = np.empty(64, np.int64)
    total = 0.0
    for _ in range(sims):
        order = np.random.permutation(pool)
        cells = cells0.copy()
        courts = courts0.copy()
        coming = coming0.copy()
        placed = courts.sum()
        steps = 0
        growing = True
        won = 1.0
        if (due or placed + cells.sum() == 16) and not free_classes(cells, courts, coming):
            won = 0.0
        else:
            for t in range(order.shape[0]):
                rank = order[t]
                coming[rank] -= 1
                if rank > 10:
                    c = 3 if rank == 11 else (2 if rank == 12 else 1)
                    if free_in(cells, courts, c) == 0:
                        won = 0.0
                        break
                    courts[c] += 1
                    placed += 1
                    if placed == 12:
                        break
                else:
                    move = place_class(cells, courts, coming, rank, WEIGHTS)
                    open_classes = 0
                    for c in range(4):
                        open_classes += free_in(cells, courts, c) > 0
                    if growing and open_classes > 1:
                        key = node_key(cells, courts, coming, rank)
                        node = -1
                        if key in index:
                            node = index[key]
                        if node < 0:
                            node = len(index)
                            index[key] = node
                            growing = False
                        else:
                            seen = 0.0
                            for c in range(4):
                                seen += visits[node, c]
                            best = -1.0
                            for c in range(4):
                                if free_in(cells, courts, c) == 0:
                                    continue
                                if visits[node, c] == 0:
                                    score = 1e9  # the quick rule's class was tried when the choice joined the tree
                                else:
                                    score = wins[node, c] / visits[node, c] + explore * math.sqrt(
                                        math.log(seen) / visits[node, c]
                                    )
                                if score > best:
                                    best = score
                                    move = c
                        path_node[steps] = node
                        path_move[steps] = move
                        steps += 1
                    cells[move, rank] += 1
                if placed + cells.sum() == 16 and t + 1 < order.shape[0] and not free_classes(cells, courts, coming):
                    won = 0.0
                    break
        total += won
        for i in range(steps):
            visits[path_node[i], path_move[i]] += 1.0
            wins[path_node[i], path_move[i]] += won
    return total / sims


def class_counts(child: Afterstate) -> tuple[np.ndarray, np.ndarray]:
    """A state's number cards as counts of each value per class, and its court cards per class, for compiled code."""
    numbers, courts = class_view(child.grid)
    cells = np.zeros((4, 11), np.int64)
    for c, values in enumerate(numbers):
        for value in values:
            cells[c, value] += 1
    return cells, np.array(courts, np.int64)


def uct_judge(view: PlayerView, seed: int, orders: int) -> Callable[[Afterstate], float]:
    """Scores an option by UCT from it with ``orders`` simulations, the same random orders for every option."""
    coming = np.zeros(14, np.int64)
    for card in view.unseen:
        coming[card.rank] += 1
    digest = hashlib.sha256(f"uct|{seed}|{view.drawn}|{int(view.removing)}".encode()).digest()
    stream = int.from_bytes(digest[:4], "little")

    def score(child: Afterstate) -> float:
        cells, courts = class_counts(child)
        return uct_value(cells, courts, coming, child.removing, orders, UCT_EXPLORE, stream)

    return score


def rollouts_judge(view: PlayerView, seed: int, orders: int) -> Callable[[Afterstate], float]:
    """Scores an option by the share of the same sampled orders that the quick rule wins from it."""
    unseen = np.array(sorted(card.rank for card in view.unseen), np.int64)
    digest = hashlib.sha256(f"rollouts|{seed}|{view.drawn}|{int(view.removing)}".encode()).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
    drawn = np.array([rng.permutation(unseen) for _ in range(orders)], np.int64).reshape(orders, len(unseen))

    def score(child: Afterstate) -> float:
        cells, courts = class_counts(child)
        return int(rollout_wins(cells, courts, drawn, WEIGHTS, child.removing)) / orders

    return score


def table_judge(view: PlayerView, seed: int, orders: int) -> Callable[[Afterstate], float]:
    """Scores an option by the rearranging game's value W of its state (best over the copies a removal takes)."""
    stock = [0] * 14
    for card in view.unseen:
        stock[card.rank] += 1

    if TABLE is None:
        raise RuntimeError("the table player needs the rearranging table (--table DIR)")
    table = TABLE

    def score(child: Afterstate) -> float:
        cells, courts = class_view(child.grid)
        seated = tuple(tuple(sorted(c)) for c in cells)
        outcomes = removal_outcomes(seated) if child.removing else [seated]
        return max((table((left, tuple(courts)), tuple(stock)) for left in outcomes), default=0.0)

    return score


def decide(view: PlayerView, judge: Callable[[], Callable[[Afterstate], float]]) -> Move:
    """The best-judged distinct option, exact with few unseen cards (as deep), the quick player's choice on ties."""
    options = distinct_options(view)
    if len(options) == 1:
        return options[0][0]
    if exact_feasible(options[0][1]):
        scores = [exact_chance(child) for _, child in options]
    else:
        score = judge()
        scores = [
            score(child) if child.outcome.status is Status.UNFINISHED else float(child.outcome.status is Status.WON)
            for _, child in options
        ]
    preferred = class_key(view, quick_player(view))
    best = max(range(len(options)), key=lambda k: (round(scores[k], 12), class_key(view, options[k][0]) == preferred))
    return options[best][0]


def tiebreak_player(view: PlayerView, seed: int, orders: int) -> Move:
    """Deep's move, except that options tied on deep's count are told apart by quick-rule playouts."""
    if not covered(view.rules):
        return deep_player(view, seed)
    options = distinct_options(view)
    if len(options) == 1:
        return options[0][0]
    if exact_feasible(options[0][1]):
        return deep_player(view, seed)
    counts = option_wins(options, SAMPLES, seed, view)
    tied = [k for k, n in enumerate(counts) if n == max(counts)]
    if len(tied) == 1:
        return options[tied[0]][0]
    score = rollouts_judge(view, seed, orders)
    played = {
        k: score(child) if child.outcome.status is Status.UNFINISHED else float(child.outcome.status is Status.WON)
        for k, child in ((k, options[k][1]) for k in tied)
    }
    preferred = class_key(view, quick_player(view))
    return options[max(tied, key=lambda k: (round(played[k], 12), class_key(view, options[k][0]) == preferred))][0]


def lookahead_player(view: PlayerView, seed: int, orders: int) -> Move:
    """The option best after the next draw: an exact chance node, then the sampled-orders judge."""
    return decide(view, lambda: lookahead_judge(view, seed, orders))


def uct_player(view: PlayerView, seed: int, orders: int) -> Move:
    """The option whose UCT search (quick-rule playouts past the tree) wins most of its simulations."""
    return decide(view, lambda: uct_judge(view, seed, orders))


def table_player(view: PlayerView, seed: int, orders: int) -> Move:
    """The option of highest rearranging value W, the quick player's choice among equals."""
    return decide(view, lambda: table_judge(view, seed, orders))


def rollouts_player(view: PlayerView, seed: int, orders: int) -> Move:
    """The option whose quick-rule playouts win most of the same orders."""
    return decide(view, lambda: rollouts_judge(view, seed, orders))


CANDIDATES: dict[str, Callable[[PlayerView, int, int], Move]] = {
    "lookahead": lookahead_player,
    "rollouts": rollouts_player,
    "table": table_player,
    "tiebreak": tiebreak_player,
    "uct": uct_player,
}


def play(job: tuple[str, int, int]) -> dict:
    """One game of player ``name`` on deal ``seed``, its win checked by replaying the record."""
    name, orders, seed = job
    started = time.process_time()
    position = Position.start(deal(seed), STANDARD)
    moves: list[Move] = []
    while position.outcome().status is Status.UNFINISHED:
        view = position.view()
        move = deep_player(view, seed) if name == "deep" else CANDIDATES[name](view, seed, orders)
        moves.append(move)
        position = position.play(move)
    won = position.outcome().status is Status.WON
    record = record_from_moves(position.deck, STANDARD, moves, "win" if won else "loss", seed=seed, player=name)
    if won and not is_win(record):
        raise RuntimeError(f"deal {seed}: the checker refuses the win of {name!r}")
    seconds = time.process_time() - started
    return {"deal": seed, "player": name, "orders": orders, "won": won, "cpu_seconds": round(seconds, 3)}


def summary(name: str, orders: int, games: dict, first: int, count: int) -> dict:
    """The two players on deals first..first+count-1: wins, intervals, seconds, discordant deals, McNemar's z."""
    seeds = range(first, first + count)
    mine = [games[(name, orders, s)] for s in seeds]
    deep = [games[("deep", 0, s)] for s in seeds]
    only_mine = sum(a["won"] and not b["won"] for a, b in zip(mine, deep))
    only_deep = sum(b["won"] and not a["won"] for a, b in zip(mine, deep))
    z = (only_mine - only_deep) / math.sqrt(only_mine + only_deep) if only_mine + only_deep else 0.0

    def side(games_of: list[dict]) -> dict:
        wins = sum(g["won"] for g in games_of)
        return {
            "wins": wins,
            "ci95": [round(x, 5) for x in wilson(wins, count)],
            "cpu_seconds_per_game": round(sum(g["cpu_seconds"] for g in games_of) / count, 3),
        }

    return {
        "deals": [first, first + count - 1],
        "player": name,
        "orders": orders,
        name: side(mine),
        "deep": side(deep),
        "only_" + name: only_mine,
        "only_deep": only_deep,
        "mcnemar_z": round(z, 2),
    }


def main() -> int:
    """Play the games not yet in --out, then print the paired comparison over the deals asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", choices=sorted(CANDIDATES), required=True, help="the candidate")
    parser.add_argument("--orders", type=int, help=f"orders per judgement (uct: simulations); {DEFAULT_ORDERS}")
    parser.add_argument("--from", dest="first", type=int, required=True, help="first deal number")
    parser.add_argument("--count", type=int, required=True, help="number of deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", required=True, help="JSON lines file, appended to")
    parser.add_argument("--table", help="folder of the rearranging game's layer_*.npz files (for --player table)")
    args = parser.parse_args()
    if args.player == "table" and args.orders is not None:
        print("--player table takes no --orders", file=sys.stderr)
        return 2
    orders = DEFAULT_ORDERS[args.player] if args.orders is None else args.orders
    if (orders < 1 and args.player != "table") or args.count < 1 or args.jobs < 1:
        print("--orders, --count and --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.player == "table":
        if not args.table:
            print("--player table needs --table DIR", file=sys.stderr)
            return 2
        global TABLE
        TABLE = RearrangedTable(Path(args.table))  # read once; the forked workers share it
    out = Path(args.out)
    games = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            game = json.loads(line)
            games[(game["player"], game["orders"], game["deal"])] = game
    seeds = range(args.first, args.first + args.count)
    todo = [
        (name, n, s) for s in seeds for name, n in ((args.player, orders), ("deep", 0)) if (name, n, s) not in games
    ]
    with out.open("a", encoding="utf-8") as sink, get_context("fork").Pool(args.jobs) as pool:
        for i, game in enumerate(pool.imap_unordered(play, todo), 1):
            sink.write(json.dumps(game) + "\n")
            sink.flush()
            games[(game["player"], game["orders"], game["deal"])] = game
            print(
                f"{i}/{len(todo)} {game['player']} deal {game['deal']}: {'won' if game['won'] else 'lost'}",
                file=sys.stderr,
                flush=True,
            )
    print(json.dumps(summary(args.player, orders, games, args.first, args.count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
