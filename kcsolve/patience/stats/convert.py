"""An older per-deal results database (schema 1 or 2) rewritten in place as chunks, in one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

from kcsolve.patience.stats.checks import (
    APPLICATION_ID,
    LONGEST_NAME,
    OLD_VERSIONS,
    SCHEMA_VERSION,
    ResultsStoreError,
    check_store,
    name_fault,
    refused_untouched,
    why,
)
from kcsolve.patience.stats.store import SCHEMA, SEED_OFFSET, ChunkResult, ResultsStore
from kcsolve.patience.stats.verdicts import REASONS, ROUNDS, Tally, pack, result_code

CONVERTED_CHUNK = 100_000  # deals per chunk at most; a chunk also ends at a gap, a new rule set or a new budget


def convert(path: Path) -> int:
    """Rewrite a per-deal database as chunks (nothing changes unless all of it is done); the deals converted."""
    with refused_untouched(path):
        return _rewrite(path)


def _rewrite(path: Path) -> int:
    """The conversion, with its connection closed whenever it ends."""
    version = check_store(path)
    if version not in OLD_VERSIONS:
        raise ResultsStoreError(
            f"{str(path)!r} is not a per-deal results database of an older kcsolve "
            f"(its schema version is {version}): there is nothing to convert"
        )
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute(SCHEMA)
        has_kind = any(column[1] == "budget_kind" for column in db.execute("PRAGMA table_info(deals)"))
        kind = "budget_kind" if has_kind else "NULL"
        rows = db.execute(
            f"SELECT rules, seed, result, reason, deal, method, budget, {kind}, seconds FROM deals ORDER BY rules, seed"
        )
        store = _Writer(db)
        converted = 0
        for rules, first, codes, method, budget, budget_kind, seconds in _runs(rows):
            store.insert(rules, first, codes, method, budget, budget_kind, seconds)
            converted += len(codes)
        db.execute("DROP TABLE deals")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
        db.execute("VACUUM")  # the per-deal table's pages go back to the file system
        db.execute("PRAGMA journal_mode = DELETE")  # out of an older kcsolve's WAL mode, as a run leaves its store
    except sqlite3.DatabaseError as exc:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise ResultsStoreError(f"cannot convert {str(path)!r}: {why(path, exc)}; it is left as it was") from None
    except _DamagedRowError as exc:
        db.execute("ROLLBACK")
        raise ResultsStoreError(
            f"cannot convert {str(path)!r}: damaged {exc.where}; {exc.what}; it is left as it was"
        ) from None
    finally:
        db.close()
    return converted


class _Writer(ResultsStore):
    """The store's row writer on a connection already inside the conversion's transaction."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def insert(
        self,
        rules: str,
        first: int,
        codes: bytes,
        method: str,
        budget: str | None,
        budget_kind: str | None,
        seconds: float,
    ) -> None:
        result = ChunkResult(first, len(codes), None, pack(codes), {}, method, seconds, budget, budget_kind)
        self._insert(rules, first, len(codes), Tally.of(codes), result.codes, result)


def _runs(rows: sqlite3.Cursor) -> Iterator[tuple[str, int, bytes, str, str | None, str | None, float]]:
    """(rules, first deal, codes, method, budget, budget kind, seconds) of each run of consecutive stored deals."""
    current: list = []
    codes = bytearray()
    last = None
    for row in rows:
        _check_row(row)
        rules, stored, result, reason, round_no, method, budget, kind, seconds = row
        seed = stored + SEED_OFFSET
        if (rules, seed) == last:  # rows come sorted: a deal stored twice is next to itself
            raise _DamagedRowError(f"rows of deal {seed}", f"two under {rules!r}")
        last = rules, seed
        undecided_budget = (budget, kind) if result == "unknown" else None
        if current and (
            rules != current[0]
            or seed != current[1] + len(codes)
            or len(codes) >= CONVERTED_CHUNK
            or (
                undecided_budget is not None and current[4] is not None and undecided_budget != (current[4], current[5])
            )
        ):
            yield current[0], current[1], bytes(codes), current[3], current[4], current[5], current[6]
            current, codes = [], bytearray()
        if not current:
            current = [rules, seed, None, method, None, None, 0.0]
        if undecided_budget is not None:
            current[4], current[5] = undecided_budget
        current[6] += seconds
        codes.append(result_code(result, reason, round_no))
    if current:
        yield current[0], current[1], bytes(codes), current[3], current[4], current[5], current[6]


class _DamagedRowError(ValueError):
    """A per-deal row whose columns no older kcsolve wrote; caught in this module, reported as a ResultsStoreError."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")
        self.where = where  # the row, short enough for the error line
        self.what = what  # its fault, which the line may leave out


def _check_row(row: tuple) -> None:
    """Refuse a row a run never wrote, named by its deal, before anything of it is converted."""
    rules, stored, result, reason, round_no, method, budget, kind, seconds = row
    if type(stored) is not int:
        raise _DamagedRowError("row", f"its deal number is {str(stored)[:40]!r}")
    where = f"row of deal {stored + SEED_OFFSET}"
    if (
        not isinstance(rules, str)
        or result not in ("win", "loss", "unknown")
        or not isinstance(method, str)
        or (result == "loss" and reason is not None and reason not in REASONS)
        or (round_no is not None and type(round_no) is not int)
        or type(seconds) not in (int, float)
        or not all(v is None or isinstance(v, str) for v in (budget, kind))
        or len(rules) > LONGEST_NAME
        or len(budget or "") > LONGEST_NAME
    ):
        raise _DamagedRowError(where, "columns that no run writes")
    # loss_code would keep neither, and convert the row to a loss of reason 'full' in an unknown round
    if result == "loss" and reason is None:
        raise _DamagedRowError(where, "a loss with no reason")
    if round_no is not None and not 0 < round_no < ROUNDS:
        raise _DamagedRowError(where, f"a fill round {round_no} that no deal has")
    fault = name_fault(rules, budget)
    if fault is not None:
        raise _DamagedRowError(where, fault)
