"""Every `kcsolve ...` command quoted in README.md and docs/*.md still works, so the docs cannot drift from the CLI.

Each quote (a code span, or a line of a code block) is one of:
- a synopsis, with placeholders (``--seed N``, ``[--rules P]``, ``...``): its command
  must exist and take every option it names;
- a bare command name (``kcsolve verify``): the command must exist;
- a command: it is run in a folder of its own holding the files it names, in
  process where it can be, and must exit with the status the docs give (0 unless
  EXIT says otherwise). Its options are checked like a synopsis's too.
A command new to the docs is run in the default suite unless it is listed: in SLOW
(run in the slow suite) or in NOT_RUN (too long, or waiting for a player), each
with its reason; NOT_COMMANDS names quotes that only look like commands. A command
naming a path outside its folder (`/var/www/kc`) is never run: it must be listed.
"""

from __future__ import annotations

import re
import shlex
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import chdir, contextmanager
from pathlib import Path

import click
import pytest
from clitools import make_runner

from kcsolve.cli import cli

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
QUICK_LIMIT = 60  # seconds a quick command may take: each takes a second or less
SLOW_LIMIT = 600  # and a slow one: each takes under a minute

# Commands run in the slow suite only: each takes more than a few seconds.
SLOW = {
    "kcsolve odds --rules deplete": "the exact count, about 20 s of CPU",
    "kcsolve stats --count 1000": "a thousand deals, the compiled course built first",
    "kcsolve stats --count 10000 --jobs 2": "ten thousand deals on two processes",
    "kcsolve corner sim --match --games 100 --rules target=25": "a hundred games of several hands, about 5 s",
    "kcsolve analyse game.json": "samples playouts at every move, a few seconds",
    "kcsolve daily --date 2027-03-04": "measures the date's difficulty, a few seconds",
}

# Quotes not run here, with the reason; their options are still checked against --help.
NOT_RUN = {
    "kcsolve play --seed 7": "the terminal game waits for a player (tests/terminal plays it in tmux)",
    "kcsolve site --out site --from 2026-11-01 --days 30": "measures every date from 2026-11-01 to today, minutes",
    "kcsolve selfplay --player strong --count 100": "100 games of the strong player, over a minute",
    "kcsolve corner sim --players 3 --bots greedy,turn,search --games 300 --jobs 2": "300 hands, the search bot",
    "kcsolve corner play --players 3 --bots turn --record hand.json": "the terminal table waits for a player",
    "kcsolve corner play --players 4 --match --rules target=30": "the terminal table waits for a player",
    "kcsolve corner play game.json": "resumes a game saved at the terminal table, which waits for a player",
    "kcsolve solve --format html": "names the format; the deal is given elsewhere in the sentence",
    "kcsolve corner sim --format json": "names the format; the hands are given elsewhere in the sentence",
    "kcsolve pysol-solvable --from 32000 --count 100": "decides 100 PySolFC games, over a minute",
    "kcsolve odds --no-peek": "samples deals, minutes of CPU",
    (
        "kcsolve site --from 2026-11-01 --days 3660 --out /var/www/kc --force --base-url https://example.org/kc/"
    ): "a cron line: writes /var/www/kc",
    "kcsolve odds --no-peek --deals 100000": "a hundred thousand sampled deals, hours of CPU",
    "kcsolve selfplay --player deep --seed 100000 --count 10000 --jobs 2": "10,000 games of the deep player, hours",
    "kcsolve selfplay --player deep --seed 200000 --count 10000 --jobs 2 --format json": "10,000 deep games, an hour",
    "kcsolve selfplay --player deep --seed 2000 --count 8000": "8,000 games of the deep player, hours",
    "kcsolve selfplay --player strong --seed 2000 --count 600": "600 games of the strong player, minutes",
    "kcsolve selfplay --player greedy --count 2000": "a measurement of 2,000 games",
    "kcsolve selfplay --player quick --count 2000": "a measurement of 2,000 games",
    "kcsolve selfplay --player strong --count 2000 --jobs 2": "a measurement of 2,000 games",
    "kcsolve stats --count 1000000 --jobs 2": "a measurement over a million deals",
    "kcsolve stats --rules standard --count 1000000": "a measurement over a million deals",
    "kcsolve stats --rules deplete --count 1000000": "a measurement over a million deals",
    "kcsolve stats --rules swap --count 1000000": "a measurement over a million deals",
    "kcsolve stats --rules optional --count 100000": "a measurement over 100,000 deals",
    "kcsolve stats --rules camelot --count 100000": "a measurement over 100,000 deals",
    "kcsolve stats --rules optional+groups --start 5000000 --count 1000000 --jobs 2": "a measurement, minutes",
    "kcsolve corner sim --players 2 --bots greedy --games 20000 --jobs 2": "a measurement of 20,000 hands",
    "kcsolve corner sim --players 3 --bots greedy --games 20000 --jobs 2": "a measurement of 20,000 hands",
    "kcsolve corner sim --players 4 --bots greedy --games 20000 --jobs 2": "a measurement of 20,000 hands",
    "kcsolve corner sim --bots greedy,random --games 2000 --jobs 2": "a measurement of 2,000 hands",
    "kcsolve corner sim --bots turn,random --games 2000 --jobs 2": "a measurement of 2,000 hands",
    "kcsolve corner sim --bots turn,greedy --games 2000 --jobs 2": "a measurement of 2,000 hands",
    "kcsolve corner sim --bots search,greedy --games 300 --jobs 2": "a measurement of 300 hands with the search bot",
    "kcsolve corner sim --bots search,turn --games 300 --jobs 2": "a measurement of 300 hands with the search bot",
}

