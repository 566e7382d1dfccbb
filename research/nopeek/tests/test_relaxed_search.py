"""The rearranging penalty and the compiled bound search (research.nopeek.relaxed_search).

The compiled search shares with ``relaxed.deck_score`` only the penalty's
Python code (``rearranging_penalty``, computed once per shape of a layer): the
states, placements, removals and the search are written twice, and the two must
agree to 1e-12. The rearranging penalty is checked as a bound against the exact
value (``endgame._expectimax``, which shares neither), and Theorem 12 against a
rearranging table computed by ``odds.rearranged``, whose children are enumerated
by its own compiled code.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kcsolve.common.deal import deal_ranks
from kcsolve.patience.classes import with_value
from kcsolve.patience.odds.measured import measured
from research.nopeek import relaxed, relaxed_search
from research.nopeek.rearranged import rearranged_values, state_key
from research.nopeek.relaxed import (
    LOST,
    START,
    InvalidDeckError,
    RearrangedTable,
    State,
    Stock,
    Valuation,
    centre_first,
    mean_and_upper,
    options,
    rearranging_options,
    rearranging_penalty,
    scaled,
    zero,
)
from research.nopeek.tests.test_relaxed import POSITIONS, exact, stock_of
from tests.odds.test_told import orders

REARRANGING = measured()["rearranging"]  # the figure as the package quotes it
RELAXATION = measured()["relaxation"]  # the figure as the package quotes it

LOGS = Path(__file__).resolve().parents[1] / "logs"  # the runs quoted by the docs
NOTEBOOK = LOGS.parent / "NOTEBOOK.md"  # the laboratory's record of those runs
THEORY = LOGS.parents[2] / "docs" / "THEORY.md"  # cites the notebook for them


def joined(path: Path) -> str:
    """A page's text with its lines joined, so quotes do not depend on where lines wrap."""
    return " ".join(path.read_text(encoding="utf-8").split())


def seated_shape(child: State | float) -> object:
    """What the rearranging value sees of an outcome: the values on the grid, each class's count, the court cards."""
    if isinstance(child, float):
        return child
    cells, courts = centre_first(child)
    return tuple(sorted(v for c in cells for v in c)), tuple(len(c) for c in cells), courts


def invariant(state: State, stock: Stock) -> float:
    """A W that sees only what the rearranging value sees (any W is valid; this one is cheap and not constant)."""
    cells, courts = centre_first(state)
    return (sum(courts) + 0.3 * len(cells[2]) + 0.1 * sum(v for c in cells for v in c) / 50) / 24 + 0.01 * stock[5]


WS: dict[str, Valuation] = {"zero": zero, "invariant": invariant, "half the exact value": scaled(exact, 0.5)}


def states_of_games(count: int, seed: int) -> list[tuple[State, Stock]]:
    """Class-level states between draws met by random lines through random decks, with their stocks."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        ranks = [r for r in range(1, 14) for _ in range(4)]
        rng.shuffle(ranks)
        state, stock = START, [0] + [4] * 13
        for rank in ranks:
            found.append((state, tuple(stock)))
            stock[rank] -= 1
            live = [child for child in options(state, rank) if not isinstance(child, float)]
            if not live:
                break
            state = rng.choice(live)
    return found[:count]


def test_every_real_outcome_is_a_rearranging_outcome() -> None:
    """Theorem 12's lemma: whatever the real game can reach from a state, seated centre first, the rearranging game
    can reach from the state seated centre first (as the rearranging value sees it)."""
    checked = 0
    for state, stock in states_of_games(1000, 12):
        for rank in range(1, 14):
            if not stock[rank]:
                continue
            real = {seated_shape(child) for child in options(state, rank)}
            rearranging = {seated_shape(child) for child in rearranging_options(state, rank)}
            assert real - {LOST} <= rearranging, (state, rank)
            checked += 1
    assert checked > 7_000


@pytest.mark.parametrize("name", WS)
def test_the_rearranging_penalty_gives_an_upper_bound(name: str) -> None:
    """Any W with the rearranging penalty: the mean over every order is at least the exact best no-peek chance."""
    for position, state in POSITIONS:
        every = orders(position)
        mean = sum(relaxed.deck_score(order, WS[name], state, charge=rearranging_penalty) for order in every)
        assert mean / len(every) >= exact(state, stock_of(position)) - 1e-12


@pytest.mark.parametrize("name", WS)
def test_the_compiled_search_scores_as_the_python_search(name: str) -> None:
    """Every order of the late positions' unseen cards: the two searches agree to 1e-12."""
    for position, state in POSITIONS:
        for order in orders(position)[::3]:
            python = relaxed.deck_score(order, WS[name], state, charge=rearranging_penalty)
            assert relaxed_search.deck_score(order, WS[name], state) == pytest.approx(python, abs=1e-12)


