import math

import pytest

from belief.errors import BeliefError
from belief.grading.stats import mean_ci95, ordering, paired_diff_ci95, t975


def test_mean_ci95_matches_textbook_t_interval():
    # 1..5: mean 3, sd sqrt(2.5), t(4) = 2.776
    mean, (lo, hi) = mean_ci95([1, 2, 3, 4, 5])
    half = 2.776 * math.sqrt(2.5 / 5)
    assert mean == 3 and lo == pytest.approx(3 - half) and hi == pytest.approx(3 + half)


def test_single_value_and_empty():
    assert mean_ci95([0.5]) == (0.5, (0.5, 0.5))
    with pytest.raises(BeliefError):
        mean_ci95([])


def test_t_quantiles_decrease_towards_normal():
    qs = [t975(df) for df in (1, 2, 10, 30, 31, 45, 100, 1000)]
    assert qs == sorted(qs, reverse=True) and qs[-1] == pytest.approx(1.98)


def test_paired_difference_and_ordering():
    a = [0.8, 0.9, 0.7, 0.85, 0.95, 0.8]
    b = [x - 0.1 for x in a]
    assert paired_diff_ci95(a, b)[0] == pytest.approx(0.1)
    assert ordering(a, b) == ">" and ordering(b, a) == "<"
    noisy = [0.8, 0.6, 0.9, 0.5, 0.7, 0.75]
    assert ordering(a, noisy[::-1]) == "~"
    with pytest.raises(BeliefError):
        paired_diff_ci95([1, 2], [1])


def test_bounds_clip_the_interval_of_a_rate():
    mean, (lo, hi) = mean_ci95([0.2, 1.0], bounds=(0.0, 1.0))
    assert mean == pytest.approx(0.6) and (lo, hi) == (0.0, 1.0)
    assert mean_ci95([0.2, 1.0])[1][0] < 0  # unclipped, the t interval of two values is far wider
