"""Input a new user tries, and hostile input: bounded, stopped at the first error, one line naming the culprit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import click
import pytest
from click.testing import Result
from clitools import assert_bad_input, run, write
from hypothesis import given, settings
from hypothesis import strategies as st

import kcsolve
from kcsolve.cli import cli
from kcsolve.common.cards import full_deck, parse_deck
from kcsolve.common.deal import deal
from kcsolve.common.files import MAX_TEXT, TOO_LONG

PACK = [str(c) for c in full_deck()]


def test_huge_deck_file_is_refused_unread_and_fast(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("AS " * 2_000_000)  # 6 MB of one card
    began = time.perf_counter()
    result = run("solve", str(path))
    assert time.perf_counter() - began < 5
    assert_bad_input(result, f"{str(path)!r}: {TOO_LONG}")


def test_repeated_card_is_named_once_at_its_first_repeat() -> None:
    assert_bad_input(run("solve", "-", input="AS " * 20_000), "<stdin>: duplicate card 'AS' at positions 1 and 2")


def test_repeated_rank_names_only_the_fifth_occurrence() -> None:
    result = run("solve", "-", input="5 " * 20_000)
    assert_bad_input(result, "<stdin>: rank '5' appears a fifth time at position 5")


def test_a_second_pack_stops_at_its_first_card() -> None:
    text = " ".join(PACK) + " " + " ".join(PACK)
    assert_bad_input(run("solve", "-", input=text), "<stdin>: duplicate card 'AS' at positions 1 and 53")


def test_huge_record_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "{" + " " * (MAX_TEXT + 10) + "}")
    assert_bad_input(run("verify", path), f"{str(path)!r}: {TOO_LONG}")


def test_record_with_absurdly_many_moves_is_refused(tmp_path: Path) -> None:
    record = {"deck": PACK, "moves": [{"remove": ["a1"]}] * 1000}
    assert_bad_input(
        run("verify", write(tmp_path, record)),
        f"{str(tmp_path / 'input.json')!r}: 1,000 moves, more than any game has (208)",
    )


def test_empty_files_say_so(tmp_path: Path) -> None:
    assert_bad_input(
        run("solve", write(tmp_path, "", "deck.txt")), f"{str(tmp_path / 'deck.txt')!r}: the deck is empty"
    )
    assert_bad_input(
        run("verify", write(tmp_path, "  \n", "r.json")), f"{str(tmp_path / 'r.json')!r}: the file is empty"
    )


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    deck_path = tmp_path / "deck.txt"
    deck_path.write_text("\ufeff" + " ".join(PACK), encoding="utf-8")
    assert run("solve", str(deck_path), "--format", "json").exit_code in (0, 1)
    record = kcsolve.solve(deal(0)).record().to_json()
    record_path = tmp_path / "r.json"
    record_path.write_text("\ufeff" + json.dumps(record), encoding="utf-8")
    assert run("verify", str(record_path)).exit_code == 0


def test_bare_json_array_is_a_deck() -> None:
    assert parse_deck(json.dumps(PACK)) == full_deck()
    result = run("solve", "-", "--format", "json", input=json.dumps([str(c) for c in deal(0)]))
    assert result.exit_code == 0 and json.loads(result.stdout)["result"] == "win"


def test_unicode_suit_symbols() -> None:
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    text = " ".join(name[0] + symbols[name[1]] for name in PACK)
    assert parse_deck(text) == full_deck()
    assert parse_deck("10♣ " + " ".join(n for n in PACK if n != "TC"))[0] == kcsolve.parse_card("TC")


# --- the library API validates like the CLI ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "deck, error",
    [
        (full_deck()[:51], kcsolve.InvalidDeckError),
        (full_deck() + full_deck()[:5], kcsolve.InvalidDeckError),
        (("TS",) * 52, kcsolve.InvalidDeckError),
        (5, kcsolve.InvalidDeckError),
        ("nonsense", kcsolve.InvalidDeckError),
    ],
)
def test_solve_refuses_bad_decks(deck: object, error: type) -> None:
    with pytest.raises(error):
        kcsolve.solve(deck)  # type: ignore[arg-type]


def test_solve_takes_rules_as_preset_or_object_and_refuses_junk() -> None:
    assert kcsolve.solve(deal(3), "camelot").rules == kcsolve.parse_rules("camelot")
    assert kcsolve.solve(deal(3), kcsolve.parse_rules("deplete")).result == kcsolve.solve(deal(3), "deplete").result
    with pytest.raises(kcsolve.InvalidRulesError, match="'bogus'"):
        kcsolve.solve(deal(0), "bogus")
    with pytest.raises(kcsolve.InvalidRulesError):
        kcsolve.solve(deal(0), 7)  # type: ignore[arg-type]
    with pytest.raises(kcsolve.UnsupportedMethodError, match="'sat' does not cover rules 'camelot'"):
        kcsolve.solve(deal(0), "camelot", "sat")
    with pytest.raises(kcsolve.InvalidBudgetError):
        kcsolve.solve(deal(0), budget="lots")


def test_errors_are_value_errors_of_the_package() -> None:
    for error in (
        kcsolve.InvalidDeckError,
        kcsolve.InvalidRulesError,
        kcsolve.UnsupportedMethodError,
        kcsolve.InvalidBudgetError,
        kcsolve.InvalidRecordError,
    ):
        assert issubclass(error, ValueError) and error.__module__.startswith("kcsolve.")


def test_a_bad_deck_in_a_record_is_never_judged_won() -> None:
    good = kcsolve.solve(deal(0)).record()
    tens = type(good)(tuple([kcsolve.parse_card("TS")] * 52), good.rules, "win", good.moves, {})
    with pytest.raises(kcsolve.InvalidRecordError):
        kcsolve.judge(tens)


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.lists(st.text(max_size=4), max_size=60),
        st.lists(st.sampled_from([*PACK, "10h", "x", "♣", "", "KK"]), max_size=60),
    )
)
def test_solve_raises_only_its_own_errors_on_junk(junk: object) -> None:
    try:
        solution = kcsolve.solve(junk)  # type: ignore[arg-type]
    except ValueError as exc:
        assert type(exc).__module__.startswith("kcsolve.")
    else:
        assert kcsolve.is_win(solution.record()) == (solution.result == "win")


# --- output that cannot be written ------------------------------------------------------------------------------


def _kcsolve(*args: str) -> list[str]:
    return [sys.executable, "-m", "kcsolve", *args]


def test_closed_pipe_keeps_the_verdicts_status() -> None:
    for seed, status in ((0, 0), (5747, 1)):
        proc = subprocess.Popen(_kcsolve("solve", "--seed", str(seed)), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None
        proc.stdout.readline()
        proc.stdout.close()  # the reader leaves, as `| head -1` does
        assert proc.wait(timeout=30) == status
        assert proc.stderr is not None and proc.stderr.read() == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_full_disk_is_one_error_line() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            _kcsolve("solve", "--seed", "0"), stdout=full, stderr=subprocess.PIPE, text=True, timeout=30
        )
    assert done.returncode == 2
    assert done.stderr == "Error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(
    "command",
    [
        ["solve"],
        ["verify"],
        ["replay"],
        ["analyse"],
        ["play"],
        ["corner", "turn"],
        ["corner", "verify"],
        ["corner", "replay"],
    ],
    ids=" ".join,
)
@pytest.mark.parametrize("where", ["top", "nested"])
def test_a_json_number_too_long_to_convert_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], where: str
) -> None:
    """Python refuses integers of more than 4,300 digits: that is bad input, not a traceback."""
    number = "1" * 5000
    text = "[" + number + "]" if where == "top" else '{"deck": [' + number + '], "moves": []}'
    write(tmp_path, text, "big.json")
    monkeypatch.chdir(tmp_path)  # a short name, so that the reason is shown whole in the line
    result = run(*command, "big.json", input="quit\n")
    assert_bad_input(result, None)
    assert "more than 4,300 digits" in result.stderr


@pytest.mark.parametrize(
    "seed",
    [1.5, 3.0, True, False, None, "x", "1e3", "9" * 40, [3], 10**5000, -1, 2**64],
    ids=lambda seed: type(seed).__name__,
)
def test_deal_refuses_what_is_not_a_deal_number_with_its_own_error(seed: object) -> None:
    with pytest.raises(kcsolve.KcsolveError, match=r"deal number is a whole number|between 0 and 2\*\*64-1"):
        kcsolve.deal(seed)  # type: ignore[arg-type]


def test_deal_takes_a_deal_number_as_text_too() -> None:
    assert kcsolve.deal("3") == kcsolve.deal(" 3 ") == kcsolve.deal(3)


def test_a_budget_may_be_a_number_of_nodes() -> None:
    deck = kcsolve.deal(0)
    by_number, by_text = kcsolve.solve(deck, budget=100_000), kcsolve.solve(deck, budget="100000")
    assert (by_number.result, by_number.moves) == (by_text.result, by_text.moves)
    for bad in (True, 0, -5, 2**64, 1.5):
        with pytest.raises(kcsolve.KcsolveError):
            kcsolve.solve(deck, budget=bad)  # type: ignore[arg-type]


def test_judge_and_is_win_take_the_dict_json_load_gives(tmp_path: Path) -> None:
    path = tmp_path / "won.json"
    path.write_text(json.dumps(kcsolve.solve(kcsolve.deal(0)).record(seed=0).to_json()))
    with path.open() as handle:
        loaded = json.load(handle)
    assert kcsolve.is_win(loaded) and kcsolve.judge(loaded).won
    loaded["moves"] = loaded["moves"][:-1]
    assert not kcsolve.is_win(loaded)
    for bad in (42, "text", [loaded], {"deck": "no"}):
        with pytest.raises(kcsolve.KcsolveError):
            kcsolve.is_win(bad)  # type: ignore[arg-type]


def test_a_removal_of_a_hundred_thousand_cells_is_malformed_not_a_verdict(tmp_path: Path) -> None:
    """Its verdict line would have repeated every cell: the record is refused at the move, in one short line."""
    path = write(tmp_path, {"deck": PACK, "moves": [{"remove": ["a1"] * 100_000}]})
    for command in ("verify", "replay", "analyse"):
        assert_bad_input(
            run(command, path), f"{path!r}: move 1: a removal names 100,000 cells, more than the grid's 16"
        )


def test_a_file_name_with_a_newline_stays_on_the_error_line(tmp_path: Path) -> None:
    path = write(tmp_path, "", "new\nline.json")
    assert_bad_input(run("verify", path), f"{path!r}: the file is empty")
    assert_bad_input(run("corner", "verify", path), f"{path!r}: not valid JSON: Expecting value at line 1")


def test_read_record_reads_no_more_than_a_record(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_TEXT + 1))
    with pytest.raises(kcsolve.InvalidRecordError) as refused:
        kcsolve.read_record(str(path))
    assert str(refused.value) == f"{str(path)!r}: more than 4,194,304 characters (the most kcsolve reads)"


def test_duplicate_keys_and_a_byte_order_mark_on_the_command_line(tmp_path: Path) -> None:
    record = json.dumps({"deck": [str(c) for c in deal(0)], "moves": []})
    path = write(tmp_path, record[:-1] + ', "moves": [{"place": "8C", "cell": "b2"}]}')
    assert_bad_input(run("verify", path), f"{path!r}: not valid JSON (the key 'moves' appears twice in one object)")
    corner = run("corner", "deal", "--seed", "3", "--format", "json").stdout
    position = write(tmp_path, corner.rstrip()[:-1] + ', "hand": []}', "position.json")
    assert_bad_input(
        run("corner", "turn", position), f"{position!r}: not valid JSON: the key 'hand' appears twice in one object"
    )
    (tmp_path / "bom.json").write_text("\ufeff" + corner, encoding="utf-8")
    assert run("corner", "turn", str(tmp_path / "bom.json")).exit_code == 0


# --- empty values, pipes in a file's place (issue 40) -----------------------------------------------------------


def _commands() -> list[tuple[list[str], click.Command]]:
    """Every command, a group's commands under their group's name."""
    found: list[tuple[list[str], click.Command]] = []
    for name in cli.list_commands(None):  # type: ignore[arg-type]
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None
        if isinstance(command, click.Group):
            found += [([name, sub], command.commands[sub]) for sub in sorted(command.commands)]
        else:
            found.append(([name], command))
    return found


def _empty_values() -> list[tuple[list[str], str]]:
    """Each option that takes a value and each argument, given '', with the line that refuses it."""
    cases = []
    for names, command in _commands():
        for param in command.params:
            if isinstance(param, click.Option) and not param.is_flag and not param.count:
                name = param.opts[0]
                tail = "" if param.required else f"; give one, or leave {name} out"
                cases.append(([*names, name, ""], f"{name} '': the value is empty{tail}"))
            elif isinstance(param, click.Argument):
                cases.append(([*names, ""], f"{param.human_readable_name.strip('[]')} '': the value is empty"))
    return cases


EMPTY_VALUES = _empty_values()


@pytest.mark.parametrize(
    "args, message", EMPTY_VALUES, ids=[" ".join(arg or "''" for arg in args) for args, _ in EMPTY_VALUES]
)
def test_every_option_and_argument_refuses_an_empty_value(args: list[str], message: str) -> None:
    """An empty value is never a default: '' as a path named the current folder, as rules the default rules."""
    assert_bad_input(run(*args, input="quit\n"), message)


def test_the_empty_values_the_issue_met_are_among_them() -> None:
    cases = {tuple(args) for args, _ in EMPTY_VALUES}
    for args in (
        ("site", "--out", ""),
        ("site", "--base-url", ""),
        ("corner", "deal", "--rules", ""),
        ("odds", "--known", ""),
        ("stats", "--db", ""),
        ("corner", "play", "--record", ""),
        ("verify", ""),
    ):
        assert args in cases


def test_an_empty_out_with_force_leaves_the_current_folder_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine")
    assert_bad_input(run("site", "--out", "", "--force", "--days", "1"), "--out '': the value is empty")
    assert_bad_input(run("site", "--out=", "--force", "--days", "1"), "--out '': the value is empty")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def _unblocked(fifo: Path, *args: str, input: str | None = None) -> Result:
    """Run kcsolve with a FIFO among its inputs; one that waits on it is released after 20 s and the test fails."""
    finished: list[Result] = []
    worker = threading.Thread(target=lambda: finished.append(run(*args, input=input)), daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():
        os.close(os.open(fifo, os.O_RDWR))  # a writer comes and goes: the reader's open returns, its read ends
        worker.join(20)
        pytest.fail(f"kcsolve {' '.join(args)} waited on the named pipe")
    return finished[0]


FIFO_READERS = [
    ["solve"],
    ["replay"],
    ["verify"],
    ["analyse"],
    ["play"],
    ["corner", "turn"],
    ["corner", "play"],
    ["corner", "replay"],
    ["corner", "verify"],
]


@pytest.mark.parametrize("command", FIFO_READERS, ids=" ".join)
def test_a_named_pipe_in_a_files_place_is_refused_not_waited_on(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert_bad_input(
        _unblocked(fifo, *command, str(fifo), input="quit\n"),
        f"cannot read {str(fifo)!r}: it is a named pipe (FIFO), not a regular file",
    )


def test_load_in_play_refuses_a_named_pipe_and_the_game_goes_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = _unblocked(fifo, "play", "--seed", "3", "--plain", input=f"load {fifo}\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert f"Cannot load: cannot read {str(fifo)!r}: it is a named pipe (FIFO), not a regular file." in result.stdout


def test_read_record_refuses_a_named_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(kcsolve.InvalidRecordError, match=r"it is a named pipe \(FIFO\), not a regular file"):
        kcsolve.read_record(str(fifo))
