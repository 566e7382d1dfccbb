"""PySolFC game numbers: ``kcsolve.patience.pysol.pysol_deal`` and ``--pysol N`` on ``deal`` and ``solve``.

The decks are checked against derivations that do not use pysol-cards:

- games below 32000: a re-implementation, written out below, of what PySolFC's source does
  (``pysollib/pysolrandom.py`` ``construct_random`` picks ``LCRandom31``; ``Game.shuffle`` in
  ``pysollib/game/__init__.py`` builds the pack with ``createCards``, reorders it rank by rank
  for that generator, shuffles, and puts the cards on the talon in list order);
- games of 32000 and more: Python's own ``random.Random(N)`` driving the same Fisher-Yates
  loop, as PySolFC's ``MTRandom`` (a ``random.Random``; ``random2.Random``, the Python 2
  port, in older releases, which seeds and draws ``random()`` identically) does;
- literal decks: Microsoft FreeCell game 1 as published, and two FreeCell layouts written into
  PySolFC's own test suite (``tests/lib/pysol_tests/ms_deals1``): PySolFC deal 24 (Microsoft
  generator) and PySolFC deal 123456 (Mersenne Twister). FreeCell deals the talon top first,
  one card to each of the 8 columns in turn, so card k of the talon (top first) is card
  k // 8 of column k % 8; the same talon order is what Camelot draws from.
"""

from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path

import pytest
from clitools import assert_bad_input, run, unwrapped

from kcsolve.common.cards import Card, check_deck, parse_card, parse_deck
from kcsolve.patience.pysol import (
    PYSOL_MAX_GAME,
    InvalidPysolGameError,
    PysolUnavailableError,
    check_pysol_game,
    pysol_deal,
)
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.route import solve

EXIT_FOR = {"win": 0, "loss": 1, "unknown": 3}
RANGE_MESSAGE = "PySolFC game number must be between 1 and 10**20, got {}"


# --- independent derivations -----------------------------------------------------------------------------


def pysolfc_pack() -> list[Card]:
    """``createCards``: suit by suit in PySolFC's suit order (Club, Spade, Heart, Diamond), Ace to King."""
    return [Card(rank, suit) for suit in "CSHD" for rank in range(1, 14)]


def microsoft_deal(game: int) -> tuple[Card, ...]:
    """PySolFC's ``LCRandom31`` deal of ``game`` (< 32000), written out from its source.

    The pack is reordered rank by rank (``cards[i + j]`` for i in 0..12, j in 0, 39, 26, 13),
    then ``shuffle`` swaps position n with ``randint(0, n)`` for n = 51 down to 1, where
    ``randint(a, b) = a + rand() % (b + 1 - a)`` and ``rand()`` steps
    ``seedx = (seedx * 214013 + 2531011) & 0x1ffffffff`` and returns ``(seedx >> 16) & 0x7fff``
    (for seeds below 2**31 no high bit is added). The talon's top is the last card.
    """
    pack = pysolfc_pack()
    cards = [pack[i + j] for i in range(13) for j in (0, 39, 26, 13)]
    state = game
    for n in range(len(cards) - 1, 0, -1):
        state = (state * 214013 + 2531011) & 0x1FFFFFFFF
        j = ((state >> 16) & 0x7FFF) % (n + 1)
        cards[n], cards[j] = cards[j], cards[n]
    return tuple(reversed(cards))


def mersenne_deal(game: int) -> tuple[Card, ...]:
    """PySolFC's ``MTRandom`` deal of ``game`` (>= 32000): Python's Mersenne Twister seeded with the number.

    ``MTRandom`` inherits ``shuffle`` and ``randint(a, b) = a + int(random() * (b + 1 - a))`` from the
    generators' base class, so only ``random()`` comes from ``random.Random``; no rank reordering.
    """
    generator = random.Random(game)
    cards = pysolfc_pack()
    for n in range(len(cards) - 1, 0, -1):
        j = int(generator.random() * (n + 1))
        cards[n], cards[j] = cards[j], cards[n]
    return tuple(reversed(cards))


