"""Kings Corner for other programs, in the manner of OpenSpiel's game API: integer actions, chance nodes for the
cards, an information state and an observation per seat, and returns at the end.

    game = KingsCornerGame(players=2, rules="draw=start")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():                    # the deal and every draw: the next card of the deck
            cards, odds = zip(*state.chance_outcomes())
            state.apply_action(random.choice(cards))
        else:
            state.apply_action(random.choice(state.legal_actions()))
    state.returns()                                   # [1.0, 0.0]: player 1 went out

Each card taken from the deck, at the deal or in a draw, is a chance node whose
outcomes are the cards nobody has seen, uniformly; a state never holds a card
before it is drawn, so no copy of it can show one. With ``draws="dealt"`` the
deck is dealt in advance from a deal number (the shuffle of ``kcsolve corner
deal``), there are no chance nodes, and a record's moves replay exactly. Either
way the position and the deck are private: a seat's ``information_state_string``
(what it has seen, in order), ``observation_string`` and ``observation_tensor``
(what it sees now) and ``resample_from_infostate`` (a state the seat cannot tell
from this one) are the ways to look at it. ``BotAgent`` puts a built-in bot in a
seat, so a learning agent can play against them.
"""

from __future__ import annotations

import random

from kcsolve.common.deal import SEED_LIMIT, check_seed
from kcsolve.corner.bots.bots import SeatView, make_bot, view_of
from kcsolve.corner.game.engine import (
    END,
    IllegalCornerMoveError,
    Merge,
    Move,
    Play,
    Position,
    Under,
    board_moves,
    card_text,
    check_players,
    deal_hand,
    seeded_deck,
)
from kcsolve.corner.game.render import draw_piles, draw_position, hand_text
from kcsolve.corner.game.rules import CornerRules, parse_corner_rules
from kcsolve.corner.solvers.turn import Piles
from kcsolve.errors import KcsolveError

PLAYS = 52 * 8  # actions 0..415: play card c onto pile p is c * 8 + p
UNDERS = 52 * 8  # actions 416..831: card c under pile p
MERGES = 4 * 8  # actions 832..863: side pile s onto pile t
END_ACTION = PLAYS + UNDERS + MERGES  # 864
NUM_ACTIONS = END_ACTION + 1
TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
CHANCE = -1  # OpenSpiel's kChancePlayerId
PILE = -1  # the owner of a card turned up for a pile: everybody sees it
RESAMPLE_TRIES = 1_000
BOARD_MOVES_BOUND = 48 + 51  # plays and cards under (one card each) and pile moves: see max_game_length
CARD_PLANES = 12  # per card: in my hand, on each of the 8 piles, unseen, the exposed card of a pile, a pile's base
# then: hand sizes (4), the stock (1), the seat to move (4), moved and played under this turn (2), and for the strict
# play-under the side spots this turn's pile moves emptied (4) and the spot that filled the vacancy (4)
OBSERVATION_SIZE = 52 * CARD_PLANES + 4 + 1 + 4 + 2 + 4 + 4


class InvalidSeatError(KcsolveError):
    """A seat number that is not at the table."""


class InvalidDrawsError(KcsolveError):
    """A way of drawing other than 'chance' and 'dealt', or a deal number where the cards are chance's."""


