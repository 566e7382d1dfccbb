"""What every solving method returns, the budgets they obey, and the engine's check of their wins."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..common.cards import Card
from .engine import IllegalMoveError, Move, Position, Status
from .record import Record, record_from_moves
from .rules import Goal, Rules
from .theory import Trajectory


class InvalidBudgetError(ValueError):
    """A budget text that is not ``NODES``, ``SECONDSs`` or both."""


class UnsupportedMethodError(ValueError):
    """A method that cannot decide deals under the given rules."""


@dataclass(frozen=True)
class Budget:
    """Limits on one search: positions visited and wall-clock seconds (None = no limit)."""

    nodes: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        parts = ([f"{self.seconds:g}s"] if self.seconds is not None else []) + (
            [str(self.nodes)] if self.nodes is not None else []
        )
        return ",".join(parts) or "none"


def parse_budget(text: str) -> Budget:
    """Parse ``100000`` (nodes), ``2.5s`` (seconds) or ``2.5s,100000``."""
    nodes: int | None = None
    seconds: float | None = None
    for part in (p.strip().lower() for p in text.split(",")):
        try:
            if part.endswith("s"):
                seconds = float(part[:-1])
                if not seconds > 0:
                    raise ValueError
            else:
                nodes = int(float(part)) if "e" in part else int(part)
                if nodes <= 0:
                    raise ValueError
        except (ValueError, OverflowError):
            raise InvalidBudgetError(
                f"bad budget {text!r}: use NODES, SECONDSs or both, e.g. '100000', '2s', '2s,100000'"
            ) from None
    return Budget(nodes, seconds)


@dataclass(frozen=True)
class Solution:
    """A decided (or undecided) deal: the result, a line of moves, why, and how it was found."""

    deck: tuple[Card, ...]
    rules: Rules
    result: str
    moves: tuple[Move, ...]
    reason: str
    stats: dict[str, Any] = field(default_factory=dict)
    # For a loss, where best play fails: ('full' | 'left' | 'K' | 'Q' | 'J', card, deal); None when unknown.
    loss: tuple[str, int | None, int | None] | None = None

    def record(self, **extra: Any) -> Record:
        """The solution as a game record, with ``stats`` and any extra keys."""
        return record_from_moves(self.deck, self.rules, list(self.moves), self.result, **extra, stats=self.stats)


def win_reason(rules: Rules) -> str:
    """How a won game ends under ``rules``."""
    if rules.goal is Goal.COURTS:
        return "the twelfth court card is placed"
    if rules.goal is Goal.DEPLETE:
        return "all courts placed, stock empty"
    return "stock empty and no number card left"


def deck_ranks(deck: tuple[Card, ...]) -> tuple[int, ...]:
    """The ranks of a deck, top first."""
    return tuple(card.rank for card in deck)


def jam_reason(path: Trajectory) -> str:
    """Why a jammed course loses, in words."""
    return (
        f"grid full with nothing to remove after card {path.end} (deal {path.jam_deal}); "
        "the deck decides this whatever the play"
    )


class RejectedLineError(AssertionError):
    """The engine refused a win a solver claimed: a bug in kcsolve, never a verdict on the deal."""


def confirm_win(deck: tuple[Card, ...], rules: Rules, moves: Sequence[Move], method: str) -> None:
    """Replay a claimed win through the engine, which knows nothing of the solvers; raise if it is not one."""
    position = Position.start(deck, rules)
    try:
        for move in moves:
            position = position.play(move)
    except IllegalMoveError as exc:
        raise RejectedLineError(f"{method}: the engine refused the winning line: {exc}") from None
    if position.outcome().status is not Status.WON:
        raise RejectedLineError(f"{method}: the winning line ends {position.outcome()}")