# Quotes that mention kcsolve but are no command line: the title a page shows.
NOT_COMMANDS = {
    "kcsolve daily 2027-03-04 · standard · easy": "the title of a daily page",
}

# The exit statuses the docs give where a command may end otherwise than with 0.
EXIT = {
    "kcsolve corner turn hand.json --budget 2s": {0, 3},  # "exit 3 when the budget runs out"
    "kcsolve replay tests/golden/sample_game.json": {1},  # the sample game is lost: its last King finds no corner
    "kcsolve solve --seed 1": {1},  # deal 1 is lost (exit 1, "not winnable")
    "kcsolve solve --seed 0 --count 3000 | head -1": {141},  # its reader left: 128 + SIGPIPE
}

# The files a command names, made in its folder first: name -> the kcsolve command whose output it is.
HAND_RECORD = ["corner", "sim", "--games", "1", "--seed", "5", "--format", "json"]
FILES = {
    "game.json": ["solve", "--seed", "0", "--format", "json"],
    "hand.json": ["corner", "deal", "--seed", "3", "--format", "json"],
}
RECORD_FILES = {"kcsolve corner verify hand.json": {"hand.json": HAND_RECORD}}  # a hand's record, not a position

PLACEHOLDER = re.compile(r"\[|\\\||\.\.\.|\b(?:[A-Z][A-Z_]{2,}|[A-Z])\b|YYYY")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
COMMAND = re.compile(r"(?:^|(?<=[\s/]))kcsolve (.*)")


def quotes(text: str) -> Iterator[str]:
    """Code-block lines and code spans of a Markdown page, whitespace collapsed."""
    for block in FENCE.findall(text):
        yield from block.splitlines()
    for paragraph in re.split(r"\n\s*\n", FENCE.sub("", text)):
        for span in re.findall(r"`([^`]+)`", paragraph):
            yield " ".join(span.split())


def command_of(quote: str) -> str | None:
    """The kcsolve command a quote holds, up to a shell's `&&` or `;` or a comment; None if it holds none."""
    found = COMMAND.search(quote)
    if found is None:
        return None
    text = re.split(r" && | ; |\s+# ", "kcsolve " + found.group(1))[0]
    return " ".join(text.split())


