"""The rules engine on hand-built decks: placement, forced removal, losses and wins."""

from __future__ import annotations

from collections import Counter

import pytest

from kcsolve.common.cards import Card, full_deck, parse_card
from kcsolve.patience.engine import (
    CORNERS,
    JACK_CELLS,
    QUEEN_CELLS,
    IllegalMoveError,
    Place,
    Position,
    Remove,
    Status,
    cell_index,
)
from kcsolve.patience.rules import STANDARD, parse_rules

DEPLETE = parse_rules("deplete")
SWAP = parse_rules("swap")

ALL_CELLS = [f"{c}{r}" for r in "1234" for c in "abcd"]
EDGE_MIDDLES = ["b1", "c1", "b4", "c4", "a2", "a3", "d2", "d3"]
EDGE_PAIRS = [("b1", "c1"), ("b4", "c4"), ("a2", "a3"), ("d2", "d3")]


def C(name: str) -> int:
    return cell_index(name)


def cells(*names: str) -> set[int]:
    return {C(n) for n in names}


def make_deck(prefix: str) -> tuple[Card, ...]:
    """A whole deck starting with the given cards; the rest follow in pack order.

    Suited tokens give a suited deck, bare ranks a rank-only deck.
    """
    top = [parse_card(t) for t in prefix.split()]
    suited = bool(top) and top[0].suit is not None
    if suited:
        rest = [c for c in full_deck() if c not in top]
    else:
        left = Counter(c.rank for c in full_deck(suited=False)) - Counter(c.rank for c in top)
        rest = []
        for card in full_deck(suited=False):
            if left[card.rank]:
                rest.append(card)
                left[card.rank] -= 1
    deck = tuple(top + rest)
    assert len(deck) == 52
    return deck


def place_all(position: Position, names: list[str] | str) -> Position:
    """Place the next stock cards in the named cells, one after another."""
    if isinstance(names, str):
        names = names.split()
    for name in names:
        position = position.play(Place(C(name)))
    return position


def place_cells(position: Position) -> set[int]:
    moves = position.legal_moves()
    assert all(isinstance(m, Place) for m in moves)
    return {m.cell for m in moves}


def illegal(position: Position, move: Place | Remove) -> str:
    with pytest.raises(IllegalMoveError) as info:
        position.play(move)
    return str(info.value)


# --- the opening and placement under standard rules ---------------------------------


def test_start_position() -> None:
    deck = make_deck("8C JD")
    pos = Position.start(deck)
    assert pos.rules == STANDARD
    assert pos.drawn == 0 and not pos.removing and not pos.is_full
    assert all(pos.card_at(c) is None for c in range(16))
    assert pos.next_card == parse_card("8C")
    outcome = pos.outcome()
    assert outcome.status is Status.UNFINISHED
    assert outcome.reason == "card 1 (8C) is next"
    assert place_cells(pos) == set(range(16))


@pytest.mark.parametrize(
    "card, home",
    [("KS", CORNERS), ("QH", QUEEN_CELLS), ("JD", JACK_CELLS)],
)
def test_court_cards_only_on_their_own_cells(card: str, home: tuple[int, ...]) -> None:
    pos = Position.start(make_deck(card))
    assert place_cells(pos) == set(home)
    word = {"K": "King", "Q": "Queen", "J": "Jack"}[card[0]]
    for cell in range(16):
        if cell in home:
            assert pos.play(Place(cell)).card_at(cell) == parse_card(card)
        else:
            name = ALL_CELLS[cell]
            assert illegal(pos, Place(cell)) == f"place {card} in {name}: a {word} may not go there"


@pytest.mark.parametrize("card", ["AS", "5H", "9D", "TC", "10S"])
def test_number_cards_go_anywhere_including_court_cells(card: str) -> None:
    pos = Position.start(make_deck(card))
    assert place_cells(pos) == set(range(16))
    for cell in range(16):
        assert pos.play(Place(cell)).card_at(cell) == parse_card(card)


