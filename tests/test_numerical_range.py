"""Exact answers at any scale: weights from 1e-310 to 1e300, rates at the corners,
singular points that return NaN without a numpy warning."""

import warnings

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
from sklearn.metrics import roc_curve

from auklib import (
    auk_score,
    kappa_curve,
    kappa_from_confusion,
    kappa_from_rates,
    metric_curve,
    tpr_from_kappa,
)
from oracles import unit_shift_scores as scores


# ---- weighted counts: each class on its own
@pytest.mark.parametrize("ratio", [1e8, 1e12, 1e14, 1e16, 1e20])
def test_weighted_fpr_exact_whatever_the_weight_ratio(ratio):
    y, s = scores(2000, 0.3, 1, decimals=1)
    rng = np.random.default_rng(1)
    w = np.where(y == 1, ratio, 1.0) * rng.uniform(0.5, 1.5, y.size)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no false "no negative samples"
        # the weighted positives are the majority: named, so no PositiveClassWarning
        fpr, _, thr = kappa_curve(y, s, sample_weight=w, pos_label=1)
        auk = auk_score(y, s, sample_weight=w, pos_label=1)
    fpr_sk, _, thr_sk = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(thr, thr_sk)
    # fpr involves the negatives only, whatever the weights of the positives
    neg_w, neg_s = w[y == 0], s[y == 0]
    want = np.array([neg_w[neg_s >= t].sum() for t in thr]) / neg_w.sum()
    np.testing.assert_allclose(fpr, want, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(fpr, fpr_sk, rtol=0, atol=1e-14)
    assert np.isfinite(auk)

def test_weighted_fpr_never_decreases():
    rng = np.random.default_rng(2)
    for seed in range(20):
        y, s = scores(3000, 0.2, seed, decimals=2)
        w = rng.random(3000) * 10 ** rng.uniform(-3, 3, 3000)
        fpr, _, _ = kappa_curve(y, s, sample_weight=w)
        assert np.all(np.diff(fpr) >= 0)
        assert fpr[-1] == 1.0

# ---- extreme scales
@pytest.mark.parametrize("scale", [1e160, 1e-200, 1e300 / 5000, 5e-324 * 2**60])
def test_kappa_curve_does_not_depend_on_weight_scale(scale):
    y, s = scores(500, 0.2, 4, decimals=1)
    w = np.random.default_rng(4).random(500)
    fpr, kappa, _ = kappa_curve(y, s, sample_weight=w)
    fpr_s, kappa_s, _ = kappa_curve(y, s, sample_weight=w * scale)
    np.testing.assert_allclose(fpr_s, fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(kappa_s, kappa, rtol=1e-12, atol=1e-15)
    assert auk_score(y, s, sample_weight=w * scale) == pytest.approx(
        auk_score(y, s, sample_weight=w), rel=1e-12
    )

@pytest.mark.parametrize("scale", [1e200, 1e150, 1e-200, 1e-310])
def test_kappa_from_confusion_any_scale(scale):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = kappa_from_confusion(10 * scale, 1 * scale, 1 * scale, 10 * scale)
    assert got == pytest.approx(kappa_from_confusion(10, 1, 1, 10), rel=1e-12)

# ---- results in the mathematical range
def test_kappa_from_rates_corner_is_one_and_round_trips():
    assert kappa_from_rates(tpr=1.0, fpr=0.0, prevalence=0.001) == 1.0
    assert tpr_from_kappa(kappa_from_rates(tpr=1.0, fpr=0.0, prevalence=0.001), 0.0, 0.001) == pytest.approx(1.0)
    p = np.logspace(-6, np.log10(0.999999), 200)
    assert np.all(kappa_from_rates(tpr=1.0, fpr=0.0, prevalence=p) <= 1.0)
    assert np.all(kappa_from_rates(tpr=0.0, fpr=1.0, prevalence=p) >= -1.0)
    assert np.all(kappa_from_confusion(1 - 1e-3, 0, 0, 1e-3) <= 1.0)

@settings(max_examples=50, deadline=None)
@given(st.floats(1e-9, 1 - 1e-9), st.floats(0, 1), st.floats(0, 1))
@example(p=0.999999999, t=0.999999999, f=0.0)  # eq. (19) cancels there
@example(p=0.001, t=1.0, f=0.0)
def test_prop_kappa_in_range(p, t, f):
    k = kappa_from_rates(tpr=t, fpr=f, prevalence=p)
    assert -1.0 <= k <= 1.0
    # and it is the kappa of the 2x2 table
    tp, fn, fp, tn = p * t, p * (1 - t), (1 - p) * f, (1 - p) * (1 - f)
    if (tp + fp) * (fn + tn) > 1e-12:
        assert k == pytest.approx(kappa_from_confusion(tp, fn, fp, tn), abs=1e-9)

# ---- tpr_from_kappa where the iso-kappa line is vertical
@pytest.mark.parametrize("p", [0.75, 0.8, 0.9, 0.99])
def test_tpr_from_kappa_singular_point_is_nan_without_numpy_warning(p):
    k = -2 * (1 - p) / (2 * p - 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = tpr_from_kappa(k, 0.3, p)
        arr = tpr_from_kappa(np.array([k, 0.2]), 0.3, p)
    assert np.isnan(t)
    assert np.isnan(arr[0]) and np.isfinite(arr[1])
    # no ROC point has that kappa: it lies below the smallest kappa at p
    assert k < kappa_from_rates(tpr=0.0, fpr=1.0, prevalence=p)

# -- metric_curve("mcc") -------------------------------------------------------
@pytest.mark.parametrize("scale", [1e160, 1e-200])
def test_mcc_curve_does_not_overflow_or_underflow_with_extreme_weights(scale):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 60)
    s = rng.normal(size=60) + y
    w = rng.uniform(0.5, 2.0, 60)
    base, thr = metric_curve(y, s, ["mcc", "kappa"], sample_weight=w)
    got, thr2 = metric_curve(y, s, ["mcc", "kappa"], sample_weight=w * scale)
    np.testing.assert_array_equal(thr, thr2)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, base, rtol=1e-12, atol=1e-15)
    assert np.abs(base[:-1, 0]).max() > 0.1  # a curve worth comparing

def _fraction_trapezoid_auk(y, s, w):
    """The trapezoid AUK in exact rational arithmetic (weights as given)."""
    from fractions import Fraction

    w = [Fraction(float(v)) for v in w]
    P = sum(wi for wi, yi in zip(w, y) if yi)
    N = sum(wi for wi, yi in zip(w, y) if not yi)
    pts = [(Fraction(0), Fraction(0))]
    for thr in sorted(set(s.tolist()), reverse=True):
        tp = sum(wi for wi, yi, si in zip(w, y, s) if yi and si >= thr)
        fp = sum(wi for wi, yi, si in zip(w, y, s) if not yi and si >= thr)
        fn, tn = P - tp, N - fp
        kap = 2 * (tp * tn - fn * fp) / ((tp + fp) * (fp + tn) + (tp + fn) * (fn + tn))
        pts.append((fp / N, kap))
    return float(sum((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in zip(pts, pts[1:])))

@pytest.mark.parametrize("scale", [1e-5, 1e-9, 1e5, 1e9])
def test_trapezoid_with_a_rare_weighted_class_matches_exact_arithmetic(scale):
    y, s = scores(120, 0.3, 31, decimals=1)
    w = np.random.default_rng(31).integers(1, 4, 120) * np.where(y == 1, scale, 1.0)
    assert auk_score(y, s, sample_weight=w, method="trapezoid") == pytest.approx(
        _fraction_trapezoid_auk(y, s, w), rel=1e-10)
