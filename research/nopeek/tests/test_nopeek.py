"""The count of no-peek states (research.nopeek.nopeek) against a brute-force enumeration by the engine.

The brute force plays every order of the next cards and every legal move with the
engine itself, card by card and cell by cell, and records the class-level state
(docs/THEORY.md, section 10) between draws. It shares no transition code with the
compiled count. The three symmetry modes must agree on the counts they share.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import pytest

from kcsolve.common.cards import Card
from kcsolve.patience.classes import class_view
from kcsolve.patience.engine import EMPTY, Position
from kcsolve.patience.players.endgame import _expectimax
from kcsolve.patience.players.policy import greedy_player
from kcsolve.patience.rules import STANDARD
from research.nopeek.nopeek import InvalidNoPeekStateError, Layers, describe_state, early_layers, state_key

PACK = tuple(Card(rank) for rank in range(1, 14) for _ in range(4))


def class_key(position: Position, mode: int = 0) -> int:
    """The class-level state of a position between draws."""
    cells, courts = class_view(tuple(position.card_at(c) for c in range(16)))
    unseen = [0] * 14
    for card in position.deck[position.drawn :]:
        unseen[card.rank] += 1
    return state_key(cells, courts, unseen, mode)


def _brute(position: Position, cards: int) -> dict[int, set[int]]:
    """Per cards drawn, the states between draws that some order of the next ``cards`` cards and some play reach."""
    layers: dict[int, set[int]] = defaultdict(set)
    drawn = position.drawn
    stop = drawn + cards
    for head in set(itertools.permutations(position.deck[drawn:], cards)):
        rest = list(position.deck[drawn:])
        for card in head:
            rest.remove(card)
        deck = position.deck[:drawn] + head + tuple(rest)
        stack = [Position(deck, STANDARD, position.grid, drawn, position.removing, position.courts_placed)]
        seen = set()
        while stack:
            here = stack.pop()
            if (here.grid, here.drawn, here.removing) in seen:
                continue
            seen.add((here.grid, here.drawn, here.removing))
            if not here.removing and EMPTY in here.grid and here.courts_placed < 12:
                layers[here.drawn].add(class_key(here))
                if here.drawn == stop:
                    continue
            stack.extend(here.play(move) for move in here.legal_moves())
    return layers


def _counted(start: Position, cards: int, mode: int) -> list[Layers]:
    """The compiled count from ``start``'s state, one Layers snapshot per layer."""
    layers = Layers(mode, [class_key(start, mode)], start.drawn)
    found = []
    for _ in range(cards + 1):
        found.append((layers.drawn, layers.states.copy(), layers.counts()))
        layers.step()
    return found


def _late_position(seed: int) -> Position:
    """A greedy game's position between draws with 5 or 6 cards unseen and at most 3 free cells (the grid must fill)."""
    rng = random.Random(seed)
    while True:
        deck = list(PACK)
        rng.shuffle(deck)
        position = Position.start(tuple(deck), STANDARD)
        while position.outcome().status.value == "unfinished":
            free = position.grid.count(EMPTY)
            if not position.removing and position.drawn >= 46 and free <= 3 and position.courts_placed < 12:
                return position
            position = position.play(greedy_player(position.view()))


def _symmetric_states(key: int) -> list[tuple[list[list[int]], list[int], list[int]]]:
    """Every state the 2304 symmetries make of ``key``: renamed families and sides, permuted court kinds.

    In plain Python.
    """
    cells, courts, unseen = describe_state(key)
    found = []
    for order in itertools.permutations(range(1, 5)):
        for flips in itertools.product((False, True), repeat=4):
            value = {5: 5, 10: 10}
            for t, (u, flip) in enumerate(zip(order, flips), start=1):
                value[t], value[10 - t] = (10 - u, u) if flip else (u, 10 - u)
            for kinds in itertools.permutations((1, 2, 3)):
                new_cells = [[value[v] for v in cells[0]]] + [[value[v] for v in cells[k]] for k in kinds]
                new_courts = [0] + [courts[k] for k in kinds]
                new_unseen = [0] * 14
                for v in range(1, 11):
                    new_unseen[value[v]] = unseen[v]
                for c, k in enumerate(kinds, start=1):  # class c takes class k's court kind: King 13 is class 1
                    new_unseen[14 - c] = unseen[14 - k]
                found.append((new_cells, new_courts, new_unseen))
    return found


