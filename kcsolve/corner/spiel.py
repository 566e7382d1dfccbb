"""Kings Corner for other programs, in the manner of OpenSpiel's game API: integer actions, one state object,
an observation per seat, and returns at the end.

    game = KingsCornerGame(players=2, rules="draw=start")
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()                                   # [1.0, 0.0]: player 1 went out

Chance is handled inside the state: the deal comes from a deal number (the same
shuffle as ``kcsolve corner deal``) and the engine makes every draw, so there are
no chance nodes. A seat's observation is built from its ``SeatView`` only: the
piles, its own hand, the sizes of the other hands and of the stock, and which
cards are unseen (never where they are). ``BotAgent`` puts a built-in bot in a
seat, so a learning agent can play against them.
"""

from __future__ import annotations

import random

from kcsolve.common.deal import SEED_LIMIT, check_seed
from kcsolve.corner.bots import SeatView, make_bot, view_of
from kcsolve.corner.engine import (
    END,
    IllegalCornerMoveError,
    Merge,
    Move,
    Play,
    Position,
    Under,
    check_players,
    deal_hand,
    seeded_deck,
)
from kcsolve.corner.render import draw_piles, hand_text
from kcsolve.corner.rules import CornerRules, parse_corner_rules
from kcsolve.errors import KcsolveError

PLAYS = 52 * 8  # actions 0..415: play card c onto pile p is c * 8 + p
UNDERS = 52 * 8  # actions 416..831: card c under pile p
MERGES = 4 * 8  # actions 832..863: side pile s onto pile t
END_ACTION = PLAYS + UNDERS + MERGES  # 864
NUM_ACTIONS = END_ACTION + 1
TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
CARD_PLANES = 12  # per card: in my hand, on each of the 8 piles, unseen, the exposed card of a pile, a pile's base
# then: hand sizes (4), the stock (1), the seat to move (4), moved and played under this turn (2), and for the strict
# play-under the side spots this turn's pile moves emptied (4) and the spot that filled the vacancy (4)
OBSERVATION_SIZE = 52 * CARD_PLANES + 4 + 1 + 4 + 2 + 4 + 4


class InvalidSeatError(KcsolveError):
    """A seat number that is not at the table."""


def action_of(move: Move) -> int:
    """The integer of a move."""
    if isinstance(move, Play):
        return move.card * 8 + move.pile
    if isinstance(move, Under):
        return PLAYS + move.card * 8 + move.pile
    if isinstance(move, Merge):
        return PLAYS + UNDERS + move.source * 8 + move.target
    return END_ACTION


def move_of(action: int) -> Move:
    """The move an integer stands for; IllegalCornerMoveError if it stands for none."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise IllegalCornerMoveError(f"not an action: {action!r} (actions are 0 to {NUM_ACTIONS - 1})")
    if action == END_ACTION:
        return END
    if action < PLAYS:
        return Play(*divmod(action, 8))
    if action < PLAYS + UNDERS:
        return Under(*divmod(action - PLAYS, 8))
    source, target = divmod(action - PLAYS - UNDERS, 8)
    return Merge(source, target)


class KingsCornerGame:
    """The game's parameters: players (2 to 4) and rules (a rule text or CornerRules)."""

    def __init__(self, players: int = 2, rules: str | CornerRules = "default", seed: int | None = None) -> None:
        self.players = check_players(players)
        self.rules = rules if isinstance(rules, CornerRules) else parse_corner_rules(rules)
        self._deals = random.Random(seed)

    def num_players(self) -> int:
        """Players at the table."""
        return self.players

    def num_distinct_actions(self) -> int:
        """Size of the action space (most are illegal in any one state)."""
        return NUM_ACTIONS

    def observation_tensor_size(self) -> int:
        """Length of ``observation_tensor``."""
        return OBSERVATION_SIZE

    def new_initial_state(self, seed: int | None = None) -> KingsCornerState:
        """A freshly dealt hand: deal number ``seed``, or the game's next one."""
        deal = self._deals.randrange(SEED_LIMIT) if seed is None else check_seed(seed)
        return KingsCornerState(self, deal_hand(seeded_deck(deal), self.players, self.rules), deal)


