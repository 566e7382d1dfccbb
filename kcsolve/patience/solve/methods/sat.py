"""The pairing choices of a whole deal as CNF, decided by one CDCL call.

Under forced pair removal the forced course fixes, deal by deal, which values are
drawn and how many cards of each rank every removal phase takes (Lemma 1 of
docs/THEORY.md). What is left to the player is *where* each card sits (which
class of cell: centre, corners, Queen cells, Jack cells; under ``swap`` the four
edge pairs) and *which* card of a rank each removal takes. This module states
those choices as clauses, lets a CDCL solver find them, and turns a model into
concrete moves that the engine replays. It does not use the seating of Theorem 2:
the solver finds the cells itself. It does lean on the theory in two places: the
forced course (Lemma 1) fixes what each removal takes, and a jammed course is a
loss without a SAT call; and under ``royals`` court cards are given only their
fixed home cells, which is enough by the reduction of royals to fixed homes
(docs/THEORY.md, section 3).

Notation: cards are deck indices k < end (the cards the course draws); deal d
draws the cards with deal(k) = d; removal phase p follows deal p; X ranges over
the classes a card may take.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from kcsolve.common.budget import Budget, Meter
from kcsolve.common.cards import JACK, KING, QUEEN, TEN, Card
from kcsolve.errors import KcsolveError
from kcsolve.patience.engine import (
    CENTRE_CELLS,
    CORNERS,
    EDGE_PAIRS,
    JACK_CELLS,
    QUEEN_CELLS,
    Move,
    Place,
    Remove,
)
from kcsolve.patience.rules import STANDARD, Courts, Goal, Removal, Rules, Sets
from kcsolve.patience.solve import theory
from kcsolve.patience.solve.solution import (
    Loss,
    Solution,
    UnsupportedMethodError,
    Verdict,
    confirm_win,
    deck_ranks,
    win_reason,
)
from kcsolve.patience.solve.theory import Trajectory, trajectory

SOLVER_NAME = "glucose4"


class UnsupportedRulesForSat(KcsolveError):
    """Rules the encoding does not cover (removal not forced by pairs)."""


@dataclass(frozen=True)
class CellClass:
    """A class of interchangeable cells: its name, its cells, and the court ranks it admits."""

    name: str
    cells: tuple[int, ...]
    courts: frozenset[int]


def cell_classes(rules: Rules) -> tuple[CellClass, ...]:
    """The classes of the grid: four of four cells, or under ``swap`` the edge pairs apart."""
    centre = CellClass("centre", CENTRE_CELLS, frozenset())
    corners = CellClass("corners", CORNERS, frozenset({KING}))
    if rules.courts is Courts.SWAP:
        edges = tuple(CellClass(f"edge {a}{b}", (a, b), frozenset({QUEEN, JACK})) for a, b in EDGE_PAIRS)
        return (centre, corners, *edges)
    return (
        centre,
        corners,
        CellClass("queens", QUEEN_CELLS, frozenset({QUEEN})),
        CellClass("jacks", JACK_CELLS, frozenset({JACK})),
    )


@dataclass(frozen=True)
class SatResult:
    """'win' with a line, 'loss' with a reason, or 'unknown' when the solver's budget ran out."""

    result: str
    moves: tuple[Move, ...]
    reason: str
    stats: dict[str, int | float | str]


