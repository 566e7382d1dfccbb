"""The Kings Corner table (`corner play`): the command parser, a screen that fits 80x24 at every size, the draws and
the bots' turns told, moves/undo/hint, matches to the target, save and resume, records on quit, colour."""

from __future__ import annotations

import errno
import json
import os
import random
import re
from pathlib import Path

import pytest
from click.testing import Result
from clitools import assert_bad_input, run, write
from hypothesis import given, settings
from hypothesis import strategies as st

from kcsolve.cli.base import shorten
from kcsolve.cli.corner.loop import _keep_record
from kcsolve.common.cards import parse_card
from kcsolve.corner.game.engine import END, Merge, Play, Position, Under, card_int, card_text, deal_hand, seeded_deck
from kcsolve.corner.game.render import condensed_pile, draw_piles, paint, visible_width
from kcsolve.corner.game.rules import CornerRules, parse_corner_rules
from kcsolve.corner.records.record import parse_corner_record, replay_corner
from kcsolve.corner.records.saved import parse_saved
from kcsolve.corner.table.commands import Command, InvalidCommandError, parse_command
from kcsolve.corner.table.screen import HEIGHT, WIDTH, score_table
from kcsolve.corner.table.table import Table

RULE_TEXTS = [
    "default",
    "draw=start",
    "until_play=yes",
    "under=yes",
    "draw_three=yes",
    "dealt_kings=stay",
    "scoring=aces+target=100",
    "draw_two=yes+under=yes+until_play=yes",
    "under=strict",
    "tie=yes",
    "draw_two=yes",
    "under=strict+tie=yes+draw_two=yes",
]


def c(text: str) -> int:
    return card_int(parse_card(text))


# the command parser


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("play QH N", Command("move", Play(c("QH"), 0))),
        ("PLAY qh n", Command("move", Play(c("QH"), 0))),
        ("qh ne", Command("move", Play(c("QH"), 4))),
        ("10d W", Command("move", Play(c("TD"), 3))),
        ("Merge s n", Command("move", Merge(2, 0))),
        ("s N", Command("move", Merge(2, 0))),
        ("under 9h w", Command("move", Under(c("9H"), 3))),
        ("End", Command("move", END)),
        ("PASS", Command("move", END)),
        ("", Command("show")),
        ("   \t", Command("show")),
        ("Moves", Command("moves")),
        ("UNDO", Command("undo")),
        ("Hint", Command("hint")),
        ("help", Command("help")),
        ("?", Command("help")),
        ("Scores", Command("scores")),
        ("QUIT", Command("quit")),
        ("exit", Command("quit")),
        ("next", Command("next")),
        ("3", Command("pick", number=3)),
        ("Save My Game.json", None),
        ("SAVE Games/My.JSON", Command("save", argument="Games/My.JSON")),
    ],
)
def test_commands_are_read_whatever_their_case(text: str, command: Command | None) -> None:
    if command is None:
        with pytest.raises(InvalidCommandError, match="usage: save FILE"):
            parse_command(text)
    else:
        assert parse_command(text) == command


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zz", "not a command or a move: 'zz' (type 'help')"),
        ("play ZZ N", "not a command or a move: 'play ZZ N' (type 'help')"),
        ("merge N X", "not a command or a move: 'merge N X' (type 'help')"),
        ("0", "not a command or a move: '0' (type 'help')"),
        ("save", "usage: save FILE"),
        ("undo now", "not a command or a move: 'undo now' (type 'help')"),
        ("9" * 100, "not a command or a move: '" + "9" * 38 + "... (type 'help')"),
    ],
)
def test_what_is_not_a_command_is_named(text: str, message: str) -> None:
    with pytest.raises(InvalidCommandError) as caught:
        parse_command(text)
    assert str(caught.value) == message


@given(st.text(max_size=200))
def test_any_text_is_a_command_or_one_short_reason(text: str) -> None:
    try:
        command = parse_command(text)
    except InvalidCommandError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 100
    else:
        assert command.verb in {
            "show",
            "move",
            "pick",
            "help",
            "moves",
            "undo",
            "hint",
            "scores",
            "quit",
            "save",
            "next",
        }
        assert (command.verb == "show") == (not text.split())


# the screen fits 80x24


