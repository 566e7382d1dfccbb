"""A record's mode: written for a face-up game, read by verify and analyse, in the schema and the notation."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest
from clitools import assert_bad_input, run, write
from hypothesis import given, settings
from hypothesis import strategies as st

from kcsolve.common.deal import deal
from kcsolve.patience.engine import cell_index
from kcsolve.patience.notation import from_notation, to_notation
from kcsolve.patience.players.analysis import analyse, solver_options
from kcsolve.patience.record import InvalidRecordError, Record, RecordedPlace, record_from_json
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.route import solve

# seed 0 played face up: move 14 (8S in d1) loses a deal that c3 would have kept winnable; move 15 ends it
LOST = "KC1 s0 standard face-up d2d3b3c1c2c4a4b1a1d4a3b2a2d1b4"


def face_up_win() -> dict:
    """The solver's win of deal 0 as a face-up record."""
    return {**solve(deal(0)).record(seed=0).to_json(), "mode": "face-up"}


def test_a_record_says_its_mode_and_refuses_another() -> None:
    assert record_from_json(face_up_win()).face_up
    assert not record_from_json({**face_up_win(), "mode": "face-down"}).face_up
    assert not record_from_json({k: v for k, v in face_up_win().items() if k != "mode"}).face_up
    with pytest.raises(InvalidRecordError, match=r"^record: 'mode' must be face-down or face-up, not \"sideways\"$"):
        record_from_json({**face_up_win(), "mode": "sideways"})


def test_verify_reads_both_modes_and_names_a_bad_one(tmp_path: Path) -> None:
    assert run("verify", write(tmp_path, face_up_win())).exit_code == 0
    assert run("verify", "-", input=LOST + "\n").exit_code == 1
    result = run("verify", write(tmp_path, {**face_up_win(), "mode": 1}))
    assert_bad_input(result, None)
    assert "'mode' must be face-down or face-up, not 1" in result.stderr


def test_the_schema_takes_the_two_modes_only() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(files("kcsolve.patience").joinpath("schema/record.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(face_up_win(), schema)
    jsonschema.validate({**face_up_win(), "mode": "face-down"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**face_up_win(), "mode": "up"}, schema)


def test_the_notation_carries_the_mode() -> None:
    record = from_notation(LOST)
    assert record.face_up and len(record.moves) == 15 and to_notation(record) == LOST
    assert to_notation(record_from_json(face_up_win())).startswith("KC1 s0 standard face-up b")
    assert not from_notation("KC1 s0 standard face-down b2").face_up
    assert to_notation(from_notation("KC1 s0 standard face-down b2")) == "KC1 s0 standard b2"
    assert from_notation("KC1 s0 standard face-up").face_up and not from_notation("KC1 s0 standard face-up").moves
    with pytest.raises(InvalidRecordError, match="expected 'KC1 DECK RULES MOVES'"):
        from_notation("KC1 s0 standard face-up b2 b3")


@settings(max_examples=60, deadline=None)
@given(cells=st.lists(st.sampled_from(["a1", "b2", "c3", "d4", "a4", "b3"]), max_size=20), face_up=st.booleans())
def test_the_notation_round_trips_either_mode(cells: list[str], face_up: bool) -> None:
    deck = deal(7)
    moves = tuple(RecordedPlace(deck[n], cell_index(cell)) for n, cell in enumerate(cells))
    record = Record(deck, STANDARD, "unknown", moves, {"seed": 7, **({"mode": "face-up"} if face_up else {})})
    back = from_notation(to_notation(record))
    assert back.face_up == face_up and back.moves == record.moves and back.deck == deck


def test_analyse_judges_a_face_up_game_by_the_solver_alone() -> None:
    result = run("analyse", "-", input=LOST + "\n")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("15 moves, played face up")
    assert any(line.startswith("  14  8S in d1         ??  no  best: place in c3") for line in lines)
    assert "sampled" not in result.stdout and "Kept" not in result.stdout
    assert lines[-1] == "First fatal move: 14 (8S in d1); the deal could be won before it and not after."
    assert all(len(line) <= 80 for line in lines)
    data = json.loads(run("analyse", "-", "--format", "json", input=LOST + "\n").stdout)
    assert data["summary"] == {"mode": "face-up", "moves": 15, "choices": 11, "first_fatal": 14}
    assert data["moves"][13]["best_move"] == "place in c3" and "figure" not in data["moves"][13]


def test_analyse_of_the_same_game_face_down_keeps_the_figures() -> None:
    down = LOST.replace(" face-up", "")
    data = json.loads(run("analyse", "-", "--format", "json", "--playouts", "10", input=down + "\n").stdout)
    assert data["summary"]["mode"] == "face-down" and "kept_in_all" in data["summary"]
    assert "figure" in data["moves"][0]


def test_solver_options_put_the_winning_ones_first() -> None:
    position = analyse(from_notation(LOST)).reports[13].before
    assert [(str(move), verdict) for move, verdict in solver_options(position)] == [
        ("place in c3", "win"),
        ("place in d1", "loss"),
        ("place in b4", "loss"),
    ]
