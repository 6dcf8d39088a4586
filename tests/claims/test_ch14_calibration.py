"""Chapter 14: general claims about scoring rules, the Brier decomposition
and the prior-shift correction, checked by random search.

The oracles here are written independently of the chapter's code: loops over
bins, numerical minimisation, Bayes' theorem on discrete feature spaces.
"""

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.metrics import brier_score_loss, cohen_kappa_score, roc_auc_score

from aukbook.searches import random_discrete_population  # the chapter's families
from aukbook.searches import random_forecasts as _random_forecasts


def _terms_by_loops(y, q, edges):
    """REL, RES, UNC, WBV, WBC with an explicit loop over the bins; a case
    goes to bin k when edges[k] < q <= edges[k + 1] (the first bin takes 0)."""
    n, base = len(y), y.mean()
    rel = res = wbv = wbc = 0.0
    for k in range(len(edges) - 1):
        lo, hi = edges[k], edges[k + 1]
        inside = (q > lo) & (q <= hi) if k > 0 else (q >= lo) & (q <= hi)
        if not inside.any():
            continue
        qk, yk = q[inside], y[inside]
        rel += inside.sum() * (qk.mean() - yk.mean()) ** 2
        res += inside.sum() * (yk.mean() - base) ** 2
        wbv += np.sum((qk - qk.mean()) ** 2)
        wbc += np.sum((qk - qk.mean()) * (yk - yk.mean()))
    return rel / n, res / n, base * (1 - base), wbv / n, wbc / n


def test_ch14_brier_is_rel_minus_res_plus_unc_plus_the_within_bin_terms():
    rng = np.random.default_rng(1301)
    for _ in range(500):
        y, q = _random_forecasts(rng)
        k = int(rng.integers(1, 25))
        if rng.uniform() < 0.5:
            edges = np.linspace(0, 1, k + 1)
        else:  # unequal bins
            edges = np.r_[0, np.sort(rng.uniform(size=k - 1)), 1]
        rel, res, unc, wbv, wbc = _terms_by_loops(y, q, edges)
        assert abs(rel - res + unc + wbv - 2 * wbc - brier_score_loss(y, q)) < 1e-12


def test_ch14_three_terms_are_exact_when_forecasts_are_constant_in_each_bin():
    rng = np.random.default_rng(1302)
    for _ in range(500):
        k = int(rng.integers(1, 12))
        values = np.sort(rng.uniform(size=k))
        n = int(rng.integers(5, 300))
        q = rng.choice(values, size=n)
        y = (rng.uniform(size=n) < q).astype(float)
        # bins that each hold one forecast value: edges between the values
        edges = np.r_[0, (values[1:] + values[:-1]) / 2, 1]
        rel, res, unc, wbv, wbc = _terms_by_loops(y, q, edges)
        assert wbv < 1e-15 and abs(wbc) < 1e-15
        assert abs(rel - res + unc - brier_score_loss(y, q)) < 1e-12


def test_ch14_brier_and_log_loss_are_proper():
    rng = np.random.default_rng(1303)
    grid = np.linspace(1e-4, 1 - 1e-4, 20_001)
    for _ in range(300):
        pi = rng.uniform(0.001, 0.999)
        brier = pi * (1 - grid) ** 2 + (1 - pi) * grid**2
        logl = -pi * np.log(grid) - (1 - pi) * np.log(1 - grid)
        step = grid[1] - grid[0]
        assert abs(grid[np.argmin(brier)] - pi) <= step
        assert abs(grid[np.argmin(logl)] - pi) <= step


def _prior_shift(q, beta):
    return beta * q / (beta * q + 1 - q)


def test_ch14_correction_undoes_down_sampling_on_any_discrete_population():
    """Bayes' theorem with the negatives kept with probability beta, then eq. (C)."""
    rng = np.random.default_rng(1304)
    for _ in range(2000):
        f1, f0, pi = random_discrete_population(rng)
        beta = rng.uniform(0.001, 1)
        p = pi * f1 / (pi * f1 + (1 - pi) * f0)     # population posterior
        # joint probabilities of the down-sampled data, renormalised
        pos, neg = pi * f1, beta * (1 - pi) * f0
        p_sample = pos / (pos + neg)
        assert np.allclose(_prior_shift(p_sample, beta), p, rtol=1e-10, atol=1e-14)


def test_ch14_class_weights_shift_the_odds_by_w1_over_w0():
    """The minimiser of the expected weighted log loss, found numerically,
    is w1 p / (w1 p + w0 (1 - p)); eq. (C) with beta = w0 / w1 undoes it."""
    rng = np.random.default_rng(1305)
    for _ in range(300):
        p = rng.uniform(0.01, 0.99)
        w1, w0 = rng.uniform(0.1, 20, size=2)
        def weighted_log_loss(q):
            return -w1 * p * np.log(q) - w0 * (1 - p) * np.log(1 - q)

        q = minimize_scalar(weighted_log_loss, bounds=(1e-12, 1 - 1e-12),
                            method="bounded", options={"xatol": 1e-13}).x
        assert abs(q - w1 * p / (w1 * p + w0 * (1 - p))) < 1e-7
        assert abs(_prior_shift(q, w0 / w1) - p) < 1e-6


def test_ch14_correction_keeps_the_auc_and_moves_the_threshold():
    rng = np.random.default_rng(1306)
    for _ in range(500):
        n = int(rng.integers(10, 500))
        y = (rng.uniform(size=n) < rng.uniform(0.05, 0.5)).astype(int)
        if len(set(y)) < 2:
            continue
        q = 1 / (1 + np.exp(-(rng.normal(size=n) * 2 + y * rng.uniform(0, 3))))
        if rng.uniform() < 0.3:
            q = np.round(q, 2)  # ties stay ties
        beta = rng.uniform(0.01, 1)
        corrected = _prior_shift(q, beta)
        assert abs(roc_auc_score(y, corrected) - roc_auc_score(y, q)) < 1e-12
        same = np.isclose(q, 0.5, rtol=0, atol=1e-12)
        kept = ~same
        if len(set(y[kept])) < 2:
            continue
        a = cohen_kappa_score(y[kept], q[kept] >= 0.5)  # at least the threshold
        b = cohen_kappa_score(y[kept], corrected[kept] >= beta / (1 + beta))
        assert a == b
