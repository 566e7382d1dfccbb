"""The ``solve`` command: telling a won deal, explaining a lost one, JSON records that verify,
deck files, rule presets, methods, --count, --budget, exit statuses, and every bad-input path.

Outcomes are never hard-coded: seeds are chosen by running the library in the test, and every
claim the command makes is checked against :mod:`kcsolve.patience.solve.route`,
:mod:`kcsolve.patience.solve.theory` or an independent ``kcsolve verify`` of the record it writes.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from clitools import assert_bad_input, make_runner, run, unwrapped, verdict_sentences, write

import kcsolve.cli.solve_command
import kcsolve.patience.solve.numbered
from kcsolve.cli import cli
from kcsolve.common.cards import TEN, Card, full_deck, parse_deck, rank_symbol
from kcsolve.common.deal import deal
from kcsolve.patience.record import parse_record, replay
from kcsolve.patience.rules import STANDARD, parse_rules
from kcsolve.patience.solve import theory
from kcsolve.patience.solve.methods.dfs import DepthFirstSearch
from kcsolve.patience.solve.route import Budget, InvalidBudgetError, Solution, parse_budget, solve
from kcsolve.patience.terminal.render import grid_line

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SAMPLE = GOLDEN / "sample_game.json"
PACK = [str(c) for c in full_deck()]
SEED_LIMIT = 2**64
SCAN = range(200)  # seeds searched for deals with a wanted outcome

BUDGET_HELP = "use NODES < 2**63, TIME ('2s') or both"
EITHER = "give either a DECK_FILE (or - for standard input) or --seed N, not both"
NEITHER = "give a DECK_FILE (or - for standard input), --seed N or --pysol N"
STATS = r"decided by (construct|dfs)(: [\d,]+ positions searched,|, no search needed,) \d+\.\d\d ms"
WINNABLE = re.compile(rf"^Winnable \({STATS}\)\.$")
GRID_LINE = re.compile(r"^[A2-9TJQK.]{4}(/[A2-9TJQK.]{4}){3}$")
BORDER = "+---+ +---+ +---+ +---+"


# --- helpers -------------------------------------------------------------------------------------------


def ranks(deck: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(c.rank for c in deck)


@functools.cache
def outcome(seed: int, rules_text: str = "standard") -> str:
    """The library's verdict on a seeded deal."""
    return solve(deal(seed), parse_rules(rules_text)).result


def seeds_where(predicate: Callable[[int], bool], how_many: int = 1) -> list[int]:
    found = [s for s in SCAN if predicate(s)][:how_many]
    assert len(found) == how_many, "not enough seeds with the wanted outcome in the scanned range"
    return found


@functools.cache
def win_seed() -> int:
    return seeds_where(lambda s: outcome(s) == "win")[0]


@functools.cache
def loss_seed() -> int:
    return seeds_where(lambda s: outcome(s) == "loss")[0]


def grid_lines(text: str) -> list[str]:
    """The one-line grids of a ``--style line`` telling, in order."""
    return [line for line in text.splitlines() if GRID_LINE.match(line)]


def box_grids(text: str) -> list[str]:
    """The boxed grids of a telling, each turned into its one-line form (``X`` read as Ten)."""
    bars = [line for line in text.splitlines() if line.startswith("|")]
    assert len(bars) % 12 == 0, "a boxed grid is 4 rows of 3 bar lines"
    grids = []
    for start in range(0, len(bars), 12):
        rows = []
        for middle in bars[start + 1 : start + 12 : 3]:
            assert len(middle) == 23, middle
            row = ""
            for col in range(4):
                box = middle[col * 6 : col * 6 + 5]
                assert box[0] == box[4] == "|", middle
                inner = box[1:4]
                if inner in ("KKK", "QQQ", "JJJ"):
                    row += inner[0]
                elif inner == "   ":
                    row += "."
                else:
                    assert inner[0] == inner[2] == " ", middle
                    row += "T" if inner[1] == "X" else inner[1]
            rows.append(row)
        grids.append("/".join(rows))
    return grids


def span(first: int, end: int) -> str:
    """How a telling names the cards of one deal (0-based first, exclusive end)."""
    return f"card {end}" if end - first == 1 else f"cards {first + 1}-{end}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def solve_json(*args: str, input: str | None = None) -> tuple[Result, dict]:
    result = run("solve", "--format", "json", *args, input=input)
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    return result, json.loads(lines[0])


def verify(tmp_path: Path, record: dict, name: str = "record.json") -> Result:
    result = run("verify", write(tmp_path, record, name))
    assert result.stderr == ""
    return result


# --- a winnable seed, told like the sample game ---------------------------------------------------------------


