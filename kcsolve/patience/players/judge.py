"""The strong player's judge of one order, compiled, where the deep player uses it: forced pairs, courts at home.

:func:`kcsolve.patience.players.strong.wins_in_order` follows the value-level
course of an order and then seats every card by interval scheduling, in Python
for every rule set. Under forced pair removal with court cards on their home
cells (not the goal ``clear``) this module does the same in one compiled call:
the course once with the latest copies of a value leaving first, once with
the earliest, each followed by the same forward pass. It is the twin of the
Python judge for those rules, and tests/players/test_judge.py requires the two
to agree on random grids and orders; the Python judge stays the reference, and
the only judge of the other rules.

Arrays: ``cells[c, i]`` the value of number card i in class c (0 centre,
1 corners, 2 Queen cells, 3 Jack cells; ``filled[c]`` of them in class c), ``courts[c]``
the court cards in class c, ``order`` the ranks still to come (a card in hand
first).
"""

from __future__ import annotations

import numpy as np

from kcsolve.common.jit import jit
from kcsolve.patience.players.quick import pair_takes

NEVER = 1 << 30  # as strong.NEVER: the departure of a card that stays; the deadline of a cell no court card takes
VALUES = 11  # value slots 1..10 (0 unused)
COPIES = 4  # copies of a value in a deck, so on the grid at once
CLASS_SIZE = 4  # cells in each class of the fixed layout (as kcsolve.patience.classes.CLASS_SIZE)
# The home class of each rank: Jack, Queen, King (ranks 11..13) to 3, 2, 1 (kcsolve.patience.classes.KIND_CLASS).
RANK_CLASS = np.array([0] * 11 + [3, 2, 1], dtype=np.int64)
JAMMED, WON, LOST = 0, 1, 2


@jit()
def _one_course(
    cells: np.ndarray,
    filled: np.ndarray,
    courts: np.ndarray,
    order: np.ndarray,
    removal_due: bool,
    stop_at_courts: bool,
    last_first: bool,
) -> int:
    """The course of ``order`` with one tie rule among equal values, then the seating pass: JAMMED, WON or LOST."""
    count = np.zeros(VALUES, dtype=np.int64)
    pools = np.zeros((VALUES, COPIES), dtype=np.int64)  # card ids by value, oldest first
    pooled = np.zeros(VALUES, dtype=np.int64)
    leaves = np.full(64, NEVER, dtype=np.int64)
    cards = 0
    for c in range(4):
        for i in range(filled[c]):
            count[cells[c, i]] += 1
    for value in range(1, VALUES):
        for _ in range(count[value]):
            pools[value, pooled[value]] = cards
            pooled[value] += 1
            cards += 1
    held_ids = pools.copy()
    held_n = pooled.copy()
    numbers = cards
    placed = courts[0] + courts[1] + courts[2] + courts[3]
    arrival_t = np.zeros(64, dtype=np.int64)
    arrival_id = np.zeros(64, dtype=np.int64)
    arrivals = 0
    court_t = np.zeros((4, 16), dtype=np.int64)
    court_n = np.zeros(4, dtype=np.int64)
    t = 0
    due = removal_due
    while True:
        if due:
            take = pair_takes(count)
            if take.sum() == 0:
                return JAMMED
            for value in range(1, VALUES):
                for _ in range(take[value]):
                    if last_first:
                        pooled[value] -= 1
                        leaves[pools[value, pooled[value]]] = t
                    else:
                        leaves[pools[value, 0]] = t
                        for k in range(1, pooled[value]):
                            pools[value, k - 1] = pools[value, k]
                        pooled[value] -= 1
                count[value] -= take[value]
                numbers -= take[value]
        while placed + numbers < 16 and t < order.shape[0]:
            rank = order[t]
            if rank > 10:
                home = RANK_CLASS[rank]
                court_t[home, court_n[home]] = t
                court_n[home] += 1
                placed += 1
                if stop_at_courts and placed == 12:
                    break
            else:
                arrival_t[arrivals] = t
                arrival_id[arrivals] = cards
                arrivals += 1
                pools[rank, pooled[rank]] = cards
                pooled[rank] += 1
                cards += 1
                count[rank] += 1
                numbers += 1
            t += 1
        if stop_at_courts and placed == 12:
            break
        if t == order.shape[0]:
            break
        due = True
    seated = _seats(cells, filled, courts, leaves, held_ids, held_n, court_t, court_n, arrival_t, arrival_id, arrivals)
    return WON if seated else LOST


@jit()
def _seats(
    cells: np.ndarray,
    filled: np.ndarray,
    courts: np.ndarray,
    leaves: np.ndarray,
    held_ids: np.ndarray,
    held_n: np.ndarray,
    court_t: np.ndarray,
    court_n: np.ndarray,
    arrival_t: np.ndarray,
    arrival_id: np.ndarray,
    arrivals: int,
) -> bool:
    """Whether every card finds a cell whose deadline it meets (as kcsolve.patience.players.strong.seen_order_wins)."""
    deadlines = np.full((4, CLASS_SIZE), NEVER, dtype=np.int64)
    machines = np.zeros(4, dtype=np.int64)
    machines[0] = CLASS_SIZE
    for c in range(1, 4):
        free = CLASS_SIZE - courts[c]
        if court_n[c] > free:
            return False
        for m in range(court_n[c]):
            deadlines[c, m] = court_t[c, m]
        machines[c] = free
    held = np.zeros((VALUES, COPIES), dtype=np.int64)  # the departures of the copies on the grid, earliest first
    for value in range(1, VALUES):
        held[value, : held_n[value]] = np.sort(leaves[held_ids[value, : held_n[value]]])
    next_out = np.zeros(VALUES, dtype=np.int64)
    busy = np.full((4, CLASS_SIZE), -1, dtype=np.int64)  # when each cell is free again (-1: free)
    gone_of = np.zeros((4, CLASS_SIZE), dtype=np.int64)
    for c in (3, 2, 1, 0):
        for i in range(filled[c]):
            value = cells[c, i]
            gone_of[c, i] = held[value, next_out[value]]
            next_out[value] += 1
    for c in range(4):
        for gone in np.sort(gone_of[c, : filled[c]])[::-1]:
            best = -1
            for m in range(machines[c]):
                if busy[c, m] < 0 and deadlines[c, m] >= gone and (best < 0 or deadlines[c, m] < deadlines[c, best]):
                    best = m
            if best < 0:
                return False
            busy[c, best] = gone
    for a in range(arrivals):
        t = arrival_t[a]
        gone = leaves[arrival_id[a]]
        best_c = -1
        best_m = -1
        best_deadline = NEVER + 1
        for c in range(4):
            for m in range(machines[c]):
                if busy[c, m] <= t and gone <= deadlines[c, m] < best_deadline:
                    best_c, best_m, best_deadline = c, m, deadlines[c, m]
        if best_c < 0:
            return False
        busy[best_c, best_m] = gone
    return True


@jit()
def order_wins(
    cells: np.ndarray,
    filled: np.ndarray,
    courts: np.ndarray,
    order: np.ndarray,
    removal_due: bool,
    stop_at_courts: bool,
) -> bool:
    """Whether a player who knew ``order`` wins from the grid: either tie rule among equal values may do it."""
    for last_first in (True, False):
        outcome = _one_course(cells, filled, courts, order, removal_due, stop_at_courts, last_first)
        if outcome == JAMMED:
            return False
        if outcome == WON:
            return True
    return False
