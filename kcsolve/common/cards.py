"""Cards and decks: parsing and formatting in the notation of the rules.

A card is a rank (1 = Ace ... 10 = Ten, 11 = Jack, 12 = Queen, 13 = King) and
a suit (``S H D C``), or no suit at all in a rank-only deck, where suits are
unknown and each rank simply appears four times.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, Self

from kcsolve.common.files import MAX_TEXT, TOO_LONG
from kcsolve.common.jsontext import read_value
from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError

RANKS = "A23456789TJQK"
SUITS = "SHDC"
TEN, JACK, QUEEN, KING = 10, 11, 12, 13
DECK_SIZE = 52

_RANK_ALIASES = {"X": TEN, "10": TEN}
_TOKEN = re.compile(r"^(10|[A2-9TXJQK])([SHDC]?)$", re.IGNORECASE | re.ASCII)
_SUIT_SYMBOLS = str.maketrans("♠♥♦♣♤♡♢♧", "SHDCSHDC")
_SUITS_OR_NONE = (*SUITS, None)  # a tuple, not a set: an unhashable suit is refused, not a TypeError


class InvalidCardError(KcsolveError):
    """A token that does not name a card."""


class InvalidDeckError(KcsolveError):
    """A deck that is not exactly one full pack of 52 cards."""


class _CardFields(NamedTuple):
    """A card's two fields, unchecked: only Card makes them."""

    rank: int
    suit: str | None = None


class Card(_CardFields):
    """One playing card; ``suit`` is None in a rank-only deck. A rank or suit of no card raises InvalidCardError."""

    __slots__ = ()

    def __new__(cls, rank: int, suit: str | None = None) -> Self:
        if type(rank) is not int or not 1 <= rank <= 13 or suit not in _SUITS_OR_NONE:
            raise InvalidCardError(
                f"not a card: Card({brief(rank)}, {brief(suit)}) (ranks are 1 to 13, suits 'S', 'H', 'D', 'C', None)"
            )
        return tuple.__new__(cls, (rank, suit))

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:  # type: ignore[override]  # typeshed types it generic over any tuple
        """A card from its two fields, checked as Card() checks them (``_replace`` makes cards with it)."""
        return cls(*iterable)

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
    """Parse ``"TS"``, ``"10h"``, ``"xd"``, ``"8♣"`` or a bare rank such as ``"Q"``."""
    if not isinstance(token, str):
        raise InvalidCardError(f"not a card: {token!r} (a card is a text such as 'TS')")
    match = _TOKEN.match(token.strip().translate(_SUIT_SYMBOLS))
    if not match:
        raise InvalidCardError(f"not a card: {token!r}")
    rank_text, suit_text = match.group(1).upper(), match.group(2).upper()
    rank = _RANK_ALIASES.get(rank_text) or RANKS.index(rank_text) + 1
    return Card(rank, suit_text or None)


def full_deck(suited: bool = True) -> tuple[Card, ...]:
    """The 52 cards in pack order: suits S, H, D, C, each Ace to King."""
    return _PACKS[suited]


_PACKS = {
    False: tuple(Card(rank) for _ in SUITS for rank in range(1, 14)),  # made once: every deal starts from one
    True: tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14)),
}


def split_deck_text(text: str) -> Iterator[str]:
    """The card tokens of a deck file, one at a time (a reader stops at the 53rd): comments dropped, commas or white
    space between."""
    for line in text.splitlines():
        yield from (t for t in re.split(r"[\s,]+", line.split("#", 1)[0]) if t)


