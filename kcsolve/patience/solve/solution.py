"""What every solving method returns, the default budget, and the engine's check of their wins."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, NamedTuple

from kcsolve.common.budget import Budget, check_budget, parse_budget
from kcsolve.common.cards import Card
from kcsolve.common.deal import check_seed
from kcsolve.common.frozen import FrozenMap
from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError
from kcsolve.patience.engine import IllegalMoveError, Move, Position, Remove, Status
from kcsolve.patience.pysol import check_pysol_game
from kcsolve.patience.record import InvalidRecordError, Record, record_from_moves
from kcsolve.patience.rules import Goal, Rules
from kcsolve.patience.solve.theory import Trajectory


class UnsupportedMethodError(KcsolveError):
    """A method that cannot decide deals under the given rules."""


DEFAULT_BUDGET = Budget(nodes=1_000_000)  # positions for dfs, removal choices for course, conflicts for sat


def as_budget(budget: Budget | str | int | None) -> Budget:
    """A budget from a Budget, its text, a number of nodes, or None (the default budget)."""
    if budget is None:
        return DEFAULT_BUDGET
    if isinstance(budget, str):
        return parse_budget(budget)
    if isinstance(budget, int) and not isinstance(budget, bool):
        return check_budget(Budget(nodes=budget))
    return check_budget(budget)


class Verdict(StrEnum):
    """What a solver found: a str enum, so records and JSON spell it 'win', 'loss' or 'unknown'."""

    WIN = "win"
    LOSS = "loss"
    UNKNOWN = "unknown"  # the budget ran out


class Loss(NamedTuple):
    """Where best play fails a lost deal: why (a key of LOSS_REASONS), at which card, in which deal (None: unknown)."""

    reason: str  # 'full' | 'left' | 'K' | 'Q' | 'J'
    card: int | None
    deal: int | None


@dataclass(frozen=True)
class Solution:
    """A decided (or undecided) deal: the result, a line of moves, why, and how it was found."""

    deck: tuple[Card, ...]
    rules: Rules
    result: Verdict  # the text 'win', 'loss' or 'unknown' is taken too
    moves: tuple[Move, ...]
    reason: str
    stats: Mapping[str, Any] = field(default_factory=dict)  # how it was found; read-only, a copy of what is given
    loss: Loss | None = None  # for a loss, where best play fails; None when unknown
    # For a loss or an undecided deal, a line placing the most court cards found (None: the moves, if any).
    best: tuple[Move, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "result", Verdict(self.result))
        object.__setattr__(self, "stats", FrozenMap(self.stats))

    def noting(self, **figures: Any) -> Solution:
        """The same solution with ``figures`` added to its stats."""
        return replace(self, stats={**self.stats, **figures})

    def best_line(self) -> tuple[Move, ...]:
        """How far best play gets: the best line found for a loss or an undecided deal (empty for a win)."""
        if self.result is Verdict.WIN:
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
        """The solution as a game record, with ``stats``, any extra keys, and for a loss its reason and best play.

        Extra keys are JSON values (a tuple is written as a list); a ``seed`` is a deal number and a ``pysol`` a
        PySolFC game number. InvalidRecordError refuses anything else, and the keys the record writes itself.
        """
        extra = {key: _extra_value(key, value) for key, value in extra.items()}
        if self.result is not Verdict.WIN:
            if (loss := self.loss) is not None:
                extra["loss"] = {"reason": LOSS_REASONS[loss.reason], "card": loss.card, "deal": loss.deal}
            courts, removed = self.best_reach()
            line = record_from_moves(self.deck, self.rules, list(self.best_line()), "unknown")
            extra["best"] = {"courts": courts, "removed": removed, "moves": line.to_json()["moves"]}
        stats = _json_value("stats", dict(self.stats))
        return record_from_moves(self.deck, self.rules, list(self.moves), self.result, **extra, stats=stats)


# keys a solution's record writes itself, and 'daily', which only a game played on the daily page has
OWN_KEYS = ("format", "deck", "rules", "result", "moves", "stats", "loss", "best", "daily")


def _extra_value(key: str, value: object) -> object:
    """An extra key's value as the record will hold it; InvalidRecordError if the key or the value cannot be."""
    if key in OWN_KEYS:
        raise InvalidRecordError(f"record() writes {key!r} itself: give other keys")
    if key == "seed":
        return check_seed(value)
    if key == "pysol":
        return check_pysol_game(value)  # type: ignore[arg-type]  # it checks the type too
    return _json_value(key, value)


def _json_value(key: str, value: object) -> object:
    """``value`` as JSON gives it back (a tuple as a list); InvalidRecordError if JSON cannot hold it."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except RecursionError:  # repr() would fail on it too
        raise InvalidRecordError(f"record key {key!r}: a value nested too deeply for JSON") from None
    except (TypeError, ValueError):  # not JSON, NaN or infinity, a circular value
        raise InvalidRecordError(f"record key {key!r}: not a JSON value: {brief(value)}") from None


LOSS_REASONS = {
    "full": "grid full with nothing to remove",
    "left": "stock empty with number cards left",
    "K": "no free corner for a King",
    "Q": "no free Queen cell",
    "J": "no free Jack cell",
}


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
        f"grid full with nothing to remove after card {path.end} (deal {path.jam_round}); "
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