def test_solve_winnable_seed_tells_the_game_in_boxes() -> None:
    seed = win_seed()
    result = run("solve", "--seed", str(seed))
    assert result.exit_code == 0, result.stdout
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[:2] == [f"Deal {seed}, rules standard", ""]
    assert "1st deal: cards 1-16" in lines
    assert "Removal 1" in lines
    assert any(line.startswith("Remove ") for line in lines)
    assert BORDER in lines
    assert "\x1b[" not in result.stdout  # the runner's stdout is no terminal
    assert WINNABLE.match(lines[-1]), lines[-1]
    assert lines[-1].startswith("Winnable (decided by")

    # the telling follows the forced course of the deal: its deals, removal phases and removals
    path = theory.trajectory(ranks(deal(seed)), STANDARD)
    assert path.won
    deal_lines = [line for line in lines if re.match(r"^\d+(st|nd|rd|th) deal: ", line)]
    assert deal_lines == [f"{ordinal(n)} deal: {span(a, b)}" for n, (a, b) in enumerate(path.rounds, start=1)]
    assert [line for line in lines if line.startswith("Removal ")] == [
        f"Removal {n}" for n in range(1, len(path.removals) + 1)
    ]
    assert sum(line.startswith("Remove ") for line in lines) == sum(len(sets) for sets in path.removals)
    assert lines[-3] == f"Won: the twelfth court card was placed as card {path.end}."

    # every block is followed by a blank line, as in the sample game
    grids = box_grids(result.stdout)
    assert len(grids) == len(path.rounds) + sum(len(sets) for sets in path.removals)
    assert lines[lines.index("1st deal: cards 1-16") + 1] == ""
    assert lines[lines.index("1st deal: cards 1-16") + 2] == BORDER
    assert grids[-1].count("K") == grids[-1].count("Q") == grids[-1].count("J") == 4


def test_solve_text_is_the_replay_of_its_json_record(tmp_path: Path) -> None:
    """The boxed telling is exactly ``kcsolve replay`` of the record --format json writes."""
    seed = win_seed()
    told = run("solve", "--seed", str(seed)).stdout
    _, record = solve_json("--seed", str(seed))
    replayed = run("replay", write(tmp_path, record, "record.json"))
    assert replayed.exit_code == 0
    last = told.rstrip("\n").rsplit("\n", 1)[1]
    assert WINNABLE.match(last)
    assert told == f"Deal {seed}, rules standard\n\n" + replayed.stdout + last + "\n"


def test_solve_line_style_shows_the_same_grids_as_boxes() -> None:
    seed = win_seed()
    boxes = run("solve", "--seed", str(seed), "--style", "boxes")
    line = run("solve", "--seed", str(seed), "--style", "line")
    assert line.exit_code == 0 and line.stderr == ""
    lines = line.stdout.splitlines()
    assert lines[:2] == [f"Deal {seed}, rules standard", ""]
    assert lines[2] == "1st deal: cards 1-16"
    assert GRID_LINE.match(lines[3])
    assert "Removal 1" in lines
    assert any(x.startswith("Remove ") for x in lines)
    assert "" not in lines[2:]  # no blank lines between the one-line blocks
    assert BORDER not in lines
    assert lines[-1].startswith("Winnable (decided by") and WINNABLE.match(lines[-1])
    assert grid_lines(line.stdout) == box_grids(boxes.stdout)
    # the same words, grids aside
    words = [x for x in boxes.stdout.splitlines() if x and not x.startswith(("|", "+"))]
    assert [x for x in lines if not GRID_LINE.match(x) and x] == [*words[:-1], lines[-1]]


def test_solve_colour_flags() -> None:
    seed = win_seed()
    runner = make_runner()
    coloured = runner.invoke(cli, ["solve", "--seed", str(seed), "--color"], color=True)
    plain = runner.invoke(cli, ["solve", "--seed", str(seed), "--no-color"], color=True)
    assert coloured.exit_code == plain.exit_code == 0
    assert "\x1b[1;33mKKK\x1b[0m" in coloured.stdout
    assert "\x1b[" not in plain.stdout
    strip = re.compile(r"\x1b\[[0-9;]*m|\d+\.\d\d ms")
    assert strip.sub("", coloured.stdout) == strip.sub("", plain.stdout)


# --- a losing seed --------------------------------------------------------------------------------------------


def jam_values(seed: int) -> tuple[Counter, int]:
    """What the forced course leaves on the full grid at the jam: number ranks and court count."""
    r = ranks(deal(seed))
    path = theory.trajectory(r, STANDARD)
    gone = {i for sets in path.removals for s in sets for i in s}
    left = [r[i] for i in range(path.end) if i not in gone]
    return Counter(x for x in left if x <= TEN), sum(1 for x in left if x > TEN)


