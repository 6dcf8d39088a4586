import itertools
import math

import numpy as np
import pytest
from scipy.stats import norm

from auklib import aligned_ranks_posthoc, friedman_aligned_ranks
from auklib.stats import _aligned_ranks

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
    # Algorithm totals 22, 17, 6; data-set totals 15, 15, 15; k = b = 3, kb = 9.
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
    assert friedman_aligned_ranks(s, method="permutation", random_state=0).p_value < 1e-3
    equal = friedman_aligned_ranks(np.hstack([row, row, row]))
    assert equal.statistic == 0 and equal.p_value == 1
    ranks, p = aligned_ranks_posthoc(np.hstack([row, row, row]))
    assert np.all(p == 1)


def test_posthoc():
    ranks, p = aligned_ranks_posthoc(SCORES)
    np.testing.assert_allclose(ranks, [22 / 3, 17 / 3, 6 / 3])
    assert np.allclose(p, p.T) and np.all(np.diag(p) == 1)
    assert p[0, 2] < p[0, 1]          # the biggest rank gap is the most significant
    assert np.all((p > 0) & (p <= 1))
    # By hand: the rows' ranks (9,4,2), (8,6,1), (5,7,3) all have mean 5 and
    # within-row sums of squares 26, 26 and 8 (total 60, the denominator of T
    # above), so Var(mean-rank difference) = 2 * 60 / (3^2 * 2) = 20/3; the
    # largest gap 16/3 gives z = (16/3) / sqrt(20/3), whose raw p-value Holm
    # multiplies by 3.
    z = (16 / 3) / math.sqrt(20 / 3)
    assert p[0, 2] == pytest.approx(3 * 2 * norm.sf(z), rel=1e-12)


# ---------------------------------------------------------------------------
# The null distribution: exact moments and p-values by full enumeration of
# all (k!)^b within-row permutations (no shortcut), on tiny tables.

TINY = [
    np.array(SCORES),
    np.random.default_rng(5).random((3, 4)),
    np.round(np.random.default_rng(6).random((2, 4)), 1),   # with ties
    np.array([[1.0, 2.0, 2.0], [0.5, 0.5, 0.1], [3.0, 1.0, 2.0]]),  # more ties
]


def _brute_force(s):
    b, k = s.shape
    r = _aligned_ranks(s)
    means, between = [], []
    for combo in itertools.product(itertools.permutations(range(k)), repeat=b):
        rr = np.array([r[i][list(combo[i])] for i in range(b)])
        tot = rr.sum(axis=0)
        means.append(tot / b)
        between.append(np.sum((tot - tot.mean()) ** 2))
    return r, np.array(means), np.array(between)


@pytest.mark.parametrize("s", TINY)
def test_null_variance_of_a_difference_matches_enumeration(s):
    b, k = s.shape
    r, means, _ = _brute_force(s)
    ss = np.sum((r - r.mean(axis=1, keepdims=True)) ** 2)
    for i, j in [(0, 1), (0, k - 1)]:
        d = means[:, i] - means[:, j]
        assert d.mean() == pytest.approx(0, abs=1e-12)
        assert d.var() == pytest.approx(2 * ss / (b**2 * (k - 1)), rel=1e-12)


@pytest.mark.parametrize("s", TINY)
def test_permutation_p_values_equal_full_enumeration(s):
    b, k = s.shape
    r, means, between = _brute_force(s)
    tot = r.sum(axis=0)
    t_obs = np.sum((tot - tot.mean()) ** 2)
    p_exact = np.mean(between >= t_obs - 1e-9)
    got = friedman_aligned_ranks(s, method="permutation")
    assert got.p_value == pytest.approx(p_exact, abs=1e-12)
    # raw pairwise p-values by enumeration, then Holm by hand
    m = r.mean(axis=0)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    raw = np.array([np.mean(np.abs(means[:, i] - means[:, j]) >= abs(m[i] - m[j]) - 1e-9)
                    for i, j in pairs])
    order = np.argsort(raw, kind="stable")
    holm = np.empty_like(raw)
    running = 0.0
    for step, idx in enumerate(order):
        running = max(running, min(1.0, (len(raw) - step) * raw[idx]))
        holm[idx] = running
    p = aligned_ranks_posthoc(s, method="permutation").p_adjusted
    np.testing.assert_allclose([p[i, j] for i, j in pairs], holm, atol=1e-12)
    # Monte Carlo with many permutations lands near the exact values
    mc = aligned_ranks_posthoc(s, method="permutation", n_permutations=20000,
                               random_state=0).p_adjusted
    np.testing.assert_allclose(mc, p, atol=0.03)
    mc_t = friedman_aligned_ranks(s, method="permutation", n_permutations=20000,
                                  random_state=0).p_value
    assert mc_t == pytest.approx(p_exact, abs=0.02)


def test_monte_carlo_is_reproducible_and_never_zero():
    s = np.random.default_rng(3).random((6, 5))
    s[:, 0] += 1.0
    a = aligned_ranks_posthoc(s, method="permutation", n_permutations=99, random_state=4)
    b = aligned_ranks_posthoc(s, method="permutation", n_permutations=99, random_state=4)
    np.testing.assert_array_equal(a.p_adjusted, b.p_adjusted)
    assert a.p_adjusted.min() >= 1 / 100
    t = friedman_aligned_ranks(s, method="permutation", n_permutations=99, random_state=4)
    assert t.p_value >= 1 / 100


# ---------------------------------------------------------------------------
# Error rates under the complete null hypothesis: data-set effects (and
# data-set-specific noise levels), no algorithm effect.

