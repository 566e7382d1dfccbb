"""A deliberately plain reference search, for cross-checking the solvers.

It plays single moves through the engine (one card placed, one set removed),
and exploits nothing but the interchangeability of cells of one class: two
positions whose classes hold the same cards are searched once. No theory, no
trajectory, no bounds; it shares no code with :mod:`kcsolve.patience.solve.route` or the methods.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcsolve.common.budget import Budget, Meter, OutOfBudget
from kcsolve.common.cards import Card
from kcsolve.patience.engine import (
    CENTRE_CELLS,
    CORNERS,
    EDGE_PAIRS,
    JACK_CELLS,
    QUEEN_CELLS,
    Move,
    Place,
    Position,
    Status,
)
from kcsolve.patience.rules import STANDARD, Courts, Rules


@dataclass(frozen=True)
class ReferenceResult:
    """'win' (with the line), 'loss', or 'unfinished' when the node limit ran out."""

    result: str
    moves: tuple[Move, ...]
    nodes: int


def class_key(position: Position) -> tuple:
    """The position up to swapping cells of one class: rank contents per class, sorted."""

    def ranks(cells: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted((c.rank if c else 0) for c in map(position.card_at, cells)))

    if position.rules.courts is Courts.SWAP:
        edges = tuple(sorted(ranks(pair) for pair in EDGE_PAIRS))
        return (position.drawn, position.removing, ranks(CORNERS), ranks(CENTRE_CELLS), edges)
    return (
        position.drawn,
        position.removing,
        ranks(CORNERS),
        ranks(QUEEN_CELLS),
        ranks(JACK_CELLS),
        ranks(CENTRE_CELLS),
    )


def _preference(position: Position, move: Move) -> int:
    """Move order only: centre cells first, then classes with room; removals that free court cells."""
    if isinstance(move, Place):
        if move.cell in CENTRE_CELLS:
            return -10
        home = next(h for h in (CORNERS, QUEEN_CELLS, JACK_CELLS) if move.cell in h)
        return -sum(1 for c in home if position.card_at(c) is None)
    return -sum(1 for c in move.cells if c not in CENTRE_CELLS)


def reference_solve(deck: tuple[Card, ...], rules: Rules = STANDARD, node_limit: int = 20_000) -> ReferenceResult:
    """Search single moves depth first, with a simple move order that only finds wins sooner."""
    failed: set[tuple] = set()
    line: list[Move] = []
    meter = Meter(Budget(nodes=node_limit))

    def search(position: Position) -> bool:
        status = position.outcome().status
        if status is not Status.UNFINISHED:
            return status is Status.WON
        key = class_key(position)
        if key in failed:
            return False
        meter.tick()
        children: dict[tuple, tuple[Move, Position]] = {}
        moves = sorted(position.legal_moves(), key=lambda m: _preference(position, m))
        for move in moves:
            child = position.play(move)
            children.setdefault(class_key(child), (move, child))
        for move, child in children.values():
            line.append(move)
            if search(child):
                return True
            line.pop()
        failed.add(key)
        return False

    try:
        won = search(Position.start(deck, rules))
    except OutOfBudget:
        return ReferenceResult("unfinished", (), meter.nodes)
    return ReferenceResult("win" if won else "loss", tuple(line) if won else (), meter.nodes)
