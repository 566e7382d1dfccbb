"""The page's help engine (kcsolve/patience/daily/web/help.mjs) against Python: hints figure for figure, and
whether a deal is still winnable, never contradicting the solver."""

from __future__ import annotations

import json
import math
import random
import subprocess
from pathlib import Path

import pytest
from clitools import need_node

from kcsolve.common.deal import deal
from kcsolve.patience.daily import webpage
from kcsolve.patience.engine import Place, Position, Status
from kcsolve.patience.players.hints import EXACT_MEANING, SAMPLED_MEANING, Hint, heading, hints
from kcsolve.patience.record import record_from_moves, replay
from kcsolve.patience.rules import AXES, PRESETS, parse_rules

CHECK = Path(__file__).parent / "js" / "help_check.mjs"
RULE_SETS = math.prod(len(options) for options in AXES.values())  # 36
NODES = 10_000  # stillWinnable's budget in the default suite; the slow sweep gives it the page's own
FROZEN_SEEDS = 40  # deals per preset whose frozen verdict stillWinnable must not contradict


def ask(kind: str, cases: list[dict], tmp_path: Path, *extra: str) -> list[dict]:
    """The help engine's answers, one per case, from node."""
    node = need_node("the JavaScript help")
    path = tmp_path / f"{kind}.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in cases))
    shown = subprocess.run(
        [node, str(CHECK), kind, str(path), *extra], check=True, capture_output=True, text=True, timeout=600
    )
    return [json.loads(line) for line in shown.stdout.splitlines()]


@pytest.fixture(scope="module")
def corpus(golden: Path) -> list[dict]:
    """The hint corpus: positions under all 36 rule sets with Python's hints and the solver's verdict."""
    return [json.loads(line) for line in (golden / "hint-corpus.jsonl").read_text().splitlines()]


def python_position(case: dict) -> Position:
    """The position a corpus record reaches, played through the Python engine."""
    return replay(case["record"]).final


def python_hints(case: dict) -> list[dict]:
    """Python's kcsolve.hints for a corpus position, in the corpus's words."""
    ranked = hints(python_position(case).view(), case["playouts"], int(case["seed"]))
    return [
        {
            "move": {"cell": h.move.cell} if isinstance(h.move, Place) else {"cells": list(h.move.cells)},
            "exact": h.exact,
            "chance": h.chance,
            "meaning": h.meaning,
            "wins": None if h.exact else round(h.chance * h.playouts),
            "interval": list(h.interval),
        }
        for h in ranked
    ]


def in_corpus_words(answer: dict) -> list[dict]:
    """The JavaScript hints of one position, in the corpus's words."""
    return [
        {
            "move": h["move"],
            "exact": h["exact"],
            "chance": h["chance"],
            "meaning": h["meaning"],
            "wins": h["wins"],
            "interval": [h["low"], h["high"]],
        }
        for h in answer["hints"]
    ]


def test_the_corpus_spans_the_rule_sets_seeds_and_both_kinds_of_figure(corpus: list[dict]) -> None:
    assert len(corpus) >= 300
    assert len({str(parse_rules(case["record"]["rules"])) for case in corpus}) == RULE_SETS == 36
    assert any(int(case["seed"]) > 2**53 for case in corpus)
    kinds = [case["hints"][0]["exact"] for case in corpus if case["hints"]]
    assert kinds.count(True) >= 20 and kinds.count(False) >= 200
    assert sum(len({h["chance"] for h in case["hints"]}) > 1 for case in corpus) >= 100  # options told apart


@pytest.mark.slow
def test_javascript_hints_equal_python_hints_on_the_corpus(corpus: list[dict], tmp_path: Path) -> None:
    answers = ask("hints", corpus, tmp_path)
    assert len(answers) == len(corpus)
    differ = [
        (case["record"]["rules"], case["seed"])
        for case, answer in zip(corpus, answers)
        if in_corpus_words(answer) != case["hints"]
    ]
    assert not differ, f"{len(differ)} positions differ, first: {differ[:3]}"


def test_the_corpus_is_what_python_says_now(corpus: list[dict]) -> None:
    for case in corpus[::25]:
        assert python_hints(case) == case["hints"]


@pytest.mark.slow
def test_the_whole_corpus_is_what_python_says_now(corpus: list[dict]) -> None:
    for case in corpus:
        assert python_hints(case) == case["hints"]


