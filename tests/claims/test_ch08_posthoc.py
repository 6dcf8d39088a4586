"""Chapter 8: general claims about the aligned-rank post-hoc test.

Each test is named after the chapter and the claim it checks.  The exact
post-hoc P-values are computed here independently of ``auklib`` (by the
convolution of the rows' pairwise-difference distributions), and checked
against ``auklib.aligned_ranks_posthoc`` on a few tables.
"""

import numpy as np
import pytest
from scipy.stats import rankdata

from auklib import aligned_ranks_posthoc

# Bartman & Schmitz, Table 4, AUC-ROC (rows raw, down, SMOTE)
REPORT = np.array([[0.723, 0.840, 0.630, 0.799, 0.841, 0.788],
                   [0.782, 0.840, 0.797, 0.796, 0.837, 0.789],
                   [0.778, 0.826, 0.796, 0.800, 0.818, 0.767]])
NAMES = ["LR", "RF", "SVM", "MLP", "XGB", "NB"]
UNEVEN = np.array([[-15.17, 7.83, 2.83, -14.17, 8.83, 9.83],
                   [-16.17, 4.83, 1.83, -0.17, 3.83, 5.83],
                   [-29.17, 11.83, 0.83, -1.17, 10.83, 6.83]])


def ranks_of(s):
    s = np.asarray(s, float)
    return rankdata((s - s.mean(axis=1, keepdims=True)).ravel()).reshape(s.shape)


def holm(raw):
    raw = np.asarray(raw, float)
    order = np.argsort(raw, kind="stable")
    m = len(raw)
    adj = np.empty(m)
    adj[order] = np.maximum.accumulate(np.minimum(1, (m - np.arange(m)) * raw[order]))
    return adj


def exact_holm(s):
    """Holm-adjusted exact permutation P-values of the 15 pairs (upper triangle)."""
    r = ranks_of(s)
    b, k = r.shape
    jj, ll = np.nonzero(~np.eye(k, dtype=bool))
    diff = np.zeros(1)
    for i in range(b):  # rows are permuted independently: convolve
        d = r[i, jj] - r[i, ll]  # the pair's difference, uniform over ordered pairs
        diff = (diff[:, None] + d[None, :]).ravel()
    null = np.sort(np.abs(diff))
    tot = r.sum(axis=0)
    iu = np.triu_indices(k, 1)
    obs = np.abs(tot[iu[0]] - tot[iu[1]])
    return holm(1 - np.searchsorted(null, obs - 1e-9) / null.size)


@pytest.mark.parametrize("table", [REPORT, UNEVEN, np.arange(18.0).reshape(3, 6) ** 1.5])
def test_ch08_exact_helper_agrees_with_auklib(table):
    p = aligned_ranks_posthoc(table, method="permutation", n_permutations=10**6)
    np.testing.assert_allclose(exact_holm(table), p.p_adjusted[np.triu_indices(6, 1)],
                               atol=1e-12)


def test_ch08_identical_equally_spread_orderings_give_only_best_vs_worst():
    rng = np.random.default_rng(81)
    for _ in range(300):
        order = rng.permutation(6)
        base = rng.uniform(0.01, 1.0) * np.arange(6.0)[order]
        offsets = rng.normal(size=(3, 1)) * rng.uniform(0, 5)
        eps = rng.choice([0.0, 1e-6]) * rng.permutation(3)[:, None]
        p = exact_holm(base + offsets + eps)
        iu = np.triu_indices(6, 1)
        sig = {(i, j) for i, j, q in zip(*iu, p) if q < 0.05}
        best, worst = order.argmax(), order.argmin()
        assert sig == {tuple(sorted((best, worst)))}


def test_ch08_identical_orderings_are_not_the_strongest_case():
    # the chapter's uneven table: three pairs significant after Holm
    p = aligned_ranks_posthoc(UNEVEN, method="permutation", n_permutations=10**6)
    assert (p.p_adjusted[np.triu_indices(6, 1)] < 0.05).sum() == 3
    # and a random search finds other tables with more than one pair
    rng = np.random.default_rng(82)
    found = 0
    for _ in range(3000):
        s = (np.arange(6.0)[rng.permutation(6)] * rng.uniform(0.2, 3, size=(3, 1))
             + rng.normal(size=(3, 6)) * rng.uniform(0, 3))
        found += (exact_holm(s) < 0.05).sum() >= 2
    assert found > 0


def test_ch08_se_ratio_is_bounded_by_k_over_sqrt_k_minus_1():
    # ratio of the exact (no-tie approximation) to the printed standard error
    for k in range(3, 30):
        b = np.unique(np.geomspace(2, 1e7, 400).astype(int)).astype(float)
        ratio = np.sqrt(((k * b) ** 2 - 1) / (b * (b + 1) * (k - 1)))
        limit = k / np.sqrt(k - 1)
        assert (np.diff(ratio) > 0).all() and (ratio < limit).all()
        assert limit - ratio[-1] < 1e-5
    assert round(np.sqrt((18**2 - 1) / (3 * 4 * 5)), 1) == 2.3
