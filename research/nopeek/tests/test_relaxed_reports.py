"""The relaxation's W and lines that the notebook reports on but THEORY does not quote as the bound.

- research/nopeek/tools/fit_w.py: the factors of a W fitted to the deep player's wins, from
  its games; the notebook's figures for that W are its factors file and the pilot log.
- research/nopeek/tools/blocked_lines.py: the lines that fill a court card's home class just
  before it comes are legal lines that lose at that card; the notebook's figures for
  them are their log, and THEORY's its own summary of them.

The runs themselves need the rearranging game's 3.2 GB table, so the logs in logs/
are checked here, not remade.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path
from types import ModuleType

import pytest

from kcsolve.common.cards import TEN
from kcsolve.common.deal import deal_ranks
from kcsolve.patience.classes import KIND_CLASS
from kcsolve.patience.odds.measured import measured
from research.nopeek import relaxed
from research.nopeek.relaxed import LOST, centre_first, mean_and_upper

REARRANGING = measured()["rearranging"]  # the figure as the package quotes it

LOGS = Path(__file__).resolve().parents[1] / "logs"  # the runs quoted by the docs

ROOT = Path(__file__).resolve().parents[3]


def tool(name: str) -> ModuleType:
    """A research tool, imported."""
    return importlib.import_module(f"research.nopeek.tools.{name}")


BLOCKED = tool("blocked_lines")


def notebook() -> str:
    """The laboratory's NOTEBOOK.md with its lines joined, so quotes do not depend on where lines wrap."""
    return " ".join((LOGS.parent / "NOTEBOOK.md").read_text(encoding="utf-8").split())


def theory() -> str:
    """THEORY.md with its lines joined, so quotes do not depend on where lines wrap."""
    return " ".join((ROOT / "docs" / "THEORY.md").read_text(encoding="utf-8").split())


def test_the_fitted_factors_are_wins_over_the_rearranging_values_of_the_games_alive() -> None:
    """A layer's factor is the wins of the games alive there over the sum of their V_r, at most 1."""
    games = [
        {"won": True, "trace": [[52, 0.2], [51, 0.5], [50, 0.9]]},
        {"won": False, "trace": [[52, 0.2], [51, 0.3]]},
        {"won": False, "trace": [[52, 0.4]]},
        {"won": False, "trace": [[52, 0.3]]},
        {"won": False, "trace": [[52, 0.5], [51, 0.6]]},
    ]
    factors = tool("fit_w").factors(games)
    assert sorted(factors) == list(range(1, 53))
    assert factors[52] == pytest.approx(1 / 1.6)  # one win among five games, their V_r summing to 1.6
    assert factors[51] == pytest.approx(1 / 1.4)  # the three games still alive
    assert factors[50] == 1.0  # 1 / 0.9, capped: W stays at most the rearranging value
    assert factors[49] == 1.0  # no game reached it


def test_the_fitted_ws_figures_are_its_factors_and_pilot_log() -> None:
    """The notebook's factors, wins and pilot rows for the fitted W are logs/'s, the run tagged by the file's hash."""
    raw = (LOGS / "w-fitted-deep.json").read_bytes()
    fitted = json.loads(raw)
    assert (fitted["player"], fitted["from"], fitted["count"]) == ("deep", 500_000, 4000)
    factors = {int(n): h for n, h in fitted["factors"].items()}
    assert sorted(factors) == list(range(1, 53)) and all(0 < h <= 1 for h in factors.values())
    start = factors[52] * REARRANGING["value"]
    assert start == pytest.approx(fitted["won"] / fitted["count"])
    falls = sum(factors[n - 1] < factors[n] for n in range(11, 53))
    text = notebook()
    assert f"500,000..503,999 and won {fitted['won']} " in text
    assert (
        f"go from {factors[52]:.3f} at the start (so W(start) = {start:.3%}, the deep player's own rate there) "
        f"to {factors[10]:.3f} at ten unseen cards, rising at most draws ({falls} of the 42 steps between fall)"
    ) in text
    records = [json.loads(line) for line in (LOGS / "bound-nopeek-pilot.jsonl").read_text().splitlines()]
    runs = [r for r in records if r["w"] == "fitted"]
    assert {(r["factors"], r["penalty"], r["exact_from"], r["scale"]) for r in runs} == {
        (hashlib.sha256(raw).hexdigest()[:16], "rearranging", 10, 1.0)
    }
    scores = {r["deal"]: r["score"] for r in runs}
    plain = {r["deal"]: r["score"] for r in records if r["w"] == "rearranged" and r.get("exact_from") == 10}
    assert sorted(scores) == [r["deal"] for r in sorted(runs, key=lambda r: r["deal"])] == list(range(300_000, 300_200))
    mean, upper = mean_and_upper(list(scores.values()))
    lower = sum(scores[d] < plain[d] - 1e-12 for d in scores)
    higher = sum(scores[d] > plain[d] + 1e-12 for d in scores)
    row = f"| fitted to the deep player, exact from 10 | 300,000..300,199 | {mean:.3%} | {upper:.3%} |"
    assert f"{row} {lower} / {higher} of 200 |" in text
    assert f"| fitted to the deep player, exact from 10 | 300,000..300,199 (pilot) | {mean:.3%} | {upper:.3%} |" in text
    base_mean, base_upper = mean_and_upper(list(plain.values()))
    assert f"| the rearranging value, exact from 10 | 300,000..300,199 | {base_mean:.3%} | {base_upper:.3%} | |" in text
    assert f"(the lowest, {min(scores.values()):.2%})" in text and f"(the highest, {max(scores.values()):.2%})" in text
    cpu = sum(r["cpu_seconds"] for r in runs) / len(runs)
    assert f"--out FILE.jsonl`, {cpu:.1f} s of CPU a deal" in text
    assert f"raised the pilot's limit from {base_upper:.3%} to {upper:.3%}" in theory()