@pytest.mark.slow
def test_the_compiled_search_scores_whole_decks_as_the_python_search() -> None:
    """From the start of two deals (hundreds of thousands of seatings each) the searches agree to 1e-12."""
    for seed in (0, 7):
        python = relaxed.deck_score(deal_ranks(seed), invariant, charge=rearranging_penalty)
        assert relaxed_search.deck_score(deal_ranks(seed), invariant) == pytest.approx(python, abs=1e-12)


def cut_charge(cut: int) -> relaxed.Penalty:
    """Theorem 13's charge in Python: the rearranging penalty above ``cut`` unseen cards, the exact one from there."""

    def charge(state: State, stock: Stock, rank: int, w: Valuation) -> float:
        """The draw's penalty, by how many cards are unseen before it."""
        if sum(stock) <= cut:
            return relaxed.penalty(state, stock, rank, exact)
        return rearranging_penalty(state, stock, rank, w)

    return charge


def test_the_compiled_exact_value_is_the_expectimax() -> None:
    """exact_values (compiled, on packed states) equals endgame's expectimax (Python, on tuples) on states of games."""
    checked = 0
    for state, stock in states_of_games(40_000, 11):
        if sum(stock) <= 9:
            value = relaxed_search.exact_values(np.array([relaxed_search.pack(state)]), stock)[0]
            assert value == pytest.approx(exact(state, stock), abs=1e-12)
            checked += 1
    assert checked > 80


@pytest.mark.parametrize("name", WS)
def test_the_exact_value_below_a_cut_is_the_exact_charge_from_there(name: str) -> None:
    """Theorem 13: the compiled search with the cut scores each order as the Python search charging the exact
    penalty from the cut on, and the mean over every order stays at least the exact value."""
    for position, state in POSITIONS:
        every = orders(position)
        for cut in (2, 4):
            scores = [relaxed_search.deck_score(order, WS[name], state, exact_from=cut) for order in every]
            for order, score in list(zip(every, scores))[::5]:
                python = relaxed.deck_score(order, WS[name], state, charge=cut_charge(cut))
                assert score == pytest.approx(python, abs=1e-12)
            assert sum(scores) / len(scores) >= exact(state, stock_of(position)) - 1e-12


def test_a_cut_at_or_above_the_stock_is_the_exact_value() -> None:
    """With every card unseen at the cut (or a cut above the stock) there is no search: the exact value, as it is."""
    for position, state in POSITIONS:
        value = exact(state, stock_of(position))
        for order in orders(position)[::7]:
            for cut in (len(order), len(order) + 1, 52):
                assert relaxed_search.deck_score(order, zero, state, exact_from=cut) == pytest.approx(value, abs=1e-12)


def test_a_cut_can_raise_a_decks_score_as_well_as_lower_it() -> None:
    """Past the cut a line pays the gap to the exact value instead of its later shortfall, which may be less."""
    moves = set()
    for position, state in POSITIONS:
        for order in orders(position)[::3]:
            cut = relaxed_search.deck_score(order, invariant, state, exact_from=2)
            plain = relaxed_search.deck_score(order, invariant, state)
            moves.add((cut > plain + 1e-9) - (cut < plain - 1e-9))
        if {1, -1} <= moves:
            return
    pytest.fail(f"a cut moved the late positions' scores only one way: {sorted(moves)}")


