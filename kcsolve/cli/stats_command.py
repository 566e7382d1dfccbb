"""The ``stats`` command: win rates over many seeded deals, stored and resumable."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from kcsolve.cli.base import (
    CONTEXT,
    ProgressLine,
    cli,
    fail,
)
from kcsolve.common.deal import SEED_LIMIT, check_seed
from kcsolve.common.words import NO_BREAK, paragraph, plural
from kcsolve.common.workers import MAX_JOBS
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.solve.route import (
    DEFAULT_BUDGET,
    Budget,
    parse_budget,
)

if TYPE_CHECKING:
    from kcsolve.patience.stats.run import Progress


@cli.command("stats", context_settings=CONTEXT)
@click.option("--start", type=int, default=0, show_default=True, help="First deal number.")
@click.option(
    "--count", type=click.IntRange(min=1), default=10_000, show_default=True, help="How many consecutive deals."
)
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option(
    "--jobs",
    type=click.IntRange(1, MAX_JOBS),
    default=min(os.cpu_count() or 1, MAX_JOBS),
    show_default="all cores",
    help="Worker processes.",
)
@click.option(
    "--db", "db_path", type=click.Path(dir_okay=False), help="Results database (default: in the user's cache)."
)
@click.option(
    "--budget",
    "budget_text",
    help="Search limit per deal where a search is needed (NODES, CPU time such as "
    "'2s', or both; default 1000000 nodes); a larger one retries undecided deals.",
)
@click.option("--scheduler", help="Run on an existing Dask cluster, e.g. tcp://127.0.0.1:8786.")
@click.option("--show", "show", type=int, help="One deal's stored verdict (solved first if it is not stored).")
@click.option(
    "--list",
    "listed",
    type=click.Choice(["won", "lost", "undecided"]),
    help="Print the deal numbers of the range with this verdict, one a line, instead of the summary.",
)
@click.option("--convert", is_flag=True, help="Convert an older per-deal --db to chunks, in place, and stop.")
@click.option(
    "--salvage",
    "salvage_to",
    type=click.Path(dir_okay=False),
    metavar="NEW",
    help="Copy the intact chunks of a damaged --db into a new store NEW, and stop; the damaged file is only read.",
)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def stats_command(
    start: int,
    count: int,
    rules_text: str,
    jobs: int,
    db_path: str | None,
    budget_text: str | None,
    scheduler: str | None,
    show: int | None,
    listed: str | None,
    convert: bool,
    salvage_to: str | None,
    fmt: str,
) -> None:
    """Share of winnable deals (for one who sees the deck) over consecutive deal numbers, stored and resumable.

    Exit status: 0 when every deal is decided, 3 if any is undecided, 2 for bad
    input (a database that is not kcsolve's, damaged or read-only; a bad
    scheduler address) or a run that cannot go on (a full disk, workers that
    keep dying, a lost scheduler), 130 when interrupted by Ctrl-C, SIGTERM or
    SIGHUP. Finished deals are always kept: run the same command again to resume.
    `--show N` prints one deal's verdict; `--list won` the winnable deal numbers
    of the range. A per-deal database of an older kcsolve is refused until
    `--convert` rewrites it. `--salvage NEW` copies the intact chunks of a
    damaged database into a new one.
    Deals are decided by numba-compiled code: the forced course where sets are
    pairs, the course search under groups (with a budget in nodes);
    KCSOLVE_PURE_PYTHON=1 keeps the Python ones (same verdicts, for benchmarks).
    """
    from kcsolve.patience.stats.run import open_results, results_path
    from kcsolve.patience.stats.store import ReadOnlyStoreError
    from kcsolve.patience.stats.summary import summarize

    rules = parse_rules(rules_text)
    budget = parse_budget(budget_text) if budget_text is not None else DEFAULT_BUDGET
    if show is not None and listed is not None:
        fail(f"give either --show {show} or --list {listed}, not both")
    if convert or salvage_to is not None:
        _convert_or_salvage(db_path, convert, salvage_to)
        return
    start, count = _deal_range(start, count, show)
    path = results_path(None if db_path is None else Path(db_path), scheduler)  # a refused scheduler makes no file
    try:
        store = open_results(path, rules, start, count, budget)
    except ReadOnlyStoreError:
        if show is None:
            raise
        _show_unstored(path, str(rules), show, budget, fmt)
    click.get_current_context().call_on_close(lambda: _close(store))  # however the command ends
    run = _run(store, path, rules, start, count, jobs, budget, scheduler)
    if show is not None or listed is not None:
        _print_deals(store, str(rules), start, count, show, listed, fmt)
    summary = summarize(store, rules, start, count)
    _print_summary(summary, path, run, fmt)
    sys.exit(3 if summary.undecided else 0)


def _deal_range(start: int, count: int, show: int | None) -> tuple[int, int]:
    """The first deal and how many: --show's deal alone, else --start and --count, checked against the last."""
    if show is not None:
        check_seed(show)
        start, count = show, 1
    check_seed(start)
    if start + count > SEED_LIMIT:
        fail(f"--start {start} --count {count} runs past the last deal number, 2**64-1")
    return start, count