@given(size=st.integers(1, 13), width=st.integers(15, 40), seed=st.integers(0, 10**6))
def test_a_condensed_pile_keeps_its_base_and_exposed_card_and_says_its_size(size: int, width: int, seed: int) -> None:
    pile = tuple(random.Random(seed).sample(range(52), size))
    text = condensed_pile(pile, width)
    assert len(text) <= width
    assert text.startswith(card_text(pile[0]))
    assert card_text(pile[-1]) in text.split()
    if len(pile) * 3 - 1 > width:
        assert text.endswith(f" ({size})") and " .. " in text


@settings(max_examples=200)
@given(sizes=st.lists(st.integers(0, 13), min_size=8, max_size=8), seed=st.integers(0, 10**6), stock=st.integers(0, 52))
def test_the_piles_fit_80_columns_whatever_their_lengths(sizes: list[int], seed: int, stock: int) -> None:
    rng = random.Random(seed)
    piles = tuple(tuple(rng.randrange(52) for _ in range(n)) for n in sizes)
    lines = draw_piles(piles, f"Stock: {stock}").splitlines()
    assert len(lines) == 3 and all(len(line) <= WIDTH for line in lines)
    for name in ("N", "E", "S", "W", "NE", "SE", "SW", "NW"):
        assert re.search(rf"(^|\s){name} ", "\n".join(lines)), name


def _fits(lines: list[str]) -> None:
    assert len(lines) <= HEIGHT - 1, "\n".join(lines)
    assert all(visible_width(paint(line)) <= WIDTH for line in lines), "\n".join(lines)


def test_the_screen_fits_80x24_at_every_table_size_over_many_seeded_hands() -> None:
    """2, 3 and 4 players, every rule set, the human playing at random: each screen, with the messages it shows."""
    screens = 0
    for seed in range(48):
        players, rules = 2 + seed % 3, parse_corner_rules(RULE_TEXTS[seed % len(RULE_TEXTS)])
        table = Table(seed, players, "greedy", rules, match=seed % 4 == 0)
        rng = random.Random(seed)
        messages = table.advance()
        for _ in range(300):
            if table.game_over:
                break
            _fits(table.screen(messages))
            _fits(table.screen([*messages, *table.command("help").lines, *table.command("moves").lines]))
            screens += 1
            if table.hand_over:
                messages = table.command("").lines
                continue
            moves = table.position.legal_moves()
            messages = table.command(str(rng.randrange(len(moves)) + 1) if rng.random() < 0.7 else "end").lines
        _fits(table.screen(messages))
    assert screens > 1_000


def test_the_largest_table_fits() -> None:
    """Every pile thirteen cards long, a hand of 41 cards, and four players' hands shown at the end."""
    pile = tuple(range(13, 26))
    hands = (tuple(range(41)), tuple(range(3)), (), tuple(range(27)))
    for over in (False, True):
        position = Position(CornerRules(), (pile,) * 8, hands, tuple(range(34)), over=over)
        table = Table(0, 4, "greedy", CornerRules(), match=True)
        table.position = position
        _fits(table.screen(["x" * 300] * 40))
        assert table.screen(["a message"])[-2] == "a message" or over


def test_help_fits_the_screen_unwrapped() -> None:
    lines = Table(0, 4, "greedy", CornerRules()).command("help").lines
    assert all(len(line) <= WIDTH for line in lines) and len(lines) <= 11


def test_the_score_table_keeps_to_its_rows() -> None:
    names = ["You", "Player 2", "Player 3", "Player 4"]
    points = [(p, 2 * p, 0, 1) for p in range(30)]
    rows = score_table(names, points, 50)
    assert len(rows) <= 12 and all(len(r) <= WIDTH for r in rows)
    assert rows[1].split() == ["1-22", str(sum(range(22))), str(2 * sum(range(22))), "0", "22"]
    assert rows[-2].split() == ["Total", str(sum(range(30))), str(2 * sum(range(30))), "0", "30"]


# the table as plain Python


def test_the_card_drawn_is_named() -> None:
    for rules in ("default", "draw=start", "until_play=yes"):
        told = 0
        for seed in range(3, 13):
            table = Table(seed, 2, "greedy", parse_corner_rules(rules))
            table.advance()
            hand = set(table.position.hands[table.me])
            lines = table.command("end").lines
            if table.hand_over:
                continue
            drawn = [line for line in lines if line.startswith("You drew ")]
            gained = set(table.position.hands[table.me]) - hand
            assert gained and drawn == [f"You drew {' '.join(card_text(x) for x in sorted(gained))}."], (rules, lines)
            told += 1
        assert told >= 5


