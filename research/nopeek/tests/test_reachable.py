"""Which no-peek states are reached, and how many (research.nopeek.reachable), against the search and the engine.

- Nothing removed: the same counts as ``early_layers``, which the search checks.
- At 16 cards, on the slice with eleven court cards, the count equals the compiled
  search (``nopeek.Layers``) from every state of layer 15 that can lead there.
- A brute force over a slice applies ``reachable`` state by state and must give
  the dynamic programming's counts.
- The rule itself, beyond the search's reach: every state it accepts is played to
  by the engine, following the removals ``history`` gives (a deck is built for
  them, and the cards seated the latest to leave first), so the count holds no
  state that is not reached; and every state that random games reach is accepted,
  so the rule is not too strict.
The dynamic programming shares with the search only the symmetry group's list
(``nopeek._symmetries``); the engine checks share nothing with either.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter

import pytest

from kcsolve.common.cards import Card
from kcsolve.patience.classes import CLASS_CELLS
from kcsolve.patience.engine import EMPTY, Place, Position
from kcsolve.patience.odds.measured import measured
from kcsolve.patience.players.policy import greedy_player
from kcsolve.patience.rules import STANDARD
from research.nopeek.nopeek import Layers, describe_state, early_layers, state_key
from research.nopeek.reachable import LayerCounts, history, reachable
from research.nopeek.reachable import layer_counts as count_layers
from research.nopeek.tests.test_nopeek import class_key

EXACT_GAME = measured()["exact_game"]  # the figure as the package quotes it

COURT_RANK = {1: 13, 2: 12, 3: 11}  # corners take Kings, then Queen cells, then Jack cells
COURT = 0  # stands for a court card in a timeline of values


@functools.cache
def layer_counts(mode: int = 0, placed: int | None = None) -> LayerCounts:
    """The count under test, computed once per mode and slice for the whole file (a mode 2 count takes 20 s)."""
    return count_layers(mode, placed)


def _unseen(cells: list[list[int]], courts: list[int], removed: list[int]) -> list[int]:
    """Unseen cards per rank (index 1..13) of a grid and its removals (pairs A/9..4/6, Five pairs, Tens)."""
    unseen = [0] + [4] * 13
    for values in cells:
        for v in values:
            unseen[v] -= 1
    for t in range(1, 5):
        unseen[t] -= removed[t - 1]
        unseen[10 - t] -= removed[t - 1]
    unseen[5] -= 2 * removed[4]
    unseen[10] -= removed[5]
    for c, rank in COURT_RANK.items():
        unseen[rank] -= courts[c]
    return unseen


def _figures(cells: list[list[int]], courts: list[int], removed: list[int]) -> tuple[int, bool, int, int, int, int]:
    """What the rule reads of a state: kept, a Five on the grid, court cards, pairs, pairs of Fives, Tens."""
    on_grid = Counter(v for values in cells for v in values)
    kept = sum(max(on_grid[t], on_grid[10 - t]) for t in range(1, 5))
    return kept, on_grid[5] > 0, sum(courts), sum(removed[:4]), removed[4], removed[5]


def _removed_cards(removed: list[int]) -> int:
    """How many cards a removal vector stands for."""
    return 2 * sum(removed[:4]) + 2 * removed[4] + removed[5]


def _placements(placed: int, numbers: int):
    """Every grid with ``placed`` court cards and ``numbers`` number cards (at most four of a value)."""
    for kinds in itertools.product(range(5), repeat=3):
        if sum(kinds) != placed:
            continue
        courts = [0, *kinds]
        caps = [4 - k for k in courts]
        for split in itertools.product(*(range(cap + 1) for cap in caps)):
            if sum(split) != numbers:
                continue
            for cells in itertools.product(*(itertools.combinations_with_replacement(range(1, 11), n) for n in split)):
                if max(Counter(v for values in cells for v in values).values(), default=0) <= 4:
                    yield [list(values) for values in cells], courts


@pytest.mark.slow
def test_nothing_removed_repeats_the_placement_count():
    counts = layer_counts(0)
    assert list(counts.early[:16]) == early_layers(0)
    assert set(counts.early[16:]) == set(counts.reached[:16]) == set(counts.valid[:16]) == {0}
    assert all(r <= v for r, v in zip(counts.reached, counts.valid))
    assert counts.reached[20] < counts.valid[20] and counts.reached[51] == counts.valid[51] > 0
    assert sum(map(counts.states, range(52))) == EXACT_GAME["states"]  # the figure `odds --no-peek` quotes


@pytest.mark.long
@pytest.mark.parametrize("mode", [1, 2])
def test_nothing_removed_repeats_the_placement_orbits(mode):
    assert list(layer_counts(mode).early[:16]) == early_layers(mode)


@pytest.mark.long
def test_the_figures_odds_quotes_are_the_count():
    counts = layer_counts(2)
    widest = max(range(52), key=counts.states)
    assert sum(map(counts.states, range(52))) == EXACT_GAME["states_under_2304"]
    assert (widest, counts.states(widest)) == (EXACT_GAME["widest_drawn"], EXACT_GAME["widest_under_2304"])
    pair = max(counts.states(d) + counts.states(d + 1) for d in range(51))
    assert pair == EXACT_GAME["two_widest_under_2304"]


def _search_slice(drawn: int, mode: int) -> tuple[int, int, int]:
    """The search's layer ``drawn`` with eleven court cards placed: (states, under the 384, under the mode's group).

    It starts from every state of layer 15 that can still reach eleven court cards by then (the cards to come may
    be court cards), and after each step keeps only those that still can. Layer 17 holds states after two removals
    (a lone Ten at the 16th card, then the 17th fills the grid again), so it checks the rule past a single removal.
    """
    steps = drawn - 15
    start = {
        state_key(cells, courts, _unseen(cells, courts, [0] * 6), mode)
        for placed in range(11 - steps, 12)
        for cells, courts in _placements(placed, 15 - placed)
    }
    layers = Layers(mode, sorted(start), 15)
    for left in reversed(range(steps)):
        layers.step()
        layers = Layers(
            mode, [key for key in layers.states.tolist() if sum(describe_state(key)[1]) >= 11 - left], layers.drawn
        )
    return layers.counts()


@pytest.mark.slow
def test_layer_16_equals_the_search_on_a_slice():
    states, _, _ = _search_slice(16, 2)  # the search under all symmetries is the quickest; states come from orbit sizes
    assert states > 1000
    assert layer_counts(0, placed=11).reached[16] == states


@pytest.mark.long
def test_layer_16_orbits_equal_the_search_on_a_slice():
    states, families, both = _search_slice(16, 2)
    assert layer_counts(0, placed=11).reached[16] == states
    assert layer_counts(1, placed=11).reached[16] == families
    assert layer_counts(2, placed=11).reached[16] == both


@pytest.mark.long
def test_layer_17_orbits_equal_the_search_on_a_slice():
    # about 60 s of CPU: 7,554 orbits at layer 15; the unmerged count comes from their orbit sizes
    states, families, both = _search_slice(17, 2)
    assert layer_counts(0, placed=11).reached[17] == states == 67_371
    assert layer_counts(1, placed=11).reached[17] == families
    assert layer_counts(2, placed=11).reached[17] == both == 662


def _slice_states(last: int):
    """Every valid state with eleven court cards, something removed and 16..``last`` cards drawn: (drawn, state)."""
    by_cards: dict[int, list[list[int]]] = {}
    for removed in itertools.product(range(5), range(5), range(5), range(5), range(3), range(5)):
        by_cards.setdefault(_removed_cards(list(removed)), []).append(list(removed))
    for numbers in range(5):
        for cells, courts in _placements(11, numbers):
            for taken in range(max(1, 16 - 11 - numbers), last + 1 - 11 - numbers):
                for removed in by_cards[taken]:
                    if min(_unseen(cells, courts, removed)) >= 0:
                        yield 11 + numbers + taken, (cells, courts, removed)


@pytest.mark.slow
def test_the_counts_apply_the_rule_state_by_state_on_a_slice():
    reached, valid = Counter(), Counter()
    for drawn, state in _slice_states(19):
        valid[drawn] += 1
        reached[drawn] += reachable(*_figures(*state))
    counts = layer_counts(0, placed=11)
    assert [counts.reached[d] for d in range(16, 20)] == [reached[d] for d in range(16, 20)]
    assert [counts.valid[d] for d in range(16, 20)] == [valid[d] for d in range(16, 20)]
    assert reached[19] < valid[19]


@pytest.mark.long
def test_the_orbit_counts_equal_the_orbits_of_a_brute_force():
    # Burnside's lemma against explicit orbits: the brute force's states reduced by the search's own canonical key
    reached = {mode: {d: set() for d in (16, 17, 18)} for mode in (1, 2)}
    valid = {mode: {d: set() for d in (16, 17, 18)} for mode in (1, 2)}
    for drawn, (cells, courts, removed) in _slice_states(18):
        accepted = reachable(*_figures(cells, courts, removed))
        for mode in (1, 2):
            key = state_key(cells, courts, _unseen(cells, courts, removed), mode)
            valid[mode][drawn].add(key)
            if accepted:
                reached[mode][drawn].add(key)
    for mode in (1, 2):
        counts = layer_counts(mode, placed=11)
        assert [counts.reached[d] for d in (16, 17, 18)] == [len(reached[mode][d]) for d in (16, 17, 18)]
        assert [counts.valid[d] for d in (16, 17, 18)] == [len(valid[mode][d]) for d in (16, 17, 18)]


def _random_state(rng: random.Random, accepted: bool) -> tuple[list[list[int]], list[int], list[int]]:
    """A valid state with something removed that the rule accepts (or rejects)."""
    while True:
        courts = [0] + [rng.randint(0, 4) for _ in range(3)]
        removed = [rng.randint(0, 4) for _ in range(4)] + [rng.randint(0, 2), rng.randint(0, 4)]
        if sum(courts) > 11 or not _removed_cards(removed):
            continue
        cells = [[rng.randint(1, 10) for _ in range(rng.randint(0, 4 - courts[c]))] for c in range(4)]
        cards = sum(map(len, cells)) + sum(courts)
        if min(_unseen(cells, courts, removed)) < 0 or cards == 16 or cards + _removed_cards(removed) < 16:
            continue
        if reachable(*_figures(cells, courts, removed)) == accepted:
            return cells, courts, removed


def _timeline(cells: list[list[int]], courts: list[int], removed: list[int]):
    """The cards of each fill (values, COURT for a court card) and the values each removal takes, from ``history``."""
    steps = history(*_figures(cells, courts, removed))
    left = list(removed[:4])
    taken = []
    for step in steps:
        takes, need = Counter(), step.pairs
        for t in range(1, 5):
            n = min(need, left[t - 1])
            takes[t] += n
            takes[10 - t] += n
            left[t - 1] -= n
            need -= n
        takes[5] += 2 * step.five_pairs
        takes[10] += step.tens
        taken.append(+takes)
    source = Counter(v for values in cells for v in values)  # the latest survivors are among the grid's cards
    survivors = [Counter()] * len(steps)
    for i in reversed(range(len(steps))):
        keep, room = Counter(), steps[i].survivors - steps[i].five
        for t in range(1, 5):
            side = t if source[t] >= source[10 - t] else 10 - t
            keep[side] = min(room, source[side])
            room -= keep[side]
        assert room == 0 and (not steps[i].five or source[5])
        keep[5] = int(steps[i].five)
        survivors[i] = +keep
        source = survivors[i] + taken[i]  # the full grid of removal i
    fills, before, placed = [], Counter(), 0
    for i, step in enumerate(steps):
        grid = survivors[i] + taken[i]
        assert not before - grid and sum(grid.values()) + step.placed == 16
        fills.append([COURT] * (step.placed - placed) + sorted((grid - before).elements()))
        before, placed = survivors[i], step.placed
    final = Counter(v for values in cells for v in values)
    assert not before - final
    fills.append([COURT] * (sum(courts) - placed) + sorted((final - before).elements()))
    return fills, taken


def _play_to(cells: list[list[int]], courts: list[int], removed: list[int]) -> Position:
    """Build a deck and a line of play that reach the state, through the engine's own rules."""
    fills, taken = _timeline(cells, courts, removed)
    kinds = iter([1] * courts[1] + [2] * courts[2] + [3] * courts[3])
    cards = []  # [value, kind, arrival, departure]: departure is the index of the card that fills the grid
    present: list[list] = []
    for i, fill in enumerate(fills):
        for value in fill:
            card = [value, next(kinds) if value == COURT else 0, len(cards), math.inf]
            cards.append(card)
            present.append(card)
        if i < len(taken):
            for value, n in taken[i].items():  # the oldest copies leave first
                for card in [c for c in present if c[0] == value][:n]:
                    card[3] = len(cards) - 1
                    present.remove(card)
    # each court card takes its own cell of its class; a cell's deadline is its court card's arrival
    deadline = {cell: math.inf for cell in range(16)}
    slot = {}
    for kind in (1, 2, 3):
        for cell, card in zip(CLASS_CELLS[kind], [c for c in cards if c[1] == kind]):
            deadline[cell] = card[2]
            slot[id(card)] = cell
    # number cards, the latest to leave first, each in any cell whose court card comes after its stay and that no
    # card seated so far holds during it (docs/THEORY.md, Theorem 10). Seating each card on arrival in the free cell
    # with the earliest deadline is not enough: an early leaver can take the one cell a later, longer card needs.
    free_before = dict(deadline)  # a cell is free until the earliest arrival among what is seated in it
    for card in sorted((c for c in cards if not c[1]), key=lambda c: (-c[3], -c[2])):
        cell = next(c for c in range(16) if free_before[c] > card[3] or free_before[c] == math.inf)
        slot[id(card)] = cell
        free_before[cell] = card[2]
    # cells that never hold a court card may trade whole histories: put the last cards where the state has them
    last = {slot[id(c)]: c[0] for c in cards if c[3] == math.inf and not c[1]}
    free_cells = [c for c in range(16) if deadline[c] == math.inf]
    wanted = {}
    for c, values in enumerate(cells):
        for cell, value in itertools.zip_longest([x for x in CLASS_CELLS[c] if x in free_cells], values):
            wanted[cell] = value
    by_value: dict[int | None, list[int]] = {}
    for cell in free_cells:
        by_value.setdefault(wanted[cell], []).append(cell)
    moved = {cell: by_value[last.get(cell)].pop() for cell in free_cells}
    moved.update({cell: cell for cell in range(16) if cell not in moved})
    ranks = [COURT_RANK[c[1]] if c[1] else c[0] for c in cards]
    pack = Counter({rank: 4 for rank in range(1, 14)})
    pack.subtract(ranks)
    position = Position.start(tuple(Card(rank) for rank in ranks + sorted(pack.elements())), STANDARD)
    for card in cards:
        position = position.play(Place(moved[slot[id(card)]]))
        leaving = {moved[slot[id(c)]] for c in cards if c[3] == card[2]}
        while position.removing:
            position = position.play(next(m for m in position.legal_moves() if set(m.cells) <= leaving))
    return position


