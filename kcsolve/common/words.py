"""Counts in words, for every message kcsolve prints."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``1 deal``, ``2 deals``, ``1,000 deals``."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")