def test_every_bot_turn_is_told_once_passes_included() -> None:
    passes = 0
    for seed in range(6):
        table = Table(seed, 4, "greedy", CornerRules())
        lines = table.advance()
        for _ in range(40):
            if table.hand_over:
                break
            lines += pass_turn(table)
        told = [line for line in lines if re.match(r"Player [234]: ", line)]
        ends = sum(1 for m in table.moves if m == END)
        human_ends = sum(1 for i, m in enumerate(table.moves) if m == END and _mover(table, i) == table.me)
        assert len(told) == ends - human_ends + (table.hand_over and table.position.winner not in (None, table.me))
        passes += sum("passed" in line for line in told)
    assert passes > 0


def pass_turn(table: Table) -> list[str]:
    """End the turn; where the rules forbid it (the stock empty and a move open), make the first legal move."""
    lines = table.command("end").lines
    return table.command("1").lines if lines[:1] and lines[0].startswith("Not allowed: end") else lines


def _mover(table: Table, index: int) -> int:
    """Who made move ``index`` of the hand in play."""
    position = deal_hand(seeded_deck(table.deal_number), table.players, table.rules)
    for move in table.moves[:index]:
        position = position.play(move)
    return position.player


def test_moves_lists_the_engines_legal_moves_and_a_number_plays_one() -> None:
    table = Table(3, 4, "greedy", CornerRules())
    table.advance()
    legal = table.position.legal_moves()
    lines = Table(7, 4, "greedy", CornerRules()).command("moves").lines
    assert lines == [
        "Moves:   1: play KH NE   2: play KH SE   3: play KH SW   4: play KH NW",
        "         5: play TC E   6: end",
    ]  # the entries line up under one another
    listed = " ".join(table.command("MOVES").lines)
    assert re.findall(r"(\d+): ((?:play|merge|under) \w+ \w+|end)", listed) == [
        (str(n), str(m)) for n, m in enumerate(legal, start=1)
    ]
    before = table.position
    assert table.command("1").redraw and table.position == before.play(legal[0])
    assert table.command(str(len(legal) + 5)).lines[0].startswith("There are only ")


def test_undo_takes_back_the_turns_moves_and_no_more() -> None:
    table = Table(3, 4, "greedy", CornerRules())
    table.advance()
    start, moves = table.position, list(table.moves)
    assert table.command("undo").lines == ["Nothing to undo this turn."]
    table.command("play 8S S")
    table.command("KD ne")
    assert table.command("Undo").lines == ["Took back play KD NE."]
    assert table.command("undo").lines == ["Took back play 8S S."]
    assert table.position == start and table.moves == moves
    table.command("end")
    assert table.command("undo").lines == ["Nothing to undo this turn."]


def test_undo_stops_at_the_cards_drawn_on_running_out() -> None:
    """Under draw_three a player who runs out with a side spot open draws three: those cards stay seen."""
    rules = parse_corner_rules("draw_three=yes+hand_size=1")
    for seed in range(200):
        table = Table(seed, 2, "greedy", rules)
        table.advance()
        if table.hand_over:
            continue
        plays = [m for m in table.position.legal_moves() if m != END]
        after = [table.position.play(m) for m in plays]
        going = [m for m, a in zip(plays, after) if not a.over and len(a.hands[table.me]) == 3]
        if going:
            lines = table.command(str(going[0])).lines
            assert lines[0].startswith("You drew ") and lines[1] == "Undo stops at a draw."
            assert table.command("undo").lines == ["Nothing to undo this turn."]
            return
    pytest.fail("no deal where the human runs out with a side spot open")