@pytest.mark.parametrize("style", ["boxes", "line"])
def test_solve_losing_seed(style: str) -> None:
    seed = loss_seed()
    path = theory.trajectory(ranks(deal(seed)), STANDARD)
    assert not path.won
    result = run("solve", "--seed", str(seed), "--style", style)
    assert result.exit_code == 1
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[:3] == [f"Deal {seed}, rules standard", "", "The grid when it jams, after the best play:"]
    reason = (
        f"Not winnable: grid full with nothing to remove after card {path.end} (deal {path.jam_round}); "
        "the deck decides this whatever the play"
    )
    said = verdict_sentences(result.stdout)
    assert re.fullmatch(re.escape(reason) + rf" \({STATS}\)\.", said[-2]), said[-2]
    courts = sum(1 for card in deal(seed)[: path.end] if card.is_court)
    removed = sum(len(s) for phase in path.removals for s in phase)
    assert (
        said[-1] == f"Best play places {courts} of the 12 court cards and removes {removed} card{'s' * (removed != 1)}."
    )
    assert "1st deal" not in result.stdout and "Removal" not in result.stdout

    grids = box_grids(result.stdout) if style == "boxes" else grid_lines(result.stdout)
    assert len(grids) == 1
    grid = grids[0].replace("/", "")
    assert "." not in grid, "the grid at the jam is full"
    numbers = Counter(RANK_OF[s] for s in grid if s not in "KQJ")
    assert TEN not in numbers
    assert not any(numbers[a] and numbers[10 - a] and (a != 5 or numbers[5] >= 2) for a in range(1, 6))
    expected_numbers, courts = jam_values(seed)
    assert numbers == expected_numbers
    assert sum(s in "KQJ" for s in grid) == courts


RANK_OF = {rank_symbol(r): r for r in range(1, 14)}


def test_losing_seed_jam_grid_is_the_records_final_position(tmp_path: Path) -> None:
    seed = loss_seed()
    _, record = solve_json("--seed", str(seed))
    final = replay(parse_record(json.dumps(record))).final
    told = run("solve", "--seed", str(seed), "--style", "line").stdout
    assert grid_lines(told) == [grid_line(final)]


# --- JSON records ----------------------------------------------------------------------------------------------


def test_json_win_record_verifies(tmp_path: Path) -> None:
    seed = win_seed()
    result, data = solve_json("--seed", str(seed))
    assert result.exit_code == 0
    assert set(data) == {"format", "deck", "rules", "result", "moves", "stats", "seed"}
    assert data["seed"] == seed
    assert data["deck"] == [str(c) for c in deal(seed)]
    assert data["rules"] == "standard"
    assert data["result"] == "win"
    assert {"method", "nodes", "seconds"} <= set(data["stats"])
    assert data["stats"]["method"] == "construct"
    assert isinstance(data["stats"]["nodes"], int) and data["stats"]["nodes"] >= 0
    assert isinstance(data["stats"]["seconds"], float) and data["stats"]["seconds"] >= 0
    assert data["moves"] and all(set(m) in ({"place", "cell"}, {"remove"}) for m in data["moves"])
    end = theory.trajectory(ranks(deal(seed)), STANDARD).end
    verdict = verify(tmp_path, data)
    assert verdict.exit_code == 0
    assert verdict.stdout == f"won: the twelfth court card was placed as card {end}\n"


def test_json_loss_record_replays_to_the_jam(tmp_path: Path) -> None:
    seed = loss_seed()
    result, data = solve_json("--seed", str(seed))
    assert result.exit_code == 1
    assert set(data) == {"format", "deck", "rules", "result", "moves", "stats", "seed", "loss", "best"}
    assert data["result"] == "loss" and data["seed"] == seed
    path = theory.trajectory(ranks(deal(seed)), STANDARD)
    assert data["loss"] == {"reason": "grid full with nothing to remove", "card": path.end, "deal": path.jam_round}
    assert data["best"]["moves"] == data["moves"]
    assert data["best"]["courts"] == sum(1 for card in deal(seed)[: path.end] if card.is_court)
    assert {"method", "nodes", "seconds"} <= set(data["stats"])
    end = theory.trajectory(ranks(deal(seed)), STANDARD).end
    verdict = verify(tmp_path, data)
    assert verdict.exit_code == 1
    assert verdict.stdout == f"lost: grid full with nothing to remove after card {end}\n"


