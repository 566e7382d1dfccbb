"""Cards and decks: parsing and formatting in the notation of the rules.

A card is a rank (1 = Ace ... 10 = Ten, 11 = Jack, 12 = Queen, 13 = King) and
a suit (``S H D C``), or no suit at all in a rank-only deck, where suits are
unknown and each rank simply appears four times.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Iterable, NamedTuple

RANKS = "A23456789TJQK"
SUITS = "SHDC"
TEN, JACK, QUEEN, KING = 10, 11, 12, 13
DECK_SIZE = 52

_RANK_ALIASES = {"X": TEN, "10": TEN}
_TOKEN = re.compile(r"^(10|[A2-9TXJQK])([SHDC]?)$", re.IGNORECASE | re.ASCII)


class InvalidCardError(ValueError):
    """A token that does not name a card."""


class InvalidDeckError(ValueError):
    """A deck that is not exactly one full pack of 52 cards."""


class Card(NamedTuple):
    """One playing card; ``suit`` is None in a rank-only deck."""

    rank: int
    suit: str | None = None

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + (self.suit or "")

    @property
    def is_court(self) -> bool:
        """True for a King, Queen or Jack."""
        return self.rank > TEN


def rank_symbol(rank: int) -> str:
    """The one-letter symbol of a rank (``T`` for Ten)."""
    return RANKS[rank - 1]


def parse_card(token: str) -> Card:
    """Parse ``"TS"``, ``"10h"``, ``"xd"`` or a bare rank such as ``"Q"``."""
    match = _TOKEN.match(token.strip())
    if not match:
        raise InvalidCardError(f"not a card: {token!r}")
    rank_text, suit_text = match.group(1).upper(), match.group(2).upper()
    rank = _RANK_ALIASES.get(rank_text) or RANKS.index(rank_text) + 1
    return Card(rank, suit_text or None)


def full_deck(suited: bool = True) -> tuple[Card, ...]:
    """The 52 cards in pack order: suits S, H, D, C, each Ace to King."""
    if not suited:
        return tuple(Card(rank) for _ in SUITS for rank in range(1, 14))
    return tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


def _split_deck_text(text: str) -> list[str]:
    """The card tokens of a deck file: comments dropped, commas or white space between."""
    tokens: list[str] = []
    for line in text.splitlines():
        tokens.extend(t for t in re.split(r"[\s,]+", line.split("#", 1)[0]) if t)
    return tokens


def parse_deck(text: str) -> tuple[Card, ...]:
    """Parse a deck file (plain list or JSON ``{"deck": [...]}``), first card on top."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidDeckError(f"deck is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        except RecursionError:
            raise InvalidDeckError("deck is not valid JSON: nested too deeply") from None
        return deck_from_json(data)
    return deck_from_tokens(_split_deck_text(text))


def deck_from_json(data: object) -> tuple[Card, ...]:
    """Read the ``deck`` list of a JSON object."""
    if not isinstance(data, dict) or "deck" not in data:
        raise InvalidDeckError("JSON deck must be an object with a 'deck' list")
    cards = data["deck"]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise InvalidDeckError("'deck' must be a list of card strings")
    return deck_from_tokens(cards)


def deck_from_tokens(tokens: Iterable[str]) -> tuple[Card, ...]:
    """Turn tokens into a checked deck; any problem names the culprit."""
    cards: list[Card] = []
    for position, token in enumerate(tokens, start=1):
        try:
            cards.append(parse_card(token))
        except InvalidCardError:
            raise InvalidDeckError(f"unknown card {token!r} at position {position}") from None
    check_deck(cards)
    return tuple(cards)


def check_deck(cards: list[Card] | tuple[Card, ...]) -> None:
    """Raise InvalidDeckError unless the cards are one whole pack."""
    suited = [c.suit is not None for c in cards]
    if any(suited) and not all(suited):
        position = suited.index(not suited[0]) + 1
        raise InvalidDeckError(
            f"deck mixes suited and rank-only cards: card {position} is {str(cards[position - 1])!r}"
        )
    first_seen: dict[Card, int] = {}
    for position, card in enumerate(cards, start=1):
        if card.suit is None:
            continue
        if card in first_seen:
            raise InvalidDeckError(
                f"duplicate card {str(card)!r} at positions {first_seen[card]} and {position}"
            )
        first_seen[card] = position
    if cards and cards[0].suit is None:
        _check_rank_counts(cards)
    elif len(cards) != DECK_SIZE:
        missing = [str(c) for c in full_deck() if c not in first_seen]
        raise InvalidDeckError(
            f"deck has {len(cards)} cards, expected {DECK_SIZE}; missing: {' '.join(missing)}"
        )


def _check_rank_counts(cards: list[Card] | tuple[Card, ...]) -> None:
    """A rank-only deck holds each rank exactly four times."""
    counts = Counter(c.rank for c in cards)
    for rank in range(1, 14):
        if counts[rank] > 4:
            positions = [i for i, c in enumerate(cards, start=1) if c.rank == rank]
            raise InvalidDeckError(
                f"rank {rank_symbol(rank)!r} appears {counts[rank]} times, expected 4 "
                f"(positions {', '.join(map(str, positions))})"
            )
    if len(cards) != DECK_SIZE:
        missing = [rank_symbol(r) * (4 - counts[r]) for r in range(1, 14) if counts[r] < 4]
        raise InvalidDeckError(
            f"deck has {len(cards)} cards, expected {DECK_SIZE}; missing ranks: {' '.join(missing)}"
        )


def format_deck(cards: Iterable[Card], per_line: int = 13) -> str:
    """Format a deck as a deck file: ``per_line`` cards to a line."""
    names = [str(c) for c in cards]
    return "\n".join(" ".join(names[i : i + per_line]) for i in range(0, len(names), per_line)) + "\n"
