"""The ``analyse`` command: a played game judged move by move."""

from __future__ import annotations

import json
import sys

import click

from kcsolve.cli.base import (
    CONTEXT,
    cli,
    colour_option,
    fail,
    load_record,
    parse_rules_option,
    style_option,
    use_colour,
)
from kcsolve.common.words import paragraph, plural
from kcsolve.patience.engine import Place
from kcsolve.patience.players.analysis import ANALYSE_PLAYOUTS, Analysis, MoveReport, NothingToAnalyseError, analyse
from kcsolve.patience.record import IllegalRecordMoveError
from kcsolve.patience.terminal.render import draw

WINNABLE = {"win": "yes", "loss": "no", None: "unknown"}


@cli.command("analyse", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD")
@click.option("--rules", "rules_text", help="Analyse under these rules instead of the record's.")
@click.option(
    "--playouts",
    type=click.IntRange(1, 10_000),
    default=ANALYSE_PLAYOUTS,
    show_default=True,
    help="Sampled orders of the unseen cards per option, for the hint figures.",
)
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True, help="Seed of the sampled orders.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@style_option
@colour_option
def analyse_command(
    record_path: str, rules_text: str | None, playouts: int, seed: int, fmt: str, style: str, colour: bool | None
) -> None:
    """Judge a played game move by move (a record, a saved game, or the one-line notation).

    For every move: could the deal still be won by a player who sees the deck
    (exact), and the hint engine's figure for the move played against the best
    option, for a player who cannot: the share of sampled orders of the unseen
    cards in which the deal stays winnable (an upper estimate, with its 95%
    interval), or the exact chance of winning when few cards are left. '?' marks a move that gives up
    more than 5 points, '??' the move after which the deal is lost.
    A game played face up (its record says "mode": "face-up") is judged by the
    solver alone, as its player saw the stock: '??' marks the move that lost a
    winnable deal, set against an option that kept it winnable.
    Exit status: 0 when analysed, 1 for an illegal move in the record, 2 for bad input.
    """
    record = load_record(record_path)
    try:
        result = analyse(record, parse_rules_option(rules_text), playouts, seed)
    except IllegalRecordMoveError as exc:
        click.echo(paragraph(f"Illegal {exc}."))
        sys.exit(1)
    except NothingToAnalyseError as exc:
        fail(f"{record_path}: {exc}")
    if fmt == "json":
        click.echo(json.dumps({"moves": [r.to_json() for r in result.reports], "summary": result.summary_json()}))
        return
    if result.face_up:
        _tell_face_up(result, style, use_colour(colour))
        return
    _tell(result, style, use_colour(colour))


def _figure(report: MoveReport, figure: float | None) -> str:
    """A figure as a whole percentage, then its 95% interval ('*' instead when exact); a dash without a choice."""
    if figure is None:
        return "-"
    if report.exact:
        return f"{figure:.0%}*"
    low, high = report.interval(figure)
    return f"{figure:.0%} {low * 100:.0f}-{high * 100:.0f}"


def _played(report: MoveReport) -> str:
    """The move played, with the card for a placement ('8C in a2')."""
    if isinstance(report.move, Place):
        return f"{report.before.next_card} {str(report.move).removeprefix('place ')}"
    return str(report.move)


def _line(report: MoveReport) -> str:
    """One move of the analysis as a table row."""
    what = _played(report)
    best = ""
    if report.best_move is not None and report.mark:
        best = f"  best: {report.best_move}"
    return (
        f"{report.number:>4}  {what:<16} {report.mark:<2}  {WINNABLE[report.winnable_after]:<8}"
        f" {_figure(report, report.chance):>11}  {_figure(report, report.best):>11}{best}"
    )


def _tell_face_up(result: Analysis, style: str, colour: bool) -> None:
    """The text report of a game played face up: the solver's verdict after each move, the grid after the fatal one."""
    reports = result.reports
    click.echo(f"{plural(len(reports), 'move')}, played face up: the whole stock was in sight, so only the exact")
    click.echo("solver judges them. winnable: can the deal still be won after the move (within")
    click.echo("5 s of CPU a position; unknown when the solver runs out)?")
    click.echo(f"      {'start':<16}     {WINNABLE[reports[0].winnable_before]}")
    click.echo(f"{'move':>4}  {'played':<16} {'':<2}  winnable")
    for report in reports:
        keeps = f"  best: {report.best_move} (kept it winnable)" if report.best_move is not None else ""
        click.echo(
            f"{report.number:>4}  {_played(report):<16} {report.mark:<2}  {WINNABLE[report.winnable_after]}{keeps}"
        )
        if report.mark:
            click.echo(draw(report.after, style, colour))
            click.echo()
    fatal = result.first_fatal
    if fatal is not None:
        click.echo(
            f"First fatal move: {fatal.number} ({_played(fatal)}); the deal could be won before it and not after."
        )
    elif reports[0].winnable_before == "loss":
        click.echo("No fatal move: the deal was lost from the start.")
    elif reports[-1].winnable_after == "win":
        click.echo("No fatal move: the deal was never thrown away.")
    else:
        click.echo("No fatal move found: the solver could not decide every position.")


def _tell(result: Analysis, style: str, colour: bool) -> None:
    """The text report: a row per move, the grid after each marked move, then the summary."""
    reports = result.reports
    click.echo(f"{plural(len(reports), 'move')}. winnable: can the deal still be won by a player who sees the deck?")
    click.echo("(the exact solver, within 5 s of CPU a position; unknown when it runs out).")
    click.echo(f"after, best: for a player who cannot, the share of {result.playouts} sampled orders of the")
    click.echo("unseen cards in which the deal stays winnable after the move played and after")
    click.echo("the best option (an upper estimate, not a chance of winning), then its 95%")
    click.echo("interval in points; * marks an exact chance of winning with best play, computed")
    click.echo("by expectimax when few cards are left; - marks a move with no other option.")
    if reports:
        click.echo(f"      {'start':<16}     {WINNABLE[reports[0].winnable_before]:<8}")
    click.echo(f"{'move':>4}  {'played':<16} {'':<2}  {'winnable':<8} {'after':>11}  {'best':>11}")
    for report in reports:
        click.echo(_line(report))
        if report.mark:
            click.echo(draw(report.after, style, colour))
            click.echo()
    summary = result.summary_json()
    fatal = result.first_fatal
    if fatal is None:
        click.echo(
            "No fatal move: "
            + (
                "the deal was lost from the start."
                if reports[0].winnable_before == "loss"
                else "the deal was never thrown away."
            )
        )
    else:
        click.echo(
            f"First fatal move: {fatal.number} ({_played(fatal)}); the deal could be won before it and not after."
        )
    low, high = result.kept_interval
    click.echo(
        f"Kept {_share(result.kept_in_all)} of the best figures over {summary['choices']} choices "
        f"({summary['dubious']} marked '?'):"
    )
    click.echo("the product, over the choices, of the figure after the move played divided by")
    click.echo("the best option's; 100% when every choice was the best. Its 95% interval, over")
    click.echo(f"the sampled figures where another option was best: {_share(low)} to {_share(high)}.")


def _share(kept: float) -> str:
    """A share as a percentage, with enough figures to tell a small share from none."""
    if kept >= 0.01 or kept == 0:
        return f"{kept:.0%}"
    return f"{kept:.2%}" if kept >= 0.0001 else "under 0.01%"
