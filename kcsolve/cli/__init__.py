"""The ``kcsolve`` command line: a thin click wrapper over the library, one module per command group.

Each command module is imported when its command is asked for (``base.COMMAND_MODULES``).
"""

from __future__ import annotations

import os
import signal
import sys

from kcsolve.cli.base import (
    BAD_INPUT,
    INTERRUPTED,
    READER_GONE,
    READER_LEFT,
    ClosedInput,
    GuardedOutput,
    OutputError,
    ReaderGone,
    cli,
    watch_reader,
)


def main() -> None:
    """Console-script entry point: the group, with standard output guarded against closed pipes and full disks."""
    _mend_closed_streams()
    if sys.stdout is None:
        print("Error: standard output is closed (to discard the output, use >/dev/null)", file=sys.stderr)
        sys.exit(BAD_INPUT)
    guarded = GuardedOutput(sys.stdout)
    sys.stdout = guarded
    try:
        try:
            watch_reader(guarded.fileno())
            cli(prog_name="kcsolve")
        finally:  # first, so that a reader leaving from now on cannot interrupt the ending
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        code: int | str | None = 0
    except SystemExit as exc:
        code = exc.code
    except ReaderGone:
        code = READER_GONE
    except KeyboardInterrupt:  # one that came before the command could take it
        code = INTERRUPTED
    if READER_LEFT.is_set() and code == INTERRUPTED:
        code = READER_GONE
    if code == READER_GONE:
        guarded.drop()
    try:
        guarded.flush()
    except ReaderGone:  # the command had finished: its status stands
        pass
    except OutputError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        code = BAD_INPUT
    sys.exit(code)


def _mend_closed_streams() -> None:
    """Give each standard stream closed at start (``>&-``) a stand-in: one that says so if read, or a silent sink.

    Each closed descriptor is first opened on the null device, so that no file
    kcsolve opens later becomes standard input, output or error by accident.
    A closed standard output is left None for ``main`` to refuse.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            os.open(os.devnull, os.O_RDWR)  # the lowest free descriptor, which is fd: the ones below it are open
    if sys.stdin is None:
        sys.stdin = ClosedInput()
    if sys.stderr is None:  # errors go nowhere, and the exit status still tells the result
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115  # for the life of the process