def test_json_seed_at_the_top_of_the_range() -> None:
    result, data = solve_json("--seed", str(SEED_LIMIT - 1))
    assert data["seed"] == SEED_LIMIT - 1
    assert result.exit_code == {"win": 0, "loss": 1}[solve(deal(SEED_LIMIT - 1)).result]


# --- deck files -----------------------------------------------------------------------------------------------


def test_solve_a_deck_file_from_deal(tmp_path: Path) -> None:
    for seed in (win_seed(), loss_seed()):
        path = write(tmp_path, run("deal", "--seed", str(seed)).stdout, f"deal{seed}.txt")
        from_file = run("solve", "--style", "line", path)
        seeded = run("solve", "--style", "line", "--seed", str(seed))
        assert from_file.exit_code == seeded.exit_code == {"win": 0, "loss": 1}[outcome(seed)]
        head, body = from_file.stdout.split("\n\n", 1)
        assert " ".join(head.split()) == f"Deck {path}, rules standard"  # the title is wrapped at 80 columns
        mask = re.compile(r"\d+\.\d\d ms")
        told = " ".join(
            seeded.stdout.split("\n\n", 1)[1].splitlines()
        )  # wrapping may fall elsewhere with other timings
        assert mask.sub("", " ".join(body.splitlines())) == mask.sub("", told)
        _result, data = solve_json(path)
        assert "seed" not in data
        assert set(data) == {"format", "deck", "rules", "result", "moves", "stats"} | (
            {"loss", "best"} if data["result"] == "loss" else set()
        )
        assert data["deck"] == [str(c) for c in deal(seed)]
        assert data["result"] == outcome(seed)


def test_solve_reads_standard_input(tmp_path: Path) -> None:
    seed = win_seed()
    text = run("deal", "--seed", str(seed)).stdout
    result = run("solve", "-", "--style", "line", input=text)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0] == "Deck -, rules standard"
    assert WINNABLE.match(result.stdout.splitlines()[-1])
    result, data = solve_json("-", input=text)
    assert result.exit_code == 0
    assert data["deck"] == [str(c) for c in deal(seed)]
    assert verify(tmp_path, data).exit_code == 0


def test_solve_a_json_deck_file(tmp_path: Path) -> None:
    seed = loss_seed()
    path = write(tmp_path, run("deal", "--seed", str(seed), "--format", "json").stdout, "deck.json")
    result, data = solve_json(path)
    assert result.exit_code == 1
    assert data["deck"] == [str(c) for c in deal(seed)] and "seed" not in data
    # a hand-written JSON deck with other spellings of Ten and lower case
    deck = [c.replace("T", "10").lower() for c in PACK]
    result, data = solve_json(write(tmp_path, {"deck": deck}, "hand.json"))
    assert data["deck"] == PACK
    assert data["result"] == solve(tuple(full_deck())).result


def test_solve_a_rank_only_deck_names_cards_by_rank(tmp_path: Path) -> None:
    sample_deck = json.loads(SAMPLE.read_text())["deck"]
    assert all(len(c) == 1 for c in sample_deck)
    expected = solve(parse_deck(" ".join(sample_deck)))
    path = write(tmp_path, "# the sample game's deck\n" + ", ".join(sample_deck) + "\n")
    result, data = solve_json(path)
    assert data["result"] == expected.result
    assert result.exit_code == {"win": 0, "loss": 1}[expected.result]
    assert data["deck"] == sample_deck
    placed = [m["place"] for m in data["moves"] if "place" in m]
    assert placed == sample_deck[: len(placed)]
    assert placed and all(len(card) == 1 for card in placed)
    verdict = verify(tmp_path, data, "record.json")
    assert verdict.exit_code == (0 if expected.result == "win" else 1)
    text = run("solve", "--style", "line", path)
    assert text.exit_code == result.exit_code
    removes = [x for x in text.stdout.splitlines() if x.startswith("Remove ")]
    assert removes and all(
        re.fullmatch(r"Remove [A2-9T] \([a-d][1-4]\)( \+ [A2-9] \([a-d][1-4]\))?", x) for x in removes
    )


# --- rule presets ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules_text", ["deplete", "swap", "deplete+swap"])
def test_rules_presets_agree_with_the_library_and_wins_verify(tmp_path: Path, rules_text: str) -> None:
    rules = parse_rules(rules_text)
    results = set()
    for seed in range(12):
        result, data = solve_json("--seed", str(seed), "--rules", rules_text)
        expected = solve(deal(seed), rules).result
        assert data["result"] == expected, seed
        assert result.exit_code == {"win": 0, "loss": 1}[expected]
        assert data["rules"] == rules_text
        results.add(expected)
        if expected == "win":
            verdict = verify(tmp_path, data, f"{seed}.json")  # judged under the record's own rules
            assert verdict.exit_code == 0, verdict.stdout
    assert results == {"win", "loss"}
    text = run("solve", "--seed", "0", "--rules", rules_text, "--style", "line")
    assert text.stdout.splitlines()[0] == f"Deal 0, rules {rules_text}"


