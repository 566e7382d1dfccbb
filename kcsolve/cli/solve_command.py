"""The ``solve`` command: one deal, or many with ``--count``."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any, NoReturn

import click

from kcsolve.cli.base import (
    CONTEXT,
    EXIT_FOR,
    Ticker,
    cli,
    colour_option,
    fail,
    load_deck,
    result_stands,
    style_option,
    tell,
    use_colour,
)
from kcsolve.common.deal import SEED_LIMIT, check_seed
from kcsolve.common.words import NO_BREAK, paragraph, plural
from kcsolve.patience.daily.webpage import solution_page
from kcsolve.patience.notation import to_notation
from kcsolve.patience.pysol import PYSOL_MAX_GAME, check_pysol_game
from kcsolve.patience.record import replay
from kcsolve.patience.rules import Rules, parse_rules
from kcsolve.patience.solve.numbered import Tally, numbered_deck, numbered_record, solve_numbered
from kcsolve.patience.solve.route import (
    DEFAULT_BUDGET,
    METHODS,
    Budget,
    Solution,
    Verdict,
    parse_budget,
    solve,
)
from kcsolve.patience.terminal.render import draw


def _describe_stats(stats: Mapping[str, Any], decided: bool = True) -> str:
    """``decided by dfs: 59 positions searched, 3.47 ms``, ``decided by construct, no search needed, 0.41 ms``."""
    route = f"decided by {stats['method']}" if decided else f"{stats['method']} stopped"
    unit = {"sat": "conflicts", "course": "removal choices"}.get(stats["method"], "positions")
    work = f": {stats['nodes']:,} {unit} searched," if stats["nodes"] else ", no search needed,"
    return f"{route}{work} {stats['seconds'] * 1000:.2f}{NO_BREAK}ms"


def _print_solution(solution: Solution, title: str, style: str, colour: bool) -> None:
    """Tell a solved deal: the winning line like the sample game, or why it is lost."""
    record = solution.record()
    played = replay(record)
    click.echo(title)
    click.echo()
    if solution.result is Verdict.WIN:
        tell(played, style, colour)
        _say(f"Winnable ({_describe_stats(solution.stats)}).")
    elif solution.result is Verdict.LOSS:
        if played.steps:
            click.echo("The grid when it jams, after the best play:")
            click.echo(draw(played.final, style, colour), color=colour)
            click.echo()
        _say(f"Not winnable: {solution.reason} ({_describe_stats(solution.stats)}).")
        _say(_best_words(solution))
    else:
        _say(f"Undecided: {solution.reason}.")
        if solution.best_line():
            _say(_best_words(solution).replace("Best play", "The best line found so far"))


def _best_words(solution: Solution) -> str:
    """How far best play gets, in words."""
    courts, removed = solution.best_reach()
    return f"Best play places {courts} of the 12 court cards and removes {plural(removed, 'card')}."


@cli.command("solve", context_settings=CONTEXT)
@click.argument("deck_path", metavar="[DECK_FILE|-]", required=False)
@click.option("--seed", type=int, help="Solve deal number N instead of a deck file.")
@click.option("--pysol", type=int, metavar="N", help="Solve PySolFC's Camelot game N, 1 <= N <= 10**20, instead.")
@click.option(
    "--count", type=click.IntRange(min=1), help="Solve M consecutive deals from --seed (or games from --pysol)."
)
@click.option("--rules", "rules_text", default="standard", show_default=True, help="Rule preset(s), joined with '+'.")
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="auto: the fastest exact route; construct: the forced course and a built line (rules with "
    "pairs); course: value-level search (every rule set); sat: one CDCL call on the pairing choices "
    "(forced removal by pairs, not the clear goal); dfs: card-level depth-first search (every rule set).",
)
@click.option(
    "--budget",
    "budget_text",
    help="Search limit: NODES (dfs positions, course removal choices, sat conflicts), CPU time "
    "('500ms', '2s', '5m'), both ('2s,100000'), or 'none'.  [default: 1000000 nodes]",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "notation", "html"]),
    default="text",
    show_default=True,
    help="text: told like the sample game; json: the game record; notation: the game on "
    "one line (KC1 ...); html: one self-contained page stepping through the line (to the jam for a loss).",
)
@style_option
@colour_option
def solve_command(
    deck_path: str | None,
    seed: int | None,
    pysol: int | None,
    count: int | None,
    rules_text: str,
    method: str,
    budget_text: str | None,
    fmt: str,
    style: str,
    colour: bool | None,
) -> None:
    """Decide whether a deal can be won, and print the winning line.

    Exit status: 0 winnable, 1 not winnable, 3 undecided (budget ran out),
    2 bad input; with --count, 0 when every deal was decided, 3 otherwise.
    """
    rules = parse_rules(rules_text)
    budget = parse_budget(budget_text) if budget_text is not None else DEFAULT_BUDGET
    _check_source(deck_path, seed, pysol, count, fmt)
    number = pysol if pysol is not None else seed or 0
    if count is not None:
        _solve_many(number, count, rules, method, budget, fmt, pysol is not None)
    deck = load_deck(deck_path) if deck_path is not None else numbered_deck(number, pysol is not None)
    with Ticker(f"solving with {method}"):
        solution = solve(deck, rules, method, budget)
    with result_stands(EXIT_FOR[solution.result]):
        _print_one(solution, seed, pysol, deck_path, rules, fmt, style, use_colour(colour))
    sys.exit(EXIT_FOR[solution.result])


def _check_source(deck_path: str | None, seed: int | None, pysol: int | None, count: int | None, fmt: str) -> None:
    """Refuse a deck file, --seed, --pysol, --count and --format that do not name one deal or one range."""
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
    if count is not None and fmt == "html":
        fail("--format html shows one deal: drop --count")


def _print_one(
    solution: Solution,
    seed: int | None,
    pysol: int | None,
    deck_path: str | None,
    rules: Rules,
    fmt: str,
    style: str,
    colour: bool,
) -> None:
    """Print one solved deal in the format asked for."""
    if fmt in ("json", "notation"):
        number = pysol if pysol is not None else seed
        record = solution.record() if number is None else numbered_record(solution, number, pysol is not None)
        click.echo(json.dumps(record.to_json()) if fmt == "json" else to_notation(record))
        return
    if seed is not None:
        source = f"Deal {seed}"
    elif pysol is not None:
        source = f"PySolFC game {pysol}"
    else:
        source = f"Deck {deck_path}"
    if fmt == "html":
        click.echo(solution_page(solution, f"{source}, rules {rules}"), nl=False)
    else:
        _print_solution(solution, paragraph(f"{source}, rules {rules}"), style, colour)


def _solve_many(
    start: int,
    count: int,
    rules: Rules,
    method: str,
    budget: Budget,
    fmt: str,
    pysol: bool = False,
) -> NoReturn:
    """Solve consecutive seeds (or PySolFC games), one line each as it is decided; exit 0 if all were decided."""
    tally = Tally()
    label = "PySolFC game" if pysol else "seed"
    with Ticker(f"{label} {start}") as ticker:

        def note(number: int, place: int) -> None:
            ticker.note(f"{label} {number} ({place:,} of {count:,})")

        for number, solution in solve_numbered(start, count, rules, method, budget, pysol, tally, note):
            _tell_one(solution, number, pysol, label, fmt)
    if fmt == "text":
        click.echo(
            f"{plural(count, 'deal')} under {rules}: {tally.win:,} winnable, {tally.loss:,} not, "
            f"{tally.unknown:,} undecided"
        )
    sys.exit(3 if tally.unknown else 0)


def _tell_one(solution: Solution, number: int, pysol: bool, label: str, fmt: str) -> None:
    """One line (or one JSON record) for a deal of a --count run."""
    if fmt == "json":
        click.echo(json.dumps(numbered_record(solution, number, pysol).to_json()))
    elif fmt == "notation":
        click.echo(to_notation(numbered_record(solution, number, pysol)))
    else:
        stats = _describe_stats(solution.stats, solution.result is not Verdict.UNKNOWN)
        click.echo(paragraph(f"{label} {number}: {solution.result} ({solution.reason}; {stats})"))


def _say(text: str) -> None:
    """Print a sentence of the verdict in lines of at most 80 columns."""
    click.echo(paragraph(text, "", ""))
