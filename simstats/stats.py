"""Statistics over outcome counts: pure functions, no I/O, no plotting.

Every rate comes with its 95% interval; comparisons of policies are paired on the same deals.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

CONFIDENCE = 0.95


def wilson_interval(wins: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (scipy's implementation)."""
    if n == 0:
        return (0.0, 1.0)
    ci = stats.binomtest(int(wins), int(n)).proportion_ci(confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def quantile_from_histogram(histogram: np.ndarray, q: float) -> float:
    """The q-quantile of integer values 0..len-1 given their counts (numpy's 'linear' method)."""
    n = int(histogram.sum())
    if n == 0:
        return math.nan
    cumulative = np.cumsum(histogram)
    position = q * (n - 1)
    below = int(np.searchsorted(cumulative, math.floor(position) + 1))
    above = int(np.searchsorted(cumulative, math.ceil(position) + 1))
    return below + (above - below) * (position - math.floor(position))


def mcnemar_exact_p(only_a: int, only_b: int) -> float:
    """Exact McNemar test: a two-sided binomial test on the discordant pairs."""
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    return float(stats.binomtest(only_a, discordant, 0.5).pvalue)
