"""The relaxation's W and lines that THEORY reports on but does not quote as the bound.

- scripts/tools/fit_w.py: the factors of a W fitted to the deep player's wins, from
  its games; THEORY's figures for that W are its factors file and the pilot log.
- scripts/tools/blocked_lines.py: the lines that fill a court card's home class just
  before it comes are legal lines that lose at that card; THEORY's figures for them
  are their log.

The runs themselves need the rearranging game's 3.2 GB table, so the logs in seeds/
are checked here, not remade.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from kcsolve.cli.odds_command import REARRANGING
from kcsolve.common.cards import TEN
from kcsolve.common.deal import deal_ranks
from kcsolve.patience.players import relaxed
from kcsolve.patience.players.policy import KIND_CLASS
from kcsolve.patience.players.relaxed import LOST, mean_and_upper

ROOT = Path(__file__).resolve().parents[2]


def tool(name: str) -> ModuleType:
    """A script of scripts/tools, imported."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def theory() -> str:
    return (ROOT / "docs" / "THEORY.md").read_text(encoding="utf-8")


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
    """THEORY's factors, wins and pilot row for the fitted W are those of seeds/."""
    fitted = json.loads((ROOT / "seeds" / "w-fitted-deep.json").read_text(encoding="utf-8"))
    assert (fitted["player"], fitted["from"], fitted["count"]) == ("deep", 500_000, 4000)
    factors = {int(n): h for n, h in fitted["factors"].items()}
    assert sorted(factors) == list(range(1, 53)) and all(0 < h <= 1 for h in factors.values())
    text = theory()
    assert f"500,000..503,999 and won {fitted['won']} " in text
    assert f"rise from {factors[52]:.3f} at the\nstart" in text and f"to {factors[10]:.3f} at ten unseen" in text
    assert f"W(start) = {factors[52] * REARRANGING['value']:.3%}, the deep player's own rate" in text
    assert factors[52] * REARRANGING["value"] == pytest.approx(fitted["won"] / fitted["count"])
    records = [json.loads(line) for line in (ROOT / "seeds" / "bound-nopeek-pilot.jsonl").read_text().splitlines()]
    scores = {r["deal"]: r["score"] for r in records if r["w"] == "fitted"}
    plain = {r["deal"]: r["score"] for r in records if r["w"] == "rearranged" and r.get("exact_from") == 10}
    assert sorted(scores) == list(range(300_000, 300_200))
    assert {r["factors"] for r in records if r["w"] == "fitted"} == {"w-fitted-deep.json"}
    mean, upper = mean_and_upper(list(scores.values()))
    lower = sum(scores[d] < plain[d] - 1e-12 for d in scores)
    higher = sum(scores[d] > plain[d] + 1e-12 for d in scores)
    row = f"| fitted to the deep player, exact from 10 | 300,000..300,199 | {mean:.3%} | {upper:.3%} |"
    assert f"{row} {lower} / {higher} of 200 |" in text
    assert f"(the lowest, {min(scores.values()):.2%})" in text and f"(the highest, {max(scores.values()):.2%})" in text


def test_a_blocked_line_is_legal_and_loses_at_its_court_card() -> None:
    """On many deals, a blocked line's states follow one another by real options, and its court card finds no room."""
    blocked_lines = tool("blocked_lines")
    rng = random.Random(7)
    checked = 0
    for seed in rng.sample(range(1_000_000), 60):
        ranks = tuple(deal_ranks(seed))
        for k in range(17):
            states = blocked_lines.blocked_line(ranks, k)
            if states is None:
                continue
            assert len(states) == k + 1 and ranks[k] > TEN
            for t in range(k):
                assert states[t + 1] in relaxed.options(states[t], ranks[t])
            assert relaxed.options(states[k], ranks[k]) == (LOST,)
            home = KIND_CLASS[ranks[k]]
            assert len(states[k][0][home]) + states[k][1][home] == 4
            checked += 1
    assert checked > 100
    assert blocked_lines.blocked_line(tuple(deal_ranks(3)), 16) is None  # from the sixteenth card the grid is full


def test_the_blocked_lines_figures_are_their_logs() -> None:
    """THEORY's figures for the blocked lines are those of seeds/blocked-lines-*.jsonl."""
    text = theory()
    for name, first, count in (("pilot", 300_000, 200), ("heldout", 310_000, 5000)):
        lines = [json.loads(line) for line in (ROOT / "seeds" / f"blocked-lines-{name}.jsonl").read_text().splitlines()]
        assert [line["deal"] for line in lines] == list(range(first, first + count))
        scores = [line["score"] for line in lines if line["score"] is not None]
        mean = sum(scores) / len(scores)
        assert f"{first:,}..{first + count - 1:,} | {len(scores):,} | {mean:.2%} | {min(scores):.2%} |" in text
