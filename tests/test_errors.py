"""Every error kcsolve raises on purpose is a KcsolveError, and the command line reports any of them alike."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import io
import json
import os
import pkgutil
from pathlib import Path

import pytest
from clitools import assert_bad_input, run

import kcsolve
from kcsolve.cli.base import ReaderGone
from kcsolve.common.budget import OutOfBudget
from kcsolve.errors import KcsolveError
from kcsolve.patience.solve import route
from kcsolve.patience.solve.solution import RejectedLineError
from kcsolve.patience.solve.theory import NoSeatError

BUGS = {RejectedLineError, NoSeatError}  # a bug in kcsolve, never bad input: a traceback, not an error line
# control flow, caught where it is meant to be: inside a search, or in the command line when its reader leaves
SIGNALS = {OutOfBudget, ReaderGone}
OPTIONAL = {"kcsolve.corner.spiel.openspiel": "pyspiel"}  # modules that need an optional package, and the package


def _error_classes() -> set[type[BaseException]]:
    """The exception classes defined in the package's modules, except private ones and interrupts."""
    found = set()
    for info in pkgutil.walk_packages(kcsolve.__path__, prefix="kcsolve."):
        if info.name.endswith("__main__"):
            continue  # importing it runs the command line
        if info.name in OPTIONAL and importlib.util.find_spec(OPTIONAL[info.name]) is None:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and not name.startswith("_")
                and not issubclass(value, KeyboardInterrupt)
            ):
                found.add(value)
    return found


def test_every_error_is_a_kcsolve_error() -> None:
    classes = _error_classes()
    assert len(classes) > 30  # the walk did find the package's errors
    assert sorted(c.__qualname__ for c in classes - BUGS - SIGNALS if not issubclass(c, KcsolveError)) == []


def test_bugs_are_assertions_not_bad_input() -> None:
    assert _error_classes() >= BUGS
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


BAD_CALLS = [  # (a call of the public API on what it cannot use, the error it raises, its message)
    (
        lambda: kcsolve.parse_rules(None),
        kcsolve.InvalidRulesError,
        "rules are a text such as 'standard' or 'swap+goal=deplete', not None",
    ),
    (
        lambda: kcsolve.parse_rules(5),
        kcsolve.InvalidRulesError,
        "rules are a text such as 'standard' or 'swap+goal=deplete', not 5",
    ),
    (
        lambda: kcsolve.parse_budget(None),
        kcsolve.InvalidBudgetError,
        "a budget is a text such as '2s,100000', not NoneType",
    ),
    (lambda: kcsolve.parse_card(None), kcsolve.InvalidCardError, "not a card: None (a card is a text such as 'TS')"),
    (lambda: kcsolve.parse_deck(5), kcsolve.InvalidDeckError, "a deck file's text is a string, not int"),
    (lambda: kcsolve.parse_record(b"{}"), kcsolve.InvalidRecordError, "record: a record's text is a string, not bytes"),
    (
        lambda: kcsolve.read_record(None),
        kcsolve.InvalidRecordError,
        "a record is read from a path or an open text file, not None",
    ),
    (
        lambda: kcsolve.read_record(0),
        kcsolve.InvalidRecordError,
        "a record is read from a path or an open text file, not 0",
    ),
    (
        lambda: kcsolve.read_record(1),
        kcsolve.InvalidRecordError,
        "a record is read from a path or an open text file, not 1",
    ),
    (
        lambda: kcsolve.read_record(True),
        kcsolve.InvalidRecordError,
        "a record is read from a path or an open text file, not True",
    ),
    (
        lambda: kcsolve.read_record(io.BytesIO(b"{}")),
        kcsolve.InvalidRecordError,
        "the open file is open in binary mode: open a record as text",
    ),
    (
        lambda: kcsolve.Rules(removal="bogus"),
        kcsolve.InvalidRulesError,
        "Rules(removal=...) takes a Removal such as Removal.OPTIONAL, not 'bogus'",
    ),
    (
        lambda: kcsolve.Rules(sets=5),
        kcsolve.InvalidRulesError,
        "Rules(sets=...) takes a Sets such as Sets.GROUPS, not 5",
    ),
    (
        lambda: kcsolve.Card("ZZ"),
        kcsolve.InvalidCardError,
        "not a card: Card('ZZ', None) (ranks are 1 to 13, suits 'S', 'H', 'D', 'C', None)",
    ),
    (lambda: kcsolve.deal(-1), kcsolve.InvalidSeedError, "seed must be between 0 and 2**64-1, got -1"),
    (
        lambda: kcsolve.PLAYERS["strong"]("x"),
        kcsolve.InvalidSeedError,
        "a deal number is a whole number from 0 to 2**64-1, got 'x'",
    ),
    (
        lambda: kcsolve.PLAYERS["strong"](7)(kcsolve.Position.start(kcsolve.deal(0))),
        kcsolve.InvalidViewError,
        "a player is given a PlayerView (Position.view() makes one), not Position",
    ),
    (
        lambda: kcsolve.solve(kcsolve.deal(0)).record(seed=-1),
        kcsolve.InvalidSeedError,
        "seed must be between 0 and 2**64-1, got -1",
    ),
    (
        lambda: kcsolve.solve(kcsolve.deal(0)).record(seed="x"),
        kcsolve.InvalidSeedError,
        "a deal number is a whole number from 0 to 2**64-1, got 'x'",
    ),
    (
        lambda: kcsolve.judge(kcsolve.solve(kcsolve.deal(0)).record(), "nonsense"),
        kcsolve.InvalidRulesError,
        "unknown rule preset 'nonsense' (kcsolve rules lists them)",
    ),
    (
        lambda: kcsolve.replay(kcsolve.solve(kcsolve.deal(0)).record(), 5),
        kcsolve.InvalidRulesError,
        "rules must be a Rules value or a preset string, not 5",
    ),
    (lambda: kcsolve.Position.start(None), kcsolve.InvalidDeckError, "a deck is a tuple of 52 cards, not NoneType"),
    (
        lambda: kcsolve.Position.start(kcsolve.deal(0)[:51]),
        kcsolve.InvalidDeckError,
        "deck has 51 cards, expected 52; missing " + str(kcsolve.deal(0)[51]),
    ),
    (
        lambda: kcsolve.Position.start(kcsolve.deal(0), 5),
        kcsolve.InvalidRulesError,
        "rules must be a Rules value or a preset string, not 5",
    ),
    (
        lambda: kcsolve.Position.start(kcsolve.deal(0)).play(None),
        kcsolve.IllegalMoveError,
        "not a move: None (a move is a Place or a Remove)",
    ),
    (
        lambda: kcsolve.Position.start(kcsolve.deal(0)).play(kcsolve.Place("a1")),
        kcsolve.IllegalMoveError,
        "place ('a1',): cells are numbered 0 to 15",
    ),
    (
        lambda: kcsolve.Position.start(kcsolve.deal(0)).play(kcsolve.Remove([1, 2])),
        kcsolve.IllegalMoveError,
        "remove [1, 2]: the cells of a removal are a tuple",
    ),
    (
        lambda: kcsolve.hints(kcsolve.Position.start(kcsolve.deal(0))),
        kcsolve.KcsolveError,
        "hints are given for a PlayerView (Position.view() makes one), not Position",
    ),
    (
        lambda: kcsolve.hints(kcsolve.Position.start(kcsolve.deal(0)).view(), 0),
        kcsolve.KcsolveError,
        "playouts must be a whole number from 1 to 100,000, not 0",
    ),
    (
        lambda: kcsolve.hints(kcsolve.Position.start(kcsolve.deal(0)).view(), 200, "x"),
        kcsolve.KcsolveError,
        "seed must be a whole number, not 'x'",
    ),
]


