"""The strong player who cannot see the deck: sampled orders of the unseen cards, each judged as if seen.

At each choice the player deals the unseen cards (a multiset it knows) into
``samples`` random orders, the same orders for every option, and scores each
distinct option by how many orders it would go on to win. It plays the option
that wins most; ties go to the greedy player's choice.

How an order is judged depends on the rules:

- Under forced removal by pairs the values on the grid follow the forced course
  whatever the placements (docs/THEORY.md, Lemma 1), so with the order known
  the only question is whether every court card finds room in its class. That
  is interval scheduling: each number card occupies a cell from its draw to its
  removal, and each free court cell is usable until the court card that will
  take it arrives. :func:`seen_order_wins` answers it in one forward pass,
  seating each card in the free cell with the earliest deadline it can meet.
- Under the other rules the order is played out by the greedy player at class
  level (:func:`greedy_playout`), which removes whenever it can.

Near the end of a game under forced pairs (few unseen cards) the chances are
computed exactly by expectimax instead (:func:`kcsolve.patience.hints.exact_chance`).
Nothing here reads the real order of the stock: only the sorted multiset of
the unseen cards and the player's own seed decide the sampled orders.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..common.cards import JACK, KING, QUEEN, TEN
from .endgame import distinct_options, exact_chance, exact_feasible, option_key
from .engine import Move, Position, Remove, Status
from .policy import CENTRE, KIND_CLASS, _placement_score, class_view, greedy_player
from .rules import Goal, Removal, Rules, Sets
from .theory import forced_takes

SAMPLES = 24
NEVER = 1 << 30  # the deadline of a cell no court card will take; the departure of a card that stays
Cells = list[list[int]]


def fast_rules(rules: Rules) -> bool:
    """True under forced removal by pairs, where a seen order is judged exactly by scheduling."""
    return rules.removal is Removal.FORCED and rules.sets is Sets.PAIRS


@dataclass(frozen=True)
class Course:
    """The value-level course of a known order from a class-level position.

    ``held`` gives, for the number cards already on the grid (class by class, in
    the order of ``cells``), when each leaves; ``arrivals`` lists (time, leaves)
    for each number card still to come; ``courts`` the arrival times of the court
    cards of each class (1..3). Time t means "after t cards of the order are
    drawn"; a card that never leaves leaves at :data:`NEVER`. ``jams`` is True
    when a full grid has nothing to remove.
    """

    jams: bool
    held: tuple[tuple[int, ...], ...]
    arrivals: tuple[tuple[int, int], ...]
    courts: tuple[tuple[int, ...], ...]


def course(cells: Cells, placed: int, order: list[int], removal_due: bool, stop_at_courts: bool) -> Course:
    """Follow the forced pair course of ``order`` from a grid holding ``cells`` and ``placed`` court cards.

    Among equal values a removal takes the copies that came last, the copies on
    the grid counting as the oldest and, among them, those in the centre as
    older than those in court classes.
    """
    count = [0] * (TEN + 1)
    pools: list[list[int]] = [[] for _ in range(TEN + 1)]  # card ids by value, oldest first
    leaves: list[int] = []
    held_ids: list[list[int]] = [[], [], [], []]
    for c in (CENTRE, 1, 2, 3):
        for value in cells[c]:
            held_ids[c].append(len(leaves))
            pools[value].append(len(leaves))
            leaves.append(NEVER)
            count[value] += 1
    numbers = sum(count)
    arrivals: list[tuple[int, int]] = []
    courts: list[list[int]] = [[], [], [], []]
    t = 0
    due = removal_due
    jams = False
    while True:
        if due:
            take = forced_takes(count)
            if not any(take):
                jams = True
                break
            for value in range(1, TEN + 1):
                for _ in range(take[value]):
                    leaves[pools[value].pop()] = t
                count[value] -= take[value]
            numbers -= sum(take)
        while placed + numbers < 16 and t < len(order):
            rank = order[t]
            if rank > TEN:
                courts[KIND_CLASS[rank]].append(t)
                placed += 1
                if stop_at_courts and placed == 12:
                    break
            else:
                arrivals.append((t, len(leaves)))
                pools[rank].append(len(leaves))
                leaves.append(NEVER)
                count[rank] += 1
                numbers += 1
            t += 1
        if t == len(order) or (stop_at_courts and placed == 12):
            break
        due = True
    return Course(jams, tuple(tuple(leaves[i] for i in ids) for ids in held_ids),
                  tuple((a, leaves[i]) for a, i in arrivals), tuple(map(tuple, courts)))


def seen_order_wins(courts: list[int], run: Course) -> bool:
    """Whether a player who knows the order can seat every card so that each court card finds room.

    Cells are machines with deadlines (a free court cell until its court card
    comes, a centre cell never); each card is seated in the free cell with the
    earliest deadline it meets.
    """
    if run.jams:
        return False
    deadlines = [[NEVER] * 4]
    for c in (1, 2, 3):
        free = 4 - courts[c]
        comes = list(run.courts[c])
        if len(comes) > free:
            return False
        deadlines.append(comes + [NEVER] * (free - len(comes)))
    busy: list[list[int]] = [[-1] * len(d) for d in deadlines]  # when each cell is free again (-1: free)
    for c in range(4):
        for gone in sorted(run.held[c], reverse=True):
            best = -1
            for m, deadline in enumerate(deadlines[c]):
                if busy[c][m] < 0 and deadline >= gone and (best < 0 or deadline < deadlines[c][best]):
                    best = m
            if best < 0:
                return False
            busy[c][best] = gone
    for t, gone in run.arrivals:
        best_c = best_m = -1
        best_deadline = NEVER + 1
        for c in range(4):
            row = deadlines[c]
            free_at = busy[c]
            for m in range(len(row)):
                if free_at[m] <= t and gone <= row[m] < best_deadline:
                    best_c, best_m, best_deadline = c, m, row[m]
        if best_c < 0:
            return False
        busy[best_c][best_m] = gone
    return True


def greedy_playout(cells: Cells, courts: list[int], order: list[int], rules: Rules, removal_due: bool) -> bool:
    """Play a known order out as the greedy player at class level, under any rules: True for a win.

    Court cards go to their home class; number cards where the greedy player's
    score puts them; every removal that can be made is made, Tens and pairs
    before larger groups, freeing the neediest class first.
    """
    stop_at_courts = rules.goal is Goal.COURTS
    clear = rules.goal is Goal.CLEAR
    placed = sum(courts)
    to_come = {kind: order.count(kind) for kind in KIND_CLASS}
    unseen = [0] * (TEN + 1)
    for rank in order:
        if rank <= TEN:
            unseen[rank] += 1
    t = 0
    if removal_due and not _remove_all(cells, courts, to_come, rules.sets) and sum(map(len, cells)) + placed == 16:
        return False
    while True:
        free = [4 - len(cells[c]) - courts[c] for c in range(4)]
        if t == len(order):
            if clear and any(cells):
                _remove_all(cells, courts, to_come, rules.sets)
                return not any(cells)
            return True
        if not any(free):
            if not _remove_all(cells, courts, to_come, rules.sets):
                return False
            continue
        rank = order[t]
        t += 1
        if rank > TEN:
            home = KIND_CLASS[rank]
            if not free[home]:
                return False
            courts[home] += 1
            to_come[rank] -= 1
            placed += 1
            if stop_at_courts and placed == 12:
                return True
            continue
        unseen[rank] -= 1
        target = max((c for c in range(4) if free[c]),
                     key=lambda c: _placement_score(c, rank, free, cells, unseen, to_come))
        cells[target].append(rank)


def _remove_all(cells: Cells, courts: list[int], to_come: dict[int, int], sets: Sets) -> bool:
    """Remove sets until none is left, from the neediest class first: False if nothing could go."""
    need = [-1.0] + [to_come[kind] - (4 - len(cells[c]) - courts[c]) for c, kind in ((1, KING), (2, QUEEN), (3, JACK))]
    order = sorted(range(4), key=lambda c: -need[c])
    removed = False
    while True:
        count = [0] * (TEN + 1)
        for held in cells:
            for value in held:
                count[value] += 1
        group = _a_set(count, sets)
        if not group:
            return removed
        removed = True
        for value in group:
            for c in order:
                if value in cells[c]:
                    cells[c].remove(value)
                    break


def _a_set(count: list[int], sets: Sets) -> tuple[int, ...]:
    """One removable set of values: a Ten, else a pair, else (under groups) the group with fewest cards."""
    if count[TEN]:
        return (TEN,)
    for low in range(1, 6):
        if count[low] and count[TEN - low] > (low == 5):
            return (low, TEN - low)
    if sets is Sets.PAIRS:
        return ()
    for size in range(3, 11):
        found = _group(count, size, 1, TEN)
        if found:
            return found
    return ()


def _group(count: list[int], size: int, low: int, total: int) -> tuple[int, ...]:
    """``size`` values from ``low`` up, within ``count``, summing to ``total`` (empty if none)."""
    if size == 1:
        return (total,) if low <= total < TEN and count[total] else ()
    for value in range(low, min(total, TEN)):
        if count[value]:
            count[value] -= 1
            rest = _group(count, size - 1, value, total - value)
            count[value] += 1
            if rest:
                return (value, *rest)
    return ()


def judge_order(child: Position, order: list[int]) -> bool:
    """Whether ``child`` goes on to a win when the unseen cards come in ``order``."""
    status = child.outcome().status
    if status is not Status.UNFINISHED:
        return status is Status.WON
    cells, courts = class_view(child)
    rules = child.rules
    if fast_rules(rules):
        run = course(cells, sum(courts), order, child.removing, rules.goal is Goal.COURTS)
        return seen_order_wins(courts, run)
    return greedy_playout(cells, courts, list(order), rules, child.removing)


def sampled_orders(unseen: list[int], samples: int, seed: int, position: Position) -> list[list[int]]:
    """``samples`` random orders of the unseen ranks, from the player's seed and what it has seen only."""
    seen = sum(1 for i in position.grid if i >= 0)
    rng = random.Random(f"kcsolve-strong|{seed}|{position.drawn}|{int(position.removing)}|{seen}")
    pool = sorted(unseen)
    orders = []
    for _ in range(samples):
        rng.shuffle(pool)
        orders.append(list(pool))
    return orders


def option_wins(options: list[tuple[Move, Position]], samples: int, seed: int, position: Position) -> list[int]:
    """For each option, how many of the same sampled orders it wins."""
    unseen = [card.rank for card in options[0][1].deck[options[0][1].drawn :]]
    orders = sampled_orders(unseen, samples, seed, position)
    return [sum(judge_order(child, order) for order in orders) for _, child in options]


def strong_player(position: Position, seed: int = 0, samples: int = SAMPLES) -> Move:
    """The strong player's move: the option that wins most sampled orders, the greedy choice on ties."""
    options = distinct_options(position)
    if len(options) == 1:
        return options[0][0]
    preferred = _class_key(position, greedy_player(position))
    if exact_feasible(options[0][1]):
        scores = [exact_chance(child) for _, child in options]
    else:
        scores = [float(w) for w in option_wins(options, samples, seed, position)]
    best = max(range(len(options)), key=lambda k: (scores[k], _class_key(position, options[k][0]) == preferred))
    return options[best][0]


def _class_key(position: Position, move: Move) -> tuple:
    """The class-level result of a move, for comparing moves that differ only in interchangeable cells."""
    return option_key(position.play(move)) + ((isinstance(move, Remove)),)

