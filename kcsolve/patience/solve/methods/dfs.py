"""The ``dfs`` method: an exact card-by-card depth-first search.

The search works card by card on its own compact grid (a rank per cell, 0 for
empty), and does not play moves through the engine (it takes only the cell
geometry, the move types and the set helpers ``ten_sets`` and ``reachable_sums``
from it): its wins are checked by replaying them through the engine.
Positions are memoised by a canonical key in which cells of one class are
interchangeable (under ``swap`` the Queen/Jack cells form four interchangeable
edge pairs instead): :func:`kcsolve.patience.classes.canonical_key_function`.
A full grid under forced removal is resolved in one step: the values that go
are fixed (Lemma 1), so the only choice is which cells of each rank give them up.
"""

from __future__ import annotations

import itertools
import time

from kcsolve.common.budget import Budget, Meter, OutOfBudget
from kcsolve.common.cards import DECK_SIZE, JACK, KING, QUEEN, TEN, Card, rank_symbol
from kcsolve.patience.classes import canonical_key_function
from kcsolve.patience.engine import (
    CENTRE_CELLS,
    CORNERS,
    COURT_HOMES,
    EDGES,
    JACK_CELLS,
    PARTNER,
    QUEEN_CELLS,
    Move,
    Place,
    Position,
    Remove,
    reachable_sums,
    ten_sets,
)
from kcsolve.patience.rules import STANDARD, Courts, Goal, Removal, Rules, Sets
from kcsolve.patience.solve import theory
from kcsolve.patience.solve.solution import Loss, Solution, Verdict, confirm_win, deck_ranks, jam_reason, win_reason

GRID = 16
COURTS = 12
_KIND = {KING: "King", QUEEN: "Queen", JACK: "Jack"}


def rank_grid(position: Position) -> tuple[int, ...]:
    """A position's grid as the search holds it: the rank in each cell, 0 for an empty one."""
    return tuple(0 if card is None else card.rank for card in map(position.card_at, range(GRID)))


