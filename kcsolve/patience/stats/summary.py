"""What a stored seed range says: wins, losses, undecided deals, how losses happen, and the interval."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kcsolve.common.interval import wilson
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.solution import LOSS_REASONS
from kcsolve.patience.stats.store import ReadOnlyRun, ResultsStore
from kcsolve.patience.stats.verdicts import describe

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
