"""Fixtures shared by every test folder.

The test folders mirror the package (``tests/patience``, ``tests/players``,
``tests/corner``, ``tests/cli``, ...). This file's folder is on ``sys.path``
(pytest's default import mode puts it there), so every test can import the
command-line helpers of ``clitools``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


@pytest.fixture(scope="session")
def golden() -> Path:
    """The folder of golden files."""
    return TESTS / "golden"


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository's root: seeds/, puzzles/, scripts/."""
    return REPO


@pytest.fixture(scope="session", autouse=True)
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Module and session fixtures keep measured dates in a folder of the test run's, never in the user's cache."""
    import os

    os.environ["KCSOLVE_CACHE_DIR"] = str(tmp_path_factory.mktemp("kcsolve-cache"))


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with an empty cache, so what one test keeps cannot answer another."""
    monkeypatch.setenv("KCSOLVE_CACHE_DIR", str(tmp_path_factory.mktemp("kcsolve-cache")))
