"""Kings Corner records against their schema (docs/CORNER.md, format 2): ``verify`` exits 2 for a malformed record
and 1 for a wrong or illegal one, naming the culprit in one line; ``sim`` writes one meaning per field."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from clitools import assert_bad_input, run, unwrapped, write

from kcsolve.cli.base import Ticker
from kcsolve.common.words import plural
from kcsolve.corner.game.engine import card_text, seeded_deck
from kcsolve.corner.records.record import FIELDS, RECORD_FORMAT


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A whole hand from ``sim``: deal 5, two greedy players (player 1 goes out)."""
    result = run("corner", "sim", "--games", "1", "--seed", "5", "--format", "json")
    data = json.loads(result.stdout.splitlines()[0])
    assert data["result"]["winners"] == [0]
    return data


def changed(record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A copy of the record with some fields replaced."""
    return {**json.loads(json.dumps(record)), **fields}


def test_a_sim_record_has_one_meaning_per_field(record: dict[str, Any]) -> None:
    assert record["format"] == RECORD_FORMAT == "kcsolve-corner-record/2"
    assert record["game"] == "kings-corner" and record["players"] == 2 and record["index"] == 0
    assert record["bots"] == ["greedy", "greedy"] and list(record) == [f for f in FIELDS if f in record]
    assert set(record["result"]) == {"over", "winners", "penalties"}


def test_a_good_record_verifies(tmp_path: Path, record: dict[str, Any]) -> None:
    result = run("corner", "verify", write(tmp_path, record))
    assert result.exit_code == 0 and result.stdout.startswith(
        "player 1 went out; penalty points player 1: 0, player 2: "
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"result": ["over"]}, "'result' must be a JSON object, not a list"),
        ({"result": "win"}, "'result' must be a JSON object, not a string"),
        ({"game": "chess"}, "'game' must be 'kings-corner', not \"chess\""),
        ({"game": 3}, "'game' must be 'kings-corner', not 3"),
        (
            {"format": "kcsolve-corner-record/9"},
            "'format' must be 'kcsolve-corner-record/2', not \"kcsolve-corner-record/9\"",
        ),
        ({"players": "2"}, "'players' must be 2, 3 or 4, not \"2\""),
        ({"players": True}, "'players' must be 2, 3 or 4, not true"),
        ({"seed": "5"}, "'seed' must be a deal number from 0 to 2**64-1, not \"5\""),
        ({"seed": -1}, "'seed' must be a deal number from 0 to 2**64-1, not -1"),
        ({"index": 1.5}, "'index' must be a whole number from 0, not 1.5"),
        ({"bots": ["greedy"]}, "'bots' must be a list of 2 bot names, not [\"greedy\"]"),
        ({"bots": ["greedy", "wizard"]}, "'bots': unknown bot 'wizard' (bots: random, greedy, turn, search)"),
        ({"bots": ["Greedy", "greedy"]}, "'bots': unknown bot 'Greedy' (bots: random, greedy, turn, search)"),
        (
            {"seats": 2},
            'unknown field "seats" (fields: format, game, players, seed, index, bots, lead, rules, deck, '
            "moves, result)",
        ),
        ({"moves": "end"}, "'moves' must be a list of move texts"),
        ({"moves": ["jump"]}, "move 1: not a move: 'jump' (moves: 'play QH N', 'merge S N', 'under 9H W', 'end')"),
        ({"rules": {"under": 2}}, "rule 'under' takes no or yes or strict, not 2"),
    ],
)
def test_a_malformed_record_exits_2_naming_the_field(
    tmp_path: Path, record: dict[str, Any], fields: dict, message: str
) -> None:
    path = write(tmp_path, changed(record, **fields))
    assert_bad_input(run("corner", "verify", path), f"{str(path)!r}: {message}")


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"winners": True}, "result 'winners' must be a list of distinct seats 0 to 1, not true"),
        ({"winners": [2]}, "result 'winners' must be a list of distinct seats 0 to 1, not [2]"),
        ({"winners": [1, 1]}, "result 'winners' must be a list of distinct seats 0 to 1, not [1, 1]"),
        ({"winner": 1}, 'unknown result field "winner" (fields: over, winners, penalties)'),
        ({"over": "yes"}, "result 'over' must be true or false, not \"yes\""),
        ({"penalties": [0]}, "result 'penalties' must be a list of 2 whole numbers from 0, not [0]"),
        ({"penalties": [0, -3]}, "result 'penalties' must be a list of 2 whole numbers from 0, not [0, -3]"),
    ],
)
def test_a_malformed_result_exits_2(tmp_path: Path, record: dict[str, Any], result: dict, message: str) -> None:
    path = write(tmp_path, changed(record, result=result))
    assert_bad_input(run("corner", "verify", path), f"{str(path)!r}: {message}")


def test_a_record_that_is_not_an_object_or_misses_a_field_exits_2(tmp_path: Path, record: dict[str, Any]) -> None:
    path = write(tmp_path, [record])
    assert_bad_input(run("corner", "verify", path), f"{str(path)!r}: a record must be a JSON object, not a list")
    path = write(tmp_path, {k: v for k, v in record.items() if k != "deck"}, "nodeck.json")
    assert_bad_input(run("corner", "verify", path), f"{str(path)!r}: the field 'deck' is missing")


def test_a_deal_number_that_does_not_give_the_deck_exits_1(tmp_path: Path, record: dict[str, Any]) -> None:
    result = run("corner", "verify", write(tmp_path, changed(record, seed=6)))
    assert result.exit_code == 1 and card_text(seeded_deck(6)[0]) != "8C"
    assert result.stdout == f"deal number 6 does not give this deck: card 1 is {card_text(seeded_deck(6)[0])}, not 8C\n"


def test_an_illegal_move_exits_1_naming_it(tmp_path: Path, record: dict[str, Any]) -> None:
    moves = ["play KD NE", *record["moves"]]
    result = run("corner", "verify", write(tmp_path, changed(record, moves=moves)))
    assert result.exit_code == 1
    assert result.stdout == "illegal move 1 (player 1): play KD NE: KD is not in the hand\n"


@pytest.mark.parametrize(
    ("result", "said"),
    [
        ({"winners": [1]}, "the record claims player 2 went out; the replay gives player 1 went out"),
        ({"winners": []}, "the record claims no winner; the replay gives player 1 went out"),
        ({"over": False}, "the record claims the hand not over; the replay gives the hand over"),
    ],
)
def test_a_wrong_result_exits_1(tmp_path: Path, record: dict[str, Any], result: dict, said: str) -> None:
    verdict = run("corner", "verify", write(tmp_path, changed(record, result={**record["result"], **result})))
    assert verdict.exit_code == 1 and verdict.stdout == said + "\n"


def test_wrong_penalties_exit_1(tmp_path: Path, record: dict[str, Any]) -> None:
    points = record["result"]["penalties"]
    verdict = run(
        "corner",
        "verify",
        write(tmp_path, changed(record, result={**record["result"], "penalties": [0, points[1] + 1]})),
    )
    assert verdict.exit_code == 1
    assert unwrapped(verdict.stdout) == [
        f"the record claims penalty points player 1: 0, player 2: {points[1] + 1}; "
        f"the replay gives penalty points player 1: 0, player 2: {points[1]}"
    ]


def test_a_format_1_record_is_still_read(tmp_path: Path, record: dict[str, Any]) -> None:
    """Format 1 wrote 'winner', and sim wrote the game's index as 'game' and the bots as 'seats'."""
    old = {k: v for k, v in record.items() if k not in ("index", "bots", "game")}
    old.update(
        format="kcsolve-corner-record/1",
        game=0,
        seats=["greedy", "greedy"],
        rules={**record["rules"], "under": False},
        result={"over": True, "winner": 0, "penalties": record["result"]["penalties"]},
    )
    for key in ("draw_two", "tie"):
        del old["rules"][key]
    assert run("corner", "verify", write(tmp_path, old)).exit_code == 0
    lying = {**old, "result": {**old["result"], "winner": True}}
    path = write(tmp_path, lying, "lying.json")
    assert_bad_input(run("corner", "verify", path), f"{str(path)!r}: result 'winner' must be a seat or null, not true")


def test_match_lines_and_the_summary_say_one_thing_a_field() -> None:
    result = run("corner", "sim", "--match", "--games", "2", "--bots", "greedy,random", "--format", "json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [set(line) for line in lines[:-1]] == [
        {"format", "game", "players", "index", "bots", "rules", "hands", "result"}
    ] * 2
    assert {line["format"] for line in lines[:-1]} == {"kcsolve-corner-game/2"}
    summary = lines[-1]
    assert summary["unit"] == "game" and summary["players"] == 2 and "seats" not in summary
    assert len(summary["seat_wins"]) == 2 and sum(summary["bot_seats"].values()) == 4


def test_sim_labels_a_single_hand_without_rates_or_intervals() -> None:
    result = run("corner", "sim", "--games", "1", "--seed", "5")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "1 hand, 2 players, bots greedy, rules default, deals 5..5",
        "  greedy in every seat",
        "  seat 1 (plays first): won 1 of 1 hand",
        "  seat 2: won 0 of 1 hand",
    ]


