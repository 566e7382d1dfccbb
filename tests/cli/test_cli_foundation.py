"""The command line of the foundation: deal, replay, verify, --version, -h, and every bad-input path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clitools import assert_bad_input, make_runner, run, unwrapped, write

import kcsolve
from kcsolve.cli import cli
from kcsolve.common.cards import full_deck, parse_deck
from kcsolve.common.deal import deal

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SAMPLE = GOLDEN / "sample_game.json"
PACK = [str(c) for c in full_deck()]
COURTS = ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC", "JS", "JH", "JD", "JC"]
COURT_HOMES = ["a1", "d1", "a4", "d4", "b1", "c1", "b4", "c4", "a2", "a3", "d2", "d3"]
# Court cards on top: placing them in their homes wins at card 12 under standard rules.
COURTS_FIRST_DECK = COURTS + [c for c in PACK if c not in COURTS]


def won_record(**changes: object) -> dict:
    record = {
        "deck": COURTS_FIRST_DECK,
        "rules": "standard",
        "result": "win",
        "moves": [{"place": card, "cell": cell} for card, cell in zip(COURTS, COURT_HOMES, strict=True)],
    }
    record.update(changes)
    return record


# --- deal ------------------------------------------------------------------------------------


SEED_COMMENT = re.compile(r"^# kcsolve deal --seed (\d+)  \(first card = top of the stock\)$")


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1])
def test_deal_text_is_a_deck_file(seed: int) -> None:
    result = run("deal", "--seed", str(seed))
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert SEED_COMMENT.match(lines[0]).group(1) == str(seed)
    assert [len(line.split()) for line in lines[1:]] == [13, 13, 13, 13]
    assert parse_deck(result.stdout) == deal(seed)


def test_deal_text_is_the_default_format() -> None:
    assert run("deal", "--seed", "7").stdout == run("deal", "--seed", "7", "--format", "text").stdout


@pytest.mark.parametrize("seed", [0, 42, 2**64 - 1])
def test_deal_json(seed: int) -> None:
    result = run("deal", "--seed", str(seed), "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    assert data == {"seed": seed, "deck": [str(c) for c in deal(seed)]}
    assert parse_deck(result.stdout) == deal(seed)


def test_deal_without_seed_prints_a_random_seed_that_reproduces_the_deck() -> None:
    first = run("deal")
    assert first.exit_code == 0
    seed = int(SEED_COMMENT.match(first.stdout.splitlines()[0]).group(1))
    assert 0 <= seed < 2**64
    assert parse_deck(first.stdout) == deal(seed)
    assert run("deal", "--seed", str(seed)).stdout == first.stdout
    # two random deals are (all but surely) different
    second = run("deal")
    assert second.stdout != first.stdout


def test_deal_json_without_seed() -> None:
    data = json.loads(run("deal", "--format", "json").stdout)
    assert set(data) == {"seed", "deck"}
    assert 0 <= data["seed"] < 2**64
    assert data["deck"] == [str(c) for c in deal(data["seed"])]


# --- replay --------------------------------------------------------------------------------------


def test_replay_line_style(tmp_path: Path) -> None:
    result = run("replay", "--style", "line", write(tmp_path, won_record()))
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == (
        "1st deal: cards 1-12\nKQQK/J..J/J..J/KQQK\nWon: the twelfth court card was placed as card 12.\n"
    )


def test_replay_boxes_is_the_default_style(tmp_path: Path) -> None:
    path = write(tmp_path, won_record())
    boxes = run("replay", "--no-color", path)
    assert boxes.stdout == run("replay", "--no-color", "--style", "boxes", path).stdout
    assert "|KKK| |QQQ| |QQQ| |KKK|" in boxes.stdout
    assert "|JJJ| |   | |   | |JJJ|" in boxes.stdout
    assert boxes.stdout.rstrip("\n").splitlines()[-1] == "Won: the twelfth court card was placed as card 12."


def test_replay_colour(tmp_path: Path) -> None:
    """--color adds ANSI escapes (seen here through a runner that keeps them), --no-color never does."""
    path = write(tmp_path, won_record())
    runner = make_runner()
    coloured = runner.invoke(cli, ["replay", "--color", path], color=True)
    plain = runner.invoke(cli, ["replay", "--no-color", path], color=True)
    assert coloured.exit_code == plain.exit_code == 0
    assert "\x1b[1;33mKKK\x1b[0m" in coloured.stdout
    assert "\x1b[1;35mQQQ\x1b[0m" in coloured.stdout
    assert "\x1b[1;36mJJJ\x1b[0m" in coloured.stdout
    assert "\x1b[" not in plain.stdout
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured.stdout) == plain.stdout
    # off by default when the output is not a terminal
    assert "\x1b[" not in runner.invoke(cli, ["replay", path], color=True).stdout
    assert "\x1b[" not in runner.invoke(cli, ["replay", path], color=True, env={"NO_COLOR": "1"}).stdout
    # red number cards are coloured too, black ones are not
    hearts = PACK[13:26] + PACK[:13] + PACK[26:]
    red = write(tmp_path, {"deck": hearts, "moves": [{"place": "AH", "cell": "b2"}]}, "red.json")
    assert "\x1b[1;31mA\x1b[0m" in runner.invoke(cli, ["replay", "--color", red], color=True).stdout
    black = write(
        tmp_path, {"deck": PACK, "moves": [{"place": "AS", "cell": "a1"}, {"place": "2S", "cell": "b1"}]}, "black.json"
    )
    assert "\x1b[" not in runner.invoke(cli, ["replay", "--color", black], color=True).stdout


def test_replay_color_flag_forces_colour_into_a_pipe(tmp_path: Path) -> None:
    result = run("replay", "--color", write(tmp_path, won_record()))  # the runner's stdout is no terminal
    assert result.exit_code == 0
    assert "\x1b[" in result.stdout


def test_replay_rules_option(tmp_path: Path) -> None:
    result = run("replay", "--style", "line", "--rules", "deplete", write(tmp_path, won_record()))
    assert result.exit_code == 1  # unfinished: replay exits like verify
    assert result.stdout.splitlines()[-1] == "Unfinished: card 13 (AS) is next."


def test_replay_illegal_move_exits_1(tmp_path: Path) -> None:
    moves = won_record()["moves"]
    moves[2] = {"place": "KD", "cell": "b2"}
    result = run("replay", "--style", "line", write(tmp_path, won_record(moves=moves)))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "Illegal move 3: place KD in b2: a King may not go there."


def test_replay_of_a_record_without_moves(tmp_path: Path) -> None:
    result = run("replay", write(tmp_path, {"deck": PACK, "moves": []}))
    assert result.exit_code == 1
    assert result.stdout == "Unfinished: card 1 (AS) is next.\n\n"
    assert run("verify", write(tmp_path, {"deck": PACK, "moves": []})).exit_code == 1


def test_replay_of_a_lost_record_exits_1_like_verify(tmp_path: Path) -> None:
    from kcsolve.common.deal import deal
    from kcsolve.patience.solve.route import solve

    record = solve(deal(5747)).record().to_json()  # jams at card 16: the record ends lost
    path = write(tmp_path, record)
    told = run("replay", "--style", "line", path)
    assert told.exit_code == 1 and told.stderr == ""
    assert told.stdout.splitlines()[-1].startswith("Lost: ")
    assert run("verify", path).exit_code == 1


# --- verify ----------------------------------------------------------------------------------------


def test_verify_won_record_exits_0(tmp_path: Path) -> None:
    result = run("verify", write(tmp_path, won_record()))
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == "won: the twelfth court card was placed as card 12\n"


def test_verify_trusts_the_moves_not_the_claim(tmp_path: Path) -> None:
    result = run("verify", write(tmp_path, won_record(result="loss")))
    assert result.exit_code == 0
    assert result.stdout == "won: the twelfth court card was placed as card 12 (the record claims 'loss')\n"
    result = run("verify", write(tmp_path, won_record(result="unknown"), "unknown.json"))
    assert result.exit_code == 0
    assert result.stdout == "won: the twelfth court card was placed as card 12\n"


def test_verify_lost_record_exits_1(tmp_path: Path) -> None:
    result = run("verify", str(SAMPLE))
    assert result.exit_code == 1
    assert result.stdout == "lost: K drawn as card 40 with no free corner\n"
    data = json.loads(SAMPLE.read_text())
    data["result"] = "win"
    result = run("verify", write(tmp_path, data))
    assert result.exit_code == 1
    assert result.stdout == "lost: K drawn as card 40 with no free corner (the record claims 'win')\n"


def test_verify_unfinished_record_exits_1(tmp_path: Path) -> None:
    moves = won_record()["moves"][:3]
    result = run("verify", write(tmp_path, won_record(moves=moves, result="unknown")))
    assert result.exit_code == 1
    assert result.stdout == "unfinished: card 4 (KC) is next\n"
    result = run("verify", write(tmp_path, {"deck": PACK, "moves": []}, "empty.json"))
    assert result.exit_code == 1
    assert result.stdout == "unfinished: card 1 (AS) is next\n"
    # a solver's loss record may carry no moves: still not a win, and the claim is noted
    result = run("verify", write(tmp_path, {"deck": PACK, "result": "loss", "moves": []}, "loss.json"))
    assert result.exit_code == 1
    assert result.stdout == "unfinished: card 1 (AS) is next (the record claims 'loss')\n"


def test_verify_rules_option_overrides_the_record(tmp_path: Path) -> None:
    result = run("verify", "--rules", "deplete", write(tmp_path, won_record()))
    assert result.exit_code == 1
    assert result.stdout == "unfinished: card 13 (AS) is next (the record claims 'win')\n"


@pytest.mark.parametrize(
    "number, move, message",
    [
        (1, {"place": "KS", "cell": "b2"}, "place KS in b2: a King may not go there"),
        (5, {"place": "QS", "cell": "a2"}, "place QS in a2: a Queen may not go there"),
        (2, {"place": "KS", "cell": "d1"}, "place KS in d1: the next stock card is KH"),
        (2, {"place": "KH", "cell": "a1"}, "place KH in a1: the cell holds KS"),
        (7, {"remove": ["a1"]}, "remove a1: removal opens only when the grid is full"),
    ],
)
def test_verify_illegal_move_exits_1_naming_the_move(tmp_path: Path, number: int, move: dict, message: str) -> None:
    moves = won_record()["moves"]
    moves[number - 1] = move
    result = run("verify", write(tmp_path, won_record(moves=moves)))
    assert result.exit_code == 1 and result.stderr == ""
    assert result.stdout == f"illegal move {number}: {message}\n"


def test_verify_move_after_the_end_is_illegal(tmp_path: Path) -> None:
    moves = won_record()["moves"] + [{"place": "AS", "cell": "b2"}]
    result = run("verify", write(tmp_path, won_record(moves=moves)))
    assert result.exit_code == 1
    assert unwrapped(result.stdout) == [
        "illegal move 13: place AS in b2: the game is already won: the twelfth court card was placed as card 12"
    ]


def test_verify_reads_standard_input() -> None:
    result = run("verify", "-", input=json.dumps(won_record()))
    assert result.exit_code == 0
    assert result.stdout == "won: the twelfth court card was placed as card 12\n"


def test_verify_accepts_a_rank_only_record(tmp_path: Path) -> None:
    deck = [c[0] for c in COURTS_FIRST_DECK]
    moves = [{"place": card[0], "cell": cell} for card, cell in zip(COURTS, COURT_HOMES, strict=True)]
    result = run("verify", write(tmp_path, {"deck": deck, "moves": moves, "seed": 3, "stats": {"x": 1}}))
    assert result.exit_code == 0
    assert result.stdout == "won: the twelfth court card was placed as card 12\n"


# --- version and help ---------------------------------------------------------------------------------


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"kcsolve, version {kcsolve.__version__}\n"


COMMANDS = sorted(set(cli.commands) | {"deal", "replay", "verify"})


@pytest.mark.parametrize("flag", ["-h", "--help"])
@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_on_every_command(command: str | None, flag: str) -> None:
    args = [flag] if command is None else [command, flag]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "Usage:" in result.stdout
    assert "-h, --help" in result.stdout
    if command is None:
        for name in COMMANDS:
            assert name in result.stdout


# --- every bad-input path: exit 2 and one line on stderr --------------------------------------------------


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_missing_file(tmp_path: Path, command: str) -> None:
    path = str(tmp_path / "nowhere.json")
    assert_bad_input(run(command, path), f"cannot read {path!r}: No such file or directory")


@pytest.mark.parametrize("command", ["verify", "replay"])
def test_directory_instead_of_file(tmp_path: Path, command: str) -> None:
    assert_bad_input(
        run(command, str(tmp_path)), f"cannot read {str(tmp_path)!r}: it is a directory, not a regular file"
    )


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe{}")
    assert_bad_input(
        run("verify", str(path)),
        f"cannot read {str(path)!r}: it is UTF-16, not UTF-8 text",
    )


def good_record(**changes: object) -> dict:
    return won_record(**changes)


@pytest.mark.parametrize(
    "content, message",
    [
        (
            "deck: AS",
            "not a record: a record is a JSON object or one line of the notation 'KC1 DECK RULES MOVES';"
            " this starts 'deck: AS'",
        ),
        ("", "the file is empty"),
        ('{"deck": [\n', "not valid JSON (Expecting value at line 2)"),
        ("{'deck': []}", "not valid JSON (Expecting property name enclosed in double quotes at line 1)"),
        ('{"deck": ' + "[" * 100000, "not valid JSON (nested too deeply)"),
        ("[1, 2]", "a record must be a JSON object"),
        ('"AS"', "a record must be a JSON object"),
        ('{"rules": "standard", "moves": []}', "no 'deck' key"),
        ('{"deck": "AS 2S"}', "'deck' must be a list of card strings"),
        ('{"deck": [1, 2]}', "'deck' must be a list of card strings"),
    ],
)
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_unreadable_records(tmp_path: Path, command: str, content: str, message: str) -> None:
    path = write(tmp_path, content)
    if command == "verify" and content.startswith("["):  # verify reads a list as records, one by one
        message = f"game 1: {message}"
    assert_bad_input(run(command, path), f"{str(path)!r}: {message}")


def test_record_from_standard_input_is_named_stdin() -> None:
    assert_bad_input(run("verify", "-", input='{"moves": []}'), "<stdin>: no 'deck' key")
    assert_bad_input(
        run("replay", "-", input="nonsense"),
        "<stdin>: not a record: a record is a JSON object or one "
        "line of the notation 'KC1 DECK RULES MOVES'; this starts 'nonsense'",
    )


def deck_with(position: int, card: str) -> list[str]:
    deck = PACK.copy()
    deck[position - 1] = card
    return deck


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"deck": deck_with(2, "AS")}, "duplicate card 'AS' at positions 1 and 2"),
        ({"deck": deck_with(52, "10s")}, "duplicate card 'TS' at positions 10 and 52"),
        ({"deck": deck_with(3, "ZZ")}, "unknown card 'ZZ' at position 3"),
        ({"deck": deck_with(1, "\u212aS")}, "unknown card '\u212aS' at position 1"),
        ({"deck": PACK[:51]}, "deck has 51 cards, expected 52; missing KC"),
        ({"deck": deck_with(4, "4")}, "deck mixes suited and rank-only cards: card 4 is '4'"),
        ({"deck": ["K"] + [c[0] for c in PACK[1:]]}, "rank 'K' appears a fifth time at position 52"),
        ({"rules": "bogus"}, "unknown rule preset 'bogus' (kcsolve rules lists them)"),
        (
            {"rules": "deplete+goal=courts"},
            "rules 'deplete+goal=courts' set goal twice: 'deplete' and 'goal=courts' disagree",
        ),
        ({"rules": "goal=never"}, "unknown option 'never' for goal (options: courts, deplete, clear)"),
        ({"rules": 5}, "'rules' must be a string, got 5"),
        ({"rules": None}, "'rules' must be a string, got null"),
        ({"result": "won"}, "'result' must be one of win, loss, unknown, got 'won'"),
        ({"moves": {"place": "KS", "cell": "a1"}}, "'moves' must be a list"),
        ({"moves": [{"place": "KS", "cell": "z9"}]}, "move 1: not a cell: 'z9' (cells are a1..d4)"),
        (
            {"moves": [{"place": "KS", "cell": "a1"}, {"place": "KH", "cell": "e1"}]},
            "move 2: not a cell: 'e1' (cells are a1..d4)",
        ),
        ({"moves": [{"place": "KS", "cell": "a1"}, {"remove": ["a5"]}]}, "move 2: not a cell: 'a5' (cells are a1..d4)"),
        ({"moves": [{"place": "ZZ", "cell": "a1"}]}, "move 1: not a card: 'ZZ'"),
        ({"moves": [{"place": "1S", "cell": "a1"}]}, "move 1: not a card: '1S'"),
        (
            {"moves": [{"put": "KS", "cell": "a1"}]},
            'move 1: expected {"place": CARD, "cell": CELL} or {"remove": [CELLS]}, '
            'got \'{"put": "KS", "cell": "a1"}\'',
        ),
        (
            {"moves": [{"place": "KS"}]},
            'move 1: expected {"place": CARD, "cell": CELL} or {"remove": [CELLS]}, got \'{"place": "KS"}\'',
        ),
        (
            {"moves": [{"place": "KS", "cell": "a1", "remove": ["a1"]}]},
            'move 1: expected {"place": CARD, "cell": CELL} or {"remove": [CELLS]}, '
            'got \'{"place": "KS", "cell": "a1", "remove": ["a1"]}\'',
        ),
        (
            {"moves": [{"place": "KS", "cell": 1}]},
            'move 1: expected {"place": CARD, "cell": CELL} or {"remove": [CELLS]}, got \'{"place": "KS", "cell": 1}\'',
        ),
        (
            {"moves": [{"remove": []}]},
            'move 1: expected {"place": CARD, "cell": CELL} or {"remove": [CELLS]}, got \'{"remove": []}\'',
        ),
        (
            {"moves": [{"remove": "a1"}]},
            'move 1: expected {"place": CARD, "cell": CELL} or {"remove": [CELLS]}, got \'{"remove": "a1"}\'',
        ),
        (
            {"moves": ["place KS a1"]},
            'move 1: expected {"place": CARD, "cell": CELL} or {"remove": [CELLS]}, got \'"place KS a1"\'',
        ),
    ],
)
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_malformed_records(tmp_path: Path, command: str, changes: dict, message: str) -> None:
    path = write(tmp_path, good_record(**changes))
    assert_bad_input(run(command, path), f"{str(path)!r}: {message}")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bogus"], {"No such option '--bogus'.", "No such option: --bogus"}),
        (["deal", "--bogus"], {"No such option '--bogus'.", "No such option: --bogus"}),
        (["verify", "--bogus", "x.json"], {"No such option '--bogus'.", "No such option: --bogus"}),
        (["replay", "--colour", "x.json"], None),
        (["bogus"], {"No such command 'bogus'.", 'No such command "bogus".'}),
        (["deal", "--format", "xml"], None),
        (["replay", "--style", "grid", "x.json"], None),
        (["verify"], {"Missing argument 'RECORD.json'."}),
        (["replay"], {"Missing argument 'RECORD.json'."}),
        (["verify", "a.json", "b.json"], {"Got unexpected extra argument (b.json)"}),
        (["deal", "--seed"], {"Option '--seed' requires an argument."}),
    ],
)
def test_bad_usage(args: list[str], message: set[str] | None) -> None:
    result = run(*args)
    assert_bad_input(result, message)
    if message is None:
        assert result.stderr.startswith(("Error: Invalid value for '--", "Error: No such option"))
        assert args[-2] in result.stderr or args[-1] in result.stderr


@pytest.mark.parametrize(
    "seed, message",
    [
        ("-1", "seed must be between 0 and 2**64-1, got -1"),
        (str(2**64), f"seed must be between 0 and 2**64-1, got {2**64}"),
        ("abc", "Invalid value for '--seed': 'abc' is not a valid integer."),
        ("1.5", "Invalid value for '--seed': '1.5' is not a valid integer."),
        ("", "--seed '': the value is empty; give one, or leave --seed out"),
    ],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_bad_seed(seed: str, message: str, fmt: str) -> None:
    assert_bad_input(run("deal", "--seed", seed, "--format", fmt), message)


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "--seed", "x" * 100_000 + "END"],
        ["solve", "--rules", "y" * 100_000 + "END"],
        ["stats", "--count", "9" * 100_000 + "END"],
        ["deal", "--" + "z" * 100_000 + "END"],
    ],
)
def test_a_huge_culprit_is_shown_by_its_two_ends(args: list[str]) -> None:
    result = run(*args)
    assert_bad_input(result, None)
    line = result.stderr.rstrip("\n")
    assert len(line) <= 80 and "..." in line
    assert "END" in line.upper() and ("xxx" in line or "yyy" in line or "999" in line or "zzz" in line)


@pytest.mark.parametrize(
    "rules, message",
    [
        ("bogus", "unknown rule preset 'bogus' (kcsolve rules lists them)"),
        ("deplete+goal=courts", "rules 'deplete+goal=courts' set goal twice: 'deplete' and 'goal=courts' disagree"),
        ("colour=red", "unknown rule axis 'colour' (axes: removal, sets, courts, goal)"),
    ],
)
@pytest.mark.parametrize("command", ["verify", "replay"])
def test_bad_rules_option(tmp_path: Path, command: str, rules: str, message: str) -> None:
    assert_bad_input(run(command, "--rules", rules, write(tmp_path, won_record())), message)


def test_no_command_prints_help() -> None:
    result = run()
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "Commands:" in result.stdout