def documented() -> dict[str, list[str]]:
    """Every kcsolve command the pages quote -> the pages that quote it."""
    found: dict[str, list[str]] = {}
    for page in PAGES:
        for quote in quotes(page.read_text(encoding="utf-8")):
            command = command_of(quote)
            if command is not None:
                found.setdefault(command, []).append(page.name)
    return found


COMMANDS = documented()


def is_bare(command: str) -> bool:
    """Whether the quote only names a command, with no argument."""
    return re.fullmatch(r"kcsolve( corner)? [a-z-]+", command) is not None and command_path(command)[1] == []


def is_synopsis(command: str) -> bool:
    """Whether the quote shows the form of a command, with placeholders, rather than one to run."""
    return PLACEHOLDER.search(command.split(" | ")[0].split(" > ")[0]) is not None


def command_path(command: str) -> tuple[list[click.Command], list[str]]:
    """The commands a quote's words name, each of alternatives such as `deal\\|turn` included, and the words after."""
    words = command.replace("\\|", "|").split()[1:]
    group: click.Command = cli
    found: list[click.Command] = [cli]
    while words and isinstance(group, click.Group) and re.fullmatch(r"[a-z-]+(\|[a-z-]+)*", words[0]):
        names = words[0].split("|")
        subs = [group.get_command(click.Context(group), name) for name in names]
        if None in subs:
            break
        words.pop(0)
        found = [sub for sub in subs if sub is not None]
        group = found[0]
    return found, words


def option_problems(command: str) -> list[str]:
    """The command words that name no command, and the options that its command does not take."""
    commands, rest = command_path(re.split(r" [|>] ", command)[0])
    if commands == [cli] and rest and not rest[0].startswith("-"):
        return [f"no command {rest[0]!r}"]
    options = re.findall(r"(?:^|(?<=[\s\[|]))(--?[a-z][a-z-]*)", " ".join(rest))
    problems = []
    for each in commands:
        taken = {
            name
            for parameter in each.params
            for name in [*getattr(parameter, "opts", []), *getattr(parameter, "secondary_opts", [])]
        }
        taken |= {"--help", "-h"}
        problems += [f"{each.name} takes no {option}" for option in options if option not in taken]
    return problems


def test_the_lists_name_only_quoted_commands() -> None:
    """Each listed command is still quoted, and is one the test would otherwise run."""
    assert len(COMMANDS) > 50, "the pages quote many more commands: the extraction is broken"
    listed = SLOW.keys() | NOT_RUN.keys() | NOT_COMMANDS.keys() | EXIT.keys() | RECORD_FILES.keys()
    assert sorted(c for c in listed if c not in COMMANDS) == [], "listed, but quoted no more"
    assert sorted(c for c in SLOW.keys() | NOT_RUN.keys() if is_synopsis(c) or is_bare(c)) == [], "never run anyway"
    assert not SLOW.keys() & NOT_RUN.keys()


@pytest.mark.parametrize("command", sorted(c for c in COMMANDS if c not in NOT_COMMANDS))
def test_a_quoted_command_takes_the_options_it_names(command: str) -> None:
    assert option_problems(command) == [], COMMANDS[command]


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Fail a command run in process that takes longer than ``seconds`` of wall-clock time."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_in(folder: Path, command: str, limit: int) -> tuple[int, str]:
    """Run a quoted command line in ``folder``, within ``limit`` seconds: its exit status and its standard error."""
    for name, source in {**FILES, **RECORD_FILES.get(command, {})}.items():
        if name not in command:
            continue
        made = make_runner().invoke(cli, source)
        assert made.exit_code == 0, made.stderr
        (folder / name).write_text(made.stdout.splitlines()[0] if source is HAND_RECORD else made.stdout)
    if "tests/golden/" in command:
        (folder / "tests" / "golden").mkdir(parents=True)
        shutil.copy(REPO / "tests" / "golden" / "sample_game.json", folder / "tests" / "golden")
    if " | " in command:  # a pipe: through a shell, the status kcsolve's own
        script = f'kcsolve() {{ "{sys.executable}" -m kcsolve "$@"; }}; {command}; exit "${{PIPESTATUS[0]}}"'
        done = subprocess.run(["bash", "-c", script], cwd=folder, capture_output=True, text=True, timeout=limit)
        return done.returncode, done.stderr
    line, _, target = command.partition(" > ")
    with chdir(folder), time_limit(limit):
        result = make_runner().invoke(cli, shlex.split(line)[1:])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if target:
        (folder / target).write_text(result.stdout)
    return result.exit_code, result.stderr


