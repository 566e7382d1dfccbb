"""What every kcsolve command shares: the group, one-line errors, input helpers, common options."""

from __future__ import annotations

import contextlib
import datetime as dt
import importlib
import io
import os
import re
import select
import signal
import stat
import sys
import textwrap
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from typing import IO, Any, NoReturn

import click

from kcsolve import __version__
from kcsolve.common.cards import Card, InvalidDeckError, parse_deck
from kcsolve.common.deal import is_whole
from kcsolve.common.files import MAX_TEXT, TOO_LONG, not_utf8, open_regular
from kcsolve.errors import KcsolveError
from kcsolve.patience.daily.dates import parse_day
from kcsolve.patience.notation import read_game
from kcsolve.patience.record import Record
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.terminal.render import tell_game

EXIT_FOR = {"win": 0, "loss": 1, "unknown": 3}

CONTEXT = {"help_option_names": ["-h", "--help"]}
BAD_INPUT = 2

ERROR_PREFIX = "Error: "
ERROR_WIDTH = 80  # columns of an error line, its prefix included: a standard terminal's width
SHORTEST_ECHO = 16  # columns a culprit cut to fit the line keeps, quotes and '...' included: enough to know it by
SHORT_ECHO = 24  # columns a culprit keeps before a message's details are dropped: a file name and its folder
LONGEST_ERROR = 400  # characters a culprit pasted at a million is cut to at once, before the line is fitted
# a quoted culprit as repr() writes it: not an apostrophe inside a word ("deal's", "records'")
_QUOTED = re.compile(r"""(?<!\w)(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?!\w)""")
LONGEST_LINE = 4096  # characters in one line typed to a game: every command is far shorter
BYTE_ORDER_MARK = "\ufeff"
# the exit status of a command whose reader left (kcsolve ... | head -1): 128 + SIGPIPE, as a shell reports a
# program a closed pipe ended
READER_GONE = 141
INTERRUPTED = 130
READER_GRACE = 10.0  # seconds a command whose reader left has to stop by itself before it is ended


# command name -> the module of kcsolve.cli that defines it, imported only when the command is asked for,
# so a command loads the library it uses and nothing else (kcsolve --version loads no solver)
COMMAND_MODULES = {
    "analyse": "analyse_command",
    "corner": "corner",
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
    """A command that refuses an empty value wherever one is asked for, and a number in anything but the digits 0-9,
    before any option reads it.

    An empty path would otherwise name the current folder and an empty rule text
    the default rules, so ``--out ''`` or ``--rules ''`` did what the user never asked;
    click reads a number with int(), which takes ``1_000`` and other scripts' digits.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        refuse_bad_values(self, ctx, args)
        return super().parse_args(ctx, args)


def refuse_bad_values(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """Fail on the first option or argument of ``args`` given as an empty string, or as a number not in the digits
    0-9 alone; other mistakes are click's to name."""
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
        if (
            isinstance(param.type, click.types.IntParamType)
            and isinstance(value, str)
            and not is_whole(value.removeprefix("-"))  # a negative number is left to the option's range to name
        ):
            name = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
            fail(f"Invalid value for {name!r}: {value!r} is not a valid integer.")  # click's words for 'abc'


class CommandGroup(click.Group):
    """A group of commands (``corner``) whose commands refuse empty values like every other."""

    command_class = KcsolveCommand


class KcsolveGroup(click.Group):
    """A group whose errors are one line on stderr and exit status 2, never a traceback; commands load on demand."""

    command_class = KcsolveCommand
    group_class = CommandGroup

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMAND_MODULES) | set(self.commands))

    def invoke(self, ctx: click.Context) -> Any:
        COMMAND_RUNNING.set()  # from now on a reader leaving interrupts the command here, not click's setup
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            if READER_LEFT.is_set():  # not the user's Ctrl-C: click would answer it with a blank line on stderr
                raise ReaderGone from None
            raise
        finally:
            COMMAND_RUNNING.clear()

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
            sys.exit(INTERRUPTED)
        except click.ClickException as exc:
            fail(exc.format_message())
        except KcsolveError as exc:  # every error kcsolve raises on purpose, so a new one needs no change here
            fail(str(exc))


class OutputError(KcsolveError, OSError):
    """Standard output cannot be written (a full disk, an I/O error); a closed pipe is not one."""


