"""The reachable states of the standard game for a player who cannot see the deck, counted layer by layer.

Under standard rules (forced removal, pairs, fixed courts, courts goal) a player
who cannot see the deck knows, between two draws, the number values in each class
of cells (centre, corners, Queen cells, Jack cells), the court cards placed in each
court class, and the multiset of unseen cards; nothing else bears on the rest of the
game (docs/THEORY.md, section 10). The unseen cards follow from the grid and the
cards removed, and a removal takes one card of each side of a family, two Fives or
one Ten, so the state is: per class the multiset of number values and its court
cards, and the pairs of each family, pairs of Fives and Tens removed so far.

A state is packed into one int64 (63 bits):
- bits 0-9: the centre's multiset of values (an index among the 1001 multisets of
  at most four values Ace..Ten);
- 13 bits for each court class (corners, Queen cells, Jack cells): its multiset
  index, then its court cards (0..4) above it;
- bits 49-62: the removals, in mixed radix: pairs of each family A/9, 2/8, 3/7, 4/6
  (0..4 each), pairs of Fives (0..2), Tens (0..4).

Layer d holds the states with d cards drawn, between two draws: the grid is not
full and fewer than twelve court cards are placed. From a state every unseen rank
may come next; a court card goes to its home class or loses; a number card goes to
any class with a free cell (the player's choice); a full grid then has its forced
removal, in any of the ways the player may choose which equal cards go, or loses
when nothing goes; the twelfth court card wins. States are merged by a symmetry
(``mode``): 0 none, 1 the 384 renamings of the families and of their sides, 2 those
and the 6 permutations of the three court kinds with their classes. Each merged
state carries the size of its orbit, so one count in mode 2 gives all three counts.
"""

from __future__ import annotations

import itertools

import numpy as np

from kcsolve.common.jit import jit
from kcsolve.errors import KcsolveError
from kcsolve.patience.classes import CLASS_COUNT

VALUES = 10  # Ace..Ten at index 0..9
COURT_KINDS = 3
MULTISETS = 1001  # multisets of at most four values among ten
CLASS_BITS = 13
MS_BITS = 10
REMOVED_SHIFT = 49
NO_KEY = -1
MODES = (0, 1, 2)
ORDER = (1, 384, 2304)  # the size of each mode's group
_PERMS = np.array(list(itertools.permutations((1, 2, 3))), np.int64)
COLUMNS = [x for x in itertools.product(range(5), repeat=CLASS_COUNT) if sum(x) <= 4]  # a value's cards per class


class InvalidNoPeekStateError(KcsolveError):
    """A state no standard game reaches (cards removed that are no set of pairs), or an unknown symmetry mode."""


def _multiset_tables() -> tuple[np.ndarray, np.ndarray]:
    """Each multiset's counts per value, and the index of each base-5 count code (-1 for no multiset)."""
    rows = []
    for size in range(5):
        for combo in itertools.combinations_with_replacement(range(VALUES), size):
            row = [0] * VALUES
            for value in combo:
                row[value] += 1
            rows.append(row)
    counts = np.array(rows, np.int64)
    index = np.full(5**VALUES, -1, np.int32)
    for i, row in enumerate(rows):
        index[sum(c * 5**v for v, c in enumerate(row))] = i
    return counts, index


MS_COUNTS, MS_INDEX = _multiset_tables()


@jit()
def decode(key: int, counts: np.ndarray, cnt: np.ndarray, courts: np.ndarray, removed: np.ndarray) -> None:
    """Unpack ``key`` into values per class, court cards per class and removals (pairs A/9..4/6, Five pairs, Tens)."""
    ms = key & 1023
    for v in range(VALUES):
        cnt[0, v] = counts[ms, v]
    courts[0] = 0
    for c in range(1, CLASS_COUNT):
        field = (key >> (MS_BITS + CLASS_BITS * (c - 1))) & 8191
        ms = field & 1023
        for v in range(VALUES):
            cnt[c, v] = counts[ms, v]
        courts[c] = field >> MS_BITS
    r = key >> REMOVED_SHIFT
    for t in range(4):
        removed[t] = r % 5
        r //= 5
    removed[4] = r % 3
    removed[5] = r // 3


