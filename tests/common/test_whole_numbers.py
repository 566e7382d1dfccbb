"""A number typed to kcsolve is written in the ASCII digits 0-9 alone, the same in the library, the notation and
every integer option: no '_', no sign, no spaces inside, no other script's digits (int() takes all of these)."""

from __future__ import annotations

import re

import click
import pytest
from clitools import run
from hypothesis import given
from hypothesis import strategies as st

from kcsolve.cli import cli
from kcsolve.common.deal import InvalidNumberError, InvalidSeedError, deal, is_whole, parse_whole
from kcsolve.patience.notation import from_notation
from kcsolve.patience.record import InvalidRecordError

ASCII_DIGITS = re.compile(r"[0-9]+", re.ASCII)
# what int() reads as a number though it is not ASCII digits alone
LOOKALIKES = ["٣", "\uff13", "1_000", "1_0", "+3", "0x10", "٣٣", "१२", "\U0001d7d7", "3\u00a0"]


def not_digits() -> st.SearchStrategy[str]:
    """Texts that are not ASCII digits alone, many of which int() would read."""
    digits = st.characters(categories=["Nd"])
    mixed = st.text(st.sampled_from("0123456789_+- \t") | digits, min_size=1, max_size=12)
    return (mixed | st.text(max_size=12) | st.sampled_from(LOOKALIKES)).filter(
        lambda text: not ASCII_DIGITS.fullmatch(text)
    )


@given(not_digits())
def test_anything_but_ascii_digits_is_refused_by_every_reader_alike(text: str) -> None:
    assert not is_whole(text)
    with pytest.raises(InvalidNumberError):
        parse_whole(text)
    if text.strip(" \t\r\n") and not ASCII_DIGITS.fullmatch(text.strip(" \t\r\n")):  # deal() allows spaces around
        with pytest.raises(InvalidSeedError):
            deal(text)
    if " " not in text:
        with pytest.raises(InvalidRecordError):
            from_notation(f"KC1 s{text} standard")


@given(st.integers(0, 2**64 - 1))
def test_ascii_digits_are_read_by_every_reader_alike(number: int) -> None:
    text = str(number)
    assert parse_whole(text) == number
    assert deal(text) == deal(number) == from_notation(f"KC1 s{text} standard").deck


def integer_options() -> list[tuple[list[str], str]]:
    """Every integer option of every command: the words that name the command, and the option."""
    found = []

    def walk(command: click.Command, words: list[str]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(click.Context(command)):
                walk(command.get_command(click.Context(command), name), [*words, name])  # type: ignore[arg-type]
            return
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, click.types.IntParamType):
                found.append((words, param.opts[0]))

    walk(cli, [])
    return found


OPTIONS = integer_options()


def test_the_walk_finds_the_integer_options() -> None:
    assert (["deal"], "--seed") in OPTIONS and (["corner", "sim"], "--games") in OPTIONS and len(OPTIONS) > 20


@pytest.mark.parametrize(("words", "option"), OPTIONS, ids=[" ".join(w) + " " + o for w, o in OPTIONS])
@pytest.mark.parametrize("text", ["٣", "1_000", "+3"])
def test_every_integer_option_refuses_what_is_not_ascii_digits(words: list[str], option: str, text: str) -> None:
    result = run(*words, option, text)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"Error: Invalid value for {option!r}: {text!r} is not a valid integer.\n"


def test_a_negative_number_is_left_to_the_range_check() -> None:
    result = run("deal", "--seed", "-1")
    assert result.exit_code == 2 and "2**64-1" in result.stderr
