"""`kcsolve play`: whole games through the input stream, every error path, undo, save and load, a real terminal."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import assert_bad_input, kcsolve_process, run, unwrapped, wait_for_screen

from kcsolve.common.deal import deal
from kcsolve.common.files import MAX_TEXT, TOO_LONG
from kcsolve.patience.engine import Place, Remove, cell_name
from kcsolve.patience.record import read_record
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve.route import solve
from kcsolve.patience.solve.theory import construct


def typed(moves) -> str:  # type: ignore[no-untyped-def]
    """The commands a player types for a line of moves."""
    lines = [cell_name(m.cell) if isinstance(m, Place) else " ".join(cell_name(c) for c in m.cells) for m in moves]
    return "\n".join(lines) + "\n"


def first_seed(result: str) -> int:
    """The first seeded deal with this standard verdict."""
    return next(s for s in range(50) if solve(deal(s), STANDARD).result == result)


def test_a_whole_won_game() -> None:
    """The solver's winning line, typed in, wins."""
    seed = first_seed("win")
    result = run("play", "--seed", str(seed), "--style", "line", "--no-color", input=typed(solve(deal(seed)).moves))
    assert result.exit_code == 0
    assert "Won: the twelfth court card was placed as card" in result.stdout
    assert "Illegal" not in result.stdout


def test_a_whole_lost_game() -> None:
    """Following the forced course of a jammed deal ends on the full grid."""
    seed = first_seed("loss")
    line = construct([c.rank for c in deal(seed)], STANDARD)
    result = run("play", "--seed", str(seed), "--style", "line", input=typed(line))
    assert result.exit_code == 0
    assert re.search(r"Lost: grid full with nothing to remove after card \d+\.", result.stdout)


@pytest.mark.parametrize(
    "commands, message",
    [
        ("zz", "Not a command or a cell: 'zz' (type 'help')."),
        ("b2\nb2", "Illegal: place JD in b2: the cell holds 8C."),
        ("e9", "Not a command or a cell: 'e9' (type 'help')."),
        ("a1 b1", "Illegal: remove a1 b1: removal opens only when the grid is full."),
        ("undo", "Nothing to undo."),
        ("deal", "'deal' is for optional removal; here the grid deals on by itself after removal."),
        ("save", "Usage: save FILE"),
        ("load", "Usage: load FILE"),
        (
            "load /nonexistent/game.json",
            "Cannot load: cannot read '/nonexistent/game.json': No such file or directory.",
        ),
        (
            "save /nonexistent/dir/game.json",
            "Cannot save to '/nonexistent/dir/game.json': the folder '/nonexistent/dir' does not exist.",
        ),
    ],
)
def test_mistakes_get_one_line_and_the_game_goes_on(commands: str, message: str) -> None:
    """Each mistake is answered with one line; the game is still there afterwards."""
    result = run("play", "--seed", "0", "--style", "line", input=commands + "\nhelp\nquit\n")
    assert result.exit_code == 0
    assert message in result.stdout.splitlines() or f"> {message}" in result.stdout.splitlines()
    assert "Commands:" in result.stdout and result.stdout.rstrip().endswith("Bye.")


def test_removal_comes_first_under_forced_removal() -> None:
    """A placement while a removal is due is refused with the reason."""
    seed = first_seed("win")
    line = solve(deal(seed)).moves
    first = next(i for i, m in enumerate(line) if isinstance(m, Remove) and isinstance(line[i + 1], Remove))
    freed = cell_name(line[first].cells[0])  # empty now, but more must be removed before any placement
    result = run("play", "--seed", str(seed), "--style", "line", input=typed(line[: first + 1]) + f"{freed}\nquit\n")
    assert "Removal comes first: remove a Ten or a set summing to 10 (cells, e.g. 'b2 d2')." in result.stdout


def test_undo_takes_back_a_move() -> None:
    """After a placement and undo, the first card is turned again."""
    result = run("play", "--seed", "0", "--style", "line", input="b2\nundo\nquit\n")
    assert result.stdout.count("Card 1 is turned: 8C.") == 2


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    """A saved game is a record that loads back to the same position; nothing half-written is left."""
    path = tmp_path / "game.json"
    seed = first_seed("win")
    line = solve(deal(seed)).moves[:25]
    run("play", "--seed", str(seed), "--style", "line", input=typed(line) + f"save {path}\nquit\n")
    record = json.loads(path.read_text())
    assert record["result"] == "unknown" and len(record["moves"]) == 25
    assert read_record(str(path)).moves
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    loaded = run("play", "--seed", "1", "--style", "line", input=f"load {path}\nquit\n")
    assert "Loaded 25 moves" in loaded.stdout
    direct = run("play", "--seed", str(seed), "--style", "line", input=typed(line) + "quit\n")
    assert loaded.stdout.split("Loaded 25 moves")[1].splitlines()[1] == direct.stdout.split("> ")[-2].splitlines()[-3]


