"""The ``rules`` command: the presets and axes, or one rule set described."""

from __future__ import annotations

import json

import click

from kcsolve.cli.base import CONTEXT, cli
from kcsolve.common.words import wrapped
from kcsolve.patience.rules import AXES, PRESETS, catalogue, describe, parse_rules


@cli.command("rules", context_settings=CONTEXT)
@click.argument("preset", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_command(preset: str | None, fmt: str) -> None:
    """List the presets and the four rule axes, or describe one rule set (a preset or a combination).

    A rule set is one option on each axis: removal, sets, courts and goal.
    Presets combine with '+', and any axis can be set directly, as in
    'camelot+groups' or 'swap+goal=deplete'. The rules in full are in the source
    repository (docs/RULES.md).
    """
    if preset is None:
        data = catalogue()
        if fmt == "json":
            click.echo(json.dumps(data))
            return
        click.echo("Presets (join them with '+', e.g. camelot+groups; set an axis with axis=option):")
        for name in PRESETS:
            rules = parse_rules(name)
            click.echo(f"  {name:<9} " + ", ".join(f"{axis} {getattr(rules, axis).value}" for axis in AXES))
        click.echo("Axes:")
        for axis, options in data["axes"].items():
            click.echo(f"  {axis}:")
            for option in options:
                text = f"{option['meaning']} ({option['source']})"
                click.echo("\n".join(wrapped(text, f"    {option['option']:<9} ", " " * 14)))
        return
    data = describe(parse_rules(preset))
    if fmt == "json":
        click.echo(json.dumps(data))
        return
    click.echo(f"Rules {data['rules']}:")
    for axis, about in data["axes"].items():
        text = f"{about['meaning']} ({about['source']})"
        click.echo("\n".join(wrapped(text, f"  {axis:<8} {about['option']:<9} ", " " * 21)))
    click.echo("The full rules are in the source repository (docs/RULES.md).")