def test_sim_gives_no_interval_to_a_bot_that_plays_itself() -> None:
    """Two bots at three seats: one of them sits twice at every hand, so its seats are not independent games."""
    text = run("corner", "sim", "--players", "3", "--bots", "greedy,turn", "--games", "4").stdout
    lines = text.replace("\n    ", " ").splitlines()  # long lines are wrapped at 80 columns
    bot_lines = [line for line in lines if line.startswith(("  greedy ", "  turn "))]
    assert len(bot_lines) == 2 and max(map(len, text.splitlines())) <= 80
    assert all("it sat twice at some hands, so no interval" in line and "95%" not in line for line in bot_lines)
    assert all("95%" in line for line in lines if line.startswith("  seat "))


def test_sim_json_gives_intervals_only_where_they_are_intervals() -> None:
    """As in the text: none for a single game, none for a bot that sits twice at a game; else [low, high]."""

    def summary(*arguments: str) -> dict[str, Any]:
        result = run("corner", "sim", "--format", "json", *arguments)
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout.splitlines()[-1])

    single = summary("--games", "1")
    assert single["bot_win_interval"] == {"greedy": None} and single["seat_win_interval"] == [None, None]
    twice = summary("--games", "3", "--players", "3", "--bots", "greedy,turn")
    assert twice["bot_win_interval"] == {"greedy": None, "turn": None}
    assert all(len(interval) == 2 for interval in twice["seat_win_interval"])
    apart = summary("--games", "3", "--bots", "greedy,turn")
    for name in ("greedy", "turn"):
        low, high = apart["bot_win_interval"][name]
        assert low <= apart["bot_win_rate"][name] <= high


