"""Kings Corner's variants from the sources: draw two, the strict play-under, the attempt to tie, and seed 003's
impasse. Each is checked move by move, against a plain minimax, with every bot playing whole hands, and through
``verify``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from clitools import run, write
from corner_minimax import brute_forces_out

from kcsolve.common.cards import parse_card
from kcsolve.corner.bots.bots import BOTS, SearchBot, make_bot
from kcsolve.corner.bots.sim import play_hand
from kcsolve.corner.game.engine import (
    END,
    IllegalCornerMoveError,
    Merge,
    Play,
    Position,
    Under,
    board_moves,
    card_int,
    deal_hand,
    fits_on,
    rank,
    seeded_deck,
)
from kcsolve.corner.game.rules import parse_corner_rules
from kcsolve.corner.records.record import describe_result
from kcsolve.corner.solvers.openhands import solve_open

NEW_RULES = ["draw_two=yes", "draw_two=yes+draw=start", "under=strict", "tie=yes", "tie=yes+under=strict+draw_two=yes"]


def c(text: str) -> int:
    """A card int from its text."""
    return card_int(parse_card(text))


def piles(**named: str) -> tuple[tuple[int, ...], ...]:
    """Eight piles from texts such as N='9D 8S'."""
    order = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
    return tuple(tuple(c(t) for t in named.get(name, "").split()) for name in order)


def hand(text: str) -> tuple[int, ...]:
    """A sorted hand from its text."""
    return tuple(sorted(c(t) for t in text.split()))


def moves_text(position: Position) -> list[str]:
    """The legal moves as texts."""
    return [str(m) for m in position.legal_moves()]


# draw two


@pytest.mark.parametrize(("rules", "at_start"), [("draw_two=yes", 0), ("draw_two=yes+draw=start", 2)])
def test_draw_two_draws_two_cards_a_turn(rules: str, at_start: int) -> None:
    deck = seeded_deck(5)
    position = deal_hand(deck, 2, parse_corner_rules(rules))
    assert len(position.hands[0]) == 7 + at_start and len(position.stock) == 52 - 18 - at_start
    stock = position.stock
    after = position.play(END)
    assert len(after.hands[0]) == len(position.hands[0]) + 2 - at_start
    assert set(after.hands[0]) - set(position.hands[0]) == set(stock[: 2 - at_start])
    assert len(after.hands[1]) == 7 + at_start and after.stock == stock[2:]


# the strict play-under (001)


STRICT = parse_corner_rules("under=strict")


def strict_position(stock: tuple[int, ...] = (0, 1, 2)) -> Position:
    """N 9D, S 8S (which may move onto N), W empty since an earlier turn; in hand 5H (goes under 4C), TS (under
    9D), 9H and QD."""
    return Position(STRICT, piles(N="9D", E="4C", S="8S"), (hand("5H 9H TS QD"), hand("2C 3C")), stock)


def test_strict_under_only_after_a_pile_move_emptied_a_spot_this_turn() -> None:
    start = strict_position()
    assert not any(isinstance(m, Under) for m in start.legal_moves())  # W is empty, but from an earlier turn
    with pytest.raises(IllegalCornerMoveError, match="only while a side spot your pile move emptied this turn"):
        start.play(Under(c("5H"), 1))
    assert "under 5H E" in moves_text(parse_corner_rules_position("under=yes"))  # 000's plain rule allows it
    opened = start.play(Merge(2, 0))
    assert "under 5H E" in moves_text(opened) and "under TS N" in moves_text(opened)


def parse_corner_rules_position(rules: str) -> Position:
    """The strict test position under other rules."""
    position = strict_position()
    return Position(parse_corner_rules(rules), position.piles, position.hands, position.stock)


def test_strict_under_then_the_turn_ends_by_filling_the_vacancy() -> None:
    after_under = strict_position().play(Merge(2, 0)).play(Under(c("5H"), 1))
    assert "end" not in moves_text(after_under)
    with pytest.raises(IllegalCornerMoveError, match="so the turn ends by filling the vacancy"):
        after_under.play(END)
    still_open = after_under.play(Play(c("QD"), 3))  # W was empty before the turn: filling it is no vacancy's
    assert "end" not in moves_text(still_open)
    filled = after_under.play(Play(c("TS"), 2))  # S is the spot the pile move emptied
    assert moves_text(filled) == ["play 9H S", "end"]  # only cards onto the card that filled it, then the end
    with pytest.raises(IllegalCornerMoveError, match="the vacancy at S is filled"):
        filled.play(Play(c("9H"), 3))
    done = filled.play(Play(c("9H"), 2)).play(END)
    assert done.player == 1 and done.marks == start_marks()


def start_marks() -> object:
    """The marks every turn starts with."""
    return strict_position().marks


def test_strict_under_ends_with_the_vacancy_gone() -> None:
    """Filled before any card went under, the vacancy no longer exists: no card may go under."""
    opened = strict_position().play(Merge(2, 0))
    refilled = opened.play(Play(c("9H"), 2))
    assert not any(isinstance(m, Under) for m in refilled.legal_moves()) and "end" in moves_text(refilled)


# the attempt to tie (001)


def tie_position(second: str) -> Position:
    """Player 1 can go out with 8S on 9D; player 2 holds ``second``; E holds 5C."""
    return Position(parse_corner_rules("tie=yes"), piles(N="9D", E="5C"), (hand("8S"), hand(second)), hand("KS QS"))


def test_after_going_out_the_others_have_one_turn_to_tie() -> None:
    out = tie_position("4H").play(Play(c("8S"), 0))
    assert not out.over and out.player == 1 and out.winners == (0,)
    assert out.hands[1] == hand("4H") and out.stock == hand("KS QS")  # the player who went out drew nothing
    tied = out.play(Play(c("4H"), 1))
    assert tied.over and tied.winners == (0, 1)
    assert describe_result(tied) == "player 1 went out and player 2 tied; penalty points player 1: 0, player 2: 0"


def test_a_failed_attempt_to_tie_draws_nothing_and_ends_the_hand() -> None:
    out = tie_position("4S").play(Play(c("8S"), 0))
    done = out.play(END)
    assert done.over and done.winners == (0,) and done.hands[1] == hand("4S") and done.penalties() == (0, 1)


def test_without_tie_going_out_ends_the_hand() -> None:
    default = Position(parse_corner_rules(""), piles(N="9D", E="5C"), (hand("8S"), hand("4H")), hand("KS"))
    out = default.play(Play(c("8S"), 0))
    assert out.over and out.winners == (0,)


# the impasse (003)


def test_with_the_stock_empty_a_player_who_can_move_must_and_the_hand_goes_on() -> None:
    """Player 1 cannot play, player 2 can: ending player 1's turn is no impasse, and player 2 may not pass."""
    position = Position(
        parse_corner_rules(""),
        piles(N="9D", E="5C", S="2H", W="2S", NE="KH", SE="KC", SW="KD", NW="KS"),
        (hand("7H"), hand("8S 3D")),
        (),
    )
    assert moves_text(position) == ["end"]
    passed = position.play(END)
    assert not passed.over and passed.player == 1
    assert "end" not in moves_text(passed)
    with pytest.raises(IllegalCornerMoveError, match="a player who can move must move"):
        passed.play(END)
    moved = passed.play(Play(c("8S"), 0))
    assert "end" in moves_text(moved)
    after = moved.play(END)  # 7H now goes on 8S: the hand goes on
    assert not after.over and board_moves(after.piles, after.hand, after.rules)


