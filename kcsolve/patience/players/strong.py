"""The strong player who cannot see the deck: sampled orders of the unseen cards, each judged as if seen.

At each choice the player deals the unseen cards (a multiset it knows) into
``samples`` random orders, the same orders for every option, and scores each
distinct option by how many orders it would go on to win. It plays the option
that wins most; ties go to the greedy player's choice.

An order is judged as a player who then knew it would play. The values on the
grid follow a value-level course: under forced removal by pairs the forced
course, which no placement changes (docs/THEORY.md, Lemma 1); under the other
rules the course in which every removal that can be made is made, Tens and
pairs first. With the course known, the only question left is whether every
court card finds room in its class. That is interval scheduling: each number
card occupies a cell from its draw to its removal, and each free court cell is
usable until the court card that will take it arrives (under royals any court
card takes any edge cell; under swap the edges are shared out between Queens and
Jacks, :func:`pooled_views`). :func:`seen_order_wins`
answers it in one forward pass, seating each card in the free cell with the
earliest deadline it can meet. Both halves are constructive, so an order judged
won can be won; from the opening, under standard rules, the judge agrees with
the exact solver on 99.2% of deals (seeds 0..1999) and never claims a lost one.

Under forced pairs with court cards at home (:func:`covered`, where the deep
player plays) an order is judged by the compiled twin of this judge
(:mod:`.judge`); the Python judge here stays the reference and judges the other rules.

Near the end of a game under forced pairs (few unseen cards) the chances are
computed exactly by expectimax instead (:func:`kcsolve.patience.players.endgame.exact_chance`).
Nothing here reads the real order of the stock: only the sorted multiset of
the unseen cards and the player's own seed decide the sampled orders (a view
that shows cards ahead, :mod:`.lookahead`, fixes the first of them).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from kcsolve.common.cards import JACK, KING, QUEEN, TEN, Card
from kcsolve.patience.classes import CENTRE, JACKS, KIND_CLASS, KINGS, QUEENS, class_view
from kcsolve.patience.engine import EDGE_PAIRS, Afterstate, Move, PlayerView, Remove, Status
from kcsolve.patience.players.endgame import distinct_options, exact_chance, exact_feasible, option_key
from kcsolve.patience.players.policy import greedy_player
from kcsolve.patience.rules import Courts, Goal, Removal, Rules, Sets
from kcsolve.patience.solve.theory import forced_takes

if TYPE_CHECKING:
    import numpy as np

SAMPLES = 48  # seeds 2000..4999: 391 wins of 3,000 with 48, 355 with 24 (docs/PLAYERS.md)
# The class of cells each kind of court card takes, and the sizes of classes 0..3, by the courts rule: under royals
# every court card takes any of the twelve cells around the centre; under swap each edge ends with two Queens or two
# Jacks, so the edges are shared out between them (pooled_views) and each share is judged as home cells.
LAYOUTS: dict[Courts, tuple[dict[int, int], tuple[int, int, int, int]]] = {
    Courts.FIXED: (KIND_CLASS, (4, 4, 4, 4)),
    Courts.SWAP: (KIND_CLASS, (4, 4, 4, 4)),
    Courts.ROYALS: ({KING: KINGS, QUEEN: KINGS, JACK: KINGS}, (4, 12, 0, 0)),
}
NEVER = 1 << 30  # the deadline of a cell no court card will take; the departure of a card that stays
Cells = list[list[int]]


@dataclass(frozen=True)
class Course:
    """The value-level course of a known order from a class-level position.

    ``held`` gives, value by value, when the copies already on the grid leave
    (earliest first); ``arrivals`` lists (time, leaves) for each number card
    still to come; ``courts`` the arrival times of the court cards of each class
    (1..3). Time t means "after t cards of the order are drawn"; a card that
    never leaves leaves at :data:`NEVER`. ``jams`` is True when a full grid has
    nothing to remove.
    """

    jams: bool
    held: tuple[tuple[int, ...], ...]
    arrivals: tuple[tuple[int, int], ...]
    courts: tuple[tuple[int, ...], ...]


def course(
    count: list[int], placed: int, order: list[int], removal_due: bool, rules: Rules, last_first: bool = True
) -> Course:
    """Follow the value-level course of ``order`` from a grid holding ``count[v]`` cards of each value.

    Under forced pair removal this is the forced course. Under the other rules
    every removal that can be made is made, Tens and pairs before larger groups
    (:func:`removal_takes`); under the goal ``clear`` the empty stock opens a last
    removal, and number cards left after it count as a jam. Among equal values a
    removal takes the copies that came last (``last_first``) or those that came
    first, the copies on the grid counting as the oldest.
    """
    end = -1 if last_first else 0
    kind_class = LAYOUTS[rules.courts][0]
    stop_at_courts = rules.goal is Goal.COURTS
    clear = rules.goal is Goal.CLEAR
    count = list(count)
    pools: list[list[int]] = [[] for _ in range(TEN + 1)]  # card ids by value, oldest first
    leaves: list[int] = []
    for value in range(1, TEN + 1):
        for _ in range(count[value]):
            pools[value].append(len(leaves))
            leaves.append(NEVER)
    held_ids = [list(pool) for pool in pools]
    numbers = sum(count)
    arrivals: list[tuple[int, int]] = []
    courts: list[list[int]] = [[], [], [], []]
    t = 0
    due = removal_due
    jams = False
    while True:
        if due:
            take = removal_takes(count, rules.sets)
            if not any(take):
                jams = True
                break
            for value in range(1, TEN + 1):
                for _ in range(take[value]):
                    leaves[pools[value].pop(end)] = t
                count[value] -= take[value]
            numbers -= sum(take)
        while placed + numbers < 16 and t < len(order):
            rank = order[t]
            if rank > TEN:
                courts[kind_class[rank]].append(t)
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
        if stop_at_courts and placed == 12:
            break
        if t == len(order):
            jams = clear and any(a != b for a, b in zip(count, removal_takes(count, rules.sets)))
            break
        due = True
    return Course(
        jams,
        tuple(tuple(sorted(leaves[i] for i in ids)) for ids in held_ids),
        tuple((a, leaves[i]) for a, i in arrivals),
        tuple(map(tuple, courts)),
    )


def seen_order_wins(cells: Cells, courts: list[int], run: Course, sizes: tuple[int, ...] = (4, 4, 4, 4)) -> bool:
    """Whether a player who knows the order can seat every card so that each court card finds room.

    Cells are machines with deadlines (a free court cell until its court card
    comes, a centre cell never); of equal values on the grid those in court
    classes leave first; each card is seated in the free cell with the earliest
    deadline it meets.
    """
    if run.jams:
        return False
    deadlines = [[NEVER] * 4]
    for c in (1, 2, 3):
        free = sizes[c] - courts[c]
        comes = list(run.courts[c])
        if len(comes) > free:
            return False
        deadlines.append(comes + [NEVER] * (free - len(comes)))
    held: list[list[int]] = [[], [], [], []]
    next_out = [0] * (TEN + 1)
    for c in (3, 2, 1, CENTRE):
        for value in cells[c]:
            held[c].append(run.held[value][next_out[value]])
            next_out[value] += 1
    busy: list[list[int]] = [[-1] * len(d) for d in deadlines]  # when each cell is free again (-1: free)
    for c in range(4):
        for gone in sorted(held[c], reverse=True):
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


def removal_takes(count: list[int], sets: Sets) -> list[int]:
    """How many cards of each value a removal to exhaustion takes: forced pairs exactly, else Tens and pairs first."""
    if sets is Sets.PAIRS:
        return forced_takes(count)
    return list(_group_takes(tuple(count)))


@lru_cache(maxsize=100_000)
def _group_takes(count: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`removal_takes` under groups, remembered: the same grids come back across sampled orders."""
    left = list(count)
    take = [0] * (TEN + 1)
    while group := _a_set(left, Sets.GROUPS):
        for value in group:
            left[value] -= 1
            take[value] += 1
    return tuple(take)


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