def test_sim_match_labels_count_games_and_the_lead() -> None:
    lines = run("corner", "sim", "--match", "--games", "3", "--bots", "greedy,random").stdout.splitlines()
    assert lines[:2] == [
        "3 games to 50 penalty points, 2 players, bots greedy, random, rules default; the",
        "    hands of game g are deals 0 + 10,001 g on",
    ]
    assert lines[2].startswith("  greedy  won ") and " of 3 games (" in lines[2] and "; mean total " in lines[2]
    assert lines[4].startswith("  seat 1 (leads the first hand): won ") and lines[4].count(" of 3 games (") == 1
    assert lines[-1].startswith("  ties (the lowest total shared): ") and max(map(len, lines)) <= 80


def test_the_progress_line_waits_shows_the_work_and_is_wiped_and_is_silent_off_a_terminal() -> None:
    """The one progress line (corner sim's, and every long command's but stats'): shown after its delay, redrawn
    with the label noted, wiped at the end; nothing off a terminal."""
    stream = io.StringIO()
    with Ticker("0 of 300 hands played", delay=0.05, stream=stream, terminal=True) as ticker:
        time.sleep(0.2)
        ticker.note("150 of 300 hands played (50%)")
        time.sleep(0.6)
    shown = stream.getvalue()
    assert shown.startswith("\r0 of 300 hands played  0 s (Ctrl-C stops)")
    assert "\r150 of 300 hands played (50%)  " in shown
    assert shown.endswith("\r" + " " * len("150 of 300 hands played (50%)  0 s (Ctrl-C stops)") + "\r")
    quiet = io.StringIO()
    with Ticker("work", delay=0.0, stream=quiet, terminal=False):
        time.sleep(0.05)
    assert quiet.getvalue() == ""