def test_a_match_is_scored_hand_by_hand_until_the_target() -> None:
    table = Table(6, 3, "greedy", CornerRules(), match=True)
    lines = table.advance()
    leads = []
    while not table.game_over:
        if table.hand_over:
            reply = table.command("")
            leads.append(reply.lines[0])
            lines += reply.lines
        else:
            lines += pass_turn(table)
    hands = len(table.points)
    assert hands >= 2 and max(table.totals) >= 50 > max(sum(p[s] for p in table.points[:-1]) for s in range(3))
    assert leads == [
        f"Hand {h + 1}: " + ("You lead." if h % 3 == 0 else f"Player {h % 3 + 1} leads.") for h in range(1, hands)
    ]
    for number, moves in enumerate(table.past):  # every hand replays from its deal number
        position = deal_hand(seeded_deck(6 + number), 3, table.rules)
        for move in moves:
            position = position.play(move)
        lead = number % 3
        assert position.over
        assert table.points[number] == tuple(position.penalties()[(p - lead) % 3] for p in range(3))
    assert lines.count("Hand         You  Player 2  Player 3") == hands
    winner = min(range(3), key=lambda p: table.totals[p])
    assert lines[-1] == f"Player {winner + 1} wins the game with the lowest total, {table.totals[winner]} points."


def test_the_end_of_each_hand_shows_the_score_table_and_what_comes_next_at_four_players() -> None:
    """At four players the hands shown at the end leave few lines: the turns told before the outcome give way,
    and the table sums its oldest hands, so the totals and the next step (or the game's result) stay on screen."""
    record = "The record of hand 9 is in /tmp/a/folder/with/a/long/name/so/that/this/line/wraps/hand-9.json."
    ends = 0
    for seed in range(3):
        table = Table(seed * 7, 4, "greedy", CornerRules(), match=True)
        rng = random.Random(seed)
        messages = table.advance()
        while True:
            if table.hand_over:
                ends += 1
                for shown in (table.screen([*messages, record]), table.screen(table.command("scores").lines)):
                    _fits(shown)
                    assert any(line.startswith("Total ") for line in shown), "\n".join(shown)
                last = table.screen([*messages, record])
                assert last[-3:-1] == ["The record of hand 9 is in", "  " + record.split(" in ")[1]]
                assert any(line.startswith(("Penalty points this hand: ", "Impasse")) for line in last)
                if table.game_over:
                    assert any(" wins the game" in line or "a tie" in line for line in last), "\n".join(last)
                    break
                assert "Press Enter for the next hand." in last, "\n".join(last)
                messages = table.command("").lines
                continue
            moves = table.position.legal_moves()
            messages = table.command(str(rng.randrange(len(moves)) + 1) if rng.random() < 0.7 else "end").lines
    assert ends > 6


def test_between_hands_only_the_table_commands_work() -> None:
    table = Table(5, 2, "greedy", CornerRules(), match=True)
    table.advance()
    while not table.hand_over:
        pass_turn(table)
    assert table.command("end").lines == ["The hand is over: press Enter for the next hand, or type 'quit'."]
    assert table.command("scores").lines[0].split() == ["Hand", "You", "Player", "2"]
    assert table.command("next").lines[0] == "Hand 2: Player 2 leads."


# the command line


def test_a_hand_at_the_table_with_help_hint_mistakes_and_a_record(tmp_path: Path) -> None:
    saved = tmp_path / "hand.json"
    commands = "help\nhint\nplay ZZ N\nmerge N N\n\n" + "END\n1\n" * 300
    result = run("corner", "play", "--seed", "3", "--record", str(saved), input=commands)
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert "Commands (upper or lower case); piles: " in out and "Hint (the turn solver's best line): " in out
    assert "Not a command or a move: 'play ZZ N' (type 'help')." in out
    assert "Not allowed: merge N N: a pile cannot move onto itself." in out
    assert "You drew " in out and re.search(r"went out|Impasse", out)
    assert f"The record of hand 1 is in {saved}." in " ".join(out.split())  # wrapped at 80 columns
    assert run("corner", "verify", str(saved)).exit_code == 0


def test_a_bare_enter_shows_the_table_again() -> None:
    out = run("corner", "play", "--seed", "3", input="\n\nquit\n").stdout
    assert out.count("Your hand (7): ") == 3 and "Not " not in out


