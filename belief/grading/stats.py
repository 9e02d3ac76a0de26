"""Means with 95% confidence intervals, for benchmark reports.

Student-t intervals: ``mean_ci95`` for one sample, ``paired_diff_ci95`` for the difference of two
conditions played on the same episodes (paired by episode, which removes the between-world variance),
``clustered_mean_ci95`` for a mean over items that come in clusters (questions of one episode).
An ordering is supported only when the interval of the difference excludes zero (``ordering``).
``wilson_ci95`` is the interval of a share of independent yes/no items (e.g. questions answered right).

The t quantile is computed, not looked up: Student's t distribution function is a regularized incomplete
beta function (evaluated with ``math.lgamma`` and its continued fraction, as in Numerical Recipes
section 6.4), inverted by bisection. No scipy needed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from belief.errors import BeliefError

_EPS = 1e-15
_TINY = 1e-300


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz), converging for x < (a+1)/(a+b+2)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 1000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def regularized_beta(a: float, b: float, x: float) -> float:
    """``I_x(a, b)``, the regularized incomplete beta function, for ``a, b > 0`` and ``0 <= x <= 1``."""
    if not 0.0 <= x <= 1.0:
        raise BeliefError(f"regularized_beta: x must be in [0, 1], got {x}")
    if x in (0.0, 1.0):
        return x
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * regularized_beta(df / 2.0, 0.5, df / (df + t * t))  # P(T > |t|)
    return 1.0 - tail if t >= 0 else tail


def _bisect(f: Callable[[float], float], p: float, lo: float, hi: float) -> float:
    """The x in [lo, hi] with f(x) = p, for an increasing f; hi doubles until f(hi) >= p."""
    while f(hi) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if f(mid) < p else (lo, mid)
    return (lo + hi) / 2.0


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df > 0`` degrees of freedom (``t_quantile(0.975, 10)`` = 2.228)."""
    if not 0.0 < p < 1.0:
        raise BeliefError(f"t_quantile: p must be in (0, 1), got {p}")
    if not df > 0:
        raise BeliefError(f"t_quantile: degrees of freedom must be positive, got {df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    return _bisect(lambda t: t_cdf(t, df), p, 0.0, 2.0)


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal (``normal_quantile(0.975)`` = 1.960)."""
    if not 0.0 < p < 1.0:
        raise BeliefError(f"normal_quantile: p must be in (0, 1), got {p}")
    if p < 0.5:
        return -normal_quantile(1.0 - p)
    return _bisect(lambda z: 0.5 * math.erfc(-z / math.sqrt(2.0)), p, 0.0, 2.0)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom: the half-width factor of a 95% interval."""
    if df < 1:
        raise BeliefError(f"a confidence interval needs at least 2 values (got {df + 1})")
    return t_quantile(0.975, df)


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


def clustered_mean_ci95(values: Sequence[float], clusters: Sequence[object] | None = None
                        ) -> tuple[float, tuple[float, float]]:
    """``(mean, (lo, hi))`` of values that come in clusters (questions of one episode are not independent): the
    cluster-robust (CR1) standard error of the mean with a Student-t quantile on ``clusters - 1`` degrees of
    freedom. Without ``clusters`` (or with one value per cluster) it is :func:`mean_ci95`'s interval. With one
    cluster the interval is the point."""
    xs = [float(v) for v in values]
    if not xs:
        raise BeliefError("clustered_mean_ci95: no values")
    if clusters is None:
        return mean_ci95(xs)
    if len(clusters) != len(xs):
        raise BeliefError(f"clustered_mean_ci95: {len(xs)} values against {len(clusters)} cluster labels")
    n = len(xs)
    mean = sum(xs) / n
    sums: dict[object, float] = {}
    for x, c in zip(xs, clusters):
        sums[c] = sums.get(c, 0.0) + (x - mean)
    g = len(sums)
    if g < 2:
        return mean, (mean, mean)
    var = g / (g - 1) * sum(s * s for s in sums.values()) / (n * n)
    half = t975(g - 1) * math.sqrt(var)
    return mean, (mean - half, mean + half)


def wilson_ci95(right: int, total: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a share ``right / total`` of independent yes/no items.

    Unlike the t interval of 0/1 values it stays inside [0, 1] and is not a point when every item agrees."""
    if total < 1 or not 0 <= right <= total:
        raise BeliefError(f"wilson_ci95: need 0 <= right <= total and total >= 1, got {right} of {total}")
    z = normal_quantile(0.975)
    share = right / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z / (1 + z * z / total) * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    return max(0.0, min(centre - half, share)), min(1.0, max(centre + half, share))  # rounding: hold the share
