"""The ``kcsolve`` command line: a thin click wrapper over the library."""

from __future__ import annotations

import json
import os
import secrets
import sys
from typing import Any, NoReturn

import click

from . import __version__
from .cards import Card, InvalidDeckError, format_deck, parse_deck
from .deal import SEED_LIMIT, InvalidSeedError, check_seed, deal
from .engine import Status
from .record import InvalidRecordError, Record, judge, parse_record, replay
from .render import tell_game
from .rules import InvalidRulesError, Rules, parse_rules

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
        except (InvalidDeckError, InvalidRecordError, InvalidRulesError, InvalidSeedError) as exc:
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


def load_deck(path: str) -> tuple[Card, ...]:
    """Read and check a deck file; errors name the file."""
    try:
        return parse_deck(_read_text(path))
    except InvalidDeckError as exc:
        fail(f"{path}: {exc}")


def load_record(path: str) -> Record:
    """Read a game record file (``-`` for standard input)."""
    return parse_record(_read_text(path), source="<stdin>" if path == "-" else path)


colour_option = click.option(
    "--color/--no-color", "colour", default=None, help="Colour the grid (default: only on a terminal)."
)
style_option = click.option(
    "--style", type=click.Choice(["boxes", "line"]), default="boxes", show_default=True,
    help="Draw each grid as boxes (like the sample game) or on one line.",
)


@click.group(cls=KcsolveGroup, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="kcsolve")
def cli() -> None:
    """Solve, replay and check games of the patience Kings in the Corners."""


@cli.command("deal", context_settings=CONTEXT)
@click.option("--seed", type=int, help="Deal number, 0 <= N < 2**64 (default: a random one, printed).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def deal_command(seed: int | None, fmt: str) -> None:
    """Print the deck of a seeded deal, top of the stock first."""
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    deck = deal(check_seed(seed))
    if fmt == "json":
        click.echo(json.dumps({"seed": seed, "deck": [str(c) for c in deck]}))
    else:
        click.echo(f"# kcsolve deal --seed {seed}  (first card = top of the stock)")
        click.echo(format_deck(deck), nl=False)


@cli.command("replay", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
@click.option("--rules", "rules_text", help="Replay under these rules instead of the record's.")
@style_option
@colour_option
def replay_command(record_path: str, rules_text: str | None, style: str, colour: bool | None) -> None:
    """Tell a recorded game deal by deal, removal by removal, like the sample game."""
    record = load_record(record_path)
    rules = _rules_option(rules_text) or record.rules
    played = replay(record, rules)
    for block in tell_game(played.start, list(played.steps), style=style, colour=_use_colour(colour)):
        click.echo(block)
        if style == "boxes":
            click.echo()
    if played.error:
        click.echo(f"Illegal: {played.error}.")
        sys.exit(1)


@cli.command("verify", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
@click.option("--rules", "rules_text", help="Judge under these rules instead of the record's.")
def verify_command(record_path: str, rules_text: str | None) -> None:
    """Replay a record's moves and judge the result: exit 0 only for a won game."""
    record = load_record(record_path)
    verdict = judge(record, _rules_option(rules_text))
    line = str(verdict)
    claimed = {"win": Status.WON, "loss": Status.LOST}.get(record.result)
    if claimed is not None and claimed is not verdict.outcome.status and not verdict.illegal:
        line += f" (the record claims {record.result!r})"
    click.echo(line)
    sys.exit(0 if verdict.won else 1)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="kcsolve")