def covered(rules: Rules) -> bool:
    """Whether the quick player and the compiled judge model these rules: forced pairs, fixed courts, not clear."""
    return (
        rules.removal is Removal.FORCED
        and rules.sets is Sets.PAIRS
        and rules.courts is Courts.FIXED
        and rules.goal is not Goal.CLEAR
    )


def wins_in_order(after: Afterstate, order: list[int], courses: dict[tuple, Course] | None = None) -> bool:
    """Whether ``after`` goes on to a win when the face-down cards come in ``order``, for a player who then knew it.

    A card still in hand comes before ``order``. Equal values may leave in
    either order (the latest copies first, else the earliest); each is tried.
    ``courses`` caches the Python judge's value-level courses for this order:
    options that leave the same values on the grid share them.
    """
    if compiled(after):
        return compiled_wins(after, order)
    status = after.outcome.status
    if status is not Status.UNFINISHED:
        return status is Status.WON
    return python_wins(after, order, courses)


def compiled(after: Afterstate) -> bool:
    """Whether :func:`wins_in_order` judges ``after`` by the compiled judge: covered rules, game not over."""
    return covered(after.rules) and after.outcome.status is Status.UNFINISHED


def python_wins(after: Afterstate, order: list[int], courses: dict[tuple, Course] | None = None) -> bool:
    """:func:`wins_in_order` in Python for every rule set, for an unfinished afterstate: the reference judge."""
    sizes = LAYOUTS[after.rules.courts][1]
    views = pooled_views(after.grid, after.rules.courts)
    if not views:  # Queens (or Jacks) on three edges: the other kind will lack room
        return False
    cells, courts = views[0]
    count = [0] * (TEN + 1)
    for held in cells:
        for value in held:
            count[value] += 1
    held_card = after.in_hand is not None
    coming = [after.in_hand.rank, *order] if after.in_hand is not None else order
    for last_first in (True, False):
        key = (tuple(count), after.removing, held_card, last_first)
        run = courses.get(key) if courses is not None else None
        if run is None:
            run = course(count, sum(courts), coming, after.removing, after.rules, last_first)
            if courses is not None:
                courses[key] = run
        if run.jams:
            return False
        if any(seen_order_wins(cells, courts, run, sizes) for cells, courts in views):
            return True
    return False


