"""The user's cache folder, where kcsolve keeps what it may rebuild: measured dates, compiled code."""

from __future__ import annotations

import os
from pathlib import Path

from kcsolve.errors import KcsolveError

CACHE_ENV = "KCSOLVE_CACHE_DIR"


class CacheFolderError(KcsolveError):
    """A cache folder that cannot be made: a file holds its name or a name above it, or it may not be written."""


def cache_root() -> Path:
    """Where kcsolve keeps what it reuses: $KCSOLVE_CACHE_DIR, else $XDG_CACHE_HOME/kcsolve, else ~/.cache/kcsolve."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kcsolve"


def made_folder(folder: Path) -> Path:
    """``folder``, a cache folder made if it is missing; CacheFolderError naming what chose it where it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        chosen = os.environ.get(CACHE_ENV)
        named = f"{CACHE_ENV}={chosen!r}" if chosen else f"the cache folder {str(folder)!r}"
        raise CacheFolderError(f"{named} cannot be used: {_blocked(folder) or exc.strerror or exc}") from None
    return folder


def _blocked(folder: Path) -> str:
    """What stands where ``folder`` or a folder above it should be, in words; '' when nothing does."""
    for above in (folder, *folder.parents):
        if above.exists() and not above.is_dir():
            return f"{str(above)!r} is a file, not a folder" if above.is_file() else f"{str(above)!r} is not a folder"
    return ""