def test_deplete_makes_a_difference_and_its_records_say_so(tmp_path: Path) -> None:
    """A deal won under standard rules but lost under deplete: the record is judged by its rules."""
    seed = seeds_where(lambda s: outcome(s) == "win" and outcome(s, "deplete") == "loss")[0]
    result, data = solve_json("--seed", str(seed), "--rules", "deplete")
    assert result.exit_code == 1 and data["result"] == "loss"
    _, standard = solve_json("--seed", str(seed))
    assert verify(tmp_path, standard, "standard.json").exit_code == 0
    assert run("verify", "--rules", "deplete", write(tmp_path, standard, "s.json")).exit_code == 1


def test_rules_are_case_and_space_tolerant() -> None:
    _result, data = solve_json("--seed", "0", "--rules", " Swap + DEPLETE ")
    assert data["rules"] == "deplete+swap"
    assert data["result"] == outcome(0, "deplete+swap")


# --- methods ----------------------------------------------------------------------------------------------------


def test_methods_agree_on_twenty_seeds() -> None:
    for seed in range(20):
        expected = outcome(seed)
        for method, route in (("auto", "construct"), ("construct", "construct"), ("dfs", "dfs")):
            result, data = solve_json("--seed", str(seed), "--method", method)
            assert data["result"] == expected, (seed, method)
            assert result.exit_code == {"win": 0, "loss": 1}[expected]
            assert data["stats"]["method"] == route
            if route == "construct":
                assert data["stats"]["nodes"] == 0


def test_dfs_is_named_in_the_text() -> None:
    seed = win_seed()
    last = verdict_sentences(run("solve", "--seed", str(seed), "--method", "dfs", "--style", "line").stdout)[-1]
    assert re.fullmatch(r"Winnable \(decided by dfs: [1-9]\d* positions searched, \d+\.\d\d ms\)\.", last)
    last = verdict_sentences(run("solve", "--seed", str(loss_seed()), "--method", "dfs", "--style", "line").stdout)[-2]
    assert re.fullmatch(r"Not winnable: .* \(decided by dfs, no search needed, \d+\.\d\d ms\)\.", last)


def test_dfs_win_records_verify(tmp_path: Path) -> None:
    for seed in seeds_where(lambda s: outcome(s, "deplete+swap") == "win", 3):
        result, data = solve_json("--seed", str(seed), "--method", "dfs", "--rules", "deplete+swap")
        assert result.exit_code == 0 and data["stats"]["method"] == "dfs"
        assert verify(tmp_path, data, f"{seed}.json").exit_code == 0


# --- --count ------------------------------------------------------------------------------------------------------


def test_count_text() -> None:
    start, count = 5, 12
    result = run("solve", "--seed", str(start), "--count", str(count))
    assert result.exit_code == 0 and result.stderr == ""
    lines = unwrapped(result.stdout)  # a deal's line is wrapped at 80 columns
    assert len(lines) == count + 1
    tally = Counter()
    for seed, line in zip(range(start, start + count), lines, strict=False):
        expected = solve(deal(seed))
        tally[expected.result] += 1
        match = re.fullmatch(rf"seed (\d+): (win|loss) \((.*); {STATS}\)", line)
        assert match, line
        assert int(match.group(1)) == seed
        assert match.group(2) == expected.result
        assert match.group(3) == expected.reason
    assert tally["win"] and tally["loss"]
    assert lines[-1] == f"{count} deals under standard: {tally['win']} winnable, {tally['loss']} not, 0 undecided"


def test_count_text_names_the_rules() -> None:
    result = run("solve", "--seed", "0", "--count", "3", "--rules", "swap+deplete")
    wins = sum(outcome(s, "deplete+swap") == "win" for s in range(3))
    assert result.stdout.splitlines()[-1] == f"3 deals under deplete+swap: {wins} winnable, {3 - wins} not, 0 undecided"