def test_an_option_that_cannot_act_is_refused_in_rules_and_in_records(tmp_path: Path) -> None:
    """draw=start never acts under until_play: 300 hands played the same moves with and without it."""
    message = "draw=start never acts with until_play=yes: leave one of them out"
    assert_bad_input(run("corner", "sim", "--games", "1", "--rules", "until_play=yes+draw=start"), message)
    record = json.loads(
        run("corner", "sim", "--games", "1", "--rules", "until_play=yes", "--format", "json").stdout.splitlines()[0]
    )
    record["rules"]["draw"] = "start"
    assert_bad_input(run("corner", "verify", write(tmp_path, record)), f"{write(tmp_path, record)!r}: {message}")


def test_verify_names_the_options_the_moves_did_not_test(tmp_path: Path) -> None:
    lines = run(
        "corner",
        "sim",
        "--games",
        "1",
        "--seed",
        "1",
        "--format",
        "json",
        "--rules",
        "under=yes+dealt_kings=stay+draw_two=yes+draw_three=yes+target=30",
    ).stdout.splitlines()
    result = run("corner", "verify", write(tmp_path, json.loads(lines[0])))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1:] == [
        "Options these moves did not put to the test: draw_three=yes, dealt_kings=stay,",
        "  target=30.",
    ]
    plain = run("corner", "sim", "--games", "1", "--seed", "1", "--format", "json").stdout.splitlines()[0]
    assert len(run("corner", "verify", write(tmp_path, json.loads(plain))).stdout.splitlines()) == 1


def test_a_match_record_holds_every_hand_and_verify_checks_them_and_the_totals(tmp_path: Path) -> None:
    """Each game of 'sim --match' is a record of its hands, players numbered the same in every hand and each hand
    saying who led; verify replays every hand and checks the lead, the end at the target, the totals and the
    winners; a tampered game is wrong (exit 1) with the hand named."""
    out = run(
        "corner",
        "sim",
        "--match",
        "--games",
        "2",
        "--players",
        "3",
        "--bots",
        "greedy,random,turn",
        "--rules",
        "target=40",
        "--format",
        "json",
    ).stdout.splitlines()
    games = [json.loads(line) for line in out[:-1]]
    for game in games:
        assert [hand["lead"] for hand in game["hands"]] == [h % 3 for h in range(len(game["hands"]))]
        totals = [sum(hand["result"]["penalties"][p] for hand in game["hands"]) for p in range(3)]
        assert game["result"] == {"totals": totals, "winners": [p for p in range(3) if totals[p] == min(totals)]}
        result = run("corner", "verify", write(tmp_path, game))
        assert result.exit_code == 0 and result.stdout.startswith(f"{plural(len(game['hands']), 'hand')}; ")
    game = max(games, key=lambda g: len(g["hands"]))
    assert len(game["hands"]) >= 3
    random_player = game["bots"].index("random")
    assert (
        sum(hand["result"]["penalties"][random_player] for hand in game["hands"])
        == game["result"]["totals"][random_player]
    )  # the random bot keeps its number in every hand

    def verdict(changed: dict[str, Any]) -> str:
        result = run("corner", "verify", write(tmp_path, changed))
        assert result.exit_code == 1, result.stdout + result.stderr
        return result.stdout.strip()

    led = json.loads(json.dumps(game))
    led["hands"][1]["lead"] = 0
    assert verdict(led) == "hand 2 is led by player 1; the lead passes left, so player 2 leads it"
    short = {**game, "hands": game["hands"][:-1]}
    assert verdict(short).startswith(f"unfinished: after {len(game['hands']) - 1} hand")
    extra = {**game, "hands": [*game["hands"], game["hands"][0]]}
    assert verdict(extra) == f"hand {len(game['hands']) + 1} was played after a player reached 40 points"
    claimed = {**game, "result": {**game["result"], "totals": [0, 0, 0]}}
    assert verdict(claimed).startswith("the record claims totals [0, 0, 0]; the replay gives ")
    moved = json.loads(json.dumps(game))
    moved["hands"][1]["moves"][0] = "merge N E"
    assert verdict(moved).startswith("hand 2: illegal move 1 (player 2): merge N E:")
    old = {
        "format": "kcsolve-corner-game/1",
        "index": 0,
        "bots": ["greedy", "greedy"],
        "winners": [0],
        "totals": [3, 50],
    }
    path = write(tmp_path, old)
    assert_bad_input(
        run("corner", "verify", path),
        f"{path!r}: a kcsolve-corner-game/1 record holds totals only, "
        "no hands to replay ('corner sim --match --format json' now writes kcsolve-corner-game/2)",
    )