def test_the_logged_blocked_lines_are_legal_lines_that_lose_at_their_court_card() -> None:
    """Each logged best line is rebuilt: its states follow by real options, its court card finds no room, and W
    sees the class full as logged; a deck logged without one has none."""
    for name in ("pilot", "heldout"):
        for logged in map(json.loads, (LOGS / f"blocked-lines-{name}.jsonl").read_text().splitlines()):
            ranks = tuple(deal_ranks(logged["deal"]))
            lines = {k: BLOCKED.blocked_line(ranks, k) for k in range(17)}
            if logged["score"] is None:
                assert all(states is None for states in lines.values())
                continue
            k = logged["court_at"]
            states = lines[k]
            assert states is not None and len(states) == k + 1 and ranks[k] == logged["rank"] > TEN
            for t in range(k):
                assert states[t + 1] in relaxed.options(states[t], ranks[t])
            assert relaxed.options(states[k], ranks[k]) == (LOST,)
            home = KIND_CLASS[ranks[k]]
            assert len(states[k][0][home]) + states[k][1][home] == 4
            seated, courts = centre_first(states[k])
            assert logged["class_full_seen"] == (len(seated[home]) + courts[home] == 4)
            assert lines[16] is None  # from the seventeenth card on, the grid has filled


def test_the_blocked_lines_figures_are_their_logs() -> None:
    """The notebook's figures for the blocked lines, and THEORY's summary of them, are logs/blocked-lines-*.jsonl's."""
    text = notebook()
    for name, first, count in (("pilot", 300_000, 200), ("heldout", 310_000, 5000)):
        lines = [json.loads(line) for line in (LOGS / f"blocked-lines-{name}.jsonl").read_text().splitlines()]
        assert [line["deal"] for line in lines] == list(range(first, first + count))
        scores = [line["score"] for line in lines if line["score"] is not None]
        seen = [line["score"] for line in lines if line["score"] is not None and line["class_full_seen"]]
        mean = sum(scores) / len(scores)
        row = f"| {first:,}..{first + count - 1:,} | {len(scores):,} | {mean:.2%} | {min(scores):.2%} |"
        assert f"{row} {len(seen):,}, {sum(seen) / len(seen):.2%} |" in text
    floor = sum(scores) / count
    needed = (0.12 * count - sum(scores)) / (count - len(scores))
    assert (
        f"down to {floor:.1%} at best ({len(scores):,} of 5,000 decks whose floors average {mean:.2%}, the others "
        f"counted 0), less whatever the other {count - len(scores)} score below zero: to reach 12% they would have "
        f"to average {needed:.0%},"
    ) in text
    logs = [LOGS / f"bound-nopeek-{name}.jsonl" for name in ("pilot", "heldout", "cut-heldout")]
    lowest = min(json.loads(line)["score"] for log in logs for line in log.read_text().splitlines())
    assert f"the lowest score of any deck in any run here is {lowest:.2%}".replace("-", "\u2212") in text
    assert f"These lines score {(REARRANGING['value'] - mean) * 100:.1f} points below W(start) on average" in text
    assert (
        f"leave the mean at {floor:.1%} at best, less what the {count - len(scores)} decks without such a line score "
        f"below zero, which would have to average {needed:.0%} for the mean to reach 12%"
    ) in theory()