def compiled_wins(after: Afterstate, order: list[int]) -> bool:
    """:func:`wins_in_order` by the compiled judge (its rules only: :func:`covered`), for an unfinished afterstate."""
    return judged_wins(after, compiled_grid(after), coming_ranks(after, order))


# The compiled judge's grid: each class's number cards (a row of up to four), how many, and its court cards.
Grid = tuple["np.ndarray", "np.ndarray", "np.ndarray"]


def compiled_grid(after: Afterstate) -> Grid:
    """The afterstate's grid as the compiled judge reads it: each class's numbers, how many, its court cards."""
    import numpy as np

    cells, courts = class_view(after.grid)
    grid = np.zeros((4, 4), dtype=np.int64)
    for c, values in enumerate(cells):
        grid[c, : len(values)] = values
    return grid, np.array([len(values) for values in cells], dtype=np.int64), np.array(courts, dtype=np.int64)


def coming_ranks(after: Afterstate, order: list[int]) -> np.ndarray:
    """The ranks still to come as the compiled judge reads them: a card still in hand first, then ``order``."""
    import numpy as np

    return np.array([after.in_hand.rank, *order] if after.in_hand is not None else order, dtype=np.int64)


def judged_wins(after: Afterstate, grid: Grid, coming: np.ndarray) -> bool:
    """:func:`compiled_wins` on arrays made beforehand: the judge only reads them, so they serve every order."""
    from kcsolve.patience.players.judge import order_wins  # numba: loaded only when an order is judged

    return bool(order_wins(*grid, coming, after.removing, after.rules.goal is Goal.COURTS))


def pooled_views(grid: tuple[Card | None, ...], courts_rule: Courts) -> list[tuple[Cells, list[int]]]:
    """The grid as classes of cells that court cards take under ``courts_rule``: one view, or one per share of edges.

    Under royals the three court classes are one. Under swap a Queen may not
    sit beside a Jack, so each edge (two cells) ends with two of one kind: a
    seating exists if one for some share of the edges between Queens (two edges)
    and Jacks (the other two) does, the edges already holding a court card going
    to its kind.
    """
    cells, courts = class_view(grid)
    if courts_rule is Courts.ROYALS:
        return [([cells[CENTRE], cells[KINGS] + cells[QUEENS] + cells[JACKS], [], []], [0, sum(courts), 0, 0])]
    if courts_rule is not Courts.SWAP:
        return [(cells, courts)]
    shared = (_edge_share(grid, queen_edges) for queen_edges in itertools.combinations(EDGE_PAIRS, 2))
    return [
        ([cells[CENTRE], cells[KINGS], *shares], [0, courts[KINGS], *held])
        for shares, held in shared
        if shares is not None
    ]