class ReaderGone(Exception):  # not an error, nor a KcsolveError: the reader chose to stop reading
    """The reader of standard output has left (``| head -1``): the command stops at once, with READER_GONE."""


READER_LEFT = threading.Event()  # set by watch_reader when the pipe that reads standard output closes
COMMAND_RUNNING = threading.Event()  # set while the group invokes a command, where ReaderGone replaces the interrupt


def watch_reader(fd: int) -> None:
    """Where ``fd`` writes into a pipe, stop the command as Ctrl-C would, keeping its finished work, once the
    pipe's reader has left.

    A command that writes only at its end (``selfplay | head -1``) would
    otherwise meet the closed pipe after all its work, done for no one.
    """
    if not hasattr(select, "poll") or not stat.S_ISFIFO(os.fstat(fd).st_mode):
        return
    threading.Thread(target=_await_reader_leaving, args=(fd,), daemon=True).start()


def _await_reader_leaving(fd: int) -> None:
    """Wait until the pipe on ``fd`` has no reader, then interrupt the main thread with SIGINT."""
    poller = select.poll()
    poller.register(fd, 0)  # a pipe's writer is told POLLERR, unasked, when its reader is gone
    while True:
        for _, event in poller.poll():
            if event & select.POLLNVAL:
                return
            if event & (select.POLLERR | select.POLLHUP):
                READER_LEFT.set()
                COMMAND_RUNNING.wait()  # an interrupt in click's own setup would be told as the user's Ctrl-C
                os.kill(os.getpid(), signal.SIGINT)  # a real signal wakes the main thread from a blocking call
                # Work that outlives its Ctrl-C path (a library that swallows KeyboardInterrupt) still ends; what
                # was finished is on disk already (a store commits chunk by chunk; files are renamed into place).
                time.sleep(READER_GRACE)
                os._exit(READER_GONE)


