"""A game at the table: the human against bots, one hand or a match to the target score, as plain Python.

The command line only reads lines and prints what comes back. The human is
always player 1; the others are numbered to the left. The lead passes to the left
each hand (seed 003: the dealer moves clockwise), so in the engine, whose seat 0
plays first, the human's seat changes from hand to hand. Hand h is deal number
``seed + h``. Every legal move comes from the engine (``legal_moves``, ``play``),
so each rule option plays here as it does everywhere else.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from kcsolve.common.deal import SEED_LIMIT
from kcsolve.common.files import write_atomically
from kcsolve.common.words import plural, wrapped
from kcsolve.corner.bots.bots import BOTS, UnknownBotError, make_bot, view_of
from kcsolve.corner.bots.sim import MAX_HAND_MOVES, RunawayHandError
from kcsolve.corner.game.engine import (
    IllegalCornerMoveError,
    InvalidCornerMoveError,
    Move,
    Position,
    card_text,
    check_players,
    deal_hand,
    seeded_deck,
)
from kcsolve.corner.game.rules import CornerRules
from kcsolve.corner.records.record import CornerRecord, result_of
from kcsolve.corner.records.saved import InvalidCornerSaveError, SavedGame
from kcsolve.corner.solvers.turn import best_turn
from kcsolve.corner.table.commands import Command, InvalidCommandError, parse_command
from kcsolve.corner.table.screen import SCORE_ROWS, cut, message_lines, message_room, score_table, screen, table_lines
from kcsolve.errors import KcsolveError

HELP = [
    "Commands (upper or lower case); piles: N E S W and the corners NE SE SW NW",
    "  play QH N    a card from your hand onto a pile (or just: QH N)",
    "  merge S N    move pile S onto pile N (or just: S N)",
    "  under 9H W   a card under a pile's base (when the rules allow it)",
    "  end          end your turn (pass); the rules say when you draw",
    "  moves        your legal moves, numbered: type a number to play that move",
    "  undo         take back your last move this turn (never past a card drawn)",
    "  hint         the turn solver's best line for this turn",
    "  scores       the score table;  save FILE: save (corner play FILE resumes)",
    "  Enter        the table again;  help: this list;  quit: leave",
    "Long piles: base, '..', last cards, (size).  How to play: corner rules --how",
]
FOOTER = "play QH N  merge S N  end  moves  undo  hint  scores  save FILE  help  quit"
BETWEEN = "Enter: the next hand   scores   save FILE   help   quit"


@dataclass
class Reply:
    """What the table answers a command: lines to show, whether to show the table again, whether to stop."""

    lines: list[str] = field(default_factory=list)
    redraw: bool = False
    done: bool = False


class InvalidTableBotsError(KcsolveError):
    """Bot names that do not seat the table: one name for every bot, or one for each seat but the human's."""


def seat_bots(text: str, players: int) -> tuple[str, ...]:
    """The bot of each player from 2 on: one name for all of them, or one name each, comma-separated."""
    names = tuple(name.strip() for name in text.split(","))
    if len(names) not in (1, players - 1):
        raise InvalidTableBotsError(
            f"{len(names)} bots named for {players - 1} seats besides yours in {text!r}: "
            "name one for all or one for each"
        )
    for name in names:
        if name not in BOTS:
            raise UnknownBotError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return names * (players - 1) if len(names) == 1 else names


