"""numba's njit, cached on disk where numba can write its cache, and quietly uncached where it cannot.

A system-wide install or a read-only container may leave numba no writable
cache folder (neither beside the module nor in the user's cache directory).
numba then refuses ``cache=True`` at decoration time; here the function is
compiled at each run instead, with no message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def jit(signature: str | None = None, nogil: bool = False) -> Callable[[Callable[..., Any]], Any]:
    """Compile a function with numba in nopython mode, with the on-disk cache when numba can keep one.

    ``nogil`` lets threads run the compiled function at the same time.
    """
    from numba import njit

    def decorate(function: Callable[..., Any]) -> Any:
        try:
            return njit(signature, cache=True, nogil=nogil)(function)
        except RuntimeError:  # "cannot cache function ...: no locator available": nowhere to write
            return njit(signature, nogil=nogil)(function)

    return decorate
