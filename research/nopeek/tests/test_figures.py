"""The research commands write the figures the package quotes: one figure's fields, its command and the date."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from kcsolve.patience.odds.measured import read_figures
from research.nopeek.figures import PATH, command_line, record


def test_record_replaces_one_figures_fields_command_and_date_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "measured.json"
    shutil.copy(PATH, path)
    before = json.loads(path.read_text(encoding="utf-8"))
    written = record("rearranging", {"value": 0.25}, "python -m research.nopeek.tools.rearranged_value", path)
    after = json.loads(path.read_text(encoding="utf-8"))
    assert written == after["rearranging"]
    assert after["rearranging"] == before["rearranging"] | {
        "value": 0.25,
        "command": "python -m research.nopeek.tools.rearranged_value",
        "measured": dt.date.today().isoformat(),
    }
    assert {k: v for k, v in after.items() if k != "rearranging"} == {
        k: v for k, v in before.items() if k != "rearranging"
    }
    assert read_figures(path.read_text(encoding="utf-8"))["rearranging"]["value"] == 0.25
    record("exact_game", {"largest_block": 3}, "python -m x", path, command_field="memory_command")
    figure = json.loads(path.read_text(encoding="utf-8"))["exact_game"]
    assert figure["memory_command"] == "python -m x" and figure["command"] == before["exact_game"]["command"]
    assert [p.name for p in tmp_path.iterdir()] == ["measured.json"]  # nothing staged is left


def test_record_refuses_a_figure_the_package_does_not_quote(tmp_path: Path) -> None:
    path = tmp_path / "measured.json"
    shutil.copy(PATH, path)
    with pytest.raises(ValueError, match="no measured figure 'told'"):
        record("told", {}, "python -m x", path)
    assert path.read_bytes() == PATH.read_bytes()


def test_the_command_recorded_is_the_one_typed_without_record() -> None:
    line = command_line("research.nopeek.tools.bound_nopeek", ["--from", "310000", "--record", "--out", "a b.jsonl"])
    assert line == "python -m research.nopeek.tools.bound_nopeek --from 310000 --out 'a b.jsonl'"
