"""The steps of a stats run below the command: the database's path and opening, stopping on signals, listing deals
by verdict, one deal's verdict as JSON."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.route import Budget
from kcsolve.patience.stats import run as stats_run
from kcsolve.patience.stats.checks import ResultsStoreError
from kcsolve.patience.stats.pool import Interrupted, StopFlag, stop_on_signals
from kcsolve.patience.stats.run import UnusableDatabaseError, open_results, results_path
from kcsolve.patience.stats.store import ChunkResult, ReadOnlyRun, ResultsStore
from kcsolve.patience.stats.summary import LISTED, listed_seeds, verdict_json
from kcsolve.patience.stats.verdicts import UNDECIDED, WIN, loss_code, pack

LOST = loss_code("full", 3)


def a_store(db: Path) -> ResultsStore:
    """A store holding deals 10..15 of standard: won, lost, undecided, won, lost, won."""
    store = ResultsStore(db)
    codes = bytes([WIN, LOST, UNDECIDED, WIN, LOST, WIN])
    tally = {WIN: 3, LOST: 2, UNDECIDED: 1}
    store.add("standard", ChunkResult(10, 6, None, pack(codes), tally, "auto", 0.1, "1000", "nodes"))
    return store


def test_the_path_is_the_one_given_else_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert results_path(tmp_path / "mine.db") == tmp_path / "mine.db"
    monkeypatch.setenv("KCSOLVE_DB", str(tmp_path / "default.db"))
    assert results_path() == tmp_path / "default.db"


def test_a_scheduler_is_reached_before_the_path_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    reached = []
    monkeypatch.setattr(stats_run, "reach_scheduler", reached.append)
    monkeypatch.setattr(stats_run, "default_db", lambda: Path(f"after {reached}"))
    assert results_path(scheduler="tcp://127.0.0.1:1") == Path("after ['tcp://127.0.0.1:1']")


def test_a_database_the_system_refuses_is_one_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> Path:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(stats_run, "default_db", refused)
    with pytest.raises(UnusableDatabaseError, match=r"^cannot use the results database: Permission denied$"):
        results_path()

    def failing(*args: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(stats_run, "open_store", failing)
    with pytest.raises(ResultsStoreError, match=r"^cannot use the results database: Input/output error$"):
        open_results(tmp_path / "r.db", STANDARD, 0, 10, Budget(nodes=1000))


def test_a_store_holding_the_whole_range_opens_read_only(tmp_path: Path) -> None:
    a_store(tmp_path / "r.db").close()
    opened = open_results(tmp_path / "r.db", STANDARD, 10, 2, Budget(nodes=1000))
    assert isinstance(opened, ReadOnlyRun)
    opened.close()
    fresh = open_results(tmp_path / "new.db", STANDARD, 0, 10, Budget(nodes=1000))
    assert isinstance(fresh, ResultsStore)
    fresh.close()


def test_deals_are_listed_by_verdict_within_the_range(tmp_path: Path) -> None:
    store = a_store(tmp_path / "r.db")
    assert list(listed_seeds(store, "standard", 10, 6, "won")) == [[10, 13, 15]]
    assert list(listed_seeds(store, "standard", 11, 4, "lost")) == [[11, 14]]
    assert list(listed_seeds(store, "standard", 10, 6, "undecided")) == [[12]]
    assert list(listed_seeds(store, "standard", 13, 2, "undecided")) == []  # a piece with none gives no list
    assert set(LISTED) == {"won", "lost", "undecided"}
    with pytest.raises(ValueError, match="cannot list the deals by 'drawn'"):
        next(listed_seeds(store, "standard", 10, 6, "drawn"))
    store.close()


def test_one_verdict_as_json_gives_the_budget_only_where_undecided() -> None:
    assert verdict_json("standard", 5, (WIN, "1000")) == {
        "rules": "standard",
        "seed": 5,
        "result": "win",
        "reason": None,
        "deal": None,
        "budget": None,
    }
    assert verdict_json("standard", 6, (LOST, "1000"))["reason"] == "full"
    assert verdict_json("standard", 6, (LOST, "1000"))["deal"] == 3
    assert verdict_json("standard", 7, (UNDECIDED, "1000"))["budget"] == "1000"


def test_signals_set_the_stop_flag_inside_and_the_old_handlers_come_back() -> None:
    before = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    with stop_on_signals() as stop:
        assert isinstance(stop, StopFlag)
        os.kill(os.getpid(), signal.SIGTERM)
        with pytest.raises(Interrupted, match="SIGTERM"):
            stop.check()
    assert {number: signal.getsignal(number) for number in before} == before
