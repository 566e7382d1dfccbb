"""The ``kcsolve`` command line: a thin click wrapper over the library, one module per command group."""

from __future__ import annotations

import sys

from kcsolve.cli import (  # noqa: F401  (each registers its commands)
    analyse_command,
    corner_command,
    daily_command,
    odds_command,
    play_command,
    pysol_command,
    record_commands,
    rules_command,
    selfplay_command,
    site_command,
    solve_command,
    stats_command,
)
from kcsolve.cli.base import BAD_INPUT, GuardedOutput, OutputError, cli


def main() -> None:
    """Console-script entry point: the group, with standard output guarded against closed pipes and full disks."""
    guarded = GuardedOutput(sys.stdout)
    sys.stdout = guarded
    try:
        cli(prog_name="kcsolve")
        code: int | str | None = 0
    except SystemExit as exc:
        code = exc.code
    try:
        guarded.flush()
    except OutputError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        code = BAD_INPUT
    sys.exit(code)