@jit()
def encode(index: np.ndarray, cnt: np.ndarray, courts: np.ndarray, removed: np.ndarray) -> int:
    """Pack a state as it stands (no symmetry applied)."""
    key = 0
    for c in range(CLASS_COUNT):
        code = 0
        p = 1
        for v in range(VALUES):
            code += cnt[c, v] * p
            p *= 5
        ms = index[code]
        if c == 0:
            key |= ms
        else:
            key |= (ms | (courts[c] << MS_BITS)) << (MS_BITS + CLASS_BITS * (c - 1))
    r = removed[0] + 5 * (removed[1] + 5 * (removed[2] + 5 * (removed[3] + 5 * (removed[4] + 3 * removed[5]))))
    return key | (r << REMOVED_SHIFT)


@jit()
def _block(cnt: np.ndarray, removed: np.ndarray, t: int, flip: bool) -> int:
    """Family ``t`` (values t+1 and 9-t) as a number: its cards per class on each side, then its pairs removed."""
    a, b = (8 - t, t) if flip else (t, 8 - t)
    code = 0
    for c in range(CLASS_COUNT):
        code = code * 25 + cnt[c, a] * 5 + cnt[c, b]
    return code * 5 + removed[t]


@jit()
def _family_canon(cnt: np.ndarray, removed: np.ndarray, codes: np.ndarray) -> int:
    """Rename families and sides to the canonical order, in place; returns how many families are asymmetric."""
    asym = 0
    for t in range(4):
        x = _block(cnt, removed, t, False)
        y = _block(cnt, removed, t, True)
        if x != y:
            asym += 1
        codes[t] = min(x, y)
    codes[:4].sort()
    for t in range(4):
        code = codes[t]
        removed[t] = code % 5
        code //= 5
        for c in range(CLASS_COUNT - 1, -1, -1):
            cnt[c, 8 - t] = code % 5
            code //= 5
            cnt[c, t] = code % 5
            code //= 5
    return asym


@jit()
def canon(
    index: np.ndarray,
    cnt: np.ndarray,
    courts: np.ndarray,
    removed: np.ndarray,
    mode: int,
    work: np.ndarray,
    wcourts: np.ndarray,
    wremoved: np.ndarray,
    codes: np.ndarray,
    perms: np.ndarray,
) -> int:
    """The key of the state's representative under the symmetry of ``mode`` (the arguments are left unchanged)."""
    if mode == 0:
        return encode(index, cnt, courts, removed)
    best = -1
    for p in range(perms.shape[0] if mode == 2 else 1):
        work[0, :] = cnt[0, :]
        wcourts[0] = 0
        for c in range(1, CLASS_COUNT):
            src = perms[p, c - 1] if mode == 2 else c
            work[c, :] = cnt[src, :]
            wcourts[c] = courts[src]
        wremoved[:] = removed[:]
        _family_canon(work, wremoved, codes)
        key = encode(index, work, wcourts, wremoved)
        if best < 0 or key < best:
            best = key
    return best


@jit()
def _insert(table: np.ndarray, key: int) -> bool:
    """Add ``key`` to an open-addressing set (-1 marks a free slot); True when it was new."""
    mask = table.shape[0] - 1
    slot = ((key * -7046029254386353131) >> 20) & mask
    while True:
        here = table[slot]
        if here == key:
            return False
        if here == NO_KEY:
            table[slot] = key
            return True
        slot = (slot + 1) & mask


@jit()
def rehash(table: np.ndarray, size: int) -> np.ndarray:
    """The same set in a table of ``size`` slots."""
    grown = np.full(size, NO_KEY, np.int64)
    for key in table:
        if key != NO_KEY:
            _insert(grown, key)
    return grown


