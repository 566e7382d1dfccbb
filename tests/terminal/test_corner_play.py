"""`kcsolve corner play` in a real 80x24 terminal (tmux): a hand played with moves, undo, help and quit, and no
screen that scrolls or wraps on the way."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import kcsolve_process, wait_for_screen

from kcsolve.corner.records.record import parse_corner_record, replay_corner

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@contextlib.contextmanager
def tmux_table(arguments: str, cwd: Path):  # type: ignore[no-untyped-def]
    """``kcsolve corner play ARGUMENTS`` in a detached 80x24 tmux session; its name."""
    name = f"kcsolve-corner-{os.getpid()}-{time.monotonic_ns()}"
    # the pane outlives the game, so its last screen stays as it was left (remain-on-exit would scroll it a line
    # to say the pane is dead)
    command = f"{sys.executable} -m kcsolve corner play {arguments}; sleep 600"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(cwd), command], check=True
    )
    try:
        yield name
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


def typed(name: str, text: str, expect: str = "", gone: str | None = None, limit: float = 60.0) -> list[str]:
    """Type a line (literally: 'end' is not the End key), then wait for its answer on a whole screen."""
    subprocess.run(["tmux", "send-keys", "-t", name, "-l", text], check=True)
    subprocess.run(["tmux", "send-keys", "-t", name, "Enter"], check=True)
    return wait_for_screen(name, expect, gone if gone is not None else f"> {text}" if text else None, limit)


def pass_turn(name: str) -> list[str]:
    """End the turn; where the rules forbid it (the stock empty and a move open), make the first legal move."""
    rows = typed(name, "end")
    return typed(name, "1") if any(row.startswith("Not allowed: end") for row in rows) else rows


def fits(rows: list[str], title: str) -> None:
    """The screen has not scrolled (the title is still on the top row) and no line wrapped."""
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), "\n".join(rows)
    assert rows[0].startswith(title), "\n".join(rows)


def test_a_four_player_hand_with_moves_undo_help_and_quit(tmp_path: Path) -> None:
    title = "Kings Corner, deal 3, 4 players, rules default"
    with tmux_table("--seed 3 --players 4 --record hand.json", tmp_path) as name:
        rows = wait_for_screen(name, "Your hand (7): ")
        fits(rows, title)
        assert rows[1:4] == [
            "NW .           N 9S         NE .",
            " W 6H            Stock: 20   E 3C",
            "SW .           S 9H         SE .",
        ]
        assert rows[-1].startswith(">") and "play QH N  merge S N  end  moves" in rows[-2]
        fits(typed(name, "MOVES", "Moves:   1: play 8S S"), title)
        rows = typed(name, "1", "S 9H 8S")
        fits(rows, title)
        assert "Your hand (6): AS 6S AH 3D KD 9C" in rows
        rows = typed(name, "Undo", "Took back play 8S S.")
        fits(rows, title)
        assert "Your hand (7): AS 6S 8S AH 3D KD 9C" in rows
        fits(typed(name, "help", "Commands (upper or lower case); piles: "), title)
        fits(typed(name, "", "Your hand (7): ", gone="Commands"), title)  # a bare Enter: the table again, no complaint
        rows = typed(name, "zz", "Not a command or a move: 'zz' (type 'help').")
        fits(rows, title)
        for _ in range(40):
            rows = pass_turn(name)
            fits(rows, title)
            if "The game is over." in rows:
                break
        else:
            rows = typed(name, "quit", "Bye.")
    text = "\n".join(rows)
    assert "You drew " in text or "went out" in text or "Impasse" in text
    record = parse_corner_record((tmp_path / "hand.json").read_text())
    assert replay_corner(record).error is None and record.players == 4


@pytest.mark.slow
def test_a_long_match_keeps_to_the_screen_between_hands(tmp_path: Path) -> None:
    """Two players passing through a whole match: the longest piles and hands, the score table, the game's end."""
    with tmux_table("--seed 6 --players 2 --match --rules target=30", tmp_path) as name:
        rows = wait_for_screen(name, "Your hand (")
        hands = 1
        for _ in range(200):
            fits(rows, f"Hand {hands}, deal {5 + hands}, game to 30")
            if "The game is over." in rows:
                break
            if "Enter: the next hand   scores   save FILE   help   quit" in rows:
                assert any(row.startswith("Total ") for row in rows), "\n".join(rows)
                rows = typed(name, "save game.json", "Saved hand")
                hands += 1
                rows = typed(name, "", f"Hand {hands}, deal {5 + hands}")
            else:
                rows = pass_turn(name)
        assert "The game is over." in rows and any(" wins the game" in r or "a tie" in r for r in rows)
    saved = json.loads((tmp_path / "game.json").read_text())
    assert saved["match"] is True and len(saved["hands"]) == hands - 1


def test_ctrl_c_leaves_with_130_and_no_traceback(tmp_path: Path) -> None:
    process = kcsolve_process(
        "corner", "play", "--seed", "3", "--record", "hand.json", stdin=subprocess.PIPE, cwd=tmp_path
    )
    assert process.stdout is not None
    while "Your hand (7): " not in process.stdout.readline():
        pass
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and out.rstrip().endswith("Bye.") and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_asking_for_the_moves_keeps_what_the_bots_did_on_the_screen(tmp_path: Path) -> None:
    """After the bots' turns, 'moves' and 'help' answer below their lines instead of wiping them; three bots named
    one a seat sit at a table of four."""
    with tmux_table("--seed 3 --bots greedy,turn,greedy", tmp_path) as name:
        rows = wait_for_screen(name, "Your hand (7): ")
        assert rows[0].startswith("Kings Corner, deal 3, 4 players")
        rows = pass_turn(name)
        bots = [row for row in rows if row.startswith(("Player 2: play", "Player 3: play", "Player 4: play"))]
        assert len(bots) == 3, "\n".join(rows)
        rows = typed(name, "moves", "Moves:")
        assert all(row in rows for row in bots), "\n".join(rows)
        rows = typed(name, "help", "Commands (upper or lower case)")
        assert all(row in rows for row in bots), "\n".join(rows)