def test_placing_on_an_occupied_cell_is_illegal() -> None:
    pos = place_all(Position.start(make_deck("AS 2S KS")), "a1")
    assert place_cells(pos) == set(range(16)) - cells("a1")
    assert illegal(pos, Place(C("a1"))) == "place 2S in a1: the cell holds AS"
    pos = place_all(pos, "b1")
    assert place_cells(pos) == cells("d1", "a4", "d4")
    assert illegal(pos, Place(C("a1"))) == "place KS in a1: the cell holds AS"


def test_play_does_not_change_the_position_it_is_called_on() -> None:
    pos = Position.start(make_deck("AS"))
    after = pos.play(Place(C("b2")))
    assert pos.card_at(C("b2")) is None and pos.drawn == 0
    assert after.card_at(C("b2")) == parse_card("AS") and after.drawn == 1
    assert after.grid[C("b2")] == 0  # the grid holds deck indices


# --- swap: Queens and Jacks share the eight edge-middle cells -------------------------


def test_swap_queen_and_jack_may_take_any_edge_middle_cell() -> None:
    for card in ("Q", "J"):
        pos = Position.start(make_deck(card), SWAP)
        assert place_cells(pos) == cells(*EDGE_MIDDLES)
        for corner in ("a1", "d1", "a4", "d4"):
            assert "may not go there" in illegal(pos, Place(C(corner)))
        for centre in ("b2", "c2", "b3", "c3"):
            assert "may not go there" in illegal(pos, Place(C(centre)))


def test_swap_king_still_only_in_corners() -> None:
    pos = Position.start(make_deck("K"), SWAP)
    assert place_cells(pos) == set(CORNERS)


@pytest.mark.parametrize("first, second", [("Q", "J"), ("J", "Q")])
@pytest.mark.parametrize("pair", EDGE_PAIRS)
@pytest.mark.parametrize("which", [0, 1])
def test_swap_never_a_queen_and_a_jack_in_one_edge_pair(
    first: str, second: str, pair: tuple[str, str], which: int
) -> None:
    here, partner = pair[which], pair[1 - which]
    pos = place_all(Position.start(make_deck(f"{first} {second}"), SWAP), [here])
    assert place_cells(pos) == cells(*EDGE_MIDDLES) - cells(here, partner)
    word = {"Q": "Queen", "J": "Jack"}[second]
    assert illegal(pos, Place(C(partner))) == f"place {second} in {partner}: a {word} may not go there"


@pytest.mark.parametrize("rank", ["Q", "J"])
@pytest.mark.parametrize("pair", EDGE_PAIRS)
def test_swap_two_of_a_kind_may_share_an_edge_pair(rank: str, pair: tuple[str, str]) -> None:
    pos = place_all(Position.start(make_deck(f"{rank} {rank}"), SWAP), [pair[0]])
    assert place_cells(pos) == cells(*EDGE_MIDDLES) - cells(pair[0])
    pos = pos.play(Place(C(pair[1])))
    assert pos.card_at(C(pair[1])) == Card({"Q": 12, "J": 11}[rank])


def test_swap_number_card_in_an_edge_pair_does_not_block() -> None:
    pos = place_all(Position.start(make_deck("5 Q J"), SWAP), "b1 c1")
    assert place_cells(pos) == cells(*EDGE_MIDDLES) - cells("b1", "c1")
    pos = place_all(Position.start(make_deck("5 Q J"), SWAP), "b1 a2")
    assert place_cells(pos) == cells(*EDGE_MIDDLES) - cells("b1", "a2", "a3")


def test_standard_queen_never_on_a_jack_cell() -> None:
    pos = Position.start(make_deck("Q"))
    assert illegal(pos, Place(C("a2"))) == "place Q in a2: a Queen may not go there"
    assert Position.start(make_deck("Q"), SWAP).play(Place(C("a2"))).card_at(C("a2")) == Card(12)


# --- court cards with nowhere to go -------------------------------------------------------


