"""One size limit for every file kcsolve reads, in the library and on the command line, said in the same words."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from clitools import assert_bad_input, run

import kcsolve
from kcsolve.common.cards import parse_deck
from kcsolve.common.deal import deal
from kcsolve.common.files import MAX_TEXT, TOO_LONG
from kcsolve.corner.records.record import parse_corner_file, parse_corner_lines, parse_position
from kcsolve.corner.records.saved import parse_saved
from kcsolve.errors import KcsolveError
from kcsolve.patience.notation import from_notation, read_game
from kcsolve.patience.record import parse_record, parse_record_list

READERS: list[Callable[[str, str], object]] = [
    lambda text, source: parse_deck(text),
    parse_record,
    parse_record_list,
    read_game,
    from_notation,
    parse_corner_file,
    parse_corner_lines,
    parse_position,
    parse_saved,
]


@pytest.mark.parametrize("read", READERS)
def test_every_library_reader_refuses_one_character_more_in_the_same_words(read: Callable[[str, str], object]) -> None:
    with pytest.raises(KcsolveError) as refused:
        read(" " * (MAX_TEXT + 1), "big")
    assert str(refused.value).endswith(TOO_LONG)


@pytest.mark.parametrize(
    "args",
    [
        ["solve"],
        ["verify"],
        ["replay"],
        ["analyse"],
        ["play"],
        ["corner", "verify"],
        ["corner", "replay"],
        ["corner", "turn"],
        ["corner", "play"],
    ],
)
def test_every_command_refuses_a_file_one_character_too_large(tmp_path: Path, args: list[str]) -> None:
    path = tmp_path / "big.json"
    path.write_text("{" + " " * MAX_TEXT + "}")
    assert_bad_input(run(*args, str(path)), f"{str(path)!r}: {TOO_LONG}")


def test_a_file_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    record = json.dumps(kcsolve.solve(deal(0)).record(seed=0).to_json())
    path = tmp_path / "padded.json"
    path.write_text(record + " " * (MAX_TEXT - len(record)))
    assert run("verify", str(path)).exit_code == 0
    assert kcsolve.read_record(str(path)).result == "win"


def test_the_limit_is_the_one_the_reference_states() -> None:
    reference = (Path(__file__).parents[2] / "docs" / "REFERENCE.md").read_text()
    assert f"{MAX_TEXT:,} characters" in reference