def test_wrong_values_at_the_cut_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks above can fail: with the cut's exact values halved, the cut search no longer scores as the Python
    search charging the exact penalty, and the mean over every order falls below the exact value."""
    exact_values = relaxed_search.exact_values
    monkeypatch.setattr(relaxed_search, "exact_values", lambda keys, stock: exact_values(keys, stock) / 2)
    differs, below = False, False
    for position, state in POSITIONS:
        every = orders(position)
        scores = [relaxed_search.deck_score(order, invariant, state, exact_from=4) for order in every]
        for order, score in list(zip(every, scores))[::5]:
            python = relaxed.deck_score(order, invariant, state, charge=cut_charge(4))
            differs |= abs(score - python) > 1e-6
        below |= sum(scores) / len(scores) < exact(state, stock_of(position)) - 1e-6
    assert differs and below


def test_a_cut_refuses_court_cards_that_are_not_those_drawn() -> None:
    """The exact value reads the court cards off the stock, so a state that disagrees is refused, naming both."""
    with pytest.raises(InvalidDeckError, match=r"the court cards \(0, 1, 0, 0\) are not those missing"):
        relaxed_search.deck_score([1, 2, 3], zero, (((), (), (), ()), (0, 1, 0, 0)), exact_from=2)


def test_packing_round_trips() -> None:
    """A state's key gives the state back, and its shape counts each class."""
    for state, _ in states_of_games(500, 3):
        assert relaxed_search.unpack(relaxed_search.pack(state), state[1]) == state
        n = [len(c) for c in state[0]]
        key = np.array([relaxed_search.pack(state)], np.int64)
        assert relaxed_search._shapes(key)[0] == ((n[0] * 5 + n[1]) * 5 + n[2]) * 5 + n[3]


def test_refusals_and_an_empty_deck() -> None:
    """The compiled search refuses what the Python one refuses; no cards to come scores a loss."""
    with pytest.raises(InvalidDeckError, match=r"at most four cards of a rank"):
        relaxed_search.deck_score([1] * 5, zero)
    with pytest.raises(InvalidDeckError, match=r"ranks 1..13, got 0"):
        relaxed_search.deck_score([0], zero)
    assert relaxed_search.deck_score([], zero) == LOST


