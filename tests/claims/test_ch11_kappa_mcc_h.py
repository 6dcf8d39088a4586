"""Chapter 11: general claims about kappa, MCC and the H-measure."""

import numpy as np
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef

from auklib import h_measure, kappa_from_confusion


def test_ch11_kappa_over_mcc_is_2sqrt_r_over_1_plus_r_and_never_larger():
    rng = np.random.default_rng(103)
    for _ in range(2000):
        tp, fn, fp, tn = rng.integers(1, 500, size=4)
        p, n, p_hat, n_hat = tp + fn, fp + tn, tp + fp, fn + tn
        kappa = kappa_from_confusion(tp, fn, fp, tn)
        mcc = (tp * tn - fn * fp) / np.sqrt(float(p) * n * p_hat * n_hat)
        r = (p_hat / n_hat) / (p / n)
        assert abs(kappa) <= abs(mcc) + 1e-12
        if mcc != 0:
            assert abs(kappa / mcc - 2 * np.sqrt(r) / (1 + r)) < 1e-9
        if p_hat == p:
            assert abs(kappa - mcc) < 1e-12


def test_ch11_kappa_equals_mcc_exactly_when_predicted_share_is_true_share():
    rng = np.random.default_rng(104)
    for _ in range(2000):
        n_cases = int(rng.integers(10, 300))
        y = (rng.uniform(size=n_cases) < rng.uniform(0.05, 0.6)).astype(int)
        pred = rng.permutation(y) if rng.uniform() < 0.5 else (
            rng.uniform(size=n_cases) < rng.uniform(0.05, 0.6)).astype(int)
        if len(set(y)) < 2 or len(set(pred)) < 2:
            continue
        k, m = cohen_kappa_score(y, pred), matthews_corrcoef(y, pred)
        if abs(m) < 1e-9:
            continue
        assert (abs(k - m) < 1e-12) == (pred.sum() == y.sum())


def test_ch11_h_measure_depends_only_on_the_order_of_the_scores():
    rng = np.random.default_rng(105)
    for _ in range(200):
        n_cases = int(rng.integers(10, 200))
        y = (rng.uniform(size=n_cases) < 0.3).astype(int)
        if len(set(y)) < 2:
            continue
        s = np.round(rng.normal(size=n_cases) + y, 1)  # with ties
        g = np.exp(3 * s) - 7.0  # strictly increasing
        assert abs(h_measure(y, s) - h_measure(y, g)) < 1e-10