@pytest.mark.slow
def test_the_seed_decides_the_sampled_figures(corpus: list[dict], tmp_path: Path) -> None:
    sampled = [
        case for case in corpus if len({h["chance"] for h in case["hints"]}) > 2 and not case["hints"][0]["exact"]
    ]
    reseeded = [{**case, "seed": str(int(case["seed"]) + 1)} for case in sampled[:20]]
    answers = ask("hints", reseeded, tmp_path)
    assert any(in_corpus_words(answer) != case["hints"] for case, answer in zip(reseeded, answers))
    assert all(in_corpus_words(answer) == python_hints(case) for case, answer in list(zip(reseeded, answers))[:3])


@pytest.mark.slow
def test_hints_never_depend_on_the_order_of_the_unseen_cards(corpus: list[dict], tmp_path: Path) -> None:
    rng = random.Random(3)
    shuffled = []
    for case in corpus[::15]:
        record = dict(case["record"])
        drawn = sum(1 for move in record["moves"] if "place" in move)
        stock = record["deck"][drawn + 1 :]  # the card in hand stays: the player sees it
        rng.shuffle(stock)
        record["deck"] = record["deck"][: drawn + 1] + stock
        shuffled.append({**case, "record": record})
    answers = ask("hints", shuffled, tmp_path)
    assert [in_corpus_words(answer) for answer in answers] == [case["hints"] for case in shuffled]


@pytest.mark.slow
def test_still_winnable_never_contradicts_the_solver(corpus: list[dict], tmp_path: Path) -> None:
    answers = ask("winnable", corpus, tmp_path, str(NODES))
    pairs = [(case["winnable"], answer["answer"]) for case, answer in zip(corpus, answers)]
    both = [(python, js) for python, js in pairs if python is not None and js != "unknown"]
    assert all(python == js for python, js in both), [p for p in both if p[0] != p[1]]
    assert len(both) >= 200 and {js for _, js in both} == {"win", "loss"}
    assert all(answer["nodes"] <= NODES for answer in answers)


def test_still_winnable_says_unknown_when_its_budget_runs_out(corpus: list[dict], tmp_path: Path) -> None:
    cases = [case for case in corpus if case["winnable"] is not None][:60]
    answers = ask("winnable", cases, tmp_path, "20")
    assert all(answer["nodes"] <= 20 for answer in answers)
    assert sum(answer["answer"] == "unknown" for answer in answers) >= 10  # the budget ran out: no guess either way
    assert all(
        case["winnable"] == answer["answer"] for case, answer in zip(cases, answers) if answer["answer"] != "unknown"
    )


@pytest.mark.slow
def test_still_winnable_with_the_page_budget_never_contradicts_the_solver(corpus: list[dict], tmp_path: Path) -> None:
    answers = ask("winnable", corpus, tmp_path, "50000")
    both = [
        (case["winnable"], answer["answer"])
        for case, answer in zip(corpus, answers)
        if case["winnable"] is not None and answer["answer"] != "unknown"
    ]
    assert all(python == js for python, js in both) and len(both) >= 250


@pytest.mark.slow  # a cross-check over whole frozen deals, about 10 s
def test_still_winnable_agrees_with_the_frozen_verdicts_of_whole_deals(repo: Path, tmp_path: Path) -> None:
    cases, frozen = [], []
    for preset in PRESETS:
        lines = (repo / "data" / f"verdicts-{preset}.tsv").read_text().splitlines()[1 : 1 + FROZEN_SEEDS]
        for line in lines:
            seed, verdict = line.split("\t")
            rules = parse_rules(preset)
            cases.append({"record": record_from_moves(deal(int(seed)), rules, [], "unknown").to_json()})
            frozen.append(verdict)
    answers = ask("winnable", cases, tmp_path, str(NODES))
    decided = [(verdict, answer["answer"]) for verdict, answer in zip(frozen, answers) if answer["answer"] != "unknown"]
    assert all(verdict == js for verdict, js in decided), [d for d in decided if d[0] != d[1]]
    assert len(decided) >= len(cases) // 2 and {js for _, js in decided} == {"win", "loss"}


