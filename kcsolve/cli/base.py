"""What every kcsolve command shares: the group, one-line errors, input helpers, common options."""


from __future__ import annotations

import datetime as dt
import os
import sys
import time
from typing import Any, NoReturn

import click

from .. import __version__
from ..common.cards import Card, InvalidDeckError, parse_deck
from ..common.deal import InvalidSeedError
from ..patience.pysol import (
    InvalidPysolGameError,
    PysolUnavailableError,
)
from ..patience.record import InvalidRecordError, Record, parse_record
from ..patience.render import tell_game
from ..patience.rules import InvalidRulesError, Rules, parse_rules
from ..patience.solver import (
    InvalidBudgetError,
    UnsupportedMethodError,
)

EXIT_FOR = {"win": 0, "loss": 1, "unknown": 3}

CONTEXT = {"help_option_names": ["-h", "--help"]}
BAD_INPUT = 2


class KcsolveGroup(click.Group):
    """A group whose errors are one line on stderr and exit status 2, never a traceback."""

    def main(self, args: Any = None, prog_name: str | None = None, **extra: Any) -> Any:  # type: ignore[override]
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
        except (
            InvalidDeckError, InvalidRecordError, InvalidRulesError, InvalidSeedError,
            InvalidBudgetError, UnsupportedMethodError, InvalidPysolGameError, PysolUnavailableError,
        ) as exc:
            fail(str(exc))
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(1)


def fail(message: str) -> NoReturn:
    """Print one error line and exit with the bad-input status."""
    click.echo(f"Error: {message}", err=True)
    sys.exit(BAD_INPUT)


def _rules_option(value: str | None) -> Rules | None:
    """Parse a --rules value, leaving None alone."""
    return None if value is None else parse_rules(value)


def _use_colour(flag: bool | None) -> bool:
    """Colour when asked, else when stdout is a terminal and NO_COLOR is unset."""
    if flag is not None:
        return flag
    return sys.stdout.isatty() and "NO_COLOR" not in os.environ


def _read_text(path: str) -> str:
    """Read a file, or standard input for ``-``; failures are bad input."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        fail(f"cannot read {path!r}: {reason}")


def _source_name(path: str) -> str:
    """How messages name an input: the path, or ``<stdin>`` for ``-``."""
    return "<stdin>" if path == "-" else path


def load_deck(path: str) -> tuple[Card, ...]:
    """Read and check a deck file (``-`` for standard input); errors name the source."""
    try:
        return parse_deck(_read_text(path))
    except InvalidDeckError as exc:
        fail(f"{_source_name(path)}: {exc}")


def load_record(path: str) -> Record:
    """Read a game record file (``-`` for standard input)."""
    return parse_record(_read_text(path), source=_source_name(path))


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
    "--style", type=click.Choice(["boxes", "line"]), default="boxes", show_default=True,
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
            nl=False, err=True,
        )


def parse_date(text: str | None) -> dt.date:
    """A YYYY-MM-DD date, or today (local time) when none is given."""
    if text is None:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        fail(f"not a date: {text!r} (use YYYY-MM-DD)")


@click.group(cls=KcsolveGroup, context_settings=CONTEXT, invoke_without_command=True)
@click.version_option(__version__, "--version", prog_name="kcsolve")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Solve, replay and check games of the patience Kings in the Corners."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