def _null_tables(b, k, reps, seed):
    rng = np.random.default_rng(seed)
    effect = 3.0 * rng.normal(size=(reps, b, 1))
    scale = rng.uniform(0.5, 2.0, size=(reps, b, 1))
    return effect + scale * rng.normal(size=(reps, b, k))


def _bound(alpha, reps):
    return alpha + 3 * math.sqrt(alpha * (1 - alpha) / reps)


@pytest.mark.parametrize("b, k", [(3, 6), (10, 5), (30, 4), (5, 3)])
def test_asymptotic_posthoc_holds_family_wise_error(b, k):
    reps = 1500
    tables = _null_tables(b, k, reps, seed=10 * b + k)
    rejections = sum(aligned_ranks_posthoc(s).p_adjusted.min() <= 0.05 for s in tables)
    assert rejections / reps <= _bound(0.05, reps)
    if b >= 10:   # and is not needlessly conservative once b is moderate
        assert rejections / reps >= 0.02


@pytest.mark.parametrize("b, k", [(3, 6), (10, 5)])
def test_permutation_posthoc_holds_family_wise_error(b, k):
    # 999 permutations: with 15 pairs Holm needs raw p-values below 0.05 / 15,
    # out of reach of 199 permutations (smallest p-value 1/200).
    reps = 300
    tables = _null_tables(b, k, reps, seed=b + k)
    rejections = sum(
        aligned_ranks_posthoc(s, method="permutation", n_permutations=999,
                              random_state=i).p_adjusted.min() <= 0.05
        for i, s in enumerate(tables))
    assert rejections / reps <= _bound(0.05, reps)


def test_chi_square_is_too_conservative_with_three_data_sets_permutation_is_not():
    b, k, reps = 3, 6, 400
    tables = _null_tables(b, k, reps, seed=36)
    chi = np.mean([friedman_aligned_ranks(s).p_value <= 0.05 for s in tables])
    perm = np.mean([
        friedman_aligned_ranks(s, method="permutation", n_permutations=199,
                               random_state=i).p_value <= 0.05
        for i, s in enumerate(tables)])
    assert chi < 0.02                       # far below nominal
    assert 0.05 - 3 * math.sqrt(0.05 * 0.95 / reps) <= perm <= _bound(0.05, reps)


def test_null_distribution_is_roughly_chi2_with_many_data_sets():
    tables = _null_tables(12, 4, 400, seed=2)
    rate = np.mean([friedman_aligned_ranks(s).p_value <= 0.05 for s in tables])
    assert 0.02 < rate < 0.09


def test_power_when_one_algorithm_is_better():
    rng = np.random.default_rng(8)
    s = rng.normal(size=(15, 4)) + 5 * rng.normal(size=(15, 1))
    s[:, 0] += 3.0
    p = aligned_ranks_posthoc(s).p_adjusted
    assert p[0, 1:].max() < 0.05
    p = aligned_ranks_posthoc(s, method="permutation", random_state=0).p_adjusted
    assert p[0, 1:].max() < 0.05


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
    with pytest.raises(exc, match=match):
        aligned_ranks_posthoc(arg)


@pytest.mark.parametrize("kwargs, match", [
    ({"method": "exact"}, "method='exact' is not supported"),
    ({"method": "permutation", "n_permutations": 0}, "n_permutations must be a positive"),
    ({"method": "permutation", "n_permutations": 1.5}, "n_permutations must be a positive"),
    ({"n_permutations": True}, "n_permutations must be a positive"),
])
def test_bad_options(kwargs, match):
    for f in (friedman_aligned_ranks, aligned_ranks_posthoc):
        with pytest.raises(ValueError, match=match):
            f(SCORES, **kwargs)


def _integer_table(seed, b=6, k=4):
    """Scores whose aligned values are integers: distinct ones differ by >= 1/k.

    Each row sums to a multiple of k, so its mean is an integer; genuine ties
    between aligned values are exact and every other gap is at least 1.
    """
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 20, size=(b, k)).astype(float)
    x[:, -1] += (-x.sum(axis=1)) % k
    return x

# -- friedman_aligned_ranks / aligned_ranks_posthoc --------------------------
@pytest.mark.parametrize("seed", range(5))
def test_aligned_rank_tests_do_not_depend_on_the_unit_of_the_scores(seed):
    """x * 1e-12 gave T = 0 and p = 1 (every aligned value rounded to 0), and
    1e4 + x * 1e-8 changed T (rounded to 12 decimals of 1e4)."""
    x = _integer_table(seed)
    base = friedman_aligned_ranks(x)
    base_post = aligned_ranks_posthoc(x)
    assert base.statistic > 0
    for transformed in (x * 1e-12, x * 1e12, 1e4 + x * 1e-8, x * 1e-300):
        res = friedman_aligned_ranks(transformed)
        assert res.statistic == pytest.approx(base.statistic, rel=1e-12)
        assert res.p_value == pytest.approx(base.p_value, rel=1e-12)
        post = aligned_ranks_posthoc(transformed)
        np.testing.assert_allclose(post.mean_ranks, base_post.mean_ranks, rtol=1e-12)
        np.testing.assert_allclose(post.p_adjusted, base_post.p_adjusted, rtol=1e-12)

def test_aligned_ranks_still_tie_values_equal_in_decimal_arithmetic():
    """0.9 - 0.8 and 0.8 - 0.7 differ in binary; they are still one tie."""
    from auklib.stats import _aligned_ranks

    r = _aligned_ranks(np.array([[0.8, 0.7, 0.6], [0.9, 0.8, 0.7], [0.3, 0.2, 0.1]]))
    assert np.all(r == r[0])  # the three rows are the same up to a shift