def test_a_finished_game_is_answered_without_search(tmp_path: Path) -> None:
    deck = deal(5)
    rules = parse_rules("standard")
    position, moves = Position.start(deck, rules), []
    while legal := position.legal_moves():
        moves.append(legal[-1])
        position = position.play(legal[-1])
    answer = ask("winnable", [{"record": record_from_moves(deck, rules, moves, "unknown").to_json()}], tmp_path, "1")
    assert answer[0]["answer"] == ("win" if position.outcome().status is Status.WON else "loss")
    assert answer[0]["nodes"] == 0


def test_the_page_script_with_the_help_inlined_is_one_valid_module(tmp_path: Path) -> None:
    node = need_node("the page script")
    assert webpage.MODULES.index("help.mjs") == webpage.MODULES.index("engine.mjs") + 1
    script = tmp_path / "page.mjs"
    script.write_text(webpage.inline_script())  # one scope: a name defined twice is a syntax error
    checked = subprocess.run([node, "--check", str(script)], check=False, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    script.write_text(webpage.inline_script() + "\nconst viewOf = 1;\n")
    assert subprocess.run([node, "--check", str(script)], check=False, capture_output=True, timeout=60).returncode


def test_a_seed_above_2_53_keeps_every_digit_and_hints_refuse_a_position(corpus: list[dict], tmp_path: Path) -> None:
    node = need_node("the JavaScript help")
    case = next(c for c in corpus if int(c["seed"]) > 2**53 and len({h["chance"] for h in c["hints"]}) > 2)
    web = Path(webpage.__file__).parent / "web"
    script = tmp_path / "seeds.mjs"
    script.write_text(f"""
import {{ readRecord, replay }} from "{web / "engine.mjs"}";
import {{ viewOf, hints }} from "{web / "help.mjs"}";
const played = replay(readRecord({json.dumps(case["record"])}));
const position = played.steps.length ? played.steps[played.steps.length - 1].position : played.start;
const ask = (seed) => hints(viewOf(position), {{ playouts: {case["playouts"]}, seed }}).map((h) => h.wins);
let refused = false;
try {{ hints(position); }} catch (exc) {{ refused = exc instanceof TypeError; }}
console.log(JSON.stringify({{ text: ask("{case["seed"]}"), big: ask({case["seed"]}n), \
rounded: ask({case["seed"]}), refused }}));
""")
    shown = json.loads(
        subprocess.run([node, str(script)], check=True, capture_output=True, text=True, timeout=60).stdout
    )
    assert shown["text"] == shown["big"] == [h["wins"] for h in case["hints"]]
    assert shown["rounded"] != shown["text"]  # a plain number has lost the last digits, and with them the samples
    assert shown["refused"]


def test_the_view_is_python_s_view(corpus: list[dict], tmp_path: Path) -> None:
    cases = corpus[::6]
    shown = ask("view", cases, tmp_path)
    for case, view in zip(cases, shown):
        python = python_position(case).view()
        text = [None if card is None else str(card) for card in python.grid]
        assert view == {
            "grid": text,
            "inHand": None if python.in_hand is None else str(python.in_hand),
            "removing": python.removing,
            "seen": [str(c) for c in python.seen],
            "unseen": [str(c) for c in python.unseen],
            "courtsPlaced": python.courts_placed,
        }


def test_the_page_labels_its_figures_in_the_terminal_s_words(tmp_path: Path) -> None:
    node = need_node("the JavaScript help")
    web = Path(webpage.__file__).parent / "web"
    script = tmp_path / "words.mjs"
    script.write_text(f"""
import {{ hintHeading, EXACT_MEANING, SAMPLED_MEANING }} from "{web / "help.mjs"}";
console.log(JSON.stringify({{ exact: hintHeading([{{ exact: true, playouts: 0 }}]), \
sampled: hintHeading([{{ exact: false, playouts: 64 }}]),
  none: hintHeading([]), meanings: [EXACT_MEANING, SAMPLED_MEANING] }}));
""")
    shown = json.loads(
        subprocess.run([node, str(script)], check=True, capture_output=True, text=True, timeout=60).stdout
    )
    move = Place(5)
    assert shown["exact"] == heading([Hint(move, 0.5, 0)])
    assert shown["sampled"] == heading([Hint(move, 0.5, 64)])
    assert shown["none"] == heading([])
    assert shown["meanings"] == [EXACT_MEANING, SAMPLED_MEANING]
