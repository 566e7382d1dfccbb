"""The ``kcsolve`` command line: a thin click wrapper over the library."""

from __future__ import annotations

import datetime as dt
import json
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import click

from . import __version__
from .cards import Card, InvalidDeckError, format_deck, parse_deck
from .deal import SEED_LIMIT, InvalidSeedError, check_seed, deal
from .engine import Status
from .pysol import (
    PYSOL_MAX_GAME,
    InvalidPysolGameError,
    PysolUnavailableError,
    check_pysol_game,
    pysol_deal,
)
from .record import InvalidRecordError, Record, judge, parse_record, replay
from .render import draw, draw_cards, tell_game
from .rules import InvalidRulesError, Rules, parse_rules
from .solver import (
    METHODS,
    Budget,
    InvalidBudgetError,
    Solution,
    UnsupportedMethodError,
    parse_budget,
    solve,
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


@click.group(cls=KcsolveGroup, context_settings=CONTEXT, invoke_without_command=True)
@click.version_option(__version__, "--version", prog_name="kcsolve")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Solve, replay and check games of the patience Kings in the Corners."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@cli.command("deal", context_settings=CONTEXT)
@click.option("--seed", type=int, help="Deal number, 0 <= N < 2**64 (default: a random one, printed).")
@click.option("--pysol", type=int, metavar="N", help="The deck of PySolFC's Camelot game N, 1 <= N <= 10**20.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def deal_command(seed: int | None, pysol: int | None, fmt: str) -> None:
    """Print the deck of a seeded deal or of a PySolFC game, top of the stock first."""
    if pysol is not None and seed is not None:
        fail("give either --seed N or --pysol N, not both")
    if pysol is not None:
        deck, key, number = pysol_deal(pysol), "pysol", pysol
    else:
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        deck, key, number = deal(check_seed(seed)), "seed", seed
    if fmt == "json":
        click.echo(json.dumps({key: number, "deck": [str(c) for c in deck]}))
    else:
        source = f"PySolFC Camelot game {pysol}; " if pysol is not None else ""
        click.echo(f"# kcsolve deal --{key} {number}  ({source}first card = top of the stock)")
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
    paint = _use_colour(colour)
    _tell(played, style, paint)
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


def _describe_stats(stats: dict[str, Any], decided: bool = True) -> str:
    """``decided by construct: 0 positions searched, 0.41 ms`` (``stopped ...`` when undecided)."""
    route = f"decided by {stats['method']}" if decided else f"{stats['method']} stopped"
    return f"{route}: {stats['nodes']} positions searched, {stats['seconds'] * 1000:.2f} ms"


def _print_solution(solution: Solution, title: str, style: str, colour: bool) -> None:
    """Tell a solved deal: the winning line like the sample game, or why it is lost."""
    record = solution.record()
    played = replay(record)
    click.echo(title)
    click.echo()
    if solution.result == "win":
        _tell(played, style, colour)
        click.echo(f"Winnable ({_describe_stats(solution.stats)}).")
    elif solution.result == "loss":
        if played.steps:
            click.echo("The grid when it jams, after the best play:")
            click.echo(draw(played.final, style, colour), color=colour)
            click.echo()
        click.echo(f"Not winnable: {solution.reason} ({_describe_stats(solution.stats)}).")
    else:
        click.echo(f"Undecided: {solution.reason}.")


@cli.command("solve", context_settings=CONTEXT)
@click.argument("deck_path", metavar="[DECK_FILE|-]", required=False)
@click.option("--seed", type=int, help="Solve deal number N instead of a deck file.")
@click.option("--pysol", type=int, metavar="N", help="Solve PySolFC's Camelot game N, 1 <= N <= 10**20, instead.")
@click.option("--count", type=click.IntRange(min=1), help="Solve M consecutive deals from --seed (or games from --pysol).")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="auto: the fastest exact route; construct: the forced course and a built line; "
              "sat: one CDCL call on the pairing choices; dfs: depth-first search.")
@click.option("--budget", "budget_text",
              help="Search limit: NODES (dfs positions, sat conflicts), SECONDSs, or both ('2s,100000').")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@style_option
@colour_option
def solve_command(
    deck_path: str | None, seed: int | None, pysol: int | None, count: int | None, rules_text: str, method: str,
    budget_text: str | None, fmt: str, style: str, colour: bool | None,
) -> None:
    """Decide whether a deal can be won, and print the winning line.

    Exit status: 0 winnable, 1 not winnable, 3 undecided (budget ran out),
    2 bad input; with --count, 0 when every deal was decided, 3 otherwise.
    """
    rules = parse_rules(rules_text)
    budget = parse_budget(budget_text) if budget_text is not None else Budget()
    if pysol is not None and (deck_path is not None or seed is not None):
        fail("give --pysol N alone, without a DECK_FILE or --seed N")
    if deck_path is not None and seed is not None:
        fail("give either a DECK_FILE (or - for standard input) or --seed N, not both")
    if count is not None and seed is None and pysol is None:
        fail("--count needs --seed or --pysol: it solves consecutive numbered deals")
    if deck_path is None and seed is None and pysol is None:
        fail("give a DECK_FILE (or - for standard input), --seed N or --pysol N")
    if seed is not None:
        check_seed(seed)
        if seed + (count or 1) > SEED_LIMIT:
            fail(f"--seed {seed} --count {count} runs past the last deal number, 2**64-1")
    if pysol is not None:
        check_pysol_game(pysol)
        if pysol + (count or 1) > PYSOL_MAX_GAME + 1:
            fail(f"--pysol {pysol} --count {count} runs past the last PySolFC game number, 10**20")
    if count is not None:
        _solve_many(pysol if pysol is not None else seed or 0, count, rules, method, budget, fmt, pysol is not None)
    if deck_path is not None:
        deck = load_deck(deck_path)
    else:
        deck = deal(seed or 0) if pysol is None else pysol_deal(pysol)
    solution = solve(deck, rules, method, budget)
    if fmt == "json":
        extra = {"seed": seed} if seed is not None else {"pysol": pysol} if pysol is not None else {}
        click.echo(json.dumps({**solution.record(**extra).to_json()}))
    else:
        source = (f"Deal {seed}" if seed is not None else f"PySolFC game {pysol}" if pysol is not None
                  else f"Deck {deck_path}")
        _print_solution(solution, f"{source}, rules {rules}", style, _use_colour(colour))
    sys.exit(EXIT_FOR[solution.result])


def _solve_many(
    start: int, count: int, rules: Rules, method: str, budget: Budget, fmt: str, pysol: bool = False,
) -> NoReturn:
    """Solve consecutive seeds (or PySolFC games), one line each as it is decided; exit 0 if all were decided."""
    tally = {"win": 0, "loss": 0, "unknown": 0}
    key, label = ("pysol", "PySolFC game") if pysol else ("seed", "seed")
    for seed in range(start, start + count):
        solution = solve(pysol_deal(seed) if pysol else deal(seed), rules, method, budget)
        tally[solution.result] += 1
        if fmt == "json":
            click.echo(json.dumps(solution.record(**{key: seed}).to_json()))
        else:
            stats = _describe_stats(solution.stats, solution.result != "unknown")
            click.echo(f"{label} {seed}: {solution.result} ({solution.reason}; {stats})")
    if fmt == "text":
        click.echo(f"{count} deals under {rules}: {tally['win']} winnable, {tally['loss']} not, {tally['unknown']} undecided")
    sys.exit(3 if tally["unknown"] else 0)


class _ProgressLine:
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


@cli.command("stats", context_settings=CONTEXT)
@click.option("--start", type=int, default=0, show_default=True, help="First deal number.")
@click.option("--count", type=click.IntRange(min=1), default=10_000, show_default=True, help="How many consecutive deals.")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option("--jobs", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default="all cores",
              help="Worker processes.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help="Results database (default: in the user's cache).")
@click.option("--budget", "budget_text", help="Search limit per deal where a search is needed; a larger one retries undecided deals.")
@click.option("--scheduler", help="Run on an existing Dask cluster, e.g. tcp://127.0.0.1:8786.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def stats_command(
    start: int, count: int, rules_text: str, jobs: int, db_path: str | None, budget_text: str | None,
    scheduler: str | None, fmt: str,
) -> None:
    """Win rate over consecutive seeded deals, stored per deal and resumable.

    Exit status: 0 when every deal is decided, 3 if any is undecided, 2 for bad
    input (including a database that is not kcsolve's), 130 when interrupted
    (finished deals are kept; run the same command again to resume).
    """
    from . import stats

    rules = parse_rules(rules_text)
    budget = parse_budget(budget_text) if budget_text is not None else Budget()
    check_seed(start)
    if start + count > SEED_LIMIT:
        fail(f"--start {start} --count {count} runs past the last deal number, 2**64-1")
    path = Path(db_path) if db_path else stats.default_db()
    try:
        store = stats.ResultsStore(path)
    except stats.ResultsStoreError as exc:
        fail(str(exc))
    report = _ProgressLine() if sys.stderr.isatty() else None
    try:
        run = stats.run(store, rules, start, count, jobs, budget, report, scheduler)
    except KeyboardInterrupt:
        done = len(store.decided(str(rules), start, count, budget))
        click.echo(f"\ninterrupted: {done:,} of {count:,} deals are stored in {path}; "
                   "run the same command again to resume", err=True)
        sys.exit(130)
    except stats.SchedulerError as exc:
        fail(str(exc))
    if report:
        click.echo(err=True)
    summary = stats.summarize(store, rules, start, count)
    store.close()
    if fmt == "json":
        click.echo(json.dumps({**summary.to_json(), "db": str(path), "solved_now": run.solved}))
    else:
        _print_summary(summary, path, run)
    sys.exit(3 if summary.undecided else 0)


def _print_summary(summary: Any, path: Path, run: Any) -> None:
    """The win rate, its interval, and the losses split by reason and by fill round."""
    from .stats import REASONS

    last = summary.start + summary.count - 1
    click.echo(f"{summary.rules}, seeds {summary.start}..{last} ({summary.count:,} deals): "
               f"{summary.won:,} won, {summary.lost:,} lost, {summary.undecided:,} undecided")
    if summary.win_rate is not None:
        low, high = summary.ci95
        click.echo(f"win rate {summary.win_rate:.2%} (95% Wilson interval {low:.2%} to {high:.2%})")
    if summary.undecided:
        low, high = summary.bounds
        click.echo(f"with the undecided deals either way: between {low:.2%} and {high:.2%}")
    click.echo("for comparison, Pretty Good Solitaire rates the game 'Easy (80%)' without saying how")
    if summary.lost:
        click.echo("losses by reason:")
        for code, label in REASONS.items():
            n = summary.loss_reasons[code]
            click.echo(f"  {label:<34} {n:>9,}  {n / summary.lost:7.2%}")
        click.echo("losses by the deal (fill round) in which best play is lost:")
        for deal_no, n in sorted(summary.loss_deals.items()):
            click.echo(f"  deal {deal_no:<3} {n:>9,}  {n / summary.lost:7.2%}")
    rate = f" at {run.rate:,.0f} deals/s" if run.solved else ""
    click.echo(f"stored in {path}; this run solved {run.solved:,} deals{rate}")


def _parse_date(text: str | None) -> dt.date:
    """A YYYY-MM-DD date, or today (local time) when none is given."""
    if text is None:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        fail(f"not a date: {text!r} (use YYYY-MM-DD)")


@cli.command("daily", context_settings=CONTEXT)
@click.option("--date", "date_text", help="The date, YYYY-MM-DD (default: today, local time).")
@click.option("--days", type=click.IntRange(min=1), default=1, show_default=True, help="How many consecutive dates.")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option("--ramp", is_flag=True, help="Easiest grade on Mondays, hardest on Sundays.")
@click.option("--no-solution", "hide", is_flag=True, help="Leave the winning line out.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@style_option
@colour_option
def daily_command(
    date_text: str | None, days: int, rules_text: str, ramp: bool, hide: bool, fmt: str, style: str,
    colour: bool | None,
) -> None:
    """A winnable deal for each date, with its measured difficulty and grade.

    The deal of a date depends only on the date and the rules (see the README).
    Difficulty is the share of 1,000 playouts won by a good player who cannot see
    the deck; grades cut it at quartiles measured over 1,000 winnable deals.
    """
    from .daily import daily
    from .policy import UnsupportedPolicyRules, check_rules

    rules = parse_rules(rules_text)
    first = _parse_date(date_text)
    try:
        check_rules(rules)
    except UnsupportedPolicyRules as exc:
        fail(str(exc))
    paint = _use_colour(colour)
    for offset in range(days):
        day = first + dt.timedelta(days=offset)
        found = daily(day, rules, ramp)
        if fmt == "json":
            click.echo(json.dumps(_daily_json(found, hide)))
        else:
            _print_daily(found, hide, style, paint)


def _daily_json(found: Any, hide: bool) -> dict[str, Any]:
    """One date's deal as a JSON-ready dict."""
    data = {
        "date": found.date.isoformat(), "seed": found.seed, "rules": str(found.rules),
        "deck": [str(c) for c in found.deck], "difficulty": found.difficulty.rate,
        "playouts": found.difficulty.playouts, "progress": found.difficulty.progress, "grade": found.grade,
    }
    if not hide:
        data["solution"] = found.solution.record(seed=found.seed).to_json()
    return data


def _print_daily(found: Any, hide: bool, style: str, paint: bool) -> None:
    """One date's deal as text: the header, the first deal's cards, the deck, then the winning line."""
    d = found.difficulty
    click.echo(f"{found.date.isoformat()} ({found.date.strftime('%A')}): deal {found.seed}, rules {found.rules}")
    click.echo(f"difficulty {d.rate:.1%} ({d.wins} of {d.playouts} playouts won by a player who cannot see "
               f"the deck; {d.progress:.1f} court cards placed on average), grade {found.grade}")
    click.echo()
    click.echo("The first sixteen cards, in the order they come:")
    first = list(found.deck[:16])
    click.echo(draw_cards(first, paint) if style == "boxes" else " ".join(map(str, first)), color=paint)
    click.echo()
    click.echo(format_deck(found.deck), nl=False)
    if not hide:
        click.echo()
        played = replay(found.solution.record())
        _tell(played, style, paint)
    click.echo()


@cli.command("play", context_settings=CONTEXT)
@click.argument("deck_path", metavar="[DECK_FILE]", required=False)
@click.option("--seed", type=int, help="Play deal number N (default: a random one, shown).")
@click.option("--daily", "daily_date", is_flag=False, flag_value="today", default=None, metavar="[DATE]",
              help="Play the daily deal of DATE (default: today).")
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@style_option
@colour_option
def play_command(
    deck_path: str | None, seed: int | None, daily_date: str | None, rules_text: str, style: str, colour: bool | None,
) -> None:
    """Play a game in the terminal, with hints from a player who cannot see the stock.

    Type a cell to place the turned card (b2), cells to remove cards (b2 d2),
    or: deal, undo, hint, peek, save FILE, load FILE, help, quit.
    """
    from .session import Session

    rules = parse_rules(rules_text)
    if sum(x is not None for x in (deck_path, seed, daily_date)) > 1:
        fail("give one of DECK_FILE, --seed N or --daily [DATE]")
    if deck_path is not None:
        deck, title = load_deck(deck_path), f"Deck {deck_path}"
    elif daily_date is not None:
        from .daily import daily

        day = _parse_date(None if daily_date == "today" else daily_date)
        found = daily(day, rules)
        deck, title = found.deck, f"Daily deal of {day.isoformat()} (deal {found.seed}, grade {found.grade})"
    else:
        number = check_seed(seed if seed is not None else secrets.randbelow(SEED_LIMIT))
        deck, title = deal(number), f"Deal {number}"
    paint = _use_colour(colour)
    session = Session(deck, rules)
    click.echo(f"{title}, rules {rules}. Type 'help' for the commands.")
    _show(session, style, paint)
    try:
        while True:
            reply = session.command(input("> "))
            for line in reply.lines:
                click.echo(line)
            if reply.done:
                return
            if reply.redraw:
                _show(session, style, paint)
    except (EOFError, KeyboardInterrupt):  # nothing is written unless asked: leaving is always clean
        click.echo("\nBye.")


def _show(session: Any, style: str, paint: bool) -> None:
    """Draw the grid and the lines under it."""
    position = session.position
    click.echo(draw(position, style, paint), color=paint)
    for line in session.status_lines():
        click.echo(line)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="kcsolve")