@pytest.mark.parametrize("seed", range(8))
def test_every_state_the_rule_accepts_is_reached_by_the_engine(seed):
    rng = random.Random(seed)
    removals = Counter()
    for _ in range(40):
        cells, courts, removed = _random_state(rng, accepted=True)
        position = _play_to(cells, courts, removed)
        assert not position.removing and EMPTY in position.grid and position.courts_placed < 12
        assert class_key(position) == state_key(cells, courts, _unseen(cells, courts, removed))
        removals[len(history(*_figures(cells, courts, removed)))] += 1
    assert len(removals) >= 3  # games of one, two and more removals are built


@pytest.mark.parametrize(
    "cells, courts, removed",
    [
        ([[3, 9, 3, 4], [8], [2], [7, 3]], [0, 2, 2, 2], [3, 2, 1, 3, 1, 2]),  # _random_state(Random(5)), its 6th state
        ([[8, 3, 9], [], [], []], [0, 3, 4, 4], [3, 3, 3, 3, 1, 0]),  # eleven court cards, thirteen removals
        ([[], [10], [3], [3]], [0, 1, 3, 3], [4, 4, 2, 4, 2, 3]),
    ],
)
def test_a_card_that_leaves_early_does_not_take_the_cell_a_later_one_needs(cells, courts, removed):
    # seating each number card on arrival in the free cell with the earliest deadline found no cell for a card here
    position = _play_to(cells, courts, removed)
    assert not position.removing and EMPTY in position.grid
    assert class_key(position) == state_key(cells, courts, _unseen(cells, courts, removed))


