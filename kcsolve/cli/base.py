"""What every kcsolve command shares: the group, one-line errors, input helpers, common options."""

from __future__ import annotations

import datetime as dt
import importlib
import io
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

import click

from kcsolve import __version__
from kcsolve.common.cards import MAX_DECK_TEXT, Card, InvalidDeckError, parse_deck
from kcsolve.common.files import open_regular
from kcsolve.errors import KcsolveError
from kcsolve.patience.daily.dates import parse_day
from kcsolve.patience.notation import read_game
from kcsolve.patience.record import MAX_RECORD_TEXT, Record
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.terminal.render import tell_game

EXIT_FOR = {"win": 0, "loss": 1, "unknown": 3}

CONTEXT = {"help_option_names": ["-h", "--help"]}
BAD_INPUT = 2

# an error line echoes its culprit; one typed or pasted at a million characters is shown by its two ends
LONGEST_ERROR = 400
LONGEST_LINE = 4096  # characters in one line typed to a game: every command is far shorter


# command name -> the module of kcsolve.cli that defines it, imported only when the command is asked for,
# so a command loads the library it uses and nothing else (kcsolve --version loads no solver)
COMMAND_MODULES = {
    "analyse": "analyse_command",
    "corner": "corner_command",
    "daily": "daily_command",
    "deal": "record_commands",
    "odds": "odds_command",
    "play": "play_command",
    "pysol-solvable": "pysol_command",
    "replay": "record_commands",
    "rules": "rules_command",
    "selfplay": "selfplay_command",
    "site": "site_command",
    "solve": "solve_command",
    "stats": "stats_command",
    "verify": "record_commands",
}


class KcsolveCommand(click.Command):
    """A command that refuses an empty value wherever one is asked for, before any option reads it.

    An empty path would otherwise name the current folder and an empty rule text
    the default rules, so ``--out ''`` or ``--rules ''`` did what the user never asked.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        refuse_empty_values(self, ctx, args)
        return super().parse_args(ctx, args)


def refuse_empty_values(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """Fail on the first option or argument of ``args`` given as an empty string; other mistakes are click's to name."""
    try:
        given, _, _ = command.make_parser(ctx).parse_args(args=list(args))  # the parser consumes the list it gets
    except click.UsageError:
        return
    for param in command.get_params(ctx):
        value = given.get(param.name)
        if value == "" or (isinstance(value, (list, tuple)) and "" in value):
            option = isinstance(param, click.Option)
            name = param.opts[0] if option else param.human_readable_name.strip("[]")
            hint = f"; give one, or leave {name} out" if option and not param.required else ""
            fail(f"{name} '': the value is empty{hint}")


class CommandGroup(click.Group):
    """A group of commands (``corner``) whose commands refuse empty values like every other."""

    command_class = KcsolveCommand


