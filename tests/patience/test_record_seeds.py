"""A record's deal number is checked as the schema says wherever a record is read (0 to 2**64-1, an integer, not a
bool, not NaN), so that a game that resumes can be saved again: refused in one line, exit 2, with the file intact."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from clitools import assert_bad_input, run, write
from hypothesis import given
from hypothesis import strategies as st

from kcsolve.common.deal import deal
from kcsolve.corner.records.record import InvalidCornerRecordError, parse_corner_file
from kcsolve.corner.records.saved import InvalidCornerSaveError, parse_saved
from kcsolve.patience.engine import Place
from kcsolve.patience.notation import read_game
from kcsolve.patience.record import InvalidRecordError, parse_record, record_from_moves
from kcsolve.patience.rules import STANDARD

SEED_LIMIT = 2**64


def bad_seeds() -> st.SearchStrategy[Any]:
    """Every kind of value the schema's seed is not."""
    return st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=SEED_LIMIT, max_value=2**200),
        st.booleans(),
        st.none(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=25),
        st.lists(st.integers(0, 9), max_size=2),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=1),
    )


def patience_record(**extra: Any) -> dict[str, Any]:
    """A saved game of deal 7: its first card placed."""
    return record_from_moves(deal(7), STANDARD, [Place(5)], "unknown", seed=7).to_json() | extra


def dumped(data: dict[str, Any]) -> str:
    """JSON as Python writes it: NaN and Infinity included, as a hand-edited file may have them."""
    return json.dumps(data)


@pytest.fixture(scope="module")
def corner_hand() -> dict[str, Any]:
    """A Kings Corner hand record from ``sim``."""
    return json.loads(run("corner", "sim", "--games", "1", "--seed", "5", "--format", "json").stdout.splitlines()[0])


@pytest.fixture(scope="module")
def corner_save(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A saved game of the Kings Corner table."""
    path = tmp_path_factory.mktemp("save") / "saved.json"
    run("corner", "play", "--seed", "3", input=f"save {path}\nquit\n")
    return json.loads(path.read_text())


@given(bad_seeds())
def test_a_bad_seed_is_refused_by_the_patience_readers(seed: Any) -> None:
    text = dumped(patience_record(seed=seed))
    for read in (parse_record, read_game):
        with pytest.raises(InvalidRecordError, match="'seed' must be a whole number from 0 to 2\\*\\*64-1, not "):
            read(text, "saved.json")


@given(st.integers(0, SEED_LIMIT - 1))
def test_every_deal_number_is_read(seed: int) -> None:
    assert parse_record(dumped(patience_record(seed=seed))).extra["seed"] == seed


@given(bad_seeds())
def test_a_bad_seed_is_refused_by_the_corner_readers(
    corner_hand: dict[str, Any], corner_save: dict[str, Any], seed: Any
) -> None:
    with pytest.raises(InvalidCornerRecordError, match="'seed' must be a deal number"):
        parse_corner_file(dumped({**corner_hand, "seed": seed}))
    with pytest.raises(InvalidCornerSaveError, match="'seed' must be a deal number"):
        parse_saved(dumped({**corner_save, "seed": seed}))


@pytest.mark.parametrize("seed", [-1, SEED_LIMIT, True, 1.5, math.nan, "3", None])
def test_play_refuses_a_saved_game_with_a_bad_seed_and_leaves_the_file(tmp_path: Path, seed: Any) -> None:
    text = dumped(patience_record(seed=seed))
    path = write(tmp_path, text, "saved.json")
    assert_bad_input(
        run("play", path), f"{path!r}: 'seed' must be a whole number from 0 to 2**64-1, not {json.dumps(seed)}"
    )
    assert Path(path).read_text() == text


def test_a_game_that_resumes_is_saved_again(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(dumped(patience_record(seed=SEED_LIMIT - 1)))
    result = run("play", str(first), "--plain", input=f"b1\nsave {second}\nquit\n")
    assert result.exit_code == 0 and f"Saved 2 moves to {second}" in result.stdout
    assert json.loads(second.read_text())["seed"] == SEED_LIMIT - 1


def test_load_inside_play_refuses_a_bad_seed_and_the_game_goes_on(tmp_path: Path) -> None:
    bad = write(tmp_path, dumped(patience_record(seed=-1)), "bad.json")
    result = run("play", "--seed", "7", "--plain", input=f"load {bad}\nquit\n")
    assert result.exit_code == 0
    assert "Cannot load: " in result.stdout and "'seed' must be a whole number" in result.stdout


@pytest.mark.parametrize(
    ("daily", "good"),
    [({"date": "2026-01-01", "seed": "7"}, True), ({"date": "2026-01-01", "seed": None}, True)]
    + [({"date": "2026-01-01", "seed": bad}, False) for bad in ["٣", "-1", "1_0", str(SEED_LIMIT), 7, ""]],
)
def test_the_daily_key_carries_its_seed_as_digits(daily: dict[str, Any], good: bool) -> None:
    text = dumped(patience_record(daily=daily))
    if good:
        assert parse_record(text).extra["daily"] == daily
    else:
        with pytest.raises(InvalidRecordError, match="daily 'seed' must be"):
            parse_record(text)


@pytest.mark.parametrize("pysol", [0, 10**20 + 1, True, "5", 2.0])
def test_a_bad_pysol_number_is_refused(pysol: Any) -> None:
    with pytest.raises(InvalidRecordError, match="'pysol' must be a whole number from 1 to 10\\*\\*20"):
        parse_record(dumped(patience_record(pysol=pysol)))
