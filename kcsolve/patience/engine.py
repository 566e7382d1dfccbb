"""The rules engine: positions, legal moves, playing a move, and judging a position.

Cells are numbered 0-15 row by row from the top left (a1=0, d1=3, a4=12, d4=15),
the same numbering PySolFC uses. A position stores, for each cell, the deck
index of the card in it (or EMPTY), so every card keeps its identity and the
whole pack can be accounted for at any time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import cast

from kcsolve.common.cards import DECK_SIZE, JACK, KING, QUEEN, TEN, Card, InvalidDeckError, check_deck, rank_symbol
from kcsolve.errors import KcsolveError
from kcsolve.patience.rules import STANDARD, Courts, Goal, Removal, Rules, Sets, as_rules

CELL_NAMES: tuple[str, ...] = tuple(f"{col}{row}" for row in "1234" for col in "abcd")
CORNERS = (0, 3, 12, 15)
QUEEN_CELLS = (1, 2, 13, 14)
JACK_CELLS = (4, 7, 8, 11)
CENTRE_CELLS = (5, 6, 9, 10)
EDGE_CELLS = QUEEN_CELLS + JACK_CELLS
# The two middle cells of each edge; under `swap` a pair never holds a Queen and a Jack.
EDGE_PAIRS = ((1, 2), (13, 14), (4, 8), (7, 11))
PARTNER = {a: b for x, y in EDGE_PAIRS for a, b in ((x, y), (y, x))}
EMPTY = -1
COURT_COUNT = 12

COURT_HOMES = {KING: CORNERS, QUEEN: QUEEN_CELLS, JACK: JACK_CELLS}  # where each court card goes under fixed courts
EDGES = CORNERS + EDGE_CELLS  # the twelve cells open to court cards under royals
_NO_ROOM = {KING: "no free corner", QUEEN: "no free Queen cell", JACK: "no free Jack cell"}


class InvalidCellError(KcsolveError):
    """A cell name that is not a1..d4."""


class IllegalMoveError(KcsolveError):
    """A move the rules do not allow in the position it was played in."""


def cell_index(name: str) -> int:
    """The cell number of a name such as ``"b2"``."""
    try:
        return CELL_NAMES.index(name.strip().lower())
    except ValueError:
        raise InvalidCellError(f"not a cell: {name!r} (cells are a1..d4)") from None


def cell_name(cell: int) -> str:
    """The name of cell number ``cell``."""
    return CELL_NAMES[cell]


@dataclass(frozen=True)
class Place:
    """Put the next stock card into ``cell``."""

    cell: int

    def __str__(self) -> str:
        return f"place in {cell_name(self.cell)}"


@dataclass(frozen=True)
class Remove:
    """Discard the cards in ``cells`` together: one Ten, or a set summing to 10."""

    cells: tuple[int, ...]

    def __str__(self) -> str:
        return "remove " + " ".join(cell_name(c) for c in self.cells)


Move = Place | Remove


class Status(Enum):
    """Where a game stands."""

    WON = "won"
    LOST = "lost"
    UNFINISHED = "unfinished"


@dataclass(frozen=True)
class Outcome:
    """A judged position: the status and, for a finished game, why."""

    status: Status
    reason: str

    def __str__(self) -> str:
        return f"{self.status.value}: {self.reason}"


@dataclass(frozen=True)
class Position:
    """A point in a game: what lies in each cell, how many cards are drawn, and the phase."""

    deck: tuple[Card, ...]
    rules: Rules
    grid: tuple[int, ...]
    drawn: int
    removing: bool
    courts_placed: int = 0
    # Derived values, memoised per position (judging a record asks for them repeatedly).
    _memo: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def start(cls, deck: tuple[Card, ...], rules: Rules | str = STANDARD) -> Position:
        """The opening position: an empty grid and the whole deck as stock; InvalidDeckError unless it is one pack."""
        if not isinstance(deck, (tuple, list)):
            raise InvalidDeckError(f"a deck is a tuple of 52 cards, not {type(deck).__name__}")
        check_deck(deck)
        return cls(tuple(deck), as_rules(rules), (EMPTY,) * 16, 0, False)

    def card_at(self, cell: int) -> Card | None:
        """The card in ``cell``, or None."""
        index = self.grid[cell]
        return None if index == EMPTY else self.deck[index]

    @property
    def next_card(self) -> Card | None:
        """The top card of the stock, or None when the stock is empty."""
        return self.deck[self.drawn] if self.drawn < DECK_SIZE else None

    @property
    def is_full(self) -> bool:
        """True when all 16 cells hold a card."""
        return EMPTY not in self.grid

    def cells_for(self, card: Card) -> list[int]:
        """The empty cells ``card`` may be placed in."""
        return [c for c in range(16) if self.grid[c] == EMPTY and self.may_take(card, c)]

    def may_take(self, card: Card, cell: int) -> bool:
        """Whether ``card`` is allowed in ``cell`` (ignoring whether the cell is empty)."""
        if card.rank <= TEN:
            return True
        if self.rules.courts is Courts.ROYALS:
            return cell in EDGES
        if card.rank == KING or self.rules.courts is Courts.FIXED:
            return cell in COURT_HOMES[card.rank]
        partner = self.card_at(PARTNER[cell]) if cell in PARTNER else None
        return cell in EDGE_CELLS and (partner is None or partner.rank != QUEEN + JACK - card.rank)

    def removable_sets(self) -> list[tuple[int, ...]]:
        """Every set of cells that may be removed together now."""
        if "removable" not in self._memo:
            self._memo["removable"] = _removable_in(self.deck, self.grid, self.rules.sets)
        return list(cast("tuple[tuple[int, ...], ...]", self._memo["removable"]))

    def legal_moves(self) -> list[Move]:
        """Every move allowed here, removals first."""
        if self.outcome().status is not Status.UNFINISHED:
            return []
        moves: list[Move] = []
        if self.removing:
            moves = [Remove(s) for s in self.removable_sets()]
            if self.rules.removal is Removal.FORCED:
                return moves
        card = self.next_card
        if card is not None:
            moves.extend(Place(c) for c in self.cells_for(card))
        return moves

    def play(self, move: Move) -> Position:
        """The position after ``move``; IllegalMoveError says why a move cannot be played."""
        if not isinstance(move, (Place, Remove)):
            raise IllegalMoveError(f"not a move: {move!r} (a move is a Place or a Remove)")
        cells = (move.cell,) if isinstance(move, Place) else move.cells
        if not isinstance(cells, tuple):
            raise IllegalMoveError(f"remove {cells!r}: the cells of a removal are a tuple")
        if not all(type(c) is int and 0 <= c < 16 for c in cells):
            raise IllegalMoveError(f"{type(move).__name__.lower()} {cells!r}: cells are numbered 0 to 15")
        judged = self.outcome()
        if judged.status is not Status.UNFINISHED:
            raise IllegalMoveError(f"{move}: the game is already {judged}")
        if isinstance(move, Place):
            return self._place(move.cell)
        return self._remove(move.cells)

    def _place(self, cell: int) -> Position:
        """Place the next stock card."""
        card = self.next_card
        if card is None:
            raise IllegalMoveError(f"place in {cell_name(cell)}: the stock is empty")
        if self.removing and self.rules.removal is Removal.FORCED:
            raise IllegalMoveError(f"place {card} in {cell_name(cell)}: removal is forced while a set can be removed")
        if self.grid[cell] != EMPTY:
            raise IllegalMoveError(f"place {card} in {cell_name(cell)}: the cell holds {self.card_at(cell)}")
        if not self.may_take(card, cell):
            raise IllegalMoveError(f"place {card} in {cell_name(cell)}: a {_court_word(card.rank)} may not go there")
        grid = (*self.grid[:cell], self.drawn, *self.grid[cell + 1 :])
        courts = self.courts_placed + (card.rank > TEN)
        placed = Position(self.deck, self.rules, grid, self.drawn + 1, False, courts)
        opens = EMPTY not in grid or (self.drawn + 1 == DECK_SIZE and self.rules.goal is Goal.CLEAR)
        if opens and _can_remove(self.deck, grid, self.rules.sets):
            opened = Position(self.deck, self.rules, grid, self.drawn + 1, True, courts)
            if opened.outcome().status is Status.UNFINISHED:
                return opened
        return placed

    def _remove(self, cells: tuple[int, ...]) -> Position:
        """Discard a set of cards during the removal phase."""
        names = " ".join(cell_name(c) for c in cells)
        if not self.removing:
            raise IllegalMoveError(f"remove {names}: removal opens only when the grid is full{_or_stock(self.rules)}")
        if len(set(cells)) != len(cells):
            raise IllegalMoveError(f"remove {names}: a cell is named twice")
        for c in cells:
            if self.grid[c] == EMPTY:
                raise IllegalMoveError(f"remove {names}: {cell_name(c)} is empty")
        ranks = [self.deck[self.grid[c]].rank for c in cells]
        if not is_removable(ranks, self.rules.sets):
            shown = " + ".join(str(self.card_at(c)) for c in cells)
            kind = "a pair" if self.rules.sets is Sets.PAIRS else "two or more cards Ace to Nine"
            raise IllegalMoveError(f"remove {names}: {shown} is not a Ten alone or {kind} summing to 10")
        grid = tuple(EMPTY if c in cells else i for c, i in enumerate(self.grid))
        # Optional removal stays open until the next card is placed; forced removal until exhausted.
        still = self.rules.removal is Removal.OPTIONAL or _can_remove(self.deck, grid, self.rules.sets)
        return Position(self.deck, self.rules, grid, self.drawn, still, self.courts_placed)

    def view(self) -> PlayerView:
        """What a player who cannot see the deck knows: the grid, the card in hand, the unseen cards as a multiset."""
        placeable = not self.removing or self.rules.removal is Removal.OPTIONAL
        in_hand = self.next_card if placeable else None
        after = self.drawn + (in_hand is not None)
        return PlayerView(
            self.rules,
            tuple(None if i == EMPTY else self.deck[i] for i in self.grid),
            in_hand,
            self.removing,
            self.deck[: self.drawn],
            tuple(sorted(self.deck[after:])),
            self.courts_placed,
        )

    def outcome(self) -> Outcome:
        """Judge the position: won, lost (with the reason) or unfinished."""
        if "outcome" not in self._memo:
            self._memo["outcome"] = self._assess()
        return cast(Outcome, self._memo["outcome"])

    def _assess(self, next_known: bool = True) -> Outcome:
        """The judgement of this position; without ``next_known``, the next card's fit is left to chance."""
        courts = self.courts_placed
        goal = self.rules.goal
        if goal is Goal.COURTS and courts == COURT_COUNT:
            return Outcome(Status.WON, f"the twelfth court card was placed as card {self.drawn}")
        can_remove = self.removing and _can_remove(self.deck, self.grid, self.rules.sets)
        if self.drawn == DECK_SIZE:
            left = sum(1 for i in self.grid if i != EMPTY and self.deck[i].rank <= TEN)
            if goal is Goal.CLEAR and left and can_remove:
                return Outcome(Status.UNFINISHED, "the stock is empty; a removal is open")
            if goal is not Goal.CLEAR or not left:
                cleared = ", and no number card is left" if goal is Goal.CLEAR else ""
                return Outcome(Status.WON, f"all twelve court cards placed and the stock is empty{cleared}")
            return Outcome(Status.LOST, f"the stock is empty with {left} number cards left that cannot be removed")
        if can_remove:
            return Outcome(
                Status.UNFINISHED, "a removal is open" if self.rules.removal is Removal.OPTIONAL else "a removal is due"
            )
        if self.is_full:
            return Outcome(Status.LOST, f"grid full with nothing to remove after card {self.drawn}")
        if not next_known:
            return Outcome(Status.UNFINISHED, f"card {self.drawn + 1} is still face down")
        card = self.next_card
        assert card is not None
        if not any(i == EMPTY and self.may_take(card, c) for c, i in enumerate(self.grid)):
            return Outcome(
                Status.LOST,
                f"{rank_symbol(card.rank)} drawn as card {self.drawn + 1} with {_no_room(card.rank, self.rules)}",
            )
        return Outcome(Status.UNFINISHED, f"card {self.drawn + 1} ({card}) is next")


