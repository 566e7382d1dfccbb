"""JSON text read with every way it can be bad named in one line: syntax, nesting, numbers too long to convert."""

from __future__ import annotations

import json
import sys
from typing import Any

from kcsolve.errors import KcsolveError


class JsonTextError(KcsolveError):
    """Text that is not JSON Python can read; the message says why (the caller names the source)."""


def read_json(text: str) -> Any:
    """The value of a JSON text; JsonTextError says what is wrong and where."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"{exc.msg.removesuffix(' at')} at line {exc.lineno}") from None
    except RecursionError:
        raise JsonTextError("nested too deeply") from None
    except ValueError:  # Python refuses to convert an integer this long (a guard against slow conversions)
        raise JsonTextError(f"a number has more than {sys.get_int_max_str_digits():,} digits") from None
