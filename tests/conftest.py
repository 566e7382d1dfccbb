"""Fixtures shared by every test folder.

The test folders mirror the package (``tests/patience``, ``tests/players``,
``tests/corner``, ``tests/cli``, ...). This file's folder is on ``sys.path``
(pytest's default import mode puts it there), so every test can import the
command-line helpers of ``clitools``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import launched_browser

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for one test module (tests/browsing.py); the module skips where there is none."""
    yield from launched_browser()


@pytest.fixture(scope="session")
def golden() -> Path:
    """The folder of golden files."""
    return TESTS / "golden"


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository's root: data/, puzzles/, scripts/."""
    return REPO


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Module and session fixtures keep measured dates in a folder of the test run's, never in the user's cache."""
    os.environ["KCSOLVE_CACHE_DIR"] = str(tmp_path_factory.mktemp("kcsolve-cache"))


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with an empty cache, so what one test keeps cannot answer another."""
    monkeypatch.setenv("KCSOLVE_CACHE_DIR", str(tmp_path_factory.mktemp("kcsolve-cache")))


@pytest.fixture(scope="session", autouse=True)
def _own_tmux() -> Iterator[None]:
    """The terminal tests talk to a tmux server of this process's own, not the user's nor another xdist worker's.

    With one shared server, a worker killing its last session stops the server
    while another worker's new session is connecting to it, and a test run from
    inside tmux would open its sessions in the user's own server.
    """
    folder = tempfile.mkdtemp(prefix="kcsolve-tmux-")  # short: the socket's path must fit in about 100 bytes
    os.environ.pop("TMUX", None)  # set inside tmux, where it would name the user's server
    os.environ["TMUX_TMPDIR"] = folder
    yield
    if shutil.which("tmux"):
        subprocess.run(["tmux", "kill-server"], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)
