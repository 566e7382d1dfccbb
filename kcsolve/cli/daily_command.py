"""The ``daily`` command: a proved-winnable deal for each date."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import click

from kcsolve.cli.base import (
    CONTEXT,
    Ticker,
    cli,
    colour_option,
    fail,
    parse_date,
    ramp_option,
    style_option,
    tell,
    use_colour,
)
from kcsolve.common.cards import format_deck
from kcsolve.common.words import paragraph
from kcsolve.patience.record import replay
from kcsolve.patience.rules import parse_rules


@cli.command("daily", context_settings=CONTEXT)
@click.option("--date", "date_text", help="The date, YYYY-MM-DD (default: today in UTC, the same day everywhere).")
@click.option("--days", type=click.IntRange(min=1), default=1, show_default=True, help="How many consecutive dates.")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@ramp_option
@click.option("--no-solution", "hide", is_flag=True, help="Leave the winning line out.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@style_option
@colour_option
def daily_command(
    date_text: str | None,
    days: int,
    rules_text: str,
    ramp: bool,
    hide: bool,
    fmt: str,
    style: str,
    colour: bool | None,
) -> None:
    """A winnable deal for each date, with its measured difficulty and grade.

    The deal of a date depends only on the date and the rules (how: in the source
    repository, docs/REFERENCE.md).
    Difficulty is the honest chance: the share of 24 plain seeded games won
    by the hints' player (deep, 8 sampled orders a choice) playing a random
    option one time in ten, with its 95% Wilson interval. Grades, the same for every rule set: easy at least
    50%, medium at least 25%, hard at least 10%, fiendish less (above 0). With
    --ramp (the default) each date takes its weekday's grade; under rules where
    none of 64 deals measured has it, the one of the nearest grade is taken.

    The text says the chance in words with its figure first ("Most careful
    players win this one: about 72%"), then what each figure is and the deal number.
    "Face up: plan k cards ahead" grades the deal as a puzzle played with the
    stock face up: the fewest of the next 0, 1, 2, 4, 8 or 16 cards that the deep
    player, seeing them in order at every move, needs to win it (the whole stock
    when none of these does).
    """
    from kcsolve.patience.daily.calendar import RAMP_CANDIDATES, daily

    rules = parse_rules(rules_text)
    first = parse_date(date_text)
    if (dt.date.max - first).days < days - 1:
        fail(f"--date {first.isoformat()} --days {days} runs past the last date, {dt.date.max.isoformat()}")
    paint = use_colour(colour)
    with Ticker("daily deals") as ticker:
        for offset in range(days):
            day = first + dt.timedelta(days=offset)
            label = f"{day.isoformat()} ({offset + 1:,} of {days:,} dates)"
            ticker.note(label)

            def told(k: int, label: str = label) -> None:
                ticker.note(f"{label}, candidate {k} measured (at most {RAMP_CANDIDATES})")

            found = daily(day, rules, ramp, on_candidate=told if ramp else None)
            if fmt == "json":
                click.echo(json.dumps(found.to_json(measured=True, solution=not hide)))
            else:
                _print_daily(found, hide, style, paint)


def _print_daily(found: Any, hide: bool, style: str, paint: bool) -> None:
    """One date's deal as text: the headline, what its figures are, the deck in rows of sixteen, the winning line."""
    from kcsolve.patience.daily.words import about_sentences, chance_words, face_up_words

    click.echo(f"{found.date.isoformat()} ({found.date.strftime('%A')}), rules {found.rules}: grade {found.grade}")
    click.echo(paragraph(chance_words(found.difficulty)))
    click.echo(face_up_words(found.face_up_lookahead))
    click.echo()
    click.echo("About this deal:")
    for sentence in about_sentences(found):
        click.echo(paragraph(sentence, "  ", "    "))
    click.echo()
    click.echo("The deck, top of the stock first; the first row is the first deal's 16 cards:")
    click.echo(format_deck(found.deck, per_line=16), nl=False)
    if not hide:
        click.echo()
        played = replay(found.solution.record())
        tell(played, style, paint)
    click.echo()