def test_quit_and_the_end_of_input_write_the_hand_so_far(tmp_path: Path) -> None:
    first = deal_hand(seeded_deck(3), 3).legal_moves()[0]
    for ending in ("quit\n", ""):
        path = tmp_path / f"so-far{len(ending)}.json"
        out = run(
            "corner", "play", "--seed", "3", "--players", "3", "--record", str(path), input="1\nend\nend\n" + ending
        ).stdout
        assert f"The record of hand 1 so far (unfinished) is in {path}." in " ".join(out.split())
        assert out.rstrip().endswith("Bye.")
        record = parse_corner_record(path.read_text())
        replayed = replay_corner(record)
        assert replayed.error is None and not replayed.final.over
        assert record.result is not None and record.result["over"] is False
        assert record.moves[0] == first and sum(m == END for m in record.moves) == 3 * (2 + (first == END))
        verdict = run("corner", "verify", str(path))
        assert verdict.exit_code == 1 and verdict.stdout.startswith("unfinished after ")


def test_colour_follows_the_flag_and_no_color() -> None:
    painted = run("corner", "play", "--seed", "3", "--color", input="quit\n").stdout
    assert "\x1b[31mAH\x1b[0m" in painted and "\x1b[31m6S" not in painted
    assert "\x1b[" not in run("corner", "play", "--seed", "3", input="quit\n").stdout
    assert "\x1b[" not in run("corner", "play", "--seed", "3", input="quit\n", env={"NO_COLOR": "1"}).stdout


def test_save_and_resume_give_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    script = "play 8S S\nend\nend\n"
    run("corner", "play", "--seed", "3", "--players", "4", "--match", input=script + f"save {path}\nquit\n")
    data = json.loads(path.read_text())
    assert data["format"] == "kcsolve-corner-save/1" and data["match"] is True and len(data["hands"]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    resumed = run("corner", "play", str(path), input="end\nend\nquit\n").stdout
    direct = run("corner", "play", "--seed", "3", "--players", "4", "--match", input=script + "end\nend\nquit\n").stdout
    assert resumed.split("> ")[-1] == direct.split("> ")[-1]
    assert resumed.split("> ")[-2] == direct.split("> ")[-2]
    saved = parse_saved(path.read_text())
    assert saved.players == 4 and saved.bots == "greedy" and next(str(m) for m in saved.hands[0]) == "play 8S S"


def test_a_game_saved_between_hands_resumes_with_the_next_hand(tmp_path: Path) -> None:
    path = tmp_path / "between.json"
    run("corner", "play", "--seed", "5", "--match", input="END\n1\n" * 300 + f"save {path}\nquit\n")
    data = json.loads(path.read_text())
    assert len(data["hands"]) >= 1
    resumed = run("corner", "play", str(path), input="scores\nquit\n").stdout
    assert f"Hand {len(data['hands']) + 1}, deal {5 + len(data['hands'])}" in resumed


def _save(**changes: object) -> dict:
    table = Table(3, 2, "greedy", CornerRules(), match=True)
    table.advance()
    table.command("play 8S S")
    data = table.saved().to_json()
    data.update(changes)
    return data


BAD_BOTS = "'bots' must be one of random, greedy, turn, search, or one a seat besides yours joined with commas, not "


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "kcsolve-corner-save/9"}, "format 'kcsolve-corner-save/9' is not 'kcsolve-corner-save/1'"),
        ({"game": "chess"}, "game 'chess' is not 'kings-corner'"),
        ({"seed": -1}, "'seed' must be a deal number from 0 to 2**64-1, not -1"),
        ({"seed": True}, "'seed' must be a deal number from 0 to 2**64-1, not True"),
        ({"players": 5}, "'players' must be 2, 3 or 4, not 5"),
        ({"bots": "wizard"}, BAD_BOTS + "'wizard'"),
        ({"bots": ["greedy"]}, BAD_BOTS + "['greedy']"),
        ({"bots": {"greedy": 1}}, BAD_BOTS + "{'greedy': 1}"),
        ({"match": "yes"}, "'match' must be true or false, not 'yes'"),
        ({"hands": []}, "'hands' must be a list of 1 to 10,000 lists of moves"),
        (
            {"hands": [["fly away"]]},
            "hand 1, move 1: not a move: 'fly away' (moves: 'play QH N', 'merge S N', 'under 9H W', 'end')",
        ),
        ({"hands": [["play 2C N"]]}, "hand 1, move 1: play 2C N: 2C is not in the hand"),
        ({"hands": [["end"], ["end"]]}, "hand 1 is not over, yet another hand follows it"),
        ({"hands": [["end"], ["end"]], "match": False}, "'hands' must be a list of 1 to 1 lists of moves"),
        ({"cheat": 1}, "unknown field 'cheat' (fields: format, game, seed, players, bots, rules, match, hands)"),
        ({"rules": {"draw": "sideways"}}, "rule 'draw' takes end or start, not 'sideways'"),
    ],
)
def test_a_damaged_save_is_one_line_and_exit_2(tmp_path: Path, changes: dict, message: str) -> None:
    path = write(tmp_path, _save(**changes))
    assert_bad_input(run("corner", "play", path, input="quit\n"), f"{str(path)!r}: {message}")