class ResampleError(KcsolveError):
    """No deal consistent with a seat's information was found within RESAMPLE_TRIES tries."""


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
    """The game's parameters: players (2 to 4), rules (a rule text or CornerRules), and how cards are drawn:
    ``"chance"`` (each card is a chance node) or ``"dealt"`` (the deck is shuffled in advance from a deal number,
    for replaying records)."""

    def __init__(
        self, players: int = 2, rules: str | CornerRules = "default", seed: int | None = None, draws: str = "chance"
    ) -> None:
        if draws not in ("chance", "dealt"):
            raise InvalidDrawsError(f"draws must be 'chance' or 'dealt', not {draws!r}")
        self.players = check_players(players)
        self.rules = rules if isinstance(rules, CornerRules) else parse_corner_rules(rules)
        self.draws = draws
        self._deals = random.Random(seed)
        self._before_deal: KingsCornerState | None = None

    def num_players(self) -> int:
        """Players at the table."""
        return self.players

    def num_distinct_actions(self) -> int:
        """Size of the action space (most are illegal in any one state)."""
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        """A chance node's outcomes are cards."""
        return 52

    def observation_tensor_size(self) -> int:
        """Length of ``observation_tensor``."""
        return OBSERVATION_SIZE

    def max_game_length(self) -> int:
        """The most actions of the players in one hand (chance outcomes not counted, as in OpenSpiel).

        A sound bound, with n players, hand size h and B = 99:

        - Board moves are at most B. Plays and cards put under take a card from a
          hand, and a card never goes back to a hand: at most the 48 cards not
          turned up for the piles. Each pile move empties a side pile onto another,
          so it leaves one pile fewer holding cards, and at least one always holds
          some; the four dealt cards make four, and only a play onto an empty spot
          adds one (at most 48 of them): at most 4 + 48 - 1 = 51 pile moves.
        - Every turn but the last ends with ``end``. A turn with a board move: at
          most B of them. A turn without one takes a card from the stock while it
          holds any (the draw at its start or end, or the draw of a turn ended
          without a move under until_play): at most the 48 - n*h cards of the
          stock. Once the stock is empty, a player who can move must, and nothing
          changes while players pass, so after n - 1 passes in a row somebody
          moves, or after the first pass nobody can and the hand ends: at most
          n - 1 passes after each of at most B turns with moves and before the
          first, (n - 1)(B + 1). After the first player goes out, the others have
          at most n - 1 turns (under 'tie').

        In all, B + B + (48 - n*h) + (n - 1)(B + 1) + (n - 1) = (n + 1)B + 48 - n*h + 2(n - 1).
        """
        players, board = self.players, BOARD_MOVES_BOUND
        return (players + 1) * board + 48 - players * self.rules.hand_size + 2 * (players - 1)

    def max_chance_nodes_in_history(self) -> int:
        """Each chance node reveals a card of the deck: at most 52 in a hand."""
        return 52

    def new_initial_state(self, seed: int | None = None) -> KingsCornerState:
        """Under 'chance' draws, the hand before the deal (a chance node); under 'dealt', the hand dealt from deal
        number ``seed``, or the game's next one."""
        if self.draws == "chance":
            if seed is not None:
                raise InvalidDrawsError(
                    f"a deal number ({seed!r}) fixes the order of the stock: give the game draws='dealt'"
                )
            # pyspiel makes a fresh state for every copy it takes; cloning one made once saves laying out the deal.
            if self._before_deal is None:
                self._before_deal = KingsCornerState(self, ())
            return self._before_deal.clone()
        deal = self._deals.randrange(SEED_LIMIT) if seed is None else check_seed(seed)
        return KingsCornerState(self, seeded_deck(deal))


