"""Shared helpers for the command-line tests: run kcsolve in-process, check bad-input errors, import a script."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner, Result

from kcsolve.cli import cli
from kcsolve.cli.base import shorten, text_columns


def load_file(path: Path) -> ModuleType:
    """A Python file that is no package module (a script, an example), imported under its stem."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout (the default from click 8.2 on)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """Invoke ``kcsolve ARGS``; any exception other than a clean exit fails the test."""
    result = make_runner().invoke(cli, list(args), input=input, env=env)
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def write(tmp_path: Path, data: object, name: str = "input.json") -> str:
    """Write text (or JSON for anything else) to a file in ``tmp_path``; its path."""
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def assert_bad_input(result: Result, message: str | set[str] | None) -> None:
    """Exit 2, nothing on stdout, exactly one line of at most 80 columns on stderr: 'Error: ' and the message.

    ``message`` is the whole message, as the line shows it once fitted to 80 columns;
    it may be a set of accepted wordings (click's own messages vary between versions),
    or None when only the shape is checked.
    """
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stderr.endswith("\n")
    assert lines[0].startswith("Error: ")
    assert text_columns(lines[0]) <= 80, lines[0]
    if isinstance(message, str):
        assert lines[0] == f"Error: {shorten(message)}"
    elif message is not None:
        assert lines[0] in {f"Error: {shorten(m)}" for m in message}
    assert "Traceback" not in result.stderr + result.stdout


def default_sigint() -> None:
    """In a child about to start: Ctrl-C back to its default, even where the test runner ignores it (nohup, CI)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def kcsolve_process(*args: str, pure_python: bool = False, **options: object) -> subprocess.Popen:
    """``python -m kcsolve ARGS`` as a child in a session of its own, text pipes, Ctrl-C at its default.

    ``pure_python`` keeps ``stats`` on the Python course; other keywords go to Popen (stdin, cwd, ...).
    """
    env = {**os.environ, "KCSOLVE_PURE_PYTHON": "1"} if pure_python else None
    return subprocess.Popen(
        [sys.executable, "-m", "kcsolve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=default_sigint,
        **options,
    )  # type: ignore[call-overload]


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children."""
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def verdict_sentences(stdout: str) -> list[str]:
    """The sentences of the paragraph that ends an output, each on one line again (they are wrapped at 80 columns)."""
    sentences: list[str] = []
    for line in stdout.rstrip("\n").split("\n\n")[-1].splitlines():
        if sentences and not sentences[-1].endswith("."):
            sentences[-1] += " " + line
        else:
            sentences.append(line)
    return sentences


def unwrapped(text: str) -> list[str]:
    """The lines of an output, each that was wrapped at 80 columns joined again (its later lines are indented)."""
    lines: list[str] = []
    for line in text.splitlines():
        if lines and line.startswith(" "):
            lines[-1] += " " + line.lstrip()
        else:
            lines.append(line)
    return lines


def tmux_rows(name: str) -> list[str]:
    """The rows of tmux pane ``name``, a wrapped line joined back into one (so a too-long line shows as one)."""
    out = subprocess.run(["tmux", "capture-pane", "-p", "-J", "-t", name], capture_output=True, text=True).stdout
    return out.rstrip("\n").split("\n")


def wait_for_screen(name: str, expect: str, gone: str | None = None, limit: float = 60.0) -> list[str]:
    """Capture until ``expect`` shows, ``gone`` does not, and the prompt waits empty (or the game is over).

    A screen and the prompt after it are two writes: a capture between them has the
    text but not yet the prompt, so seeing the text alone is not a whole screen.
    """
    deadline = time.monotonic() + limit
    while True:
        rows = tmux_rows(name)
        text = "\n".join(rows)
        shown = [row.rstrip() for row in rows if row.strip()]
        ready = shown[-1:] == [">"] or "Bye." in text or "The game is over." in text
        if (expect in text and ready and (gone is None or gone not in text)) or time.monotonic() > deadline:
            assert expect in text and ready, text
            return rows
        time.sleep(0.1)


def need_node(checked: str) -> str:
    """The node executable; the test is skipped where there is none (``checked``: what it would have checked)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"node is not installed: {checked} cannot be checked")
    return node
