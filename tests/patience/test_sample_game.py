"""The golden sample game of the rules (seed 000): its 18 drawings, its record, and tampered copies."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from kcsolve.cli import cli
from kcsolve.common.cards import full_deck
from kcsolve.patience.engine import Status
from kcsolve.patience.record import RecordedPlace, judge, read_record

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
RECORD_PATH = GOLDEN / "sample_game.json"
DRAWINGS_PATH = GOLDEN / "sample_game_drawings.txt"
LOSS = "K drawn as card 40 with no free corner"


def make_runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout (the default from click 8.2 on)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def golden_drawings() -> list[str]:
    """The 18 drawings of the seed: blocks between '=' lines, '#' lines are comments."""
    lines = [line for line in DRAWINGS_PATH.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line == "=":
            blocks.append([])
        else:
            blocks[-1].append(line)
    texts = []
    for block in blocks:
        while block and not block[0].strip():
            block.pop(0)
        while block and not block[-1].strip():
            block.pop()
        texts.append("\n".join(block))
    return texts


DRAWING_LINES = 4 * 5 + 3  # four rows of boxes, five lines each, a blank line between rows


def printed_drawings(text: str) -> list[str]:
    """Every boxed 4x4 grid in a replay's output, as text blocks."""
    lines = text.splitlines()
    found = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("+---+"):
            block = lines[i : i + DRAWING_LINES]
            assert len(block) == DRAWING_LINES
            assert [block[k] for k in (5, 11, 17)] == ["", "", ""], block
            found.append("\n".join(block))
            i += DRAWING_LINES
        else:
            i += 1
    return found


def drawing_symbols(drawing: str) -> list[str]:
    """The 16 cells of a drawing, a1..d4, as rank symbols ('T' for a Ten, ' ' for an empty cell)."""
    lines = drawing.splitlines()
    symbols = []
    for row in range(4):
        middle = lines[row * 6 + 2]
        for col in range(4):
            box = middle[col * 6 : col * 6 + 5]
            assert box[0] == "|" and box[4] == "|", middle
            symbol = box[2]
            symbols.append("T" if symbol == "X" else symbol)
    return symbols


def test_golden_file_holds_18_drawings() -> None:
    drawings = golden_drawings()
    assert len(drawings) == 18
    for drawing in drawings:
        assert len(drawing.splitlines()) == DRAWING_LINES
        assert len(drawing_symbols(drawing)) == 16


def replay_output(*extra: str) -> str:
    result = make_runner().invoke(cli, ["replay", str(RECORD_PATH), "--no-color", *extra])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.stdout + result.stderr  # the sample game is lost: replay exits like verify
    assert result.stderr == ""
    return result.stdout


def test_replay_prints_the_18_drawings_in_order() -> None:
    printed = printed_drawings(replay_output())
    golden = golden_drawings()
    matched = 0
    for drawing in printed:
        if matched < len(golden) and drawing == golden[matched]:
            matched += 1
    assert matched == len(golden), f"only the first {matched} of the 18 drawings were printed in order"


def test_replay_draws_after_every_deal_and_every_removal() -> None:
    record = json.loads(RECORD_PATH.read_text())
    kinds = ["place" if "place" in m else "remove" for m in record["moves"]]
    deals = sum(1 for i, k in enumerate(kinds) if k == "place" and (i == 0 or kinds[i - 1] == "remove"))
    removals = kinds.count("remove")
    assert (deals, removals) == (8, 14)
    output = replay_output()
    assert len(printed_drawings(output)) == deals + removals
    lines = output.splitlines()
    assert sum(1 for line in lines if " deal: card" in line) == 8
    assert sum(1 for line in lines if line.startswith("Remove ")) == 14
    assert sum(1 for line in lines if line.startswith("Removal ")) == 7


def test_replay_ends_on_the_loss() -> None:
    output = replay_output()
    assert output.rstrip("\n").splitlines()[-1] == f"Lost: {LOSS}."
    assert "Traceback" not in output


SAMPLE_LINES = """\
1st deal: cards 1-16
A65K/3743/T824/KQQ8
Removal 1
Remove T (a3)
A65K/3743/.824/KQQ8
Remove 7 (b2) + 3 (d2)
A65K/3.4./.824/KQQ8
Remove 2 (c3) + 8 (d4)
A65K/3.4./.8.4/KQQ.
Remove 6 (b1) + 4 (d3)
A.5K/3.4./.8../KQQ.
2nd deal: cards 17-23
A65K/3347/A8T6/KQQK
Removal 2
Remove T (c3)
A65K/3347/A8.6/KQQK
Remove 6 (b1) + 4 (c2)
A.5K/33.7/A8.6/KQQK
Remove 3 (a2) + 7 (d2)
A.5K/.3../A8.6/KQQK
3rd deal: cards 24-28
AA5K/J35T/A886/KQQK
Removal 3
Remove T (d2)
AA5K/J35./A886/KQQK
Remove 5 (c1) + 5 (c2)
AA.K/J3../A886/KQQK
4th deal: cards 29-31
AA5K/J39J/A886/KQQK
Removal 4
Remove A (a1) + 9 (c2)
.A5K/J3.J/A886/KQQK
5th deal: cards 32-33
AA5K/J34J/A886/KQQK
Removal 5
Remove 4 (c2) + 6 (d3)
AA5K/J3.J/A88./KQQK
6th deal: cards 34-35
AA5K/J37J/A886/KQQK
Removal 6
Remove 3 (b2) + 7 (c2)
AA5K/J..J/A886/KQQK
7th deal: cards 36-37
AA5K/JT4J/A886/KQQK
Removal 7
Remove T (b2)
AA5K/J.4J/A886/KQQK
Remove 4 (c2) + 6 (d3)
AA5K/J..J/A88./KQQK
8th deal: cards 38-39
AA5K/J9.J/A88J/KQQK
Lost: K drawn as card 40 with no free corner.
"""


