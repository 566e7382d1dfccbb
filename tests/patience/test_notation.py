"""The one-line notation: round trips on thousands of records, and readers that accept it like JSON."""

from __future__ import annotations

import json
import random

import pytest
from clitools import assert_bad_input, run
from hypothesis import given, settings
from hypothesis import strategies as st

from kcsolve.cli.base import shorten
from kcsolve.common.deal import deal
from kcsolve.patience.engine import Position
from kcsolve.patience.notation import from_notation, is_notation, to_notation
from kcsolve.patience.record import judge, record_from_moves
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import solve


def same_game(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (a.deck, a.rules, a.moves) == (b.deck, b.rules, b.moves)


def random_game(seed: int, rules_text: str) -> tuple:
    """A random legal game (any length) under the rules, as a record."""
    rng = random.Random(seed)
    rules = parse_rules(rules_text)
    position = Position.start(deal(seed), rules)
    moves = []
    for _ in range(rng.randrange(1, 160)):
        legal = position.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = position.play(move)
    return record_from_moves(deal(seed), rules, moves, "unknown", seed=seed)


@pytest.mark.slow
def test_round_trip_on_two_thousand_solver_records() -> None:
    for seed in range(2000):
        record = solve(deal(seed)).record(seed=seed)
        line = to_notation(record)
        assert is_notation(line) and "\n" not in line
        back = from_notation(line)
        assert same_game(back, record)
        assert judge(back).outcome == judge(record).outcome


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["standard", "camelot", "optional+groups", "deplete+royals", "swap"])
def test_round_trip_on_random_legal_games(rules: str) -> None:
    for seed in range(300):
        record = random_game(seed, rules)
        assert same_game(from_notation(to_notation(record)), record)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64 - 1), st.sampled_from(["standard", "camelot", "groups", "royals+goal=clear"]))
def test_round_trip_with_a_written_out_deck(seed: int, rules: str) -> None:
    record = random_game(seed % 1000, rules)
    unnamed = record_from_moves(record.deck, record.rules, list(record.moves), "unknown")
    line = to_notation(unnamed)
    assert line.split(" ")[1].startswith("d:")
    assert same_game(from_notation(line), unnamed)


def test_verify_and_replay_accept_the_notation() -> None:
    line = to_notation(solve(deal(0)).record(seed=0))
    assert run("verify", "-", input=line + "\n").stdout.startswith("won: ")
    told = run("replay", "--style", "line", "-", input=line)
    assert told.exit_code == 0 and told.stdout.splitlines()[-1].startswith("Won: ")
    assert run("solve", "--seed", "0", "--format", "notation").stdout.strip() == line


@pytest.mark.parametrize(
    "text, message",
    [
        ("KC1 s0", "<stdin>: expected 'KC1 DECK RULES MOVES', got 'KC1 s0'"),
        ("KC1 q7 standard b2", "<stdin>: the deck must be s<N>, p<N> or d:<52 cards>, got 'q7'"),
        (
            "KC1 s0 bogus b2",
            "<stdin>: unknown rule preset 'bogus' (kcsolve rules lists them)",
        ),
        ("KC1 s0 standard b2(z9)", "<stdin>: cannot read the moves at '(z9)'"),
        ("KC1 d:ASAS standard b2", "<stdin>: duplicate card 'AS' at positions 1 and 2"),
    ],
)
def test_bad_notation_is_one_line(text: str, message: str) -> None:
    assert_bad_input(run("verify", "-", input=text), message)


def test_an_illegal_move_in_the_notation_is_a_verdict() -> None:
    result = run("verify", "-", input="KC1 s0 standard b2b2")
    assert result.exit_code == 1 and result.stdout == "illegal move 2: place JD in b2: the cell holds 8C\n"


@given(st.lists(st.sampled_from([f"{c}{r}" for c in "abcd" for r in "1234"]), min_size=1, max_size=40))
def test_a_removal_names_at_most_the_grids_cells(cells: list[str]) -> None:
    """In both forms of a record: more cells than the grid's 16 is a malformed record, named, not an illegal move."""
    from kcsolve.patience.record import InvalidRecordError, parse_record

    line = f"KC1 s0 standard ({''.join(cells)})"
    record = {"deck": [str(c) for c in deal(0)], "moves": [{"remove": cells}]}
    if len(cells) <= 16:
        assert from_notation(line).moves == parse_record(json.dumps(record)).moves
        return
    with pytest.raises(
        InvalidRecordError, match=rf"^notation: move 1: a removal names {len(cells)} cells, more than the grid's 16$"
    ):
        from_notation(line)
    with pytest.raises(
        InvalidRecordError, match=rf"^record: move 1: a removal names {len(cells)} cells, more than the grid's 16$"
    ):
        parse_record(json.dumps(record))


def test_a_line_of_more_moves_than_any_game_is_refused() -> None:
    assert_bad_input(
        run("verify", "-", input="KC1 s0 standard " + "(a1)" * 300),
        "<stdin>: more than 208 moves, more than any game has",
    )


@pytest.mark.parametrize(
    "field, message",
    [
        ("s99999999999999999999999", "'s99999999999999999999999' is out of range: a deal number is from 0 to 2**64-1"),
        (f"s{2**64}", f"'s{2**64}' is out of range: a deal number is from 0 to 2**64-1"),
        ("s" + "9" * 2000, f"'s{'9' * 2000}' is out of range: a deal number is from 0 to 2**64-1"),
        ("p0", "'p0' is out of range: a PySolFC game number is from 1 to 10**20"),
        (f"p{10**20 + 1}", f"'p{10**20 + 1}' is out of range: a PySolFC game number is from 1 to 10**20"),
    ],
)
def test_a_notation_deal_number_out_of_range_is_quoted_whole(field: str, message: str) -> None:
    result = run("verify", "-", input=f"KC1 {field} standard b2\n")
    assert_bad_input(result, None)
    assert shorten(f"<stdin>: {message}") == result.stderr.removeprefix("Error: ").rstrip("\n")


def test_a_notation_deal_number_in_range_is_still_read() -> None:
    assert run("verify", "-", input=f"KC1 s{2**64 - 1} standard\n").exit_code == 1
    padded, plain = run("verify", "-", input="KC1 s007 standard\n"), run("verify", "-", input="KC1 s7 standard\n")
    assert (padded.exit_code, padded.stdout) == (plain.exit_code, plain.stdout)