class PairingEncoding:
    """The CNF of one deal's placement and removal choices along its forced course."""

    def __init__(self, ranks: tuple[int, ...], rules: Rules, path: Trajectory) -> None:
        self.ranks = ranks
        self.rules = rules
        self.path = path
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.classes = cell_classes(rules)
        self.round_of = {k: d for d, (first, end) in enumerate(path.rounds) for k in range(first, end)}
        self.phases = len(path.removals)
        self.takes = [
            {rank: sum(1 for s in sets for i in s if ranks[i] == rank) for rank in range(1, TEN + 1)}
            for sets in path.removals
        ]
        self.cards = range(path.end)
        self.place_once()
        self.remove_as_forced()
        self.respect_capacity()
        if rules.courts is Courts.SWAP:
            self.keep_edges_unmixed()

    def x(self, card: int, klass: int) -> int:
        """Variable: ``card`` sits in class ``klass``."""
        return self.pool.id(("x", card, klass))

    def r(self, card: int, phase: int) -> int:
        """Variable: ``card`` is taken by removal phase ``phase``."""
        return self.pool.id(("r", card, phase))

    def allowed(self, card: int) -> list[int]:
        """The classes ``card`` may sit in."""
        rank = self.ranks[card]
        return [i for i, c in enumerate(self.classes) if rank <= TEN or rank in c.courts]

    def removable_in(self, card: int) -> list[int]:
        """The phases that could take ``card``: from its own deal's on, taking its rank."""
        rank = self.ranks[card]
        if rank > TEN:
            return []
        return [p for p in range(self.round_of[card], self.phases) if self.takes[p][rank]]

    def _add(self, encoded: list[list[int]]) -> None:
        """Append clauses."""
        self.clauses.extend(encoded)

    def _exactly(self, lits: list[int], bound: int) -> None:
        """sum(lits) = bound, with the trivial cases written out."""
        if bound == 0:
            self._add([[-lit] for lit in lits])
        elif bound == len(lits):
            self._add([[lit] for lit in lits])
        else:
            self._add(CardEnc.equals(lits, bound=bound, vpool=self.pool, encoding=EncType.seqcounter).clauses)

    def _at_most(self, lits: list[int], bound: int) -> None:
        """sum(lits) <= bound."""
        if len(lits) > bound:
            self._add(CardEnc.atmost(lits, bound=bound, vpool=self.pool, encoding=EncType.seqcounter).clauses)

    def place_once(self) -> None:
        """Every card drawn sits in exactly one class it may take: for all k, sum_X x(k, X) = 1."""
        for card in self.cards:
            self._exactly([self.x(card, i) for i in self.allowed(card)], 1)

    def remove_as_forced(self) -> None:
        """Each phase takes its counts, each card at most once.

        For all p and ranks v: sum over cards k of rank v with deal(k) <= p of r(k, p) = takes(p, v);
        for all k: sum_p r(k, p) <= 1.
        """
        for p in range(self.phases):
            for rank, count in self.takes[p].items():
                candidates = [k for k in self.cards if self.ranks[k] == rank and self.round_of[k] <= p]
                if count:
                    self._exactly([self.r(k, p) for k in candidates], count)
        for card in self.cards:
            self._at_most([self.r(card, p) for p in self.removable_in(card)], 1)

    def respect_capacity(self) -> None:
        """At the end of every deal no class holds more cards than cells.

        Occupancy only grows within a deal, so its end is the worst moment, and a
        court card that fits there found a free cell when it came. With
        z(k, X, d) <- x(k, X) and not (r(k, p) for deal(k) <= p < d):
        for all d, X: sum_{deal(k) <= d} z(k, X, d) <= |X| (z = x for court cards).
        """
        for d in range(len(self.path.rounds)):
            for i, klass in enumerate(self.classes):
                present = []
                for card in self.cards:
                    if self.round_of[card] > d or i not in self.allowed(card):
                        continue
                    earlier = [p for p in self.removable_in(card) if p < d]
                    if not earlier:
                        present.append(self.x(card, i))
                        continue
                    z = self.pool.id(("z", card, i, d))
                    self._add([[-self.x(card, i), z] + [self.r(card, p) for p in earlier]])
                    present.append(z)
                self._at_most(present, len(klass.cells))

    def keep_edges_unmixed(self) -> None:
        """Under swap an edge pair never holds a Queen and a Jack: not (x(q, E) and x(j, E))."""
        queens = [k for k in self.cards if self.ranks[k] == QUEEN]
        jacks = [k for k in self.cards if self.ranks[k] == JACK]
        for i, klass in enumerate(self.classes):
            if klass.courts == {QUEEN, JACK}:
                self._add([[-self.x(q, i), -self.x(j, i)] for q in queens for j in jacks])

    def decode(self, model: list[int]) -> list[Move]:
        """Turn a model into concrete moves: a free cell of the chosen class for each card, in play order."""
        true = {lit for lit in model if lit > 0}
        klass_of = {k: next(i for i in self.allowed(k) if self.x(k, i) in true) for k in self.cards}
        taken_in = {k: next((p for p in self.removable_in(k) if self.r(k, p) in true), None) for k in self.cards}
        free = {i: list(c.cells) for i, c in enumerate(self.classes)}
        cell_of: dict[int, int] = {}
        moves: list[Move] = []
        for d, (first, end) in enumerate(self.path.rounds):
            for card in range(first, end):
                cell = free[klass_of[card]].pop(0)
                cell_of[card] = cell
                moves.append(Place(cell))
            if d < self.phases:
                gone = [k for k in self.cards if taken_in[k] == d]
                moves.extend(Remove(s) for s in _pair_cells(gone, self.ranks, cell_of))
                for card in gone:
                    free[klass_of[card]].append(cell_of[card])
        return moves


