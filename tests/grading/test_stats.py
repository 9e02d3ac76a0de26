import math

import pytest

from belief.errors import BeliefError
from hypothesis import given, settings
from hypothesis import strategies as st

from belief.grading.stats import (mean_ci95, normal_quantile, ordering, paired_diff_ci95, regularized_beta, t975,
                                  t_cdf, t_quantile, wilson_ci95)


def test_mean_ci95_matches_textbook_t_interval():
    # 1..5: mean 3, sd sqrt(2.5), t(4) = 2.776
    mean, (lo, hi) = mean_ci95([1, 2, 3, 4, 5])
    assert round(t975(4), 3) == 2.776
    half = t975(4) * math.sqrt(2.5 / 5)
    assert mean == 3 and lo == pytest.approx(3 - half) and hi == pytest.approx(3 + half)


def test_single_value_and_empty():
    assert mean_ci95([0.5]) == (0.5, (0.5, 0.5))
    with pytest.raises(BeliefError):
        mean_ci95([])


@pytest.mark.parametrize("df, expected", [(1, 12.706), (2, 4.303), (3, 3.182), (10, 2.228), (30, 2.042),
                                           (60, 2.000), (120, 1.980), (10**7, 1.960)])
def test_t975_matches_the_printed_tables_to_three_decimals(df, expected):
    assert round(t975(df), 3) == expected


def test_t_quantiles_decrease_towards_the_normal_one():
    qs = [t975(df) for df in (1, 2, 10, 30, 31, 45, 100, 1000, 10**6)]
    assert qs == sorted(qs, reverse=True) and qs[-1] == pytest.approx(normal_quantile(0.975), abs=1e-5)
    assert round(normal_quantile(0.975), 4) == 1.96 and normal_quantile(0.5) == pytest.approx(0, abs=1e-12)


def test_t_distribution_by_hand():
    # df = 1 is the Cauchy distribution: F(t) = 1/2 + atan(t)/pi; df = 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2))
    for t in (-3.0, -0.5, 0.0, 0.7, 4.0):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-12)
    assert t_quantile(0.975, 1) == pytest.approx(math.tan(math.pi * 0.475), rel=1e-10)
    assert t_quantile(0.025, 7) == pytest.approx(-t_quantile(0.975, 7))
    # I_x(1, 1) = x; I_x(a, 1) = x^a
    assert regularized_beta(1, 1, 0.3) == pytest.approx(0.3) and regularized_beta(2.5, 1, 0.4) == pytest.approx(0.4 ** 2.5)


def test_quantile_and_distribution_reject_nonsense():
    for bad in (lambda: t_quantile(1.0, 3), lambda: t_quantile(0.5, 0), lambda: t975(0), lambda: regularized_beta(1, 1, 2)):
        with pytest.raises(BeliefError):
            bad()


@settings(max_examples=200, deadline=None)
@given(p=st.floats(0.001, 0.999), df=st.floats(0.3, 1e5))
def test_t_quantile_agrees_with_scipy(p, df):
    scipy_stats = pytest.importorskip("scipy.stats")
    assert t_quantile(p, df) == pytest.approx(scipy_stats.t.ppf(p, df), rel=1e-8, abs=1e-9)


def test_wilson_interval_by_hand():
    # 7 of 10, z = 1.95996: centre (0.7 + z^2/20) / (1 + z^2/10), half z/(1 + z^2/10) sqrt(0.021 + z^2/400)
    z = 1.959963984540054
    centre = (0.7 + z * z / 20) / (1 + z * z / 10)
    half = z / (1 + z * z / 10) * math.sqrt(0.7 * 0.3 / 10 + z * z / 400)
    assert wilson_ci95(7, 10) == pytest.approx((centre - half, centre + half))
    lo, hi = wilson_ci95(5, 5)
    assert hi == 1.0 and 0.5 < lo < 1.0  # all right: not a point interval
    with pytest.raises(BeliefError):
        wilson_ci95(3, 0)


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


def test_wilson_interval_always_holds_the_share():
    for total in range(1, 200):
        for right in range(total + 1):
            lo, hi = wilson_ci95(right, total)
            assert 0.0 <= lo <= right / total <= hi <= 1.0, (right, total)


def test_clustered_interval_hand_worked():
    from belief.grading.stats import clustered_mean_ci95, t975

    # deviations from 0.75 sum to -0.5 (cluster a) and +0.5 (b): CR1 variance 2/1 * 0.5 / 16, se 0.25
    mean, (lo, hi) = clustered_mean_ci95([1, 0, 1, 1], ["a", "a", "b", "b"])
    assert mean == pytest.approx(0.75) and hi - mean == pytest.approx(t975(1) * 0.25)
    assert clustered_mean_ci95([1, 0], ["a", "a"])[1] == (0.5, 0.5)  # one cluster: no spread known
    assert clustered_mean_ci95([1, 0, 1]) == mean_ci95([1, 0, 1])