def test_hostile_save_files_are_refused_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "[" * 100_000, "deep.json")
    assert_bad_input(run("corner", "play", path), f"{str(path)!r}: not valid JSON: nested too deeply")
    path = write(tmp_path, "x" * 1_000_001, "big.json")
    assert_bad_input(run("corner", "play", path), None)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert_bad_input(run("corner", "play", str(binary)), None)
    assert_bad_input(run("corner", "play", write(tmp_path, "[1, 2]", "list.json")), None)
    assert_bad_input(run("corner", "play", str(tmp_path / "absent.json")), None)
    path = write(tmp_path, _save(), "good.json")
    assert_bad_input(
        run("corner", "play", path, "--players", "3"),
        "a saved game keeps its own deal, players, bots and rules: leave out --players",
    )


def test_bad_options_are_one_line() -> None:
    assert_bad_input(
        run("corner", "play", "--record", "/nonexistent/hand.json"),
        "cannot write the record to '/nonexistent/hand.json': its folder does not exist",
    )
    assert_bad_input(run("corner", "play", "--players", "5"), "Kings Corner is for 2 to 4 players, not 5")
    assert_bad_input(
        run("corner", "play", "--bots", "wizard"), "unknown bot 'wizard' (bots: random, greedy, turn, search)"
    )
    assert_bad_input(
        run("corner", "play", "--rules", "draw=sideways"), "option 'draw' takes end or start, not 'sideways'"
    )


def test_a_record_path_without_a_file_name_is_refused_before_the_game() -> None:
    assert_bad_input(
        run("corner", "play", "--seed", "1", "--record", "", input="quit\n"),
        "--record '': the value is empty; give one, or leave --record out",
    )
    assert_bad_input(
        run("corner", "play", "--seed", "1", "--record", "hands/", input="quit\n"),
        "--record needs a file name, not 'hands/'",
    )


def _unwritable(result: Result, message: str) -> None:
    """The game went on stdout, then one error line and exit 2."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr == f"Error: {shorten(message)}\n"


def test_a_record_that_cannot_be_written_is_an_error_after_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(path: str, text: str) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("kcsolve.cli.corner.loop.write_atomically", full)
    path = str(tmp_path / "hand.json")
    result = run("corner", "play", "--seed", "3", "--record", path, input="quit\n")
    _unwritable(
        result,
        f"cannot write the record to {path!r}: No space left on device; the game was played but hand 1 is not recorded",
    )
    assert result.stdout.rstrip().endswith("Bye.")
    result = run("corner", "play", "--seed", "3", "--record", path, input="END\n1\n" * 300)
    _unwritable(
        result,
        f"cannot write the record to {path!r}: No space left on device; the game was played but hand 1 is not recorded",
    )
    assert re.search(r"went out|Impasse", result.stdout) and "The record of" not in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_later_hands_record_that_cannot_be_written_stops_the_match(tmp_path: Path) -> None:
    (tmp_path / "hand-2.json").mkdir()
    path = tmp_path / "hand.json"
    result = run("corner", "play", "--seed", "5", "--match", "--record", str(path), input="END\n1\n" * 300 + "\nquit\n")
    _unwritable(
        result,
        f"cannot write the record to {str(tmp_path / 'hand-2.json')!r}: not a regular file; the game "
        "was played but hand 2 is not recorded",
    )
    assert f"The record of hand 1 is in {path}." in " ".join(result.stdout.split())
    assert result.stdout.rstrip().endswith("Bye.")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand-2.json", "hand.json"]


def test_going_out_under_tie_says_the_others_have_a_last_turn() -> None:
    rules = parse_corner_rules("tie=yes")
    table = Table(0, 2, "greedy", rules)
    cards = [card_int(parse_card(t)) for t in ("9D", "5C", "8S", "4H", "KS", "QS")]
    table.position = Position(
        rules, ((cards[0],), (cards[1],), (), (), (), (), (), ()), ((cards[2],), (cards[3],)), (cards[4], cards[5])
    )
    table.sizes, table.seen = [1, 1], {cards[2]}  # each hand as last told
    lines = table.command("8s n").lines
    assert lines[0] == "You went out: each other player has one last turn to go out too and tie."
    assert lines[1] == "Player 2: play 4H E." and lines[2] == "You and Player 2 went out (a tie)."


def test_in_a_match_you_are_player_1_in_every_hands_record(tmp_path: Path) -> None:
    """A match's records keep one number a person: you are player 1 in hand 2 too, which player 2 leads."""
    table = Table(6, 3, "greedy", CornerRules(), match=True)
    table.advance()
    while not table.hand_over:
        pass_turn(table)
    path = tmp_path / "hand.json"
    assert _keep_record(table, str(path), set(), [], False) == [f"The record of hand 1 is in {path}."]
    table.command("")
    assert _keep_record(table, str(path), set(), [], False) == [
        f"The record of hand 2 so far (unfinished) is in {tmp_path / 'hand-2.json'}."
    ]
    record = parse_corner_record((tmp_path / "hand-2.json").read_text())
    assert record.players == 3 and table.me == 2 and record.lead == 1 and record.person(table.me) == 0
    first = parse_corner_record(path.read_text())
    assert first.lead == 0 and first.result is not None
    assert first.result["penalties"][0] == table.points[0][0]  # yours, as the score table has them


