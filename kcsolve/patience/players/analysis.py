"""Analysis of a played game, move by move: was the deal still winnable, and what did each choice cost?

Two judges look at every position of the game:
- the solver, which sees the deck, says whether the deal could still be won
  (exact, within a budget: ``None`` means undecided);
- the hint engine, which cannot see the deck, gives every distinct option its
  figure (the share of sampled orders that stay winnable, an upper estimate, or
  an exact chance of winning when few cards are left), so the move played can be
  set against the best one.

A move is marked ``?`` when it gives up more than five points of figure against
the best option, and ``??`` when it turns a winnable deal into a lost one.

A game played face up (the whole stock shown in order) is the game the solver
decides, so only the solver judges it: the hint engine's figures, made for a
player who cannot see the stock, do not apply; the fatal move, if any, is set
against an option that kept the deal winnable.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from kcsolve.common.interval import wilson
from kcsolve.patience.engine import Move, Position
from kcsolve.patience.players.endgame import distinct_options, option_key
from kcsolve.patience.players.hints import EXACT_MEANING, SAMPLED_MEANING, figure_interval, hints
from kcsolve.patience.record import FACE_DOWN, FACE_UP, InvalidRecordError, Record, Step, replay
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.peek import peek

DUBIOUS = 0.05  # chance given up against the best option that earns a '?'
Z_PAIR = NormalDist().inv_cdf(1 - 0.025 / 2)  # each of two figures at 97.5%: both hold at 95% (Bonferroni)
ANALYSE_PLAYOUTS = 100


class NothingToAnalyseError(InvalidRecordError):
    """A record without moves: there is no decision to judge."""


@dataclass(frozen=True)
class MoveReport:
    """What the two judges say of one move of the game."""

    number: int
    move: Move
    before: Position
    after: Position
    winnable_before: str | None  # 'win', 'loss', or None when the search ran out of budget
    winnable_after: str | None
    options: int
    chance: float | None  # the hint engine's figure for the move played (None when it was the only option)
    best: float | None
    best_move: Move | None
    exact: bool = False  # True: the figures are exact chances of winning; False: shares of sampled orders
    playouts: int = 0  # the sampled orders behind each figure (0 when exact or without a choice)
    played_best: bool = True  # the move played is the option ranked first (up to cells of one class)
    face_up: bool = False  # judged by the solver alone: no figures, best_move one that kept the deal winnable

    def interval(self, figure: float) -> tuple[float, float]:
        """The 95% interval of one of the move's figures, ``chance`` or ``best`` (the figure itself when exact)."""
        return figure_interval(figure, self.playouts)

    @property
    def lost_chance(self) -> float:
        """How much of the figure the move gave up against the best option (0 without a choice)."""
        return 0.0 if self.chance is None or self.best is None else max(0.0, self.best - self.chance)

    @property
    def kept(self) -> float:
        """The share of the best option's figure the move kept (1 without a choice, or when nothing was left)."""
        if self.chance is None or not self.best:
            return 1.0
        return min(1.0, self.chance / self.best)

    @property
    def uncertain(self) -> bool:
        """Whether what the move gave up is sampled: another option ranked first, on sampled figures."""
        return bool(self.playouts and not self.played_best and self.best)

    def ranges(self, z: float = Z_PAIR) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where the figure given up and the share kept lie when both figures' Wilson intervals at ``z`` hold.

        With the default each figure's interval is at 97.5%, so both hold at once
        with at least 95% confidence (Bonferroni); exact or unsampled, the values
        themselves.
        """
        if not self.uncertain:
            return (self.lost_chance, self.lost_chance), (self.kept, self.kept)
        assert self.chance is not None and self.best is not None
        figure_low, figure_high = wilson(round(self.chance * self.playouts), self.playouts, z)
        best_low, best_high = wilson(round(self.best * self.playouts), self.playouts, z)
        given_up = (max(0.0, best_low - figure_high), max(0.0, best_high - figure_low))
        kept = (min(1.0, figure_low / best_high), min(1.0, figure_high / best_low) if best_low else 1.0)
        return (
            (min(given_up[0], self.lost_chance), max(given_up[1], self.lost_chance)),
            (min(kept[0], self.kept), max(kept[1], self.kept)),
        )

    @property
    def fatal(self) -> bool:
        """True when the deal was winnable before the move and not after it."""
        return self.winnable_before == "win" and self.winnable_after == "loss"

    @property
    def mark(self) -> str:
        """'??' for the fatal move, '?' for a costly one, '' otherwise."""
        return mark_for(self.fatal, self.lost_chance)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object."""
        found: dict[str, Any] = {
            "move": self.number,
            "played": str(self.move),
            "mark": self.mark,
            "winnable_before": self.winnable_before,
            "winnable_after": self.winnable_after,
            "options": self.options,
        }
        best_move = None if self.best_move is None else str(self.best_move)
        if self.face_up:
            return found | {"best_move": best_move}
        given_up, kept = self.ranges()
        return found | {
            "figure": self.chance,
            "best": self.best,
            "figure_is": None if self.chance is None else EXACT_MEANING if self.exact else SAMPLED_MEANING,
            "figure_interval": None if self.chance is None else list(self.interval(self.chance)),
            "best_interval": None if self.best is None else list(self.interval(self.best)),
            "best_move": best_move,
            "given_up": round(self.lost_chance, 6),
            "kept": round(self.kept, 6),
            "given_up_interval": [round(bound, 6) for bound in given_up],
            "kept_interval": [round(bound, 6) for bound in kept],
        }


