"""Cards and deck files: parsing, formatting, and every way a deck can be bad."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kcsolve.common.cards import (
    DECK_SIZE,
    Card,
    InvalidCardError,
    InvalidDeckError,
    format_deck,
    full_deck,
    parse_card,
    parse_deck,
)
from kcsolve.patience.solve.route import solve

SUITED = full_deck()
RANK_ONLY = full_deck(suited=False)
PACK_NAMES = [str(c) for c in SUITED]
RANK_NAMES = [str(c) for c in RANK_ONLY]


def deck_error(text: str) -> str:
    """The message of the InvalidDeckError that parsing ``text`` raises."""
    with pytest.raises(InvalidDeckError) as info:
        parse_deck(text)
    return str(info.value)


# --- single cards -----------------------------------------------------------


@pytest.mark.parametrize(
    "symbol, rank",
    [
        ("A", 1),
        ("2", 2),
        ("3", 3),
        ("4", 4),
        ("5", 5),
        ("6", 6),
        ("7", 7),
        ("8", 8),
        ("9", 9),
        ("T", 10),
        ("X", 10),
        ("10", 10),
        ("J", 11),
        ("Q", 12),
        ("K", 13),
    ],
)
@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_parse_card_every_rank_spelling_and_suit_in_any_case(symbol: str, rank: int, suit: str) -> None:
    for token in (symbol + suit, symbol.lower() + suit.lower(), symbol.lower() + suit, symbol + suit.lower()):
        assert parse_card(token) == Card(rank, suit)


@pytest.mark.parametrize(
    "token, rank",
    [
        ("A", 1),
        ("a", 1),
        ("7", 7),
        ("T", 10),
        ("t", 10),
        ("X", 10),
        ("x", 10),
        ("10", 10),
        ("J", 11),
        ("j", 11),
        ("Q", 12),
        ("q", 12),
        ("K", 13),
        ("k", 13),
    ],
)
def test_parse_card_rank_only(token: str, rank: int) -> None:
    card = parse_card(token)
    assert card == Card(rank, None)
    assert card.suit is None


@pytest.mark.parametrize("token", ["\u212a", "\u212aS", "A\u017f", "\uff21S", "\u0663S"])
def test_parse_card_rejects_unicode_look_alikes(token: str) -> None:
    """KELVIN SIGN, LONG S, full-width A, Arabic-Indic 3: case-folding must not let them in."""
    with pytest.raises(InvalidCardError) as info:
        parse_card(token)
    assert str(info.value) == f"not a card: {token!r}"
    names = PACK_NAMES.copy()
    names[0] = token
    assert deck_error(" ".join(names)) == f"unknown card {token!r} at position 1"


def test_parse_card_ignores_surrounding_white_space() -> None:
    assert parse_card("  10h\t") == Card(10, "H")


@pytest.mark.parametrize("token", ["", " ", "1", "11", "0", "Z", "ZS", "1S", "TT", "TSS", "S", "10 S", "T-S", "AS,"])
def test_parse_card_rejects_non_cards(token: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(token)
    assert str(info.value) == f"not a card: {token!r}"


def test_card_names_spell_ten_as_T_and_courts_are_courts() -> None:
    assert str(parse_card("10s")) == "TS"
    assert str(parse_card("xd")) == "TD"
    assert str(parse_card("x")) == "T"
    assert str(Card(12, "H")) == "QH"
    assert [c.is_court for c in (Card(10, "S"), Card(11, "S"), Card(12), Card(13, "C"), Card(1))] == [
        False,
        True,
        True,
        True,
        False,
    ]


CARD_HELP = "(ranks are 1 to 13, suits 'S', 'H', 'D', 'C', None)"


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        (("ZZ",), "Card('ZZ', None)"),
        ((0, "S"), "Card(0, 'S')"),
        ((14,), "Card(14, None)"),
        ((1, "s"), "Card(1, 's')"),
        ((1, "SH"), "Card(1, 'SH')"),
        ((True, "S"), "Card(True, 'S')"),
        ((1.0,), "Card(1.0, None)"),
        ((1, ["S"]), "Card(1, ['S'])"),
        ((10**5000,), "Card(a number of 16,610 bits, None)"),
    ],
)
def test_a_card_checks_its_rank_and_suit_when_made(fields: tuple[object, ...], shown: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card(*fields)  # type: ignore[arg-type]
    assert str(info.value) == f"not a card: {shown} {CARD_HELP}"


def test_a_card_made_from_another_is_checked_too() -> None:
    assert Card(12, "H")._replace(suit="S") == Card(12, "S")
    with pytest.raises(InvalidCardError):
        Card(12, "H")._replace(rank=99)
    with pytest.raises(InvalidCardError):
        Card._make(["Q", "H"])


def test_a_deck_of_no_cards_is_refused_before_the_solver() -> None:
    with pytest.raises(InvalidCardError):
        solve([Card("ZZ")] * 52)  # type: ignore[arg-type]


@given(
    rank=st.integers(-5, 20) | st.text(max_size=3) | st.none() | st.booleans() | st.floats(0, 14),
    suit=st.sampled_from([*"SHDC", None]) | st.text(max_size=3) | st.integers(),
)
def test_a_card_is_made_exactly_when_its_name_reads_back_as_it(rank: object, suit: object) -> None:
    try:
        card = Card(rank, suit)  # type: ignore[arg-type]
    except InvalidCardError:
        assert not (type(rank) is int and 1 <= rank <= 13 and suit in (*"SHDC", None))
    else:
        assert parse_card(str(card)) == card == (rank, suit)


def test_full_deck_is_pack_order() -> None:
    assert len(SUITED) == DECK_SIZE == 52
    assert PACK_NAMES[:14] == ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AH"]
    assert PACK_NAMES[-1] == "KC"
    assert len(set(SUITED)) == 52
    assert sorted(c.rank for c in RANK_ONLY) == sorted(list(range(1, 14)) * 4)


# --- deck files ---------------------------------------------------------------


def test_parse_deck_plain_text_with_white_space() -> None:
    assert parse_deck(" ".join(PACK_NAMES)) == SUITED
    assert parse_deck("\n".join(PACK_NAMES) + "\n") == SUITED
    assert parse_deck("\t" + "  \t ".join(PACK_NAMES) + "\r\n") == SUITED


def test_parse_deck_plain_text_with_commas() -> None:
    assert parse_deck(",".join(PACK_NAMES)) == SUITED
    assert parse_deck(", ".join(PACK_NAMES)) == SUITED
    assert parse_deck(",,".join(PACK_NAMES) + ",") == SUITED


def test_parse_deck_comments() -> None:
    lines = ["# a deck file", "# with two comment lines"]
    for i in range(0, 52, 13):
        lines.append(" ".join(PACK_NAMES[i : i + 13]) + f"  # cards {i + 1}-{i + 13}: QS KS would be ignored here")
    lines.append("#" + " ".join(PACK_NAMES))  # a commented-out deck adds nothing
    text = "\n".join(lines)
    assert parse_deck(text) == SUITED
    # a comment may follow a card directly, without white space
    assert parse_deck(" ".join(PACK_NAMES) + "#JS") == SUITED


def test_parse_deck_accepts_every_ten_spelling_and_case() -> None:
    names = [n.lower() if i % 2 else n for i, n in enumerate(PACK_NAMES)]
    names = [
        ("10" + n[1]) if n[0] in "tT" and i < 26 else ("x" + n[1]) if n[0] in "tT" else n for i, n in enumerate(names)
    ]
    assert any(n.startswith("10") for n in names) and any(n.startswith("x") for n in names)
    assert parse_deck(" ".join(names)) == SUITED


def test_parse_deck_rank_only() -> None:
    assert parse_deck(" ".join(RANK_NAMES)) == RANK_ONLY
    assert parse_deck(" ".join(["10" if n == "T" else n.lower() for n in RANK_NAMES])) == RANK_ONLY


def test_parse_deck_json() -> None:
    assert parse_deck(json.dumps({"deck": PACK_NAMES})) == SUITED
    assert parse_deck("\n  " + json.dumps({"deck": PACK_NAMES, "seed": 3}, indent=1)) == SUITED
    assert parse_deck(json.dumps({"deck": RANK_NAMES})) == RANK_ONLY
    assert parse_deck(json.dumps({"deck": [n.lower() for n in PACK_NAMES]})) == SUITED


# --- bad decks: the exact messages ----------------------------------------------


def test_unknown_token_names_it_and_its_position() -> None:
    names = PACK_NAMES.copy()
    names[6] = "7Z"
    assert deck_error(" ".join(names)) == "unknown card '7Z' at position 7"
    assert deck_error("AS, 2S,\n# comment 3S\nZZ 4S") == "unknown card 'ZZ' at position 3"
    assert deck_error(json.dumps({"deck": ["AS", "11S"]})) == "unknown card '11S' at position 2"


def test_duplicated_card_names_both_positions() -> None:
    names = PACK_NAMES.copy()
    names[51] = "AS"
    assert deck_error(" ".join(names)) == "duplicate card 'AS' at positions 1 and 52"
    names = PACK_NAMES.copy()
    names[30] = "10s"  # spelled differently, still the Ten of Spades (position 10)
    assert deck_error(" ".join(names)) == "duplicate card 'TS' at positions 10 and 31"
    names = PACK_NAMES.copy()
    names[20] = "qh"
    assert deck_error(json.dumps({"deck": names})) == "duplicate card 'QH' at positions 21 and 25"


def test_missing_cards_give_the_count_found() -> None:
    assert deck_error(" ".join(PACK_NAMES[:-1])) == "deck has 51 cards, expected 52; missing KC"
    names = [n for n in PACK_NAMES if n not in ("TS", "2H", "QD")]
    assert deck_error(" ".join(names)) == "deck has 49 cards, expected 52; missing TS 2H QD"
    assert deck_error("# nothing but a comment\n") == "the deck is empty"


def test_rank_only_deck_with_a_rank_five_times() -> None:
    names = RANK_NAMES.copy()
    names[0] = "K"  # positions of K: 1, 13, 26, 39, 52
    assert deck_error(" ".join(names)) == "rank 'K' appears a fifth time at position 52"
    names = RANK_NAMES.copy()
    names[1] = "x"
    assert deck_error(",".join(names)) == "rank 'T' appears a fifth time at position 49"


def test_rank_only_deck_with_missing_ranks() -> None:
    assert deck_error(" ".join(RANK_NAMES[:-1])) == "deck has 51 cards, expected 52; missing ranks K"
    names = RANK_NAMES.copy()
    for symbol in ("A", "A", "Q"):
        names.remove(symbol)
    assert deck_error(" ".join(names)) == "deck has 49 cards, expected 52; missing ranks A A Q"


def test_mixed_suited_and_rank_only() -> None:
    names = PACK_NAMES.copy()
    names[2] = "3"
    assert deck_error(" ".join(names)) == "deck mixes suited and rank-only cards: card 3 is '3'"
    names = RANK_NAMES.copy()
    names[4] = "5D"
    assert deck_error(" ".join(names)) == "deck mixes suited and rank-only cards: card 5 is '5D'"


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"deck": [', "deck is not valid JSON: Expecting value at line 1"),
        ('{"deck": ["AS",]}', "deck is not valid JSON: Expecting value at line 1"),
        ('{\n"deck": x}', "deck is not valid JSON: Expecting value at line 2"),
        ('{"cards": []}', "JSON deck must be a list of cards or an object with a 'deck' list"),
        ('{"deck": "AS 2S"}', "'deck' must be a list of card strings"),
        ('{"deck": [1, 2]}', "'deck' must be a list of card strings"),
        ('{"deck": ' + "[" * 60000, "deck is not valid JSON: nested too deeply"),
    ],
)
def test_bad_json_deck(text: str, message: str) -> None:
    assert deck_error(text) == message


def test_deck_errors_are_value_errors() -> None:
    assert issubclass(InvalidDeckError, ValueError)
    assert issubclass(InvalidCardError, ValueError)


# --- round trips ----------------------------------------------------------------------

permutation_seeds = st.integers(min_value=0, max_value=2**32 - 1)


def shuffled(cards: tuple[Card, ...], seed: int) -> tuple[Card, ...]:
    order = list(cards)
    random.Random(seed).shuffle(order)
    return tuple(order)


@settings(max_examples=60, deadline=None)
@given(seed=permutation_seeds, suited=st.booleans(), per_line=st.integers(min_value=1, max_value=60))
def test_parse_of_format_is_identity(seed: int, suited: bool, per_line: int) -> None:
    deck = shuffled(SUITED if suited else RANK_ONLY, seed)
    text = format_deck(deck, per_line=per_line)
    assert text.endswith("\n")
    assert parse_deck(text) == deck
    assert all(len(line.split()) <= per_line for line in text.splitlines())


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    seed=permutation_seeds,
    suited=st.booleans(),
    data=st.data(),
)
def test_format_of_parse_is_canonical(seed: int, suited: bool, data: st.DataObject) -> None:
    """Any spelling of a deck (case, 10/X for Ten, commas, comments) formats to the canonical text."""
    deck = shuffled(SUITED if suited else RANK_ONLY, seed)
    pieces = []
    for card in deck:
        name = str(card)
        if card.rank == 10:
            name = data.draw(st.sampled_from(["T", "t", "X", "x", "10"])) + name[1:]
        if data.draw(st.booleans()):
            name = name.lower()
        pieces.append(name + data.draw(st.sampled_from([" ", ",", ", ", "\n", "\t", " # note\n", ",\n"])))
    text = data.draw(st.sampled_from(["", "# header\n", "\n\n"])) + "".join(pieces)
    assert parse_deck(text) == deck
    canonical = format_deck(parse_deck(text))
    assert canonical == format_deck(deck)
    assert format_deck(parse_deck(canonical)) == canonical
    assert parse_deck(json.dumps({"deck": [str(c) for c in deck]})) == deck


@given(st.dictionaries(st.text(max_size=8), st.integers(), min_size=1, max_size=5), st.data())
def test_a_json_key_given_twice_is_refused_wherever_json_is_read(keys: dict[str, int], data: st.DataObject) -> None:
    """Which of two values a reader took would be an accident of its parser: every kcsolve reader refuses the text."""
    from kcsolve.common.jsontext import JsonTextError, read_json

    twice = data.draw(st.sampled_from(sorted(keys)))
    text = json.dumps(keys)[:-1] + f", {json.dumps(twice)}: 0}}"
    shown = repr(twice) if len(repr(twice)) <= 40 else repr(twice)[:37] + "..."
    with pytest.raises(JsonTextError, match=f"^the key {re.escape(shown)} appears twice in one object$"):
        read_json(text)
    assert read_json("\ufeff" + json.dumps(keys)) == keys