def _images(key: int) -> set[int]:
    """The keys (no symmetry applied) of every symmetric image of a state."""
    return {state_key(*state) for state in _symmetric_states(key)}


def _check(start: Position, cards: int) -> None:
    """The compiled count equals the brute force state for state, and the symmetry modes agree on their counts."""
    brute = _brute(start, cards)
    plain = _counted(start, cards, 0)
    for drawn, states, (raw, _, merged) in plain:
        assert set(states.tolist()) == brute.get(drawn, set()), drawn
        assert raw == merged == len(brute.get(drawn, ()))
    families = _counted(start, cards, 1)
    for (_, states, _), (_, fam_states, _) in zip(plain, families):
        assert set(fam_states.tolist()) == {state_key(*describe_state(int(k)), mode=1) for k in states}
    # from the whole orbit of the start, the unmerged count is what the orbit sizes of the merged count add up to
    images = _images(class_key(start))
    assert {state_key(*describe_state(k), mode=2) for k in images} == {class_key(start, 2)}
    orbit = Layers(0, sorted(images), start.drawn)
    for _, states, (raw, fam, merged) in _counted(start, cards, 2):
        assert orbit.counts()[0] == raw
        assert len({state_key(*describe_state(int(k)), mode=1) for k in orbit.states}) == fam
        assert len({state_key(*describe_state(int(k)), mode=2) for k in orbit.states}) == merged == len(states)
        orbit.step()


@pytest.mark.slow
def test_first_cards_match_the_engine():
    start = Position.start(PACK, STANDARD)
    _check(start, 2)
    assert _counted(start, 2, 2)[2][2] == (946, 140, 46)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_late_positions_with_removals_match_the_engine(seed):
    start = _late_position(seed)
    cards = 52 - start.drawn
    _check(start, cards)
    # a removal happened on the way: some state holds fewer cards than were placed since the start
    placed = 16 - start.grid.count(EMPTY)
    assert any(
        sum(map(len, describe_state(int(k))[0])) + sum(describe_state(int(k))[1]) < placed + drawn - start.drawn
        for drawn, states, _ in _counted(start, cards, 0)
        for k in states
    )


@pytest.mark.slow
def test_early_layers_match_the_placement_count():
    layers = Layers(2)
    plain = early_layers(0)
    for drawn in range(6):  # the slow test below goes on to layer 7
        assert layers.counts()[0] == plain[drawn], drawn
        layers.step()
    assert plain[:4] == [1, 43, 946, 14190]


@pytest.mark.long
def test_early_orbits_match_burnside():
    layers = Layers(2)
    counts = list(zip(early_layers(0), early_layers(1), early_layers(2)))
    for drawn in range(8):
        assert layers.counts() == counts[drawn], drawn
        layers.step()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_symmetric_states_have_equal_chances(seed):
    # Theorem 7 on values: the exact best-play chance (endgame expectimax) is the same for every image
    start = _late_position(seed)
    chances = set()
    for cells, courts, unseen in random.Random(seed).sample(_symmetric_states(class_key(start)), 40):
        state = (tuple(tuple(sorted(c)) for c in cells), tuple(courts))
        chances.add(round(_expectimax(state, tuple(unseen), False, True), 12))
    assert len(chances) == 1
    assert 0 < chances.pop() < 1


def test_state_key_refuses_a_position_no_standard_game_reaches():
    unseen = [0] + [4] * 13
    unseen[1] = 3  # one Ace gone without its Nine
    with pytest.raises(InvalidNoPeekStateError, match="no set of pairs"):
        state_key([[], [], [], []], [0, 0, 0, 0], unseen)
    with pytest.raises(InvalidNoPeekStateError, match="mode 3"):
        Layers(3)