def test_count_json_lines_and_every_win_verifies(tmp_path: Path) -> None:
    start, count = 3, 10
    result = run("solve", "--seed", str(start), "--count", str(count), "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == count
    for seed, line in zip(range(start, start + count), lines, strict=True):
        data = json.loads(line)
        assert isinstance(data, dict)
        assert data["seed"] == seed
        assert data["deck"] == [str(c) for c in deal(seed)]
        assert data["result"] == outcome(seed)
        verdict = verify(tmp_path, data, f"{seed}.json")
        assert verdict.exit_code == (0 if data["result"] == "win" else 1)


def test_count_reaches_the_last_seed() -> None:
    result = run("solve", "--seed", str(SEED_LIMIT - 2), "--count", "2", "--format", "json")
    assert result.exit_code == 0
    assert [json.loads(x)["seed"] for x in result.stdout.splitlines()] == [SEED_LIMIT - 2, SEED_LIMIT - 1]


def test_count_of_one() -> None:
    result = run("solve", "--seed", "0", "--count", "1")
    lines = unwrapped(result.stdout)  # a deal's line is wrapped at 80 columns
    assert len(lines) == 2 and lines[0].startswith(f"seed 0: {outcome(0)} (")
    assert result.exit_code == 0


# --- --budget and undecided deals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, budget",
    [
        ("1000", Budget(nodes=1000)),
        ("2s", Budget(seconds=2.0)),
        ("2s,1000", Budget(nodes=1000, seconds=2.0)),
        ("1000, 2.5S", Budget(nodes=1000, seconds=2.5)),
        ("1e5", Budget(nodes=100000)),
        ("500ms", Budget(seconds=0.5)),
        ("5m", Budget(seconds=300.0)),
        ("1h,100000", Budget(nodes=100000, seconds=3600.0)),
        ("none", Budget()),
    ],
)
def test_budget_forms_are_accepted(text: str, budget: Budget) -> None:
    assert parse_budget(text) == budget
    seed = win_seed()
    for method in ("auto", "dfs"):
        result, data = solve_json("--seed", str(seed), "--method", method, "--budget", text)
        assert result.exit_code == 0, (method, data)
        assert data["result"] == "win"


def test_library_search_without_theory_runs_out_of_budget() -> None:
    seed = win_seed()
    search = DepthFirstSearch(ranks(deal(seed)), STANDARD, Budget(nodes=5), use_theory=False)
    result, moves, reason = search.run()
    assert result == "unknown"
    assert moves == []
    assert reason == "the search budget (5 positions) ran out after 5 positions"


def test_dfs_with_a_tiny_budget_decides_losses_without_search() -> None:
    """A jammed forced course is a loss before any search, whatever the budget."""
    seed = loss_seed()
    result, data = solve_json("--seed", str(seed), "--method", "dfs", "--budget", "1")
    assert result.exit_code == 1
    assert data["result"] == "loss" and data["stats"] == {**data["stats"], "method": "dfs", "nodes": 0}


def test_dfs_with_a_tiny_budget_leaves_a_win_undecided() -> None:
    """Winning lines are still searched for under --method dfs, so a tiny budget runs out: exit 3."""
    seed = win_seed()
    result = run("solve", "--seed", str(seed), "--method", "dfs", "--budget", "5")
    assert result.exit_code == 3 and result.stderr == ""
    assert result.stdout.splitlines() == [
        f"Deal {seed}, rules standard",
        "",
        "Undecided: the search budget (5 positions) ran out after 5 positions.",
    ]
    result, data = solve_json("--seed", str(seed), "--method", "dfs", "--budget", "5")
    assert result.exit_code == 3
    assert data["result"] == "unknown" and data["moves"] == []
    # the same deal is decided by the default route, which needs no search
    assert run("solve", "--seed", str(seed), "--budget", "5").exit_code == 0


def fake_unknown(unknown_seeds: set[int] | None = None) -> Callable[..., Solution]:
    """A stand-in for solve: 'unknown' for the given seeds' decks (all when None)."""
    decks = None if unknown_seeds is None else {deal(s) for s in unknown_seeds}

    def fake(deck, rules=STANDARD, method="auto", budget=Budget()):  # type: ignore[no-untyped-def]
        if decks is not None and deck not in decks:
            return solve(deck, rules, method, budget)
        stats = {"method": "dfs", "nodes": 7, "seconds": 0.0}
        return Solution(deck, rules, "unknown", (), "budget 7 ran out after 8 positions", stats)

    return fake


def test_undecided_single_deal_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kcsolve.cli.solve_command, "solve", fake_unknown())
    result = run("solve", "--seed", "0")
    assert result.exit_code == 3 and result.stderr == ""
    assert result.stdout == "Deal 0, rules standard\n\nUndecided: budget 7 ran out after 8 positions.\n"
    result, data = solve_json("--seed", "0")
    assert result.exit_code == 3
    assert data["result"] == "unknown" and data["moves"] == [] and data["seed"] == 0


