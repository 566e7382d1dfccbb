"""The information-relaxation bound (research.nopeek.relaxed) on late positions, against the exact value.

``endgame._expectimax`` gives the exact best no-peek chance late in a game. The
bound, averaged over every order of the unseen cards (each equally likely), must
be at least that for every W; with W the exact value every order must score it
exactly. A penalty whose expectation peeks at the card drawn breaks the first
check, so the check can fail.
"""

from __future__ import annotations

import numpy as np
import pytest

from kcsolve.patience.players.endgame import _expectimax
from research.nopeek.rearranged import rearranged_values, state_key
from research.nopeek.relaxed import (
    START,
    InvalidDeckError,
    InvalidFactorsError,
    MissingTableError,
    RearrangedTable,
    State,
    Stock,
    Valuation,
    centre_first,
    deck_score,
    layer_scaled,
    mean_and_upper,
    post_draw,
    read_factors,
    scaled,
    zero,
)
from tests.odds.test_told import late_positions, orders


def exact(state: State, stock: Stock) -> float:
    """The exact best no-peek chance from a state between draws."""
    return _expectimax(state, stock, False, True)


def peeking_penalty(state: State, stock: Stock, rank: int, w: Valuation) -> float:
    """A broken z: its expectation is taken over the draws no better than the one made, so it knows the card."""
    here = post_draw(state, stock, rank, w)
    worse = [
        (count, value)
        for r, count in enumerate(stock)
        if count
        for value in (post_draw(state, stock, r, w),)
        if value <= here
    ]
    return here - sum(count * value for count, value in worse) / sum(count for count, _ in worse)


def bound(position, state: State, w: Valuation, charge=None) -> float:  # type: ignore[no-untyped-def]
    """The bound from a late position, averaged exactly over every order of its unseen cards."""
    every = orders(position)
    extra = {} if charge is None else {"charge": charge}
    return sum(deck_score(order, w, state, **extra) for order in every) / len(every)


def stock_of(position) -> Stock:  # type: ignore[no-untyped-def]
    """The unseen cards of a position by rank."""
    stock = [0] * 14
    for card in position.deck[position.drawn :]:
        stock[card.rank] += 1
    return tuple(stock)


POSITIONS = late_positions(3, 6, 4)
WS: dict[str, Valuation] = {
    "zero": zero,
    "half the exact value": scaled(exact, 0.5),
    "the exact value, squared": lambda s, u: exact(s, u) ** 2,
    "the exact value, scaled by layer": layer_scaled(exact, {n: 0.3 + 0.7 * (52 - n) / 51 for n in range(1, 53)}),
}


@pytest.mark.parametrize("name", WS)
def test_never_below_the_exact_value(name: str) -> None:
    """Every W gives an upper bound: the mean over all orders is at least the exact best no-peek chance."""
    for position, state in POSITIONS:
        assert bound(position, state, WS[name]) >= exact(state, stock_of(position)) - 1e-12


def test_exact_w_scores_the_value_on_every_deck() -> None:
    """With W the exact value the penalties telescope: every order scores the value, no variance."""
    for position, state in POSITIONS:
        value = exact(state, stock_of(position))
        for order in orders(position):
            assert deck_score(order, exact, state) == pytest.approx(value, abs=1e-12)


def test_a_peeking_penalty_is_caught() -> None:
    """A penalty that knows the card drawn has a positive mean and takes the bound below the exact value."""
    below = [
        bound(position, state, exact, peeking_penalty) < exact(state, stock_of(position)) - 1e-9
        for position, state in POSITIONS
    ]
    assert any(below)


def test_layer_factors_scale_each_layer_and_all_are_needed() -> None:
    """layer_scaled multiplies W by the factor of its count of unseen cards, and refuses factors missing a layer."""
    factors = {n: n / 100 for n in range(1, 53)}
    scaled_w = layer_scaled(lambda s, u: 0.5, factors)
    assert scaled_w(START, (0, 4, 3) + (0,) * 11) == pytest.approx(0.5 * 7 / 100)
    del factors[17]
    with pytest.raises(InvalidFactorsError, match=r"no factor for 17 unseen cards"):
        layer_scaled(zero, factors)


def test_factors_are_read_from_their_json_and_bad_ones_refused() -> None:
    """read_factors takes fit_w.py's JSON; anything else, or a factor out of range, is an InvalidFactorsError."""
    assert read_factors('{"factors": {"1": 1.0, "52": 0.25}}') == {1: 1.0, 52: 0.25}
    with pytest.raises(InvalidFactorsError, match=r"^not a factors file \(a JSON object with 'factors'\): '\[1\]'$"):
        read_factors("[1]")
    with pytest.raises(InvalidFactorsError, match=r"not a factors file"):
        read_factors('{"factors": {"x": 1}}')
    with pytest.raises(InvalidFactorsError, match=r"lies in 0..1, got 3: 1.5$"):
        read_factors('{"factors": {"3": 1.5}}')
    with pytest.raises(InvalidFactorsError, match=r"for 1..52 unseen cards and lies in 0..1, got 53: 0.5$"):
        read_factors('{"factors": {"53": 0.5}}')


def test_refusals_and_the_upper_limit() -> None:
    """A deck with five of a rank, or a rank out of range, is refused; the limit is 1.645 standard errors up."""
    with pytest.raises(InvalidDeckError, match=r"at most four cards of a rank"):
        deck_score([1] * 5, zero)
    with pytest.raises(InvalidDeckError, match=r"ranks 1..13, got 14"):
        deck_score([14], zero)
    mean, upper = mean_and_upper([0.0, 1.0, 0.0, 1.0])
    assert mean == 0.5
    assert upper == pytest.approx(0.5 + 1.6448536269514722 * (1 / 3) ** 0.5 / 2)


@pytest.mark.slow
def test_the_rearranging_table_as_w(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The rearranging game's values, read from the files the value script writes, make a W: still a bound."""
    for n, (position, state) in enumerate(POSITIONS[:2]):
        cells, courts = centre_first(state)
        stock = stock_of(position)

        def save(depth: int, keys: np.ndarray, values: np.ndarray) -> None:
            """Write one layer as the value script does."""
            np.savez(tmp_path / f"layer_{n}{depth:02d}.npz", keys=keys, values=values)  # noqa: B023  # called within this iteration

        rearranged_values([state_key(cells, courts, stock)], keep=save)
    table = RearrangedTable(tmp_path)
    for position, state in POSITIONS[:2]:
        value = exact(state, stock_of(position))
        assert table(state, stock_of(position)) >= value - 1e-12
        assert bound(position, state, table) >= value - 1e-12
    with pytest.raises(MissingTableError, match=r"no layer_\*\.npz files in '.*empty'"):
        RearrangedTable(tmp_path / "empty")
