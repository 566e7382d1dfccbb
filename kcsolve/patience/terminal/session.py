"""An interactive game: the state, the commands a player types, and what the game answers.

Plain Python; the command line only reads lines and prints the answers. A
command is a cell (``b2``: place the turned card there, or remove the Ten in it
during a removal), two or more cells (``b2 d2``: remove them together), or a word:
``deal``, ``undo``, ``hint``, ``peek``, ``save FILE``, ``load FILE``, ``help``,
``quit``. A mistyped or illegal command gets one line saying why, and the game
goes on. Played face up, the whole stock shows in order, the game is the one the
solver decides, and a hint is the solver's exact verdict on each option.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kcsolve.common.cards import Card, rank_symbol
from kcsolve.common.deal import SEED_LIMIT
from kcsolve.common.files import write_atomically
from kcsolve.common.words import brief, plural, wrapped
from kcsolve.errors import KcsolveError
from kcsolve.patience.engine import (
    CORNERS,
    IllegalMoveError,
    InvalidCellError,
    Move,
    Place,
    Position,
    Remove,
    Status,
    cell_index,
    cell_name,
)
from kcsolve.patience.record import FACE_UP, InvalidRecordError, Record, read_record, record_from_moves, replay
from kcsolve.patience.rules import Courts, Goal, Removal, Rules
from kcsolve.patience.solve.peek import peek
from kcsolve.patience.terminal.screen import removal_options, stock_in_order, wrap

if TYPE_CHECKING:
    from kcsolve.patience.players.hints import Hint

HELP = """Commands:
  b2          place the turned card in b2 (or, while removing, remove the
              Ten in b2)
  b2 d2       remove the cards in b2 and d2 together (a set summing to 10)
  deal        stop removing and deal on (optional removal only)
  undo        take back the last move
  hint        rank the options, without looking at the stock; each figure
              says what it is (face up: the solver says which options keep
              the deal winnable)
  sets        list every set that may be removed now (the screen shows the
              first few)
  peek        ask the solver, which sees the real stock, whether the deal
              can still be won
  auto        let forced moves play themselves (on/off): a lone legal move, a
              court card whose free cells are all alike
  save FILE   save the game as a record; load FILE to go on with a saved game
  help        this list;  quit  leave (nothing is saved)"""


# the solver's verdicts on the deal after an option, in the words a face-up hint uses, best first
SOLVER_WORDS = {
    "win": "keeps the deal winnable",
    None: "undecided (the solver ran out of time)",
    "loss": "loses the deal",
}


@dataclass
class Reply:
    """What the game answers a command: lines to show, whether to redraw, whether to stop."""

    lines: list[str] = field(default_factory=list)
    redraw: bool = False
    done: bool = False


class Session:
    """One game in progress, with its history for undo."""

    def __init__(
        self, deck: tuple[Card, ...], rules: Rules, seed: int | None = None, auto: bool = False, face_up: bool = False
    ) -> None:
        self.deck = deck
        self.rules = rules
        self.seed = seed
        self.auto = auto
        self.face_up = face_up  # the whole stock shown in order: the game the exact solver decides
        self.moves: list[Move] = []
        self.history: list[Position] = [Position.start(deck, rules)]
        self.undos = 0
        self.hints_used = 0

    @classmethod
    def resume(cls, record: Record, auto: bool = False, face_up: bool = False) -> Session:
        """The game a saved record reached, its moves replayed, face up if it was played so or ``face_up`` asks;
        IllegalRecordMoveError-style problems raise."""
        played = replay(record)
        if played.error:
            raise InvalidRecordError(f"cannot resume: illegal {played.error}")
        seed = record.extra.get("seed")
        session = cls(record.deck, record.rules, seed if _is_seed(seed) else None, auto, face_up or record.face_up)
        session.history = [played.start, *(step.position for step in played.steps)]
        session.moves = [step.move for step in played.steps]
        return session

    @property
    def over(self) -> bool:
        """True once the game is won or lost."""
        return self.position.outcome().status is not Status.UNFINISHED

    def forced_move(self) -> Move | None:
        """The move there is no real choice about: a lone legal move, or a court card whose free cells are alike."""
        position = self.position
        moves = position.legal_moves()
        if len(moves) == 1:
            return moves[0]
        card = position.next_card
        if moves and card is not None and card.is_court and not position.removing:
            cells = position.cells_for(card)
            if cells and _alike(position, cells):
                return Place(cells[0])
        return None

    def play_forced(self) -> list[str]:
        """With auto on, play forced moves until a choice is needed; one line per move played."""
        played: list[str] = []
        while self.auto and not self.over and (move := self.forced_move()) is not None:
            card = self.position.next_card
            self.history.append(self.position.play(move))
            self.moves.append(move)
            what = (
                f"placed {card} in {cell_name(move.cell)}" if isinstance(move, Place) else f"removed {_describe(move)}"
            )
            played.append(f"Auto: {what}.")
        return played

    def summary(self, winnable: str | None) -> list[str]:
        """The end of a game under its outcome (the status lines show it): what the player used, the deal's verdict."""
        could = {
            "win": "this deal could be won",
            "loss": "no play could win this deal",
            None: "the solver could not decide whether this deal could be won",
        }[winnable]
        return [
            *wrapped(
                f"{plural(len(self.moves), 'move')}, {plural(self.undos, 'undo')}, "
                f"{plural(self.hints_used, 'hint')}; {could} (exact solver).",
                "",
                "",
            ),
            "r: retry this deal   n: next deal   q: quit   (save FILE keeps this game)",
        ]

    @property
    def position(self) -> Position:
        """The current position."""
        return self.history[-1]

    def status_lines(self) -> list[str]:
        """What the player sees under the grid: the turned card, the stock, the court cards to come."""
        position = self.position
        outcome = position.outcome()
        if outcome.status is not Status.UNFINISHED:
            return wrapped(f"{outcome.status.value.capitalize()}: {outcome.reason}.", "", "")
        left = len(self.deck) - position.drawn
        to_come = Counter(rank_symbol(c.rank) for c in self.deck[position.drawn :] if c.is_court)
        courts = ", ".join(f"{kind} {to_come[kind]}" for kind in "KQJ")
        lines = (
            stock_in_order(position)
            if self.face_up
            else [f"Stock: {plural(left, 'card')} left; court cards still to come: {courts}."]
        )
        if position.removing and position.removable_sets():
            sets = [" ".join(cell_name(c) for c in s) for s in position.removable_sets()]
            lines += wrap(sets, 80, "Removal: take a Ten or a set summing to 10. Possible: ", "  ", "  ")
            if self.rules.removal is Removal.OPTIONAL:
                lines.append("(or 'deal' / a free cell to stop removing and place the next card)")
            if self.rules.removal is Removal.OPTIONAL and self.rules.goal is Goal.CLEAR and position.next_card:
                lines.append(f"The next stock card shows while you remove, as in PySolFC: {position.next_card}.")
        else:
            card = position.next_card
            lines.append(f"Card {position.drawn + 1} is turned: {card}. Where does it go?")
        return lines

    def command(self, text: str) -> Reply:
        """Carry out one typed command."""
        words = text.split()
        if not words:
            return Reply()
        verb = words[0].lower()
        handler = {
            "help": self._help,
            "quit": self._quit,
            "exit": self._quit,
            "undo": self._undo,
            "hint": self._hint,
            "peek": self._peek,
            "sets": self._sets,
            "save": self._save,
            "load": self._load,
            "deal": self._deal,
            "auto": self._auto,
        }.get(verb)
        if handler is not None:
            return handler(words[1:])
        try:
            cells = tuple(cell_index(w) for w in words)
        except InvalidCellError:
            return Reply([f"Not a command or a cell: {brief(text.strip())} (type 'help')."])
        return self._move(cells)

    def _move(self, cells: tuple[int, ...]) -> Reply:
        """Place the turned card, or remove cards."""
        position = self.position
        occupied = position.card_at(cells[0]) is not None
        move: Move = Remove(cells) if len(cells) > 1 or (position.removing and occupied) else Place(cells[0])
        if isinstance(move, Place) and position.removing and self.rules.removal is Removal.FORCED:
            return Reply(["Removal comes first: remove a Ten or a set summing to 10 (cells, e.g. 'b2 d2')."])
        try:
            after = position.play(move)
        except IllegalMoveError as exc:
            return Reply([f"Illegal: {exc}."])
        self.moves.append(move)
        self.history.append(after)
        return Reply(self.play_forced(), redraw=True)

    def _auto(self, words: list[str]) -> Reply:
        if words and words[0].lower() not in ("on", "off"):
            return Reply(["Usage: auto [on|off]"])
        self.auto = (words[0].lower() == "on") if words else not self.auto
        lines = [f"Forced moves play themselves: {'on' if self.auto else 'off'}."]
        return Reply(lines + self.play_forced(), redraw=True)

    def _help(self, _: list[str]) -> Reply:
        return Reply(HELP.splitlines())

    def _quit(self, _: list[str]) -> Reply:
        return Reply(["Bye."], done=True)

    def _undo(self, _: list[str]) -> Reply:
        if len(self.history) == 1:
            return Reply(["Nothing to undo."])
        self.history.pop()
        self.moves.pop()
        self.undos += 1
        return Reply(redraw=True)

    def _deal(self, _: list[str]) -> Reply:
        if self.rules.removal is not Removal.OPTIONAL:
            return Reply(["'deal' is for optional removal; here the grid deals on by itself after removal."])
        if not self.position.removing:
            return Reply(["Removal is not open; place the turned card."])
        return Reply(["Removal closed: choose a free cell for the next card."])

    def _hint(self, _: list[str]) -> Reply:
        from kcsolve.patience.players.hints import heading, hints

        if self.position.outcome().status is not Status.UNFINISHED:
            return Reply(["The game is over."])
        if self.face_up:
            return self._solver_hint()
        ranked = hints(self.position.view())
        self.hints_used += 1
        lines = heading(ranked)
        lines += [f"  {_describe(h.move)}: {h.chance:.0%} ({_span(h)})" for h in ranked]
        return Reply(lines)

    def _solver_hint(self) -> Reply:
        """Face up, the solver's exact verdict on every option: it keeps the deal winnable, or not, or undecided."""
        from kcsolve.patience.players.analysis import solver_options

        judged = solver_options(self.position)
        self.hints_used += 1
        lines = ["The exact solver, seeing the stock as you do, on each option (5 s of CPU each):"]
        for verdict, words in SOLVER_WORDS.items():
            moves = [_describe(move) for move, said in judged if said == verdict]
            if moves:
                lines += wrap(moves, 80, f"  {words}: ", "    ", " ")
        return Reply(lines)

    def _sets(self, _: list[str]) -> Reply:
        if not (self.position.removing and self.position.removable_sets()):
            return Reply(["No removal is open."])
        return Reply(wrap(removal_options(self.position), 80, "Sets that may go: ", "  "))

    def _peek(self, _: list[str]) -> Reply:
        verdict = peek(self.position)
        answer = {
            "win": "can still be won from here",
            "loss": "can no longer be won",
            None: "is undecided (the search ran out of time)",
        }[verdict]
        return Reply([f"Peeking at the stock: this deal {answer}."])

    def _save(self, words: list[str]) -> Reply:
        """Write the game as a record; whatever stops that is said in one line, and the game goes on."""
        if len(words) != 1:
            return Reply(["Usage: save FILE"])
        extra: dict[str, object] = {} if self.seed is None else {"seed": self.seed}
        if self.face_up:
            extra["mode"] = FACE_UP
        result = {Status.WON: "win", Status.LOST: "loss"}.get(self.position.outcome().status, "unknown")
        folder = os.path.dirname(os.path.abspath(words[0]))
        if not os.path.isdir(folder):
            return Reply([f"Cannot save to {words[0]!r}: the folder {folder!r} does not exist."])
        try:
            record = record_from_moves(self.deck, self.rules, self.moves, result, **extra).to_json()
            write_atomically(words[0], json.dumps(record, separators=(",", ":")) + "\n")
        except OSError as exc:
            return Reply([f"Cannot save to {words[0]!r}: {exc.strerror or exc}; the game goes on."])
        except KcsolveError as exc:
            return Reply([f"Cannot save to {words[0]!r}: {exc}; the game goes on."])
        return Reply([f"Saved {plural(len(self.moves), 'move')} to {words[0]}."])

    def _load(self, words: list[str]) -> Reply:
        if len(words) != 1:
            return Reply(["Usage: load FILE"])
        try:
            record = read_record(words[0])
        except InvalidRecordError as exc:
            return Reply([f"Cannot load: {exc}."])
        played = replay(record)
        if played.error:
            return Reply([f"Cannot load: {played.error}."])
        seed = record.extra.get("seed")
        self.deck, self.rules, self.seed = record.deck, record.rules, seed if _is_seed(seed) else None
        self.face_up = self.face_up or record.face_up  # a stock once seen stays face up
        self.history = [played.start, *(step.position for step in played.steps)]
        self.moves = [step.move for step in played.steps]
        return Reply([f"Loaded {plural(len(self.moves), 'move')} from {words[0]}."], redraw=True)


def _is_seed(value: object) -> bool:
    """Whether a saved game's ``seed`` is a deal number; another is dropped, so saving the game again cannot fail."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEED_LIMIT


def _alike(position: Position, cells: list[int]) -> bool:
    """Whether the free cells a court card may take are interchangeable: one class under fixed courts, or corners."""
    return position.rules.courts is Courts.FIXED or all(c in CORNERS for c in cells)


def _describe(move: Move) -> str:
    """A move as the player would type it."""
    return " ".join(cell_name(c) for c in move.cells) if isinstance(move, Remove) else cell_name(move.cell)


def _span(hint: Hint) -> str:
    """A hint's 95% interval in words, or 'exact'."""
    if not hint.playouts:
        return "exact"
    low, high = hint.interval
    return f"95% interval {low:.0%} to {high:.0%}"
