"""JSON text read with every way it can be bad named in one line: syntax, nesting, numbers too long to convert,
a key given twice; and the opening every reader shares (size, parse, "must be a JSON object") in one place."""

from __future__ import annotations

import json
import sys
from typing import Any

from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError

# The words of the opening's refusals, as templates of the caller's source, reason, what and kind
NOT_JSON = "{source}: not valid JSON: {reason}"
NOT_OBJECT = "{source}: {what} must be a JSON object, not {kind}"


class JsonTextError(KcsolveError):
    """Text that is not JSON Python can read; the message says why (the caller names the source)."""


class _DuplicateKey(Exception):
    """A key met twice in one object, raised from inside the decoder and turned into a JsonTextError below."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's keys and values as a dict; a key given twice is refused, since either value could be meant."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


def read_json(text: str) -> Any:
    """The value of a JSON text (a leading byte order mark skipped); JsonTextError says what is wrong and where."""
    try:
        return json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_object)
    except _DuplicateKey as exc:
        raise JsonTextError(f"the key {brief(exc.args[0])} appears twice in one object") from None
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"{exc.msg.removesuffix(' at')} at line {exc.lineno}") from None
    except RecursionError:
        raise JsonTextError("nested too deeply") from None
    except ValueError:  # Python refuses to convert an integer this long (a guard against slow conversions)
        raise JsonTextError(f"a number has more than {sys.get_int_max_str_digits():,} digits") from None


def json_kind(value: object) -> str:
    """A JSON value's type in JSON's words ('an object', 'a list', 'null', 'true'), for an error line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    names = {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)


def read_value(
    text: str, source: str, error: type[KcsolveError], limit: int | None = None, not_json: str = NOT_JSON
) -> Any:
    """The JSON value of ``text``; ``error`` names ``source`` when the text is over ``limit`` characters or not JSON."""
    if limit is not None and len(text) > limit:
        raise error(f"{source}: more than {limit:,} characters (the most kcsolve reads)")
    try:
        return read_json(text)
    except JsonTextError as exc:
        raise error(not_json.format(source=source, reason=exc)) from None


def read_object(
    text: str,
    source: str,
    error: type[KcsolveError],
    what: str = "a record",
    limit: int | None = None,
    *,
    not_json: str = NOT_JSON,
    not_object: str = NOT_OBJECT,
) -> dict[str, Any]:
    """The JSON object ``text`` holds (``read_value``); anything else is refused with ``not_object``'s words."""
    data = read_value(text, source, error, limit, not_json)
    if not isinstance(data, dict):
        raise error(not_object.format(source=source, what=what, kind=json_kind(data)))
    return data
