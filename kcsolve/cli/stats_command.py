"""The ``stats`` command: win rates over many seeded deals, stored and resumable."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, NoReturn

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
from kcsolve.patience.rules import parse_rules
from kcsolve.patience.solve.route import (
    DEFAULT_BUDGET,
    Budget,
    parse_budget,
)


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
    from kcsolve.patience.stats.checks import ResultsStoreError
    from kcsolve.patience.stats.cluster import SchedulerError, reach_scheduler
    from kcsolve.patience.stats.pool import Interrupted, RunFailedError, StopFlag
    from kcsolve.patience.stats.run import run as run_range
    from kcsolve.patience.stats.store import ReadOnlyStoreError, default_db, open_store
    from kcsolve.patience.stats.summary import summarize

    rules = parse_rules(rules_text)
    budget = parse_budget(budget_text) if budget_text is not None else DEFAULT_BUDGET
    if show is not None and listed is not None:
        fail(f"give either --show {show} or --list {listed}, not both")
    if convert:
        _convert(default_db() if db_path is None else Path(db_path))
        return
    if salvage_to is not None:
        _salvage(default_db() if db_path is None else Path(db_path), Path(salvage_to))
        return
    if show is not None:
        check_seed(show)
        start, count = show, 1
    check_seed(start)
    if start + count > SEED_LIMIT:
        fail(f"--start {start} --count {count} runs past the last deal number, 2**64-1")
    try:
        if scheduler is not None:
            reach_scheduler(scheduler)  # before the database: a refused run makes no file
        path = default_db() if db_path is None else Path(db_path)
        store = open_store(path, str(rules), start, count, budget)
    except OSError as exc:  # kcsolve's own errors (a foreign database, a bad address) go to the group's catch
        fail(f"cannot use the results database: {exc.strerror or exc}")
    except ReadOnlyStoreError:
        if show is None:
            raise
        _show_unstored(path, str(rules), show, budget, fmt)
    click.get_current_context().call_on_close(lambda: _close(store))  # however the command ends
    for note in store.opening_notes():
        click.echo(note, err=True)
    report = ProgressLine() if sys.stderr.isatty() else None
    stop = StopFlag()
    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
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
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if report:
        click.echo(err=True)
    if show is not None or listed is not None:
        if show is not None:
            verdict = store.verdict(str(rules), show)
            assert verdict is not None, "the run stores every deal of its range"
            _print_deal(str(rules), show, verdict, fmt)
        else:
            _print_listed(store, str(rules), start, count, str(listed))
        undecided = store.tally(str(rules), start, count).undecided
        sys.exit(3 if undecided else 0)
    summary = summarize(store, rules, start, count)
    if fmt == "json":
        click.echo(json.dumps({**summary.to_json(), "db": str(path), "solved_now": run.solved}))
    else:
        _print_summary(summary, path, run)
    sys.exit(3 if summary.undecided else 0)


def _close(store: Any) -> None:
    """Close the store, its rows copied into the database file; say so in one line where they stay in its -wal."""
    store.close()
    note = store.wal_note()
    if note is not None:
        click.echo(note, err=True)


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
    from kcsolve.patience.stats.verdicts import describe

    code, budget = verdict
    result, reason, round_no = describe(code)
    if fmt == "json":
        click.echo(
            json.dumps(
                {
                    "rules": rules,
                    "seed": seed,
                    "result": result,
                    "reason": reason,
                    "deal": round_no,
                    "budget": budget if result == "unknown" else None,
                }
            )
        )
        return
    words = {"win": "winnable", "loss": "lost under best play", "unknown": "undecided"}[result]
    detail = ""
    if reason is not None:
        detail = f": {LOSS_REASONS[reason]}" + (f", in deal {round_no}" if round_no else "")
    elif result == "unknown":
        detail = f" within the budget {budget} (a larger --budget tries again)"
    click.echo(paragraph(f"deal {seed} under {rules}: {words}{detail}"))


def _print_listed(store: Any, rules: str, start: int, count: int, listed: str) -> None:
    """The deal numbers of the range with one verdict, chunk by chunk (memory stays one chunk's)."""
    from kcsolve.patience.stats.verdicts import UNDECIDED, WIN

    wanted = {"won": lambda c: c == WIN, "undecided": lambda c: c == UNDECIDED, "lost": lambda c: c > UNDECIDED}[listed]
    for first, codes in store.pieces(rules, start, count):
        numbers = [str(first + i) for i, code in enumerate(codes) if wanted(code)]
        if numbers:
            click.echo("\n".join(numbers))


def _print_summary(summary: Any, path: Path, run: Any) -> None:
    """The share of winnable deals, its interval, and the losses split by reason and by fill round."""
    from kcsolve.patience.stats.summary import REASONS

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