def _run(
    store: Any, path: Path, rules: Rules, start: int, count: int, jobs: int, budget: Budget, scheduler: str | None
) -> Progress:
    """Solve the deals of the range not stored yet, with a progress line on a terminal's stderr.

    A stop (Ctrl-C, SIGTERM, SIGHUP) says how many deals are stored, exit 130; a
    run that cannot go on is one error line, exit 2.
    """
    from kcsolve.patience.stats.checks import ResultsStoreError
    from kcsolve.patience.stats.cluster import SchedulerError
    from kcsolve.patience.stats.pool import Interrupted, RunFailedError, stop_on_signals
    from kcsolve.patience.stats.run import run as run_range

    for note in store.opening_notes():
        click.echo(note, err=True)
    report = ProgressLine() if sys.stderr.isatty() else None
    with stop_on_signals() as stop:
        try:
            run = run_range(store, rules, start, count, jobs, budget, report, scheduler, stop)
        except Interrupted:
            done = store.done_count(str(rules), start, count, budget)
            click.echo(
                "\n"
                + paragraph(
                    f"interrupted: {done:,} of {plural(count, 'deal')} are stored in {path}; "
                    "run the same command again to resume"
                ),
                err=True,
            )
            sys.exit(130)
        except (SchedulerError, RunFailedError, ResultsStoreError) as exc:
            if report:
                click.echo(err=True)
            fail(str(exc))
    if report:
        click.echo(err=True)
    return run


def _print_deals(
    store: Any, rules: str, start: int, count: int, show: int | None, listed: str | None, fmt: str
) -> NoReturn:
    """--show's deal or --list's deal numbers; exit 3 if a deal of the range is undecided, else 0."""
    if show is not None:
        verdict = store.verdict(rules, show)
        assert verdict is not None, "the run stores every deal of its range"
        _print_deal(rules, show, verdict, fmt)
    else:
        _print_listed(store, rules, start, count, str(listed))
    undecided = store.tally(rules, start, count).undecided
    sys.exit(3 if undecided else 0)


def _close(store: Any) -> None:
    """Close the store, its rows copied into the database file; say so in one line where they stay in its -wal."""
    store.close()
    note = store.wal_note()
    if note is not None:
        click.echo(note, err=True)


def _convert_or_salvage(db_path: str | None, convert: bool, salvage_to: str | None) -> None:
    """--convert the database in place, else --salvage its intact chunks into a new one."""
    from kcsolve.patience.stats.store import default_db

    path = default_db() if db_path is None else Path(db_path)
    if convert:
        _convert(path)
    elif salvage_to is not None:
        _salvage(path, Path(salvage_to))


def _convert(path: Path) -> None:
    """Convert an older per-deal database in place and say how many deals it holds."""
    from kcsolve.patience.stats.convert import convert

    if not path.exists():
        fail(f"{str(path)!r} does not exist: there is nothing to convert")
    deals = convert(path)
    click.echo(paragraph(f"converted {str(path)!r}: {plural(deals, 'deal')} stored by chunks"))


def _show_unstored(path: Path, rules: str, seed: int, budget: Budget, fmt: str) -> NoReturn:
    """--show of a store that cannot be written: the deal's verdict, solved now if need be and not stored."""
    from kcsolve.patience.stats.chunks import unstored_verdict
    from kcsolve.patience.stats.verdicts import UNDECIDED

    code, spent, solved = unstored_verdict(path, rules, seed, budget)
    if solved:
        click.echo(paragraph(f"{str(path)!r} is read-only: deal {seed} was solved now and is not stored"), err=True)
    _print_deal(rules, seed, (code, spent), fmt)
    sys.exit(3 if code == UNDECIDED else 0)


