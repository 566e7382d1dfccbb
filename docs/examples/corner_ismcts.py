"""An information-set MCTS agent (single-observer IS-MCTS) for Kings Corner, on kcsolve.corner.spiel only.

    python docs/examples/corner_ismcts.py [HANDS]

Each iteration deals the unseen cards again (``resample_from_infostate``), walks one tree
of actions shared by all those worlds (UCB counted over the times an action was legal),
adds one node, plays out with greedy players and backs the result up for the mover at each
node. It then plays HANDS hands (default 10) against the greedy bot and prints its wins.
"""

from __future__ import annotations

import math
import random
import sys

from kcsolve.corner.spiel import BotAgent, KingsCornerGame, KingsCornerState


class Node:
    """An action in the tree: who made it, how often it was tried and legal, and what it won."""

    def __init__(self, action: int | None, mover: int, parent: Node | None) -> None:
        self.action, self.mover, self.parent = action, mover, parent
        self.children: dict[int, Node] = {}
        self.visits, self.wins, self.available = 0, 0.0, 1

    def ucb(self, c: float) -> float:
        """The mean return plus the exploration bonus."""
        return self.wins / self.visits + c * math.sqrt(math.log(self.available) / self.visits)


def ismcts_action(state: KingsCornerState, rng: random.Random, iterations: int = 64, c: float = 0.7) -> int:
    """The most visited action at the root after ``iterations`` iterations."""
    seat, legal = state.current_player(), state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    bots = [BotAgent("greedy", s) for s in range(state.get_game().num_players())]
    root = Node(None, seat, None)
    for _ in range(iterations):
        node, world = root, state.resample_from_infostate(seat, rng)
        while not world.is_terminal():
            if world.is_chance_node():
                world.apply_action(rng.choice(world.legal_actions()))
                continue
            actions = world.legal_actions()
            untried = [a for a in actions if a not in node.children]
            for a in actions:
                if a in node.children:
                    node.children[a].available += 1
            if untried:
                action = rng.choice(untried)
                node.children[action] = node = Node(action, world.current_player(), node)
                world.apply_action(action)
                break
            node = max((node.children[a] for a in actions), key=lambda child: child.ucb(c))
            world.apply_action(node.action)
        while not world.is_terminal():  # the play-out, greedy for everybody
            world.apply_action(
                rng.choice(world.legal_actions())
                if world.is_chance_node()
                else bots[world.current_player()].step(world)
            )
        returns = world.returns()
        while node.parent is not None:
            node.visits += 1
            node.wins += returns[node.mover]
            node = node.parent
    return max(root.children.values(), key=lambda child: child.visits).action


def match(hands: int, seed: int = 0) -> float:
    """IS-MCTS against greedy over ``hands`` two-player hands, taking turns to lead; IS-MCTS's wins."""
    game, rng, wins = KingsCornerGame(2), random.Random(seed), 0.0
    for hand in range(hands):
        me, greedy = hand % 2, BotAgent("greedy", 1 - hand % 2)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            elif state.current_player() == me:
                state.apply_action(ismcts_action(state, rng))
            else:
                state.apply_action(greedy.step(state))
        wins += state.returns()[me]
    return wins


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    print(f"IS-MCTS won {match(count):g} of {count} hands against greedy")