class Table:
    """A game in progress: the hands played so far, the hand in play, and the turn's history for undo."""

    def __init__(self, seed: int, players: int, bot_name: str, rules: CornerRules, match: bool = False) -> None:
        self.seed, self.players, self.bot_name = seed, check_players(players), bot_name
        self.rules, self.match = rules, match
        names = seat_bots(bot_name, players)
        self.bots = [make_bot(names[s - 1] if s else names[0], seed + s) for s in range(players)]  # the human's unused
        self.bot_names = names
        self.past: list[tuple[Move, ...]] = []  # the moves of each finished hand
        self.points: list[tuple[int, ...]] = []  # each finished hand's penalty points, by player
        self.outcome: list[str] = []  # how the last finished hand ended and its points
        self._deal()

    @classmethod
    def resume(cls, saved: SavedGame, source: str = "saved game") -> Table:
        """The game a save reached, every hand replayed by the engine; InvalidCornerSaveError if it cannot be."""
        table = cls(saved.seed, saved.players, saved.bots, saved.rules, saved.match)
        for number, moves in enumerate(saved.hands, start=1):
            if table.game_over:
                raise InvalidCornerSaveError(f"{source}: the game was over before hand {number}")
            if number > 1:
                table._deal()
            for index, move in enumerate(moves, start=1):
                try:
                    table._play(move)
                except IllegalCornerMoveError as exc:
                    raise InvalidCornerSaveError(f"{source}: hand {number}, move {index}: {exc}") from None
            if table.position.over:
                table._score()
            elif number < len(saved.hands):
                raise InvalidCornerSaveError(f"{source}: hand {number} is not over, yet another hand follows it")
        if table.game_over:
            raise InvalidCornerSaveError(f"{source}: the saved game is already over")
        if table.position.over:
            table._deal()
        table.seen = set(table.position.hands[table.me])
        table.sizes = [len(hand) for hand in table.position.hands]
        return table

    # the hand in play

    def _deal(self) -> None:
        """Deal the next hand, led by the player to the left of the last one's leader."""
        self.number = len(self.past)  # from 0
        self.lead = self.number % self.players
        self.me = (self.players - self.lead) % self.players  # the human's seat in the engine
        deck = seeded_deck(self.deal_number)
        self.position: Position = deal_hand(deck, self.players, self.rules)
        self.moves: list[Move] = []
        self.turn: list[Position] = []  # the positions before each of the human's moves this turn, for undo
        dealt = deck[: self.players * self.rules.hand_size]  # the hands come off the top; a draw at the deal is news
        self.sizes = [len(set(hand) & set(dealt)) for hand in self.position.hands]  # each seat's hand when last told
        self.seen = set(self.position.hands[self.me]) & set(dealt)  # every card the human has held this hand

    @property
    def deal_number(self) -> int:
        """The deal number of the hand in play."""
        return (self.seed + self.number) % SEED_LIMIT

    def name(self, seat: int) -> str:
        """An engine seat as the human knows it: 'You', 'Player 2', ..."""
        player = (self.lead + seat) % self.players
        return "You" if player == 0 else f"Player {player + 1}"

    @property
    def names(self) -> list[str]:
        """The engine seats' names."""
        return [self.name(seat) for seat in range(self.players)]

    @property
    def hand_over(self) -> bool:
        """Whether the hand in play has ended."""
        return self.position.over

    @property
    def totals(self) -> tuple[int, ...]:
        """Penalty points so far, by player."""
        return tuple(sum(hand[p] for hand in self.points) for p in range(self.players))

    @property
    def game_over(self) -> bool:
        """A single hand is over, or in a match a player has reached the target."""
        if not self.match:
            return bool(self.points)
        return bool(self.points) and max(self.totals) >= self.rules.target

    def opening(self) -> list[str]:
        """The lines that open the game."""
        game = f"a game to {self.rules.target} points" if self.match else "one hand"
        bots = (
            f"{self.bot_names[0]} bots"
            if len(set(self.bot_names)) == 1
            else ", ".join(f"{name} (player {p})" for p, name in enumerate(self.bot_names, start=2))
        )
        return [
            f"Kings Corner, deal {self.seed}, {self.players} players, rules {self.rules}: {game} against "
            f"{bots}. You are player 1; type 'help' for the commands."
        ]

    def advance(self) -> list[str]:
        """The bots play until it is the human's turn or the hand ends: a line for each bot's turn, and the draws."""
        lines = self._drawn()
        if self.me in self.position.winners and not self.position.over:
            lines.append("You went out: each other player has one last turn to go out too and tie.")
        while not self.position.over and self.position.player != self.me:
            seat, moves = self.position.player, []
            while self.position.player == seat and not self.position.over:
                if len(self.moves) >= MAX_HAND_MOVES:
                    raise RunawayHandError(f"a hand went past {MAX_HAND_MOVES:,} moves")
                move = self.bots[(self.lead + seat) % self.players].choose(view_of(self.position))
                self._play(move)
                if str(move) != "end":
                    moves.append(move)
            lines += self._told(seat, moves)
        lines += self._drawn()
        if self.position.over:
            lines += self._score()
        self.turn = []
        return lines

    def _told(self, seat: int, moves: list[Move]) -> list[str]:
        """One bot's turn in brief: its moves or a pass, the cards it drew, the cards it holds."""
        hand = self.position.hands[seat]
        drawn = len(hand) - self.sizes[seat] + sum(getattr(m, "card", None) is not None for m in moves)
        self.sizes[seat] = len(hand)
        parts = [", ".join(str(m) for m in moves) if moves else "passed"]
        if drawn:
            said = "drew " + ("a card" if drawn == 1 else f"{drawn} cards")
            first = self.rules.draw == "start" or (self.rules.until_play and moves)  # drawn before the moves
            if first:
                parts.insert(0, said)
            else:
                parts.append(said)
        if not hand and not self.position.over:  # out, and the others play on (to tie, say): a hand that ended says it
            parts.append("went out")
        elif hand:
            parts.append(f"holds {plural(len(hand), 'card')}")
        return wrapped(f"{self.name(seat)}: " + "; ".join(parts) + ".", "", "    ")

    def _drawn(self) -> list[str]:
        """'You drew ...' for the cards new in the human's hand since it was last looked at."""
        new = [card for card in self.position.hands[self.me] if card not in self.seen]
        self.seen.update(new)
        return [f"You drew {' '.join(card_text(c) for c in new)}."] if new else []

    def _play(self, move: Move) -> None:
        self.position = self.position.play(move)
        self.moves.append(move)

    def _score(self) -> list[str]:
        """Score the ended hand: what happened, each player's penalty points, and in a match the table."""
        points = self.position.penalties()
        by_player = tuple(points[(p - self.lead) % self.players] for p in range(self.players))
        self.past.append(tuple(self.moves))
        self.points.append(by_player)
        out = [seat for seat in range(self.players) if not self.position.hands[seat]]  # more than one in a tie
        names = " and ".join(self.name(seat) for seat in sorted(out, key=lambda s: self.name(s) != "You"))
        said = (
            "Impasse: nobody can draw or play."
            if not out
            else "You went out!"
            if out == [self.me]
            else f"{names} went out{' (a tie)' if len(out) > 1 else ''}."
        )
        self.outcome = [said, *wrapped(f"Penalty points this hand: {self._by_player(by_player)}.", "", "  ")]
        if not self.match:
            return list(self.outcome)
        return self._summary(SCORE_ROWS)

    def _summary(self, shown: int) -> list[str]:
        """The end of a hand in a match: its outcome, the score table with ``shown`` hand rows, what comes next."""
        return [
            *self.outcome,
            *score_table(self.player_names, self.points, self.rules.target, shown),
            *(self._game_result() if self.game_over else ["Press Enter for the next hand."]),
        ]

    def _by_player(self, points: tuple[int, ...]) -> str:
        """Points by player in words: 'you: 12, player 2: 3, ...'."""
        return ", ".join(f"{name.lower()}: {p}" for name, p in zip(self.player_names, points))

    @property
    def player_names(self) -> list[str]:
        """The players in table order, the human first."""
        return ["You", *(f"Player {p + 1}" for p in range(1, self.players))]

    def _game_result(self) -> list[str]:
        """Who won the match: the lowest total when a player has reached the target."""
        totals = self.totals
        low = min(totals)
        leaders = [self.player_names[p] for p, t in enumerate(totals) if t == low]
        reached = ", ".join(self.player_names[p] for p, t in enumerate(totals) if t >= self.rules.target)
        if len(leaders) > 1:
            result = f"The game is a tie between {' and '.join(leaders)}, with {low} points each."
        elif leaders[0] == "You":
            result = f"You win the game with the lowest total, {low} points!"
        else:
            result = f"{leaders[0]} wins the game with the lowest total, {low} points."
        return [f"{reached} reached or passed {self.rules.target} points: the game is over.", result]

    # what the human sees and types

    def screen(self, messages: list[str]) -> list[str]:
        """The whole screen above the prompt, at most 23 lines of at most 80 columns."""
        footer = "The game is over." if self.game_over else BETWEEN if self.hand_over else FOOTER
        above = self.board()
        return screen(above, self._fit_scores(message_lines(messages), message_room(above)), footer)

    def _fit_scores(self, messages: list[str], room: int) -> list[str]:
        """Messages holding the score table, made to fit ``room`` lines without losing the table's totals or what
        follows it (the game's result, where the record went): the lines before the table are cut first, then the
        table sums more of the oldest hands on its first line."""
        if not self.points or len(messages) <= room:
            return messages
        for remake in (self._summary, self._score_table):  # the end of a hand in a match, or 'scores'
            table = message_lines(remake(SCORE_ROWS))
            starts = [i for i in range(len(messages) - len(table) + 1) if messages[i : i + len(table)] == table]
            if starts:
                break
        else:
            return messages
        before, after = messages[: starts[-1]], messages[starts[-1] + len(table) :]
        shown = SCORE_ROWS
        while len(table) + len(after) > room and shown > 1:
            shown -= 1
            table = message_lines(remake(shown))
        return [*cut(before, room - len(table) - len(after)), *table, *after]

    def _score_table(self, shown: int) -> list[str]:
        """The score table of the hands played, the last ``shown`` of them a row each."""
        return score_table(self.player_names, self.points, self.rules.target if self.match else None, shown)

    def board(self) -> list[str]:
        """The table: title, totals in a match, piles, hands."""
        title = f"Kings Corner, deal {self.deal_number}, {self.players} players, rules {self.rules}"
        if self.match:
            title = f"Hand {self.number + 1}, deal {self.deal_number}, game to {self.rules.target}, rules {self.rules}"
        totals = ""
        if self.match:
            totals = f"Totals: {self._by_player(self.totals)}."
        return table_lines(title, self.position, self.me, self.names, totals)

    def command(self, text: str) -> Reply:
        """Carry out one typed line; a mistake gets one line saying why, and the game goes on."""
        try:
            command = parse_command(text)
        except InvalidCommandError as exc:
            return Reply([f"{str(exc)[0].upper()}{str(exc)[1:]}."])
        handler = {
            "help": self._help,
            "quit": self._quit,
            "scores": self._scores,
            "show": self._show,
            "next": self._show,
            "save": self._save,
        }.get(command.verb)
        if handler is not None:
            return handler(command)
        if self.hand_over:
            return Reply(["The hand is over: press Enter for the next hand, or type 'quit'."])
        return {"move": self._move, "pick": self._pick, "moves": self._moves, "undo": self._undo, "hint": self._hint}[
            command.verb
        ](command)

    def _help(self, _: Command) -> Reply:
        return Reply(list(HELP))

    def _quit(self, _: Command) -> Reply:
        return Reply(["Bye."], done=True)

    def _scores(self, _: Command) -> Reply:
        return Reply(self._score_table(SCORE_ROWS))

    def _show(self, _: Command) -> Reply:
        if self.hand_over and not self.game_over:
            self._deal()
            return Reply(
                [f"Hand {self.number + 1}: {self.name(0)} lead{'' if self.lead == 0 else 's'}.", *self.advance()],
                redraw=True,
            )
        return Reply(redraw=True)

    def _move(self, command: Command) -> Reply:
        assert command.move is not None
        before = self.position
        try:
            self._play(command.move)
        except (IllegalCornerMoveError, InvalidCornerMoveError) as exc:
            return Reply([f"Not allowed: {exc}."])
        if self.position.over or self.position.player != self.me:
            return Reply(self.advance(), redraw=True)
        drawn = self._drawn()
        if drawn:  # cards seen cannot be unseen: the moves before a draw stay
            self.turn = []
            return Reply([*drawn, "Undo stops at a draw."], redraw=True)
        self.turn.append(before)
        return Reply(redraw=True)

    def _pick(self, command: Command) -> Reply:
        moves = self.position.legal_moves()
        if command.number > len(moves):
            return Reply(
                [
                    f"There {'is' if len(moves) == 1 else 'are'} only {plural(len(moves), 'move')} now "
                    "('moves' lists them)."
                ]
            )
        return self._move(Command("move", move=moves[command.number - 1]))

    def _moves(self, _: Command) -> Reply:
        listed = [f"{n}: {move}" for n, move in enumerate(self.position.legal_moves(), start=1)]
        lines, line = [], "Moves:"
        for entry in listed:
            if len(line) + 3 + len(entry) > 80:
                lines.append(line)
                line = "      "  # under 'Moves:', so the entries line up
            line += "   " + entry
        return Reply([*lines, line])

    def _undo(self, _: Command) -> Reply:
        if not self.turn:
            return Reply(["Nothing to undo this turn."])
        self.position = self.turn.pop()
        move = self.moves.pop()
        return Reply([f"Took back {move}."], redraw=True)

    def _hint(self, _: Command) -> Reply:
        turn = best_turn(
            self.position.piles, self.position.hand, self.position.rules, self.position.marks, self.position.must_move()
        )
        line = ", ".join(str(m) for m in turn.line) + ", end" if turn.line else "end your turn: no play helps"
        return Reply(wrapped(f"Hint (the turn solver's best line): {line}.", "", "  "))

    def _save(self, command: Command) -> Reply:
        path = command.argument
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            return Reply([f"Cannot save to {path!r}: the folder {folder!r} does not exist."])
        try:
            write_atomically(path, json.dumps(self.saved().to_json(), separators=(",", ":")) + "\n")
        except OSError as exc:
            return Reply([f"Cannot save to {path!r}: {exc.strerror or exc}."])
        except KcsolveError as exc:  # a save that cannot be made is said, and the game goes on
            return Reply([f"Cannot save to {path!r}: {exc}."])
        return Reply([f"Saved hand {self.number + 1}, {plural(len(self.moves), 'move')} in, to {command.argument}."])

    def saved(self) -> SavedGame:
        """The game as a save: every hand's moves, the one in play last."""
        hands = self.past if self.hand_over else [*self.past, tuple(self.moves)]
        return SavedGame(self.seed, self.players, self.bot_name, self.rules, self.match, tuple(hands))

    def record(self) -> CornerRecord:
        """The hand in play (or just ended) as a record; an unfinished hand's result says it is not over."""
        lead = self.lead if self.match else None  # in a match each player keeps their number from hand to hand
        return CornerRecord(
            seeded_deck(self.deal_number),
            self.players,
            self.rules,
            tuple(self.moves),
            self.deal_number,
            result_of(self.position, self.lead),
            lead=lead,
        )
