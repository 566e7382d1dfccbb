"""The IS-MCTS agent of docs/examples/corner_ismcts.py against the `search` bot, two players, chance draws.

    python scripts/bench/bench_corner_ismcts.py --hands 2000 --jobs 2 [--iterations 64] [--seed 0] [--log FILE]
        [--first N]

Hand h: IS-MCTS sits in seat h mod 2 (so each leads half the hands), the cards come from
random.Random(seed * 1_000_003 + h). Prints IS-MCTS's wins with the 95% Wilson interval;
a progress line on stderr after each hand; --log appends one JSON line per hand, so a run
cut short still gives its figure (--summarise FILE prints the figure of a log) and goes on with
--first N (the number of hands its log holds) and the same --log.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import pathlib
import random
import sys

from kcsolve.common.interval import wilson
from kcsolve.common.workers import ordered_map
from kcsolve.corner.spiel import BotAgent, KingsCornerGame

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "examples" / "corner_ismcts.py"


@functools.cache
def _agent():  # type: ignore[no-untyped-def]
    """The example's ismcts_action, loaded from its file."""
    spec = importlib.util.spec_from_file_location("corner_ismcts", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ismcts_action


def play(hand: int, seed: int, iterations: int) -> dict[str, float | int]:
    """One hand; IS-MCTS's return (1 for going out, 0 otherwise)."""
    ismcts_action, rng = _agent(), random.Random(seed * 1_000_003 + hand)
    me = hand % 2
    search = BotAgent("search", 1 - me, seed=hand)
    state = KingsCornerGame(2).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.current_player() == me:
            state.apply_action(ismcts_action(state, rng, iterations))
        else:
            state.apply_action(search.step(state))
    return {"hand": hand, "seat": me, "won": state.returns()[me]}


def figure(wins: float, hands: int) -> str:
    """Wins, rate and 95% interval in words."""
    low, high = wilson(round(wins), hands)
    return f"IS-MCTS won {wins:g} of {hands} hands against search ({wins / hands:.1%}, 95% {low:.1%} to {high:.1%})"


def main() -> None:
    """Run the hands (or summarise a log) and print the figure."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log")
    parser.add_argument("--summarise")
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    if args.summarise:
        rows = [json.loads(line) for line in pathlib.Path(args.summarise).read_text().splitlines() if line]
        print(figure(sum(r["won"] for r in rows), len(rows)))
        return
    wins, done = 0.0, 0
    tasks = [(hand, args.seed, args.iterations) for hand in range(args.first, args.hands)]
    for row in ordered_map(play, tasks, args.jobs) if args.jobs > 1 else (play(*t) for t in tasks):
        wins, done = wins + row["won"], done + 1
        if args.log:
            with open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(row) + "\n")
        print(f"\r{done}/{len(tasks)} hands, IS-MCTS {wins:g} wins", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(figure(wins, done))


if __name__ == "__main__":
    main()
