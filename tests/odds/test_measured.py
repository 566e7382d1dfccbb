"""The measured no-peek figures: one file in the package, and every quote of them in the docs is that file's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kcsolve.errors import KcsolveError
from kcsolve.patience.odds.measured import FIELDS, MeasuredFiguresError, bracket, measured, read_figures

ROOT = Path(__file__).resolve().parents[2]
# The docs for users and maintainers; THEORY and the research notebook also quote runs of other bounds, each
# checked against its own log by the research house's tests.
DOCS = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "THEORY.md")]


def test_every_figure_has_what_the_command_renders_and_says_how_it_was_measured() -> None:
    figures = measured()
    assert set(figures) == set(FIELDS)
    for name, figure in figures.items():
        assert figure["figure_is"] and re.fullmatch(r"\d{4}-\d\d-\d\d", figure["measured"]), name
        assert figure["command"].startswith(("python -m research.nopeek.tools.", "kcsolve ")), name
    assert bracket()["low"] == figures["best_measured"]["interval"][0]
    assert bracket()["high"] == figures["relaxation"]["upper"] < figures["rearranging"]["value"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[1", "'measured.json': not JSON (reinstall kcsolve)"),
        ("[]", "'measured.json': figure 'best_measured' lacks figure_is, player, won, deals, first_deal, interval, "),
        (
            json.dumps({name: {field: 1 for field in fields} for name, fields in FIELDS.items()} | {"relaxation": {}}),
            "'measured.json': figure 'relaxation' lacks figure_is, mean, upper,",
        ),
    ],
)
def test_a_damaged_file_is_refused_by_name(text: str, says: str) -> None:
    with pytest.raises(MeasuredFiguresError) as caught:
        read_figures(text)
    assert str(caught.value).startswith(says) and isinstance(caught.value, KcsolveError)


def quoted_bounds() -> set[str]:
    """The upper bounds as the docs print them, to three places: the rearranging value, the relaxation's ends."""
    figures = measured()
    three = [figures["rearranging"]["value"], figures["relaxation"]["mean"], figures["relaxation"]["upper"]]
    return {f"{x:.3%}" for x in three}


def test_every_upper_bound_the_docs_quote_is_the_files() -> None:
    """A bound copied by hand and left behind by a new measurement would show here: every 17.xxx% is the file's."""
    allowed = quoted_bounds()
    quoted = 0
    for path in DOCS:
        for found in re.findall(r"\b1[5-9]\.\d{3}%", path.read_text(encoding="utf-8")):
            assert found in allowed, (path.name, found)
            quoted += 1
    assert quoted >= 5


def test_the_best_measured_player_and_the_exact_count_are_quoted_as_the_file_has_them() -> None:
    figures = measured()
    best = figures["best_measured"]
    rate = f"{best['won'] / best['deals']:.2%}"
    interval = f"{best['interval'][0]:.2%} to {best['interval'][1]:.2%}"
    players = (ROOT / "docs" / "PLAYERS.md").read_text(encoding="utf-8")
    assert f"it won {best['won']} ({rate}, {interval};" in players
    reference = " ".join((ROOT / "docs" / "REFERENCE.md").read_text(encoding="utf-8").split())
    assert f"({rate}, 95% interval {interval})" in reference
    assert f"has {figures['exact_game']['states_under_2304']:,} states under its 2,304 symmetries" in reference
    theory = (ROOT / "docs" / "THEORY.md").read_text(encoding="utf-8")
    assert f"**value {figures['rearranging']['value']!r}**" in theory