def test_end_of_input_leaves_cleanly() -> None:
    """End of input mid-game: a clean goodbye, exit 0, no traceback."""
    result = run("play", "--seed", "0", input="b2\n")
    assert result.exit_code == 0 and result.stdout.rstrip().endswith("Bye.")


def test_hint_and_peek() -> None:
    """A hint ranks every distinct option as 'cell: NN% (95% interval L% to H%)'; peek says it is peeking."""
    result = run("play", "--seed", "0", "--style", "line", input="hint\npeek\nquit\n")
    hints = [
        line
        for line in result.stdout.splitlines()
        if re.fullmatch(r"  [a-d][1-4]: \d+% \(95% interval \d+% to \d+%\)", line)
    ]
    assert len(hints) == 4  # the centre and the three court classes
    assert "Peeking at the stock: this deal can still be won from here." in result.stdout


def test_play_bad_input() -> None:
    """Conflicting sources and bad options are bad input: one line, exit 2."""
    assert_bad_input(
        run("play", "--seed", "1", "--daily"), "give one of DECK_FILE, SAVED.json, --seed N or --daily [DATE]"
    )
    assert_bad_input(run("play", "--seed", "-1"), "seed must be between 0 and 2**64-1, got -1")


def test_play_refuses_deeply_nested_json_in_one_line(tmp_path: Path) -> None:
    """Looking for a saved game in the file must not overflow the parser's stack: the deck's checks refuse it."""
    path = tmp_path / "nested.json"
    path.write_text("[" * 60_000)
    assert_bad_input(run("play", str(path)), f"{str(path)!r}: deck is not valid JSON: nested too deeply")
    path.write_text("[" * (MAX_TEXT + 1))
    assert_bad_input(run("play", str(path)), f"{str(path)!r}: {TOO_LONG}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_screen_fits_80x24_and_is_redrawn_in_place() -> None:
    """In a real 80x24 terminal: the whole board with its labels and the prompt show, and a move redraws in place."""
    with tmux_game("play --seed 0 --no-color") as name:
        rows = wait_for_screen(name, "Card 1 is turned: 8C.")
        screen = "\n".join(rows)
        assert rows[0] == "Deal 0, rules standard"
        assert rows[1] == "       a     b     c     d"
        assert [r[:4] for r in rows[3:10:2]] == ["  1 ", "  2 ", "  3 ", "  4 "]
        assert "Card 1 is turned: 8C. It may go in: any free cell." in screen
        assert rows[-1].startswith(">")
        subprocess.run(["tmux", "send-keys", "-t", name, "b2", "Enter"], check=True)
        rows = wait_for_screen(name, "Card 2 is turned: JD.")
        screen = "\n".join(rows)
        assert rows[0] == "Deal 0, rules standard" and screen.count("       a     b     c     d") == 1
        assert "It may go in: a2 d2 a3 d3" in screen  # a Jack: only the free Jack cells
        assert rows[5].startswith("  2 |»·J·«| 8C  |")
        assert len(rows) <= 24 and all(len(r) <= 80 for r in rows)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_removal_options_show_their_cards_on_the_screen() -> None:
    seed = 0
    line = solve(deal(seed)).moves
    first_removal = next(i for i, m in enumerate(line) if isinstance(m, Remove))
    with tmux_game(f"play --seed {seed} --no-color") as name:
        wait_for_screen(name, "Card 1 is turned")
        for move in line[:first_removal]:
            subprocess.run(["tmux", "send-keys", "-t", name, typed([move]).strip(), "Enter"], check=True)
        screen = "\n".join(wait_for_screen(name, "Remove: "))
        assert re.search(r"Remove: .*d3 \(TS\)", screen), screen


@contextlib.contextmanager
def tmux_game(arguments: str):  # type: ignore[no-untyped-def]
    """A kcsolve game in a detached 80x24 tmux session; its name."""
    name = f"kcsolve-test-{os.getpid()}-{time.monotonic_ns()}"
    command = f"{sys.executable} -m kcsolve {arguments}"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", command], check=True)
    subprocess.run(["tmux", "set-option", "-t", name, "remain-on-exit", "on"], check=True)  # keep the last screen
    try:
        yield name
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


@pytest.mark.parametrize("runner_ignores_sigint", [False, True], ids=["shell", "nohup"])
def test_ctrl_c_exits_130_and_writes_nothing(tmp_path: Path, runner_ignores_sigint: bool) -> None:
    """Also where the shell that started the tests ignores SIGINT, as CI runners and nohup do."""
    previous = signal.signal(
        signal.SIGINT, signal.SIG_IGN if runner_ignores_sigint else signal.getsignal(signal.SIGINT)
    )
    try:
        process = kcsolve_process("play", "--seed", "0", stdin=subprocess.PIPE, cwd=tmp_path)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert process.stdout is not None
    while "Card 1 is turned" not in process.stdout.readline():
        pass
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and out.rstrip().endswith("Bye.") and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_quit_exits_0() -> None:
    assert run("play", "--seed", "0", input="quit\n").exit_code == 0


def test_saved_game_is_compact_carries_the_seed_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    seed = first_seed("win")
    line = solve(deal(seed)).moves
    run("play", "--seed", str(seed), "--style", "line", input=typed(line[:25]) + f"save {path}\nquit\n")
    text = path.read_text()
    assert text.count("\n") == 1 and json.loads(text)["seed"] == seed
    resumed = run("play", str(path), "--style", "line", input=typed(line[25:]))
    assert unwrapped(resumed.stdout)[0].startswith(f"Saved game {path}, rules standard.")  # wrapped at 80 columns
    assert "Won: the twelfth court card was placed" in resumed.stdout and "Illegal" not in resumed.stdout


def test_a_saved_game_with_an_illegal_move_is_refused_by_its_file_name(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", "--seed", "3", "--style", "line", input=f"b2\nsave {path}\nquit\n")
    saved = json.loads(path.read_text())
    saved["moves"] = [*saved["moves"], saved["moves"][0]]  # the same cell again: it is taken
    path.write_text(json.dumps(saved))
    result = run("play", str(path), "--style", "line", input="quit\n")
    assert_bad_input(result, None)
    assert result.stderr.startswith("Error: '/") and ".json': cannot resume: illegal move 2: place " in result.stderr


def test_auto_plays_forced_moves() -> None:
    seed = first_seed("win")
    line = solve(deal(seed)).moves
    plain = run("play", "--seed", str(seed), "--style", "line", input=typed(line)).stdout
    auto = run("play", "--seed", str(seed), "--style", "line", "--auto", input=typed(line)).stdout
    assert "Auto: placed K" in auto and "Auto: removed" in auto
    assert "Auto:" not in plain
    assert "Won: the twelfth court card was placed" in plain


def test_the_end_summary_and_the_choices() -> None:
    seed = first_seed("win")
    line = solve(deal(seed)).moves
    result = run("play", "--seed", str(seed), "--style", "line", input=typed(line) + "n\nq\n")
    assert f"{len(line)} moves, 0 undos, 0 hints; this deal could be won (exact solver)." in result.stdout
    assert "r: retry this deal   n: next deal   q: quit" in result.stdout
    assert f"Deal {seed + 1}, rules standard." in result.stdout and result.stdout.rstrip().endswith("Bye.")


def test_camelot_shows_the_next_card_while_removing() -> None:
    """Under camelot, as in PySolFC, the next stock card shows during a removal; not under standard."""
    seed = next(s for s in range(50) if solve(deal(s), parse_rules("camelot")).result == "win")
    line = solve(deal(seed), parse_rules("camelot")).moves
    first = next(i for i, m in enumerate(line) if isinstance(m, Remove))
    shown = run(
        "play", "--seed", str(seed), "--rules", "camelot", "--style", "line", input=typed(line[:first]) + "quit\n"
    )
    assert "The next stock card shows while you remove, as in PySolFC: " in shown.stdout
    hidden = run("play", "--seed", str(seed), "--style", "line", input=typed(line[:first]) + "quit\n")
    assert "The next stock card shows" not in hidden.stdout


def test_dozens_of_removal_sets_leave_room_for_the_hint_and_the_errors() -> None:
    """Under optional+groups a removal may offer dozens of sets: the screen shows a few and 'sets' lists them all."""
    from kcsolve.patience.engine import Position
    from kcsolve.patience.terminal.screen import HEIGHT, WIDTH, screen
    from kcsolve.patience.terminal.session import Session

    rules = parse_rules("optional+groups")
    crowded = None
    for seed in range(200):
        position = Position.start(deal(seed), rules)
        while position.legal_moves() and crowded is None:
            if position.removing and len(position.removable_sets()) >= 20:
                crowded = (seed, position)
            position = position.play(position.legal_moves()[-1])
        if crowded:
            break
    assert crowded is not None
    seed, position = crowded
    session = Session(deal(seed), rules, seed)
    session.history, session.moves = [position], []
    hint = session.command("hint").lines
    lines = screen("title", position, [*hint[:4], "Not a move: 'zz'"])
    assert len(lines) <= HEIGHT - 1 and all(len(line) <= WIDTH for line in lines)
    assert hint[0] in lines and "Not a move: 'zz'" in lines and lines[-1].startswith("b2: place")
    full = screen("title", position, hint)  # a long hint is cut, the command line stays
    assert len(full) <= HEIGHT - 1 and full[-1].startswith("b2: place") and hint[0] in full
    assert any("more sets: 'sets' lists them all" in line for line in lines)
    listed = " ".join(session.command("sets").lines)
    assert listed.count("(") == len(position.removable_sets())


def test_the_outcome_is_said_once_and_counts_agree_with_their_nouns(tmp_path: Path) -> None:
    seed = first_seed("win")
    out = run("play", "--seed", str(seed), "--style", "line", "--no-color", input=typed(solve(deal(seed)).moves)).stdout
    assert sum(line.startswith("Won: ") for line in out.splitlines()) == 1
    assert re.search(r"\d+ moves, 0 undos, 0 hints; this deal could be won", out)
    saved = run("play", "--seed", "0", "--plain", input=f"a1\nundo\nhint\nsave {tmp_path / 'g.json'}\nquit\n").stdout
    assert "Saved 0 moves to" in saved and not re.search(r"\b1 (cards|moves|undos|hints)\b", saved)
    one = run("play", "--seed", "0", "--plain", input=f"a1\nsave {tmp_path / 'h.json'}\nquit\n").stdout
    assert "Saved 1 move to" in one


@pytest.mark.parametrize("command", [["play", "--seed", "1"], ["corner", "play", "--seed", "1"]])
@pytest.mark.parametrize(
    "typed, culprit",
    [("b2\n" + "x" * 100_000, "longer than 4,096 characters: 'xxxx"), (b"b2\n\xff\xfe\n", "not UTF-8 text")],
)
def test_a_line_too_long_or_not_text_ends_the_game_with_one_error_line(
    command: list[str], typed: str | bytes, culprit: str
) -> None:
    """Input without an end (``< /dev/zero``) is refused after LONGEST_LINE characters, not held in memory."""
    result = run(*command, "--plain", input=typed)
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and culprit in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [["play", "--seed", "3"], ["corner", "play", "--seed", "3"]], ids=" ".join)
@pytest.mark.parametrize("typed", [b"b2\n\xff\xfe\x00garbage\n", bytes(range(256)) * 4], ids=["bad-bytes", "binary"])
def test_input_that_is_not_utf8_ends_the_game_where_stdin_escapes_bad_bytes(command: list[str], typed: bytes) -> None:
    """Under a C or POSIX locale Python reads bad bytes as lone surrogates, not as an error: still one line, exit 2."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:surrogateescape"}
    done = subprocess.run(
        [sys.executable, "-m", "kcsolve", *command, "--plain"], input=typed, capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == b"Error: the game's input is not UTF-8 text\n"
    assert b"garbage" not in done.stdout and b"\xff" not in done.stdout


@pytest.mark.parametrize("line", ["x" * 3000, "\x00" * 3000, "b2 " + "\x1b[2J" * 700])
def test_a_long_bad_command_is_echoed_as_a_short_escaped_excerpt(line: str) -> None:
    out = run("play", "--seed", "3", "--plain", input=line + "\nquit\n").stdout
    echoed = [row.removeprefix("> ") for row in out.splitlines() if "Not a command or a cell" in row]
    assert len(echoed) == 1 and len(echoed[0]) <= 80, echoed
    assert "\x00" not in echoed[0] and "\x1b" not in echoed[0]


def test_a_loaded_game_is_saved_with_its_own_deal_number(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    run("play", "--seed", "3", "--style", "line", input=f"b2\nsave {first}\nquit\n")
    run("play", "--seed", "5", "--style", "line", input=f"load {first}\nsave {second}\nquit\n")
    assert json.loads(second.read_text())["seed"] == 3
    assert json.loads(second.read_text())["deck"] == json.loads(first.read_text())["deck"]