class GuardedOutput(io.TextIOBase):
    """Standard output that stops the command when its reader leaves, and reports a failed write as bad output.

    A closed pipe (``kcsolve solve --count 3000 | head -1``) raises ReaderGone
    at the first write that meets it, so no more work is done for no one; what
    is written after that (a ``finally``, Python's last flush) goes nowhere,
    quietly. Any other write error (``> /dev/full``) becomes one error line, exit 2.
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

    def drop(self) -> None:
        """Send what is still to be written nowhere: the reader has left."""
        if not self.dropped:
            self.dropped = True
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())  # what Python flushes at exit goes nowhere, quietly
            os.close(devnull)

    def _guard(self, action: Callable[[], object]) -> None:
        if self.dropped:
            return
        try:
            action()
        except BrokenPipeError:
            self.drop()
            raise ReaderGone from None
        except OSError as exc:
            self.dropped = True
            raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None


@contextlib.contextmanager
def result_stands(code: int) -> Iterator[None]:
    """Around printing a result already reached: a reader who leaves midway stops the printing, not the result."""
    try:
        yield
    except ReaderGone:
        sys.exit(code)
    except KeyboardInterrupt:
        if not READER_LEFT.is_set():
            raise
        sys.exit(code)


class ClosedInput(io.TextIOBase):
    """Standard input where kcsolve was started with it closed (``<&-``): reading it is refused in one line."""

    def readable(self) -> bool:
        return False

    def read(self, size: int | None = -1) -> str:
        raise ClosedInputError

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # TextIOBase's takes an int
        raise ClosedInputError


class ClosedInputError(KcsolveError, OSError):
    """A command read standard input, which was closed when kcsolve started."""

    def __str__(self) -> str:
        return "standard input is closed"


def check_input() -> None:
    """Refuse, before anything is shown, a game whose standard input is closed: it could not read a command."""
    if isinstance(sys.stdin, ClosedInput):
        fail("standard input is closed: the game reads its commands there")


class InputLineError(KcsolveError):
    """A line typed to a game that is not one: longer than LONGEST_LINE characters, or not UTF-8 text."""


def read_line(prompt: str = "") -> str:
    """One line typed to a game, without its newline; EOFError at the end of input.

    At a terminal ``input`` keeps its line editing (the terminal bounds a
    line); from a pipe or a file at most LONGEST_LINE characters are read, so
    endless input without a newline is refused, not held in memory. A
    byte-order mark that an editor put before a line is not part of the command.
    """
    if sys.stdin.isatty():
        return input(prompt).removeprefix(BYTE_ORDER_MARK)
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
    return line.removesuffix("\n").removeprefix(BYTE_ORDER_MARK)


def fail(message: str) -> NoReturn:
    """Print one error line of at most ERROR_WIDTH columns, and exit with the bad-input status."""
    click.echo(f"{ERROR_PREFIX}{shorten(message)}", err=True)
    sys.exit(BAD_INPUT)


def shorten(message: str) -> str:
    """``message`` on one line that fits ERROR_WIDTH columns after ``Error: ``.

    A message puts its culprit and reason first and details after "; ". The
    culprits it quotes are cut in the middle, the longest first and no more
    than needed, down to SHORT_ECHO columns (a path keeps its file name); then
    the details go, the last clause first; then the culprits are cut down to
    SHORTEST_ECHO; only a reason still too long for the line loses its end.
    """
    text = " ".join(_bounded(message).splitlines())
    room = ERROR_WIDTH - len(ERROR_PREFIX)
    text = _cut_quotes(text, text_columns(text) - room, SHORT_ECHO)
    while text_columns(text) > room and "; " in _QUOTED.sub(_blank, text):
        text = text[: _QUOTED.sub(_blank, text).rindex("; ")]
    text = _cut_quotes(text, text_columns(text) - room, SHORTEST_ECHO)
    return text if text_columns(text) <= room else _fitting(text, room - 3) + "..."


def _blank(quoted: re.Match[str]) -> str:
    """A quoted culprit as spaces of its length, so that a '; ' inside it is not taken for the end of a clause."""
    return " " * len(quoted[0])


def _bounded(message: str) -> str:
    """``message`` with every quoted culprit longer than LONGEST_ERROR cut first, then the whole if still longer."""
    message = _QUOTED.sub(lambda m: _cut_middle(m[0], LONGEST_ERROR) if len(m[0]) > LONGEST_ERROR else m[0], message)
    return message if len(message) <= 4 * LONGEST_ERROR else _cut_middle(message, 4 * LONGEST_ERROR)


def _cut_quotes(text: str, excess: int, shortest: int) -> str:
    """``text`` with its quoted spans cut, the longest first, each to no less than ``shortest`` columns, until
    ``excess`` columns are left out or none can be."""
    spans = sorted(((m.start(), m.end()) for m in _QUOTED.finditer(text)), key=lambda s: s[0] - s[1])
    cuts: dict[int, tuple[int, int]] = {}  # start -> (end, width kept)
    for start, end in spans:
        width = text_columns(text[start:end])
        if excess > 0 and width > shortest:
            kept = max(shortest, width - excess)
            cuts[start] = (end, kept)
            excess -= width - kept
    for start in sorted(cuts, reverse=True):  # from the end, so that earlier offsets hold
        end, kept = cuts[start]
        text = text[:start] + _cut_middle(text[start:end], kept) + text[end:]
    return text


def _cut_middle(text: str, width: int) -> str:
    """``text`` in ``width`` columns: its two ends around '...', more of the end (a path's file name), a quoted text
    keeping its quotes."""
    quote = text[0] if len(text) > 1 and text[0] in "'\"" and text[-1] == text[0] else ""
    inner = text[len(quote) : len(text) - len(quote)]
    room = max(width - 2 * len(quote) - 3, 2)
    tail = room * 2 // 3
    return f"{quote}{_fitting(inner, room - tail)}...{_fitting(inner[::-1], tail)[::-1]}{quote}"


def _fitting(text: str, width: int) -> str:
    """The longest start of ``text`` within ``width`` columns."""
    used = 0
    for end, char in enumerate(text):
        used += text_columns(char)
        if used > width:
            return text[:end]
    return text


def text_columns(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide character (CJK, most emoji) two, others one."""
    return len(text) + sum(1 for char in text if unicodedata.east_asian_width(char) in "WF")


def parse_rules_option(value: str | None) -> Rules | None:
    """Parse a --rules value, leaving None alone."""
    return None if value is None else parse_rules(value)


def use_colour(flag: bool | None) -> bool:
    """Colour when asked, else when stdout is a terminal and NO_COLOR is unset."""
    if flag is not None:
        return flag
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def redraws_in_place(plain: bool) -> bool:
    """Whether a game redraws its screen in place: at a terminal taking cursor codes (not TERM=dumb), not --plain."""
    return not plain and sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "dumb") != "dumb"


