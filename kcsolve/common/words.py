"""Counts in words, and bad input cut short, for every message kcsolve prints."""

from __future__ import annotations

import re
import textwrap

NO_BREAK = "\N{NO-BREAK SPACE}"


def plural(n: int, word: str) -> str:
    """``1 deal``, ``2 deals``, ``1,000 deals``."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def wrapped(text: str, first: str = "", rest: str = "  ", width: int = 80) -> list[str]:
    """``text`` in lines of at most ``width`` columns: the first begins with ``first``, the others with ``rest``.

    A number stays with the word before it (``player 4``, ``deals 0..1,999``), a no-break space
    keeps a figure with its unit (it prints as a space), and a word longer than a line, a path
    say, gets a line of its own and is never cut, so that it can be copied.
    """
    text = re.sub(r"(?<=[A-Za-z]) (?=\d)", NO_BREAK, text)
    lines = textwrap.wrap(
        text, width, initial_indent=first, subsequent_indent=rest, break_long_words=False, break_on_hyphens=False
    ) or [first]
    return [line.replace(NO_BREAK, " ") for line in lines]


def paragraph(text: str, first: str = "", rest: str = "  ") -> str:
    """``text`` wrapped at 80 columns as one string, ready to print."""
    return "\n".join(wrapped(text, first, rest))


def clipped(text: str, width: int = 40) -> str:
    """``text`` cut to ``width`` characters, '...' marking the cut: a long bad input must not fill the error line."""
    return text if len(text) <= width else text[: width - 3] + "..."


def brief(value: object) -> str:
    """A value as Python writes it, cut to 40 characters, for an error line."""
    if isinstance(value, int) and value.bit_length() > 128:  # repr() refuses an int of over 4,300 digits
        return f"a number of {value.bit_length():,} bits"
    return clipped(repr(value))