class KingsCornerState:
    """A hand in play. Seats are numbered from 0; seat 0 plays first.

    The deck is revealed from the top as the game needs it: ``_deck`` holds the cards
    taken so far (all 52 under 'dealt' draws). A player's move, or the deal, is a
    transition that may take cards; while it needs a card not yet revealed, the state
    is a chance node. ``_events`` says, for every card taken and every move, who saw
    what: it is each seat's information state.
    """

    def __init__(self, game: KingsCornerGame, deck: tuple[int, ...]) -> None:
        self._game = game
        self._deck = list(deck)
        self._history: list[int] = []
        self._events: list[tuple[str, int, int]] = []  # ('card', owner or PILE, card) or ('move', seat, action)
        self._told = 0  # deck cards whose owner is in _events
        self._position: Position | None = None  # the last position reached between transitions
        self._move: Move | None = None  # the move of the transition in progress (None: the deal)
        self._pending = True
        self._stuck_memo: tuple[int, dict[int, list[tuple[int, Piles]]]] | None = None
        self._resolve()

    def get_game(self) -> KingsCornerGame:
        """The game this state belongs to."""
        return self._game

    # the transition in progress

    def _after(self, deck: list[int]) -> Position:
        """The transition played with the deck's cards revealed so far, then the unseen cards in a fixed order."""
        unseen = sorted(set(range(52)).difference(deck))
        if self._position is None:
            return deal_hand(tuple(deck + unseen), self._game.players, self._game.rules)
        taken = 52 - len(self._position.stock)
        assert self._move is not None
        return self._position._with(stock=tuple(deck[taken:] + unseen)).play(self._move)

    def _resolve(self, after: Position | None = None) -> None:
        """Note who got each card taken; end the transition if the cards revealed decide it, else wait for chance.

        ``after`` is the transition already played on the same cards, where the caller has it."""
        if after is None:
            after = self._after(self._deck)
        taken = 52 - len(after.stock)
        for card in self._deck[self._told : taken]:
            owner = next((seat for seat, hand in enumerate(after.hands) if card in hand), PILE)
            self._events.append(("card", owner, card))
        self._told = max(self._told, min(taken, len(self._deck)))
        if taken <= len(self._deck):
            self._position, self._move, self._pending = after, None, False

    # OpenSpiel's verbs

    def current_player(self) -> int:
        """The seat to move, CHANCE while a card is to be revealed, or TERMINAL once the hand is over."""
        if self._pending:
            return CHANCE
        assert self._position is not None
        return TERMINAL if self._position.over else self._position.player

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether the next card of the deck is to be revealed: at the deal, and at every draw under 'chance'."""
        return self._pending

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node, every card nobody has seen, each as likely; else none."""
        if not self._pending:
            return []
        unseen = sorted(set(range(52)).difference(self._deck))
        return [(card, 1 / len(unseen)) for card in unseen]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the one to move, chance included), sorted; none for others."""
        if player is not None and player != self.current_player():
            return []
        if self._pending:
            return [card for card, _ in self.chance_outcomes()]
        assert self._position is not None
        return sorted(action_of(m) for m in self._position.legal_moves())

    def apply_action(self, action: int) -> None:
        """Reveal a card at a chance node, or play an action of the player to move; IllegalCornerMoveError if it
        is neither, and the state is unchanged."""
        if self._pending:
            if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 52 or action in self._deck:
                raise IllegalCornerMoveError(f"not a card nobody has seen: {action!r}")
            self._deck.append(action)
        else:
            assert self._position is not None
            move = move_of(action)
            # Raises before anything changes if the move is illegal. The position's stock is the revealed cards
            # then the unseen ones in order, as _after would build it, so this is the transition's result too.
            after = self._position.play(move)
            self._events.append(("move", self._position.player, action))
            self._move, self._pending = move, True
            self._history.append(action)
            self._resolve(after)
            return
        self._history.append(action)
        self._resolve()

    def action_to_string(self, player: int, action: int) -> str:
        """An action as the command line writes it ('play QH N'); a chance outcome as its card ('card QH')."""
        if player == CHANCE:
            return f"card {card_text(action)}"
        return str(move_of(action))

    def history(self) -> list[int]:
        """Every action so far, chance outcomes included (the whole truth, as OpenSpiel's history is)."""
        return list(self._history)

    def returns(self) -> list[float]:
        """Once over: 1 to the player who went out (shared equally on a tie), 0 to the others; zeros before."""
        winners = self._position.winners if self.is_terminal() and self._position else ()
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(self._game.players)]

    def penalties(self) -> list[int]:
        """Once over, the penalty points of the cards each seat holds (for rewards by score); zeros before, since
        they would tell what the others hold."""
        if not self.is_terminal():
            return [0] * self._game.players
        return list(self._visible().penalties())

    # what a seat sees

    def _seat(self, player: int) -> int:
        """``player`` if it sits at the table, else InvalidSeatError."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self._game.players:
            raise InvalidSeatError(f"no seat {player!r} at this table (seats 0 to {self._game.players - 1})")
        return player

    def observation(self, player: int) -> SeatView:
        """What ``player`` may see now: a SeatView, the same object the built-in bots decide from."""
        return view_of(self._visible(), self._seat(player))

    def _visible(self) -> Position:
        """The position as the table shows it: while cards are being taken, those not yet revealed are left out."""
        if not self._pending:
            assert self._position is not None
            return self._position
        after, revealed = self._after(self._deck), set(self._deck)
        hands = tuple(tuple(c for c in hand if c in revealed) for hand in after.hands)
        piles = tuple(tuple(c for c in pile if c in revealed) for pile in after.piles)
        return after._with(piles=piles, hands=hands, stock=tuple(sorted(set(range(52)) - revealed)))

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` has seen, in order: the rules, its own cards, the cards turned up, every move, how
        many cards each other seat took (never which), and last what the table is waiting for."""
        self._seat(player)
        lines = [f"Kings Corner, {self._game.players} players, rules {self._game.rules}; you are player {player + 1}"]
        for kind, seat, value in self._events:
            if kind == "move":
                lines.append(f"player {seat + 1}: {move_of(value)}")
            elif seat == player:
                lines.append(f"you took {card_text(value)}")
            elif seat == PILE:
                lines.append(f"{card_text(value)} turned up")
            else:
                lines.append(f"player {seat + 1} took a card")
        # Whether another seat's drawing has stopped hangs on the card it drew, which this seat never sees: the
        # table shows it, so the information state must, or two states it tells apart would look the same.
        lines.append(self._waiting_for())
        return "\n".join(lines)

    def _waiting_for(self) -> str:
        """What the table is waiting for: the end, a card from the deck, or a seat's move."""
        if self._pending:
            return "cards are being drawn"
        assert self._position is not None
        return "the hand is over" if self._position.over else f"to move: player {self._position.player + 1}"

    def observation_string(self, player: int) -> str:
        """The seat's view now as text: the piles, its hand, the others' hand sizes, the stock's size."""
        view = self.observation(player)
        others = ", ".join(f"player {s + 1}: {n}" for s, n in enumerate(view.hand_sizes) if s != player)
        return (
            f"{draw_piles(view.piles)}\nYour hand: {hand_text(view.hand)}\nCards held: {others}\n"
            f"Stock: {view.stock_size}; {self._waiting_for()}"
        )

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
        """An independent copy: the same cards revealed, nothing more (positions are immutable, so this is cheap)."""
        copy = KingsCornerState.__new__(KingsCornerState)
        copy.__dict__.update(self.__dict__)
        copy._deck, copy._history, copy._events = list(self._deck), list(self._history), list(self._events)
        return copy

    def __deepcopy__(self, memo: dict[int, object]) -> KingsCornerState:
        """``clone()``: pyspiel copies a python state with ``copy.deepcopy``, which would copy the game and every
        immutable position too, hundreds of times the cost."""
        return self.clone()

    def resample_from_infostate(self, player: int, rng: random.Random) -> KingsCornerState:
        """A state ``player`` cannot tell from this one: the same moves and the same information state, the cards it
        has not seen dealt again at random.

        The hidden cards are dealt card by card as the moves are replayed: a card
        another seat plays later goes into that seat's hand before the play, and a
        card that would change when the drawing stops (under 'until_play'), or a deal
        that makes a move illegal (a pass with the stock empty while a card could be
        played), is dealt again. ResampleError after RESAMPLE_TRIES deals that fail.
        """
        known = self.information_state_string(self._seat(player))
        for _ in range(RESAMPLE_TRIES):
            sample = self._sampled(player, rng)
            if sample is not None and self._game.draws == "dealt":
                sample = sample._dealt_again(self._game, rng)
            if sample is not None and sample.information_state_string(player) == known:
                return sample
        raise ResampleError(f"no deal consistent with player {player + 1}'s information in {RESAMPLE_TRIES:,} tries")

    def _sampled(self, player: int, rng: random.Random) -> KingsCornerState | None:
        """This state's moves replayed under 'chance' draws, each card hidden from ``player`` chosen at random among
        those that keep the replay the same; None where the choices made so far lead nowhere."""
        owed: dict[int, list[tuple[int, int]]] = {}  # by seat: (the event that plays it, card), in order of play
        slots: dict[int, list[int]] = {}  # by seat: the events giving it a card hidden from player
        for index, (kind, seat, value) in enumerate(self._events):
            if kind == "card" and seat not in (player, PILE):
                slots.setdefault(seat, []).append(index)
            elif kind == "move" and seat != player and isinstance(move := move_of(value), Play | Under):
                owed.setdefault(seat, []).append((index, move.card))
        seen = {value for kind, seat, value in self._events if kind == "card" and seat in (player, PILE)}
        pool = sorted(set(range(52)) - seen - {card for cards in owed.values() for _, card in cards})
        stuck = self._stuck()
        sample = KingsCornerState(KingsCornerGame(self._game.players, self._game.rules), ())
        for index, (kind, seat, value) in enumerate(self._events):
            more = self._events[index + 1][0] == "card" if index + 1 < len(self._events) else self._pending
            if kind == "move":
                if sample.is_chance_node():
                    return None
                try:
                    sample.apply_action(value)
                except IllegalCornerMoveError:  # a pass with the stock empty, say, where this deal has a play
                    return None
                if sample.is_chance_node() != more:
                    return None
                continue
            if not sample.is_chance_node():
                return None
            if seat in (player, PILE):
                choices = [value]
            else:
                slots[seat].pop(0)
                plays = {card: when for when, card in owed.get(seat, [])}
                choices = [
                    card
                    for card in _choices(owed.get(seat, []), slots[seat], pool, rng)
                    if not any(
                        index < when < plays.get(card, len(self._events)) and _fits(card, piles, self._game.rules)
                        for when, piles in stuck.get(seat, [])
                    )
                ]
            for card in choices:
                trial = sample.clone()
                trial.apply_action(card)
                if trial.is_chance_node() == more:
                    break
            else:
                return None
            sample = trial
            if card in pool:
                pool.remove(card)
            elif seat in owed:
                owed[seat] = [(when, c) for when, c in owed[seat] if c != card]
        return sample

    def _stuck(self) -> dict[int, list[tuple[int, Piles]]]:
        """By seat, the moments it is known to hold no card that plays, and the piles then: before each card it
        drew until it could play, and at each turn it ended without a move once the stock was empty."""
        # A search resamples one state many times, and this replay was half of each sample's cost. Events are only
        # ever appended, and a clone shares its parent's first events, so their count names the replay.
        if self._stuck_memo is not None and self._stuck_memo[0] == len(self._events):
            return self._stuck_memo[1]
        rules, cards = self._game.rules, iter(self._deck)
        replay = KingsCornerState(KingsCornerGame(self._game.players, rules), ())
        stuck: dict[int, list[tuple[int, Piles]]] = {}
        for index, (kind, seat, value) in enumerate(self._events):
            shown = replay._visible()
            if kind == "move":
                if value == END_ACTION and shown.must_move():
                    stuck.setdefault(seat, []).append((index, shown.piles))
                replay.apply_action(value)
                continue
            drawing = len(replay._deck) >= self._game.players * rules.hand_size + 4  # the hands and piles are dealt
            if (
                rules.until_play
                and drawing
                and shown.player == seat
                and not any(_fits(card, shown.piles, rules) for card in shown.hands[seat])
            ):
                stuck.setdefault(seat, []).append((index, shown.piles))
            replay.apply_action(next(cards))
        self._stuck_memo = (len(self._events), stuck)
        return stuck

    def _dealt_again(self, game: KingsCornerGame, rng: random.Random) -> KingsCornerState:
        """The sample under 'dealt' draws: its cards revealed so far, then the others in a random order."""
        rest = sorted(set(range(52)).difference(self._deck))
        rng.shuffle(rest)
        dealt = KingsCornerState(game, tuple(self._deck + rest))
        for kind, _, value in self._events:
            if kind == "move":
                dealt.apply_action(value)
        return dealt

    def __str__(self) -> str:
        """The whole table, every hand shown (a card not yet revealed is in none), then what it is waiting for."""
        return f"{draw_position(self._visible())}\n{self._waiting_for()}"