def test_the_impasse_comes_when_no_card_can_be_drawn_or_played_by_anyone() -> None:
    position = Position(
        parse_corner_rules(""),
        piles(N="9D", E="5C", S="2H", W="2S", NE="KH", SE="KC", SW="KD", NW="KS"),
        (hand("7H"), hand("3D")),
        (),
    )
    assert not board_moves(position.piles, position.hands[1], position.rules)
    end = position.play(END)
    assert end.over and end.winners == () and end.penalties() == (1, 1)
    assert describe_result(end).startswith("impasse: no card can be drawn or played")


@pytest.mark.parametrize("seed", range(6))
def test_an_impasse_is_never_declared_while_someone_can_play(seed: int) -> None:
    """Random players to the end of the hand: whenever it ends without a winner nobody has a move."""
    rng = random.Random(seed)
    for players in (2, 3, 4):
        position = deal_hand(seeded_deck(seed), players, parse_corner_rules("hand_size=10"))
        while not position.over:
            position = position.play(rng.choice(position.legal_moves()))
        if not position.winners:
            assert not position.stock
            assert not any(board_moves(position.piles, h, position.rules) for h in position.hands)


@pytest.mark.parametrize(
    "rules",
    [
        "default",
        "under=yes",
        "under=strict+tie=yes",
        "dealt_kings=stay",
        "until_play=yes+draw_two=yes",
        "draw=start+draw_three=yes",
        "hand_size=10",
    ],
)
def test_with_the_stock_empty_the_holder_of_the_highest_card_can_play_it(rules: str) -> None:
    """The proof in docs/CORNER.md, checked on every position of random dealt hands: once the stock is empty, a
    card of the highest rank held goes onto some pile or spot, so a dealt hand never ends in an impasse."""
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        position = deal_hand(seeded_deck(seed), 2 + seed % 3, parse_corner_rules(rules))
        while not position.over:
            held = [(rank(card), seat, card) for seat, cards in enumerate(position.hands) for card in cards]
            if not position.stock and held:
                _, seat, card = max(held)
                assert any(
                    isinstance(m, Play) and m.card == card
                    for m in board_moves(position.piles, position.hands[seat], position.rules)
                )
                checked += 1
            position = position.play(rng.choice(position.legal_moves()))
        assert position.winners
    assert checked > 100


