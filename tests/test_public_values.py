"""Every public value of kcsolve pickles and copies, so that it can cross a process; records are always JSON."""

from __future__ import annotations

import copy
import inspect
import io
import json
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from importlib.resources import files
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kcsolve

DECK = kcsolve.deal(0)
POSITION = kcsolve.Position.start(DECK).play(kcsolve.Place(5))
VIEW = POSITION.view()
SOLUTION = kcsolve.solve(DECK)
LOST = kcsolve.solve(kcsolve.deal(1))
RECORD = json.dumps(LOST.record(seed=1).to_json())


def _raised(call: Callable[[], object]) -> BaseException:
    """The error ``call`` raises."""
    try:
        call()
    except Exception as exc:
        return exc
    raise AssertionError("no error raised")


# public name -> values of it to check: an instance of a class, the value of a constant, a function itself
SAMPLES: dict[str, list[Any]] = {
    "DEFAULT_BUDGET": [kcsolve.DEFAULT_BUDGET],
    "METHODS": [kcsolve.METHODS],
    "PLAYERS": [kcsolve.PLAYERS, *kcsolve.PLAYERS.values()],
    "STANDARD": [kcsolve.STANDARD],
    "Afterstate": [VIEW.after(VIEW.legal_moves()[0])],
    "Budget": [kcsolve.Budget(nodes=5, seconds=1.5), kcsolve.parse_budget("2s")],
    "Card": [kcsolve.parse_card("TS"), kcsolve.Card(13)],
    "Hint": kcsolve.hints(VIEW, playouts=4),
    "IllegalMoveError": [_raised(lambda: POSITION.play(kcsolve.Place(5)))],
    "InvalidBudgetError": [_raised(lambda: kcsolve.parse_budget("lots"))],
    "InvalidCardError": [_raised(lambda: kcsolve.parse_card("ZZ"))],
    "InvalidDeckError": [_raised(lambda: kcsolve.parse_deck("AS"))],
    "InvalidHintRequestError": [_raised(lambda: kcsolve.hints(POSITION))],  # type: ignore[arg-type]
    "InvalidRecordError": [_raised(lambda: kcsolve.parse_record("{"))],
    "InvalidRulesError": [_raised(lambda: kcsolve.parse_rules("bogus"))],
    "InvalidSeedError": [_raised(lambda: kcsolve.deal(-1))],
    "InvalidViewError": [_raised(lambda: kcsolve.PLAYERS["greedy"](0)(POSITION))],
    "KcsolveError": [kcsolve.KcsolveError("a message")],
    "Outcome": [POSITION.outcome()],
    "Place": [kcsolve.Place(3)],
    "Player": [],  # made afresh by each test: a random player's state changes as it plays
    "PlayerView": [VIEW],
    "Position": [POSITION, kcsolve.Position.start(DECK, "camelot")],
    "Record": [SOLUTION.record(seed=0), LOST.record(note=[1, {"a": None}]), kcsolve.read_record(io.StringIO(RECORD))],
    "Remove": [kcsolve.Remove((0, 1))],
    "Rules": [kcsolve.parse_rules("optional+groups")],
    "Solution": [SOLUTION, LOST, SOLUTION.noting(extra=1)],
    "Status": list(kcsolve.Status),
    "UnsupportedMethodError": [_raised(lambda: kcsolve.solve(DECK, "camelot+groups", "construct"))],
    "Verdict": list(kcsolve.Verdict),
}
FUNCTIONS = [name for name in kcsolve.__all__ if inspect.isfunction(getattr(kcsolve, name))]
ROUND_TRIPS: dict[str, Callable[[Any], Any]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
}


def test_every_public_name_has_a_sample() -> None:
    """A public name added to kcsolve without a sample here fails this test."""
    assert sorted(SAMPLES.keys() | set(FUNCTIONS)) == sorted(kcsolve.__all__)
    assert all(values for name, values in SAMPLES.items() if name != "Player")
    for name, values in SAMPLES.items():
        public = getattr(kcsolve, name)
        if isinstance(public, type):
            assert all(isinstance(value, public) for value in values), name