@dataclass(frozen=True)
class PlayerView:
    """A position as a player who cannot see the deck knows it: no deck, no order, no way back to the position.

    ``grid`` holds the card in each cell (None: empty); ``in_hand`` is the
    turned card to place (None while a forced removal is due, or when the stock
    is empty); ``seen`` lists the cards drawn before it, in order; ``unseen``
    is the sorted multiset of the cards still face down. Legal moves and the
    game's end are found from these alone: the engine judges a stand-in
    position whose face-down cards are in sorted order, and only ever looks at
    its card in hand. ``ahead`` is empty in every view :meth:`Position.view`
    makes; only a player told to look ahead (:mod:`kcsolve.patience.players.lookahead`)
    is shown the next face-down cards there, in order (they stay in ``unseen`` too).
    """

    rules: Rules
    grid: tuple[Card | None, ...]
    in_hand: Card | None
    removing: bool
    seen: tuple[Card, ...]
    unseen: tuple[Card, ...]
    courts_placed: int
    ahead: tuple[Card, ...] = ()

    @property
    def drawn(self) -> int:
        """How many cards have been drawn (the card in hand not counted)."""
        return len(self.seen)

    def legal_moves(self) -> list[Move]:
        """Every move allowed here, removals first."""
        return self._stand_in().legal_moves()

    def outcome(self) -> Outcome:
        """Whether the game is over now: decided by the grid and the card in hand alone."""
        return self._stand_in().outcome()

    def after(self, move: Move) -> Afterstate:
        """The state right after ``move``, before any face-down card is turned."""
        child = self._stand_in().play(move)
        # only a removal under optional removal leaves the turned card in hand (the removal stays open)
        keeps = self.in_hand is not None and isinstance(move, Remove) and self.rules.removal is Removal.OPTIONAL
        return Afterstate(
            self.rules,
            tuple(None if i == EMPTY else child.deck[i] for i in child.grid),
            self.in_hand if keeps else None,
            child.removing,
            child.drawn,
            child.courts_placed,
            self.unseen,
            child._assess(next_known=keeps),
        )

    def _stand_in(self) -> Position:
        """A position with this grid and card in hand, its face-down cards in sorted order (never looked at)."""
        hand = (self.in_hand,) if self.in_hand is not None else ()
        deck = self.seen + hand + self.unseen
        where: dict[Card, list[int]] = {}  # a rank-only deck holds equal cards: each cell gets one of its own
        for k, card in enumerate(self.seen):
            where.setdefault(card, []).append(k)
        grid = tuple(EMPTY if card is None else where[card].pop() for card in self.grid)
        return Position(deck, self.rules, grid, self.drawn, self.removing, self.courts_placed)