def test_replay_line_style_is_the_whole_game_one_grid_a_line() -> None:
    assert replay_output("--style", "line") == SAMPLE_LINES


def test_line_style_agrees_with_the_drawings() -> None:
    """Every drawing of the seed is one of the line-style grids, in the same order."""
    grids = [line for line in SAMPLE_LINES.splitlines() if "/" in line and " " not in line]
    as_lines = [
        "/".join("".join("." if s == " " else s for s in drawing_symbols(d)[r * 4 : r * 4 + 4]) for r in range(4))
        for d in golden_drawings()
    ]
    matched = 0
    for grid in grids:
        if matched < len(as_lines) and grid == as_lines[matched]:
            matched += 1
    assert matched == 18


def test_verify_says_lost_at_card_40() -> None:
    result = make_runner().invoke(cli, ["verify", str(RECORD_PATH)])
    assert result.exit_code == 1
    assert result.stdout == f"lost: {LOSS}\n"
    assert result.stderr == ""


def test_judge_agrees() -> None:
    verdict = judge(read_record(str(RECORD_PATH)))
    assert verdict.outcome.status is Status.LOST
    assert verdict.outcome.reason == LOSS
    assert verdict.illegal is None and not verdict.won
    assert verdict.moves == len(read_record(str(RECORD_PATH)).moves) == 53


def test_record_holds_the_40_known_cards_first() -> None:
    """The first 40 cards of the record's deck are the ones the sample game shows, deal by deal.

    The cards of each deal are read off the drawings themselves (cells empty before it, filled
    after it); the deck order inside a deal is free, so each deal is compared as a multiset.
    """
    record = read_record(str(RECORD_PATH))
    deck = record.deck
    assert len(deck) == 52 and all(c.suit is None for c in deck)
    assert Counter(c.rank for c in deck) == Counter(c.rank for c in full_deck(suited=False))

    grids = [drawing_symbols(d) for d in golden_drawings()]
    previous = [" "] * 16
    deal_cards: list[list[str]] = []
    for grid in grids:
        new = [grid[c] for c in range(16) if previous[c] == " " and grid[c] != " "]
        gone = [c for c in range(16) if previous[c] != " " and grid[c] == " "]
        changed = [c for c in range(16) if previous[c] != " " and grid[c] != " " and previous[c] != grid[c]]
        assert not changed  # a card never moves
        assert not (new and gone)  # a drawing follows either a deal or removals
        if new:
            deal_cards.append(new)
        previous = grid
    assert [len(cards) for cards in deal_cards] == [16, 7, 5, 3, 2, 2, 2, 2]

    names = [str(c) for c in deck]
    start = 0
    for cards in deal_cards:
        assert sorted(names[start : start + len(cards)]) == sorted(cards)
        start += len(cards)
    assert start == 39
    assert names[39] == "K"  # the 40th card: the King with no free corner

    placed = [str(m.card) for m in record.moves if isinstance(m, RecordedPlace)]
    assert placed == names[:39]
    # the last 12 are the cards never seen
    seen = Counter(names[:40])
    unseen = Counter(str(c) for c in full_deck(suited=False)) - seen
    assert Counter(names[40:]) == unseen
    assert sum(unseen.values()) == 12


# --- tampering ----------------------------------------------------------------------------


def tampered(tmp_path: Path, change) -> Path:
    data = json.loads(RECORD_PATH.read_text())
    data = copy.deepcopy(data)
    change(data["moves"])
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    return path


def set_move(number: int, value: dict):
    def change(moves: list) -> None:
        moves[number - 1] = value

    return change


def drop_move(number: int):
    def change(moves: list) -> None:
        del moves[number - 1]

    return change


@pytest.mark.parametrize(
    "change, message",
    [
        (set_move(2, {"place": "6", "cell": "a1"}), "move 2: place 6 in a1: the cell holds A"),
        (set_move(4, {"place": "K", "cell": "b2"}), "move 4: place K in b2: a King may not go there"),
        (set_move(1, {"place": "2", "cell": "a1"}), "move 1: place 2 in a1: the next stock card is A"),
        (
            set_move(18, {"remove": ["b2", "c2"]}),
            "move 18: remove b2 c2: 7 + 4 is not a Ten alone or a pair summing to 10",
        ),
        (set_move(17, {"remove": ["a1"]}), "move 17: remove a1: A is not a Ten alone or a pair summing to 10"),
        (
            set_move(15, {"remove": ["a3"]}),
            "move 15: remove a3: removal opens only when the grid is full",
        ),
        (
            drop_move(20),
            "move 20: place 6 in b1: removal is forced while a set can be removed",
        ),
        (set_move(29, {"remove": ["c3"]}), "move 29: remove c3: c3 is empty"),
    ],
)
def test_tampered_record_is_illegal_and_names_the_move(tmp_path: Path, change, message: str) -> None:
    path = tampered(tmp_path, change)
    runner = make_runner()
    result = runner.invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stdout == f"illegal {message}\n"
    assert result.stderr == ""
    result = runner.invoke(cli, ["replay", "--no-color", str(path)])
    assert result.exit_code == 1
    assert result.stdout.rstrip("\n").splitlines()[-1] == f"Illegal {message}."
