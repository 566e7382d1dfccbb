"""Counts in words, for every message kcsolve prints."""

from __future__ import annotations

import textwrap


def plural(n: int, word: str) -> str:
    """``1 deal``, ``2 deals``, ``1,000 deals``."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def wrapped(text: str, first: str = "", rest: str = "  ", width: int = 80) -> list[str]:
    """``text`` in lines of at most ``width`` columns: the first begins with ``first``, the others with ``rest``."""
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False) or [first]
