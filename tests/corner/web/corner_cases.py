"""Random Kings Corner hands played by the Python engine, written for the node checker of the browser's engine.

Each hand is dealt from a deal number, played by a random policy that prefers board moves, and summed up
as a CRC-32 over every step's player, stock size, hand and legal moves (as OpenSpiel-style action numbers,
in the engine's order), so node compares whole hands without Python writing every list out.
"""

from __future__ import annotations

import random
import zlib
from array import array
from typing import Any

from kcsolve.corner.game.engine import (
    END,
    IllegalCornerMoveError,
    Merge,
    Move,
    Play,
    Position,
    Under,
    deal_hand,
    seeded_deck,
)
from kcsolve.corner.game.rules import CornerRules, parse_corner_rules
from kcsolve.corner.records.record import result_of

# Every value of every option from `corner rules` that changes play, alone and in combinations.
VARIANTS = (
    "default",
    "draw=start",
    "until_play=yes",
    "draw_two=yes",
    "under=yes",
    "under=strict",
    "draw_three=yes",
    "dealt_kings=stay",
    "tie=yes",
    "scoring=aces",
    "hand_size=3",
    "target=25+hand_size=10",
    "tie=yes+draw_three=yes+under=strict",
    "until_play=yes+draw_two=yes+under=yes+tie=yes+scoring=aces",
    "draw=start+draw_two=yes+dealt_kings=stay+draw_three=yes+under=yes",
)
MAX_STEPS = 3_000


def action(move: Move) -> int:
    """A move's OpenSpiel-style number (docs/CORNER.md), as engine.mjs's actionOf gives it."""
    kind = type(move)  # exact types, not isinstance: this runs for every legal move of 30,000 hands
    if kind is Play:
        return move.card * 8 + move.pile  # type: ignore[union-attr]
    if kind is Under:
        return 416 + move.card * 8 + move.pile  # type: ignore[union-attr]
    if kind is Merge:
        return 832 + move.source * 8 + move.target  # type: ignore[union-attr]
    return 864


def move_of(number: int) -> Move:
    """The move an action number names."""
    if number == 864:
        return END
    if number >= 832:
        return Merge((number - 832) // 8, (number - 832) % 8)
    kind = Under if number >= 416 else Play
    return kind((number % 416) // 8, number % 8)


def step_words(position: Position, legal: list[Move]) -> array:
    """What one step's digest covers: the player, the stock's size, the hand, the legal moves in order."""
    words = [1000 + position.player, 2000 + len(position.stock)]
    words += [3000 + c for c in position.hand]
    words.append(4000)
    words += map(action, legal)
    return array("H", words)


def _probe(position: Position, legal: list[Move], rng: random.Random) -> tuple[int, str] | None:
    """A move that is not legal here and the engine's reason for refusing it, or None if the one drawn is legal."""
    number = rng.choice((rng.randrange(416), 416 + rng.randrange(416), 832 + rng.randrange(32), 864))
    move = move_of(number)
    if move in legal:
        return None
    try:
        position.play(move)
    except IllegalCornerMoveError as exc:
        return number, str(exc)
    raise AssertionError(f"{move} is not among the legal moves but the engine played it")


def play_hand(rules: CornerRules, players: int, seed: int, rng: random.Random) -> dict[str, Any]:
    """One hand by the random policy: its moves, digest, probes of illegal moves and result."""
    position = deal_hand(seeded_deck(seed), players, rules)
    crc, moves, probes = 0, list[int](), list[list[Any]]()
    while not position.over and len(moves) < MAX_STEPS:
        legal = position.legal_moves()
        crc = zlib.crc32(step_words(position, legal).tobytes(), crc)
        if rng.random() < 0.05:
            probe = _probe(position, legal, rng)
            if probe:
                probes.append([len(moves), *probe])
        board = [m for m in legal if m is not END]
        move = END if END in legal and (not board or rng.random() < 0.2) else rng.choice(board)
        moves.append(action(move))
        position = position.play(move)
    return {
        "players": players,
        "seed": str(seed),  # JSON numbers past 2**53 lose digits in JavaScript
        "moves": moves,
        "crc": crc,
        "probes": probes,
        "result": result_of(position),
        "stock": len(position.stock),
    }


def cases(variant: str, hands: int, start: int = 0) -> dict[str, Any]:
    """``hands`` random hands under one variant, the deal numbers and table sizes drawn from ``start``."""
    rules = parse_corner_rules(variant)
    rng = random.Random(f"corner-web/{variant}/{start}")
    played = [play_hand(rules, rng.choice((2, 3, 4)), rng.randrange(2**64), rng) for _ in range(hands)]
    return {"variant": variant, "rules": rules.to_json(), "hands": played}


def bot_hand(rules: CornerRules, names: tuple[str, ...], seed: int) -> dict[str, Any]:
    """One hand played by Python's bots, a bot to a seat: the moves, for node to ask its own bots the same."""
    from kcsolve.corner.bots.bots import make_bot, view_of

    position = deal_hand(seeded_deck(seed), len(names), rules)
    bots = [make_bot(name, seed) for name in names]
    moves: list[int] = []
    while not position.over and len(moves) < MAX_STEPS:
        move = bots[position.player].choose(view_of(position))
        moves.append(action(move))
        position = position.play(move)
    return {"bots": list(names), "seed": str(seed), "moves": moves, "result": result_of(position)}
