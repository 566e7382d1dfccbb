"""Search budgets for both games: the limits (``Budget``), their text, and the meter every search spends them by."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from kcsolve.errors import KcsolveError


class InvalidBudgetError(KcsolveError):
    """A budget text that is not ``NODES``, ``SECONDSs`` or both."""


class OutOfBudget(Exception):
    """Raised by :meth:`Meter.check` inside a search, and caught by that search: it never leaves it."""


MAX_NODES = 2**63 - 1
MAX_SECONDS = 10**7  # about 115 days of CPU: beyond any search, and within every platform's timer range
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_ASCII_FIGURE = re.compile(r"[0-9.e+-]+(ms|s|m|h)?")


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


def parse_budget(text: str) -> Budget:
    """Parse ``100000`` or ``1e6`` (nodes), ``2.5s``, ``500ms``, ``5m``, ``1h`` (CPU time), both, or ``none``."""
    nodes: int | None = None
    seconds: float | None = None
    if not isinstance(text, str):
        raise InvalidBudgetError(f"a budget is a text such as '2s,100000', not {type(text).__name__}")
    if text.strip().lower() == "none":
        return Budget()
    for part in (p.strip().lower() for p in text.split(",")):
        try:
            if not _ASCII_FIGURE.fullmatch(part):  # int() and float() also take '1_000' and other scripts' digits
                raise ValueError
            unit = next((u for u in ("ms", "s", "m", "h") if part.endswith(u)), None)
            if unit is not None:
                if seconds is not None:  # a second limit of the same kind would silently replace the first
                    raise ValueError
                seconds = float(part[: -len(unit)]) * _UNITS[unit]
                if not 0 < seconds <= MAX_SECONDS:
                    raise ValueError
            else:
                if nodes is not None:
                    raise ValueError
                nodes = int(float(part)) if "e" in part else int(part)
                if not 0 < nodes <= MAX_NODES:
                    raise ValueError
        except (ValueError, OverflowError):
            raise InvalidBudgetError(f"bad budget {_shown(text)}: use NODES < 2**63, TIME ('2s') or both") from None
    return Budget(nodes, seconds)


def _shown(text: str) -> str:
    """``text`` as Python writes it, its middle cut when long: its quotes still close, so the error line can cut it."""
    return repr(text if len(text) <= 36 else f"{text[:18]}...{text[-15:]}")


def check_budget(budget: object) -> Budget:
    """``budget`` itself if it is a Budget within the limits ``parse_budget`` accepts; InvalidBudgetError if not."""
    if not isinstance(budget, Budget):
        raise InvalidBudgetError(f"not a budget: {budget!r}")
    if budget.nodes is not None and not (isinstance(budget.nodes, int) and 0 < budget.nodes <= MAX_NODES):
        raise InvalidBudgetError(f"bad node budget {budget.nodes!r}: use 1 to 2**63-1")
    if budget.seconds is not None and not 0 < budget.seconds <= MAX_SECONDS:
        raise InvalidBudgetError(f"bad seconds budget {budget.seconds!r}: use more than 0, at most {MAX_SECONDS:,}")
    return budget


class Meter:
    """One search's spending of a Budget: it counts nodes, and :meth:`check` raises OutOfBudget once it is spent.

    The CPU clock starts when the meter is made, and is read once every ``every``
    nodes, because reading it costs more than a node of the cheaper searches.
    ``budget`` may be replaced between questions to one search (a limit on the
    nodes counted in all).
    """

    def __init__(self, budget: Budget, every: int = 1) -> None:
        self.budget = budget
        self.nodes = 0
        self.every = every
        self.clock_at = every  # the count at which the CPU clock is read next
        self.deadline = None if budget.seconds is None else time.process_time() + budget.seconds

    def tick(self) -> None:
        """Count one node, then check the budget."""
        self.nodes += 1
        self.check()

    def add(self, count: int) -> None:
        """Count ``count`` nodes without checking the budget (a later :meth:`check` does)."""
        self.nodes += count

    def check(self) -> None:
        """Raise OutOfBudget if more nodes are counted than the budget allows, or its CPU time is spent."""
        limit = self.budget.nodes
        if limit is not None and self.nodes > limit:
            raise OutOfBudget
        if self.deadline is not None and self.nodes >= self.clock_at:
            self.clock_at += self.every
            if time.process_time() > self.deadline:
                raise OutOfBudget

    def over_time(self) -> bool:
        """Whether the budget's CPU time is spent (for a search that cannot tick, such as the SAT solver)."""
        return self.deadline is not None and time.process_time() > self.deadline
