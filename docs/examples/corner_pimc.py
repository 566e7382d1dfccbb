"""A determinised (PIMC) agent for Kings Corner, written on kcsolve.corner.spiel only.

    python docs/examples/corner_pimc.py [HANDS]

For each legal action it deals the cards it has not seen again (``resample_from_infostate``)
several times, plays each world out with greedy players, and takes the action that wins
most often. It then plays HANDS hands (default 20) against the greedy bot and prints its wins.
"""

from __future__ import annotations

import random
import sys

from kcsolve.corner.spiel import BotAgent, KingsCornerGame, KingsCornerState


def play_out(state: KingsCornerState, rng: random.Random, bots: list[BotAgent]) -> list[float]:
    """Play a state to the end: chance deals uniformly, every seat plays greedy."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def pimc_action(state: KingsCornerState, rng: random.Random, worlds: int = 12) -> int:
    """The action with the best mean return over ``worlds`` worlds consistent with what the mover has seen."""
    seat, legal = state.current_player(), state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    bots = [BotAgent("greedy", s) for s in range(state.get_game().num_players())]
    score = dict.fromkeys(legal, 0.0)
    for _ in range(worlds):
        world = state.resample_from_infostate(seat, rng)
        for action in legal:
            child = world.clone()
            child.apply_action(action)
            score[action] += play_out(child, rng, bots)[seat]
    return max(legal, key=lambda action: score[action])


def match(hands: int, seed: int = 0) -> float:
    """PIMC against greedy over ``hands`` two-player hands, taking turns to lead; PIMC's wins."""
    game, rng, wins = KingsCornerGame(2), random.Random(seed), 0.0
    for hand in range(hands):
        me, greedy = hand % 2, BotAgent("greedy", 1 - hand % 2)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            elif state.current_player() == me:
                state.apply_action(pimc_action(state, rng))
            else:
                state.apply_action(greedy.step(state))
        wins += state.returns()[me]
    return wins


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"PIMC won {match(count):g} of {count} hands against greedy")
