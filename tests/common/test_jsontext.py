"""The opening every JSON reader shares: the size check, the parse, the refusal of anything but an object."""

from __future__ import annotations

import pytest

from kcsolve.common.files import MAX_TEXT, TOO_LONG
from kcsolve.common.jsontext import json_kind, read_object, read_value
from kcsolve.errors import KcsolveError


class ReaderError(KcsolveError):
    """A reader's own error."""


def test_an_object_is_read() -> None:
    assert read_object('\ufeff{"a": [1, 2]}', "f", ReaderError) == {"a": [1, 2]}


def test_a_text_over_the_limit_is_refused_in_the_words_of_every_reader() -> None:
    with pytest.raises(ReaderError) as refused:
        read_object(" " * (MAX_TEXT + 1), "big", ReaderError, limit=MAX_TEXT)
    assert str(refused.value) == f"big: {TOO_LONG}"
    assert read_value(" 1" + " " * (MAX_TEXT - 2), "f", ReaderError, limit=MAX_TEXT) == 1


def test_text_that_is_not_json_is_refused_in_the_callers_words() -> None:
    with pytest.raises(ReaderError, match=r"^f: not valid JSON: Expecting value at line 1$"):
        read_object("[", "f", ReaderError)
    with pytest.raises(ReaderError, match=r"^f: not valid JSON \(Expecting value at line 1\)$"):
        read_value("[", "f", ReaderError, not_json="{source}: not valid JSON ({reason})")


@pytest.mark.parametrize(
    ("text", "kind"), [("[]", "a list"), ("null", "null"), ("true", "true"), ('"x"', "a string"), ("1.5", "a number")]
)
def test_anything_but_an_object_is_refused_naming_its_kind(text: str, kind: str) -> None:
    with pytest.raises(ReaderError) as refused:
        read_object(text, "f", ReaderError, "a saved thing")
    assert str(refused.value) == f"f: a saved thing must be a JSON object, not {kind}"


def test_the_refusal_may_be_the_callers_own_sentence() -> None:
    with pytest.raises(ReaderError) as refused:
        read_object("[1]", "f", ReaderError, "a position", not_object="{source}: {what} is a JSON object")
    assert str(refused.value) == "f: a position is a JSON object"


def test_json_kind_falls_back_to_the_python_type() -> None:
    assert json_kind({}) == "an object" and json_kind(False) == "false" and json_kind(object()) == "object"