@jit()
def _unseen(cnt: np.ndarray, courts: np.ndarray, removed: np.ndarray, unseen: np.ndarray) -> None:
    """Unseen cards: per value (index 0..9) and per court class (index 10..12 for classes 1..3)."""
    for v in range(VALUES):
        on_grid = cnt[0, v] + cnt[1, v] + cnt[2, v] + cnt[3, v]
        if v < 4:
            gone = removed[v]
        elif v < 9 and v > 4:
            gone = removed[8 - v]
        elif v == 4:
            gone = 2 * removed[4]
        else:
            gone = removed[5]
        unseen[v] = 4 - on_grid - gone
    for c in range(1, CLASS_COUNT):
        unseen[9 + c] = 4 - courts[c]


@jit()
def _emit(table: np.ndarray, stats: np.ndarray, key: int) -> None:
    """Insert a successor and keep the count of distinct keys in ``stats[0]``."""
    if _insert(table, key):
        stats[0] += 1


@jit()
def _remove_all(
    table: np.ndarray,
    stats: np.ndarray,
    index: np.ndarray,
    cnt: np.ndarray,
    courts: np.ndarray,
    removed: np.ndarray,
    mode: int,
    work: np.ndarray,
    wcourts: np.ndarray,
    wremoved: np.ndarray,
    codes: np.ndarray,
    perms: np.ndarray,
    dist: np.ndarray,
    ndist: np.ndarray,
    pick: np.ndarray,
) -> None:
    """Every state a forced pair removal from this full grid may leave, or a loss (stats[2]) when nothing goes."""
    take = np.zeros(VALUES, np.int64)
    for v in range(VALUES):
        take[v] = cnt[0, v] + cnt[1, v] + cnt[2, v] + cnt[3, v]
    five = take[4] // 2 * 2
    for t in range(4):
        m = min(take[t], take[8 - t])
        take[t] = m
        take[8 - t] = m
    take[4] = five
    anything = False
    for v in range(VALUES):
        n = 0
        if take[v]:
            anything = True
            for x0 in range(min(take[v], cnt[0, v]) + 1):
                for x1 in range(min(take[v] - x0, cnt[1, v]) + 1):
                    for x2 in range(min(take[v] - x0 - x1, cnt[2, v]) + 1):
                        x3 = take[v] - x0 - x1 - x2
                        if x3 <= cnt[3, v]:
                            dist[v, n, 0] = x0
                            dist[v, n, 1] = x1
                            dist[v, n, 2] = x2
                            dist[v, n, 3] = x3
                            n += 1
        else:
            dist[v, 0, :] = 0
            n = 1
        ndist[v] = n
    if not anything:
        stats[2] += 1
        return
    left = np.empty((CLASS_COUNT, VALUES), np.int64)
    after = removed.copy()
    for t in range(4):
        after[t] += take[t]
    after[4] += take[4] // 2
    after[5] += take[9]
    pick[:] = 0
    while True:
        for v in range(VALUES):
            for c in range(CLASS_COUNT):
                left[c, v] = cnt[c, v] - dist[v, pick[v], c]
        _emit(table, stats, canon(index, left, courts, after, mode, work, wcourts, wremoved, codes, perms))
        v = 0
        while v < VALUES:
            pick[v] += 1
            if pick[v] < ndist[v]:
                break
            pick[v] = 0
            v += 1
        if v == VALUES:
            return


