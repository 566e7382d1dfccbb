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
