"""The Kings Corner turn solver on two hard turns: a ten-card chain that goes out, and a hand that cannot.

    python scripts/bench/bench_corner_turn.py

Every side spot is empty and a King of Spades lies in a corner. The chain (QH down
to 3S) goes out: the search stops there. The stuck hand (QH and five cards that
fit nowhere but the four empty spots) cannot go out, so the search runs to the end
or to its budget. Figures are CPU seconds of this process and positions searched.
"""

from __future__ import annotations

import time

from kcsolve.common.budget import Budget
from kcsolve.common.cards import parse_card
from kcsolve.corner.game.engine import card_int
from kcsolve.corner.game.rules import DEFAULT
from kcsolve.corner.solvers.turn import DEFAULT_TURN_NODES, best_turn

PILES = ((), (), (), (), (card_int(parse_card("KS")),), (), (), ())
HANDS = {
    "ten-card chain": "QH JS TH 9S 8H 7S 6H 5S 4H 3S",
    "stuck hand": "QH JS TH 9S AS AC 2S 2C 3C",
}


def main() -> None:
    """Time each hand with the default budget and with none."""
    print(f"{'hand':<16} {'budget':>12} {'positions':>10} {'proven':>7} {'CPU s':>7}")
    for name, text in HANDS.items():
        hand = tuple(sorted(card_int(parse_card(t)) for t in text.split()))
        for label, budget in ((f"{DEFAULT_TURN_NODES:,}", None), ("none", Budget())):
            start = time.process_time()
            turn = best_turn(PILES, hand, DEFAULT, budget=budget)
            seconds = time.process_time() - start
            print(f"{name:<16} {label:>12} {turn.states:>10,} {turn.proven!s:>7} {seconds:>7.3f}")


if __name__ == "__main__":
    main()
