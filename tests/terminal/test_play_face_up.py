"""`kcsolve play --face-up`: the whole stock shown in order, the solver's exact hints, the mode saved and resumed."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from clitools import run, unwrapped

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Place, Position, cell_index
from kcsolve.patience.record import read_record
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.peek import peek
from kcsolve.patience.terminal.screen import HEIGHT, WIDTH, screen, stock_in_order

# seed 0 played to card 14 (8S): c3 keeps the deal winnable, d1 and b4 lose it
TO_CARD_14 = ["d2", "d3", "b3", "c1", "c2", "c4", "a4", "b1", "a1", "d4", "a3", "b2", "a2"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def stock_shown(stdout: str) -> list[str]:
    """The cards of the last face-up stock listing in a game's output, in the order shown."""
    text = stdout.rsplit("Stock after the turned card, next first", 1)[1].split("\nCard ", 1)[0]
    return re.findall(r"\b[2-9TAJQK][SHDC]\b", text.split(":", 1)[1])


def test_the_whole_stock_shows_in_order_next_cards_first() -> None:
    result = run("play", "--seed", "0", "--face-up", "--style", "line", input="b2\nquit\n")
    assert result.exit_code == 0
    assert unwrapped(result.stdout)[0].startswith("Deal 0, face up, rules standard.")
    cards = [str(card) for card in deal(0)]
    assert "Card 1 is turned: 8C" in result.stdout
    assert "Stock after the turned card, next first (51 cards): [JD 9S 2C 2H] QH" in result.stdout
    assert stock_shown(result.stdout) == cards[2:]  # after b2, card 2 is turned: card 3 on
    assert "Stock after the turned card, next first (50 cards): [9S 2C 2H QH] 6C" in result.stdout


def test_face_down_play_shows_no_stock() -> None:
    result = run("play", "--seed", "0", "--style", "line", input="quit\n")
    assert "next first" not in result.stdout and "QH 6C" not in result.stdout


def test_the_boxed_plain_screen_shows_the_stock_too() -> None:
    result = run("play", "--seed", "0", "--face-up", "--plain", input="quit\n")
    assert stock_shown(result.stdout) == [str(card) for card in deal(0)][1:]
    assert all(len(line) <= WIDTH for line in result.stdout.splitlines())


def test_the_screen_fits_80x24_face_up_in_colour_and_without() -> None:
    position = Position.start(deal(0), STANDARD)
    for colour in (False, True):
        lines = screen("Deal 0, face up", position, ["a message"] * 20, colour, face_up=True)
        visible = [ANSI.sub("", line) for line in lines]
        assert len(lines) <= HEIGHT - 1 and all(len(line) <= WIDTH for line in visible)
        assert "".join(visible).count("[JD 9S 2C 2H]") == 1
    painted = "\n".join(stock_in_order(position, colour=True))
    assert "\x1b[1;39m[JD 9S 2C 2H]\x1b[0m" in painted and "\x1b[2mTD\x1b[0m" in painted  # next bold, rest dim


def test_an_empty_stock_is_said_so() -> None:
    position = Position.start(deal(0), STANDARD)
    assert stock_in_order(dataclasses.replace(position, drawn=52)) == ["Stock: empty."]


def test_face_up_hints_are_the_solvers_exact_verdicts() -> None:
    result = run("play", "--seed", "0", "--face-up", "--style", "line", input="\n".join([*TO_CARD_14, "hint", "quit"]))
    hint = result.stdout.rsplit("> The exact solver", 1)[1].split("\n> ")[0].splitlines()
    assert hint[1:] == ["  keeps the deal winnable: c3", "  loses the deal: d1 b4"]
    position = Position.start(deal(0), STANDARD)
    for cell in TO_CARD_14:
        position = position.play(Place(cell_index(cell)))
    assert [peek(position.play(Place(cell_index(cell)))) for cell in ("c3", "d1", "b4")] == ["win", "loss", "loss"]


def test_face_down_hints_are_unchanged() -> None:
    result = run("play", "--seed", "0", "--style", "line", input="\n".join([*TO_CARD_14, "hint", "quit"]))
    assert "exact solver" not in result.stdout and "sampled orders" in result.stdout


def test_save_writes_the_mode_and_the_game_resumes_face_up(tmp_path: Path) -> None:
    up, down = tmp_path / "up.json", tmp_path / "down.json"
    run("play", "--seed", "0", "--face-up", "--style", "line", input=f"b2\nsave {up}\nquit\n")
    run("play", "--seed", "0", "--style", "line", input=f"b2\nsave {down}\nquit\n")
    assert json.loads(up.read_text())["mode"] == "face-up" and read_record(str(up)).face_up
    assert "mode" not in json.loads(down.read_text())  # a face-down record is written as before
    resumed = run("play", str(up), "--style", "line", input="quit\n")
    assert unwrapped(resumed.stdout)[0].startswith(f"Saved game {up}, face up, rules standard.")
    assert stock_shown(resumed.stdout) == [str(card) for card in deal(0)][2:]
    turned = run("play", str(down), "--face-up", "--style", "line", input=f"save {down}\nquit\n")
    assert "face up, rules" in " ".join(unwrapped(turned.stdout)) and json.loads(down.read_text())["mode"] == "face-up"


def test_load_keeps_a_seen_stock_face_up(tmp_path: Path) -> None:
    up = tmp_path / "up.json"
    run("play", "--seed", "0", "--face-up", "--style", "line", input=f"b2\nsave {up}\nquit\n")
    loaded = run("play", "--seed", "3", "--style", "line", input=f"load {up}\nhint\nquit\n")
    assert "Stock after the turned card, next first (50 cards)" in loaded.stdout and "The exact solver" in loaded.stdout


def test_retry_and_next_deal_stay_face_up() -> None:
    session_input = "\n".join([*TO_CARD_14, "d1", "b4", "n", "quit"]) + "\n"
    result = run("play", "--seed", "0", "--face-up", "--style", "line", input=session_input)
    assert "Deal 1, face up, rules standard." in " ".join(unwrapped(result.stdout))
