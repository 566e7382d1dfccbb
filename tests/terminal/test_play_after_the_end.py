"""`kcsolve play` once a game is over: whole words choose what comes next, and save, undo and help still work.

Also: a save that fails never ends the game, and a byte-order mark before a typed line is not part of the command.
"""

from __future__ import annotations

import json
from pathlib import Path

from clitools import run

from kcsolve.common.deal import deal
from kcsolve.patience.engine import Place, cell_name
from kcsolve.patience.record import Record
from kcsolve.patience.rules import STANDARD
from kcsolve.patience.solve.route import solve
from kcsolve.patience.terminal.session import Session

GAME_OVER = "The game is over: r retry, n next deal, q quit; or save FILE, undo, help."
SEED = next(s for s in range(50) if solve(deal(s), STANDARD).result == "win")
LINE = solve(deal(SEED)).moves


def typed(moves) -> str:  # type: ignore[no-untyped-def]
    """The commands a player types for a line of moves."""
    lines = [cell_name(m.cell) if isinstance(m, Place) else " ".join(cell_name(c) for c in m.cells) for m in moves]
    return "\n".join(lines) + "\n"


def after_a_win(*commands: str) -> str:
    """What ``play`` prints after the winning line and then ``commands``, the input ending with quit."""
    result = run("play", "--seed", str(SEED), "--style", "line", input=typed(LINE) + "\n".join([*commands, "q"]) + "\n")
    assert result.exit_code == 0, result.stderr
    return result.stdout.split("this deal could be won (exact solver).", 1)[1]


def test_a_word_that_is_no_choice_is_answered_not_taken_for_next() -> None:
    after = after_a_win("no", "nope")
    assert after.count(GAME_OVER) == 2 and f"Deal {SEED + 1}" not in after


def test_whole_words_choose() -> None:
    assert f"Deal {SEED + 1}, rules standard." in after_a_win("next")
    assert "Card 1 is turned" in after_a_win("retry")


def test_a_won_game_is_saved_with_its_result_and_verifies(tmp_path: Path) -> None:
    path = tmp_path / "won.json"
    after = after_a_win(f"save {path}")
    assert f"Saved {len(LINE)} moves to {path}." in after
    assert json.loads(path.read_text())["result"] == "win"
    verified = run("verify", str(path))
    assert verified.exit_code == 0 and verified.stdout.startswith("won:")


def test_help_and_undo_still_work_after_the_end() -> None:
    after = after_a_win("help", "undo", typed(LINE[-1:]).strip())
    assert "Commands:" in after and GAME_OVER not in after
    assert f"{len(LINE)} moves, 1 undo, 0 hints; this deal could be won" in after  # summed up again


def test_a_save_that_cannot_be_made_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    """A seed out of range once ended the session with exit 2 at 'save', its moves lost."""
    session = Session(deal(3), STANDARD, seed=-1)
    reply = session.command(f"save {tmp_path / 'game.json'}")
    assert not reply.done and reply.lines[0].startswith(f"Cannot save to {str(tmp_path / 'game.json')!r}: ")
    assert reply.lines[0].endswith("; the game goes on.") and list(tmp_path.iterdir()) == []
    assert not session.command("b2").done and len(session.moves) == 1


def test_a_resumed_game_drops_a_seed_that_is_no_deal_number(tmp_path: Path) -> None:
    for seed in (-1, 2**64, True):
        session = Session.resume(Record(deal(3), STANDARD, "unknown", (), {"seed": seed}))
        assert session.seed is None
        assert session.command(f"save {tmp_path / 'game.json'}").lines[0].startswith("Saved 0 moves")


def test_a_byte_order_mark_before_a_command_is_not_part_of_it() -> None:
    result = run("play", "--seed", "0", "--style", "line", input="\ufeffb2\n\ufeffhelp\n")
    assert result.exit_code == 0 and "Not a command" not in result.stdout
    assert "Card 2 is turned" in result.stdout and "Commands:" in result.stdout
