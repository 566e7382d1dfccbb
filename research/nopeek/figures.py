"""Write a measured figure into the package's file of measured figures (kcsolve/patience/odds/measured.json).

The research commands that measure what ``kcsolve odds --no-peek`` quotes take
``--record``: the figure's fields they measured, the command line that measured
them and today's date replace the old ones, and the rest of the file is kept.
The file is replaced whole (written beside it, then renamed), so a run stopped
half-way leaves the old figures.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from kcsolve.patience.odds.measured import FIELDS, FILE

PATH = Path(__file__).resolve().parents[2] / "kcsolve" / "patience" / "odds" / FILE


def command_line(module: str, argv: list[str] | None = None) -> str:
    """The command that ran, as one would type it: ``python -m MODULE ARGS`` (ARGS: this process's, by default)."""
    args = sys.argv[1:] if argv is None else argv
    return shlex.join(["python", "-m", module, *(a for a in args if a != "--record")])


def record(
    name: str, fields: dict[str, Any], command: str, path: Path = PATH, command_field: str = "command"
) -> dict[str, Any]:
    """Replace figure ``name``'s ``fields``, its command (in ``command_field``) and date in the file; the figure."""
    if name not in FIELDS:
        raise ValueError(f"no measured figure {name!r} (figures: {', '.join(FIELDS)})")
    data = json.loads(path.read_text(encoding="utf-8"))
    figure = {**data[name], **fields, command_field: command, "measured": dt.date.today().isoformat()}
    data[name] = figure
    staged = path.with_name(f".{path.name}.{os.getpid()}")
    staged.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(staged, path)
    return figure