def parse_deck(text: str) -> tuple[Card, ...]:
    """Parse a deck file (plain list, JSON ``{"deck": [...]}`` or a JSON list), first card on top."""
    if not isinstance(text, str):
        raise InvalidDeckError(f"a deck file's text is a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidDeckError(f"the deck: {TOO_LONG}")
    text = text.removeprefix("\ufeff")
    stripped = text.lstrip()
    if not stripped:
        raise InvalidDeckError("the deck is empty")
    if stripped[0] in "{[":
        return deck_from_json(
            read_value(text, "deck", InvalidDeckError, not_json="{source} is not valid JSON: {reason}")
        )
    return deck_from_tokens(split_deck_text(text))


def deck_from_json(data: object) -> tuple[Card, ...]:
    """Read a JSON deck: a list of card strings, or an object with such a ``deck`` list."""
    if isinstance(data, dict) and "deck" in data:
        data = data["deck"]
    elif not isinstance(data, list):
        raise InvalidDeckError("JSON deck must be a list of cards or an object with a 'deck' list")
    if not isinstance(data, list) or not all(isinstance(c, str) for c in data):
        raise InvalidDeckError("'deck' must be a list of card strings")
    return deck_from_tokens(data)


def deck_from_tokens(tokens: Iterable[str]) -> tuple[Card, ...]:
    """Turn tokens into a checked deck, stopping at the first problem, which the message names."""
    cards: list[Card] = []
    first_seen: dict[Card, int] = {}
    for position, token in enumerate(tokens, start=1):
        try:
            card = parse_card(token)
        except InvalidCardError:
            raise InvalidDeckError(f"unknown card {token[:20]!r} at position {position}") from None
        if card.suit is not None and card in first_seen:
            raise InvalidDeckError(f"duplicate card {str(card)!r} at positions {first_seen[card]} and {position}")
        first_seen.setdefault(card, position)
        cards.append(card)
        if card.suit is None:
            _check_rank_counts(cards, complete=False)
        if position > DECK_SIZE:
            raise InvalidDeckError(f"more than {DECK_SIZE} cards: card {position} is {token[:20]!r}")
    if not cards:
        raise InvalidDeckError("the deck is empty")
    check_deck(cards)
    return tuple(cards)


def check_deck(cards: list[Card] | tuple[Card, ...]) -> None:
    """Raise InvalidDeckError unless the cards are one whole pack."""
    if not all(isinstance(c, Card) for c in cards):
        bad = next(c for c in cards if not isinstance(c, Card))
        raise InvalidDeckError(f"not a card: {bad!r}")
    suited = [c.suit is not None for c in cards]
    if any(suited) and not all(suited):
        position = suited.index(not suited[0]) + 1
        raise InvalidDeckError(
            f"deck mixes suited and rank-only cards: card {position} is {str(cards[position - 1])!r}"
        )
    if len(cards) > DECK_SIZE:
        raise InvalidDeckError(f"deck has {len(cards)} cards, expected {DECK_SIZE}")
    first_seen: dict[Card, int] = {}
    for position, card in enumerate(cards, start=1):
        if card.suit is None:
            continue
        if card in first_seen:
            raise InvalidDeckError(f"duplicate card {str(card)!r} at positions {first_seen[card]} and {position}")
        first_seen[card] = position
    if cards and cards[0].suit is None:
        _check_rank_counts(cards)
    elif len(cards) != DECK_SIZE:
        missing = [str(c) for c in full_deck() if c not in first_seen]
        raise InvalidDeckError(f"deck has {len(cards)} cards, expected {DECK_SIZE}; missing {_some(missing)}")


def _check_rank_counts(cards: list[Card] | tuple[Card, ...], complete: bool = True) -> None:
    """A rank-only deck holds each rank exactly four times (at most four, while still being read)."""
    if not complete:
        card = cards[-1]
        if sum(1 for c in cards if c.rank == card.rank) > 4:
            raise InvalidDeckError(f"rank {rank_symbol(card.rank)!r} appears a fifth time at position {len(cards)}")
        return
    counts: Counter[int] = Counter()
    for position, card in enumerate(cards, start=1):
        counts[card.rank] += 1
        if counts[card.rank] > 4:
            raise InvalidDeckError(f"rank {rank_symbol(card.rank)!r} appears a fifth time at position {position}")
    if len(cards) != DECK_SIZE:
        missing = [rank_symbol(r) for r in range(1, 14) for _ in range(4 - counts[r])]
        raise InvalidDeckError(f"deck has {len(cards)} cards, expected {DECK_SIZE}; missing ranks {_some(missing)}")


def _some(names: list[str], shown: int = 4) -> str:
    """The first few of ``names`` and how many more: a message lists a short deck's missing cards in one line."""
    if len(names) <= shown:
        return " ".join(names)
    return f"{' '.join(names[: shown - 1])} and {len(names) - shown + 1} more"


def format_deck(cards: Iterable[Card], per_line: int = 13) -> str:
    """Format a deck as a deck file: ``per_line`` cards to a line."""
    names = [str(c) for c in cards]
    return "\n".join(" ".join(names[i : i + per_line]) for i in range(0, len(names), per_line)) + "\n"
