"""The Kings Corner engine: immutable positions, legal moves, and one hand played to its end.

Cards are ints 0..51 (suit index times 13 plus rank minus 1, suits S H D C), so
positions hash and compare fast. There are eight piles: the side piles N, E, S, W
(any card may start one) and the corner piles NE, SE, SW, NW (only a King may start
one). A pile is a tuple of cards from its base (the first card) to its exposed
card (the last). Cards go onto a pile one rank lower and of the other colour; a
whole pile moves onto another when its base fits the other's exposed card.

A turn is any number of moves, then ``End``; the turn's draw happens at its start
or at its end, as the rules say, and the engine makes it, so a record of moves
fixes the whole hand once the deck is known. Once the stock is empty a player who
can move must make a move before ending the turn, and the hand ends in an impasse
when no card can be drawn or played by anyone (seed 003).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kcsolve.common.cards import KING, RANKS, SUITS, Card, parse_card
from kcsolve.common.cards import InvalidCardError as _InvalidCardError
from kcsolve.common.deal import deal as _seeded_deck
from kcsolve.corner.game.rules import DEFAULT, CornerRules
from kcsolve.errors import KcsolveError

PILES = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
SIDES = range(4)
CORNERS = range(4, 8)
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class IllegalCornerMoveError(KcsolveError):
    """A move the rules do not allow in this position."""


class InvalidCornerMoveError(KcsolveError):
    """Text that does not name a move."""


class InvalidPlayersError(KcsolveError):
    """A player count outside 2..4."""


def card_int(card: Card) -> int:
    """The int of a suited card."""
    if card.suit is None:
        raise _InvalidCardError(f"Kings Corner needs suited cards, not {str(card)!r}")
    return SUITS.index(card.suit) * 13 + card.rank - 1


def card_text(card: int) -> str:
    """The two-letter name of a card int ('QH')."""
    return RANKS[card % 13] + SUITS[card // 13]


def rank(card: int) -> int:
    """Rank 1 (Ace) .. 13 (King)."""
    return card % 13 + 1


def red(card: int) -> bool:
    """Hearts and Diamonds are red."""
    return card // 13 in (1, 2)


def _fits(card: int, below: int) -> bool:
    """One rank lower, the other colour."""
    return rank(card) == rank(below) - 1 and red(card) != red(below)


# The searches ask this millions of times a hand; a lookup is several times quicker than the arithmetic.
_FITS = tuple(_fits(card, below) for card in range(52) for below in range(52))


def fits_on(card: int, below: int) -> bool:
    """True when ``card`` may lie on ``below``: one rank lower, the other colour."""
    return _FITS[card * 52 + below]


@dataclass(frozen=True)
class Play:
    """A card from hand onto a pile (or to start an empty one)."""

    card: int
    pile: int

    def __str__(self) -> str:
        return f"play {card_text(self.card)} {PILES[self.pile]}"


@dataclass(frozen=True)
class Merge:
    """A whole pile moved onto another."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"merge {PILES[self.source]} {PILES[self.target]}"


@dataclass(frozen=True)
class Under:
    """A card from hand put under a pile's base (under the 'under' option, while a side spot is empty)."""

    card: int
    pile: int

    def __str__(self) -> str:
        return f"under {card_text(self.card)} {PILES[self.pile]}"


@dataclass(frozen=True)
class End:
    """The end of the turn."""

    def __str__(self) -> str:
        return "end"


BoardMove = Play | Merge | Under  # what changes the piles and the hand
Move = BoardMove | End
END = End()


def parse_move(text: str) -> Move:
    """Read 'play QH N', 'merge S N', 'under 9H W' or 'end'."""
    words = text.split()
    try:
        if words == ["end"]:
            return END
        if len(words) == 3 and words[0] in ("play", "under"):
            card = card_int(parse_card(words[1]))
            pile = PILES.index(words[2].upper())
            return Play(card, pile) if words[0] == "play" else Under(card, pile)
        if len(words) == 3 and words[0] == "merge":
            return Merge(PILES.index(words[1].upper()), PILES.index(words[2].upper()))
    except (ValueError, _InvalidCardError):
        pass
    raise InvalidCornerMoveError(f"not a move: {text[:40]!r} (moves: 'play QH N', 'merge S N', 'under 9H W', 'end')")


