"""The turn solver stops at going out and keeps within its budget; the search bot simulates a pass as the engine
plays it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from clitools import run, write

import kcsolve.corner.bots.bots as corner_bots
from kcsolve.common.budget import Budget
from kcsolve.common.cards import parse_card
from kcsolve.corner.bots.bots import SearchBot, view_of
from kcsolve.corner.game.engine import END, Position, board_moves, card_int, deal_hand, seeded_deck, step
from kcsolve.corner.game.rules import DEFAULT, parse_corner_rules
from kcsolve.corner.solvers.turn import best_turn

CHAIN = "QH JS TH 9S 8H 7S 6H 5S 4H 3S"
STUCK = "QH AS AC 2S 2C 3C"


def c(text: str) -> int:
    """A card int from its text."""
    return card_int(parse_card(text))


def chain_position() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """KS alone in a corner, every side spot empty, and a ten-card chain down from QH in hand."""
    piles = ((), (), (), (), (c("KS"),), (), (), ())
    return piles, tuple(sorted(c(t) for t in CHAIN.split()))


def test_a_ten_card_chain_goes_out_at_once() -> None:
    """Every side spot empty once made this search visit 215,475 positions (9 s); going out now ends it."""
    piles, hand = chain_position()
    turn = best_turn(piles, hand, DEFAULT)
    assert turn.proven and turn.hand == () and turn.shed == 10
    assert turn.states <= 20
    assert [str(m) for m in turn.line] == [f"play {t} NE" for t in CHAIN.split()]


def test_out_of_budget_the_turn_solver_says_so_and_gives_a_legal_line() -> None:
    piles, _ = chain_position()
    hand = tuple(sorted(c(t) for t in STUCK.split()))  # five cards that fit nowhere but four empty spots
    full = best_turn(piles, hand, DEFAULT)
    assert full.proven and full.states > 900 and len(full.hand) == 1
    cut = best_turn(piles, hand, DEFAULT, budget=Budget(nodes=300))
    assert not cut.proven and cut.states <= 301
    at_piles, at_hand, marks = piles, hand, corner_marks()
    for move in cut.line:
        assert move in board_moves(at_piles, at_hand, DEFAULT, marks)
        at_piles, at_hand, marks = step(at_piles, at_hand, DEFAULT, marks, move)
    assert (at_piles, at_hand) == (cut.piles, cut.hand)
    assert len(cut.hand) >= len(full.hand)


def corner_marks() -> object:
    """The marks a turn starts with."""
    return Position(DEFAULT, (), (), ()).marks


def test_the_turn_command_answers_undecided_with_exit_3(tmp_path: Path) -> None:
    position = {"piles": {"NE": ["KS"]}, "hand": STUCK.split()}
    path = write(tmp_path, position)
    result = run("corner", "turn", path, "--budget", "300")
    assert result.exit_code == 3
    assert result.stdout.startswith(
        "Undecided: the budget of 300 positions ran out.\nThe best line seen follows, not proven best.\n"
    )
    assert "Best turn seen (" in result.stdout
    assert run("corner", "turn", path).exit_code == 0


def test_the_search_bot_simulates_a_pass_as_the_engine_plays_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under until_play a turn ended without a move draws a card. The bot used to mark a pass as a move before
    ending it, so its samples of a pass drew nothing."""
    rules = parse_corner_rules("until_play=yes")
    position = deal_hand(seeded_deck(1), 2, rules)
    assert board_moves(position.piles, position.hand, rules) and len(position.stock) > 5
    view = view_of(position)
    starts: list[Position] = []
    real = corner_bots.greedy_playout

    def watched(start: Position, limit: int = corner_bots.PLAYOUT_MOVES) -> Position:
        starts.append(start)
        return real(start, limit)

    monkeypatch.setattr(corner_bots, "greedy_playout", watched)
    SearchBot(3, samples=5, candidates=10_000)._best_line(view)  # every ending, the pass included
    passes = [s for s in starts if s.piles == view.piles]
    assert len(passes) == 5
    for start in passes:
        assert start.player == 1 and len(start.hands[0]) == len(view.hand) + 1
        assert len(start.stock) == view.stock_size - 1 - max(0, len(start.hands[1]) - view.hand_sizes[1])


def test_after_line_is_the_engine_itself() -> None:
    rng = random.Random(4)
    for rules in ("until_play=yes", "default", "tie=yes", "under=strict"):
        position = deal_hand(seeded_deck(rng.randrange(1000)), 3, parse_corner_rules(rules))
        assert corner_bots.after_line(position, ()) == position.play(END)