@jit()
def expand(
    states: np.ndarray,
    start: int,
    table: np.ndarray,
    stats: np.ndarray,
    limit: int,
    mode: int,
    counts: np.ndarray,
    index: np.ndarray,
    perms: np.ndarray,
) -> int:
    """Insert the successors of ``states[start:]`` into ``table``; stop before the set passes ``limit`` keys.

    Returns the index of the first state not wholly done (``len(states)`` when all
    are). ``stats`` counts: [0] keys in the table, [1] wins (state and rank), [2]
    losses (state, rank and choice).
    """
    cnt = np.zeros((CLASS_COUNT, VALUES), np.int64)
    courts = np.zeros(CLASS_COUNT, np.int64)
    removed = np.zeros(6, np.int64)
    work = np.zeros((CLASS_COUNT, VALUES), np.int64)
    wcourts = np.zeros(CLASS_COUNT, np.int64)
    wremoved = np.zeros(6, np.int64)
    codes = np.zeros(4, np.int64)
    unseen = np.zeros(13, np.int64)
    dist = np.zeros((VALUES, 40, CLASS_COUNT), np.int64)
    ndist = np.zeros(VALUES, np.int64)
    pick = np.zeros(VALUES, np.int64)
    for i in range(start, states.shape[0]):
        if stats[0] > limit:
            return i
        decode(states[i], counts, cnt, courts, removed)
        _unseen(cnt, courts, removed, unseen)
        filled = 0
        for c in range(CLASS_COUNT):
            filled += courts[c]
            for v in range(VALUES):
                filled += cnt[c, v]
        placed = courts[1] + courts[2] + courts[3]
        for c in range(1, CLASS_COUNT):  # a court card: its home class, or the game is lost
            if not unseen[9 + c]:
                continue
            free = 4 - courts[c] - cnt[c].sum()
            if not free:
                stats[2] += 1
                continue
            courts[c] += 1
            if placed + 1 == 12:
                stats[1] += 1
            elif filled + 1 == 16:
                _remove_all(
                    table,
                    stats,
                    index,
                    cnt,
                    courts,
                    removed,
                    mode,
                    work,
                    wcourts,
                    wremoved,
                    codes,
                    perms,
                    dist,
                    ndist,
                    pick,
                )
            else:
                _emit(table, stats, canon(index, cnt, courts, removed, mode, work, wcourts, wremoved, codes, perms))
            courts[c] -= 1
        for v in range(VALUES):  # a number card: any class with a free cell
            if not unseen[v]:
                continue
            for c in range(CLASS_COUNT):
                if courts[c] + cnt[c].sum() == 4:
                    continue
                cnt[c, v] += 1
                if filled + 1 == 16:
                    _remove_all(
                        table,
                        stats,
                        index,
                        cnt,
                        courts,
                        removed,
                        mode,
                        work,
                        wcourts,
                        wremoved,
                        codes,
                        perms,
                        dist,
                        ndist,
                        pick,
                    )
                else:
                    _emit(table, stats, canon(index, cnt, courts, removed, mode, work, wcourts, wremoved, codes, perms))
                cnt[c, v] -= 1
    return states.shape[0]