@pytest.mark.parametrize(
    "deck, placements, reason",
    [
        ("A 2 3 4 K", "a1 d1 a4 d4", "K drawn as card 5 with no free corner"),
        ("Q Q Q 2 Q", "b1 c1 b4 c4", "Q drawn as card 5 with no free Queen cell"),
        ("J J J 2 J", "a2 a3 d2 d3", "J drawn as card 5 with no free Jack cell"),
        ("K K K 7 5 K", "a1 d1 a4 b2 d4", "K drawn as card 6 with no free corner"),
    ],
)
def test_standard_court_card_without_room_loses(deck: str, placements: str, reason: str) -> None:
    pos = place_all(Position.start(make_deck(deck)), placements)
    outcome = pos.outcome()
    assert outcome.status is Status.LOST
    assert outcome.reason == reason
    assert str(outcome) == f"lost: {reason}"
    assert pos.legal_moves() == []
    for cell in range(16):
        assert illegal(pos, Place(cell)) == f"place in {ALL_CELLS[cell]}: the game is already lost: {reason}"


def test_swap_queen_with_room_on_jack_cells_is_not_lost() -> None:
    pos = place_all(Position.start(make_deck("Q Q Q 2 Q"), SWAP), "b1 c1 b4 c4")
    assert pos.outcome().status is Status.UNFINISHED
    assert place_cells(pos) == cells("a2", "a3", "d2", "d3")


@pytest.mark.parametrize(
    "deck, placements, reason",
    [
        ("J J J J Q", "b1 b4 a2 d2", "Q drawn as card 5 with no free edge cell a Queen may take"),
        ("Q Q Q Q J", "c1 c4 a3 d3", "J drawn as card 5 with no free edge cell a Jack may take"),
        ("A 2 3 4 K", "a1 d1 a4 d4", "K drawn as card 5 with no free corner"),
    ],
)
def test_swap_court_card_without_room_loses(deck: str, placements: str, reason: str) -> None:
    pos = place_all(Position.start(make_deck(deck), SWAP), placements)
    assert pos.outcome().status is Status.LOST
    assert pos.outcome().reason == reason
    assert pos.legal_moves() == []


# --- removal ----------------------------------------------------------------------------

# A1..D4 in order: T 9 A 5 / 5 2 3 4 / A 2 3 4 / A 2 3 A
REMOVAL_DECK = "T 9 A 5 5 2 3 4 A 2 3 4 A 2 3 A"


def removal_position(rules=STANDARD) -> Position:
    return place_all(Position.start(make_deck(REMOVAL_DECK), rules), ALL_CELLS)


def remove_sets(position: Position) -> set[tuple[int, ...]]:
    moves = position.legal_moves()
    assert moves and all(isinstance(m, Remove) for m in moves)
    return {tuple(sorted(m.cells)) for m in moves}


def test_no_removal_before_the_grid_is_full() -> None:
    pos = place_all(Position.start(make_deck(REMOVAL_DECK)), ALL_CELLS[:15])
    assert not pos.is_full and not pos.removing
    # a Ten and 9+A and 5+5 lie on the grid, but only placements are legal
    assert place_cells(pos) == cells("d4")
    assert illegal(pos, Remove((C("a1"),))) == "remove a1: removal opens only when the grid is full"
    assert illegal(pos, Remove((C("b1"), C("c1")))) == "remove b1 c1: removal opens only when the grid is full"


def test_full_grid_opens_the_removal_phase() -> None:
    pos = removal_position()
    assert pos.is_full and pos.removing and pos.drawn == 16
    assert pos.outcome().status is Status.UNFINISHED
    assert pos.outcome().reason == "a removal is due"
    assert remove_sets(pos) == {
        (C("a1"),),
        (C("b1"), C("c1")),
        (C("b1"), C("a3")),
        (C("b1"), C("a4")),
        (C("b1"), C("d4")),
        (C("d1"), C("a2")),
    }