class InvalidViewError(KcsolveError):
    """A player asked to move on something that is not a PlayerView (Position.view() makes one)."""


def check_view(view: object, asked: str, error: type[KcsolveError] = InvalidViewError) -> PlayerView:
    """``view`` itself if it is a PlayerView; anything else raises ``error`` (a Position would show the deck)."""
    if not isinstance(view, PlayerView):
        raise error(f"{asked} a PlayerView (Position.view() makes one), not {type(view).__name__}")
    return view


@dataclass(frozen=True)
class Afterstate:
    """The state right after a player's move, before chance: what any judgement of that move may look at.

    ``in_hand`` is the card still to place when an optional removal goes on
    (None otherwise: the next card will come from ``unseen``). ``outcome`` is
    the engine's judgement with the next face-down card left to chance.
    """

    rules: Rules
    grid: tuple[Card | None, ...]
    in_hand: Card | None
    removing: bool
    drawn: int
    courts_placed: int
    unseen: tuple[Card, ...]
    outcome: Outcome

    @property
    def stock(self) -> int:
        """How many cards are still to be drawn, the card in hand included."""
        return DECK_SIZE - self.drawn


def is_removable(ranks: list[int], sets: Sets) -> bool:
    """Whether cards of these ranks may go together: a Ten alone, or a pair (or group) of A..9 summing to 10."""
    if ranks == [TEN]:
        return True
    size_ok = len(ranks) == 2 if sets is Sets.PAIRS else len(ranks) >= 2
    return size_ok and sum(ranks) == TEN and all(r < TEN for r in ranks)