@dataclass(frozen=True)
class Analysis:
    """Every move's report, and the summary of the game."""

    reports: tuple[MoveReport, ...]
    playouts: int
    face_up: bool = False  # the game was played face up: the solver alone judged it

    @property
    def first_fatal(self) -> MoveReport | None:
        """The move after which the deck could no longer be won, if any."""
        return next((r for r in self.reports if r.fatal), None)

    @property
    def kept_in_all(self) -> float:
        """The product over the choices of the share of the best figure kept: 1 when every choice was the best."""
        kept = 1.0
        for report in self.reports:
            kept *= report.kept
        return kept

    @property
    def kept_interval(self) -> tuple[float, float]:
        """A 95% interval for ``kept_in_all``, by Bonferroni over the sampled figures it divides.

        Only a choice whose move played was not the option ranked first, with
        sampled figures, is uncertain; for k of them each of the 2k figures gets a
        Wilson interval at level 1 - 0.05 / 2k, so with 95% confidence all hold at
        once, and with them every ratio lies between its low figure over the high
        best and its high figure over the low best.
        """
        uncertain = sum(1 for r in self.reports if r.uncertain)
        z = NormalDist().inv_cdf(1 - 0.05 / (4 * uncertain)) if uncertain else 0.0
        low = high = 1.0
        for report in self.reports:
            (_, _), (kept_low, kept_high) = report.ranges(z)
            low *= kept_low
            high *= kept_high
        kept = self.kept_in_all
        return min(low, kept), max(high, kept)

    def summary_json(self) -> dict[str, Any]:
        """The summary as a JSON object; for a face-up game, without the hint engine's figures."""
        fatal = self.first_fatal
        if self.face_up:
            return {
                "mode": FACE_UP,
                "moves": len(self.reports),
                "choices": sum(1 for r in self.reports if r.options > 1),
                "first_fatal": None if fatal is None else fatal.number,
            }
        return {
            "mode": FACE_DOWN,
            "moves": len(self.reports),
            "choices": sum(1 for r in self.reports if r.chance is not None),
            "dubious": sum(1 for r in self.reports if r.mark == "?"),
            "first_fatal": None if fatal is None else fatal.number,
            "kept_in_all": round(self.kept_in_all, 6),
            "kept_interval": [round(bound, 6) for bound in self.kept_interval],
            "playouts": self.playouts,
        }


def mark_for(fatal: bool, lost: float) -> str:
    """The annotation of a move: '??' if it threw the deal away, '?' if it lost more than five points."""
    if fatal:
        return "??"
    return "?" if lost > DUBIOUS else ""


