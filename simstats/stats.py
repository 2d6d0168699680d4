"""Statistics over outcome counts: pure functions, no I/O, no plotting.

Every rate comes with its 95% interval; comparisons of policies are paired on the same deals.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special  # scipy.special, not scipy.stats: a third of the import time

CONFIDENCE = 0.95


def normal_quantile(confidence: float = CONFIDENCE) -> float:
    """The two-sided standard normal quantile, 1.959964 for 95%."""
    return float(special.ndtri(0.5 + confidence / 2))


def wilson_interval(wins: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    z = normal_quantile(confidence)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return (low, high)


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
    # Binomial(discordant, 1/2) is symmetric: twice the smaller tail
    return float(min(1.0, 2 * special.bdtr(min(only_a, only_b), discordant, 0.5)))


def paired_difference_interval(both: int, only_a: int, only_b: int, neither: int,
                               confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Difference of two win rates measured on the same deals, p_A - p_B, with the adjusted
    Wald interval of Bonett and Price (2012): a Wald interval on the discordant shares after
    adding one to each, which keeps its coverage at 0 and n discordant pairs."""
    n = both + only_a + only_b + neither
    if n == 0:
        return (math.nan, math.nan, math.nan)
    z = normal_quantile(confidence)
    a, b = (only_a + 1) / (n + 2), (only_b + 1) / (n + 2)
    adjusted = a - b
    half = z * math.sqrt(max(a + b - adjusted**2, 0.0) / (n + 2))
    return ((only_a - only_b) / n, max(-1.0, adjusted - half), min(1.0, adjusted + half))


def percent_text(fraction: float) -> str:
    """A share as a percentage with enough digits to show a small interval bound."""
    if fraction == 0 or fraction >= 0.01:
        return f"{fraction:.2%}"
    return f"{fraction:.{max(2, -int(np.floor(np.log10(fraction * 100))) + 1)}%}"


def unpaired_difference_interval(wins_a: int, n_a: int, wins_b: int, n_b: int,
                                 confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """Difference of two win rates measured on different deals, p_A - p_B, with Newcombe's
    hybrid score interval (method 10 of Newcombe 1998), built from each rate's Wilson interval;
    statsmodels' confint_proportions_2indep(method="newcomb") gives the same."""
    if n_a == 0 or n_b == 0:
        return (math.nan, math.nan, math.nan)
    p_a, p_b = wins_a / n_a, wins_b / n_b
    low_a, high_a = wilson_interval(wins_a, n_a, confidence)
    low_b, high_b = wilson_interval(wins_b, n_b, confidence)
    difference = p_a - p_b
    return (difference,
            difference - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2),
            difference + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2))
