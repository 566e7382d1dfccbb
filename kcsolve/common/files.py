"""Files written whole or not at all."""

from __future__ import annotations

import os
import tempfile


def write_atomically(path: str, text: str) -> None:
    """Write a file whole or not at all: a temporary file beside it, then a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".kcsolve-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