def test_the_rule_rejects_what_no_game_reaches():
    # a full grid with nothing but Sixes and Sevens cannot lose a pair of Threes and Sevens and keep a pair
    assert not reachable(kept=2, five=False, placed=0, pairs=1, five_pairs=0, tens=0)
    rng = random.Random(7)
    rejected = [_random_state(rng, accepted=False) for _ in range(20)]
    assert all(16 <= sum(map(len, c)) + sum(k) + _removed_cards(r) <= 31 for c, k, r in rejected)


@pytest.mark.parametrize("seed", range(4))
def test_every_state_a_game_reaches_is_accepted(seed):
    rng = random.Random(seed)
    pack = [Card(rank) for rank in range(1, 14) for _ in range(4)]
    removals = Counter()
    for _ in range(60):
        deck = pack[:]
        rng.shuffle(deck)
        position = Position.start(tuple(deck), STANDARD)
        while position.legal_moves():
            # half the moves greedy, to get far into the game; half at random, to vary it
            move = greedy_player(position.view()) if rng.random() < 0.5 else rng.choice(position.legal_moves())
            position = position.play(move)
            if position.removing:
                continue
            removed_any = position.drawn > 16 - position.grid.count(EMPTY)
            if EMPTY in position.grid and position.courts_placed < 12 and removed_any:
                cells, courts, unseen = describe_state(class_key(position))
                gone = [4 - unseen[v] - sum(values.count(v) for values in cells) for v in range(1, 11)]
                removed = [*gone[:4], gone[4] // 2, gone[9]]
                assert reachable(*_figures(cells, courts, removed)), position
                removals[position.drawn // 10] += 1
    assert removals[2] > 50 and removals[3] > 20
