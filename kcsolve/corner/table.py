"""A hand at the table: the human in seat 1 against bots, as plain Python; the command line only reads and prints."""

from __future__ import annotations

from kcsolve.corner.bots import make_bot, view_of
from kcsolve.corner.engine import (
    END,
    IllegalCornerMoveError,
    InvalidCornerMoveError,
    Move,
    Position,
    deal_hand,
    parse_move,
    seeded_deck,
)
from kcsolve.corner.record import CornerRecord, describe_result, result_of
from kcsolve.corner.render import draw_position
from kcsolve.corner.rules import CornerRules
from kcsolve.corner.turn import best_turn

HELP = "Moves: 'play QH N', 'merge S N', 'under 9H W' (piles N E S W NE SE SW NW); 'end', 'hint', 'quit'."


class Table:
    """One hand: seat 1 is the human, every other seat a bot of one kind."""

    def __init__(self, seed: int, players: int, bot_name: str, rules: CornerRules) -> None:
        self.seed, self.players, self.rules = seed, players, rules
        self.bots = [make_bot(bot_name, seed + s) for s in range(players)]
        self.position: Position = deal_hand(seeded_deck(seed), players, rules)
        self.moves: list[Move] = []

    @property
    def opening(self) -> str:
        """The line that opens the hand."""
        return f"Kings Corner, deal {self.seed}, {self.players} players, rules {self.rules}. You are player 1."

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self.position.over

    def bots_play(self) -> list[str]:
        """Let the bots play until it is the human's turn or the hand is over; a line for each move but an end."""
        lines = []
        while not self.position.over and self.position.player != 0:
            move = self.bots[self.position.player].choose(view_of(self.position))
            if move is not END:
                lines.append(f"Player {self.position.player + 1}: {move}")
            self._play(move)
        return lines

    def screen(self) -> str:
        """The table as the human in seat 1 sees it."""
        return draw_position(self.position, seat=0)

    def command(self, text: str) -> list[str]:
        """Carry out one typed command of the human's; what to show (a mistake gets one line)."""
        if text == "help":
            return [HELP]
        if text == "hint":
            turn = best_turn(self.position.piles, self.position.hand, self.position.rules)
            return ["Hint: " + (", ".join(str(m) for m in turn.line) + ", end" if turn.line else "end your turn")]
        try:
            move = parse_move(text)
            self.position.play(move)
        except (InvalidCornerMoveError, IllegalCornerMoveError) as exc:
            return [f"Not allowed: {exc}"]
        self._play(move)
        return []

    def ending(self) -> list[str]:
        """The whole table and the result, once the hand is over."""
        return [draw_position(self.position), describe_result(self.position)]

    def record(self) -> CornerRecord:
        """The hand as a record."""
        return CornerRecord(seeded_deck(self.seed), self.players, self.rules, tuple(self.moves), self.seed,
                            result_of(self.position))

    def _play(self, move: Move) -> None:
        self.position = self.position.play(move)
        self.moves.append(move)
