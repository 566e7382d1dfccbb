"""Headless Chromium for the browser tests: Debian's package, driven by Playwright for Python.

A browser test module calls :func:`need_chromium` at import (it skips the
module where Chromium or Playwright is missing) and asks for the ``browser``
fixture of tests/conftest.py, which launches one browser for the module with
:data:`ARGS`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# No sandbox (containers), no GPU, and nothing the browser would fetch by itself: the pages are tested offline.
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def need_chromium() -> ModuleType:
    """Playwright's sync API; the calling test module is skipped where Chromium or Playwright is missing."""
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium: the browser tests need Debian's chromium package", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")


def launched_browser() -> Iterator[Any]:
    """One headless Chromium, closed when the caller's fixture ends."""
    sync_api = need_chromium()
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


class QuietHandler(SimpleHTTPRequestHandler):
    """A folder's files, with no log line per request on the test's output."""

    def log_message(self, format: str, *args: object) -> None:
        """Say nothing."""


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The address of ``folder`` on a local HTTP server (127.0.0.1, a secure context), in a thread of this process."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join()
