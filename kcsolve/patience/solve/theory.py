"""What the deck alone decides under forced pair removal, and a winning line built directly.

Under forced removal with pairs (``standard``, ``deplete``, ``swap``) the multiset
of values left after every removal, and so the number of cards each deal draws,
depend only on the deck (docs/THEORY.md, Lemma 1). :func:`trajectory` follows
that course. When it never jams, :func:`construct` places every card by
interval scheduling run backwards in time (Theorem 2): each court cell is
usable by number cards until its court card arrives, and a card that stays
longest is seated first. The engine replays the result; nothing here is
trusted on its own word.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import factorial

from kcsolve.common.cards import DECK_SIZE, TEN
from kcsolve.patience.engine import CENTRE_CELLS, COURT_HOMES, Move, Place, Remove
from kcsolve.patience.rules import Goal, Rules, Sets

GRID = 16
COURTS = 12


def covers(rules: Rules) -> bool:
    """True when sets are pairs: the forced course then decides the deal under every removal, court and goal rule.

    Under forced removal that is Lemma 1 and Theorem 2; under optional removal the
    pair invariant of docs/THEORY.md (Theorem 5) shows no line of play does better.
    """
    return rules.sets is Sets.PAIRS


class NoSeatError(AssertionError):
    """The backward seating found no cell for a card: a counterexample to Theorem 2, or a bug in kcsolve."""


@dataclass(frozen=True)
class Trajectory:
    """The forced course of a deal: its rounds (each filling the grid), its removals and how it ends.

    ``rounds`` holds (first, end) deck-index ranges; ``removals`` holds, for each
    removal phase, the sets of deck indices removed (a Ten alone or a pair).
    ``won`` is False when a full grid had nothing to remove after ``end`` cards.
    """

    won: bool
    end: int
    rounds: tuple[tuple[int, int], ...]
    removals: tuple[tuple[tuple[int, ...], ...], ...]

    @property
    def jam_round(self) -> int:
        """The number (from 1) of the round (a deal, in the sample game's words) whose full grid jammed."""
        return len(self.rounds)


def removal_sets(by_rank: dict[int, list[int]]) -> list[tuple[int, ...]]:
    """Everything forced removal takes from a full grid: every Ten, then as many pairs as match.

    ``by_rank`` maps each rank to the deck indices of that rank on the grid,
    oldest first; the oldest cards of a rank go first (any choice gives the
    same values).
    """
    sets: list[tuple[int, ...]] = [(i,) for i in by_rank.get(TEN, [])]
    for low in range(1, 5):
        lows, highs = by_rank.get(low, []), by_rank.get(TEN - low, [])
        sets.extend(zip(lows, highs))
    fives = by_rank.get(5, [])
    sets.extend(zip(fives[0::2], fives[1::2]))
    return sets


def forced_takes(count: list[int]) -> list[int]:
    """How many cards of each value (index 1..10) forced pair removal takes from a full grid (Lemma 1)."""
    take = [0] * (TEN + 1)
    take[TEN] = count[TEN]
    for low in range(1, 5):
        take[low] = take[TEN - low] = min(count[low], count[TEN - low])
    take[5] = count[5] // 2 * 2
    return take


def trajectory(ranks: tuple[int, ...] | list[int], rules: Rules) -> Trajectory:
    """Follow a deal's forced course under ``rules`` (which must be covered)."""
    stop_at_courts = rules.goal is Goal.COURTS
    by_rank: dict[int, list[int]] = {r: [] for r in range(1, TEN + 1)}
    courts = numbers = drawn = 0
    rounds: list[tuple[int, int]] = []
    removals: list[tuple[tuple[int, ...], ...]] = []
    while True:
        first = drawn
        while courts + numbers < GRID and drawn < DECK_SIZE:
            rank = ranks[drawn]
            if rank > TEN:
                courts += 1
            else:
                by_rank[rank].append(drawn)
                numbers += 1
            drawn += 1
            if stop_at_courts and courts == COURTS:
                break
        rounds.append((first, drawn))
        if drawn == DECK_SIZE and rules.goal is Goal.CLEAR:
            # the empty stock opens removal, and the whole pack is balanced: every number card pairs off
            final = removal_sets(by_rank)
            if final:
                removals.append(tuple(final))
            return Trajectory(True, drawn, tuple(rounds), tuple(removals))
        if (stop_at_courts and courts == COURTS) or drawn == DECK_SIZE:
            return Trajectory(True, drawn, tuple(rounds), tuple(removals))
        sets = removal_sets(by_rank)
        if not sets:
            return Trajectory(False, drawn, tuple(rounds), tuple(removals))
        gone = {i for s in sets for i in s}
        for rank, indices in by_rank.items():
            by_rank[rank] = [i for i in indices if i not in gone]
        numbers -= len(gone)
        removals.append(tuple(sets))


def deal_round(
    ranks: tuple[int, ...] | list[int], counts: list[int], courts: int, drawn: int, stop_at_courts: bool
) -> tuple[int, int, bool]:
    """Draw into the free cells, adding number cards to ``counts`` in place: (courts, drawn, won).

    A deal stops when the grid is full, the stock is out, or (goal ``courts``) the
    twelfth court card is placed, which wins.
    """
    numbers = sum(counts)
    while courts + numbers < GRID and drawn < DECK_SIZE:
        rank = ranks[drawn]
        drawn += 1
        if rank > TEN:
            courts += 1
            if stop_at_courts and courts == COURTS:
                return courts, drawn, True
        else:
            counts[rank] += 1
            numbers += 1
    return courts, drawn, False


def course_end(ranks: tuple[int, ...] | list[int], rules: Rules) -> tuple[bool, int, int]:
    """(won, cards drawn, rounds) of the forced course, by value counts alone.

    The same course as :func:`trajectory` without naming cards, for the
    statistics; by Theorem 2 and Corollary 3 ``won`` is the verdict of the deal.
    """
    return course_from(ranks, [0] * (TEN + 1), 0, 0, False, rules)


def course_from(
    ranks: tuple[int, ...] | list[int], counts: list[int], courts: int, drawn: int, removal_due: bool, rules: Rules
) -> tuple[bool, int, int]:
    """:func:`course_end` from mid-game: ``counts`` of each value and ``courts`` on the grid, ``drawn`` cards drawn.

    Lemma 1 holds from any position: which values a forced removal takes
    depends on the values on the grid, not on their cells, so a course that
    jams from here loses whatever the play. ``counts`` is changed in place.
    """
    stop_at_courts = rules.goal is Goal.COURTS
    if removal_due:  # the open removal first; once done (the grid no longer full) it has nothing left to take
        take = forced_takes(counts)
        if not any(take) and courts + sum(counts) == GRID:
            return False, drawn, 0
        for value in range(1, TEN + 1):
            counts[value] -= take[value]
    rounds = 0
    while True:
        rounds += 1
        courts, drawn, won = deal_round(ranks, counts, courts, drawn, stop_at_courts)
        if won or drawn == DECK_SIZE:
            return True, drawn, rounds
        take = forced_takes(counts)
        if not any(take):
            return False, drawn, rounds
        for value in range(1, TEN + 1):
            counts[value] -= take[value]


def _event_times(path: Trajectory) -> tuple[dict[int, int], list[int]]:
    """The time each removed card leaves, and the time of each removal phase.

    Card ``k`` is placed at time ``2k``; the removal phase after ``d`` cards runs at
    time ``2d - 1``, so every event has its own time.
    """
    leaves: dict[int, int] = {}
    phase_times = []
    for (_, end), sets in zip(path.rounds, path.removals):
        phase_times.append(2 * end - 1)
        for s in sets:
            for i in s:
                leaves[i] = 2 * end - 1
    return leaves, phase_times


def construct(ranks: tuple[int, ...] | list[int], rules: Rules, path: Trajectory | None = None) -> list[Move]:
    """A concrete line following the forced course, seating cards by backward interval scheduling.

    For a winning course this is a winning line (Theorem 2); for a jammed one it
    is a legal line up to the jam. Court cards take the cells of their own kind
    under fixed courts, which is also legal under ``swap``.
    """
    path = path or trajectory(ranks, rules)
    forever = 2 * DECK_SIZE + 1
    leaves, _ = _event_times(path)
    cell_of: dict[int, int] = {}
    closes: dict[int, int] = {c: forever for c in CENTRE_CELLS}
    for rank, homes in COURT_HOMES.items():
        arrivals = [i for i in range(path.end) if ranks[i] == rank]
        for cell, index in zip(homes, arrivals):
            cell_of[index] = cell
            closes[cell] = 2 * index
        for cell in homes[len(arrivals) :]:
            closes[cell] = forever
    numbers = [i for i in range(path.end) if ranks[i] <= TEN]
    numbers.sort(key=lambda i: (-leaves.get(i, forever), i))
    free_from = {cell: forever for cell in closes}
    for index in numbers:
        start, stop = 2 * index, leaves.get(index, forever)
        seats = [c for c in closes if closes[c] >= stop and free_from[c] >= stop]
        if not seats:  # Theorem 2 says a seat always exists: this would be a counterexample, or a bug
            raise NoSeatError(f"no cell can hold card {index + 1} from its placement until it leaves")
        cell = max(seats, key=lambda c: (closes[c], -c))
        cell_of[index] = cell
        free_from[cell] = start
    moves: list[Move] = []
    for number, (first, end) in enumerate(path.rounds):
        moves.extend(Place(cell_of[i]) for i in range(first, end))
        if number < len(path.removals):
            moves.extend(Remove(tuple(sorted(cell_of[i] for i in s))) for s in path.removals[number])
    return moves


def _draw(values: tuple[int, ...], courts: int, rank: int, stop_at_courts: bool) -> tuple[str, tuple[int, ...], int]:
    """One card into the forced course at value level: ('win' | 'loss' | 'go', values, courts)."""
    counts = list(values)
    if rank > TEN:
        courts += 1
        if stop_at_courts and courts == COURTS:
            return "win", values, courts
    else:
        counts[rank] += 1
    if courts + sum(counts) < GRID:
        return "go", tuple(counts), courts
    take = forced_takes(counts)
    return ("go" if any(take) else "loss"), tuple(c - t for c, t in zip(counts, take)), courts


def distinct_orders(counts: tuple[int, ...]) -> int:
    """How many distinct orders a multiset with these counts has."""
    result = factorial(sum(counts))
    for n in counts:
        result //= factorial(n)
    return result


def count_winning_orders(known: list[int], unseen: list[int], rules: Rules) -> tuple[int, int]:
    """(winnable, all): distinct orders of the ``unseen`` ranks after the ``known`` ones that win.

    Exact, by dynamic programming over the value-level forced course (Lemma 1,
    Theorem 2); ``known`` must not end the game by itself.
    """
    stop = rules.goal is Goal.COURTS
    values, courts = (0,) * (TEN + 1), 0  # value counts, index 1..10
    for rank in known:
        state, values, courts = _draw(values, courts, rank, stop)
        if state != "go":
            raise ValueError(f"the known cards already end the game ({state})")
    ranks = sorted(set(unseen))

    @cache
    def wins(values: tuple[int, ...], courts: int, left: tuple[int, ...]) -> int:
        if not any(left):
            return 1  # the stock ran out without a jam: all courts are placed
        total = 0
        for i, rank in enumerate(ranks):
            if left[i]:
                rest = (*left[:i], left[i] - 1, *left[i + 1 :])
                state, after, now = _draw(values, courts, rank, stop)
                if state == "win":
                    total += distinct_orders(rest)
                elif state == "go":
                    total += wins(after, now, rest)
        return total

    left = tuple(unseen.count(r) for r in ranks)
    return wins(values, courts, left), distinct_orders(left)


# The value-level search: Theorem 2 never uses forced removal, so every rule set reduces to it.
