"""Every command's text output fits 80 columns, with typical and long arguments: long paths, the last deal number,
four players, the longest rule names, and every --help."""

from __future__ import annotations

import datetime as dt
import json
import re

import click
import pytest
from clitools import run

from kcsolve.cli import cli
from kcsolve.common.deal import SEED_LIMIT, deal
from kcsolve.patience.engine import Place, cell_name
from kcsolve.patience.pysol import PYSOL_MAX_GAME
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import solve

WIDTH = 80
LAST = str(SEED_LIMIT - 1)
LONGEST_RULES = "deplete+optional+groups+royals"  # the longest name a rule set has
CORNER_RULES = "until_play=yes+draw_two=yes+under=strict+draw_three=yes+tie=yes+scoring=aces+target=25"
TODAY = dt.datetime.now(dt.UTC).date().isoformat()  # site writes it, measured once, and leaves out the next two


def too_wide(text: str) -> list[str]:
    """The lines over 80 columns, but a line of one word alone: a path longer than a line is never broken.

    The prompts of the terminal games come first where their input is piped in, not typed.
    """
    lines = [re.sub(r"^(> )+", "", line) for line in text.splitlines()]
    return [line for line in lines if len(line) > WIDTH and len(line.split()) > 1]


def typed(moves: object) -> str:
    """The commands a player of ``play`` types for a line of moves."""
    return "".join(
        (cell_name(m.cell) if isinstance(m, Place) else " ".join(map(cell_name, m.cells))) + "\n" for m in moves
    )  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Records, a deck and a position in a folder with a long path, where the databases and sites go too."""
    folder = tmp_path_factory.mktemp("columns") / "kings-in-the-corners" / "games-played-and-kept-for-later"
    folder.mkdir(parents=True)
    paths = {
        "folder": str(folder),
        "cache": str(tmp_path_factory.mktemp("cache")),
        "short": str(tmp_path_factory.mktemp("s")),
    }  # a game's one-line reply to 'save FILE' echoes the path

    def keep(name: str, text: str) -> None:
        (folder / name).write_text(text, encoding="utf-8")
        paths[name.split(".")[0]] = str(folder / name)

    record = solve(deal(0), parse_rules("camelot")).record(seed=0).to_json()
    keep("won.json", json.dumps(record))
    keep("illegal.json", json.dumps({**record, "moves": [*record["moves"], {"place": "AS", "cell": "b2"}]}))
    keep("lost.json", run("solve", "--seed", "4", "--format", "json").stdout)
    keep("list.json", json.dumps([json.loads((folder / n).read_text()) for n in ("won.json", "lost.json")]))
    keep("deck.txt", run("deal", "--seed", LAST).stdout)
    for players in (2, 3, 4):
        sim = run("corner", "sim", "--players", str(players), "--games", "1", "--seed", "5", "--format", "json")
        keep(f"corner{players}.json", sim.stdout.splitlines()[0])
    corner = json.loads((folder / "corner4.json").read_text())
    keep("corner_illegal.json", json.dumps({**corner, "moves": [*corner["moves"], "end"]}))
    keep("position.json", run("corner", "deal", "--seed", "3", "--players", "4", "--format", "json").stdout)
    return paths


CASES = [
    ["analyse", "{won}", "--playouts", "4"],
    ["analyse", "{lost}", "--style", "line", "--playouts", "4"],
    ["analyse", "{illegal}"],
    ["replay", "{illegal}", "--style", "line"],
    ["verify", "{illegal}"],
    ["corner", "replay", "{corner_illegal}"],
    ["corner", "verify", "{corner_illegal}"],
    ["daily", "--date", "2027-03-03", "--rules", "deplete+optional+royals"],  # a Wednesday, a long name of pairs
    ["deal", "--seed", LAST],
    ["deal", "--pysol", "5"],
    ["deal", "--pysol", str(PYSOL_MAX_GAME)],
    ["odds", "--known", " ".join(map(str, deal(0)[:24])), "--rules", "deplete+optional+royals"],
    ["odds", "--no-peek", "--deals", "3", "--start", LAST[:-2]],
    ["play", "--seed", "0", "--rules", "camelot", "--style", "line", "{won_by_hand}"],
    ["play", "{deck}", "--rules", LONGEST_RULES, "{commands}"],
    ["pysol-solvable", "--from", str(PYSOL_MAX_GAME - 2), "--count", "3"],
    ["replay", "{won}"],
    ["replay", "{lost}", "--style", "line"],
    ["replay", "-", "{notation}"],
    ["rules"],
    ["rules", LONGEST_RULES],
    ["rules", "camelot"],
    ["selfplay", "--player", "greedy", "--count", "3", "--seed", str(SEED_LIMIT - 3), "--rules", LONGEST_RULES],
    ["site", "--out", "{folder}/site", "--from", TODAY, "--days", "3"],
    [
        "site",
        "--out",
        "{folder}/a-site-of-daily-deals-for-the-whole-family",
        "--from",
        TODAY,
        "--days",
        "3",
        "--base-url",
        "https://example.org/games/kings-in-the-corners/daily-deals/",
    ],
    ["solve", "--seed", "0", "--rules", "camelot"],
    ["solve", "--seed", "4", "--style", "line"],
    ["solve", "--seed", str(SEED_LIMIT - 4), "--count", "4", "--rules", "camelot"],
    ["solve", "--pysol", str(PYSOL_MAX_GAME - 1), "--count", "2", "--rules", LONGEST_RULES, "--budget", "10"],
    ["solve", "--seed", LAST, "--rules", LONGEST_RULES, "--budget", "10"],
    ["solve", "{deck}"],
    ["solve", "--pysol", str(PYSOL_MAX_GAME), "--rules", LONGEST_RULES, "--style", "line"],
    ["stats", "--count", "200", "--db", "{folder}/standard.db"],
    [
        "stats",
        "--count",
        "200",
        "--start",
        str(SEED_LIMIT - 200),
        "--rules",
        "optional+groups",
        "--budget",
        "50",
        "--db",
        "{folder}/optional-groups-results-of-the-last-deals.db",
    ],
    [
        "stats",
        "--show",
        str(SEED_LIMIT - 150),
        "--rules",
        "optional+groups",
        "--budget",
        "50",
        "--db",
        "{folder}/optional-groups-results-of-the-last-deals.db",
    ],
    ["stats", "--list", "lost", "--count", "200", "--db", "{folder}/standard.db"],
    ["verify", "{won}"],
    ["verify", "{lost}"],
    ["verify", "{list}"],
    ["corner", "deal", "--seed", LAST, "--players", "4", "--rules", CORNER_RULES],
    [
        "corner",
        "play",
        "--seed",
        LAST,
        "--players",
        "4",
        "--rules",
        CORNER_RULES,
        "--bots",
        "turn",
        "{corner_commands}",
        "--record",
        "{folder}/the-record-of-the-hand-against-three-bots.json",
    ],
    ["corner", "replay", "{corner2}"],
    ["corner", "replay", "{corner3}"],
    ["corner", "replay", "{corner4}"],
    ["corner", "verify", "{corner2}"],
    ["corner", "verify", "{corner3}"],
    ["corner", "verify", "{corner4}"],
    ["corner", "rules"],
    ["corner", "sim", "--games", "5", "--players", "4", "--bots", "random,greedy,turn", "--rules", CORNER_RULES],
    ["corner", "sim", "--games", "2", "--players", "4", "--match", "--seed", str(SEED_LIMIT - 40_000)],
    ["corner", "solve", "--seed", LAST, "--budget", "100", "--rules", CORNER_RULES],
    ["corner", "solve", "--seed", "5", "--rules", "hand_size=3"],
    ["corner", "turn", "{position}"],
    ["corner", "turn", "{position}", "--budget", "5"],
]


def commands() -> list[list[str]]:
    """Every command of ``kcsolve`` and of ``kcsolve corner``, as its words after ``kcsolve``."""
    context = click.Context(cli)
    corner = cli.get_command(context, "corner")
    assert isinstance(corner, click.Group)
    return [[n] for n in cli.list_commands(context) if n != "corner"] + [
        ["corner", n] for n in corner.list_commands(context)
    ]


def test_every_command_is_checked() -> None:
    checked = {tuple(args[: 2 if args[0] == "corner" else 1]) for args in CASES}
    assert {tuple(words) for words in commands()} <= checked


@pytest.mark.parametrize("words", [[], ["corner"], *commands()], ids=" ".join)
def test_help_fits_80_columns(words: list[str]) -> None:
    result = run(*words, "--help")
    assert result.exit_code == 0 and too_wide(result.stdout) == []


@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_text_output_fits_80_columns(args: list[str], files: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KCSOLVE_CACHE_DIR", files["cache"])  # the second site keeps the date the first measured
    typing = {
        "{won_by_hand}": typed(solve(deal(0), parse_rules("camelot")).moves) + "quit\n",
        "{commands}": "help\nhint\npeek\nsets\nauto\nb2\nzz\nb2\nundo\nsave {short}/game.json\nquit\n",
        "{corner_commands}": "help\nmoves\nhint\nscores\n\nend\nsave {short}/corner.json\nquit\n",
        "{notation}": run("solve", "--seed", "0", "--format", "notation").stdout,
    }
    words = [word.format(**files) for word in args if word not in typing]
    given = [typing[word].format(**files) for word in args if word in typing]
    result = run(*words, input=given[0] if given else None)
    assert result.exit_code in (0, 1, 3), result.stderr
    assert result.stdout and too_wide(result.stdout + result.stderr) == []