class DepthFirstSearch:
    """Exact card-by-card depth-first search with memoised canonical positions, for every rule set.

    With ``use_theory`` (and rules where Lemma 1 holds) a jammed forced course is
    a loss without search, and the constructed line orders the moves; without it
    the search knows nothing but the rules. A full grid (or, under the clear goal,
    the empty stock) opens removal; every distinct outcome of the removals the
    rules allow is tried, best first. Positions that cannot be won because a
    court cell is held by a card no remaining card can ever pair off are cut.
    """

    def __init__(
        self, ranks: tuple[int, ...], rules: Rules, budget: Budget = Budget(), use_theory: bool = True
    ) -> None:
        self.ranks = ranks
        self.rules = rules
        self.meter = Meter(budget, every=256)
        self.key = canonical_key_function(rules)
        self.failed: set[tuple] = set()
        self.goal = rules.goal
        self.forced = rules.removal is Removal.FORCED
        self.groups = rules.sets is Sets.GROUPS
        self.furthest = (-1, "")
        self.furthest_loss: Loss | None = None
        self.use_theory = use_theory and theory.covers(rules)
        self.hint_place: dict[int, int] = {}
        self.hint_remove: dict[int, frozenset[int]] = {}
        # courts still to come after each stock position, per kind (move order and the bound)
        self.to_come = [{k: sum(1 for r in ranks[i:] if r == k) for k in COURT_HOMES} for i in range(DECK_SIZE + 1)]
        # number cards of each rank still in the stock after each stock position (the bound)
        self.in_stock = [[sum(1 for r in ranks[i:] if r == v) for v in range(TEN + 1)] for i in range(DECK_SIZE + 1)]

    def run(self) -> tuple[str, list[Move], str]:
        """Search from the empty grid: ('win', line, reason), ('loss', [], reason) or ('unknown', ...)."""
        if self.use_theory:
            path = theory.trajectory(self.ranks, self.rules)
            if not path.won:
                return "loss", [], jam_reason(path)
            self._take_hints(theory.construct(self.ranks, self.rules, path))
        line: list[Move] = []
        try:
            won = self._fill((0,) * GRID, 0, 0, line)
        except OutOfBudget:
            budget = self.meter.budget
            searched = min(self.nodes, budget.nodes or self.nodes)
            return (
                "unknown",
                [],
                f"the search budget ({budget.describe('positions')}) ran out after {searched:,} positions",
            )
        if won:
            return "win", line, win_reason(self.rules)
        depth, why = self.furthest
        return (
            "loss",
            [],
            f"every line loses ({self.nodes} positions searched); the furthest reaches card {depth}: {why}",
        )

    def run_from(self, grid: tuple[int, ...], drawn: int) -> str | None:
        """Decide a mid-game position at a fill step by search alone: 'win', 'loss' or None on budget."""
        courts = sum(1 for rank in grid if rank > TEN)
        try:
            return "win" if self._fill(grid, drawn, courts, []) else "loss"
        except OutOfBudget:
            return None

    def run_from_removal(self, grid: tuple[int, ...], drawn: int) -> str | None:
        """Decide a mid-game position with a removal open, by search alone: every way of finishing the removal."""
        if 0 not in grid:  # nothing removed yet: run_from resolves a full grid by its removals first
            return self.run_from(grid, drawn)
        courts = sum(1 for rank in grid if rank > TEN)
        try:
            ends = [after for after, _ in self._removal_outcomes(grid, stop_anywhere=not self.forced)]
            if not self.forced or not ends:  # optional removal may also stop here and deal on
                ends.append(grid)
            return "win" if any(self._fill(after, drawn, courts, []) for after in ends) else "loss"
        except OutOfBudget:
            return None

    def _take_hints(self, line: list[Move]) -> None:
        """Try the constructed line's choices first; the search still covers every alternative."""
        drawn = 0
        for move in line:
            if isinstance(move, Place):
                self.hint_place[drawn] = move.cell
                drawn += 1
            else:
                self.hint_remove[drawn] = self.hint_remove.get(drawn, frozenset()) | set(move.cells)

    @property
    def nodes(self) -> int:
        """Positions searched so far, over every question asked of this search."""
        return self.meter.nodes

    def _dead_end(self, drawn: int, why: str, code: str | None = None) -> bool:
        """Note a lost leaf (and its reason code, where it has one); always False."""
        if drawn > self.furthest[0]:
            self.furthest = (drawn, why)
            self.furthest_loss = None if code is None else Loss(code, drawn if code == "full" else drawn + 1, None)
        return False

    def _fill(self, grid: tuple[int, ...], drawn: int, courts: int, line: list[Move]) -> bool:
        """Place the next stock card every distinct way; True once a win is found."""
        if self.goal is Goal.COURTS and courts == COURTS:
            return True
        if drawn == DECK_SIZE:
            return self.goal is not Goal.CLEAR or self._clear(grid, line)
        if 0 not in grid:
            return self._remove(grid, drawn, courts, line)
        state = (drawn, self.key(grid))
        if state in self.failed:
            return False
        self.meter.tick()
        if self._hopeless(grid, drawn):
            self.failed.add(state)
            return self._dead_end(drawn, "a court cell is held by a card nothing left can pair off")
        rank = self.ranks[drawn]
        seen: set[tuple] = set()
        for cell in self._cells_in_order(grid, rank, drawn):
            after = (*grid[:cell], rank, *grid[cell + 1 :])
            key = self.key(after)
            if key in seen:
                continue
            seen.add(key)
            line.append(Place(cell))
            if self._fill(after, drawn + 1, courts + (rank > TEN), line):
                return True
            line.pop()
        if not seen:
            self._dead_end(drawn, f"{_KIND[rank]} drawn as card {drawn + 1} with nowhere to go", rank_symbol(rank))
        self.failed.add(state)
        return False

    def _hopeless(self, grid: tuple[int, ...], drawn: int) -> bool:
        """True when some court card still to come can never find a cell.

        A number card leaves only with partners that sum with it to 10. If no
        remaining card (on the grid or in the stock) can make up its partner
        sum, it holds its cell for good; too many such cells in a court class,
        or any at all under the clear goal, lose the game whatever the play.
        """
        available = list(self.in_stock[drawn])
        for rank in grid:
            if 0 < rank <= TEN:
                available[rank] += 1
        stuck_cells = []
        for cell, rank in enumerate(grid):
            if 0 < rank < TEN and self._stuck(rank, available):
                stuck_cells.append(cell)
        if not stuck_cells:
            return False
        if self.goal is Goal.CLEAR:
            return True
        come = self.to_come[drawn]
        groups: list[tuple[tuple[int, ...], tuple[int, ...]]]  # (cells, the court kinds that share them)
        if self.rules.courts is Courts.ROYALS:
            groups = [(EDGES, (KING, QUEEN, JACK))]
        elif self.rules.courts is Courts.SWAP:
            groups = [(CORNERS, (KING,)), (QUEEN_CELLS + JACK_CELLS, (QUEEN, JACK))]
        else:
            groups = [(cells, (kind,)) for kind, cells in COURT_HOMES.items()]
        for cells, kinds in groups:
            held = sum(1 for c in cells if grid[c] in kinds) + sum(1 for c in stuck_cells if c in cells)
            if held + sum(come[k] for k in kinds) > len(cells):
                return True
        return False

    def _stuck(self, rank: int, available: list[int]) -> bool:
        """Whether a card of ``rank`` can never be removed with the cards still available."""
        if not self.groups:
            partner = TEN - rank
            return available[partner] < (2 if partner == rank else 1)
        others = available[:]
        others[rank] -= 1
        others[TEN] = 0
        return not (reachable_sums(others) >> (TEN - rank) & 1)

    def _cells_in_order(self, grid: tuple[int, ...], rank: int, drawn: int) -> list[int]:
        """Legal cells for ``rank``, the hinted one first, then the most promising."""
        hinted = self.hint_place.get(drawn)
        if rank > TEN:
            if self.rules.courts is Courts.ROYALS:
                cells = [c for c in EDGES if grid[c] == 0]
            elif rank == KING or self.rules.courts is Courts.FIXED:
                cells = [c for c in COURT_HOMES[rank] if grid[c] == 0]
            else:
                other = QUEEN + JACK - rank
                cells = [c for c in QUEEN_CELLS + JACK_CELLS if grid[c] == 0 and grid[PARTNER[c]] != other]
            return sorted(cells, key=lambda c: (c != hinted, grid[PARTNER.get(c, c)] != rank))  # type: ignore[index]  # mypy takes dict.get for its no-default overload inside a lambda; c is an int
        slack = {}
        for kind, homes in COURT_HOMES.items():
            slack[kind] = sum(1 for c in homes if grid[c] == 0) - self.to_come[drawn][kind]
        order = {c: 99 for c in CENTRE_CELLS}
        for kind, homes in COURT_HOMES.items():
            for c in homes:
                order[c] = slack[kind]
        if hinted is not None:
            order[hinted] = 100
        return sorted((c for c in range(GRID) if grid[c] == 0), key=lambda c: -order[c])

    def _remove(self, grid: tuple[int, ...], drawn: int, courts: int, line: list[Move]) -> bool:
        """Resolve a full grid: try each distinct outcome of the removals allowed."""
        state = (drawn, self.key(grid))
        if state in self.failed:
            return False
        self.meter.tick()
        hinted = self.hint_remove.get(drawn, frozenset())
        if self.forced and not self.groups:
            options = self._forced_pair_options(grid, hinted)
        else:
            options = self._removal_outcomes(grid, stop_anywhere=not self.forced)
        if not options:
            self.failed.add(state)
            return self._dead_end(drawn, f"grid full with nothing to remove after card {drawn}", "full")
        for after, sets in options:
            line.extend(Remove(s) for s in sets)
            if self._fill(after, drawn, courts, line):
                return True
            del line[len(line) - len(sets) :]
        self.failed.add(state)
        return False

    def _clear(self, grid: tuple[int, ...], line: list[Move]) -> bool:
        """With the stock empty, find removals that leave no number card (the clear goal)."""
        for after, sets in self._removal_outcomes(grid, stop_anywhere=False):
            if all(rank == 0 or rank > TEN for rank in after):
                line.extend(Remove(s) for s in sets)
                return True
        return all(rank == 0 or rank > TEN for rank in grid)

    def _sets_in(self, grid: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The sets of cells the rules allow to be removed together from ``grid``."""
        return ten_sets([(c, r) for c, r in enumerate(grid) if 0 < r <= TEN], self.rules.sets)

    def _removal_outcomes(
        self, grid: tuple[int, ...], stop_anywhere: bool
    ) -> list[tuple[tuple[int, ...], list[tuple[int, ...]]]]:
        """Every distinct grid a sequence of removals can leave, most cards removed first.

        ``stop_anywhere`` (optional removal): any grid after at least one removal;
        otherwise (forced removal) only grids where nothing more can go.
        """
        outcomes: list[tuple[int, tuple[int, ...], list[tuple[int, ...]]]] = []
        seen: set[tuple] = {self.key(grid)}

        def walk(current: tuple[int, ...], sets: list[tuple[int, ...]]) -> None:
            self.meter.tick()
            available = self._sets_in(current)
            if sets and (stop_anywhere or not available):
                gone = sum(len(s) for s in sets)
                freed = sum(1 for s in sets for c in s if c not in CENTRE_CELLS)
                outcomes.append((-(gone * 16 + freed), current, sets))
            for chosen in available:
                after = tuple(0 if c in chosen else r for c, r in enumerate(current))
                key = self.key(after)
                if key not in seen:
                    seen.add(key)
                    walk(after, [*sets, chosen])

        walk(grid, [])
        outcomes.sort(key=lambda o: o[0])
        return [(after, sets) for _, after, sets in outcomes]

    def _forced_pair_options(
        self, grid: tuple[int, ...], hinted: frozenset[int]
    ) -> list[tuple[tuple[int, ...], list[tuple[int, ...]]]]:
        """Every distinct outcome of forced pair removal: the values that go are fixed (Lemma 1), the cells are not."""
        cells_of: dict[int, list[int]] = {r: [] for r in range(1, TEN + 1)}
        for cell, rank in enumerate(grid):
            if rank <= TEN:
                cells_of[rank].append(cell)
        takes = theory.forced_takes([0] + [len(cells_of[r]) for r in range(1, TEN + 1)])
        if not any(takes):
            return []
        choices = [itertools.combinations(cells_of[r], takes[r]) for r in range(1, TEN + 1)]
        ranked = []
        for picked in itertools.product(*choices):
            gone = {c for group in picked for c in group}
            after = tuple(0 if c in gone else r for c, r in enumerate(grid))
            priority = 100 if gone == hinted else sum(1 for c in gone if c not in CENTRE_CELLS)
            ranked.append((-priority, picked, after))
        ranked.sort(key=lambda o: o[0])
        options = []
        seen: set[tuple] = set()
        for _, picked, after in ranked:
            key = self.key(after)
            if key not in seen:
                seen.add(key)
                options.append((after, _pair_up(dict(zip(range(1, TEN + 1), picked)))))
        return options


def _pair_up(by_rank: dict[int, tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Group the cells chosen per rank into removals: each Ten alone, the rest as pairs to 10."""
    sets: list[tuple[int, ...]] = [(c,) for c in by_rank[TEN]]
    for low in range(1, 5):
        sets.extend(tuple(sorted(p)) for p in zip(by_rank[low], by_rank[TEN - low]))
    fives = by_rank[5]
    sets.extend(tuple(sorted(p)) for p in zip(fives[0::2], fives[1::2]))
    return sets


def covers(rules: Rules) -> bool:
    """Every rule set: this method is exact under all 36 combinations."""
    return True


def solve(deck: tuple[Card, ...], rules: Rules = STANDARD, budget: Budget = Budget()) -> Solution:
    """Decide by exact depth-first search; wins are replayed by the engine."""
    started = time.perf_counter()
    search = DepthFirstSearch(deck_ranks(deck), rules, budget)
    result, moves, reason = search.run()
    if result == "win":
        confirm_win(deck, rules, moves, "dfs")
    loss = None
    if result == "loss" and search.use_theory and search.nodes == 0:
        moves = theory.construct(deck_ranks(deck), rules)
        path = theory.trajectory(deck_ranks(deck), rules)
        loss = Loss("full", path.end, path.jam_round)
    elif result == "loss":
        loss = search.furthest_loss
    stats = {"method": "dfs", "nodes": search.nodes, "seconds": round(time.perf_counter() - started, 6)}
    return Solution(deck, rules, Verdict(result), tuple(moves), reason, stats, loss)