def too_small(width: int, height: int) -> list[str]:
    """Where the terminal is smaller than ``width`` x ``height``, lines saying so that fit it; else none.

    Asked at every redraw, so a window made larger shows the game at the next command.
    """
    try:
        columns, rows = os.get_terminal_size(sys.stdout.fileno())
    except (OSError, ValueError):  # not a terminal after all: nothing to measure
        return []
    if columns >= width and rows >= height:
        return []
    notice = (
        f"This game needs a terminal of {width}x{height} or more; this one is {columns}x{rows}. "
        "Make it larger and press Enter, or type quit (--plain prints line by line at any size)."
    )
    return textwrap.wrap(notice, max(columns - 1, 20))


def read_text(path: str) -> str:
    """A regular file's text (``-``: standard input), at most MAX_TEXT characters; else one error line, exit 2."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_TEXT + 1)
            # where stdin decodes with surrogateescape (a C or POSIX locale), bad bytes pass as these
            text.encode("utf-8")
        else:
            with io.TextIOWrapper(open_regular(path), encoding="utf-8") as handle:  # a pipe would wait for ever
                text = handle.read(MAX_TEXT + 1)
    except UnicodeDecodeError as exc:
        fail(f"cannot read {source_name(path)}: {not_utf8(exc.object[:2])}")
    except UnicodeEncodeError:
        fail(f"cannot read {source_name(path)}: {not_utf8(text[:2].encode('utf-8', 'surrogateescape'))}")
    except OSError as exc:
        fail(f"cannot read {source_name(path)}: {exc.strerror or exc}")
    if len(text) > MAX_TEXT:
        fail(f"{source_name(path)}: {TOO_LONG}")
    return text


def source_name(path: str) -> str:
    """How messages name an input: the path quoted as Python would (newlines stay escaped), ``<stdin>`` for ``-``."""
    return "<stdin>" if path == "-" else repr(path)


def load_deck(path: str) -> tuple[Card, ...]:
    """Read and check a deck file (``-`` for standard input); errors name the source."""
    try:
        return parse_deck(read_text(path))
    except InvalidDeckError as exc:
        fail(f"{source_name(path)}: {exc}")


def load_record(path: str) -> Record:
    """Read a game record file (``-`` for standard input): JSON, or the one-line notation."""
    return read_game(read_text(path), source=source_name(path))


def tell(played: Any, style: str, colour: bool) -> None:
    """Print a replayed game like the sample game: each grid, then a blank line between boxed grids."""
    for block in tell_game(played.start, list(played.steps), style=style, colour=colour):
        click.echo(block, color=colour)
        if style == "boxes":
            click.echo()


ramp_option = click.option(
    "--ramp/--no-ramp",
    default=True,
    show_default=True,
    help="Easiest grade on Mondays, hardest on Sundays; --no-ramp: each date's first qualifying deal.",
)
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
    """On a terminal only: after a short wait, what is being worked on and for how long, wiped at the end.

    Used as a context manager around work that may take more than a few seconds;
    ``note`` changes the label (e.g. "deal 3 of 10"). Silent when ``stream``
    (stderr by default) is not a terminal, so pipes and tests see nothing of it;
    the one progress line of every long command but ``stats``, whose line counts deals a second.
    """

    def __init__(
        self, label: str, delay: float = 1.0, stream: IO[str] | None = None, terminal: bool | None = None
    ) -> None:
        self.label = label
        self.delay = delay
        self.stream = sys.stderr if stream is None else stream
        self.started = time.monotonic()
        self.stop = threading.Event()
        shown = self.stream.isatty() if terminal is None else terminal
        self.thread = threading.Thread(target=self._run, daemon=True) if shown else None
        self.width = 0

    def note(self, label: str) -> None:
        """Change what the line says is being worked on."""
        self.label = label

    def _run(self) -> None:
        if self.stop.wait(self.delay):
            return
        while True:
            line = f"{self.label}  {time.monotonic() - self.started:,.0f} s (Ctrl-C stops)"
            self.stream.write("\r" + line.ljust(self.width))
            self.stream.flush()
            self.width = len(line)
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
            if self.width:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()


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