def _same(value: Any, other: Any) -> bool:
    """Whether a value came back as it went: equal, or the same error."""
    if isinstance(value, BaseException):
        return type(other) is type(value) and other.args == value.args and str(other) == str(value)
    return bool(other == value) and type(other) is type(value)


@pytest.mark.parametrize("how", ROUND_TRIPS)
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_public_values_copy_and_pickle(name: str, how: str) -> None:
    for value in SAMPLES[name]:
        assert _same(value, ROUND_TRIPS[how](value)), (name, value)


@pytest.mark.parametrize("how", ROUND_TRIPS)
@pytest.mark.parametrize("player", sorted(kcsolve.PLAYERS))
def test_players_copy_and_pickle_with_their_state(player: str, how: str) -> None:
    make = kcsolve.PLAYERS[player]
    played, fresh = make(7), make(7)
    for _ in range(3):
        played(VIEW)  # a random player's next moves depend on the moves it has made
    again = ROUND_TRIPS[how](played)
    assert [again(VIEW) for _ in range(3)] == [fresh(VIEW) for _ in range(6)][3:]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_public_functions_pickle_as_themselves(name: str) -> None:
    function = getattr(kcsolve, name)
    assert pickle.loads(pickle.dumps(function)) is function
    assert copy.copy(function) is function and copy.deepcopy(function) is function


def test_a_solutions_stats_stay_read_only_after_a_round_trip() -> None:
    again = pickle.loads(pickle.dumps(SOLUTION))
    assert again.stats == SOLUTION.stats and again.record().to_json() == SOLUTION.record().to_json()
    with pytest.raises(TypeError):
        again.stats["nodes"] = 0  # type: ignore[index]


def test_solve_maps_over_worker_processes() -> None:
    decks = [kcsolve.deal(seed) for seed in range(4)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        solutions = list(pool.map(kcsolve.solve, decks))
    assert [s.result for s in solutions] == [kcsolve.solve(deck).result for deck in decks]
    assert [s.deck for s in solutions] == decks


jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads(files("kcsolve.patience").joinpath("schema/record.schema.json").read_text(encoding="utf-8"))

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)
ANY_VALUES = (
    JSON_VALUES
    | st.floats()
    | st.builds(object)
    | st.sets(st.integers(), max_size=3)
    | st.binary(max_size=4)
    | st.tuples(st.integers(), st.text())
    | st.dictionaries(st.tuples(st.integers()), st.integers(), min_size=1, max_size=2)
    | st.complex_numbers()
)
KEYS = st.sampled_from(["seed", "pysol", "result", "moves", "deck", "rules", "format", "stats", "loss", "best"])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8) | KEYS, ANY_VALUES | st.integers(-2, 2**65), max_size=4))
def test_a_record_is_json_that_passes_the_schema_or_its_arguments_are_refused(extra: dict[str, Any]) -> None:
    for solution in (SOLUTION, LOST):
        try:
            record = solution.record(**extra)
        except kcsolve.KcsolveError:
            continue
        data = json.loads(json.dumps(record.to_json(), allow_nan=False))
        assert data == record.to_json()
        jsonschema.validate(data, SCHEMA)
        assert kcsolve.parse_record(json.dumps(data)).result == solution.result


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"result": "loss"}, "record() writes 'result' itself: give other keys"),
        ({"stats": {}}, "record() writes 'stats' itself: give other keys"),
        ({"weird": object()}, "record key 'weird': not a JSON value: <object object at"),
        ({"ratio": float("nan")}, "record key 'ratio': not a JSON value: nan"),
        ({"seed": True}, "a deal number is a whole number from 0 to 2**64-1, got True"),
        ({"pysol": 0}, "PySolFC game number must be between 1 and 10**20, got 0"),
    ],
)
def test_bad_record_arguments_are_refused_by_name(extra: dict[str, Any], message: str) -> None:
    with pytest.raises(kcsolve.KcsolveError) as caught:
        SOLUTION.record(**extra)
    assert str(caught.value).startswith(message)


def test_record_values_are_written_as_json_gives_them_back() -> None:
    assert SOLUTION.record(pair=(1, 2), seed="7").extra == {"pair": [1, 2], "seed": 7, "stats": dict(SOLUTION.stats)}