def test_placing_while_a_removal_is_available_is_illegal() -> None:
    pos = removal_position()
    card = pos.next_card
    assert illegal(pos, Place(C("a1"))) == f"place {card} in a1: removal is forced while a set can be removed"
    pos = pos.play(Remove((C("a1"),)))
    assert pos.removing and pos.card_at(C("a1")) is None
    # a cell is free now, but 9+A and 5+5 remain: still no placing
    assert illegal(pos, Place(C("a1"))) == f"place {card} in a1: removal is forced while a set can be removed"


def test_removal_is_forced_to_exhaustion() -> None:
    pos = removal_position()
    pos = pos.play(Remove((C("b1"), C("a3"))))  # which Ace goes with the 9 is the player's choice
    assert pos.removing
    assert remove_sets(pos) == {(C("a1"),), (C("d1"), C("a2"))}
    assert illegal(pos, Remove((C("b1"), C("c1")))) == "remove b1 c1: b1 is empty"
    pos = pos.play(Remove((C("a1"),)))
    assert pos.removing
    pos = pos.play(Remove((C("a2"), C("d1"))))  # cells in any order
    assert not pos.removing
    assert pos.outcome().status is Status.UNFINISHED
    empty = cells("a1", "b1", "d1", "a2", "a3")
    assert {c for c in range(16) if pos.card_at(c) is None} == empty
    assert place_cells(pos) == empty  # next card is a 2: anywhere free
    assert pos.next_card == Card(2)
    assert illegal(pos, Remove((C("c1"), C("b2")))) == "remove c1 b2: removal opens only when the grid is full"
    # the remaining Aces, 2s, 3s and 4s stay on the grid
    assert sorted(pos.card_at(c).rank for c in range(16) if c not in empty) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]


@pytest.mark.parametrize("ace", ["c1", "a3", "a4", "d4"])
def test_any_ace_may_partner_the_nine(ace: str) -> None:
    pos = removal_position().play(Remove((C("b1"), C(ace))))
    assert pos.card_at(C("b1")) is None and pos.card_at(C(ace)) is None
    assert sum(1 for c in range(16) if pos.card_at(c) == Card(1)) == 3


@pytest.mark.parametrize(
    "names, message",
    [
        ("c1 b2", "remove c1 b2: A + 2 is not a Ten alone or a pair summing to 10"),
        ("d1", "remove d1: 5 is not a Ten alone or a pair summing to 10"),
        ("a1 c1", "remove a1 c1: T + A is not a Ten alone or a pair summing to 10"),
        ("c1 d2 d1", "remove c1 d2 d1: A + 4 + 5 is not a Ten alone or a pair summing to 10"),
        ("b2 c2 d2 a3", "remove b2 c2 d2 a3: 2 + 3 + 4 + A is not a Ten alone or a pair summing to 10"),
        ("b1", "remove b1: 9 is not a Ten alone or a pair summing to 10"),
        ("a1 a1", "remove a1 a1: a cell is named twice"),
    ],
)
def test_illegal_removals(names: str, message: str) -> None:
    pos = removal_position()
    assert illegal(pos, Remove(tuple(C(n) for n in names.split()))) == message


# A1..D4: AS 9S 2S 8S / 3S 7S 4S 6S / 5S 5H TS 2H / 2D 3H 3D 4H
PAIRS_DECK = "AS 9S 2S 8S 3S 7S 4S 6S 5S 5H TS 2H 2D 3H 3D 4H"


def test_every_kind_of_set_is_found() -> None:
    pos = place_all(Position.start(make_deck(PAIRS_DECK)), ALL_CELLS)
    expected = {
        ("c3",),
        ("a1", "b1"),
        ("c1", "d1"),
        ("d1", "d3"),
        ("d1", "a4"),
        ("a2", "b2"),
        ("b2", "b4"),
        ("b2", "c4"),
        ("c2", "d2"),
        ("d2", "d4"),
        ("a3", "b3"),
    }
    assert set(pos.removable_sets()) == {tuple(C(n) for n in s) for s in expected}
    assert remove_sets(pos) == {tuple(C(n) for n in s) for s in expected}


