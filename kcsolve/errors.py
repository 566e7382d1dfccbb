"""The root of kcsolve's own errors; it imports nothing from kcsolve, so every layer may import it.

A bug in kcsolve (a solver's line the engine refuses, a card with no seat) is an
``AssertionError`` and never a ``KcsolveError``: the command line must not report
it as bad input.
"""

from __future__ import annotations


class KcsolveError(ValueError):
    """The base of every error kcsolve raises on purpose; messages show the bad input with !r."""