def _removable_in(deck: tuple[Card, ...], grid: tuple[int, ...], sets: Sets) -> tuple[tuple[int, ...], ...]:
    """Every set of cells whose cards may be removed together."""
    return tuple(ten_sets([(c, deck[i].rank) for c, i in enumerate(grid) if i != EMPTY], sets))


def ten_sets(placed: list[tuple[int, int]], sets: Sets) -> list[tuple[int, ...]]:
    """The removable sets among (cell, rank) pairs: each Ten alone, then pairs (or groups) of A..9 summing to 10."""
    found: list[tuple[int, ...]] = [(c,) for c, r in placed if r == TEN]
    small = [(c, r) for c, r in placed if r < TEN]
    if sets is Sets.PAIRS:
        for k, (c, r) in enumerate(small):
            found.extend((c, d) for d, q in small[k + 1 :] if r + q == TEN)
        return found

    def extend(start: int, chosen: tuple[int, ...], total: int) -> None:
        for k in range(start, len(small)):
            cell, rank = small[k]
            if total + rank == TEN and chosen:
                found.append((*chosen, cell))
            elif total + rank < TEN:
                extend(k + 1, (*chosen, cell), total + rank)

    extend(0, (), 0)
    return found


def _can_remove(deck: tuple[Card, ...], grid: tuple[int, ...], sets: Sets = Sets.PAIRS) -> bool:
    """Whether any set can be removed: a Ten, or values A..9 that make 10 as a pair (or group)."""
    counts = [0] * (TEN + 1)
    for i in grid:
        if i != EMPTY:
            rank = deck[i].rank
            if rank <= TEN:
                counts[rank] += 1
    if counts[TEN]:
        return True
    if sets is Sets.PAIRS:
        return counts[5] > 1 or any(counts[v] and counts[TEN - v] for v in range(1, 5))
    return bool(reachable_sums(counts) >> TEN & 1)  # a single card is below 10, so 10 takes two or more


def reachable_sums(counts: list[int]) -> int:
    """Bit s is set when some of the counted values Ace..Nine (``counts[v]`` of value v) sum to s."""
    reach = 1
    for value in range(1, TEN):
        for _ in range(counts[value]):
            reach |= reach << value
    return reach


def _court_word(rank: int) -> str:
    """The name of a rank's kind, for messages."""
    return {KING: "King", QUEEN: "Queen", JACK: "Jack"}.get(rank, "card")


def _or_stock(rules: Rules) -> str:
    """How removal opens, for messages: under the clear goal also when the stock is empty."""
    return " or the stock is empty" if rules.goal is Goal.CLEAR else ""


def _no_room(rank: int, rules: Rules) -> str:
    """The phrase for a court card that has nowhere to go."""
    if rules.courts is Courts.ROYALS:
        return "no free edge cell"
    if rank != KING and rules.courts is Courts.SWAP:
        return f"no free edge cell a {_court_word(rank)} may take"
    return _NO_ROOM[rank]
