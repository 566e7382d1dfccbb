"""`kcsolve analyse`: the marks, a planted fatal move found exactly, saves from `play`, and every error path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clitools import assert_bad_input, run, write

from kcsolve.common.deal import deal
from kcsolve.common.interval import Z95
from kcsolve.patience.engine import Place, Position, Status, cell_name
from kcsolve.patience.players.analysis import DUBIOUS, Analysis, MoveReport, analyse, mark_for, winnable_along
from kcsolve.patience.players.hints import SAMPLED_MEANING, figure_interval
from kcsolve.patience.players.selfplay import play_deal
from kcsolve.patience.record import record_from_moves, replay
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve.peek import peek
from kcsolve.patience.solve.route import solve


def test_marks_follow_the_thresholds() -> None:
    assert mark_for(True, 0.0) == "??"
    assert mark_for(True, 0.5) == "??"
    assert mark_for(False, DUBIOUS + 0.001) == "?"
    assert mark_for(False, DUBIOUS) == ""
    assert mark_for(False, 0.0) == ""


def planted_game() -> tuple[int, list, int]:
    """A winnable deal, its winning line up to a placement, then a placement that throws the deal away."""
    for seed in range(40):
        line = solve(deal(seed), STANDARD).moves
        if not line:
            continue
        position = Position.start(deal(seed), STANDARD)
        for i, move in enumerate(line):
            if isinstance(move, Place) and i > 3:
                for other in position.legal_moves():
                    if other != move and peek(position.play(other)) == "loss":
                        return seed, [*line[:i], other], i + 1
            position = position.play(move)
    raise AssertionError("no deal with a fatal placement among seeds 0..39")


PLANTED = planted_game()


def test_the_planted_fatal_move_gets_the_double_mark_and_nothing_before_it_does() -> None:
    seed, moves, fatal = PLANTED
    result = analyse(record_from_moves(deal(seed), STANDARD, moves, "unknown"), playouts=20)
    assert result.first_fatal is not None and result.first_fatal.number == fatal == len(moves)
    assert [r.number for r in result.reports if r.mark == "??"] == [fatal]
    assert all(r.winnable_before == "win" for r in result.reports)
    assert result.reports[-1].winnable_after == "loss"
    for report in result.reports:
        if report.chance is not None:
            assert 0.0 <= report.chance <= report.best <= 1.0
            assert report.lost_chance == pytest.approx(report.best - report.chance)
        else:
            assert report.options == 1


def test_cli_text_and_json(tmp_path: Path) -> None:
    seed, moves, fatal = PLANTED
    path = write(tmp_path, record_from_moves(deal(seed), STANDARD, moves, "unknown").to_json())
    text = run("analyse", path, "--playouts", "10", "--style", "line")
    assert text.exit_code == 0, text.stderr
    assert f"First fatal move: {fatal} (" in text.stdout
    marked = [line for line in text.stdout.splitlines() if line.startswith(f"{fatal:>4}  ")]
    assert len(marked) == 1 and " ?? " in marked[0]
    data = json.loads(run("analyse", path, "--playouts", "10", "--format", "json").stdout)
    assert len(data["moves"]) == len(moves)
    assert data["summary"]["first_fatal"] == fatal and data["summary"]["moves"] == len(moves)
    assert data["moves"][fatal - 1]["mark"] == "??" and data["moves"][fatal - 1]["winnable_after"] == "loss"


def test_a_game_saved_by_play_is_analysed(tmp_path: Path) -> None:
    seed = PLANTED[0]
    line = solve(deal(seed), STANDARD).moves[:12]
    typed = "\n".join(
        cell_name(m.cell) if isinstance(m, Place) else " ".join(cell_name(c) for c in m.cells) for m in line
    )
    saved = tmp_path / "game.json"
    run("play", "--seed", str(seed), "--style", "line", input=f"{typed}\nsave {saved}\nquit\n")
    result = run("analyse", str(saved), "--playouts", "5", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert len(data["moves"]) == 12 and data["summary"]["first_fatal"] is None
    assert all(m["winnable_after"] == "win" for m in data["moves"])


def test_an_illegal_move_is_named_and_exits_1(tmp_path: Path) -> None:
    record = record_from_moves(deal(0), STANDARD, [Place(5), Place(5)], "unknown").to_json()
    result = run("analyse", write(tmp_path, record))
    assert result.exit_code == 1
    assert result.stdout.startswith("Illegal move 2: ")


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    empty = record_from_moves(deal(0), STANDARD, [], "unknown").to_json()
    path = write(tmp_path, empty)
    assert_bad_input(run("analyse", path), f"{path}: the record has no moves to analyse")
    assert_bad_input(run("analyse", str(tmp_path / "missing.json")), None)
    assert_bad_input(run("analyse", write(tmp_path, "{not json", "broken.json")), None)
    assert_bad_input(run("analyse", path, "--rules", "nonsense"), None)
    assert_bad_input(run("analyse", path, "--playouts", "0"), None)
    assert_bad_input(run("analyse", path, "--frobnicate"), None)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules_text", "player", "seed"),
    [
        ("standard", "greedy", 0),
        ("standard", "strong", 3),
        ("camelot", "strong", 2),
        ("optional+groups", "strong", 0),
    ],
)
def test_winnable_by_bisection_agrees_with_a_peek_at_every_position(rules_text: str, player: str, seed: int) -> None:
    rules = parse_rules(rules_text)
    played = replay(play_deal(player, seed, rules).record, rules)
    positions = [played.start, *(step.position for step in played.steps)]
    along = winnable_along(positions)
    assert along == [peek(position) for position in positions]
    assert along == sorted(along, key=lambda verdict: verdict == "loss")  # every 'win' before every 'loss'
    assert "win" in along and "loss" in along


@pytest.mark.slow
@pytest.mark.parametrize("rules_text", ["standard", "camelot", "optional+groups"])
def test_the_end_of_a_winning_line_peeks_win(rules_text: str) -> None:
    # Under camelot the last removal can win with a removal still open; a peek there once answered 'loss'.
    rules = parse_rules(rules_text)
    checked = 0
    for seed in range(12):
        solution = solve(deal(seed), rules)
        if solution.result != "win":
            continue
        position = Position.start(deal(seed), rules)
        for move in solution.moves:
            if position.drawn >= 36:
                assert peek(position) == "win", (seed, position.drawn)
            position = position.play(move)
        assert peek(position) == "win"
        checked += 1
    assert checked >= 3


def engine_peek(position: Position) -> str | None:
    """A peek during a removal the slow way: each legal move through the engine until the removal is over.

    Shares the search of a position with no removal open with ``peek``; the
    ways of finishing the removal come from the engine, not from the search.
    """
    if position.outcome().status is not Status.UNFINISHED or not position.removing:
        return peek(position)
    verdicts = [engine_peek(position.play(move)) for move in position.legal_moves()]
    return "win" if "win" in verdicts else None if None in verdicts else "loss"


# optional+groups enumerates every way of finishing a removal through the engine: minutes, so in the long suite.
@pytest.mark.parametrize(
    "rules_text",
    [
        *(pytest.param(text, marks=pytest.mark.slow) for text in ("standard", "camelot", "optional", "deplete+groups")),
        pytest.param("optional+groups", marks=pytest.mark.long),
    ],
)
def test_a_peek_during_a_removal_agrees_with_the_engines_moves(rules_text: str) -> None:
    rules = parse_rules(rules_text)
    verdicts = []
    for seed in range(20):  # at least 6 deals, and on until both verdicts have been met
        if seed >= 6 and "win" in verdicts and "loss" in verdicts:
            break
        lines = [play_deal("strong", seed, rules).record, solve(deal(seed), rules).record()]
        for step in (step for record in lines for step in replay(record, rules).steps):
            if step.position.removing and step.position.drawn >= 36:
                verdicts.append(peek(step.position))
                assert verdicts[-1] == engine_peek(step.position), (seed, step.number)
    assert "win" in verdicts and "loss" in verdicts


@pytest.mark.parametrize("rules_text", ["standard", "camelot"])
def test_a_game_of_best_choices_gives_nothing_up(rules_text: str) -> None:
    """Played by the hint engine itself (same figures, same seed): every choice is the best, so all is kept."""
    from kcsolve.patience.players.hints import hint_move

    rules = parse_rules(rules_text)
    position = Position.start(deal(11), rules)
    moves = []
    while position.outcome().status is Status.UNFINISHED:
        move = hint_move(position.view(), 16, 5)
        moves.append(move)
        position = position.play(move)
    record = record_from_moves(position.deck, rules, moves, "unknown", seed=11)
    result = analyse(record, playouts=16, seed=5)
    choices = [r for r in result.reports if r.chance is not None]
    assert len(choices) > 10
    assert all(r.lost_chance == 0 and r.kept == 1 and r.mark != "?" for r in choices)
    assert result.kept_in_all == 1 and result.summary_json()["kept_in_all"] == 1
    assert result.kept_interval == (1.0, 1.0) and result.summary_json()["kept_interval"] == [1.0, 1.0]


def test_the_text_report_says_what_its_figures_are(tmp_path: Path) -> None:
    record = play_deal("greedy", 3, STANDARD).record
    out = run("analyse", write(tmp_path, record.to_json()), "--playouts", "8").stdout
    assert "an upper estimate, not a chance of winning), then its 95% interval" in out.replace("\n", " ")
    assert "Chance given up" not in out and "chance of winning with best play" in out.replace("\n", " ")
    assert all(len(line) <= 80 for line in out.splitlines() if not line.startswith(("+", "|")))


def test_every_sampled_figure_shows_its_interval(tmp_path: Path) -> None:
    """Text rows give each sampled figure its 95% Wilson interval in points, JSON as numbers; exact ones none."""
    path = write(tmp_path, play_deal("greedy", 3, STANDARD).record.to_json())
    data = json.loads(run("analyse", path, "--playouts", "100", "--format", "json").stdout)
    text = run("analyse", path, "--playouts", "100", "--style", "line").stdout.splitlines()
    sampled = [m for m in data["moves"] if m["figure"] is not None and m["figure_is"] == SAMPLED_MEANING]
    assert len(sampled) > 5
    for move in sampled:
        for figure, interval in ((move["figure"], move["figure_interval"]), (move["best"], move["best_interval"])):
            won = round(figure * 100)  # the Wilson interval of won/100 by hand: centre -/+ half
            centre = (won / 100 + Z95**2 / 200) / (1 + Z95**2 / 100)
            half = Z95 / (1 + Z95**2 / 100) * (won / 100 * (1 - won / 100) / 100 + Z95**2 / 40_000) ** 0.5
            assert interval == pytest.approx([max(0, centre - half), min(1, centre + half)])
        row = next(line for line in text if line.startswith(f"{move['move']:>4}  "))
        low, high = move["figure_interval"]
        assert f" {move['figure']:.0%} {low * 100:.0f}-{high * 100:.0f} " in row
    assert figure_interval(0.54, 100) == pytest.approx((0.44265, 0.63439), abs=1e-5)
    assert figure_interval(0.3, 0) == (0.3, 0.3)
    unforced = [m for m in data["moves"] if m["figure"] is None]
    assert all(m["figure_interval"] is None and m["best_interval"] is None for m in unforced)


def test_the_kept_interval_covers_the_true_product_at_least_95_percent_of_the_time() -> None:
    """Three choices where another option was best, their figures sampled afresh each time from known shares."""
    import random

    start = Position.start(deal(0), STANDARD)
    truths = [(0.30, 0.40), (0.55, 0.60), (0.10, 0.12)]  # (played, best) shares, each out of 60 orders
    exact = MoveReport(9, Place(0), start, start, None, None, 2, 0.5, 0.8, Place(1), True, 0, False)
    true_kept = 0.625 * (0.30 / 0.40) * (0.55 / 0.60) * (0.10 / 0.12)
    generator = random.Random(7)
    covered = given_covered = 0
    for _ in range(400):
        reports = [exact]
        for number, (played, best) in enumerate(truths):
            won = sum(generator.random() < played for _ in range(60)) / 60
            won_best = max(won, sum(generator.random() < best for _ in range(60)) / 60)
            reports.append(
                MoveReport(number, Place(0), start, start, None, None, 2, won, won_best, Place(1), False, 60, False)
            )
        result = Analysis(tuple(reports), 60)
        low, high = result.kept_interval
        assert 0 <= low <= result.kept_in_all <= high <= 1
        covered += low <= true_kept <= high
        (given_low, given_high), _ = reports[1].ranges()
        assert given_low <= reports[1].lost_chance <= given_high
        given_covered += given_low <= 0.40 - 0.30 <= given_high
    assert covered >= 0.95 * 400 and given_covered >= 0.95 * 400


def test_the_kept_interval_is_in_the_text_and_the_json(tmp_path: Path) -> None:
    path = write(tmp_path, play_deal("greedy", 7, STANDARD).record.to_json())
    data = json.loads(run("analyse", path, "--playouts", "40", "--format", "json").stdout)["summary"]
    text = run("analyse", path, "--playouts", "40").stdout.replace("\n", " ")
    low, high = data["kept_interval"]
    assert low < data["kept_in_all"] < high <= 1
    moves = json.loads(run("analyse", path, "--playouts", "40", "--format", "json").stdout)["moves"]
    for move in moves:
        given_low, given_high = move["given_up_interval"]
        assert given_low <= move["given_up"] <= given_high
        if move["best_move"] is None or (move["given_up"] == 0 and move["kept"] == 1 and given_high == 0):
            assert move["kept_interval"] == [move["kept"], move["kept"]]
    assert any(m["given_up_interval"][0] < m["given_up_interval"][1] for m in moves)
    shown = re.search(
        r"Its 95% interval, over the sampled figures where another option was best: "
        r"([\d.]+)% to ([\d.]+)%\.",
        text,
    )
    assert shown is not None
    assert float(shown[1]) == pytest.approx(low * 100, abs=0.5) and float(shown[2]) == pytest.approx(
        high * 100, abs=0.5
    )