def _edge_share(
    grid: tuple[Card | None, ...], queen_edges: tuple[tuple[int, int], ...]
) -> tuple[Cells | None, list[int]]:
    """The numbers and court cards of the Queens' edges and the Jacks' (the others); None if a court card disagrees."""
    shares: Cells = [[], []]
    held = [0, 0]
    for edge in EDGE_PAIRS:
        share = 0 if edge in queen_edges else 1
        for card in (grid[cell] for cell in edge):
            if card is None:
                continue
            if card.rank <= TEN:
                shares[share].append(card.rank)
            elif card.rank == (QUEEN, JACK)[share]:
                held[share] += 1
            else:
                return None, held
    return shares, held


def sampled_orders(unseen: list[int], samples: int, seed: int, view: PlayerView) -> list[list[int]]:
    """``samples`` random orders of the unseen ranks, the view's cards ahead first, from the seed and the view only."""
    seen = sum(1 for card in view.grid if card is not None)
    rng = random.Random(f"kcsolve-strong|{seed}|{view.drawn}|{int(view.removing)}|{seen}")
    known = ahead_ranks(view)
    pool = sorted(unseen)
    for rank in known:
        pool.remove(rank)
    orders = []
    for _ in range(samples):
        rng.shuffle(pool)
        orders.append([*known, *pool])
    return orders


def ahead_ranks(view: PlayerView) -> tuple[int, ...]:
    """The ranks of the face-down cards the view shows in order (none for a player who cannot see the deck)."""
    return tuple(card.rank for card in view.ahead)


def option_wins(
    options: list[tuple[Move, Afterstate]], samples: int, seed: int, view: PlayerView, only_best: bool = False
) -> list[int]:
    """For each option, how many of the same sampled orders of the face-down cards it wins.

    With ``only_best`` an option stops being judged once the orders left cannot
    bring it up to the most wins so far: the options with the most wins, and
    their counts, are the same, and the others' counts are lower than theirs.
    """
    unseen = [card.rank for card in view.unseen]
    wins = [0] * len(options)
    judged: list[int] | range = range(len(options))
    orders = sampled_orders(unseen, samples, seed, view)
    # The compiled judge's grids are made once an option, and its orders once an order and card in hand.
    grids = [compiled_grid(after) if compiled(after) else None for _, after in options]
    for done, order in enumerate(orders, 1):
        courses: dict[tuple, Course] = {}
        comings: dict[int | None, np.ndarray] = {}
        for k in judged:
            after, grid = options[k][1], grids[k]
            if grid is None:
                wins[k] += wins_in_order(after, order, courses)
                continue
            held = after.in_hand.rank if after.in_hand is not None else None
            if held not in comings:
                comings[held] = coming_ranks(after, order)
            wins[k] += judged_wins(after, grid, comings[held])
        if only_best:
            most = max(wins)
            judged = [k for k in judged if wins[k] + len(orders) - done >= most]
    return wins


def strong_player(view: PlayerView, seed: int = 0, samples: int = SAMPLES) -> Move:
    """The strong player's move: the option that wins most sampled orders, the greedy choice on ties."""
    options = distinct_options(view)
    return options[best_option(view, options, seed, samples)][0]


def best_option(view: PlayerView, options: list[tuple[Move, Afterstate]], seed: int, samples: int = SAMPLES) -> int:
    """Which of the distinct ``options`` of ``view`` the strong player takes (its index)."""
    if len(options) == 1:
        return 0
    if exact_feasible(options[0][1]):
        scores = [exact_chance(child, ahead_ranks(view)) * samples for _, child in options]
    else:
        scores = [float(w) for w in option_wins(options, samples, seed, view)]
    preferred = class_key(view, greedy_player(view))
    return max(range(len(options)), key=lambda k: (scores[k], class_key(view, options[k][0]) == preferred))


def class_key(view: PlayerView, move: Move) -> tuple:
    """The class-level result of a move, for comparing moves that differ only in interchangeable cells."""
    return option_class_key(move, view.after(move))


def option_class_key(move: Move, after: Afterstate) -> tuple:
    """:func:`class_key` of a move whose afterstate is known."""
    return (*option_key(after), isinstance(move, Remove))