@dataclass(frozen=True)
class Marks:
    """What the turn so far allows under the strict play-under (001); always empty under other rules.

    ``opened`` holds a bit for each side spot a pile move emptied this turn,
    ``under_played`` says a card went under a pile this turn, and ``closing`` is the
    side spot that then filled the vacancy (-1 before): only cards onto it may follow.
    """

    opened: int = 0
    under_played: bool = False
    closing: int = -1


NO_MARKS = Marks()


@dataclass(frozen=True)
class Position:
    """Everything about a hand in play; ``hands[p]`` is sorted, ``stock[0]`` is the next card drawn."""

    rules: CornerRules
    piles: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    player: int = 0
    moved: bool = False  # the player to move has moved this turn
    marks: Marks = NO_MARKS
    winners: tuple[int, ...] = ()  # who went out, in order; more than one only under 'tie'
    over: bool = False

    def _with(self, **changes: object) -> Position:
        """This position with some fields changed, every field already checked by the engine."""
        # dataclasses.replace runs __init__ through the fields' introspection: a quarter of a search's time.
        after = object.__new__(Position)
        after.__dict__.update(self.__dict__, **changes)
        return after

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return len(self.hands)

    @property
    def hand(self) -> tuple[int, ...]:
        """The hand of the player to move."""
        return self.hands[self.player]

    @property
    def winner(self) -> int | None:
        """The first player to go out, None while nobody has (and after an impasse)."""
        return self.winners[0] if self.winners else None

    def side_open(self) -> bool:
        """True when a side spot (N, E, S, W) is empty."""
        return any(not self.piles[i] for i in SIDES)

    def must_move(self) -> bool:
        """True when the stock is empty and the player has not moved yet: a player who can move must, then."""
        return not self.stock and not self.moved

    def may_end(self) -> bool:
        """Whether the turn may end here."""
        if self.over or not ending_allowed(self.rules, self.marks):
            return False
        return not self.must_move() or not board_moves(self.piles, self.hand, self.rules, self.marks)

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, ``End`` last when allowed; none once the hand is over."""
        if self.over:
            return []
        return [*board_moves(self.piles, self.hand, self.rules, self.marks), *([END] if self.may_end() else [])]

    def play(self, move: Move) -> Position:
        """The position after ``move``; raises IllegalCornerMoveError if it is not allowed."""
        if self.over:
            raise IllegalCornerMoveError(f"{move}: the hand is over")
        if isinstance(move, End):
            if not ending_allowed(self.rules, self.marks):
                raise IllegalCornerMoveError("end: a card went under a pile, so the turn ends by filling the vacancy")
            if not self.may_end():
                raise IllegalCornerMoveError("end: the stock is empty, so a player who can move must move")
            return self._end_turn()
        why = illegal_reason(self.piles, self.hand, self.rules, move, self.marks)
        if why:
            raise IllegalCornerMoveError(f"{move}: {why}")
        piles, hand, marks = step(self.piles, self.hand, self.rules, self.marks, move)
        hands = (*self.hands[: self.player], hand, *self.hands[self.player + 1 :])
        after = self._with(piles=piles, hands=hands, moved=True, marks=marks)
        return after._out_of_cards() if not hand else after

    def _out_of_cards(self) -> Position:
        """An empty hand goes out: 'draw three' may make the player draw on; 'tie' gives the others a last turn."""
        if self.rules.draw_three and self.side_open() and self.stock:
            return self._draw(3)
        after = self._with(winners=(*self.winners, self.player))
        if not self.rules.tie:
            return after._with(over=True)
        return after._pass_on()

    def _draw(self, count: int) -> Position:
        """The player to move draws up to ``count`` cards from the stock."""
        taken, stock = self.stock[:count], self.stock[count:]
        hand = tuple(sorted(self.hand + taken))
        return self._with(hands=(*self.hands[: self.player], hand, *self.hands[self.player + 1 :]), stock=stock)

    def _end_turn(self) -> Position:
        """Draw if the rules draw at the end, pass the turn on, and begin the next turn.

        Under 'until_play' a turn ended without a move draws: otherwise players who
        pass with cards in the stock would repeat the position for ever. Once a
        player has gone out (under 'tie') nobody draws at the end of a turn: there
        is no later turn to play the cards in.
        """
        after = self
        draws = (self.rules.draw == "end" and not self.rules.until_play) or (self.rules.until_play and not self.moved)
        if draws and not self.winners:
            after = after._draw(self.rules.drawn)
        return after._pass_on()

    def _pass_on(self) -> Position:
        """The turn passes left; the hand ends in an impasse, or when the last round after going out is played."""
        after = self._with(player=(self.player + 1) % self.players, moved=False, marks=NO_MARKS)
        if self.winners and after.player == self.winners[0]:
            return after._with(over=True)
        if not after.stock and not any(board_moves(after.piles, hand, after.rules) for hand in after.hands):
            return after._with(over=True)  # an impasse: no card can be drawn or played by anyone
        return after._begin_turn()

    def _begin_turn(self) -> Position:
        """The draws at the start of a turn: the turn's draw, or until a card can be played."""
        if self.rules.until_play:
            position = self
            while position.stock and not board_moves(position.piles, position.hand, position.rules):
                position = position._draw(1)
            return position
        return self._draw(self.rules.drawn) if self.rules.draw == "start" else self

    def penalties(self) -> tuple[int, ...]:
        """Penalty points of the cards left in each hand."""
        return tuple(sum(self.rules.points(rank(c)) for c in hand) for hand in self.hands)

    def cards(self) -> list[int]:
        """Every card in the position, wherever it is (for the conservation check)."""
        return [c for pile in self.piles for c in pile] + [c for hand in self.hands for c in hand] + list(self.stock)