# the variants against a plain minimax over single moves


def _tiny_strict_game(rng: random.Random, rules: str) -> Position:
    """Two players with three or four cards and one or two, side piles where one may move onto another,
    a card in hand that goes under a pile, and a stock of up to two."""
    cards = list(range(52))
    rng.shuffle(cards)
    top = next(x for x in cards if 2 <= x % 13 <= 11)  # a Three to a Queen: a card goes on it and under it
    cards.remove(top)
    below = next(x for x in cards if fits_on(x, top))
    third = next(x for x in cards if x != below)
    for x in (below, third):
        cards.remove(x)
    sides = [(top,), (below,), (third,), ()]
    rng.shuffle(sides)
    under = next(x for x in cards if fits_on(top, x) or fits_on(third, x))
    cards.remove(under)
    hands = (tuple(sorted([under, *cards[: rng.randrange(2, 4)]])), tuple(sorted(cards[3 : 3 + rng.randrange(1, 3)])))
    stock = tuple(cards[5 : 5 + rng.randrange(0, 3)])
    return Position(parse_corner_rules(rules), (*sides, (), (), (), ()), hands, stock)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["under=strict", "under=strict+tie=yes", "draw_two=yes+under=strict"])
def test_open_hands_solver_agrees_with_minimax_where_the_strict_under_is_played(rules: str) -> None:
    rng = random.Random(17)
    seen = {"win": 0, "loss": 0}
    unders = 0
    for _ in range(25):
        position = _tiny_strict_game(rng, rules)
        verdict = solve_open(position, nodes=300_000)
        assert verdict.result in ("win", "loss")
        assert (verdict.result == "win") == brute_forces_out(position, 0)
        seen[verdict.result] += 1
        merged = [position.play(m) for m in position.legal_moves() if isinstance(m, Merge)]
        unders += any(isinstance(m, Under) for after in merged for m in after.legal_moves())
    assert seen["win"] and seen["loss"] and unders


# every bot plays whole hands under every new variant, and verify replays them


@pytest.mark.slow
@pytest.mark.parametrize("rules", NEW_RULES)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_plays_whole_hands_under_each_variant(rules: str, bot: str) -> None:
    rule_set = parse_corner_rules(rules)
    for seed in range(2 if bot == "search" else 4):
        position = deal_hand(seeded_deck(seed), 3, rule_set)
        bots = [SearchBot(s, samples=4, candidates=3) if bot == "search" else make_bot(bot, s) for s in range(3)]
        final, moves = play_hand(position, bots)
        assert final.over and sorted(final.cards()) == list(range(52))
        replay = deal_hand(seeded_deck(seed), 3, rule_set)
        for move in moves:
            assert move in replay.legal_moves()
            replay = replay.play(move)
        assert replay == final


@pytest.mark.parametrize("rules", NEW_RULES)
def test_sim_records_of_each_variant_verify(tmp_path: Path, rules: str) -> None:
    result = run(
        "corner",
        "sim",
        "--players",
        "3",
        "--bots",
        "greedy,turn,random",
        "--games",
        "3",
        "--seed",
        "8",
        "--rules",
        rules,
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    for n, line in enumerate(result.stdout.splitlines()[:-1]):
        record = json.loads(line)
        assert record["rules"] == parse_corner_rules(rules).to_json()
        checked = run("corner", "verify", write(tmp_path, record, f"r{n}.json"))
        assert checked.exit_code == 0, checked.stdout
        assert "went out" in checked.stdout or "impasse" in checked.stdout


def test_the_rules_command_lists_every_option_with_its_default() -> None:
    result = run("corner", "rules")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    for name, default in parse_corner_rules("").to_json().items():
        shown = ("yes" if default else "no") if isinstance(default, bool) else str(default)
        assert lines.count(f"  {name} (default {shown})") == 1
        assert lines[lines.index(f"  {name} (default {shown})") + 1].startswith("      ")
    assert "strict: only after your own pile move emptied a side spot" in " ".join(result.stdout.split())
    assert max(len(line) for line in lines) <= 80
    assert sum(line.startswith("      Variant: ") for line in lines) == len(parse_corner_rules("").to_json())
    assert lines[-1] == "How to play: kcsolve corner rules --how"


def test_the_rules_command_explains_the_game_to_a_newcomer() -> None:
    """--how covers the deal, the sides and corners, building down in alternating colours, moving a pile, the
    Kings, the turn, going out, the penalties and a game of hands, in 80 columns."""
    result = run("corner", "rules", "--how")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80 and len(lines) <= 24
    text = " ".join(result.stdout.split())
    for said in (
        "seven cards each",
        "side piles N, E, S, W",
        "one rank lower and the other colour",
        "only a King may start a corner",
        "a whole side pile may move onto another pile",
        "then end the turn",
        "no cards left wins the hand",
        "a King 10, any other card 1",
        "the lowest total wins",
        "'kcsolve corner rules' lists the options",
    ):
        assert said in text, said
