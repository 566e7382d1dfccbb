"""The daily deal said as a player would: the honest chance in words with its figure, the details after it."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from kcsolve.cli.daily_command import _print_daily
from kcsolve.common.deal import deal
from kcsolve.patience.daily.calendar import LOOKAHEAD_IS, DailyDeal, candidate_seed
from kcsolve.patience.daily.webpage import daily_page
from kcsolve.patience.daily.words import about_sentences, chance_words, face_up_words
from kcsolve.patience.players.honest import DIFFICULTY_IS, MEANING, Difficulty
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import Verdict, solve

DAY = dt.date(2027, 3, 4)
STANDARD = parse_rules("standard")
SEED = candidate_seed(DAY, STANDARD, 1)  # a winnable candidate of the date (a page checks imports against it)


@pytest.mark.parametrize(
    "wins, games, words",
    [
        (18, 25, "Most careful players win this one: about 72%"),
        (149, 250, "Most careful players win this one: about 60%"),  # 59.6%, judged on the figure shown
        (9, 20, "About half of careful players win this one: 45%"),
        (27, 100, "A careful player wins this about one time in four: 27%"),
        (3, 20, "A careful player wins this about one time in seven: 15%"),
        (1, 10, "A careful player wins this about one time in ten: 10%"),
        (3, 50, "Few careful players win this one: 6%"),
        (1, 250, "Very few careful players win this one: 1 in 250"),
        (0, 24, "No careful player's game was seen to win this one: 0 wins in 24 games"),
    ],
)
def test_the_chance_in_words_with_its_figure(wins: int, games: int, words: str) -> None:
    assert chance_words(Difficulty(wins, games)) == words


def test_the_face_up_grade_as_advice() -> None:
    assert [face_up_words(k) for k in (0, 1, 4, None)] == [
        "Face up: no need to plan ahead",
        "Face up: plan 1 card ahead",
        "Face up: plan 4 cards ahead",
        "Face up: plan the whole stock ahead",
    ]


@pytest.fixture(scope="module")
def found() -> DailyDeal:
    """A daily deal built here, so that no measurement's figures decide what the tests read."""
    solution = solve(deal(SEED), STANDARD)
    assert solution.result is Verdict.WIN
    return DailyDeal(DAY, SEED, STANDARD, solution.deck, Difficulty(27, 100), "medium", solution, 4)


def test_the_details_say_what_each_figure_is_and_name_the_deal(found: DailyDeal) -> None:
    about = about_sentences(found)
    assert about[0].startswith("Chance that a careful player") and "interval" in about[0]
    assert about[1:] == [
        f"How it is measured: {DIFFICULTY_IS.removeprefix(MEANING + ': ')}.",
        f"Face up: {LOOKAHEAD_IS}.",
        f"Deal {SEED}, rules standard.",
    ]


def test_the_page_says_the_chance_first_and_keeps_the_method_the_number_and_the_spoiler_in_details(
    found: DailyDeal,
) -> None:
    shown = re.sub(r"<noscript>.*?</noscript>|<script\b.*?</script>", "", daily_page(found), flags=re.DOTALL)
    page = shown[shown.index("<body") :]
    headline = '<p class="headline"><strong>A careful player wins this about one time in four: 27%</strong><br>'
    assert headline + "Face up: plan 4 cards ahead</p>" in page
    details = re.search(r'<details class="about"><summary>About this deal</summary>(.*?)</details>', page, re.DOTALL)
    assert details and page.index(headline) < details.start()
    assert "Chance that a careful player who cannot see the deck wins: 27% (95% interval" in details[1]
    assert f"Deal {SEED}, rules standard." in details[1]
    assert f'<a href="{DAY}.json">{DAY}.json</a>: the deck and a winning line (a spoiler)' in details[1]
    outside = page.replace(details[0], "")
    assert f"{DAY}.json" not in outside and f"Deal {SEED}" not in outside and "interval" not in outside


def test_daily_text_says_the_headline_before_the_details(found: DailyDeal, capsys: pytest.CaptureFixture) -> None:
    _print_daily(found, True, "line", False)
    lines = capsys.readouterr().out.splitlines()
    assert lines[:5] == [
        "2027-03-04 (Thursday), rules standard: grade medium",
        "A careful player wins this about one time in four: 27%",
        "Face up: plan 4 cards ahead",
        "",
        "About this deal:",
    ]
    details = " ".join(" ".join(lines[5 : lines.index("", 5)]).split())
    assert details == " ".join(about_sentences(found))