@pytest.mark.slow
def test_with_the_rearranging_value_no_deck_scores_above_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Theorem 12: with W the rearranging table, every order scores at most the table's value at the start, the
    mean stays at least the exact value, and the penalty's mean over the card is the table's own value."""
    for n, (position, state) in enumerate(POSITIONS):
        cells, courts = centre_first(state)
        stock = stock_of(position)

        def save(depth: int, keys: np.ndarray, values: np.ndarray) -> None:
            """Write one layer as the value script does."""
            np.savez(tmp_path / f"layer_{n}{depth:02d}.npz", keys=keys, values=values)  # noqa: B023  # called within this iteration

        rearranged_values([state_key(cells, courts, stock)], keep=save)
    table, below = RearrangedTable(tmp_path), []
    for position, state in POSITIONS:
        stock, top = stock_of(position), table(state, stock_of(position))
        assert relaxed._rearranging_mean(centre_first(state), stock, table) == pytest.approx(top, abs=1e-12)
        scores = [relaxed_search.deck_score(order, table, state) for order in orders(position)]
        assert max(scores) <= top + 1e-12
        assert sum(scores) / len(scores) >= exact(state, stock) - 1e-12
        below.append(min(scores) < top - 1e-6)
    assert any(below)  # where the real game falls short of the rearranging one, some deck pays for it


@pytest.mark.slow
def test_the_bound_script_scores_deals_and_goes_on_from_its_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """tools/bound_nopeek.py: one line a deal, the summary from them, and a rerun that scores nothing again."""
    root = Path(__file__).resolve().parents[3]
    out = tmp_path / "bound.jsonl"
    command = [
        sys.executable,
        "-m",
        "research.nopeek.tools.bound_nopeek",
        "--from",
        "5",
        "--count",
        "2",
        "--w",
        "zero",
        "--out",
        str(out),
    ]
    first = subprocess.run(command, capture_output=True, text=True, cwd=root, check=True)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(line["deal"] for line in lines) == [5, 6]
    assert {line["penalty"] for line in lines} == {"rearranging"}
    for line in lines:
        assert line["score"] == pytest.approx(relaxed_search.deck_score(deal_ranks(line["deal"]), zero), abs=1e-12)
    summary = json.loads(first.stdout.splitlines()[-1])
    assert summary["n"] == 2
    assert summary["mean"] == pytest.approx(sum(line["score"] for line in lines) / 2)
    again = subprocess.run(command, capture_output=True, text=True, cwd=root, check=True)
    assert len(out.read_text().splitlines()) == 2
    assert json.loads(again.stdout.splitlines()[-1]) == summary
    cut = subprocess.run([*command, "--exact-from", "10"], capture_output=True, text=True, cwd=root, check=True)
    added = [json.loads(line) for line in out.read_text().splitlines()[2:]]
    assert sorted(line["deal"] for line in added) == [5, 6] and {line["exact_from"] for line in added} == {10}
    for line in added:
        expected = relaxed_search.deck_score(deal_ranks(line["deal"]), zero, exact_from=10)
        assert line["score"] == pytest.approx(expected, abs=1e-12)
    assert json.loads(cut.stdout.splitlines()[-1])["exact_from"] == 10
    refused = subprocess.run(
        [*command, "--exact-from", "10", "--penalty", "real"], capture_output=True, text=True, cwd=root
    )
    assert refused.returncode == 2
    assert refused.stderr == "--exact-from takes 1..52 unseen cards, with the rearranging penalty\n"
    stray = subprocess.run([*command, "--factors", "f.json"], capture_output=True, text=True, cwd=root)
    assert stray.returncode == 2 and stray.stderr == "--factors FILE.json goes with --w fitted, and only with it\n"
    untabled = subprocess.run(
        [*command[:-4], "--w", "fitted", "--out", str(out)], capture_output=True, text=True, cwd=root
    )
    assert untabled.returncode == 2 and untabled.stderr == "--w fitted needs --table DIR\n"
    bad = tmp_path / "factors.json"
    bad.write_text('{"factors": {"1": 2}}')
    fitted = [*command[:-4], "--w", "fitted", "--table", str(tmp_path / "none"), "--out", str(out)]
    refused = subprocess.run([*fitted, "--factors", str(bad)], capture_output=True, text=True, cwd=root)
    assert refused.returncode == 2  # before any table is read: there is none
    assert (
        refused.stderr == f"--factors {str(bad)!r}: a factor is for 1..52 unseen cards and lies in 0..1, got 1: 2.0\n"
    )
    bad.write_text(json.dumps({"factors": {str(n): 0.5 for n in range(1, 52)}}))
    refused = subprocess.run([*fitted, "--factors", str(bad)], capture_output=True, text=True, cwd=root)
    assert refused.returncode == 2 and refused.stderr == f"--factors {str(bad)!r}: no factor for 52 unseen cards\n"
    assert len(out.read_text().splitlines()) == 4  # nothing written by the refusals


def test_seating_centre_first_after_one_more_card_adds_one_card_to_one_class() -> None:
    """The lemma's counting step, over every count of number cards per class: seating centre first after a card
    is added to any class with room differs from seating centre first before it by one card in one class."""
    checked = 0
    for counts in itertools.product(range(5), repeat=4):
        if sum(counts) > 14:
            continue
        state = (tuple((1,) * n for n in counts), (0, 0, 0, 0))
        before = [len(c) for c in centre_first(state)[0]]
        for x in range(4):
            if counts[x] < 4:
                after = [len(c) for c in centre_first((with_value(state[0], x, 1), state[1]))[0]]
                assert sorted(a - b for a, b in zip(after, before)) == [0, 0, 0, 1]
                checked += 1
    assert checked > 1000


def test_the_quoted_bound_is_the_held_out_log() -> None:
    """`odds --no-peek` quotes the log in logs/: every deal once, each at most the rearranging value (Theorem 13)."""
    path = LOGS / "bound-nopeek-cut-heldout.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    first = RELAXATION["first_deal"]
    assert [r["deal"] for r in records] == list(range(first, first + RELAXATION["deals"]))
    tags = {(r["w"], r["scale"], r["penalty"], r["exact_from"]) for r in records}
    assert tags == {("rearranged", 1.0, "rearranging", RELAXATION["exact_from"])}
    scores = [r["score"] for r in records]
    assert max(scores) <= REARRANGING["value"] + 1e-12
    assert mean_and_upper(scores) == (RELAXATION["mean"], RELAXATION["upper"])
    earlier = json.loads("[" + ",".join((path.parent / "bound-nopeek-heldout.jsonl").read_text().splitlines()) + "]")
    lower = sum(r["score"] < e["score"] - 1e-12 for r, e in zip(records, earlier, strict=True))
    higher = sum(r["score"] > e["score"] + 1e-12 for r, e in zip(records, earlier, strict=True))
    notebook = joined(NOTEBOOK)
    assert f"- **mean {RELAXATION['mean']:.3%}, one-sided 95% upper limit {RELAXATION['upper']:.3%}**" in notebook
    assert f"- {lower} decks score lower than with Theorem 12's penalty alone, none higher; the" in notebook
    assert higher == 0 and f"lowest scores \N{MINUS SIGN}{-min(scores):.2%}" in notebook
    theory = joined(THEORY)
    assert f"is {RELAXATION['mean']:.3%}, at most {RELAXATION['upper']:.3%} with 95% confidence" in theory
    assert f"{lower} decks score lower than with Theorem 12's penalty alone, none higher" in theory


def test_the_cut_pilot_quoted_is_the_pilot_log() -> None:
    """The notebook's pilot of Theorem 13: its means, limits and counts are those of logs/bound-nopeek-pilot.jsonl."""
    path = LOGS / "bound-nopeek-pilot.jsonl"
    runs: dict[tuple[float, int], dict[int, float]] = {}
    for record in map(json.loads, path.read_text(encoding="utf-8").splitlines()):
        if record["w"] == "rearranged" and record.get("penalty", "real") == "rearranging":
            runs.setdefault((record["scale"], record.get("exact_from", 0)), {})[record["deal"]] = record["score"]
    plain, cut, deeper = runs[(1.0, 0)], runs[(1.0, 10)], runs[(1.0, 12)]
    assert sorted(cut) == sorted(plain) == list(range(300_000, 300_200)) and sorted(deeper) == list(
        range(300_000, 300_040)
    )
    notebook = joined(NOTEBOOK)
    for scores, row in ((plain, "| none (Theorem 12) |"), (cut, "| 10 unseen cards |")):
        mean, upper = mean_and_upper(list(scores.values()))
        assert f"{row} 300,000..300,199 | {mean:.3%} | {upper:.3%} |" in notebook
    lower = sum(cut[d] < plain[d] - 1e-12 for d in cut)
    higher = sum(cut[d] > plain[d] + 1e-12 for d in cut)
    assert f"| 17.326% | {lower} / {higher} of 200 |" in notebook
    unmoved = [d for d in cut if abs(cut[d] - plain[d]) <= 1e-12]
    at_full = sum(abs(cut[d] - REARRANGING["value"]) <= 1e-12 for d in unmoved)
    assert f"Most decks do not move ({len(unmoved)} of 200; {at_full} of those keep Theorem 12's full value" in notebook
    assert all(abs(deeper[d] - cut[d]) <= 1e-15 for d in deeper)
    assert f"(the lowest scores {min(cut.values()):.2%})" in notebook


def test_theorem_12s_figure_is_its_log() -> None:
    """The held-out figure of the rearranging penalty alone (notebook, THEORY) is logs/bound-nopeek-heldout.jsonl's."""
    lines = (LOGS / "bound-nopeek-heldout.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert sorted(r["deal"] for r in records) == list(range(310_000, 315_000))
    assert {r.get("exact_from", 0) for r in records} == {0}
    mean, upper = mean_and_upper([r["score"] for r in records])
    assert f"- **mean {mean:.3%}, one-sided 95% upper limit {upper:.3%}**" in joined(NOTEBOOK)
    assert f"is {mean:.3%}, at most {upper:.3%} with 95% confidence" in joined(THEORY)
