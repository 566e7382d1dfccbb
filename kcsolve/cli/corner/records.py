"""``corner rules``, ``corner replay`` and ``corner verify``: the options, and records told and judged."""

from __future__ import annotations

import sys
import textwrap

import click

from kcsolve.cli.base import (
    CONTEXT,
    read_text,
    source_name,
)
from kcsolve.cli.corner.group import corner
from kcsolve.common.words import paragraph, plural
from kcsolve.corner.game.render import draw_position
from kcsolve.corner.game.rules import DEFAULT, GUIDE, OPTIONS, VARIANTS
from kcsolve.corner.records.record import (
    CornerGame,
    CornerRecord,
    describe_result,
    is_json_lines,
    judge_any,
    judge_corner,
    judge_game,
    parse_corner_file,
    parse_corner_lines,
    replay_corner,
    untested_options,
)


@corner.command("rules", context_settings=CONTEXT)
@click.option("--how", is_flag=True, help="How the game is played: a short guide for someone new to it.")
def rules_command(how: bool) -> None:
    """List every option of --rules: its values, its default, what it changes, and which variant it follows.

    With --how: how to play, from the deal to the scoring of a game.
    """
    if how:
        for line in GUIDE:
            click.echo(line)
        return
    click.echo("Options: name=value, joined with '+' (--rules draw=start+under=yes).")
    for name, effect in OPTIONS.items():
        default = DEFAULT.to_json()[name]
        shown = ("yes" if default else "no") if isinstance(default, bool) else default
        click.echo(f"  {name} (default {shown})")
        click.echo(textwrap.fill(effect, 80, initial_indent=" " * 6, subsequent_indent=" " * 8))
        click.echo(textwrap.fill(f"Variant: {VARIANTS[name]}.", 80, initial_indent=" " * 6, subsequent_indent=" " * 8))
    click.echo("How to play: kcsolve corner rules --how")


@corner.command("replay", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
def replay_command(record_path: str) -> None:
    """Tell a recorded hand move by move, or each hand of a game from 'sim --match' in turn.

    Exit status: 0 for a legal, finished hand (for a game, one that 'corner verify'
    finds good), 1 otherwise, 2 for bad input.
    """
    record = parse_corner_file(read_text(record_path), source_name(record_path))
    if isinstance(record, CornerRecord):
        sys.exit(0 if _tell_hand(record) else 1)
    for number, hand in enumerate(record.hands, start=1):
        click.echo(f"Hand {number}, deal {hand.seed}, led by player {(hand.lead or 0) + 1}:")
        if not _tell_hand(hand):
            sys.exit(1)
    good, summary = judge_game(record)
    click.echo(paragraph(summary))
    sys.exit(0 if good else 1)


def _tell_hand(record: CornerRecord) -> bool:
    """Tell one hand move by move and how it ended; whether it was legal and finished."""
    played = replay_corner(record)
    click.echo(draw_position(played.positions[0]))
    for number, (move, after) in enumerate(zip(record.moves, played.positions[1:]), start=1):
        mover = played.positions[number - 1].player
        click.echo(f"{number}. player {record.person(mover) + 1}: {move}")
        if str(move) == "end" or after.over:
            click.echo(draw_position(after))
    if played.error:
        click.echo(paragraph(f"Illegal {played.error}."))
        return False
    click.echo(
        paragraph(describe_result(played.final, record.lead or 0)) if played.final.over else "The hand is not finished."
    )
    return played.final.over


@corner.command("verify", context_settings=CONTEXT)
@click.argument("record_path", metavar="RECORD.json")
def verify_command(record_path: str) -> None:
    """Check a record (a hand, or a game of hands from 'sim --match') against the schema, then replay it.

    The schema is in the source repository (docs/CORNER.md).

    Exit status: 0 when its deal number gives its deck, every move is legal, the
    hand is over and any claimed result is what happened; 1 when one of these is
    wrong (named in one line); 2 when the record is malformed (a field missing,
    of the wrong type or unknown). A good record's options that its moves never
    put to the test (under=yes with no card put under a pile, say) are named.
    RECORD.json may also be records one a line, as 'sim --format json' writes
    them: a verdict line each, then a count; exit 0 only when every one is good.
    """
    text, source = read_text(record_path), source_name(record_path)
    if is_json_lines(text):
        judged = [(name, *judge_any(record)) for name, record in parse_corner_lines(text, source)]
        for name, _, line in judged:
            click.echo(paragraph(f"{name}: {line}"))
        good_ones = sum(1 for _, good, _ in judged if good)
        click.echo(f"{plural(len(judged), 'record')}: {good_ones:,} good")
        sys.exit(0 if good_ones == len(judged) else 1)
    record = parse_corner_file(text, source)
    if isinstance(record, CornerGame):
        good, summary = judge_game(record)
        click.echo(paragraph(summary))
        sys.exit(0 if good else 1)
    good, summary = judge_corner(record)
    click.echo(paragraph(summary))
    untested = untested_options(record, replay_corner(record)) if good else []
    if untested:
        click.echo(paragraph(f"Options these moves did not put to the test: {', '.join(untested)}."))
    sys.exit(0 if good else 1)