def analyse(record: Record, rules: Rules | None = None, playouts: int = ANALYSE_PLAYOUTS, seed: int = 0) -> Analysis:
    """Judge every move of ``record``, by the solver alone when it was played face up; raise
    IllegalRecordMoveError at an illegal one."""
    played = replay(record, rules)
    if played.error:
        raise played.error
    if not played.steps:
        raise NothingToAnalyseError("the record has no moves to analyse")
    positions = [played.start, *(step.position for step in played.steps)]
    verdicts = winnable_along(positions)
    if record.face_up:
        return _face_up_analysis(played.steps, positions, verdicts, playouts)
    reports = []
    for i, step in enumerate(played.steps):
        before = positions[i]
        view = before.view()
        options = distinct_options(view)
        chance = best = best_move = None
        played_best = True
        if len(options) > 1:
            ranked = hints(view, playouts=playouts, seed=seed)
            keys = [option_key(view.after(hint.move)) for hint in ranked]
            chosen = keys.index(option_key(view.after(step.move)))  # the option it stands for, up to cells of one class
            chance, played_best = ranked[chosen].chance, chosen == 0
            best, best_move = ranked[0].chance, ranked[0].move
        exact = chance is not None and ranked[0].exact
        sampled = 0 if chance is None or exact else playouts
        reports.append(
            _report(
                step,
                before,
                verdicts,
                i,
                len(options),
                chance=chance,
                best=best,
                best_move=best_move,
                exact=exact,
                playouts=sampled,
                played_best=played_best,
            )
        )
    return Analysis(tuple(reports), playouts)


def _face_up_analysis(
    steps: tuple[Step, ...], positions: list[Position], verdicts: list[str | None], playouts: int
) -> Analysis:
    """A face-up game judged by the solver alone; the fatal move is set against an option that kept it winnable."""
    reports = []
    for i, step in enumerate(steps):
        before = positions[i]
        options = len(distinct_options(before.view()))
        fatal = verdicts[i] == "win" and verdicts[i + 1] == "loss"
        keeps = _kept_winnable(before) if fatal else None
        reports.append(
            _report(step, before, verdicts, i, options, chance=None, best=None, best_move=keeps, face_up=True)
        )
    return Analysis(tuple(reports), playouts, face_up=True)


def _report(
    step: Step, before: Position, verdicts: list[str | None], i: int, options: int, **judged: Any
) -> MoveReport:
    """Move ``i``'s report: its place in the game, the solver's verdicts before and after it, and ``judged``."""
    return MoveReport(step.number, step.move, before, step.position, verdicts[i], verdicts[i + 1], options, **judged)


def _kept_winnable(position: Position) -> Move | None:
    """The first distinct option after which the solver proves the deal still won; the rest are not searched."""
    return next((move for move, _ in distinct_options(position.view()) if peek(position.play(move)) == "win"), None)


def solver_options(position: Position) -> list[tuple[Move, str | None]]:
    """Every distinct option with the solver's verdict on the deal after it, as ``peek`` gives it: 'win' (it keeps
    the deal winnable), 'loss', or None (undecided within the budget); the winning ones first."""
    judged = [(move, peek(position.play(move))) for move, _ in distinct_options(position.view())]
    order = {"win": 0, None: 1, "loss": 2}
    return sorted(judged, key=lambda option: order[option[1]])


def winnable_along(positions: list[Position]) -> list[str | None]:
    """``peek`` of every position of a game, found by bisection: 'win', 'loss' or None (undecided).

    Winnability only ever goes from 'win' to 'loss' along a game (the moves that
    reach a winnable position can be followed by its winning line), so once the
    last winnable and the first lost position are known, so is every other one.
    Where a peek is undecided, the positions between the known ones are peeked
    one by one.
    """
    first = peek(positions[0])
    if first == "loss":
        return ["loss"] * len(positions)
    last = peek(positions[-1])
    if last == "win":
        return ["win"] * len(positions)
    if first is None or last is None:
        return [first, *(peek(position) for position in positions[1:-1]), last]
    verdicts: list[str | None] = [None] * len(positions)
    low, high = 0, len(positions) - 1
    while high - low > 1:
        middle = (low + high) // 2
        verdict = peek(positions[middle])
        if verdict is None:
            verdicts[low + 1 : high] = [peek(position) for position in positions[low + 1 : high]]
            break
        low, high = (middle, high) if verdict == "win" else (low, middle)
    verdicts[: low + 1] = ["win"] * (low + 1)
    verdicts[high:] = ["loss"] * (len(positions) - high)
    return verdicts