def ending_allowed(rules: CornerRules, marks: Marks) -> bool:
    """False while the strict play-under obliges the player to fill the vacancy before the turn ends."""
    return not (rules.under == "strict" and marks.under_played and marks.closing < 0)


def under_open(piles: tuple[tuple[int, ...], ...], rules: CornerRules, marks: Marks) -> bool:
    """Whether a card may go under a pile now: 'yes' while a side spot is empty, 'strict' while one this turn's
    pile move emptied is still empty."""
    if rules.under == "yes":
        return any(not piles[i] for i in SIDES)
    if rules.under == "strict":
        return marks.closing < 0 and any(marks.opened >> i & 1 and not piles[i] for i in SIDES)
    return False


def board_moves(
    piles: tuple[tuple[int, ...], ...], hand: tuple[int, ...], rules: CornerRules, marks: Marks = NO_MARKS
) -> list[BoardMove]:
    """The moves other than ``End`` open to a hand on these piles, in a fixed order."""
    if marks.closing >= 0:  # the vacancy is filled: only cards onto the pile that filled it
        top = piles[marks.closing][-1]
        return [Play(card, marks.closing) for card in hand if fits_on(card, top)]
    moves: list[BoardMove] = []
    under = under_open(piles, rules, marks)
    for card in hand:
        for pile in range(8):
            cards = piles[pile]
            if cards:
                if fits_on(card, cards[-1]):
                    moves.append(Play(card, pile))
                if under and fits_on(cards[0], card):
                    moves.append(Under(card, pile))
            elif pile < 4 or rank(card) == KING:
                moves.append(Play(card, pile))
    for source in SIDES:
        if piles[source]:
            for target in range(8):
                if target != source and piles[target] and fits_on(piles[source][0], piles[target][-1]):
                    moves.append(Merge(source, target))
    return moves


