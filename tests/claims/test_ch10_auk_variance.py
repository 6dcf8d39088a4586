"""Chapter 10 claims about the AUK's analytic standard error, by random search.

The chapter says that at p = 1/2 the influence-function standard error *is*
DeLong's (ties included), and that the influences are the derivatives of
the exact AUK with respect to moving weight onto one case.  Both are
checked over random test sets of varied size, separation and number of
distinct score levels, wide enough to find a counterexample.
"""

import numpy as np
import pytest

from auklib import auc_confidence_interval, auk_confidence_interval, auk_score
from auklib.auk_variance import _Influence


def _random_test_set(rng, n_pos, n_neg):
    d = rng.uniform(-1, 3)
    s = np.r_[rng.normal(d, rng.uniform(0.5, 2), n_pos), rng.normal(0, 1, n_neg)]
    levels = rng.choice([0, 2, 5, 20])  # 0: continuous
    if levels:
        s = np.floor((s - s.min()) / (np.ptp(s) + 1e-9) * levels)
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    return y, s


@pytest.mark.filterwarnings("ignore:Only:UserWarning")
def test_ch10_at_half_prevalence_the_analytic_se_is_delongs_always():
    rng = np.random.default_rng(2024)
    for _ in range(300):
        n = int(rng.integers(2, 60))
        y, s = _random_test_set(rng, n, n)
        a = auk_confidence_interval(y, s, method="analytic").standard_error
        b = auc_confidence_interval(y, s).standard_error
        assert a == pytest.approx(b, rel=1e-9, abs=1e-14)


@pytest.mark.filterwarnings("ignore:Only:UserWarning")
def test_ch10_influences_are_the_derivatives_of_the_exact_auk_always():
    rng = np.random.default_rng(2025)
    eps = 1e-6
    for _ in range(40):
        n_pos, n_neg = (int(v) for v in rng.integers(1, 15, size=2))
        y, s = _random_test_set(rng, n_pos, n_neg)
        c = _Influence(y == 1, s, None)
        if_pos, if_neg = c.cases(s[y == 1], s[y == 0])
        infl = np.empty(y.size)
        for i in range(y.size):
            cls = y == y[i]
            side = []
            for e in (eps, -eps):
                w = np.where(cls, 1 - e, 1.0)
                w[i] += e * cls.sum()
                side.append(auk_score(y, s, sample_weight=w))
            infl[i] = (side[0] - side[1]) / (2 * eps)
        np.testing.assert_allclose(if_pos, infl[y == 1], atol=1e-7)
        np.testing.assert_allclose(if_neg, infl[y == 0], atol=1e-7)
