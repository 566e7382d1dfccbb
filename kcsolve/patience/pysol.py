"""PySolFC game numbers: the deck PySolFC deals for its game "Camelot" number N.

PySolFC (``pysollib/pysolrandom.py``, ``construct_random``) picks the generator
from the game number: 0 <= N < 32000 gets the Microsoft-compatible linear
congruential generator ``LCRandom31`` (FreeCell deal numbers), any larger N the
Mersenne Twister ``MTRandom`` seeded with N. Its games draw random numbers of
at least 17 digits below ``MAX_SEED`` = 10**20. ``Game.shuffle``
(``pysollib/game/__init__.py``) takes the pack as ``createCards`` builds it,
suit by suit (Clubs, Spades, Hearts, Diamonds) and Ace to King within a suit,
reorders it rank by rank (``ms_rearrange``) for the Microsoft generator only,
and shuffles it with the generator's Fisher-Yates ``shuffle``. Camelot has no
shuffle hook; the shuffled cards go onto the talon in list order, so the last
one is on top and is dealt first.

Both generators come from the ``pysol-cards`` package, the code PySolFC itself
imports. It is imported only when a deal is asked for. Its own convenience
``pysol_cards.random.shuffle`` is not used: it sends game 32000 to the
Microsoft generator, where PySolFC uses the Mersenne Twister.

Supported: 1 <= N <= 10**20. Game 0 is refused because the ``LCRandom31`` of
pysol-cards (and so PySolFC itself) refuses seed 0. PySolFC's separate "msN"
numbers (the Microsoft generator for N up to 2**33-1) are not supported.
"""

from __future__ import annotations

from kcsolve.common.cards import Card
from kcsolve.errors import KcsolveError

PYSOL_FIRST_GAME = 1
PYSOL_MS_LIMIT = 32000  # games below this use the Microsoft-compatible generator
PYSOL_MAX_GAME = 10**20  # MAX_SEED of PySolFC's generators, inclusive
_PYSOL_SUITS = "CSHD"  # PySolFC's suit numbers 0-3: Club, Spade, Heart, Diamond


class InvalidPysolGameError(KcsolveError):
    """A PySolFC game number outside 1 <= N <= 10**20."""


class PysolUnavailableError(KcsolveError):
    """The pysol-cards package, which holds PySolFC's generators, is not installed."""


def check_pysol_game(game_number: int) -> int:
    """Return ``game_number`` if PySolFC can deal it, else raise InvalidPysolGameError."""
    if (
        isinstance(game_number, bool)
        or not isinstance(game_number, int)
        or not (PYSOL_FIRST_GAME <= game_number <= PYSOL_MAX_GAME)
    ):
        raise InvalidPysolGameError(f"PySolFC game number must be between 1 and 10**20, got {game_number!r}")
    return game_number


def pysol_deal(game_number: int) -> tuple[Card, ...]:
    """The deck of PySolFC's Camelot game ``game_number``; the first card is the top of the stock."""
    check_pysol_game(game_number)
    try:
        from pysol_cards.cards import createCards, ms_rearrange
        from pysol_cards.random import LCRandom31, MTRandom
    except ImportError as exc:
        raise PysolUnavailableError(
            "PySolFC game numbers need the pysol-cards package: pip install pysol-cards"
        ) from exc
    cards = createCards(1)
    if game_number < PYSOL_MS_LIMIT:
        generator = LCRandom31(game_number)
        cards = ms_rearrange(cards)
    else:
        generator = MTRandom(game_number)
    generator.shuffle(cards)
    return tuple(Card(card.rank, _PYSOL_SUITS[card.suit]) for card in reversed(cards))


SOLVABLE_FROM = (
    32000  # PySolFC's solvable_seeds hold numbers >= 32000 only: below, its "always solvable" mode deals another game
)


def solvable_seeds_module(games: list[int], first: int, last: int, undecided: int) -> str:
    """The Python module text of a PySolFC ``solvable_seeds`` file for Camelot."""
    body = "".join("    " + " ".join(f"{n}," for n in games[i : i + 8]) + "\n" for i in range(0, len(games), 8))
    note = f" {undecided} undecided games left out." if undecided else ""
    return (
        "#!/usr/bin/env python\n"
        "# -*- mode: python; coding: utf-8; -*-\n"
        "#\n"
        "# Camelot game numbers proved winnable (camelot rules: optional removal of a Ten\n"
        "# or a pair summing to 10, won when the talon is empty and no Ace..Ten is left),\n"
        "# each with a winning line replayed by kcsolve's engine. Made with\n"
        f"#     kcsolve pysol-solvable --from {first} --count {last - first + 1}\n"
        "#\n"
        f"# Must all be >= {SOLVABLE_FROM}, or they'd deal a different game than what was solved.\n"
        "#\n"
        f"# {len(games)} seeds, covering {first}-{last}.{note}\n"
        "\n"
        "SOLVABLE_SEEDS = (\n"
        f"{body}"
        ")\n"
    )