def step(
    piles: tuple[tuple[int, ...], ...], hand: tuple[int, ...], rules: CornerRules, marks: Marks, move: BoardMove
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], Marks]:
    """Piles, hand and marks after a legal board move (no checks)."""
    new = list(piles)
    if isinstance(move, Merge):
        new[move.target] = piles[move.target] + piles[move.source]
        new[move.source] = ()
        if rules.under == "strict":
            marks = replace(marks, opened=marks.opened | 1 << move.source)
        return tuple(new), hand, marks
    if isinstance(move, Play):
        new[move.pile] = piles[move.pile] + (move.card,)
        if marks.under_played and marks.closing < 0 and not piles[move.pile] and marks.opened >> move.pile & 1:
            marks = replace(marks, closing=move.pile)
    elif isinstance(move, Under):
        new[move.pile] = (move.card,) + piles[move.pile]
        if rules.under == "strict":
            marks = replace(marks, under_played=True)
    return tuple(new), tuple(c for c in hand if c != move.card), marks


def illegal_reason(
    piles: tuple[tuple[int, ...], ...],
    hand: tuple[int, ...],
    rules: CornerRules,
    move: BoardMove,
    marks: Marks = NO_MARKS,
) -> str | None:
    """Why ``move`` is not allowed here, or None if it is."""
    if marks.closing >= 0 and not (isinstance(move, Play) and move.pile == marks.closing):
        return f"the vacancy at {PILES[marks.closing]} is filled: only cards onto it may follow, then the end"
    if isinstance(move, Merge):
        if move.source == move.target:
            return "a pile cannot move onto itself"
        if move.source >= 4:
            return "a corner pile never moves"
        source, target = piles[move.source], piles[move.target]
        if not source or not target:
            return "both piles must hold cards"
        if not fits_on(source[0], target[-1]):
            return (
                f"{card_text(source[0])} does not go on {card_text(target[-1])} (one rank lower and the other colour)"
            )
        return None
    if move.card not in hand:
        return f"{card_text(move.card)} is not in the hand"
    cards = piles[move.pile]
    if isinstance(move, Under):
        if rules.under == "no":
            return "playing under a pile is not in these rules"
        if not under_open(piles, rules, marks):
            return (
                "a card goes under a pile only while a side spot is empty"
                if rules.under == "yes"
                else "a card goes under a pile only while a side spot your pile move emptied this turn is empty"
            )
        if not cards or not fits_on(cards[0], move.card):
            return f"{card_text(move.card)} does not go under {PILES[move.pile]}"
        return None
    if not cards:
        if move.pile >= 4 and rank(move.card) != KING:
            return "only a King starts a corner pile"
        return None
    if not fits_on(move.card, cards[-1]):
        return f"{card_text(move.card)} does not go on {card_text(cards[-1])} (one rank lower and the other colour)"
    return None


def check_players(players: int) -> int:
    """``players`` if it is a whole number 2..4, else InvalidPlayersError."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidPlayersError(f"Kings Corner is for 2 to 4 players, not {players!r}")
    return players


def deal_hand(deck: tuple[int, ...], players: int, rules: CornerRules = DEFAULT) -> Position:
    """The start of a hand: cards dealt one at a time from the top, then the four side piles, then the stock.

    Seat 0 plays first (the player left of the dealer). A King turned up for a side
    pile goes to the next empty corner under the default rules, leaving its spot open.
    """
    check_players(players)
    size = rules.hand_size
    hands = tuple(tuple(sorted(deck[p : players * size : players])) for p in range(players))
    sides = list(deck[players * size : players * size + 4])
    piles: list[tuple[int, ...]] = [(c,) for c in sides] + [(), (), (), ()]
    if rules.dealt_kings == "corner":
        corner = 4
        for i, card in enumerate(sides):
            if rank(card) == KING:
                piles[corner], piles[i] = (card,), ()
                corner += 1
    position = Position(rules, tuple(piles), hands, tuple(deck[players * size + 4 :]))
    return position._begin_turn()


def seeded_deck(seed: int) -> tuple[int, ...]:
    """The 52 cards of deal number ``seed``, top first (the same shuffle as the patience's deals)."""
    return tuple(card_int(card) for card in _seeded_deck(seed))