def _salvage(path: Path, new: Path) -> None:
    """Copy the intact chunks of a damaged store into a new one and say what was kept."""
    from kcsolve.patience.stats.salvage import salvage

    kept = salvage(path, new)
    left = f"; {plural(kept.left_out, 'row')} left out (damaged, or older versions of a chunk)" if kept.left_out else ""
    click.echo(
        paragraph(
            f"salvaged {plural(kept.chunks, 'chunk')} ({plural(kept.deals, 'deal')}) of {str(path)!r} into "
            f"{str(new)!r}{left}; use it with --db {str(new)!r}"
        )
    )


def _print_deal(rules: str, seed: int, verdict: tuple[int, str | None], fmt: str) -> None:
    """One deal's stored verdict, with its loss reason and round, or the budget it stayed undecided under."""
    from kcsolve.patience.solve.solution import LOSS_REASONS
    from kcsolve.patience.stats.summary import verdict_json
    from kcsolve.patience.stats.verdicts import describe

    if fmt == "json":
        click.echo(json.dumps(verdict_json(rules, seed, verdict)))
        return
    code, budget = verdict
    result, reason, round_no = describe(code)
    words = {"win": "winnable", "loss": "lost under best play", "unknown": "undecided"}[result]
    detail = ""
    if reason is not None:
        detail = f": {LOSS_REASONS[reason]}" + (f", in deal {round_no}" if round_no else "")
    elif result == "unknown":
        detail = f" within the budget {budget} (a larger --budget tries again)"
    click.echo(paragraph(f"deal {seed} under {rules}: {words}{detail}"))


def _print_listed(store: Any, rules: str, start: int, count: int, listed: str) -> None:
    """The deal numbers of the range with one verdict, chunk by chunk (memory stays one chunk's)."""
    from kcsolve.patience.stats.summary import listed_seeds

    for numbers in listed_seeds(store, rules, start, count, listed):
        click.echo("\n".join(map(str, numbers)))


def _print_summary(summary: Any, path: Path, run: Any, fmt: str) -> None:
    """The share of winnable deals, its interval, and the losses split by reason and by fill round."""
    from kcsolve.patience.stats.summary import REASONS

    if fmt == "json":
        click.echo(json.dumps({**summary.to_json(), "db": str(path), "solved_now": run.solved}))
        return
    last = summary.start + summary.count - 1
    click.echo(
        paragraph(
            f"{summary.rules}, seeds {summary.start}..{last} ({plural(summary.count, 'deal')}): "
            f"{summary.won:,}{NO_BREAK}winnable, {summary.lost:,}{NO_BREAK}lost whatever the play, "
            f"{summary.undecided:,}{NO_BREAK}undecided"
        )
    )
    if summary.win_rate is not None:
        low, high = summary.ci95
        click.echo(f"winnable {summary.win_rate:.2%} (95% Wilson interval {low:.2%} to {high:.2%})")
        click.echo(
            paragraph("(by one who sees the deck: an upper bound on the win rate of a player who cannot)", "  ", "   ")
        )
    if summary.undecided:
        low, high = summary.bounds
        click.echo(f"with the undecided deals either way: between {low:.2%} and {high:.2%}")
    click.echo(paragraph("for comparison, Pretty Good Solitaire rates the game 'Easy (80%)', not saying how"))
    if summary.lost:
        click.echo("losses by reason:")
        for code, label in REASONS.items():
            n = summary.loss_reasons[code]
            click.echo(f"  {label:<34} {n:>9,}  {n / summary.lost:7.2%}")
        click.echo("losses by the deal (fill round) in which best play is lost:")
        for round_no, n in sorted(summary.loss_deals.items()):
            click.echo(f"  deal {round_no:<3} {n:>9,}  {n / summary.lost:7.2%}")
    rate = f" at {run.rate:,.0f}{NO_BREAK}deals/s" if run.solved else ""
    click.echo(paragraph(f"stored in {path}; this run solved {plural(run.solved, 'deal')}{rate}"))