@pytest.mark.parametrize(
    "names, cards",
    [("c3", "TS"), ("a1 b1", "AS 9S"), ("c1 d1", "2S 8S"), ("a2 b2", "3S 7S"), ("c2 d2", "4S 6S"), ("a3 b3", "5S 5H")],
)
def test_ten_alone_and_each_pair_summing_to_ten(names: str, cards: str) -> None:
    pos = place_all(Position.start(make_deck(PAIRS_DECK)), ALL_CELLS)
    where = [C(n) for n in names.split()]
    assert [str(pos.card_at(c)) for c in where] == cards.split()
    after = pos.play(Remove(tuple(where)))
    assert all(after.card_at(c) is None for c in where)
    assert sum(1 for c in range(16) if after.card_at(c) is None) == len(where)
    assert after.removing  # more sets are left


def test_illegal_suited_removal_names_the_cards() -> None:
    pos = place_all(Position.start(make_deck(PAIRS_DECK)), ALL_CELLS)
    assert (
        illegal(pos, Remove((C("a1"), C("c1")))) == "remove a1 c1: AS + 2S is not a Ten alone or a pair summing to 10"
    )
    assert (
        illegal(pos, Remove((C("a1"), C("c3")))) == "remove a1 c3: AS + TS is not a Ten alone or a pair summing to 10"
    )


# A1..D4: K Q Q K / J T 5 J / J 5 A J / K Q Q 9  (eleven court cards, so the game goes on)
COURTS_DECK = "K Q Q K J T 5 J J 5 A J K Q Q 9"


def test_court_cards_never_leave_the_grid() -> None:
    pos = place_all(Position.start(make_deck(COURTS_DECK)), ALL_CELLS)
    assert pos.courts_placed == 11
    assert pos.removing
    assert remove_sets(pos) == {(C("b2"),), (C("c2"), C("b3")), (C("c3"), C("d4"))}
    assert illegal(pos, Remove((C("a1"),))) == "remove a1: K is not a Ten alone or a pair summing to 10"
    assert illegal(pos, Remove((C("b1"),))) == "remove b1: Q is not a Ten alone or a pair summing to 10"
    assert illegal(pos, Remove((C("a2"), C("b2")))) == "remove a2 b2: J + T is not a Ten alone or a pair summing to 10"


def test_removing_an_empty_cell_is_illegal() -> None:
    pos = place_all(Position.start(make_deck(COURTS_DECK)), ALL_CELLS).play(Remove((C("b2"),)))
    assert illegal(pos, Remove((C("b2"),))) == "remove b2: b2 is empty"


# --- a full grid with nothing to remove ---------------------------------------------------


@pytest.mark.parametrize("rules", [STANDARD, DEPLETE, SWAP])
def test_grid_full_with_nothing_to_remove_loses(rules) -> None:
    pos = place_all(Position.start(make_deck("A A A A 2 2 2 2 3 3 3 3 4 4 4 4"), rules), ALL_CELLS[:15])
    assert pos.outcome().status is Status.UNFINISHED
    pos = pos.play(Place(C("d4")))
    assert pos.is_full and not pos.removing
    assert pos.outcome().status is Status.LOST
    assert pos.outcome().reason == "grid full with nothing to remove after card 16"
    assert pos.legal_moves() == []


def test_grid_full_with_nothing_to_remove_after_a_later_deal() -> None:
    # 16 cards, remove the Ten, then the 17th card fills the grid again with nothing to remove
    pos = place_all(Position.start(make_deck("T A A A 2 2 2 2 3 3 3 3 4 4 4 4 A")), ALL_CELLS)
    assert remove_sets(pos) == {(C("a1"),)}
    pos = pos.play(Remove((C("a1"),)))
    assert not pos.removing
    pos = pos.play(Place(C("a1")))
    assert pos.outcome().reason == "grid full with nothing to remove after card 17"
    assert pos.outcome().status is Status.LOST


# --- winning ----------------------------------------------------------------------------------