@jit()
def orbits(states: np.ndarray, mode: int, counts: np.ndarray, index: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """For representatives under ``mode``: [states without symmetry, states under the 384 family renamings]."""
    cnt = np.zeros((CLASS_COUNT, VALUES), np.int64)
    courts = np.zeros(CLASS_COUNT, np.int64)
    removed = np.zeros(6, np.int64)
    work = np.zeros((CLASS_COUNT, VALUES), np.int64)
    wcourts = np.zeros(CLASS_COUNT, np.int64)
    wremoved = np.zeros(6, np.int64)
    codes = np.zeros(4, np.int64)
    total = np.zeros(2, np.int64)
    for key in states:
        if mode == 0:
            total[0] += 1
            continue
        decode(key, counts, cnt, courts, removed)
        work[:, :] = cnt
        wremoved[:] = removed
        asym = _family_canon(work, wremoved, codes)
        size = 24 << asym  # 4! orders of the families, 2 orientations of each asymmetric one ...
        run = 1
        for t in range(1, 4):  # ... divided by the orders of equal families
            run = run + 1 if codes[t] == codes[t - 1] else 1
            size //= run
        if mode == 1:
            total[0] += size
            total[1] += 1
            continue
        same = 0  # court-kind permutations whose image is in the same family-renaming class
        for p in range(perms.shape[0]):
            for c in range(1, CLASS_COUNT):
                work[c, :] = cnt[perms[p, c - 1], :]
                wcourts[c] = courts[perms[p, c - 1]]
            work[0, :] = cnt[0, :]
            wcourts[0] = 0
            wremoved[:] = removed
            _family_canon(work, wremoved, codes)
            if encode(index, work, wcourts, wremoved) == key:
                same += 1
        total[0] += size * (6 // same)
        total[1] += 6 // same
    return total


def state_key(cells: list[list[int]], courts: list[int], unseen: list[int], mode: int = 0) -> int:
    """The key of a state given as class contents (values 1..10 per class), court cards per class and unseen counts.

    ``unseen[r]`` is the number of unseen cards of rank r (1..13); the removals
    follow from it and the grid.
    """
    cnt = np.zeros((CLASS_COUNT, VALUES), np.int64)
    for c, values in enumerate(cells):
        for value in values:
            cnt[c, value - 1] += 1
    on_grid = cnt.sum(axis=0).tolist()
    gone = [4 - unseen[v] - on_grid[v - 1] for v in range(1, 11)]
    for t in range(1, 5):
        if gone[t - 1] != gone[9 - t]:
            raise InvalidNoPeekStateError(f"not a standard position: {gone!r} removed is no set of pairs")
    if gone[4] % 2:
        raise InvalidNoPeekStateError(f"not a standard position: {gone[4]!r} Fives removed")
    removed = np.array([gone[0], gone[1], gone[2], gone[3], gone[4] // 2, gone[9]], np.int64)
    court_arr = np.array(courts, np.int64)
    work, wremoved = np.zeros_like(cnt), np.zeros_like(removed)
    return int(
        canon(
            MS_INDEX,
            cnt,
            court_arr,
            removed,
            mode,
            work,
            np.zeros_like(court_arr),
            wremoved,
            np.zeros(4, np.int64),
            _PERMS,
        )
    )


def describe_state(key: int) -> tuple[list[list[int]], list[int], list[int]]:
    """The class contents, court cards per class and unseen counts per rank (index 0 unused) of a key."""
    cnt = np.zeros((CLASS_COUNT, VALUES), np.int64)
    courts = np.zeros(CLASS_COUNT, np.int64)
    removed = np.zeros(6, np.int64)
    decode(key, MS_COUNTS, cnt, courts, removed)
    unseen = np.zeros(13, np.int64)
    _unseen(cnt, courts, removed, unseen)
    cells = [[v + 1 for v in range(VALUES) for _ in range(cnt[c, v])] for c in range(CLASS_COUNT)]
    by_rank = [0] + [int(unseen[v]) for v in range(VALUES)] + [int(unseen[12]), int(unseen[11]), int(unseen[10])]
    return cells, [int(x) for x in courts], by_rank


class Layers:
    """The reachable states, one layer (cards drawn) at a time, under the symmetry of ``mode``."""

    def __init__(self, mode: int = 2, start: np.ndarray | None = None, drawn: int = 0) -> None:
        if mode not in MODES:
            raise InvalidNoPeekStateError(f"unknown symmetry mode {mode!r} (modes: 0, 1, 2)")
        self.mode = mode
        self.drawn = drawn
        self.states = np.array([0], np.int64) if start is None else np.unique(np.asarray(start, np.int64))
        self.wins = 0
        self.losses = 0

    def counts(self) -> tuple[int, int, int]:
        """This layer's states: without symmetry, under the 384 family renamings, under mode's own symmetry."""
        raw, families = orbits(self.states, self.mode, MS_COUNTS, MS_INDEX, _PERMS)
        if self.mode == 0:
            return int(raw), -1, len(self.states)
        return int(raw), int(families), len(self.states)

    def step(self) -> None:
        """Move to the next layer: every state one more card drawn may reach."""
        size = 1 << 16
        while size < 2 * len(self.states):
            size *= 2
        table = np.full(size, NO_KEY, np.int64)
        stats = np.zeros(3, np.int64)
        done = 0
        while done < len(self.states):
            done = expand(
                self.states, done, table, stats, int(table.shape[0] * 0.7), self.mode, MS_COUNTS, MS_INDEX, _PERMS
            )
            if done < len(self.states):
                table = rehash(table, table.shape[0] * 2)
        found = table[table != NO_KEY]
        del table
        found.sort()
        self.states = found
        self.drawn += 1
        self.wins = int(stats[1])
        self.losses = int(stats[2])


def _symmetries(mode: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The group of ``mode`` as (permutation of the values Ace..Ten at index 0..9, permutation of the classes)."""
    found = []
    for order in itertools.permutations(range(1, 5)) if mode else [(1, 2, 3, 4)]:
        for flips in itertools.product((False, True), repeat=4) if mode else [(False,) * 4]:
            value = {5: 5, 10: 10}
            for t, (u, flip) in enumerate(zip(order, flips), start=1):
                value[t], value[10 - t] = (10 - u, u) if flip else (u, 10 - u)
            values = tuple(value[v] - 1 for v in range(1, 11))
            for kinds in itertools.permutations((1, 2, 3)) if mode == 2 else [(1, 2, 3)]:
                found.append((values, (0, *kinds)))
    return found


def _cycles(perm: tuple[int, ...]) -> list[int]:
    """The cycle lengths of a permutation."""
    seen: set[int] = set()
    lengths = []
    for start in range(len(perm)):
        length, x = 0, start
        while x not in seen:
            seen.add(x)
            x = perm[x]
            length += 1
        if length:
            lengths.append(length)
    return lengths


def _fixed_columns(length: int, classes: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Columns of class counts x a value cycle of ``length`` may carry unchanged: (cards of each value, cards added).

    A fixed placement repeats along the cycle: x with the classes' permutation
    applied at each step, back to x after ``length`` steps. Columns that would put
    more than four cards in a class are left out.
    """
    found = []
    for x in COLUMNS:
        y, added = x, [0] * CLASS_COUNT
        for _ in range(length):
            added = [a + b for a, b in zip(added, y)]
            moved = [0] * CLASS_COUNT
            for c in range(CLASS_COUNT):
                moved[classes[c]] = y[c]
            y = tuple(moved)
        if y == x and max(added) <= 4:
            found.append((sum(x), tuple(added)))
    return found


def _fixed_by_layer(values: tuple[int, ...], classes: tuple[int, ...]) -> list[int]:
    """How many placements of 0..15 cards one symmetry leaves unchanged, per number of cards."""
    ways = {(0,) * CLASS_COUNT: 1}
    for length in _cycles(values):
        adds = [added for _, added in _fixed_columns(length, classes)]
        grown: dict[tuple[int, ...], int] = {}
        for sizes, n in ways.items():
            for added in adds:
                new = tuple(a + b for a, b in zip(sizes, added))
                if max(new) <= 4:
                    grown[new] = grown.get(new, 0) + n
        ways = grown
    fixed = [0] * 16
    for kinds in itertools.product(range(5), repeat=COURT_KINDS):
        courts = (0, *kinds)
        if sum(kinds) == 12 or any(courts[classes[c]] != courts[c] for c in range(CLASS_COUNT)):
            continue
        for sizes, n in ways.items():
            if all(s + k <= 4 for s, k in zip(sizes, courts)) and sum(sizes) + sum(kinds) < 16:
                fixed[sum(sizes) + sum(kinds)] += n
    return fixed


def early_layers(mode: int = 0) -> list[int]:
    """The exact number of states with 0..15 cards drawn under the symmetry of ``mode`` (plain Python).

    Before the grid first fills nothing is removed, so a state is any placement of
    the drawn cards by class (court cards at home, at most four cards a class, at
    most four of a value or court kind), and every such placement is reached: draw
    its cards in any order and put each where it ends. Twelve court cards placed is
    a win, not a state. Orbits are counted by Burnside's lemma (the average over the
    group of the placements each symmetry fixes), each by dynamic programming over
    the cycles of the values.
    """
    if mode not in MODES:
        raise InvalidNoPeekStateError(f"unknown symmetry mode {mode!r} (modes: 0, 1, 2)")
    group = _symmetries(mode)
    done: dict[tuple, list[int]] = {}
    total = [0] * 16
    for values, classes in group:
        # the count depends only on the cycle lengths of both permutations (5 and Ten are always fixed)
        kind = (tuple(sorted(_cycles(values))), tuple(sorted(_cycles(classes))))
        if kind not in done:
            done[kind] = _fixed_by_layer(values, classes)
        total = [a + b for a, b in zip(total, done[kind])]
    assert all(n % len(group) == 0 for n in total), "Burnside's average is a whole number"
    return [n // len(group) for n in total]