class KingsCornerState:
    """A hand in play. Seats are numbered from 0; seat 0 plays first."""

    def __init__(self, game: KingsCornerGame, position: Position, seed: int) -> None:
        self.game = game
        self.position = position
        self.seed = seed
        self._history: list[int] = []

    def current_player(self) -> int:
        """The seat to move, or TERMINAL once the hand is over."""
        return TERMINAL if self.position.over else self.position.player

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.position.over

    def is_chance_node(self) -> bool:
        """Never: the deal and the draws are made inside the state."""
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to move), sorted; none for the others."""
        if player is not None and player != self.current_player():
            return []
        return sorted(action_of(m) for m in self.position.legal_moves())

    def apply_action(self, action: int) -> None:
        """Play an action of the player to move; IllegalCornerMoveError if it is not legal."""
        self.position = self.position.play(move_of(action))
        self._history.append(action)

    def action_to_string(self, player: int, action: int) -> str:
        """An action as the command line writes it ('play QH N')."""
        del player
        return str(move_of(action))

    def history(self) -> list[int]:
        """The actions played so far."""
        return list(self._history)

    def returns(self) -> list[float]:
        """Once over: 1 to the player who went out (shared equally on a tie), 0 to the others and to all after an
        impasse; zeros before the end."""
        winners = self.position.winners if self.position.over else ()
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(self.game.players)]

    def penalties(self) -> list[int]:
        """Penalty points of the cards each seat holds (for rewards by score)."""
        return list(self.position.penalties())

    def observation(self, player: int) -> SeatView:
        """What ``player`` may see: a SeatView, the same object the built-in bots decide from."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            raise InvalidSeatError(f"no seat {player!r} at this table (seats 0 to {self.game.players - 1})")
        return view_of(self.position, player)

    def observation_string(self, player: int) -> str:
        """The seat's view as text: the piles, its hand, the others' hand sizes, the stock's size."""
        view = self.observation(player)
        others = ", ".join(f"player {s + 1}: {n}" for s, n in enumerate(view.hand_sizes) if s != player)
        turn = "the hand is over" if view.over else f"to move: player {view.to_move + 1}"
        return (f"{draw_piles(view.piles)}\nYour hand: {hand_text(view.hand)}\nCards held: {others}\n"
                f"Stock: {view.stock_size}; {turn}")

    def observation_tensor(self, player: int) -> list[float]:
        """The seat's view as numbers, OBSERVATION_SIZE of them; seats are counted from ``player``."""
        view = self.observation(player)
        planes = [0.0] * (52 * CARD_PLANES)
        for card in view.hand:
            planes[card * CARD_PLANES] = 1.0
        for pile, cards in enumerate(view.piles):
            for card in cards:
                planes[card * CARD_PLANES + 1 + pile] = 1.0
            if cards:
                planes[cards[-1] * CARD_PLANES + 10] = 1.0
                planes[cards[0] * CARD_PLANES + 11] = 1.0
        for card in view.hidden:
            planes[card * CARD_PLANES + 9] = 1.0
        seats = len(view.hand_sizes)
        sizes = [view.hand_sizes[(player + i) % seats] / 52 if i < seats else 0.0 for i in range(4)]
        to_move = [1.0 if not view.over and (view.to_move - player) % seats == i else 0.0 for i in range(4)]
        turn = [1.0 if view.moved else 0.0, 1.0 if view.marks.under_played else 0.0]
        opened = [float(view.marks.opened >> side & 1) for side in range(4)]
        closing = [1.0 if view.marks.closing == side else 0.0 for side in range(4)]
        return planes + sizes + [view.stock_size / 52] + to_move + turn + opened + closing

    def clone(self) -> KingsCornerState:
        """An independent copy (positions are immutable, so this is cheap)."""
        copy = KingsCornerState(self.game, self.position, self.seed)
        copy._history = list(self._history)
        return copy

    def __str__(self) -> str:
        return f"deal {self.seed}, " + ("over" if self.is_terminal() else f"player {self.position.player + 1} to move")


class BotAgent:
    """A built-in bot ('random', 'greedy', 'turn', 'search') playing one seat from that seat's observation."""

    def __init__(self, name: str, seat: int, seed: int = 0) -> None:
        self.bot = make_bot(name, seed)
        self.seat = seat

    def step(self, state: KingsCornerState) -> int:
        """The bot's action in ``state``, where its seat is to move."""
        return action_of(self.bot.choose(state.observation(self.seat)))

