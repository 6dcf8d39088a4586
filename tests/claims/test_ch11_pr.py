"""Chapter 11: general claims about the precision-recall summaries."""

import numpy as np
from sklearn.metrics import auc, average_precision_score, precision_recall_curve


def _trap(y, s):
    prec, rec, _ = precision_recall_curve(y, s)
    return auc(rec, prec)


def test_ch11_constant_scores_trapezoid_is_one_plus_p_over_two_and_ap_is_p():
    rng = np.random.default_rng(101)
    for _ in range(300):
        n = int(rng.integers(5, 3000))
        y = np.zeros(n, int)
        y[: int(rng.integers(1, n))] = 1
        s = np.full(n, rng.normal())
        p = y.mean()
        assert abs(_trap(y, s) - (1 + p) / 2) < 1e-12
        assert abs(average_precision_score(y, s) - p) < 1e-12


def test_ch11_constant_score_auc_pr_rounds_to_0533_only_for_p_0065_to_0067():
    p = np.linspace(0.05, 0.08, 300_001)
    hit = p[np.round((1 + p) / 2 + 1e-12, 3) == 0.533]
    assert abs(hit.min() - 0.065) < 1e-6 and abs(hit.max() - 0.067) < 1e-6
    # the report's share, 0.067 rounded, lies in [0.0665, 0.0675): they overlap
    # in its lower half only (tests/claims/test_sources.py has the rest)
    assert 0.0665 <= hit.max() < 0.067


def test_ch11_distinct_scores_trapezoid_never_above_ap():
    rng = np.random.default_rng(102)
    for _ in range(500):
        n = int(rng.integers(3, 400))
        y = (rng.uniform(size=n) < rng.uniform(0.02, 0.5)).astype(int)
        if y.sum() in (0, n):
            continue
        s = rng.permutation(n) + rng.normal(size=n) * rng.uniform(0, 3) * y
        s = s + 1e-9 * rng.permutation(n)  # distinct
        assert len(np.unique(s)) == n
        assert _trap(y, s) <= average_precision_score(y, s) + 1e-12


def test_ch11_two_block_ranking_reproduces_bartman_schmitz_pair():
    # (rho, q) from the exercise; build the two-block ranking and measure it
    p, ap, trap = 0.067, 0.204, 0.533
    rho = max(np.roots([-(1 - p), 2 * trap - 2 * p, p - ap]).real)
    q = 2 * trap - p - rho * (1 - p)
    n_pos = 100_000
    n = round(n_pos / p)
    top_pos = round(rho * n_pos)
    top_neg = round(top_pos * (1 - q) / q)
    y = np.r_[np.ones(top_pos), np.zeros(top_neg), np.ones(n_pos - top_pos),
              np.zeros(n - n_pos - top_neg)].astype(int)
    s = np.r_[np.ones(top_pos + top_neg), np.zeros(n - top_pos - top_neg)]
    assert abs(average_precision_score(y, s) - ap) < 1e-3
    assert abs(_trap(y, s) - trap) < 1e-3
