"""The ``kcsolve`` command line: a thin click wrapper over the library, one module per command group."""

from __future__ import annotations

from . import daily_command, play_command, record_commands, solve_command, stats_command  # noqa: F401  (each registers its commands)
from .base import cli


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="kcsolve")
