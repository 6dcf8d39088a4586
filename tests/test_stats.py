import numpy as np
import pytest
from scipy.stats import chi2

from auklib import aligned_ranks_posthoc, friedman_aligned_ranks

# Hand-worked example: 3 data sets (rows) x 3 algorithms (columns).
SCORES = [[0.80, 0.70, 0.60],
          [0.90, 0.85, 0.70],
          [0.75, 0.80, 0.65]]


def test_hand_worked_example():
    # Aligned values (score minus row mean):
    #   D1: +0.100, 0.000, -0.100
    #   D2: +0.0833, +0.0333, -0.1167
    #   D3: +0.0167, +0.0667, -0.0833
    # Ranked 1..9 from the smallest: D2A3=1, D1A3=2, D3A3=3, D1A2=4, D3A1=5,
    # D2A2=6, D3A2=7, D2A1=8, D1A1=9.
    # Algorithm totals 22, 17, 6; data-set totals 15, 15, 15; k = n = 3, kn = 9.
    # T = 2 * (22^2 + 17^2 + 6^2 - (3 * 9 / 4) * 10^2) / (9*10*19/6 - 675/3)
    #   = 2 * (809 - 675) / (285 - 225) = 268 / 60
    res = friedman_aligned_ranks(SCORES)
    assert res.statistic == pytest.approx(268 / 60, rel=1e-12)
    assert res.p_value == pytest.approx(np.exp(-268 / 120), rel=1e-12)  # chi2 with 2 df


def test_direction_and_order_invariance():
    s = np.random.default_rng(0).random((5, 4))
    base = friedman_aligned_ranks(s)
    assert friedman_aligned_ranks(-s).statistic == pytest.approx(base.statistic)
    assert friedman_aligned_ranks(s[::-1, ::-1]).statistic == pytest.approx(base.statistic)
    assert friedman_aligned_ranks(s + 3.0).statistic == pytest.approx(base.statistic)


def test_clear_winner_is_significant_and_equal_scores_are_not():
    rng = np.random.default_rng(1)
    row = rng.random((10, 1))
    s = np.hstack([row + 0.5, row, row - 0.5]) + 0.01 * rng.random((10, 3))
    assert friedman_aligned_ranks(s).p_value < 1e-3   # a perfect ordering of 3 over 10 rows
    equal = friedman_aligned_ranks(np.hstack([row, row, row]))
    assert equal.statistic == 0 and equal.p_value == 1


def test_null_distribution_is_roughly_chi2():
    rng = np.random.default_rng(2)
    stats = [friedman_aligned_ranks(rng.random((12, 4))).statistic for _ in range(400)]
    # 95th percentile of chi2 with 3 df is 7.81; allow sampling error
    assert 0.02 < np.mean(np.array(stats) > chi2.ppf(0.95, 3)) < 0.10


def test_posthoc():
    ranks, p = aligned_ranks_posthoc(SCORES)
    np.testing.assert_allclose(ranks, [22 / 3, 17 / 3, 6 / 3])
    assert np.allclose(p, p.T) and np.all(np.diag(p) == 1)
    assert p[0, 2] < p[0, 1]          # the biggest rank gap is the most significant
    assert np.all((p > 0) & (p <= 1))


@pytest.mark.parametrize("arg, exc, match", [
    ([1, 2, 3], ValueError, "2-D"),
    ([[1, 2]], ValueError, "at least 2 data sets"),
    ([[1], [2]], ValueError, "at least 2 data sets and 2 algorithms"),
    ([[1, np.nan], [2, 3]], ValueError, "NaN"),
    ([["a", "b"], ["c", "d"]], TypeError, "numeric"),
])
def test_bad_input(arg, exc, match):
    with pytest.raises(exc, match=match):
        friedman_aligned_ranks(arg)
