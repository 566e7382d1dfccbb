"""Every error line fits 80 columns and still names its culprit; dates that do not exist and UTF-16 files say so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import assert_bad_input, run
from hypothesis import given
from hypothesis import strategies as st
from test_errors import BAD_CALLS

from kcsolve.cli.base import shorten, text_columns
from kcsolve.common.cards import full_deck

PACK = [str(c) for c in full_deck()]
LONG_PATH = "/home/someone/" + "deeply/nested/" * 8 + "deal-7.json"


def test_a_short_message_is_left_as_it_is() -> None:
    assert shorten("unknown card 'ZZ' at position 3") == "unknown card 'ZZ' at position 3"


def test_a_long_path_is_cut_in_the_middle_and_keeps_its_file_name_and_the_reason_whole() -> None:
    line = "Error: " + shorten(f"{LONG_PATH!r}: deck has 51 cards, expected 52; missing KC")
    assert text_columns(line) == 80
    assert line.endswith("deal-7.json': deck has 51 cards, expected 52; missing KC")
    assert line.startswith("Error: '/home/") and "..." in line


def test_a_path_of_ordinary_length_stays_whole_and_the_details_go_first() -> None:
    message = "'runs/store-2026.db' is damaged: --salvage NEW copies its intact chunks; truncated: 83,558 bytes"
    assert shorten(message) == "'runs/store-2026.db' is damaged: --salvage NEW copies its intact chunks"


def test_a_semicolon_inside_a_culprit_does_not_end_a_clause() -> None:
    message = "'a; b' is damaged: " + "x" * 50 + "; details"
    assert shorten(message) == "'a; b' is damaged: " + "x" * 50


def test_the_longest_culprit_is_cut_first() -> None:
    line = shorten(f"rules 'swap' in {LONG_PATH!r} disagree with 'royals'")
    assert "'swap'" in line and "'royals'" in line and "deal-7.json'" in line and text_columns(line) <= 73


def test_a_reason_too_long_for_the_line_loses_its_last_clause_then_its_end() -> None:
    assert shorten("x: " + "a" * 40 + " b; " + "c" * 40) == "x: " + "a" * 40 + " b"
    cut = shorten("x: " + "word " * 30)
    assert text_columns(cut) == 73 and cut.endswith("...")


@given(st.text(max_size=3000))
def test_any_message_becomes_one_line_of_at_most_80_columns(message: str) -> None:
    line = "Error: " + shorten(message)
    assert text_columns(line) <= 80 and len(line.splitlines()) <= 1


def test_wide_characters_count_two_columns() -> None:
    line = "Error: " + shorten(f"not a card: {'牌' * 60!r}")
    assert text_columns(line) <= 80 and line.startswith("Error: not a card: '牌")


def test_a_message_of_millions_of_characters_is_fitted_at_once() -> None:
    line = shorten(f"not a card: {'x' * 5_000_000 + 'END'!r}")
    assert text_columns(line) <= 73 and line.endswith("xEND'")


@pytest.mark.parametrize(
    "args, text",
    [
        (["solve"], " ".join(PACK[:2])),
        (["solve"], " ".join(["A"] * 4 + ["2"] * 3)),
        (["solve", "--rules", "nonsense"], " ".join(PACK)),
        (["verify"], json.dumps({"deck": PACK, "rules": "foo"})),
        (["verify"], json.dumps({"deck": PACK, "moves": [{"place": "AS", "cell": "a1"}] * 3 + [{"put": "x" * 90}]})),
        (["verify"], "{" * 200),
        (["replay"], json.dumps({"deck": [*PACK[:51], "ZZ" * 50]})),
        (["corner", "verify"], json.dumps({"format": "kcsolve-corner-record/2", "game": "x" * 200})),
    ],
)
def test_bad_files_at_a_long_path_get_one_line_of_80_columns(
    tmp_path: Path, args: list[str], text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / ("a-folder-with-a-long-name-" * 4)
    folder.mkdir()
    path = folder / "input.json"
    path.write_text(text, encoding="utf-8")
    assert_bad_input(run(*args, str(path)), None)  # at most 80 columns, one line, exit 2


def test_short_deck_messages_summarise_the_missing_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("deck.txt").write_text("AS 2S", encoding="utf-8")
    assert_bad_input(
        run("solve", "deck.txt"), "'deck.txt': deck has 2 cards, expected 52; missing 3S 4S 5S and 47 more"
    )
    Path("deck.txt").write_text(" ".join(["A"] * 4 + ["2"] * 4), encoding="utf-8")
    assert_bad_input(
        run("solve", "deck.txt"), "'deck.txt': deck has 8 cards, expected 52; missing ranks 3 3 3 and 41 more"
    )


def test_an_unknown_preset_points_to_the_list() -> None:
    assert_bad_input(
        run("solve", "--seed", "1", "--rules", "foo"), "unknown rule preset 'foo' (kcsolve rules lists them)"
    )
    assert_bad_input(
        run("corner", "deal", "--rules", "jokers=yes"),
        "unknown Kings Corner option 'jokers=yes' (kcsolve corner rules lists them)",
    )


@pytest.mark.parametrize("call, error, message", BAD_CALLS)
def test_library_messages_fit_a_line(call: object, error: object, message: str) -> None:
    assert text_columns(message) <= 80


@pytest.mark.parametrize(
    "text, why",
    [
        ("2027-02-29", "February 2027 has 28 days"),
        ("2028-02-30", "February 2028 has 29 days"),
        ("2027-04-31", "April 2027 has 30 days"),
        ("2027-13-01", "there is no month 13"),
        ("2027-00-10", "there is no month 00"),
        ("2027-01-00", "there is no day 00"),
        ("0000-01-01", "there is no year 0"),
    ],
)
def test_a_well_formed_date_that_does_not_exist_is_named_so(text: str, why: str) -> None:
    for command in (["daily", "--date", text], ["site", "--out", "unused", "--from", text], ["play", "--daily", text]):
        assert_bad_input(run(*command), f"no such day: {text!r} ({why})")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-16-le"])
@pytest.mark.parametrize("command", [["solve"], ["verify"], ["play"], ["corner", "verify"]])
def test_a_utf16_file_is_named_as_such(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, encoding: str, command: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    mark = "\ufeff" if encoding != "utf-16" else ""  # Python's utf-16 writes the byte-order mark itself
    Path("f.json").write_bytes((mark + json.dumps({"deck": PACK})).encode(encoding))
    assert_bad_input(run(*command, "f.json", input="quit\n"), "cannot read 'f.json': it is UTF-16, not UTF-8 text")


def test_other_bytes_that_are_not_utf8_are_named_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("f.json").write_bytes(b'{"deck": ["\xe9"]}')
    assert_bad_input(run("verify", "f.json"), "cannot read 'f.json': it is not UTF-8 text")


def test_a_utf16_record_is_named_by_the_library_too(tmp_path: Path) -> None:
    import kcsolve

    path = tmp_path / "f.json"
    path.write_bytes(json.dumps({"deck": PACK}).encode("utf-16"))
    with pytest.raises(kcsolve.InvalidRecordError) as refused:
        kcsolve.read_record(path)
    assert str(refused.value) == f"cannot read {path!r}: it is UTF-16, not UTF-8 text"
