"""The open-hands solver for two players: with both hands and the stock order known, can the player to move
force going out first?

Exact game-tree search over whole turns: a turn's outcomes are the distinct
positions it can end in (``turn.turn_outcomes``), or going out. A player *forces*
going out within d turns when some outcome of each of their turns (and every
outcome of the other player's turns) leads to their empty hand before anyone
else's, within d of their own turns. Iterative deepening asks, for d = 1, 2, ...,
whether the player to move forces it (a win) or the other player does (a loss);
short wins and losses are found first, with a memo per (position, player, d).
The game is finite (``longest_hand``), so once d exceeds the longest possible hand,
neither forcing means the player to move cannot go out first (a loss for the
question asked). A node budget makes "undecided" the answer when it runs out, never
a guess; so does a turn with more endings than ``turn_outcomes`` lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcsolve.common.budget import Budget, Meter, OutOfBudget
from kcsolve.corner.game.engine import END, Move, Position
from kcsolve.corner.solvers.turn import turn_outcomes
from kcsolve.errors import KcsolveError

DEFAULT_NODES = 200_000
TURN_LIMIT = 100_000  # endings of one turn listed before the search answers 'undecided'


class NotTwoPlayersError(KcsolveError):
    """The open-hands solver is for two players."""


@dataclass(frozen=True)
class OpenVerdict:
    """'win' (the player to move can force going out first), 'loss', or 'unknown'; with a first turn if won."""

    result: str
    line: tuple[Move, ...]
    nodes: int


def outcomes(position: Position) -> list[tuple[tuple[Move, ...], Position]]:
    """Every distinct way the turn of the player to move can end, going out first, then fewest cards kept."""
    mover = position.player
    result = _turn_endings(position)
    result.sort(key=lambda item: (not _sole_winner(item[1], mover), len(item[1].hands[mover]), len(item[0])))
    return result


def _turn_endings(position: Position) -> list[tuple[tuple[Move, ...], Position]]:
    """The turn's distinct endings; a hand emptied under 'draw three' goes on with the cards drawn, and going
    out under 'tie' ends the turn by itself."""
    ends = turn_outcomes(position.piles, position.hand, position.rules, TURN_LIMIT, position.marks)
    if len(ends) >= TURN_LIMIT:
        raise OutOfBudget
    found: dict[Position, tuple[Move, ...]] = {}
    for line in ends.values():
        after = position
        for move in line:
            after = after.play(move)
        if after.over or after.player != position.player:
            found.setdefault(after, line)
        elif after.stock != position.stock:
            for more, later in _turn_endings(after):  # the three cards drawn on running out
                found.setdefault(later, (*line, *more))
        elif after.may_end():
            found.setdefault(after.play(END), (*line, END))
    return [(line, after) for after, line in found.items()]


def _sole_winner(position: Position, seat: int) -> bool:
    """Whether ``seat`` went out and nobody tied (under 'tie' a player who is caught up has not gone out first
    alone)."""
    return position.winners == (seat,)


def longest_hand(position: Position) -> int:
    """More turns of one player than any hand from ``position`` can last.

    Φ = 3·stock + 2·(cards in hands) + (piles holding cards) drops by at least one
    with each card drawn (-3 + 2) or played (-2, +1 at most for a pile begun) and each
    merge (-1). A turn that neither moves nor draws comes only with the stock empty
    and no move in that hand; a player who can move then must, and when nobody can
    the hand ends in an impasse. So fewer than ``players`` such turns come in a row,
    a hand lasts fewer than players·(Φ + 1) turns in all, and 'tie' adds one last round.
    """
    phi = 3 * len(position.stock) + 2 * sum(len(h) for h in position.hands) + sum(1 for p in position.piles if p)
    return position.players * (phi + 2) + 1


def solve_open(position: Position, nodes: int = DEFAULT_NODES) -> OpenVerdict:
    """Decide whether the player to move can force going out first, within ``nodes`` positions and turn ends."""
    if position.players != 2:
        raise NotTwoPlayersError(f"the open-hands solver is for 2 players, not {position.players}")
    me, other = position.player, 1 - position.player
    if position.over:  # nothing to search: the hand already says who went out
        return OpenVerdict("win" if _sole_winner(position, me) else "loss", (), 0)
    memo: dict[tuple[Position, int, int], bool] = {}
    settled: dict[tuple[Position, int], bool] = {}  # answers that no deeper search can change
    turns: dict[Position, list[tuple[tuple[Move, ...], Position]]] = {}
    meter = Meter(Budget(nodes=nodes))

    def forced(at: Position, who: int, depth: int) -> tuple[bool, bool]:
        """(can ``who`` force going out first within ``depth`` of their turns, is that so at every depth)."""
        if at.over:
            return _sole_winner(at, who), True
        if (at, who) in settled:
            return settled[at, who], True
        if depth == 0 and at.player == who:
            return False, False
        key = (at, who, depth)
        if key in memo:
            return memo[key], False
        meter.add(1)  # counted before the turn's endings are listed: a turn with too many stops the search too
        if at not in turns:
            turns[at] = outcomes(at)
            meter.add(len(turns[at]))
        meter.check()
        result, final = (False, True) if at.player == who else (True, True)
        for _, after in turns[at]:
            found, sure = forced(after, who, depth - 1 if at.player == who else depth)
            if found == (at.player == who):
                result, final = found, sure or found
                break
            final = final and sure
        if final:
            settled[at, who] = result
        else:
            memo[key] = result
        return result, final

    try:
        for depth in range(1, longest_hand(position) + 1):
            won, sure = forced(position, me, depth)
            if won:
                line = next(line for line, after in turns[position] if forced(after, me, depth - 1)[0])
                return OpenVerdict("win", line, meter.nodes)
            if sure or forced(position, other, depth)[0]:
                return OpenVerdict("loss", (), meter.nodes)
        return OpenVerdict("loss", (), meter.nodes)
    except OutOfBudget:
        return OpenVerdict("unknown", (), meter.nodes)
