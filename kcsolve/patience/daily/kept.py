"""Measured dates kept on disk: a long run that stops keeps the dates it finished, and a rebuild measures only new ones.

Measuring one date takes seconds of CPU (an honest chance is 24 games of the
deep player, for each deal measured), so a year of pages takes many minutes.
Each date's deal is kept, once measured, as one small JSON file in the user's
cache (``$KCSOLVE_CACHE_DIR``, else ``$XDG_CACHE_HOME/kcsolve``, else
``~/.cache/kcsolve``), under a fingerprint of kcsolve's own source: any change
to the code that picks or measures deals starts a fresh set. A file is used
only if its deal number is one of the date's candidates, its deck is that
deal's, its winning line replays to a win through the independent checker, its
wins are a count of its games, its grade follows from its chance (wins over
games), and its face-up lookahead is one of the grades that can be; otherwise the date is
measured again. Which winnable candidate was taken, the difficulty and the
lookahead themselves are taken as kept: checking them would mean measuring
again. A cache that cannot be written is simply not used.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path
from typing import Any

from kcsolve.common.cache import cache_root
from kcsolve.common.deal import deal
from kcsolve.common.files import read_regular, write_atomically
from kcsolve.common.jsontext import read_object
from kcsolve.errors import KcsolveError
from kcsolve.patience.daily.calendar import DailyDeal, candidate_seed, daily, grade
from kcsolve.patience.engine import Status
from kcsolve.patience.players.honest import Difficulty
from kcsolve.patience.players.lookahead import LOOKAHEADS
from kcsolve.patience.record import record_from_json, replay
from kcsolve.patience.rules import Rules
from kcsolve.patience.solve.route import Solution, Verdict

MAX_KEPT_BYTES = 1 << 20  # a kept date is a few kB; anything larger is not ours
CANDIDATES_CHECKED = 4096  # a kept deal number must be one of the date's first this many candidates


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """A digest of kcsolve's Python source: kept dates are reused only by the code that measured them."""
    package = Path(__file__).parents[2]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:20]


class KeptDays:
    """The measured dates of one rule set and one choice of --ramp, kept under ``root``."""

    def __init__(self, rules: Rules, ramp: bool, root: Path | None = None) -> None:
        self.rules = rules
        self.ramp = ramp
        self.folder = (root or cache_root()) / "daily" / fingerprint() / f"{rules}-{'ramp' if ramp else 'plain'}"

    def path(self, day: dt.date) -> Path:
        """The file that keeps ``day``."""
        return self.folder / f"{day.isoformat()}.json"

    def get(self, day: dt.date) -> DailyDeal | None:
        """The kept deal of ``day``, if there is one that checks out; None otherwise."""
        try:
            raw = read_regular(str(self.path(day)), MAX_KEPT_BYTES)
            if len(raw) > MAX_KEPT_BYTES:
                return None
            return self._checked(day, read_object(raw.decode("utf-8"), day.isoformat(), KcsolveError, "a kept date"))
        except (OSError, ValueError, TypeError, KeyError):  # KcsolveError and UnicodeDecodeError are ValueErrors
            return None

    def _checked(self, day: dt.date, data: dict[str, Any]) -> DailyDeal | None:
        """The deal ``data`` describes, if every part of it checks out against ``day`` and the rules."""
        seed = data["seed"]
        if type(seed) is not int or data["date"] != day.isoformat() or data["rules"] != str(self.rules):
            return None
        if seed not in (candidate_seed(day, self.rules, k) for k in range(CANDIDATES_CHECKED)):
            return None
        record = record_from_json(data["solution"], "kept date")
        deck = deal(seed)
        if record.deck != deck or record.rules != self.rules:
            return None
        played = replay(record)
        if played.error is not None or played.final.outcome().status is not Status.WON:
            return None
        measured = data["difficulty"]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in measured.values()):
            return None
        difficulty = Difficulty(**measured)  # a field it does not have is a TypeError
        games, wins = difficulty.playouts, difficulty.wins
        if type(games) is not int or type(wins) is not int or not 0 <= wins <= games or games < 1:
            return None
        if data["grade"] != grade(difficulty):
            return None
        line = tuple(step.move for step in played.steps)
        stats = record.extra.get("stats", {})
        reason = data["reason"]
        face_up = data["face_up_lookahead"]
        lookahead = face_up if type(face_up) is int and face_up in LOOKAHEADS else None
        if not isinstance(reason, str) or not isinstance(stats, dict) or (lookahead is None and face_up != "all"):
            return None
        solution = Solution(deck, self.rules, Verdict.WIN, line, reason, stats)
        return DailyDeal(day, seed, self.rules, deck, difficulty, data["grade"], solution, lookahead)

    def put(self, found: DailyDeal) -> None:
        """Keep ``found``, written whole or not at all; a place that cannot be written is left alone."""
        data = {
            "date": found.date.isoformat(),
            "seed": found.seed,
            "rules": str(found.rules),
            "grade": found.grade,
            "reason": found.solution.reason,
            "difficulty": asdict(found.difficulty),
            "face_up_lookahead": "all" if found.face_up_lookahead is None else found.face_up_lookahead,
            "solution": found.solution.record().to_json(),
        }
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomically(str(self.path(found.date)), json.dumps(data))
        except OSError:
            return


def kept_daily(day: dt.date, rules: Rules, ramp: bool, kept: KeptDays | None) -> tuple[DailyDeal, bool]:
    """The deal of ``day`` and whether it was kept from an earlier run; measured and kept otherwise."""
    if kept is not None and (found := kept.get(day)) is not None:
        return found, True
    found = daily(day, rules, ramp)
    if kept is not None:
        kept.put(found)
    return found, False