@pytest.mark.parametrize("call, error, message", BAD_CALLS)
def test_the_library_refuses_wrong_types_with_its_own_errors(call, error, message) -> None:  # type: ignore[no-untyped-def]
    """What the command line can never pass, a library caller can: it is refused like bad input, not by a crash."""
    with pytest.raises(error) as refused:
        call()
    assert str(refused.value) == message


@pytest.mark.parametrize("call", [call for call, _, _ in BAD_CALLS])
def test_every_error_a_public_function_raises_is_exported(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(KcsolveError) as refused:
        call()
    raised = type(refused.value)
    assert raised.__name__ in kcsolve.__all__ and getattr(kcsolve, raised.__name__) is raised


def test_dir_shows_the_public_names_only() -> None:
    assert dir(kcsolve) == sorted([*kcsolve.__all__, "__version__"])
    assert not {"Any", "TYPE_CHECKING", "annotations", "importlib"} & set(dir(kcsolve))
    assert all(getattr(kcsolve, name) is not None for name in dir(kcsolve))


def test_a_deal_number_may_be_given_as_its_text() -> None:
    assert kcsolve.deal("3") == kcsolve.deal(3) == kcsolve.deal(" 3 ")
    assert kcsolve.solve(kcsolve.deal(3)).record(seed="3").extra["seed"] == 3


def test_read_record_takes_a_path_a_path_like_or_an_open_text_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(kcsolve.solve(kcsolve.deal(3)).record(seed=3).to_json()), encoding="utf-8")
    with path.open(encoding="utf-8") as handle:
        read = [kcsolve.read_record(str(path)), kcsolve.read_record(path), kcsolve.read_record(handle)]
        assert not handle.closed  # the caller's file is the caller's to close
    assert read[0] == read[1] == read[2] and read[0].result == "win"
    assert kcsolve.read_record(io.StringIO(path.read_text(encoding="utf-8"))) == read[0]


def test_read_record_never_takes_a_number_for_a_file_descriptor(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(kcsolve.solve(kcsolve.deal(3)).record().to_json()), encoding="utf-8")
    descriptor = os.open(path, os.O_RDONLY)
    try:
        with pytest.raises(kcsolve.InvalidRecordError):
            kcsolve.read_record(descriptor)  # type: ignore[arg-type]
        assert os.fstat(descriptor)  # still open: read_record(1) would have closed the caller's stdout
    finally:
        os.close(descriptor)


def test_read_record_names_an_open_file_it_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{}")
    with path.open(encoding="utf-8") as handle, pytest.raises(kcsolve.InvalidRecordError) as refused:
        kcsolve.read_record(handle)
    assert str(refused.value).startswith(f"cannot read {str(path)!r}: 'utf-8' codec can't decode byte 0xff")
    with pytest.raises(kcsolve.InvalidRecordError) as refused:
        kcsolve.read_record(handle)
    assert str(refused.value) == f"cannot read {str(path)!r}: I/O operation on closed file."