def test_replay_numbers_the_players_of_a_match_hand_as_the_game_does(tmp_path: Path) -> None:
    """Hand 2 of a game at three players is led by player 2: its first move is player 2's."""
    game = json.loads(
        run(
            "corner", "sim", "--match", "--games", "1", "--players", "3", "--rules", "target=40", "--format", "json"
        ).stdout.splitlines()[0]
    )
    hand = game["hands"][1]
    lines = run("corner", "replay", write(tmp_path, hand)).stdout.splitlines()
    assert next(line for line in lines if line.startswith("1. ")).startswith("1. player 2: ")
    assert lines[-1] == run("corner", "verify", write(tmp_path, hand)).stdout.splitlines()[0]


def test_verify_reads_the_lines_sim_writes_one_verdict_a_record(tmp_path: Path) -> None:
    for extra in ([], ["--match"]):
        lines = run("corner", "sim", "--games", "3", *extra, "--format", "json").stdout
        result = run("corner", "verify", write(tmp_path, lines, "sim.jsonl"))
        assert result.exit_code == 0, result.stderr
        verdicts = unwrapped(result.stdout)
        assert [v.split(":")[0] for v in verdicts] == ["line 1", "line 2", "line 3", "3 records"]
        assert verdicts[-1] == "3 records: 3 good"


def test_verify_of_lines_exits_1_for_a_wrong_one_and_2_for_a_malformed_one(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    wrong = changed(record, result={**record["result"], "winners": [1]})
    result = run("corner", "verify", write(tmp_path, f"{json.dumps(record)}\n{json.dumps(wrong)}\n", "two.jsonl"))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "2 records: 1 good"
    path = write(tmp_path, f"{json.dumps(record)}\n{json.dumps(changed(record, players=9))}\n", "bad.jsonl")
    assert_bad_input(run("corner", "verify", path), f"{path!r}: line 2: 'players' must be 2, 3 or 4, not 9")


def test_replay_tells_each_hand_of_a_match_record(tmp_path: Path) -> None:
    game = run("corner", "sim", "--games", "1", "--match", "--format", "json").stdout.splitlines()[0]
    path = write(tmp_path, game)
    verified = run("corner", "verify", path)
    replayed = run("corner", "replay", path)
    assert verified.exit_code == replayed.exit_code == 0
    hands = len(json.loads(game)["hands"])
    assert [line for line in replayed.stdout.splitlines() if line.startswith("Hand ")][-1].startswith(f"Hand {hands},")
    assert unwrapped(replayed.stdout)[-1] == unwrapped(verified.stdout)[0]


def test_replay_of_lines_says_verify_reads_them(tmp_path: Path) -> None:
    path = write(tmp_path, run("corner", "sim", "--games", "2", "--format", "json").stdout, "sim.jsonl")
    assert_bad_input(
        run("corner", "replay", path), f"{path!r}: records one a line: kcsolve corner verify reads them; give one here"
    )