def _choices(owed: list[tuple[int, int]], later: list[int], pool: list[int], rng: random.Random) -> list[int]:
    """The cards that may fill a seat's hidden card now, in a random order: only cards it plays later while it has
    no later hidden card to spare for them, else those and any unseen card."""
    owed = sorted(owed)
    for count, (when, _) in enumerate(owed, start=1):
        if sum(slot < when for slot in later) < count:  # the first ``count`` plays need this card
            forced = [card for _, card in owed[:count]]
            rng.shuffle(forced)
            return forced
    cards = [card for _, card in owed] + pool
    rng.shuffle(cards)
    return cards


def _fits(card: int, piles: Piles, rules: CornerRules) -> bool:
    """Whether ``card`` may be played onto, into or under some pile."""
    return any(getattr(move, "card", None) == card for move in board_moves(piles, (card,), rules))


class BotAgent:
    """A built-in bot ('random', 'greedy', 'turn', 'search') playing one seat from that seat's observation."""

    def __init__(self, name: str, seat: int, seed: int = 0) -> None:
        self.bot = make_bot(name, seed)
        self.seat = seat

    def step(self, state: KingsCornerState) -> int:
        """The bot's action in ``state``, where its seat is to move."""
        return action_of(self.bot.choose(state.observation(self.seat)))