def test_undecided_deal_in_a_count_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kcsolve.patience.solve.numbered, "solve", fake_unknown({4}))  # a --count run's solver
    result = run("solve", "--seed", "2", "--count", "4")
    assert result.exit_code == 3 and result.stderr == ""
    lines = unwrapped(result.stdout)  # a deal's line is wrapped at 80 columns
    assert len(lines) == 5
    assert lines[2].startswith("seed 4: unknown (budget 7 ran out after 8 positions; ")
    wins = sum(outcome(s) == "win" for s in (2, 3, 5))
    assert lines[-1] == f"4 deals under standard: {wins} winnable, {3 - wins} not, 1 undecided"
    result = run("solve", "--seed", "2", "--count", "4", "--format", "json")
    assert result.exit_code == 3
    assert [json.loads(x)["result"] for x in result.stdout.splitlines()] == [
        outcome(2),
        outcome(3),
        "unknown",
        outcome(5),
    ]
    # every deal decided: exit 0, losses included
    assert run("solve", "--seed", "5", "--count", "3").exit_code == 0


def test_undecided_count_line_does_not_claim_a_decision() -> None:
    result = run("solve", "--seed", str(win_seed()), "--count", "1", "--method", "dfs", "--budget", "5")
    assert result.exit_code == 3
    line = result.stdout.splitlines()[0]
    assert line.startswith(f"seed {win_seed()}: unknown (")
    assert "decided by" not in line


# --- every bad-input path: exit 2, one line on stderr -------------------------------------------------------------


def test_deck_file_and_seed_together(tmp_path: Path) -> None:
    path = write(tmp_path, run("deal", "--seed", "1").stdout)
    assert_bad_input(run("solve", path, "--seed", "1"), EITHER)
    assert_bad_input(run("solve", "-", "--seed", "1", input="x"), EITHER)


def test_neither_deck_file_nor_seed() -> None:
    assert_bad_input(run("solve"), NEITHER)
    assert_bad_input(run("solve", "--format", "json"), NEITHER)
    assert_bad_input(
        run("solve", "--count", "3"), "--count needs --seed or --pysol: it solves consecutive numbered deals"
    )


def test_count_without_seed(tmp_path: Path) -> None:
    path = write(tmp_path, run("deal", "--seed", "1").stdout)
    assert_bad_input(
        run("solve", path, "--count", "3"), "--count needs --seed or --pysol: it solves consecutive numbered deals"
    )


@pytest.mark.parametrize("count", ["0", "-4"])
def test_count_below_one(count: str) -> None:
    assert_bad_input(
        run("solve", "--seed", "1", "--count", count),
        {
            f"Invalid value for '--count': {count} is not in the range x>=1.",
            f"Invalid value for '--count': {count} is not in the valid range of x>=1.",
        },
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seed", "-1"], "seed must be between 0 and 2**64-1, got -1"),
        (["--seed", str(2**64)], f"seed must be between 0 and 2**64-1, got {2**64}"),
        (["--seed", str(2**64), "--count", "2"], f"seed must be between 0 and 2**64-1, got {2**64}"),
        (
            ["--seed", str(2**64 - 1), "--count", "2"],
            f"--seed {2**64 - 1} --count 2 runs past the last deal number, 2**64-1",
        ),
        (
            ["--seed", str(2**64 - 5), "--count", "10"],
            f"--seed {2**64 - 5} --count 10 runs past the last deal number, 2**64-1",
        ),
        (["--seed", "-1", "--count", "5"], "seed must be between 0 and 2**64-1, got -1"),
        (["--seed", "abc"], "Invalid value for '--seed': 'abc' is not a valid integer."),
    ],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_bad_seed(args: list[str], message: str, fmt: str) -> None:
    assert_bad_input(run("solve", *args, "--format", fmt), message)


@pytest.mark.parametrize(
    "rules, message",
    [
        ("bogus", "unknown rule preset 'bogus' (kcsolve rules lists them)"),
        ("deplete+goal=courts", "rules 'deplete+goal=courts' set goal twice: 'deplete' and 'goal=courts' disagree"),
        ("swap+royals", "rules 'swap+royals' set courts twice: 'swap' and 'royals' disagree"),
        ("goal=never", "unknown option 'never' for goal (options: courts, deplete, clear)"),
        ("colour=red", "unknown rule axis 'colour' (axes: removal, sets, courts, goal)"),
        ("swap+", "empty preset name in rules 'swap+'"),
    ],
)
def test_bad_rules(rules: str, message: str) -> None:
    assert_bad_input(run("solve", "--seed", "1", "--rules", rules), message)
    assert_bad_input(run("solve", "--seed", "1", "--count", "2", "--rules", rules, "--format", "json"), message)


