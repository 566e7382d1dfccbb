"""Every error kcsolve raises on purpose is a KcsolveError, and the command line reports any of them alike."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from clitools import assert_bad_input, run

import kcsolve
from kcsolve.common.budget import OutOfBudget
from kcsolve.errors import KcsolveError
from kcsolve.patience.solve import route
from kcsolve.patience.solve.solution import RejectedLineError
from kcsolve.patience.solve.theory import NoSeatError

BUGS = {RejectedLineError, NoSeatError}  # a bug in kcsolve, never bad input: a traceback, not an error line
SIGNALS = {OutOfBudget}  # control flow inside a search, caught there: it never reaches a caller


def _error_classes() -> set[type[BaseException]]:
    """The exception classes defined in the package's modules, except private ones and interrupts."""
    found = set()
    for info in pkgutil.walk_packages(kcsolve.__path__, prefix="kcsolve."):
        if info.name.endswith("__main__"):
            continue  # importing it runs the command line
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == info.name
                    and not name.startswith("_") and not issubclass(value, KeyboardInterrupt)):
                found.add(value)
    return found


def test_every_error_is_a_kcsolve_error() -> None:
    classes = _error_classes()
    assert len(classes) > 30  # the walk did find the package's errors
    assert sorted(c.__qualname__ for c in classes - BUGS - SIGNALS if not issubclass(c, KcsolveError)) == []


def test_bugs_are_assertions_not_bad_input() -> None:
    assert BUGS <= _error_classes()
    for bug in BUGS:
        assert issubclass(bug, AssertionError) and not issubclass(bug, KcsolveError)


def test_kcsolve_error_is_exported_and_a_value_error() -> None:
    assert kcsolve.KcsolveError is KcsolveError and "KcsolveError" in kcsolve.__all__
    assert issubclass(kcsolve.KcsolveError, ValueError)


def test_a_new_library_error_reaches_the_user_as_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    class NewError(KcsolveError):
        """An error the command line has never heard of."""

    def refuse(rules: object) -> None:
        raise NewError(f"no such thing: {'x'!r}")

    monkeypatch.setattr(route, "as_rules", refuse)
    assert_bad_input(run("solve", "--seed", "1"), "no such thing: 'x'")
