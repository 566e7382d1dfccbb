"""The measured figures that ``odds --no-peek`` quotes, from the one file that holds them (measured.json).

The figures take hours of CPU or a 3.2 GB table to measure, so the command
quotes them rather than computing them. Each is written into measured.json by
the research command that measures it (its ``command``, run with ``--record``;
the source repository's research/nopeek/), with the date; the CLI renders the
file, the docs quote it, and tests hold every quote to it.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from kcsolve.common.interval import wilson
from kcsolve.errors import KcsolveError
from kcsolve.patience.odds.told import NoPeekBound

FILE = "measured.json"
# Each figure and the fields it must have: the renderer reads these.
FIELDS: dict[str, tuple[str, ...]] = {
    "best_measured": ("figure_is", "player", "won", "deals", "first_deal", "interval", "command", "measured"),
    "rearranging": ("figure_is", "value", "states", "command", "measured"),
    "relaxation": (
        "figure_is",
        "mean",
        "upper",
        "deals",
        "first_deal",
        "exact_from",
        "command",
        "table_command",
        "measured",
    ),
    "exact_game": (
        "figure_is",
        "states",
        "states_under_2304",
        "widest_drawn",
        "widest_under_2304",
        "largest_working_set",
        "largest_working_set_merged_at_least",
        "working_set_gb",
        "command",
        "memory_command",
        "measured",
    ),
}


RELAXATION_METHOD = (
    "information relaxation: the player sees the whole deck but is charged, at every draw, what the card drawn "
    "was worth beyond the average unseen card, by the rearranging game's values and, from ten unseen cards on, "
    "by the exact values; the charges average zero for "
    "every player who cannot see the deck, so the mean over decks of the best charged result bounds the best chance"
)
REARRANGING_GAME = (
    "the rearranging game: the real game without seeing the deck, except that the number cards "
    "may be moved to any cells after each removal; every real strategy can be played there, "
    "so its best chance is at least the real one"
)
TOLD_GAME = (
    "the told game: the player is told the order of the stock except which kind each court card is, "
    "and may move the number cards after each removal; every real strategy can be played there, "
    "so its best chance is at least the real one"
)


class MeasuredFiguresError(KcsolveError):
    """The file of measured figures shipped with the package is damaged."""


@cache
def measured() -> dict[str, dict[str, Any]]:
    """Every measured figure by name (best_measured, rearranging, relaxation, exact_game), each a JSON object."""
    return read_figures(resources.files("kcsolve.patience.odds").joinpath(FILE).read_text(encoding="utf-8"))


def read_figures(text: str) -> dict[str, dict[str, Any]]:
    """The figures of a measured.json text, each checked for the fields the renderer reads."""
    try:
        data = json.loads(text)
    except ValueError:
        raise MeasuredFiguresError(f"{FILE!r}: not JSON (reinstall kcsolve)") from None
    for name, fields in FIELDS.items():
        figure = data.get(name) if isinstance(data, dict) else None
        missing = [field for field in fields if not isinstance(figure, dict) or field not in figure]
        if missing:
            raise MeasuredFiguresError(f"{FILE!r}: figure {name!r} lacks {', '.join(missing)} (reinstall kcsolve)")
    return {name: data[name] for name in FIELDS}


def bracket() -> dict[str, Any]:
    """The two ends of what is known of the best no-peek chance, each saying what it is, and the width between."""
    figures = measured()
    best, relaxation = figures["best_measured"], figures["relaxation"]
    low, high = best["interval"][0], relaxation["upper"]
    return {
        "low": low,
        "low_is": f"lower 95% limit of the best player measured ({best['player']}), sampled",
        "high": high,
        "high_is": "upper 95% limit of the information relaxation bound, sampled",
        "width_points": round((high - low) * 100, 3),
    }


def no_peek_summary(bound: NoPeekBound) -> dict[str, Any]:
    """What is known of the best no-peek chance under standard rules, as JSON: each figure saying what it is."""
    figures = measured()
    rearranging = figures["rearranging"]
    seer = wilson(round(bound.clairvoyant * bound.deals), bound.deals)
    return {
        "rules": "standard",
        "value": None,
        "exact_game": figures["exact_game"],
        "upper": rearranging["value"],
        "upper_is": rearranging["figure_is"],
        "rearranging": {**rearranging, "method": REARRANGING_GAME},
        "relaxation": {**figures["relaxation"], "method": RELAXATION_METHOD},
        "told": {
            "figure_is": "upper bound on the best chance of a player who cannot see the deck, sampled",
            "upper": bound.upper,
            "upper_is": "one-sided 95% limit of the mean",
            "mean": bound.mean,
            "interval": list(bound.interval),
            "deals": bound.deals,
            "first_deal": bound.start,
            "method": TOLD_GAME,
            "seer_share": bound.clairvoyant,
            "seer_share_is": "share of these deals winnable by a player who sees the deck, sampled",
            "seer_interval": list(seer),
            "seconds": round(bound.seconds, 3),
        },
        "lower": figures["best_measured"],
        "bracket": bracket(),
    }
