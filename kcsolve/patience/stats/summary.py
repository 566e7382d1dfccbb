"""What a stored seed range says: wins, losses, undecided deals, how losses happen, and the interval."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from kcsolve.common.interval import wilson
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.solution import LOSS_REASONS
from kcsolve.patience.stats.store import ReadOnlyRun, ResultsStore
from kcsolve.patience.stats.verdicts import UNDECIDED, WIN, describe

REASONS = LOSS_REASONS


@dataclass(frozen=True)
class Summary:
    """The win rate of a seed range and how its losses happen."""

    rules: str
    start: int
    count: int
    won: int
    lost: int
    undecided: int
    loss_reasons: dict[str, int]
    loss_deals: dict[int, int]

    @property
    def decided(self) -> int:
        """Deals with a verdict."""
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        """Wins among decided deals."""
        return self.won / self.decided if self.decided else None

    @property
    def ci95(self) -> tuple[float, float] | None:
        """The 95% Wilson score interval of the win rate."""
        return wilson(self.won, self.decided) if self.decided else None

    @property
    def bounds(self) -> tuple[float, float]:
        """Proven wins over all deals, and one minus proven losses over all deals."""
        return self.won / self.count, 1 - self.lost / self.count

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return {
            "rules": self.rules,
            "start": self.start,
            "count": self.count,
            "won": self.won,
            "lost": self.lost,
            "undecided": self.undecided,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95) if self.ci95 else None,
            "win_rate_is": WIN_RATE_IS,
            "bounds": list(self.bounds),
            "bounds_are": "the share winnable if every undecided deal were lost, or won",
            "loss_reasons": self.loss_reasons,
            "loss_deals": {str(k): v for k, v in sorted(self.loss_deals.items())},
        }


WIN_RATE_IS = (
    "share of the deals winnable by a player who sees the deck (won, lost and undecided count verdicts, "
    "not games played): an upper bound on the win rate of a player who cannot"
)


def summarize(store: ResultsStore | ReadOnlyRun, rules: Rules, start: int, count: int) -> Summary:
    """Count the stored verdicts of a seed range."""
    tally = store.tally(str(rules), start, count)
    reasons = {code: 0 for code in REASONS}
    deals: dict[int, int] = {}
    for code, n in tally.counts.items():
        result, reason, round_no = describe(code)
        if result == "loss":
            reasons[reason or "full"] += n
            if round_no is not None:
                deals[round_no] = deals.get(round_no, 0) + n
    return Summary(str(rules), start, count, tally.won, tally.lost, tally.undecided, reasons, deals)


# the verdicts a range's deal numbers are listed by: won, lost whatever the play, or undecided
LISTED: dict[str, Callable[[int], bool]] = {
    "won": lambda code: code == WIN,
    "lost": lambda code: code > UNDECIDED,
    "undecided": lambda code: code == UNDECIDED,
}


def listed_seeds(
    store: ResultsStore | ReadOnlyRun, rules: str, start: int, count: int, listed: str
) -> Iterator[list[int]]:
    """The stored deal numbers of the range whose verdict is ``listed`` (a key of LISTED), chunk by chunk (memory
    stays one chunk's); a chunk with none gives no list."""
    if listed not in LISTED:
        raise ValueError(f"cannot list the deals by {listed!r}: by {', '.join(LISTED)}")
    wanted = LISTED[listed]
    for first, codes in store.pieces(rules, start, count):
        numbers = [first + i for i, code in enumerate(codes) if wanted(code)]
        if numbers:
            yield numbers


def verdict_json(rules: str, seed: int, verdict: tuple[int, str | None]) -> dict[str, Any]:
    """One stored deal's verdict, a (code, budget) pair, as a JSON-ready dict: the budget only where undecided."""
    code, budget = verdict
    result, reason, round_no = describe(code)
    return {
        "rules": rules,
        "seed": seed,
        "result": result,
        "reason": reason,
        "deal": round_no,
        "budget": budget if result == "unknown" else None,
    }
