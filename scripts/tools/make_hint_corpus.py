"""Write the hint corpus: positions under all 36 rule sets with the hints Python's ``kcsolve.hints`` gives.

    python scripts/tools/make_hint_corpus.py            # tests/golden/hint-corpus.jsonl

Each position is reached by play from a seeded deal (the greedy player, with
random moves mixed in so the games vary; one deal in four rank-only), and stored as a record of the moves
that reach it, with the hint seed (some above 2**53) and playouts, and the
ranked options Python gives: move, wins (sampled) or chance (exact), and
whether the solver, seeing the real deck, finds the deal still winnable.
tests/web/test_js_help.py replays every record in the page's JavaScript engine
and checks that help.mjs ranks the same options with the same figures, and
re-asks Python on a sample, so a change on either side is caught; it also
checks that stillWinnable never contradicts the solver.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from itertools import product
from pathlib import Path

from kcsolve.common.cards import Card
from kcsolve.common.deal import deal
from kcsolve.patience.engine import Move, Place, Position
from kcsolve.patience.players.endgame import EXACT_STOCK
from kcsolve.patience.players.hints import hints
from kcsolve.patience.players.policy import greedy_player
from kcsolve.patience.record import record_from_moves
from kcsolve.patience.rules import AXES, Courts, Removal, Rules, Sets, parse_rules
from kcsolve.patience.solve.peek import peek

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "golden" / "hint-corpus.jsonl"
BIG_SEED = 2**61 + 12345  # a hint seed JavaScript's numbers cannot hold exactly


def all_rules() -> list[str]:
    """The 36 rule sets, one text per combination of the four axes."""
    return [
        "+".join(f"{axis}={option.value}" for axis, option in zip(AXES, combo)) for combo in product(*AXES.values())
    ]


def played(deck: tuple, rules_text: str, rng: random.Random) -> list[Move]:
    """One game's moves: the greedy player's, one in five replaced by a random legal move."""
    position = Position.start(deck, parse_rules(rules_text))
    moves: list[Move] = []
    while legal := position.legal_moves():
        move = rng.choice(legal) if rng.random() < 0.2 else greedy_player(position.view())
        moves.append(move)
        position = position.play(move)
    return moves


def late_rules(rules: Rules) -> bool:
    """Whether late positions are sought under these rules (forced pairs: exact figures with court cards at home,
    sampled ones late in the game under swap and royals)."""
    return rules.removal is Removal.FORCED and rules.sets is Sets.PAIRS


EXTRA_EXACT = 6  # more late positions under the three rule sets with exact figures, so the corpus holds 20 or more


def positions_with_choice(deck: tuple, rules: Rules, moves: list[Move]) -> list[tuple[int, int]]:
    """(moves played, cards drawn) of each position along ``moves`` with a move to make."""
    position = Position.start(deck, rules)
    reached = [(0, 0)]
    for n, move in enumerate(moves, start=1):
        position = position.play(move)
        if position.legal_moves():
            reached.append((n, position.drawn))
    return reached


def move_json(move: Move) -> dict:
    """A move as the JavaScript engine writes it."""
    return {"cell": move.cell} if isinstance(move, Place) else {"cells": list(move.cells)}


def cases(per_rules: int, rng: random.Random, peek_seconds: float) -> list[dict]:
    """``per_rules`` positions under each rule set, early, middle and late in their games."""
    made = []
    for number, rules_text in enumerate(all_rules()):
        rules = parse_rules(rules_text)
        exact = late_rules(rules) and rules.courts is Courts.FIXED
        for k in range(per_rules + (EXTRA_EXACT if exact else 0)):
            wants_late = (k % 3 == 2 or k >= per_rules) and late_rules(rules)
            for tries in range(40):  # late positions need a long game: deal again until one is
                deck = deal(1000 * number + 100 * tries + k)
                if k % 4 == 3:  # a rank-only deck: equal cards the view must keep apart
                    deck = tuple(Card(card.rank) for card in deck)
                moves = played(deck, rules_text, rng)
                reached = positions_with_choice(deck, rules, moves)
                late = [n for n, drawn in reached if drawn >= 52 - EXACT_STOCK]
                if late or not wants_late:
                    break
            cut = rng.choice(late) if late and wants_late else rng.choice(reached)[0]
            seed = rng.choice([0, 1, 7, rng.randrange(10**6), BIG_SEED + k])
            playouts = rng.choice([200, 200, 64])
            position = Position.start(deck, rules)
            for move in moves[:cut]:
                position = position.play(move)
            ranked = hints(position.view(), playouts, seed)
            made.append(
                {  # Python's own words for each figure: exact, chance, wins of playouts, interval
                    "record": record_from_moves(deck, rules, moves[:cut], "unknown").to_json(),
                    "seed": str(seed),
                    "playouts": playouts,
                    "winnable": peek(position, peek_seconds),  # the solver's word, from the real deck (None: undecided)
                    "hints": [
                        {
                            "move": move_json(h.move),
                            "exact": h.exact,
                            "chance": h.chance,
                            "meaning": h.meaning,
                            "wins": None if h.exact else round(h.chance * h.playouts),
                            "interval": list(h.interval),
                        }
                        for h in ranked
                    ],
                }
            )
    return made


def main() -> None:
    """Build the corpus and write it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-rules", type=int, default=9)
    parser.add_argument("--out", type=Path, default=CORPUS)
    parser.add_argument("--peek-seconds", type=float, default=2.0, help="CPU seconds the solver may take per position")
    args = parser.parse_args()
    began = time.perf_counter()
    made = cases(args.per_rules, random.Random(29), args.peek_seconds)
    args.out.write_text("".join(json.dumps(case, sort_keys=True) + "\n" for case in made), encoding="utf-8")
    exact = sum(1 for case in made if case["hints"] and case["hints"][0]["exact"])
    decided = sum(1 for case in made if case["winnable"] is not None)
    print(
        f"{args.out.name}: {len(made)} positions ({exact} with exact hints, {decided} decided by the solver)"
        f" in {time.perf_counter() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
