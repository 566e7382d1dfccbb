"""Seeded deals: a documented PRNG and shuffle, stable across Python versions.

The generator is SplitMix64 and the shuffle is Fisher-Yates with rejection
sampling, both spelled out in docs/REFERENCE.md ("Seeded deals") so a deal can
be reproduced in any language. Nothing here touches :mod:`random`.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Iterator

from kcsolve.common.cards import Card, full_deck
from kcsolve.errors import KcsolveError

MASK64 = (1 << 64) - 1
SEED_LIMIT = 1 << 64
# int() also reads '1_000', '+7', ' 7' and other scripts' digits ('٣' is 3); a number typed to kcsolve is 0-9 alone
_DIGITS = re.compile(r"[0-9]+", re.ASCII)
MAX_DIGITS = 100  # parse_whole refuses longer text unconverted: int() slows with length, refuses past 4,300 digits
_SPACES = " \t\r\n"  # what deal() allows around a deal number's digits: str.strip() would take any script's spaces


class InvalidNumberError(KcsolveError):
    """Text that is not a whole number written in the digits 0 to 9 alone."""


class InvalidSeedError(InvalidNumberError):
    """A seed outside 0 <= seed < 2**64, or text that is not one written in digits."""


def is_whole(text: object) -> bool:
    """Whether ``text`` is a whole number written in the ASCII digits 0-9 alone: no sign, '_', space or other script."""
    return isinstance(text, str) and _DIGITS.fullmatch(text) is not None


def parse_whole(text: str) -> int:
    """The whole number ``text`` writes in the digits 0-9 alone (at most MAX_DIGITS), as every number typed to kcsolve
    is read."""
    if not is_whole(text) or len(text) > MAX_DIGITS:
        raise InvalidNumberError(f"a whole number is written in the digits 0 to 9 alone, got {reprlib.repr(text)}")
    return int(text)


def splitmix64(seed: int) -> Iterator[int]:
    """Yield the SplitMix64 stream of 64-bit words for ``seed``."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def check_seed(seed: object) -> int:
    """The deal number ``seed`` names (an int, or its decimal text), else InvalidSeedError."""
    if isinstance(seed, str):
        try:
            seed = parse_whole(seed.strip(_SPACES))
        except InvalidNumberError:
            raise InvalidSeedError(
                f"a deal number is a whole number from 0 to 2**64-1, got {reprlib.repr(seed)}"
            ) from None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidSeedError(f"a deal number is a whole number from 0 to 2**64-1, got {reprlib.repr(seed)}")
    if not 0 <= seed < SEED_LIMIT:
        shown = repr(seed) if seed.bit_length() <= 256 else f"a number of {seed.bit_length():,} bits"
        raise InvalidSeedError(f"seed must be between 0 and 2**64-1, got {shown}")
    return seed


def shuffle_order(seed: int, size: int = 52) -> list[int]:
    """The permutation of ``range(size)`` that the deal of ``seed`` applies."""
    order = list(range(size))
    words = splitmix64(check_seed(seed))
    for i in range(size - 1, 0, -1):
        bound = i + 1
        limit = SEED_LIMIT - SEED_LIMIT % bound
        word = next(words)
        while word >= limit:  # rejection keeps every j equally likely
            word = next(words)
        j = word % bound
        order[i], order[j] = order[j], order[i]
    return order


def deal_ranks(seed: int) -> list[int]:
    """The ranks of deal number ``seed``, top of the stock first (pack index i has rank i mod 13 + 1)."""
    return [i % 13 + 1 for i in shuffle_order(seed)]


def deal(seed: int) -> tuple[Card, ...]:
    """The deck of deal number ``seed`` (an int, or its decimal text: ``deal("3")`` is deal 3); top card first."""
    pack = full_deck()
    return tuple(pack[i] for i in shuffle_order(seed))
