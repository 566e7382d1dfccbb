"""JSON text read with every way it can be bad named in one line: syntax, nesting, numbers too long to convert,
a key given twice."""

from __future__ import annotations

import json
import sys
from typing import Any

from kcsolve.common.words import brief
from kcsolve.errors import KcsolveError


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
