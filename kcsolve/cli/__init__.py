"""The ``kcsolve`` command line: a thin click wrapper over the library, one module per command group.

Each command module is imported when its command is asked for (``base.COMMAND_MODULES``).
"""

from __future__ import annotations

import sys

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
