"""The tables the browser's engine copies by hand from the Python equal the Python's: rule axes, presets, messages."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from clitools import need_node

from kcsolve.common.cards import JACK, KING, QUEEN
from kcsolve.patience import engine
from kcsolve.patience.rules import AXES, PRESETS, Rules, catalogue

TABLES = Path(__file__).parent / "js" / "shared_tables.mjs"
COURT_RANKS = (JACK, QUEEN, KING)


@pytest.fixture(scope="module")
def tables() -> dict:
    """The engine.mjs tables, as shared_tables.mjs prints them."""
    node = need_node("the JavaScript engine")
    shown = subprocess.run([node, str(TABLES)], check=True, capture_output=True, text=True, timeout=60)
    return json.loads(shown.stdout)


def test_the_javascript_axes_and_presets_are_the_python_ones(tables: dict) -> None:
    assert list(tables["axes"].items()) == [(axis, [o.value for o in options]) for axis, options in AXES.items()]
    assert list(tables["presets"].items()) == [
        (name, {axis: option.value for axis, option in settings.items()}) for name, settings in PRESETS.items()
    ]
    assert tables["parsed"] == catalogue()["presets"]


def test_the_javascript_messages_are_the_python_ones(tables: dict) -> None:
    # the engine's phrases are private to it; the mirror must still spell them alike
    assert tables["courtWord"] == {str(rank): engine._court_word(rank) for rank in COURT_RANKS}
    assert tables["noRoom"] == {
        courts.value: {str(rank): engine._no_room(rank, Rules(courts=courts)) for rank in COURT_RANKS}
        for courts in AXES["courts"]
    }
