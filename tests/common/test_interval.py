"""Student's t points, against printed tables (two-sided 95%, to the tables' digits)."""

from __future__ import annotations

import pytest

from kcsolve.common.interval import t_quantile

TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 7: 2.365, 15: 2.131, 30: 2.042, 120: 1.980}


@pytest.mark.parametrize("df", sorted(TABLE))
def test_t_quantile_matches_the_table(df: int) -> None:
    assert t_quantile(df) == pytest.approx(TABLE[df], abs=5e-4)


def test_t_quantile_tends_to_the_normal_point() -> None:
    assert t_quantile(15) == pytest.approx(2.131449546, abs=1e-9)
    assert 1.95996 < t_quantile(100_000) < 1.96000
    assert t_quantile(3, level=0.99) == pytest.approx(5.841, abs=5e-4)