@pytest.mark.parametrize(
    "budget",
    [
        "abc",
        "0",
        "-1s",
        "2x",
        "0s",
        "1.5",
        "1,",
        "nan",
        "-5",
        "1e-3",
        "2s,0",
        "2s,5s",
        "100,200",
        "1m,1000,500ms",
        "\u0665",
        "1_000",
        "\u0662s",
        "infs",
    ],
)
def test_bad_budget(budget: str) -> None:
    assert_bad_input(run("solve", "--seed", "1", "--budget", budget), f"bad budget {budget!r}: {BUDGET_HELP}")


def test_bad_budget_overflowing_exponent() -> None:
    assert_bad_input(run("solve", "--seed", "1", "--budget", "1e400"), f"bad budget '1e400': {BUDGET_HELP}")


def test_a_long_bad_budget_is_cut_in_its_error_line() -> None:
    text = "9" * 5000 + "x"
    result = run("solve", "--seed", "1", "--budget", text)
    assert_bad_input(result, f"bad budget '{text[:18]}...{text[-15:]}': {BUDGET_HELP}")
    assert result.stderr.endswith(f"9x': {BUDGET_HELP}\n")  # both ends of the culprit, and the reason whole
    with pytest.raises(InvalidBudgetError, match=r"not NoneType$"):
        parse_budget(None)  # type: ignore[arg-type]


def test_empty_budget_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_budget("")
    assert_bad_input(
        run("solve", "--seed", "1", "--budget", ""), "--budget '': the value is empty; give one, or leave --budget out"
    )


def test_unknown_method() -> None:
    assert_bad_input(
        run("solve", "--seed", "1", "--method", "bfs"),
        {
            "Invalid value for '--method': 'bfs' is not one of 'auto', 'construct', 'course', 'sat', 'dfs'.",
            "Invalid value for '--method': invalid choice: bfs. (choose from auto, construct, course, sat, dfs)",
        },
    )


@pytest.mark.parametrize("args", [["--format", "xml"], ["--style", "grid"], ["--bogus"], ["--seed"]])
def test_bad_usage(args: list[str]) -> None:
    result = run("solve", "--seed", "1", *args) if args != ["--seed"] else run("solve", "--seed")
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("Error: ")


def test_missing_deck_file(tmp_path: Path) -> None:
    path = str(tmp_path / "nowhere.txt")
    assert_bad_input(run("solve", path), f"cannot read {path!r}: No such file or directory")
    assert_bad_input(
        run("solve", str(tmp_path)), f"cannot read {str(tmp_path)!r}: it is a directory, not a regular file"
    )


def test_deck_file_with_a_duplicate_card(tmp_path: Path) -> None:
    deck = PACK.copy()
    deck[30] = "5s"  # 5S is card 5
    path = write(tmp_path, " ".join(deck))
    assert_bad_input(run("solve", path), f"{str(path)!r}: duplicate card '5S' at positions 5 and 31")
    path = write(tmp_path, {"deck": deck}, "deck.json")
    assert_bad_input(
        run("solve", path, "--format", "json"), f"{str(path)!r}: duplicate card '5S' at positions 5 and 31"
    )


def test_deck_file_with_51_cards(tmp_path: Path) -> None:
    path = write(tmp_path, "\n".join(PACK[:51]))
    assert_bad_input(run("solve", path), f"{str(path)!r}: deck has 51 cards, expected 52; missing KC")
    ranks_only = [c[0] for c in PACK[1:]]
    path = write(tmp_path, " ".join(ranks_only), "ranks.txt")
    assert_bad_input(run("solve", path), f"{str(path)!r}: deck has 51 cards, expected 52; missing ranks A")


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "the deck is empty"),
        ("AS ZZ", "unknown card 'ZZ' at position 2"),
        ('{"deck": [', "deck is not valid JSON: Expecting value at line 1"),
        ('{"cards": []}', "JSON deck must be a list of cards or an object with a 'deck' list"),
        ("AS 2 " + " ".join(PACK[2:]), "deck mixes suited and rank-only cards: card 2 is '2'"),
    ],
)
def test_other_bad_deck_files(tmp_path: Path, content: str, message: str) -> None:
    path = write(tmp_path, content)
    assert_bad_input(run("solve", path), f"{str(path)!r}: {message}")


def test_bad_deck_on_standard_input() -> None:
    result = run("solve", "-", input=" ".join(PACK[:51]))
    assert_bad_input(result, {f"{source}: deck has 51 cards, expected 52; missing KC" for source in ("-", "<stdin>")})


def test_bad_deck_on_standard_input_is_named_stdin() -> None:
    assert_bad_input(
        run("solve", "-", input=" ".join(PACK[:51])), "<stdin>: deck has 51 cards, expected 52; missing KC"
    )
