"""Kings Corner: the engine keeps every card, bots play only legal moves and see only their seat,
the turn solver and the open-hands solver agree with brute force, records replay, and bad input gets one line.

The brute-force checks share only ``board_moves`` and ``Position.play`` (the rules themselves) with the
solvers: no memo, no pruning of interchangeable empty spots, no turn-level search.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from clitools import assert_bad_input, run, unwrapped, write
from corner_minimax import brute_forces_out
from hypothesis import given, settings
from hypothesis import strategies as st

import kcsolve.corner.bots.sim as corner_sim
from kcsolve.cli.base import shorten
from kcsolve.common.cards import parse_card
from kcsolve.corner.bots.bots import BOTS, SeatView, make_bot, view_of
from kcsolve.corner.bots.sim import TooManyBotsError, play_hand, play_match, tournament
from kcsolve.corner.game.engine import (
    END,
    NO_MARKS,
    IllegalCornerMoveError,
    Marks,
    Merge,
    Move,
    Play,
    Position,
    board_moves,
    card_int,
    deal_hand,
    ending_allowed,
    fits_on,
    rank,
    seeded_deck,
    step,
)
from kcsolve.corner.game.rules import DEFAULT as DEFAULT_RULES
from kcsolve.corner.game.rules import CornerRules, InvalidCornerRulesError, parse_corner_rules, rules_from_json
from kcsolve.corner.records.record import (
    CornerRecord,
    judge_corner,
    parse_corner_record,
    result_of,
)
from kcsolve.corner.solvers.openhands import longest_hand, solve_open
from kcsolve.corner.solvers.turn import best_turn, spots
from kcsolve.corner.spiel import KingsCornerGame

RULE_TEXTS = [
    "default",
    "draw=start",
    "until_play=yes",
    "under=yes",
    "draw_three=yes",
    "dealt_kings=stay",
    "scoring=aces+draw=start+under=yes+draw_three=yes",
    "draw_two=yes",
    "under=strict",
    "tie=yes",
    "under=strict+tie=yes+draw_two=yes+draw=start",
]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    rules=st.sampled_from(RULE_TEXTS),
    bot=st.sampled_from(["random", "greedy", "turn"]),
)
def test_every_position_keeps_all_52_cards_and_every_bot_move_is_legal(
    seed: int, players: int, rules: str, bot: str
) -> None:
    position = deal_hand(seeded_deck(seed), players, parse_corner_rules(rules))
    bots = [make_bot(bot, seed + s) for s in range(players)]
    for _ in range(3000):
        assert sorted(position.cards()) == list(range(52))
        if position.over:
            break
        move = bots[position.player].choose(view_of(position))
        assert move in position.legal_moves()
        position = position.play(move)
    assert position.over
    for winner in position.winners:
        assert not position.hands[winner]
    if not position.winners:  # an impasse: nothing left to draw, and nobody can play
        assert not position.stock and not any(board_moves(position.piles, h, position.rules) for h in position.hands)


def test_a_tournament_refuses_more_workers_than_it_may_fork() -> None:
    from kcsolve.common.workers import InvalidJobsError

    with pytest.raises(InvalidJobsError, match=r"^worker processes must be a whole number from 1 to 256, got 100000$"):
        tournament(2, ("random",), 1, 0, jobs=100_000)


def test_seeded_tournaments_are_deterministic() -> None:
    first = tournament(3, ("random", "greedy", "turn"), 12, 99).to_json()
    again = tournament(3, ("random", "greedy", "turn"), 12, 99, jobs=2).to_json()
    assert first == again and first["games"] == 12
    assert sum(first["seat_wins"]) + first["ties"] == 12 and "impasses" not in first


def test_the_engine_refuses_what_the_rules_forbid() -> None:
    position = Position(
        CornerRules(),
        ((card_int(parse_card("8D")),), (), (), (), (), (), (), ()),
        (tuple(sorted(card_int(parse_card(c)) for c in ("7H", "7S", "QS", "KC"))), (0,)),
        (1, 2),
    )
    play = position.play
    with pytest.raises(IllegalCornerMoveError, match="7H does not go on 8D"):
        play(Play(card_int(parse_card("7H")), 0))
    with pytest.raises(IllegalCornerMoveError, match="only a King starts a corner pile"):
        play(Play(card_int(parse_card("QS")), 4))
    with pytest.raises(IllegalCornerMoveError, match="is not in the hand"):
        play(Play(card_int(parse_card("6C")), 1))
    assert play(Play(card_int(parse_card("7S")), 0)).piles[0] == (
        card_int(parse_card("8D")),
        card_int(parse_card("7S")),
    )
    assert play(Play(card_int(parse_card("KC")), 4)).piles[4] == (card_int(parse_card("KC")),)
    assert play(Play(card_int(parse_card("QS")), 1)).piles[1] == (card_int(parse_card("QS")),)


def _random_small_position(rng: random.Random) -> tuple[tuple, tuple, CornerRules]:
    """Piles of up to three cards that follow the building rule, and a hand of up to four cards."""
    cards = list(range(52))
    rng.shuffle(cards)
    piles: list[tuple[int, ...]] = []
    for index in range(8):
        pile: list[int] = []
        if rng.random() < 0.6:
            base = cards.pop() if index < 4 else next((c for c in cards if rank(c) == 13), None)
            if base is not None:
                if base in cards:
                    cards.remove(base)
                pile.append(base)
                for _ in range(rng.randrange(3)):
                    nxt = next((c for c in cards if fits_on(c, pile[-1])), None)
                    if nxt is None:
                        break
                    cards.remove(nxt)
                    pile.append(nxt)
        piles.append(tuple(pile))
    hand = tuple(sorted(cards[: rng.randrange(1, 5)]))
    rules = CornerRules(under=rng.choice(["no", "no", "yes", "strict"]))
    return tuple(piles), hand, rules


def _brute_best(
    piles: tuple, hand: tuple, rules: CornerRules, marks: Marks = NO_MARKS, must_move: bool = False
) -> tuple[int, int, int] | None:
    """The best (cards left, points left, spots left) over every sequence of moves, enumerated in full;
    an empty hand scores (0, 0, 0); None when no line may end the turn."""
    if not hand:
        return (0, 0, 0)
    moves = board_moves(piles, hand, rules, marks)
    may_end = ending_allowed(rules, marks) and not (must_move and moves)
    found = [(len(hand), sum(rules.points(rank(c)) for c in hand), spots(piles, hand))] if may_end else []
    for move in moves:
        after_piles, after_hand, after_marks = step(piles, hand, rules, marks, move)
        after = _brute_best(after_piles, after_hand, rules, after_marks)
        if after is not None:
            found.append(after)
    return min(found) if found else None


@pytest.mark.slow
def test_turn_solver_agrees_with_brute_force_on_random_small_positions() -> None:
    rng = random.Random(5)
    kinds = set()
    for number in range(300):
        piles, hand, rules = _random_small_position(rng)
        marks = NO_MARKS
        if rules.under == "strict" and any(not piles[i] for i in range(4)):
            marks = Marks(opened=1 << next(i for i in range(4) if not piles[i]))  # as if a pile move emptied it
        must_move = number % 5 == 0
        turn = best_turn(piles, hand, rules, marks, must_move)
        assert turn.proven
        expected = _brute_best(piles, hand, rules, marks, must_move)
        assert (len(turn.hand), turn.points, turn.spots) == expected
        after_piles, after_hand, after_marks = piles, hand, marks
        for move in turn.line:
            assert move in board_moves(after_piles, after_hand, rules, after_marks)
            after_piles, after_hand, after_marks = step(after_piles, after_hand, rules, after_marks, move)
            kinds.add(type(move).__name__)
        assert (after_piles, after_hand) == (turn.piles, turn.hand)
        assert not after_hand or ending_allowed(rules, after_marks)
        assert turn.line or not must_move or not board_moves(piles, hand, rules, marks)
    assert kinds == {"Play", "Merge", "Under"}


def _tiny_game(rng: random.Random, rules: CornerRules, stock_max: int = 3) -> Position:
    """Two players with two or three cards each, a few cards on the sides, and a stock of up to ``stock_max``."""
    cards = list(range(52))
    rng.shuffle(cards)
    sides = [(cards.pop(),) if rng.random() < 0.8 else () for _ in range(4)]
    hands = (tuple(sorted(cards[:2])), tuple(sorted(cards[2 : 2 + rng.randrange(2, 4)])))
    stock = tuple(cards[5 : 5 + rng.randrange(0, stock_max + 1)])
    return Position(rules, (*sides, (), (), (), ()), hands, stock)


@pytest.mark.parametrize(
    ("rules", "games", "stock_max"),
    [
        ("default", 60, 3),
        ("draw_three=yes", 30, 3),
        ("draw=start+under=yes", 20, 3),
        ("until_play=yes", 30, 2),
        ("draw_two=yes", 30, 3),
        ("under=strict", 30, 3),
        ("tie=yes", 30, 3),
        ("tie=yes+draw=start+draw_two=yes", 20, 3),
    ],
)
def test_open_hands_solver_agrees_with_plain_minimax_on_tiny_games(rules: str, games: int, stock_max: int) -> None:
    rng = random.Random(11)
    seen = {"win": 0, "loss": 0}
    for _ in range(games):
        position = _tiny_game(rng, parse_corner_rules(rules), stock_max)
        verdict = solve_open(position, nodes=200_000)
        assert verdict.result in ("win", "loss")
        assert (verdict.result == "win") == brute_forces_out(position, 0)
        seen[verdict.result] += 1
    assert seen["win"] and seen["loss"]


def test_open_hands_solver_plays_on_with_the_three_cards_drawn() -> None:
    c = {t: card_int(parse_card(t)) for t in ("5S", "3S", "3D", "AS", "4S", "5H", "2H")}
    position = Position(
        parse_corner_rules("draw_three=yes"),
        ((), (), (c["5S"],), (), (), (), (), ()),
        ((c["3D"], c["3S"]), (c["AS"], c["4S"], c["5H"])),
        (c["2H"],),
    )
    verdict = solve_open(position)
    assert verdict.result == "win"
    assert str(verdict.line[-1]).startswith("play 2H ")  # the card drawn when the hand ran out goes out too
    after = position
    for move in verdict.line:
        after = after.play(move)
    assert after.over and after.winner == 0


def test_until_play_players_who_pass_use_up_the_stock_then_must_move_and_the_hand_ends() -> None:
    start = deal_hand(seeded_deck(3), 2, parse_corner_rules("until_play=yes"))
    position, turns = start, 0
    while not position.over:
        if END in position.legal_moves():
            position, turns = position.play(END), turns + 1
        else:
            assert not position.stock and not position.moved
            with pytest.raises(IllegalCornerMoveError, match="a player who can move must move"):
                position.play(END)
            position = position.play(position.legal_moves()[0])
        assert turns < longest_hand(start)
    assert position.stock == ()


def test_open_hands_budget_gives_undecided_not_a_guess() -> None:
    assert solve_open(deal_hand(seeded_deck(0), 2), nodes=50).result == "unknown"


def _hidden_shuffled(deck: tuple[int, ...], players: int, seed: int) -> tuple[int, ...]:
    """The same deal for seat 0 (its hand and the side piles) with every card it cannot see moved around."""
    size = 7
    visible = set(range(0, players * size, players)) | set(range(players * size, players * size + 4))
    hidden_places = [i for i in range(52) if i not in visible]
    hidden_cards = [deck[i] for i in hidden_places]
    random.Random(seed).shuffle(hidden_cards)
    changed = list(deck)
    for place, card in zip(hidden_places, hidden_cards):
        changed[place] = card
    return tuple(changed)


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("players", [2, 4])
def test_bots_choose_the_same_whatever_the_cards_they_cannot_see(bot: str, players: int) -> None:
    for seed in range(3):
        deck = seeded_deck(seed)
        other = _hidden_shuffled(deck, players, seed + 100)
        assert other != deck
        lines = []
        for cards in (deck, other):
            position = deal_hand(cards, players, CornerRules(draw="end"))
            chooser = make_bot(bot, 7)
            line = []
            while position.player == 0 and not position.over:
                move = chooser.choose(view_of(position))
                line.append(move)
                position = position.play(move)
            lines.append(line)
        assert lines[0] == lines[1]
        starts = [deal_hand(cards, players, CornerRules()) for cards in (deck, other)]
        assert starts[0] != starts[1] and view_of(starts[0]) == view_of(starts[1])


def _record_json(seed: int, players: int, rules: CornerRules) -> dict:
    position = deal_hand(seeded_deck(seed), players, rules)
    final, moves = play_hand(position, [make_bot("greedy", s) for s in range(players)])
    return CornerRecord(seeded_deck(seed), players, rules, tuple(moves), seed, result_of(final)).to_json()


def test_records_round_trip_and_verify(tmp_path: Path) -> None:
    for seed, rules in ((1, CornerRules()), (2, parse_corner_rules("draw=start+under=yes"))):
        data = _record_json(seed, 3, rules)
        assert judge_corner(parse_corner_record(json.dumps(data)))[0]
        result = run("corner", "verify", write(tmp_path, data))
        assert result.exit_code == 0
        assert "went out" in result.stdout or "impasse" in result.stdout
    broken = dict(data, moves=["merge N N", *data["moves"]])
    result = run("corner", "verify", write(tmp_path, broken, "broken.json"))
    assert result.exit_code == 1
    assert result.stdout.startswith("illegal move 1 (player 1): merge N N: a pile cannot move onto itself")
    lying = dict(data, result={**data["result"], "winners": [((data["result"]["winners"] + [0])[0] + 1) % 3]})
    assert run("corner", "verify", write(tmp_path, lying, "lying.json")).exit_code == 1
    cut = dict(data, moves=data["moves"][:3])
    assert run("corner", "replay", write(tmp_path, cut, "cut.json")).exit_code == 1


def test_sim_json_games_are_records_that_verify(tmp_path: Path) -> None:
    result = run(
        "corner",
        "sim",
        "--players",
        "3",
        "--bots",
        "greedy,turn,random",
        "--games",
        "6",
        "--seed",
        "4",
        "--format",
        "json",
    )
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    summary = lines[-1]
    assert summary["games"] == 6 and sum(summary["bot_wins"].values()) == sum(summary["seat_wins"])
    assert set(summary["bot_wins"]) == {"greedy", "turn", "random"} and summary["unit"] == "hand"
    for n, game in enumerate(lines[:-1]):
        assert game["game"] == "kings-corner" and game["index"] == n and game["players"] == 3
        assert game["seed"] == 4 + n and len(game["bots"]) == 3 and "seats" not in game
        assert run("corner", "verify", write(tmp_path, game, f"g{n}.json")).exit_code == 0


def test_turn_command_reads_a_position_and_prints_the_best_line(tmp_path: Path) -> None:
    position = {
        "piles": {"N": ["9D", "8S"], "E": ["KH"], "S": ["4C"], "W": ["2H"], "NE": ["KS", "QH"]},
        "hand": ["7H", "JC", "6S", "2D"],
    }
    result = run("corner", "turn", write(tmp_path, position), "--format", "json")
    data = json.loads(result.stdout)
    assert data["line"] == ["play 7H N", "play 6S N", "play JC NE"] and data["shed"] == 3
    assert data["hand_after"] == ["2D"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sim", "--bots", "greedy,wizard"], "unknown bot 'wizard' (bots: random, greedy, turn, search)"),
        (["sim", "--players", "5"], "Kings Corner is for 2 to 4 players, not 5"),
        (["deal", "--players", "1"], "Kings Corner is for 2 to 4 players, not 1"),
        (["deal", "--rules", "draw=sideways"], "option 'draw' takes end or start, not 'sideways'"),
        (["deal", "--rules", "jokers=yes"], None),
        (["solve", "--seed", "-1"], None),
        (["sim", "--frobnicate"], None),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str | None) -> None:
    assert_bad_input(run("corner", *args), message)


def test_bad_position_and_record_files(tmp_path: Path) -> None:
    bad_pile = {"piles": {"N": ["9D", "8D"]}, "hand": ["7H"]}
    assert_bad_input(
        run("corner", "turn", path := write(tmp_path, bad_pile)), f"{str(path)!r}: pile N: 8D cannot lie on 9D"
    )
    twice = {"piles": {"N": ["9D"]}, "hand": ["9D"]}
    assert_bad_input(
        run("corner", "turn", path := write(tmp_path, twice, "t.json")),
        f"{str(path)!r}: hand: 9D appears twice in the position",
    )
    corner = {"piles": {"NE": ["QD"]}, "hand": []}
    assert_bad_input(
        run("corner", "turn", path := write(tmp_path, corner, "c.json")),
        f"{str(path)!r}: pile NE: a corner pile starts with a King",
    )
    assert_bad_input(run("corner", "turn", write(tmp_path, "[" * 100_000, "deep.json")), None)
    alien = {"format": "bogus", "piles": {"N": ["9D"]}, "hand": ["8S"]}
    assert_bad_input(
        run("corner", "turn", path := write(tmp_path, alien, "f.json")),
        f"{str(path)!r}: 'format' must be 'kcsolve-corner-position/1', not \"bogus\"",
    )
    assert_bad_input(
        run("corner", "verify", write(tmp_path, {"deck": ["AS"], "players": 2, "moves": []}, "r.json")), None
    )
    assert_bad_input(run("corner", "verify", str(tmp_path / "absent.json")), None)


def test_merge_moves_a_whole_pile() -> None:
    c = {t: card_int(parse_card(t)) for t in ("9D", "8S", "7D", "6C")}
    position = Position(
        CornerRules(), ((c["9D"], c["8S"]), (c["7D"], c["6C"]), (), (), (), (), (), ()), ((0,), (1,)), ()
    )
    after = position.play(Merge(1, 0))
    assert after.piles[0] == (c["9D"], c["8S"], c["7D"], c["6C"]) and after.piles[1] == ()


class _Passer:
    """A seat that plays only when it must (the stock empty), and notes which seat of each hand it holds."""

    name = "passer"

    def __init__(self) -> None:
        self.seats: set[int] = set()

    def choose(self, view: SeatView) -> Move:
        """The end of the turn whenever it is allowed."""
        self.seats.add(view.seat)
        moves = view.legal_moves()
        return END if END in moves else moves[0]


def test_a_match_adds_hands_until_the_target_and_the_lead_passes_left(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = CornerRules(target=60)
    passer = _Passer()
    held: list[set[int]] = []
    finals: list[Position] = []

    def watched(position: Position, bots: list) -> tuple[Position, list]:
        passer.seats = set()
        final, moves = play_hand(position, bots)
        held.append(passer.seats)
        finals.append(final)
        return final, moves

    monkeypatch.setattr(corner_sim, "play_hand", watched)
    result = play_match(40, 3, [make_bot("greedy"), passer, make_bot("greedy")], rules)
    assert result.hands == len(finals) >= 2
    assert held == [{(1 - h) % 3} for h in range(result.hands)]  # hand h is led by table seat h mod 3
    kept = [final.penalties()[(1 - h) % 3] for h, final in enumerate(finals)]
    assert all(points >= 7 for points in kept)  # a seat that never plays keeps its seven cards and more
    assert result.totals[1] == sum(kept) >= rules.target
    assert sum(result.totals) == sum(sum(final.penalties()) for final in finals)
    assert result.winner in (0, 2, None)


def test_match_seed_ranges_are_checked_before_playing() -> None:
    assert_bad_input(
        run("corner", "sim", "--match", "--seed", str(2**64 - 1), "--games", "1"),
        f"--seed {2**64 - 1} with --games 1 runs past the last deal number",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("target=²", "option 'target' takes a whole number from 1 to 10000, not '²'"),
        ("hand_size=0", "option 'hand_size' takes a whole number from 1 to 10, not '0'"),
        ("under=maybe", "option 'under' takes no or yes or strict, not 'maybe'"),
        ("tie=1", "option 'tie' takes yes or no, not '1'"),
        ("draw=start+draw=end", "rules 'draw=start+draw=end' set draw twice: 'draw=start' and 'draw=end' disagree"),
        (
            "target=30+under=yes+target=40",
            "rules 'target=30+under=yes+target=40' set target twice: 'target=30' and 'target=40' disagree",
        ),
        (
            "draw-two=yes+draw_two=no",
            "rules 'draw-two=yes+draw_two=no' set draw_two twice: 'draw-two=yes' and 'draw_two=no' disagree",
        ),
    ],
)
def test_rule_texts_refuse_bad_values_and_conflicts(text: str, message: str) -> None:
    with pytest.raises(InvalidCornerRulesError) as caught:
        parse_corner_rules(text)
    assert str(caught.value) == message
    assert_bad_input(run("corner", "deal", "--seed", "3", "--rules", text), message)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"draw": "end+under=yes"}, "rule 'draw' takes end or start, not 'end+under=yes'"),
        ({"target": "50"}, "rule 'target' takes a whole number from 1 to 10000, not '50'"),
        ({"target": True}, "rule 'target' takes a whole number from 1 to 10000, not True"),
        ({"under": 1}, "rule 'under' takes no or yes or strict, not 1"),
        ({"draw_two": "yes"}, "rule 'draw_two' takes true or false, not 'yes'"),
        ({"draw_three": 1}, "rule 'draw_three' takes true or false, not 1"),
        ({"jokers": True}, None),
    ],
)
def test_position_files_take_rules_as_json_values_only(tmp_path: Path, rules: dict, message: str | None) -> None:
    path = write(tmp_path, {"piles": {"N": ["5S"]}, "hand": ["6H"], "rules": rules})
    assert_bad_input(run("corner", "turn", path), None if message is None else f"{str(path)!r}: {message}")


LONG_NUMBERS = [("target", "9" * 5000), ("hand_size", "0" * 5000), ("target", "1" * 4301), ("hand_size", "7" * 40)]


@pytest.mark.parametrize(("name", "digits"), LONG_NUMBERS)
@pytest.mark.parametrize(
    "command", [["deal", "--seed", "3"], ["sim", "--games", "1"], ["solve", "--seed", "3"], ["play", "--seed", "3"]]
)
def test_a_long_number_in_a_rule_text_is_refused_in_one_line(name: str, digits: str, command: list[str]) -> None:
    largest = {"target": 10000, "hand_size": 10}[name]
    assert_bad_input(
        run("corner", *command, "--rules", f"{name}={digits}"),
        shorten(f"option {name!r} takes a whole number from 1 to {largest}, not {digits!r}"),
    )


@pytest.mark.parametrize(("name", "digits"), LONG_NUMBERS)
def test_a_game_for_other_programs_refuses_a_long_number_with_the_package_error(name: str, digits: str) -> None:
    with pytest.raises(InvalidCornerRulesError):
        KingsCornerGame(rules=f"{name}={digits}")


VALUE_TEXT = st.text(max_size=6).filter(lambda t: "+" not in t and t == t.strip())  # '+' would start another option


@settings(max_examples=200)
@given(
    name=st.sampled_from(["target", "hand_size"]),
    zeros=st.integers(0, 5000),
    digits=st.text("0123456789", max_size=30) | VALUE_TEXT,
)
def test_a_number_in_a_rule_text_is_read_or_refused_whatever_its_length(name: str, zeros: int, digits: str) -> None:
    text = "0" * zeros + digits
    largest = {"target": 10000, "hand_size": 10}[name]
    try:
        rules = parse_corner_rules(f"{name}={text}")
    except InvalidCornerRulesError as refused:
        assert str(refused) == f"option {name!r} takes a whole number from 1 to {largest}, not {text!r}"
        assert not (digits.isascii() and digits.isdigit() and 1 <= int(digits) <= largest)
    else:
        assert getattr(rules, name) == int(digits)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"target": 10**5000}, "rule 'target' takes a whole number from 1 to 10000, not a number of 16,610 bits"),
        ({"hand_size": 0}, "rule 'hand_size' takes a whole number from 1 to 10, not 0"),
        ({"hand_size": 7.0}, "rule 'hand_size' takes a whole number from 1 to 10, not 7.0"),
        ({"tie": "yes"}, "rule 'tie' takes true or false, not 'yes'"),
        ({"draw": "x" * 100}, f"rule 'draw' takes end or start, not '{'x' * 36}..."),
        ({"scoring": None}, "rule 'scoring' takes standard or aces, not None"),
    ],
)
def test_corner_rules_check_every_option_when_made(fields: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidCornerRulesError) as refused:
        CornerRules(**fields)  # type: ignore[arg-type]
    assert str(refused.value) == message
    with pytest.raises(InvalidCornerRulesError):
        KingsCornerGame(rules=replace(DEFAULT_RULES, **fields))


@pytest.mark.parametrize("rules", [5, None, b"draw=start"])
def test_a_game_for_other_programs_takes_rules_as_text_or_corner_rules_only(rules: object) -> None:
    with pytest.raises(InvalidCornerRulesError) as refused:
        KingsCornerGame(rules=rules)  # type: ignore[arg-type]
    assert str(refused.value) == f"rules are a CornerRules or a text such as 'draw=start', not {rules!r}"


def test_an_option_given_twice_alike_is_one_setting() -> None:
    assert parse_corner_rules("draw=start+target=050+draw=start+target=50") == CornerRules(draw="start", target=50)


def test_rules_written_to_json_read_back() -> None:
    rules = parse_corner_rules("until_play=yes+under=yes+scoring=aces+target=200+hand_size=5")
    assert rules_from_json(rules.to_json()) == rules


def test_json_card_lists_hold_only_cards(tmp_path: Path) -> None:
    result = run("corner", "turn", write(tmp_path, {"piles": {"N": ["5S"]}, "hand": ["4H"]}), "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)["hand_after"] == []
    dealt = json.loads(run("corner", "deal", "--seed", "3", "--format", "json").stdout)
    assert sorted(len(h) for h in dealt["hands"]) == [7, 7] and len(dealt["stock"]) + 14 + 4 == 52
    assert all(card_int(parse_card(c)) in range(52) for c in [*dealt["stock"], *dealt["hands"][0]])


def test_more_bots_than_seats_are_refused() -> None:
    """Rotated through two seats, five bots would each meet only their neighbours in the list."""
    assert_bad_input(
        run("corner", "sim", "--players", "2", "--bots", "greedy,turn,random,search,greedy"),
        "5 bots named for 2 players: at most one a seat",
    )
    assert_bad_input(
        run("corner", "sim", "--players", "3", "--bots", "greedy,turn,random,search", "--match"),
        "4 bots named for 3 players: at most one a seat",
    )
    with pytest.raises(TooManyBotsError, match=r"^3 bots named for 2 players: at most one a seat$"):
        tournament(2, ("greedy", "turn", "random"), 1, 0)


def test_corner_alone_prints_its_help() -> None:
    result = run("corner")
    assert result.exit_code == 0 and result.stdout.startswith("Usage: ") and " corner [OPTIONS]" in result.stdout
    assert "  sim " in result.stdout and not result.stderr


@pytest.mark.parametrize(
    ("winners", "said"),
    [
        ([0], "the record claims player 1 went out; the replay gives player 2 went out"),
        ([], "the record claims no winner; the replay gives player 2 went out"),
        ([1, 0], "the record claims player 2 went out and player 1 tied; the replay gives player 2 went out"),
    ],
)
def test_verify_names_seats_from_1_and_never_prints_none(tmp_path: Path, winners: list, said: str) -> None:
    line = run("corner", "sim", "--players", "2", "--games", "1", "--format", "json").stdout.splitlines()[0]
    record = json.loads(line)
    assert record["result"]["winners"] == [1]
    record["result"]["winners"] = winners
    result = run("corner", "verify", write(tmp_path, record))
    assert result.exit_code == 1 and unwrapped(result.stdout) == [said]  # wrapped at 80 columns


def test_the_open_hands_solver_answers_a_finished_hand() -> None:
    """A hand already over is its own answer: 'win' for the player who went out, 'loss' for the other."""
    rules = parse_corner_rules("")
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    position = deal_hand(seeded_deck(3), 2, rules)
    while not position.over:
        position = position.play(bots[position.player].choose(view_of(position)))
    assert position.winner is not None
    verdict = solve_open(position)
    assert verdict.result == ("win" if position.winner == position.player else "loss") and verdict.line == ()
