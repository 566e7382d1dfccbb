"""What every solving method returns, the budgets they obey, and the engine's check of their wins."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from kcsolve.common.cards import Card
from kcsolve.errors import KcsolveError
from kcsolve.patience.engine import IllegalMoveError, Move, Position, Remove, Status
from kcsolve.patience.record import Record, record_from_moves
from kcsolve.patience.rules import Goal, Rules
from kcsolve.patience.solve.theory import Trajectory


class InvalidBudgetError(KcsolveError):
    """A budget text that is not ``NODES``, ``SECONDSs`` or both."""


class UnsupportedMethodError(KcsolveError):
    """A method that cannot decide deals under the given rules."""


MAX_NODES = 2**63 - 1
MAX_SECONDS = 10**7  # about 115 days of CPU: beyond any search, and within every platform's timer range
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}


@dataclass(frozen=True)
class Budget:
    """Limits on one search: positions (or conflicts) and CPU seconds of this process (None = no limit).

    CPU time rather than wall-clock time, so that a busy machine reaches the same verdicts as an idle one.
    """

    nodes: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        parts = ([f"{self.seconds:g}s"] if self.seconds is not None else []) + (
            [str(self.nodes)] if self.nodes is not None else []
        )
        return ",".join(parts) or "none"

    def describe(self, unit: str) -> str:
        """The budget in words, counting ``unit`` (positions, conflicts...): '2 s of CPU or 100,000 positions'."""
        parts = ([f"{self.seconds:g} s of CPU"] if self.seconds is not None else []) + (
            [f"{self.nodes:,} {unit}"] if self.nodes is not None else []
        )
        return " or ".join(parts) or "no limit"

    @property
    def kind(self) -> str:
        """Which limits this budget sets: 'nodes', 'cpu', 'nodes+cpu' or 'none'."""
        kinds = [k for k, v in (("nodes", self.nodes), ("cpu", self.seconds)) if v is not None]
        return "+".join(kinds) or "none"


DEFAULT_BUDGET = Budget(nodes=1_000_000)  # positions for dfs, removal choices for course, conflicts for sat


def parse_budget(text: str) -> Budget:
    """Parse ``100000`` or ``1e6`` (nodes), ``2.5s``, ``500ms``, ``5m``, ``1h`` (CPU time), both, or ``none``."""
    nodes: int | None = None
    seconds: float | None = None
    if text.strip().lower() == "none":
        return Budget()
    for part in (p.strip().lower() for p in text.split(",")):
        try:
            unit = next((u for u in ("ms", "s", "m", "h") if part.endswith(u)), None)
            if unit is not None:
                seconds = float(part[: -len(unit)]) * _UNITS[unit]
                if not 0 < seconds <= MAX_SECONDS:
                    raise ValueError
            else:
                nodes = int(float(part)) if "e" in part else int(part)
                if not 0 < nodes <= MAX_NODES:
                    raise ValueError
        except (ValueError, OverflowError):
            raise InvalidBudgetError(
                f"bad budget {text!r}: use NODES (1 to 2**63-1), a CPU time such as '500ms', '2s', '5m', "
                "both ('2s,100000'), or 'none'"
            ) from None
    return Budget(nodes, seconds)


def as_budget(budget: Budget | str | None) -> Budget:
    """A budget from a Budget, its text, or None (the default budget)."""
    if budget is None:
        return DEFAULT_BUDGET
    if isinstance(budget, str):
        return parse_budget(budget)
    if not isinstance(budget, Budget):
        raise InvalidBudgetError(f"not a budget: {budget!r}")
    if budget.nodes is not None and not (isinstance(budget.nodes, int) and 0 < budget.nodes <= MAX_NODES):
        raise InvalidBudgetError(f"bad node budget {budget.nodes!r}: use 1 to 2**63-1")
    if budget.seconds is not None and not 0 < budget.seconds <= MAX_SECONDS:
        raise InvalidBudgetError(f"bad seconds budget {budget.seconds!r}: use more than 0, at most {MAX_SECONDS:,}")
    return budget


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
    # For a loss or an undecided deal, a line placing the most court cards found (None: the moves, if any).
    best: tuple[Move, ...] | None = None

    def best_line(self) -> tuple[Move, ...]:
        """How far best play gets: the best line found for a loss or an undecided deal (empty for a win)."""
        if self.result == "win":
            return ()
        return self.best if self.best is not None else self.moves

    def best_reach(self) -> tuple[int, int]:
        """(court cards placed, cards removed) by the best line, counted by the engine."""
        position = Position.start(self.deck, self.rules)
        removed = 0
        for move in self.best_line():
            position = position.play(move)
            removed += len(move.cells) if isinstance(move, Remove) else 0
        return position.courts_placed, removed

    def record(self, **extra: Any) -> Record:
        """The solution as a game record, with ``stats``, any extra keys, and for a loss its reason and best play."""
        if self.result != "win":
            if self.loss is not None:
                code, card, deal_no = self.loss
                extra["loss"] = {"reason": LOSS_REASONS[code], "card": card, "deal": deal_no}
            courts, removed = self.best_reach()
            line = record_from_moves(self.deck, self.rules, list(self.best_line()), "unknown")
            extra["best"] = {"courts": courts, "removed": removed, "moves": line.to_json()["moves"]}
        return record_from_moves(self.deck, self.rules, list(self.moves), self.result, **extra, stats=self.stats)


LOSS_REASONS = {"full": "grid full with nothing to remove", "left": "stock empty with number cards left",
                "K": "no free corner for a King", "Q": "no free Queen cell", "J": "no free Jack cell"}


def legal_prefix(deck: tuple[Card, ...], rules: Rules, moves: Sequence[Move]) -> tuple[Move, ...]:
    """The moves of a line up to the first one the engine refuses (a best-effort line must be legal)."""
    position = Position.start(deck, rules)
    for number, move in enumerate(moves):
        try:
            position = position.play(move)
        except IllegalMoveError:
            return tuple(moves[:number])
    return tuple(moves)


def win_reason(rules: Rules) -> str:
    """How a won game ends under ``rules``."""
    if rules.goal is Goal.COURTS:
        return "the twelfth court card is placed"
    if rules.goal is Goal.DEPLETE:
        return "all twelve court cards are placed and the stock is empty"
    return "the stock is empty and every number card is removed"


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
