"""Means with 95% confidence intervals, for benchmark reports.

Student-t intervals: ``mean_ci95`` for one sample, ``paired_diff_ci95`` for the difference of two
conditions played on the same episodes (paired by episode, which removes the between-world variance).
An ordering is supported only when the interval of the difference excludes zero (``ordering``).
"""

from __future__ import annotations

import math
from typing import Sequence

from belief.errors import BeliefError

# Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom; beyond that the normal 1.96
# is within 2% of the t quantile (and is what we use for df > 30, taking the next table value down).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042)
_T975_LARGE = ((40, 2.021), (60, 2.000), (120, 1.980))


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (conservative between table rows)."""
    if df < 1:
        raise BeliefError(f"a confidence interval needs at least 2 values (got {df + 1})")
    if df <= len(_T975):
        return _T975[df - 1]
    for bound, value in reversed(_T975_LARGE):
        if df >= bound:
            return value
    return _T975[-1]


def mean_ci95(values: Sequence[float], bounds: tuple[float, float] | None = None
              ) -> tuple[float, tuple[float, float]]:
    """``(mean, (lo, hi))``; with one value the interval is the point itself (no spread is known).

    ``bounds`` clips the interval to the range the quantity can take (a rate: ``(0, 1)``); the t interval
    of a few episodes can otherwise reach far outside it.
    """
    xs = [float(v) for v in values]
    if not xs:
        raise BeliefError("mean_ci95: no values")
    mean = sum(xs) / len(xs)
    if len(xs) == 1:
        return mean, (mean, mean)
    var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    half = t975(len(xs) - 1) * math.sqrt(var / len(xs))
    lo, hi = mean - half, mean + half
    if bounds is not None:
        lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
    return mean, (lo, hi)


def paired_diff_ci95(a: Sequence[float], b: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean of ``a[i] - b[i]`` with its 95% interval; ``a`` and ``b`` are per-episode figures on the same episodes."""
    if len(a) != len(b):
        raise BeliefError(f"paired_diff_ci95: {len(a)} values against {len(b)}; pair them by episode")
    return mean_ci95([x - y for x, y in zip(a, b)])


def ordering(a: Sequence[float], b: Sequence[float]) -> str:
    """``'>'``, ``'<'`` when the paired 95% interval of ``a - b`` excludes zero, else ``'~'`` (no ordering)."""
    _, (lo, hi) = paired_diff_ci95(a, b)
    if lo > 0:
        return ">"
    if hi < 0:
        return "<"
    return "~"
