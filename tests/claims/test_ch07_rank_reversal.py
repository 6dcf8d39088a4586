"""Chapter 7's general statements, checked by random search over scores,
labels and class shares."""

import numpy as np
from sklearn.metrics import roc_auc_score, roc_curve

from auklib import auk_from_roc, auk_score, kappa_from_rates, roc_convex_hull


def random_data(rng):
    n = int(rng.integers(10, 300))
    y = (rng.random(n) < rng.uniform(0.03, 0.6)).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + rng.normal(0.5, 1.5) * y
    if rng.random() < 0.3:  # ties
        s = np.round(s, 1)
    return y, s


def test_ch07_the_convex_hull_never_lowers_the_auc_or_the_auk():
    rng = np.random.default_rng(0)
    raised = 0
    for _ in range(500):
        y, s = random_data(rng)
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
        hf, ht = roc_convex_hull(fpr, tpr)
        auk_hull = auk_from_roc(hf, ht, y.mean(), method="exact")
        auk_raw = auk_score(y, s, method="exact")
        assert auk_hull >= auk_raw - 1e-12
        assert np.trapezoid(ht, hf) >= roc_auc_score(y, s) - 1e-12
        raised += auk_hull > auk_raw + 1e-9
    assert raised > 150


def test_ch07_kappa_rises_with_t_at_fixed_f_and_p():
    """Why a higher ROC curve has a higher kappa curve at every f."""
    rng = np.random.default_rng(1)
    f = rng.random(20000)
    t1, t2 = np.sort(rng.random((2, 20000)), axis=0)
    p = rng.uniform(0.001, 0.999, 20000)
    assert np.all(kappa_from_rates(tpr=t2, fpr=f, prevalence=p) >= kappa_from_rates(tpr=t1, fpr=f, prevalence=p) - 1e-12)


def test_ch07_no_rank_reversal_without_crossing_roc_curves():
    """If one model's ROC curve is nowhere below the other's, AUC and AUK
    agree: a reversal needs curves that cross.  A dominating curve is made by
    raising some positives' scores and lowering some negatives'."""
    rng = np.random.default_rng(2)
    for _ in range(500):
        y, s = random_data(rng)
        better = s.copy()
        up = (y == 1) & (rng.random(len(y)) < 0.3)
        down = (y == 0) & (rng.random(len(y)) < 0.3)
        better[up] += rng.exponential(1, up.sum())
        better[down] -= rng.exponential(1, down.sum())
        assert roc_auc_score(y, better) >= roc_auc_score(y, s) - 1e-12
        assert auk_score(y, better) >= auk_score(y, s) - 1e-12


def test_ch07_crossing_curves_can_reverse_the_ranking():
    """The converse direction exists: the search finds reversals."""
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(400):
        y, s = random_data(rng)
        other = rng.normal(size=len(y)) + rng.normal(0.5, 1.5) * y
        d_auc = roc_auc_score(y, s) - roc_auc_score(y, other)
        d_auk = auk_score(y, s) - auk_score(y, other)
        found += d_auc * d_auk < 0
    assert found > 0
