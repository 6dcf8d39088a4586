"""Chapter 13 (comparing classifiers honestly): the general statements it makes."""

import json
import math
import os
import warnings

import numpy as np
import pytest
from scipy.stats import binom

from auklib import (
    auc_confidence_interval,
    delong_test,
    kappa_confidence_interval,
    mcc_confidence_interval,
    mcnemar_test,
)

from conftest import tool

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _sim_module():
    return tool("sim_comparing")


def _random_case(rng):
    n_pos, n_neg = rng.integers(10, 40), rng.integers(10, 60)
    rho = rng.uniform(-0.9, 0.95)
    cov = [[1, rho], [rho, 1]]
    x = np.r_[rng.multivariate_normal(rng.normal(0.8, 0.5, 2), cov, n_pos),
              rng.multivariate_normal([0, 0], cov, n_neg)]
    if rng.random() < 0.5:
        x = np.round(x, 1)  # ties
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    return y, x[:, 0], x[:, 1]


def place(s, pos, neg):
    """psi for every (positive, negative) pair: 1 won, 1/2 tied, 0 lost."""
    gap = s[pos][:, None] - s[neg][None, :]
    return (gap > 0) + 0.5 * (gap == 0)


def test_ch13_paired_variance_is_the_sum_minus_twice_the_covariance():
    """Var(diff) = Var_a + Var_b - 2 Cov_ab, so pairing shrinks the standard
    error exactly when the placements are positively correlated (random search)."""
    rng = np.random.default_rng(12)
    shrank = grew = 0
    for _ in range(300):
        y, a, b = _random_case(rng)
        res = delong_test(y, a, b)
        se_a = auc_confidence_interval(y, a).standard_error
        se_b = auc_confidence_interval(y, b).standard_error
        pos, neg = y == 1, y == 0
        # covariance of the two AUCs from the placements (DeLong et al. 1988)
        va, vb = place(a, pos, neg).mean(axis=1), place(b, pos, neg).mean(axis=1)
        wa, wb = place(a, pos, neg).mean(axis=0), place(b, pos, neg).mean(axis=0)
        cov = (np.cov(va, vb)[0, 1] / pos.sum() + np.cov(wa, wb)[0, 1] / neg.sum())
        assert res.standard_error**2 == pytest.approx(se_a**2 + se_b**2 - 2 * cov,
                                                      rel=1e-9, abs=1e-15)
        if cov > 1e-12:
            assert res.standard_error < math.hypot(se_a, se_b)
            shrank += 1
        elif cov < -1e-12:
            assert res.standard_error > math.hypot(se_a, se_b)
            grew += 1
    assert shrank > 50 and grew > 5  # the search saw both cases


def test_ch13_exact_mcnemar_cannot_reject_at_5_percent_with_five_discordant_cases():
    """With m <= 5 discordant cases no split gives P < 0.05; with m = 6 one does."""
    for m in range(0, 6):
        for k in range(m + 1):
            y = [1] * m
            a = [1] * k + [0] * (m - k)
            b = [0] * k + [1] * (m - k)
            if m == 0:
                y, a, b = [1], [1], [1]
            assert mcnemar_test(y, a, b).p_value >= 0.05
    assert mcnemar_test([1] * 6, [1] * 6, [0] * 6).p_value < 0.05
    assert 2 * binom.cdf(0, 5, 0.5) == pytest.approx(0.0625)


