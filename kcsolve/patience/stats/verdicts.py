"""One deal's verdict in one byte, and a chunk's verdicts packed: the bytes zlib-compressed, with their tally.

A code is 0 for a win, 1 for an undecided deal, and for a loss 2 + ROUNDS x (the
reason's place in LOSS_REASONS) + the deal (fill round) in which it is lost (0:
not known). A deal has at most 37 fill rounds (16 cards, then one or more each),
so every loss fits below ROUNDS.
"""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass

from kcsolve.patience.solve.solution import LOSS_REASONS

WIN = 0
UNDECIDED = 1
ROUNDS = 50
REASONS = tuple(LOSS_REASONS)

LEVEL = 6  # zlib's default: a chunk of 100,000 verdicts compresses in about a millisecond


def loss_code(reason: str, round_no: int | None) -> int:
    """The code of a loss for ``reason`` (a key of LOSS_REASONS) in fill round ``round_no``."""
    return 2 + ROUNDS * REASONS.index(reason) + (round_no if round_no is not None and 0 < round_no < ROUNDS else 0)


def result_code(result: str, reason: str | None, round_no: int | None) -> int:
    """The code of a solver's verdict: 'win', 'unknown', or 'loss' with its reason and round."""
    if result == "win":
        return WIN
    if result == "unknown":
        return UNDECIDED
    return loss_code(reason or "full", round_no)


def describe(code: int) -> tuple[str, str | None, int | None]:
    """(result, reason, round) of a code: 'win', 'loss' or 'unknown'; a loss's reason key, round (None: not known)."""
    if code == WIN:
        return "win", None, None
    if code == UNDECIDED:
        return "unknown", None, None
    reason, round_no = divmod(code - 2, ROUNDS)
    return "loss", REASONS[reason], round_no or None


@dataclass(frozen=True)
class Tally:
    """How many deals of a chunk (or a piece of one) have each code."""

    counts: dict[int, int]

    @classmethod
    def of(cls, codes: bytes) -> Tally:
        """Count the codes of a run of deals."""
        return cls(dict(Counter(codes)))

    @property
    def won(self) -> int:
        return self.counts.get(WIN, 0)

    @property
    def undecided(self) -> int:
        return self.counts.get(UNDECIDED, 0)

    @property
    def lost(self) -> int:
        return sum(self.counts.values()) - self.won - self.undecided


def pack(codes: bytes) -> bytes:
    """The codes of a chunk as stored."""
    return zlib.compress(codes, LEVEL)


CODES = 2 + ROUNDS * len(REASONS)  # every code is below this


def unpack(blob: bytes, count: int) -> bytes:
    """The codes of a stored chunk of ``count`` deals; ValueError when the blob is not that.

    At most ``count`` + 1 bytes are inflated, so a blob that would inflate to
    gigabytes costs no more memory than a sound one.
    """
    if not isinstance(blob, bytes):
        raise ValueError(f"verdicts stored as {type(blob).__name__}, not bytes")
    inflate = zlib.decompressobj()
    try:
        codes = inflate.decompress(blob, count + 1)
    except zlib.error as exc:
        raise ValueError(f"verdicts that do not decompress ({exc})") from None
    if len(codes) > count:
        raise ValueError(f"more verdicts than the chunk's {count} deals")
    if not inflate.eof or inflate.unused_data:
        raise ValueError("verdicts cut short or followed by other bytes")
    if len(codes) != count:
        raise ValueError(f"{len(codes)} verdicts where the chunk has {count} deals")
    return codes