def test_help_at_the_table_points_to_the_guide() -> None:
    table = Table(1, 2, "greedy", parse_corner_rules(""))
    assert table.command("help").lines[-1].endswith("How to play: corner rules --how")


@pytest.mark.parametrize("rules", ["draw=start", "until_play=yes", "default"])
def test_a_bots_summary_tells_its_draw_in_the_order_it_came(rules: str) -> None:
    """Under draw=start (and the drawing until a card plays) a bot draws before its moves, so the summary says so
    first; under the default it draws after them."""
    said = 0
    for seed in range(12):
        table = Table(seed, 3, "greedy", parse_corner_rules(rules))
        lines: list[str] = []
        for line in [*table.advance(), *table.command("end").lines]:  # a wrapped line goes on indented
            lines += [line] if not line.startswith("    ") else [lines.pop() + " " + line.strip()]
        for line in lines:
            if re.match(r"Player \d: .*play .*drew", line) or re.match(r"Player \d: drew .*play ", line):
                first = line.split(": ", 1)[1]
                assert first.startswith("drew") == (rules != "default"), line
                said += 1
    assert said >= 2


def test_the_bots_can_be_named_one_a_seat() -> None:
    table = Table(3, 4, "greedy,search,turn", parse_corner_rules(""))
    assert [bot.name for bot in table.bots[1:]] == ["greedy", "search", "turn"]
    assert "against greedy (player 2), search (player 3), turn (player 4)." in table.opening()[0]
    assert parse_saved(json.dumps(table.saved().to_json())).bots == "greedy,search,turn"
    assert Table.resume(parse_saved(json.dumps(table.saved().to_json()))).bot_names == ("greedy", "search", "turn")
    result = run("corner", "play", "--seed", "3", "--bots", "greedy,search,turn", "--plain", input="quit\n")
    assert result.exit_code == 0 and result.stdout.startswith("Kings Corner, deal 3, 4 players, rules default:")
    assert_bad_input(
        run("corner", "play", "--bots", "", input="quit\n"),
        "--bots '': the value is empty; give one, or leave --bots out",
    )
    assert_bad_input(
        run("corner", "play", "--bots", " ", input="quit\n"),
        "--bots needs a bot name (random, greedy, turn, search), not ' '",
    )
    assert_bad_input(
        run("corner", "play", "--bots", "greedy,turn", "--players", "4", input="quit\n"),
        "2 bots named for 3 seats besides yours in 'greedy,turn': name one for all or one for each",
    )
    assert_bad_input(
        run("corner", "play", "--bots", "greedy,grdy", "--players", "3", input="quit\n"),
        "unknown bot 'grdy' (bots: random, greedy, turn, search)",
    )
    assert "hand h of a match is deal N + h - 1" in " ".join(run("corner", "play", "--help").stdout.split())
