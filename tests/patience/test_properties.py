"""Property tests: random legal play never loses or duplicates a card, always ends, and records round-trip."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kcsolve.common.cards import Card
from kcsolve.common.deal import deal
from kcsolve.patience.engine import CENTRE_CELLS, Place, Position, Remove, Status
from kcsolve.patience.record import Record, judge, parse_record, record_from_moves
from kcsolve.patience.rules import parse_rules

RULE_TEXTS = ["standard", "deplete", "swap", "deplete+swap"]

seeds = st.integers(min_value=0, max_value=2**64 - 1)
rng_seeds = st.integers(min_value=0, max_value=2**32 - 1)
rule_texts = st.sampled_from(RULE_TEXTS)


def check_accounting(position: Position, removed: list[int]) -> None:
    """Cards on the grid + removed + stock are the 52 deck indices, each exactly once."""
    on_grid = [i for i in position.grid if i != -1]
    stock = list(range(position.drawn, 52))
    everything = on_grid + removed + stock
    assert sorted(everything) == list(range(52))
    assert all(i < position.drawn for i in on_grid + removed)
    assert len(position.grid) == 16
    # court cards never leave the grid
    assert all(position.deck[i].rank <= 10 for i in removed)


def choose(position: Position, legal: list, rng: random.Random, careful: bool):
    """A random legal move; a careful player puts number cards in the centre when it can."""
    if careful and isinstance(legal[0], Place) and position.next_card.rank <= 10:
        centre = [m for m in legal if m.cell in CENTRE_CELLS]
        if centre:
            return rng.choice(centre)
    return rng.choice(legal)


def random_game(
    seed: int, rules_text: str, rng_seed: int, careful: bool = False, deck: tuple[Card, ...] | None = None
) -> tuple[Position, list, list[int]]:
    """Play random legal moves to the end, checking the accounting after every move."""
    rules = parse_rules(rules_text)
    deck = deck or deal(seed)
    rng = random.Random(rng_seed)
    position = Position.start(deck, rules)
    removed: list[int] = []
    moves = []
    check_accounting(position, removed)
    while True:
        legal = position.legal_moves()
        status = position.outcome().status
        assert (status is Status.UNFINISHED) == bool(legal)
        if not legal:
            break
        # removals and placements never mix: forced removal
        assert len({type(m) for m in legal}) == 1
        assert all(isinstance(m, Remove) for m in legal) == position.removing
        move = choose(position, legal, rng, careful)
        before = position
        if isinstance(move, Remove):
            removed.extend(position.grid[c] for c in move.cells)
            assert sum(position.card_at(c).rank for c in move.cells) == 10 or (
                len(move.cells) == 1 and position.card_at(move.cells[0]).rank == 10
            )
        position = position.play(move)
        moves.append(move)
        if isinstance(move, Place):
            assert position.drawn == before.drawn + 1
            assert position.card_at(move.cell) == before.next_card
        else:
            assert position.drawn == before.drawn
        check_accounting(position, removed)
        assert len(moves) < 200
    return position, moves, removed


@settings(max_examples=120, deadline=None)
@given(seed=seeds, rules_text=rule_texts, rng_seed=rng_seeds, careful=st.booleans())
def test_random_play_keeps_every_card_and_ends(seed: int, rules_text: str, rng_seed: int, careful: bool) -> None:
    final, _moves, _removed = random_game(seed, rules_text, rng_seed, careful)
    outcome = final.outcome()
    assert outcome.status in (Status.WON, Status.LOST)
    assert outcome.reason
    if outcome.status is Status.WON:
        assert final.courts_placed == 12
        if "deplete" in rules_text:
            assert final.drawn == 52
    assert final.legal_moves() == []


@settings(max_examples=60, deadline=None)
@given(seed=seeds, rules_text=rule_texts, rng_seed=rng_seeds, careful=st.booleans())
def test_same_moves_on_the_rank_only_deck_give_the_same_game(
    seed: int, rules_text: str, rng_seed: int, careful: bool
) -> None:
    """Suits play no part in the rules: the rank-only version of the deck plays out identically."""
    final, moves, _ = random_game(seed, rules_text, rng_seed, careful)
    ranks = tuple(Card(c.rank) for c in deal(seed))
    position = Position.start(ranks, parse_rules(rules_text))
    for move in moves:
        position = position.play(move)
    assert position.grid == final.grid
    assert position.outcome() == final.outcome()


def roundtrip(record: Record) -> Record:
    return parse_record(json.dumps(record.to_json()))


@settings(max_examples=60, deadline=None)
@given(
    seed=seeds,
    rules_text=rule_texts,
    rng_seed=rng_seeds,
    cut=st.floats(min_value=0.0, max_value=1.0),
    rank_only=st.booleans(),
    careful=st.booleans(),
)
def test_record_round_trip(
    seed: int, rules_text: str, rng_seed: int, cut: float, rank_only: bool, careful: bool
) -> None:
    final, moves, _ = random_game(seed, rules_text, rng_seed, careful)
    deck = deal(seed)
    if rank_only:
        deck = tuple(Card(c.rank) for c in deck)
    rules = parse_rules(rules_text)
    result = {Status.WON: "win", Status.LOST: "loss"}[final.outcome().status]
    whole = record_from_moves(deck, rules, moves, result, seed=seed, stats={"nodes": len(moves)})
    assert roundtrip(whole) == whole
    data = whole.to_json()
    assert data["seed"] == seed and data["rules"] == rules_text and data["result"] == result
    assert len(data["moves"]) == len(moves)
    # a record may stop anywhere
    prefix = moves[: int(cut * len(moves))]
    partial = record_from_moves(deck, rules, prefix, "unknown")
    assert roundtrip(partial) == partial
    # and the judge, replaying the record, reaches the game's own end
    verdict = judge(roundtrip(whole))
    assert verdict.illegal is None
    assert verdict.outcome == final.outcome()
    assert verdict.moves == len(moves)
    assert verdict.won == (final.outcome().status is Status.WON)


# Court cards first, then number cards in fours that always clear: under fixed courts every legal
# line wins (under swap a Queen and Jack can block each other, so swap is left out).
WINNABLE_RANKS = [13] * 4 + [12] * 4 + [11] * 4 + [10] * 4 + [9, 1] * 4 + [8, 2] * 4 + [7, 3] * 4 + [6, 4] * 4 + [5] * 4


@settings(max_examples=40, deadline=None)
@given(rules_text=st.sampled_from(["standard", "deplete"]), rng_seed=rng_seeds, suit_seed=rng_seeds)
def test_random_play_on_a_deck_every_line_wins(rules_text: str, rng_seed: int, suit_seed: int) -> None:
    suits = {rank: random.Random(suit_seed + rank).sample("SHDC", 4) for rank in range(1, 14)}
    deck = tuple(Card(rank, suits[rank].pop()) for rank in WINNABLE_RANKS)
    final, moves, removed = random_game(0, rules_text, rng_seed, deck=deck)
    assert final.outcome().status is Status.WON
    if "deplete" in rules_text:
        assert final.drawn == 52 and len(removed) == 36  # the last four fives end the game on the grid
        assert final.outcome().reason == "all twelve court cards placed and the stock is empty"
    else:
        assert final.drawn == 12 and removed == []
        assert final.outcome().reason == "the twelfth court card was placed as card 12"
    record = record_from_moves(deck, parse_rules(rules_text), moves, "win")
    assert parse_record(json.dumps(record.to_json())) == record
    assert judge(record).won
