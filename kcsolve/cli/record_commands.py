"""The record commands: ``deal``, ``replay`` and ``verify``."""

from __future__ import annotations

import json
import secrets
import sys

import click

from kcsolve.cli.base import (
    CONTEXT,
    cli,
    colour_option,
    fail,
    load_record,
    parse_rules_option,
    read_text,
    source_name,
    style_option,
    tell,
    use_colour,
)
from kcsolve.common.cards import format_deck
from kcsolve.common.deal import SEED_LIMIT, check_seed, deal
from kcsolve.common.words import NO_BREAK, paragraph, plural
from kcsolve.patience.engine import Status
from kcsolve.patience.notation import read_game
from kcsolve.patience.pysol import (
    pysol_deal,
)
from kcsolve.patience.record import (
    Record,
    judge,
    parse_record_list,
    replay,
)
from kcsolve.patience.recorded import read_daily, recorded_words
from kcsolve.patience.rules import Rules


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
        note = f"({source}first card = top of the stock)".replace(" ", NO_BREAK)  # too long, it takes a line whole
        click.echo(paragraph(f"# kcsolve deal --{key} {number}  {note}", "", "#   "))
        click.echo(format_deck(deck), nl=False)


@cli.command("replay", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
@click.option("--rules", "rules_text", help="Replay under these rules instead of the record's.")
@style_option
@colour_option
def replay_command(record_path: str, rules_text: str | None, style: str, colour: bool | None) -> None:
    """Tell a recorded game deal by deal, removal by removal, like the sample game.

    Exit status as for verify: 0 only for a won game; 1 for a lost or unfinished
    game or an illegal move (the telling stops there); 2 for bad input.
    """
    record = load_record(record_path)
    rules = parse_rules_option(rules_text) or record.rules
    played = replay(record, rules)
    paint = use_colour(colour)
    tell(played, style, paint)
    if played.error:
        click.echo(paragraph(f"Illegal {played.error}."))
        sys.exit(1)
    sys.exit(0 if played.final.outcome().status is Status.WON else 1)


@cli.command("verify", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
@click.option("--rules", "rules_text", help="Judge under these rules instead of the record's.")
def verify_command(record_path: str, rules_text: str | None) -> None:
    """Replay a record's moves and judge the result: exit 0 only for a won game.

    RECORD.json may also be a JSON list of records, as the daily page's Export all
    writes: one verdict line per game, then a count; exit 0 only when every game is won.
    A daily page's export also gets what the page recorded: the help used, and whether
    it was imported.
    """
    rules = parse_rules_option(rules_text)
    text = read_text(record_path)
    source = source_name(record_path)
    if not text.lstrip("\ufeff \t\r\n").startswith("["):
        verdict = judge_line(read_game(text, source=source), rules, source)
        click.echo(paragraph(verdict[1]))
        sys.exit(0 if verdict[0] else 1)
    records = parse_record_list(text, source)
    judged = [(name, *judge_line(record, rules, f"{source}: {name}")) for name, record in records]
    for name, _, line in judged:
        click.echo(paragraph(f"{name}: {line}"))
    won = sum(1 for _, ok, _ in judged if ok)
    click.echo(f"{plural(len(judged), 'game')}: {won:,} won")
    sys.exit(0 if won == len(judged) else 1)


def judge_line(record: Record, rules: Rules | None, source: str = "record") -> tuple[bool, str]:
    """Whether a record is a won game, and its verdict in one line (noting a result it claims wrongly), then what a
    daily page recorded of it; a malformed ``daily`` object is refused as from ``source``."""
    daily = read_daily(record.extra, source)  # checked before any line is printed: a list is refused whole
    verdict = judge(record, rules)
    line = str(verdict)
    claimed = {"win": Status.WON, "loss": Status.LOST}.get(record.result)
    if claimed is not None and claimed is not verdict.outcome.status and not verdict.illegal:
        line += f" (the record claims {record.result!r})"
    if daily is not None:
        line += f"; {recorded_words(daily, verdict)}"
    return verdict.won, line
