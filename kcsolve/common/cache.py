"""The user's cache folder, where kcsolve keeps what it may rebuild: measured dates, compiled code."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "KCSOLVE_CACHE_DIR"


def cache_root() -> Path:
    """Where kcsolve keeps what it reuses: $KCSOLVE_CACHE_DIR, else $XDG_CACHE_HOME/kcsolve, else ~/.cache/kcsolve."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kcsolve"
