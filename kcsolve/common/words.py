"""Counts in words, and bad input cut short, for every message kcsolve prints."""

from __future__ import annotations

import textwrap


def plural(n: int, word: str) -> str:
    """``1 deal``, ``2 deals``, ``1,000 deals``."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def wrapped(text: str, first: str = "", rest: str = "  ", width: int = 80) -> list[str]:
    """``text`` in lines of at most ``width`` columns: the first begins with ``first``, the others with ``rest``."""
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False) or [first]


def clipped(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters, '...' marking the cut: a long bad input must not fill the error line."""
    return text if len(text) <= width else text[: width - 3] + "..."


def brief(value: object) -> str:
    """A value as Python writes it, cut to 40 characters, for an error line."""
    if isinstance(value, int) and value.bit_length() > 128:  # repr() refuses an int of over 4,300 digits
        return f"a number of {value.bit_length():,} bits"
    return clipped(repr(value))
