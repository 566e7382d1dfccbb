"""The intervals kcsolve shows with sampled figures: Wilson's for a share, Student's t for a mean."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% point of the standard normal distribution


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; (0, 1) when there are no trials."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def t_quantile(df: int, level: float = 0.95) -> float:
    """The two-sided ``level`` point of Student's t distribution with ``df`` (a positive integer) degrees of freedom."""
    low, high = 0.0, 1.0
    while _central(high, df) < level:
        high *= 2
    for _ in range(64):  # bisection: 64 halvings leave far less than a float's last digit
        middle = (low + high) / 2
        low, high = (middle, high) if _central(middle, df) < level else (low, middle)
    return (low + high) / 2


def t_interval(mean: float, error: float, count: int, level: float = 0.95) -> tuple[float, float]:
    """``mean`` plus or minus t(``level``, count - 1) standard errors, within [0, 1]: a sampled mean of chances."""
    half = t_quantile(count - 1, level) * error
    return max(0.0, mean - half), min(1.0, mean + half)


def _central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df``: the finite series of Abramowitz and Stegun 26.7.3 and 26.7.4."""
    theta = math.atan(t / math.sqrt(df))
    step = math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):
            term *= (k - 1) / k * step
            total += term
        return math.sin(theta) * total
    term = total = math.cos(theta) if df > 1 else 0.0
    for k in range(3, df, 2):
        term *= (k - 1) / k * step
        total += term
    return 2 / math.pi * (theta + math.sin(theta) * total)