def test_ch13_kappa_variance_is_the_delta_method_for_every_table():
    """Fleiss, Cohen & Everitt's non-null variance equals the multinomial delta method with a
    numerical gradient, and the MCC's standard error does too (random search)."""
    rng = np.random.default_rng(1969)

    def delta(func, p, n, h=1e-6):
        g = np.array([(func(p + h * e) - func(p - h * e)) / (2 * h) for e in np.eye(4)])
        return float(g @ (np.diag(p) - np.outer(p, p)) @ g / n)

    def kappa(c):
        c = c / c.sum()
        pe = (c[0] + c[1]) * (c[0] + c[2]) + (c[2] + c[3]) * (c[1] + c[3])
        return (c[0] + c[3] - pe) / (1 - pe)

    def mcc(c):
        c = c / c.sum()
        return (c[0] * c[3] - c[1] * c[2]) / math.sqrt(
            (c[0] + c[1]) * (c[2] + c[3]) * (c[0] + c[2]) * (c[1] + c[3]))

    for _ in range(200):
        counts = rng.integers(1, 60, 4)
        n = int(counts.sum())
        y = np.repeat([1, 1, 0, 0], counts)
        d = np.repeat([1, 0, 1, 0], counts)
        p = counts / n
        k = kappa_confidence_interval(y, d)
        m = mcc_confidence_interval(y, d)
        assert k.standard_error**2 == pytest.approx(
            delta(kappa, p, n), rel=1e-5, abs=1e-12)
        assert m.standard_error**2 == pytest.approx(
            delta(mcc, p, n), rel=1e-5, abs=1e-12)


def test_ch13_intervals_stay_inside_minus_one_one():
    """Every kappa and MCC interval lies in [-1, 1] and contains its estimate."""
    rng = np.random.default_rng(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(500):
            counts = rng.integers(0, 12, 4)
            if counts.sum() == 0:
                continue
            y = np.repeat([1, 1, 0, 0], counts)
            d = np.repeat([1, 0, 1, 0], counts)
            for res in (kappa_confidence_interval(y, d),
                        kappa_confidence_interval(y, d, method="fisher-z"),
                        mcc_confidence_interval(y, d),
                        kappa_confidence_interval(y, d, confidence_level=0.999)):
                if not math.isnan(res.estimate):
                    assert -1 <= res.low <= res.estimate <= res.high <= 1


def test_ch13_stored_simulation_agrees_with_a_small_rerun():
    """The stored DeLong size (same shape, 50/450) is reproduced by a fresh run."""
    sim = _sim_module()
    with open(os.path.join(ROOT, "chapters", "data", "sim_comparing.json")) as fh:
        stored = json.load(fh)
    row = [r for r in stored["delong"]
           if r["model"] == "null, same shape" and r["n_pos"] == 50][0]
    fresh = sim.run_delong(reps=1500, seed=99, designs=[(50, 450)],
                           models=[sim.DELONG_MODELS[0]])[0]
    assert abs(fresh["reject"] - row["reject"]) < 4 * math.sqrt(0.05 * 0.95 / 1500)
    for part in ("delong", "agreement", "mcnemar", "cv"):
        assert part in stored


def test_ch13_family_wise_thresholds_tighten_with_every_added_learner():
    """The Benavoli example's flip: Nemenyi's q and Holm's first cut-off.

    Chapter 13 says that every family-wise procedure lets the verdict on one
    pair depend on how many pairs are tested. For Nemenyi's test the critical
    value q_alpha (studentised range / sqrt 2) grows with the number k of
    learners, at several levels; for Holm's adjustment of k(k-1)/2 pairwise
    tests the cut-off for the smallest P-value, alpha / m, falls with m.
    """
    from scipy.stats import studentized_range

    for alpha in (0.01, 0.05, 0.1):
        q = [studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
             for k in range(2, 16)]
        assert all(b > a for a, b in zip(q, q[1:]))
        m = [k * (k - 1) // 2 for k in range(2, 16)]
        assert all(alpha / b < alpha / a for a, b in zip(m, m[1:]))
    # the chapter's two values: five learners (ten pairs) and four (six pairs)
    assert round(studentized_range.ppf(0.95, 5, np.inf) / math.sqrt(2), 3) == 2.728
    assert round(studentized_range.ppf(0.95, 4, np.inf) / math.sqrt(2), 3) == 2.569