COURTS_FIRST = "K K K K Q Q Q Q J J J J T T T T 9 A 9 A 9 A 9 A 8 2 8 2 8 2 8 2 7 3 7 3 7 3 7 3 6 4 6 4 6 4 6 4 5 5 5 5"
COURT_CELLS = ["a1", "d1", "a4", "d4", "b1", "c1", "b4", "c4", "a2", "a3", "d2", "d3"]


def test_standard_is_won_at_the_twelfth_court_card() -> None:
    pos = place_all(Position.start(make_deck(COURTS_FIRST)), COURT_CELLS[:11])
    assert pos.outcome().status is Status.UNFINISHED
    assert pos.courts_placed == 11
    pos = pos.play(Place(C("d3")))
    assert pos.courts_placed == 12
    assert pos.outcome().status is Status.WON
    assert pos.outcome().reason == "the twelfth court card was placed as card 12"
    assert pos.next_card is not None  # the stock need not be empty
    assert pos.legal_moves() == []
    assert illegal(pos, Place(C("b2"))) == (
        "place in b2: the game is already won: the twelfth court card was placed as card 12"
    )


def play_first_legal_moves(pos: Position) -> Position:
    while moves := pos.legal_moves():
        pos = pos.play(moves[0])
    return pos


def test_deplete_goes_on_after_the_twelfth_court_and_is_won_when_the_stock_is_empty() -> None:
    pos = place_all(Position.start(make_deck(COURTS_FIRST), DEPLETE), COURT_CELLS)
    assert pos.courts_placed == 12
    assert pos.outcome().status is Status.UNFINISHED
    assert place_cells(pos) == cells("b2", "c2", "b3", "c3")
    pos = play_first_legal_moves(pos)
    assert pos.drawn == 52 and pos.next_card is None
    assert pos.outcome().status is Status.WON
    assert pos.outcome().reason == "all twelve court cards placed and the stock is empty"


def test_deplete_stuck_grid_loses_after_the_twelfth_court() -> None:
    deck = make_deck("K K K K Q Q Q Q J J J J A A A A")
    standard = place_all(Position.start(deck), COURT_CELLS)
    assert standard.outcome().status is Status.WON
    pos = place_all(Position.start(deck, DEPLETE), [*COURT_CELLS, "b2", "c2", "b3", "c3"])
    assert pos.outcome().status is Status.LOST
    assert pos.outcome().reason == "grid full with nothing to remove after card 16"


def test_twelfth_court_filling_the_grid_wins_at_once_under_standard_but_opens_removal_under_deplete() -> None:
    deck = make_deck("T A 9 5 K K K K Q Q Q Q J J J J")
    order = ["b2", "c2", "b3", "c3", *COURT_CELLS]
    won = place_all(Position.start(deck), order)
    assert won.outcome().status is Status.WON
    assert won.outcome().reason == "the twelfth court card was placed as card 16"
    assert not won.removing and won.legal_moves() == []
    going = place_all(Position.start(deck, DEPLETE), order)
    assert going.removing and going.outcome().status is Status.UNFINISHED
    assert remove_sets(going) == {(C("b2"),), (C("c2"), C("b3"))}


def test_swap_win_at_the_twelfth_court_card() -> None:
    deck = make_deck("K K K K Q Q Q Q J J J J")
    # Queens on the left and right edges, Jacks on top and bottom: legal under swap only
    order = ["a1", "d1", "a4", "d4", "a2", "a3", "d2", "d3", "b1", "c1", "b4", "c4"]
    pos = place_all(Position.start(deck, SWAP), order)
    assert pos.outcome().status is Status.WON
    with pytest.raises(IllegalMoveError):
        place_all(Position.start(deck), order)


def test_move_names() -> None:
    assert str(Place(C("b2"))) == "place in b2"
    assert str(Remove((C("a1"), C("d4")))) == "remove a1 d4"


@pytest.mark.parametrize("move", [Place(16), Place(-1), Remove((16,)), Remove((-1,))])
def test_cell_out_of_range_is_an_illegal_move(move: Place | Remove) -> None:
    pos = Position.start(make_deck("AS"))
    message = illegal(pos, move)
    assert "d4" not in message