def deck(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def talon_from_freecell_columns(layout: str) -> tuple[Card, ...]:
    """Card k of the talon (top first) is card k // 8 of column k % 8 (one layout line per column)."""
    columns = [line.split() for line in layout.strip().splitlines()]
    assert len(columns) == 8 and sum(map(len, columns)) == 52
    return tuple(parse_card(columns[k % 8][k // 8]) for k in range(52))


# Microsoft FreeCell game 1, row by row across the 8 columns as it is usually published.
MS_GAME_1 = deck("""
    JD 2D 9H JC 5D 7H 7C 5H  KD KC 9S 5S AD QC KH 3H  2S KS 9D QD JS AS AH 3C
    4C 5C TS QH 4H AC 4D 7S  3S TD 4S TH 8H 2C JH 7D  6D 8S 8D QS 6C 3D 8C TC
    6S 9C 2H 6H
""")

# PySolFC tests/lib/pysol_tests/ms_deals1: FreeCell, DEALS_PYSOLFC, deal 24 (one line per column).
PYSOLFC_FREECELL_24 = """
4C 2C 9C 8C QS 4S 2H
5H QH 3C AC 3H 4H QD
QC 9S 6H 9H 3S KS 3D
5D 2S JC 5C JH 6D AS
2D KD TH TC TD 8D
7H JS KH TS KC 7C
AH 5S 6S AD 8H JD
7S 6C 7D 4D 8S 9D
"""

# The same test: 'PySolFC deal No. 123456' (Mersenne Twister).
PYSOLFC_FREECELL_123456 = """
3D 6C AS TS QC 8D 4D
2D TC 4H JD TD 2H 5C
2C 8S AH KD KH 5S 7C
9C 8C QH 3C 5D 9S QD
AC 9D 7H 6D KS JH
6H TH 8H QS 7D JC
4C 2S 3S 6S 5H 3H
KC JS 9H 4S 7S AD
"""


# --- the library ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [1, 2, 24, 617, 11982, 31999])
def test_microsoft_generator_games_match_the_written_out_lcg(game: int) -> None:
    assert pysol_deal(game) == microsoft_deal(game)


@pytest.mark.parametrize("game", [32000, 32001, 123456, 10**16 + 12345, PYSOL_MAX_GAME])
def test_mersenne_twister_games_match_python_random(game: int) -> None:
    assert pysol_deal(game) == mersenne_deal(game)


def test_game_1_is_microsoft_freecell_game_1() -> None:
    assert microsoft_deal(1) == MS_GAME_1
    assert pysol_deal(1) == MS_GAME_1


def test_literal_layouts_from_pysolfc_own_tests() -> None:
    assert pysol_deal(24) == talon_from_freecell_columns(PYSOLFC_FREECELL_24) == microsoft_deal(24)
    assert pysol_deal(123456) == talon_from_freecell_columns(PYSOLFC_FREECELL_123456) == mersenne_deal(123456)


def test_game_32000_is_the_first_mersenne_game() -> None:
    """PySolFC: ``0 <= seed < 32000`` gets LCRandom31, so 32000 is a Mersenne Twister game."""
    assert pysol_deal(32000) == mersenne_deal(32000) != microsoft_deal(32000)
    assert pysol_deal(31999) != mersenne_deal(31999)


def test_every_deal_is_one_whole_suited_pack() -> None:
    for game in (1, 5, 31999, 32000, 99999, PYSOL_MAX_GAME):
        cards = pysol_deal(game)
        check_deck(cards)
        assert len(set(cards)) == 52 and all(c.suit for c in cards)


@pytest.mark.parametrize("game", [0, -1, -32000, PYSOL_MAX_GAME + 1, 2**80])
def test_out_of_range_numbers_are_refused(game: int) -> None:
    with pytest.raises(InvalidPysolGameError) as caught:
        pysol_deal(game)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == RANGE_MESSAGE.format(game)
    with pytest.raises(InvalidPysolGameError):
        check_pysol_game(game)


@pytest.mark.parametrize("game", [True, 1.0, "5"])
def test_non_integers_are_refused(game: object) -> None:
    with pytest.raises(InvalidPysolGameError):
        pysol_deal(game)  # type: ignore[arg-type]


def test_missing_pysol_cards_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pysol_cards.cards", None)
    with pytest.raises(PysolUnavailableError, match="pip install pysol-cards"):
        pysol_deal(1)
    result = run("deal", "--pysol", "1")
    assert_bad_input(result, "PySolFC game numbers need the pysol-cards package: pip install pysol-cards")


# --- the command line ------------------------------------------------------------------------------------------


@functools.cache
def outcome(game: int) -> str:
    return solve(pysol_deal(game), STANDARD).result


def game_where(result: str) -> int:
    found = [g for g in range(1, 200) if outcome(g) == result]
    assert found, f"no PySolFC game in 1..199 with outcome {result!r}"
    return found[0]


@pytest.mark.parametrize("game", [1, 617, 32000])
def test_deal_text_is_a_deck_file_naming_the_game(game: int) -> None:
    result = run("deal", "--pysol", str(game))
    assert result.exit_code == 0 and result.stderr == ""
    first, second, *rest = result.stdout.splitlines()
    assert first == f"# kcsolve deal --pysol {game}"  # the note takes a line of its own to fit 80 columns
    assert second == f"#   (PySolFC Camelot game {game}; first card = top of the stock)"
    assert len(rest) == 4 and all(len(line.split()) == 13 for line in rest)
    expected = microsoft_deal(game) if game < 32000 else mersenne_deal(game)
    assert parse_deck(result.stdout) == expected


def test_deal_json() -> None:
    result = run("deal", "--pysol", "11982", "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    assert json.loads(result.stdout) == {"pysol": 11982, "deck": [str(c) for c in microsoft_deal(11982)]}


def test_deal_largest_game() -> None:
    result = run("deal", "--pysol", str(PYSOL_MAX_GAME), "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["deck"] == [str(c) for c in mersenne_deal(PYSOL_MAX_GAME)]


@pytest.mark.parametrize("wanted", ["win", "loss"])
def test_solve_exit_status_title_and_record(wanted: str) -> None:
    game = game_where(wanted)
    text = run("solve", "--pysol", str(game), "--style", "line")
    assert text.exit_code == EXIT_FOR[wanted] and text.stderr == ""
    assert text.stdout.splitlines()[0] == f"PySolFC game {game}, rules standard"
    data = run("solve", "--pysol", str(game), "--format", "json")
    assert data.exit_code == EXIT_FOR[wanted]
    record = json.loads(data.stdout)
    assert record["pysol"] == game and "seed" not in record
    assert record["deck"] == [str(c) for c in pysol_deal(game)]
    assert record["result"] == wanted


def test_solve_record_verifies(tmp_path: Path) -> None:
    game = game_where("win")
    record = run("solve", "--pysol", str(game), "--format", "json").stdout
    path = tmp_path / "won.json"
    path.write_text(record, encoding="utf-8")
    assert run("verify", str(path)).exit_code == 0


def test_solve_count_runs_consecutive_games_across_the_generator_change() -> None:
    start, count = 31998, 4
    result = run("solve", "--pysol", str(start), "--count", str(count))
    assert result.exit_code == 0 and result.stderr == ""
    lines = unwrapped(result.stdout)  # a deal's line is wrapped at 80 columns
    assert len(lines) == count + 1
    for game, line in zip(range(start, start + count), lines, strict=False):
        assert line.startswith(f"PySolFC game {game}: {outcome(game)} (")
    wins = sum(outcome(g) == "win" for g in range(start, start + count))
    assert lines[-1] == f"{count} deals under standard: {wins} winnable, {count - wins} not, 0 undecided"
    data = run("solve", "--pysol", str(start), "--count", str(count), "--format", "json")
    records = [json.loads(line) for line in data.stdout.splitlines()]
    assert [r["pysol"] for r in records] == list(range(start, start + count))
    assert [r["deck"] for r in records] == [[str(c) for c in pysol_deal(g)] for g in range(start, start + count)]


def test_solve_count_reaches_the_last_game() -> None:
    result = run("solve", "--pysol", str(PYSOL_MAX_GAME - 1), "--count", "2", "--format", "json")
    assert result.exit_code == 0
    assert [json.loads(x)["pysol"] for x in result.stdout.splitlines()] == [PYSOL_MAX_GAME - 1, PYSOL_MAX_GAME]


@pytest.mark.parametrize("command", ["deal", "solve"])
@pytest.mark.parametrize("game", [0, -3, PYSOL_MAX_GAME + 1])
def test_out_of_range_on_the_command_line(command: str, game: int) -> None:
    assert_bad_input(run(command, "--pysol", str(game)), RANGE_MESSAGE.format(game))


@pytest.mark.parametrize("command", ["deal", "solve"])
def test_not_a_number(command: str) -> None:
    assert_bad_input(run(command, "--pysol", "ms5"), "Invalid value for '--pysol': 'ms5' is not a valid integer.")


def test_deal_refuses_seed_and_pysol_together() -> None:
    assert_bad_input(run("deal", "--pysol", "3", "--seed", "4"), "give either --seed N or --pysol N, not both")


def test_solve_refuses_pysol_with_another_source(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(" ".join(str(c) for c in pysol_deal(1)), encoding="utf-8")
    message = "give --pysol N alone, without a DECK_FILE or --seed N"
    assert_bad_input(run("solve", "--pysol", "1", "--seed", "1"), message)
    assert_bad_input(run("solve", str(path), "--pysol", "1"), message)
    assert_bad_input(run("solve", "-", "--pysol", "1", input="x"), message)
    assert_bad_input(run("solve", "--pysol", "1", "--seed", "1", "--count", "2"), message)


def test_solve_count_past_the_last_game() -> None:
    assert_bad_input(
        run("solve", "--pysol", str(PYSOL_MAX_GAME), "--count", "2"),
        f"--pysol {PYSOL_MAX_GAME} --count 2 runs past the last PySolFC game number, 10**20",
    )