def _pair_cells(cards: list[int], ranks: tuple[int, ...], cell_of: dict[int, int]) -> list[tuple[int, ...]]:
    """Group the cards one phase takes into removals: Tens alone, the rest in pairs summing to 10."""
    by_rank: dict[int, list[int]] = {}
    for card in cards:
        by_rank.setdefault(ranks[card], []).append(cell_of[card])
    sets: list[tuple[int, ...]] = [(c,) for c in by_rank.get(TEN, [])]
    for low in range(1, 5):
        sets.extend(tuple(sorted(p)) for p in zip(by_rank.get(low, []), by_rank.get(TEN - low, [])))
    fives = by_rank.get(5, [])
    sets.extend(tuple(sorted(p)) for p in zip(fives[0::2], fives[1::2]))
    return sets


def covers(rules: Rules) -> bool:
    """The rules the encoding states: forced removal by pairs, without the clearing at the empty stock."""
    return rules.removal is Removal.FORCED and rules.sets is Sets.PAIRS and rules.goal is not Goal.CLEAR


class _CpuWatchdog:
    """Interrupts the SAT solver once ``meter`` finds its CPU time spent."""

    def __init__(self, meter: Meter, interrupt: Callable[[], None]) -> None:
        self.meter = meter
        self.interrupt = interrupt
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.done.wait(0.02):
            if self.meter.over_time():
                self.interrupt()
                return

    def stop(self) -> None:
        """Stop watching."""
        self.done.set()
        self.thread.join()


def solve_sat(
    ranks: tuple[int, ...], rules: Rules, conflicts: int | None = None, seconds: float | None = None
) -> SatResult:
    """Decide a deal in one CDCL call; running out of ``conflicts`` or CPU ``seconds`` gives 'unknown', not a guess."""
    if not covers(rules):
        raise UnsupportedRulesForSat(f"the SAT encoding does not cover rules {str(rules)!r}")
    path = trajectory(ranks, rules)
    if not path.won:
        reason = (
            f"grid full with nothing to remove after card {path.end} (deal {path.jam_round}); "
            "the deck decides this whatever the play"
        )
        return SatResult("loss", (), reason, {"vars": 0, "clauses": 0, "conflicts": 0})
    encoding = PairingEncoding(ranks, rules, path)
    stats: dict[str, int | float | str] = {"vars": encoding.pool.top, "clauses": len(encoding.clauses)}
    with Solver(name=SOLVER_NAME, bootstrap_with=encoding.clauses) as solver:
        if conflicts is not None:
            solver.conf_budget(conflicts)
        # the CPU clock starts here, after the encoding, as the conflicts do
        watchdog = _CpuWatchdog(Meter(Budget(seconds=seconds)), solver.interrupt) if seconds is not None else None
        try:
            answer = solver.solve_limited(expect_interrupt=watchdog is not None)
        finally:
            if watchdog:
                watchdog.stop()
        stats["conflicts"] = solver.accum_stats().get("conflicts", 0)
        model = solver.get_model() if answer else None
    if answer is None:
        return SatResult(
            "unknown", (), f"the SAT solver's budget ran out after {stats['conflicts']:,} conflicts", stats
        )
    if not answer:
        return SatResult("loss", (), "no placement of the cards survives the forced course (UNSAT)", stats)
    assert model is not None
    return SatResult("win", tuple(encoding.decode(model)), win_reason(rules), stats)


def solve(deck: tuple[Card, ...], rules: Rules = STANDARD, budget: Budget = Budget()) -> Solution:
    """Decide by the CNF encoding of the pairing choices; the budget's nodes are solver conflicts."""
    started = time.perf_counter()
    if not covers(rules):
        raise UnsupportedMethodError(f"method 'sat' does not cover rules {str(rules)!r} (it needs forced pair removal)")
    answer = solve_sat(deck_ranks(deck), rules, conflicts=budget.nodes, seconds=budget.seconds)
    if answer.result == "win":
        confirm_win(deck, rules, answer.moves, "sat")
    stats = {"method": "sat", "nodes": answer.stats["conflicts"], **answer.stats}
    stats["seconds"] = round(time.perf_counter() - started, 6)
    loss = None
    if answer.result == "loss":
        path = theory.trajectory(deck_ranks(deck), rules)
        loss = None if path.won else Loss("full", path.end, path.jam_round)
    return Solution(deck, rules, Verdict(answer.result), answer.moves, answer.reason, stats, loss)