class KcsolveGroup(click.Group):
    """A group whose errors are one line on stderr and exit status 2, never a traceback; commands load on demand."""

    command_class = KcsolveCommand
    group_class = CommandGroup

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMAND_MODULES) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMAND_MODULES:
            importlib.import_module(f"kcsolve.cli.{COMMAND_MODULES[name]}")  # its decorators register it here
        return self.commands.get(name)

    def main(self, args: Any = None, prog_name: str | None = None, **extra: Any) -> Any:  # type: ignore[override]  # click overloads main on standalone_mode, always False here
        extra["standalone_mode"] = False
        try:
            return super().main(args, prog_name=prog_name, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("kcsolve: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            fail(exc.format_message())
        except KcsolveError as exc:  # every error kcsolve raises on purpose, so a new one needs no change here
            fail(str(exc))


class OutputError(KcsolveError, OSError):
    """Standard output cannot be written (a full disk, an I/O error); a closed pipe is not one."""


class GuardedOutput(io.TextIOBase):
    """Standard output that survives its reader leaving, and reports a failed write as bad output.

    A closed pipe (``kcsolve solve --seed 0 | head -1``) drops the rest of the
    output quietly, so the command still ends with its verdict's exit status;
    any other write error (``> /dev/full``) becomes one error line, exit 2.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.dropped = False

    @property
    def encoding(self) -> str:  # type: ignore[override]  # read-only: the wrapped stream's
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]  # read-only: the wrapped stream's
        return self.stream.errors

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:  # click probes streams with empty writes; those must not count as output
            self._guard(lambda: self.stream.write(text))
        return len(text)

    def flush(self) -> None:
        self._guard(self.stream.flush)

    def _guard(self, action: Callable[[], object]) -> None:
        if self.dropped:
            return
        try:
            action()
        except BrokenPipeError:
            self.dropped = True
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())  # what Python flushes at exit goes nowhere, quietly
            os.close(devnull)
        except OSError as exc:
            self.dropped = True
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None


class InputLineError(KcsolveError):
    """A line typed to a game that is not one: longer than LONGEST_LINE characters, or not UTF-8 text."""


def read_line(prompt: str = "") -> str:
    """One line typed to a game, without its newline; EOFError at the end of input.

    At a terminal ``input`` keeps its line editing (the terminal bounds a
    line); from a pipe or a file at most LONGEST_LINE characters are read, so
    endless input without a newline is refused, not held in memory.
    """
    if sys.stdin.isatty():
        return input(prompt)
    click.echo(prompt, nl=False)
    sys.stdout.flush()
    try:
        line = sys.stdin.readline(LONGEST_LINE + 1)
        line.encode("utf-8")  # where stdin decodes with surrogateescape (a C or POSIX locale), bad bytes pass as these
    except (UnicodeDecodeError, UnicodeEncodeError):
        raise InputLineError("the game's input is not UTF-8 text") from None
    if not line:
        raise EOFError
    if len(line) > LONGEST_LINE:
        raise InputLineError(f"a line of the game's input is longer than {LONGEST_LINE:,} characters: {line[:40]!r}...")
    return line.removesuffix("\n")


def fail(message: str) -> NoReturn:
    """Print one error line, at most about LONGEST_ERROR characters, and exit with the bad-input status."""
    click.echo(f"Error: {shorten(message)}", err=True)
    sys.exit(BAD_INPUT)


def shorten(message: str) -> str:
    """``message`` itself, or its two ends around a count of the characters left out when it is too long."""
    if len(message) <= LONGEST_ERROR:
        return message
    head, tail = LONGEST_ERROR * 2 // 3, LONGEST_ERROR // 4
    return f"{message[:head]} ... [{len(message) - head - tail:,} characters] ... {message[-tail:]}"


def _rules_option(value: str | None) -> Rules | None:
    """Parse a --rules value, leaving None alone."""
    return None if value is None else parse_rules(value)


def _use_colour(flag: bool | None) -> bool:
    """Colour when asked, else when stdout is a terminal and NO_COLOR is unset."""
    if flag is not None:
        return flag
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def _read_text(path: str, limit: int) -> str:
    """Read at most ``limit`` characters of a regular file (``-``: standard input); more, anything but a regular
    file, or a failure, is bad input."""
    try:
        if path == "-":
            text = sys.stdin.read(limit + 1)
        else:
            with io.TextIOWrapper(open_regular(path), encoding="utf-8") as handle:  # a pipe would wait for ever
                text = handle.read(limit + 1)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        fail(f"cannot read {_source_name(path)}: {reason}")
    return _within(path, text, limit)


def _within(path: str, text: str, limit: int) -> str:
    """The text read from ``path``, refused as bad input when it is longer than ``limit`` characters."""
    if len(text) > limit:
        fail(f"{_source_name(path)}: more than {limit:,} characters, too large for this kind of file")
    return text


def _source_name(path: str) -> str:
    """How messages name an input: the path quoted as Python would (a newline in it stays on the line), or
    ``<stdin>`` for ``-``."""
    return "<stdin>" if path == "-" else repr(path)


def load_deck(path: str) -> tuple[Card, ...]:
    """Read and check a deck file (``-`` for standard input); errors name the source."""
    try:
        return parse_deck(_read_text(path, MAX_DECK_TEXT))
    except InvalidDeckError as exc:
        fail(f"{_source_name(path)}: {exc}")


def load_record(path: str) -> Record:
    """Read a game record file (``-`` for standard input): JSON, or the one-line notation."""
    return read_game(_read_text(path, MAX_RECORD_TEXT), source=_source_name(path))


def _tell(played: Any, style: str, colour: bool) -> None:
    """Print a replayed game like the sample game: each grid, then a blank line between boxed grids."""
    for block in tell_game(played.start, list(played.steps), style=style, colour=colour):
        click.echo(block, color=colour)
        if style == "boxes":
            click.echo()


colour_option = click.option(
    "--color/--no-color", "colour", default=None, help="Colour the grid (default: only on a terminal)."
)
style_option = click.option(
    "--style",
    type=click.Choice(["boxes", "line"]),
    default="boxes",
    show_default=True,
    help="Draw each grid as boxes (like the sample game) or on one line.",
)


class ProgressLine:
    """One line on a terminal's stderr: deals done, deals/s, ETA; at most ten updates a second."""

    def __init__(self) -> None:
        self.shown = 0.0

    def __call__(self, progress: Any) -> None:
        now = time.monotonic()
        if now - self.shown < 0.1 and progress.done < progress.total:
            return
        self.shown = now
        left = progress.total - progress.done
        eta = f"{left / progress.rate:,.0f} s" if progress.solved and progress.rate else "--"
        click.echo(
            f"\r{progress.done:,} / {progress.total:,} deals  {progress.rate:,.0f} deals/s  ETA {eta}   ",
            nl=False,
            err=True,
        )


class Ticker:
    """On a terminal's stderr only: after a short wait, what is being worked on and for how long.

    Used as a context manager around work that may take more than a few seconds;
    ``note`` changes the label (e.g. "deal 3 of 10"). Silent when stderr is not a
    terminal, so pipes and tests see nothing of it.
    """

    def __init__(self, label: str, delay: float = 1.0) -> None:
        self.label = label
        self.delay = delay
        self.started = time.monotonic()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True) if sys.stderr.isatty() else None
        self.shown = False

    def note(self, label: str) -> None:
        """Change what the line says is being worked on."""
        self.label = label

    def _run(self) -> None:
        if self.stop.wait(self.delay):
            return
        while True:
            self.shown = True
            click.echo(
                f"\r{self.label}  {time.monotonic() - self.started:,.0f} s (Ctrl-C stops)   ", nl=False, err=True
            )
            if self.stop.wait(0.5):
                return

    def __enter__(self) -> Ticker:
        if self.thread:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.thread:
            self.thread.join()
            if self.shown:
                click.echo("\r\x1b[K", nl=False, err=True)


def parse_date(text: str | None) -> dt.date:
    """A YYYY-MM-DD date, or today in UTC (one day for everyone) when none is given."""
    if text is None:
        return dt.datetime.now(dt.UTC).date()
    return parse_day(text)


@click.group(cls=KcsolveGroup, context_settings=CONTEXT, invoke_without_command=True)
@click.version_option(__version__, "--version", prog_name="kcsolve")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Solve, replay and check games of the patience Kings in the Corners."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