def runnable(slow: bool) -> list[str]:
    """The quoted commands run here: quick ones in the default suite, SLOW's in the slow one."""
    return sorted(
        c
        for c in COMMANDS
        if c not in NOT_RUN and c not in NOT_COMMANDS and not is_synopsis(c) and not is_bare(c) and (c in SLOW) == slow
    )


def outside(command: str) -> list[str]:
    """The paths a command names outside the folder it runs in, where it could change the user's files."""
    return [word for word in shlex.split(command)[1:] if word.startswith(("/", "~")) or ".." in word.split("/")]


@pytest.mark.parametrize("command", runnable(slow=False))
def test_a_quoted_command_runs(command: str, tmp_path: Path) -> None:
    assert outside(command) == [], "not run: list it in NOT_RUN"
    status, err = run_in(tmp_path, command, QUICK_LIMIT)
    assert status in EXIT.get(command, {0}), (COMMANDS[command], err)


@pytest.mark.slow
@pytest.mark.parametrize("command", runnable(slow=True))
def test_a_slow_quoted_command_runs(command: str, tmp_path: Path) -> None:
    assert outside(command) == [], "not run: list it in NOT_RUN"
    status, err = run_in(tmp_path, command, SLOW_LIMIT)
    assert status in EXIT.get(command, {0}), (COMMANDS[command], err)


@pytest.mark.parametrize("command", sorted(c for c in COMMANDS if is_bare(c)))
def test_a_named_command_exists(command: str) -> None:
    result = make_runner().invoke(cli, [*command.split()[1:], "--help"])
    assert result.exit_code == 0, (COMMANDS[command], result.stderr)


def test_ci_runs_the_readme_s_test_command() -> None:
    """.ci/run runs the README's test command verbatim, so what CI checks is what a newcomer runs."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    [command] = [line for block in FENCE.findall(readme) for line in block.splitlines() if "pytest" in line]
    assert command in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_extraction_reads_spans_blocks_pipes_and_comments() -> None:
    """The parser itself, on the forms the pages use."""
    text = (
        "Run `kcsolve solve --seed 0 --format json >\ngame.json` or `kcsolve --version`; not `kcsolve/cli/`.\n"
        "```\n$ kcsolve odds\nkcsolve corner rules      # every option\n"
        "- run: pip install . && kcsolve rules\n```\n"
    )
    assert [command_of(q) for q in quotes(text) if command_of(q)] == [
        "kcsolve odds",
        "kcsolve corner rules",
        "kcsolve rules",
        "kcsolve solve --seed 0 --format json > game.json",
        "kcsolve --version",
    ]
    assert is_synopsis("kcsolve deal [--seed N \\| --pysol N]") and not is_synopsis("kcsolve rules camelot+groups")
    assert is_bare("kcsolve verify") and not is_bare("kcsolve --version") and not is_bare("kcsolve rules camelot")
    assert option_problems("kcsolve solve --sed 0") == ["solve takes no --sed"]
    assert option_problems("kcsolve corner deal\\|turn --seed N") == ["turn takes no --seed"]
    assert option_problems("kcsolve solv --seed 0") == ["no command 'solv'"]
    assert outside("kcsolve site --out /var/www/kc --days 2") == ["/var/www/kc"]
    assert outside("kcsolve replay ../game.json") == ["../game.json"] and outside("kcsolve site --out site") == []
