"""The exact AUK: the default method, its bounds, property checks against the kappa
curve and repetition, and the (FP, TP) counting it rests on."""

import inspect

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import roc_curve

from auklib import KappaCurveDisplay, auk_bounds, auk_from_roc, auk_score
from auklib.curves import _binary_clf_counts
from oracles import brute_force_kappa_curve, unit_shift_scores as scores


@pytest.mark.parametrize("positives_first", [True, False])
def test_binary_clf_counts_contract(positives_first):
    """The helper shared with uncertainty.py / hmeasure.py keeps its meaning."""
    rng = np.random.default_rng(3)
    for trial in range(30):
        n = int(rng.integers(1, 60))
        y = rng.random(n) < (0.8 if positives_first else 0.2)
        s = rng.integers(-3, 4, n).astype(float) if trial % 2 else rng.normal(size=n)
        w = rng.integers(0, 4, n).astype(float) if trial % 3 == 0 else None
        fps, tps, thr = _binary_clf_counts(y, s, w)
        ww = np.ones(n) if w is None else w
        distinct = np.unique(s[ww > 0])[::-1]
        np.testing.assert_array_equal(thr, np.concatenate(([np.inf], distinct)))
        want_tp = [ww[y & (s >= t)].sum() for t in thr]
        want_fp = [ww[~y & (s >= t)].sum() for t in thr]
        np.testing.assert_array_equal(tps, want_tp)
        np.testing.assert_array_equal(fps, want_fp)
        assert fps.dtype == (np.int64 if w is None else np.float64)

# ========================================================= exact by default
def test_exact_is_the_default():
    for func in (auk_score, auk_from_roc, KappaCurveDisplay.from_predictions,
                 KappaCurveDisplay.from_estimator, KappaCurveDisplay.from_cv_results):
        assert inspect.signature(func).parameters["method"].default == "exact"
    y, s = scores(300, 0.1, 5, decimals=1)
    assert auk_score(y, s) == auk_score(y, s, method="exact")
    assert auk_score(y, s) != auk_score(y, s, method="trapezoid")

def _mp_path_auk(path, p):
    """AUK along an ROC path, by mpmath quadrature of eq. (19)."""
    with mp.workdps(30):
        p = mp.mpf(p)
        n, q = 1 - p, 1 - 2 * p
        total = mp.mpf(0)
        for (f0, t0), (f1, t1) in zip(path, path[1:]):
            if f1 == f0:
                continue

            def kap(f, f0=f0, t0=t0, f1=f1, t1=t1):
                t = t0 + (t1 - t0) * (f - f0) / (f1 - f0)
                return 2 * p * n * (t - f) / (p + q * f + p * q * (t - f))

            total += mp.quad(kap, [f0, f1])
        return float(total)

@pytest.mark.parametrize("p", [1e-4, 0.01, 0.1, 0.3, 0.4469, 0.5 - 1e-7, 0.5, 0.5 + 1e-5,
                               0.7, 0.9, 0.999])
def test_auk_bounds_are_perfect_and_reversed_rankings(p):
    low, high = auk_bounds(p)
    assert high == pytest.approx(_mp_path_auk([(0, 0), (0, 1), (1, 1)], p), rel=1e-10)
    assert low == pytest.approx(_mp_path_auk([(0, 0), (1, 0), (1, 1)], p), rel=1e-10)
    # and auk_score reaches them
    n_pos = max(1, round(p * 20000))
    y = np.r_[np.ones(n_pos), np.zeros(20000 - n_pos)].astype(int)
    s = np.arange(20000, 0, -1.0)
    pp = y.mean()
    assert auk_score(y, s) == pytest.approx(auk_bounds(pp)[1], rel=1e-9)
    assert auk_score(y, -s) == pytest.approx(auk_bounds(pp)[0], rel=1e-9)

def test_auk_range_over_all_prevalences():
    p = np.linspace(1e-4, 1 - 1e-4, 2001)
    lows, highs = np.array([auk_bounds(x) for x in p]).T
    assert auk_bounds(0.9)[1] == pytest.approx(0.597, abs=5e-4)  # the example
    assert highs.max() < 2 - 2 * np.log(2) and highs.max() > 0.6136
    assert lows.min() == pytest.approx(-0.50896, abs=1e-5)
    assert np.all(highs > 0.5) == False  # noqa: E712  (below 1/2 for p < 1/2)
    assert highs[p > 0.501].min() > 0.5 and highs[p < 0.499].max() < 0.5
    # the crisp example: a perfect crisp classifier at p = 0.01
    y = np.r_[np.ones(100), np.zeros(9900)]
    assert auk_score(y, y, method="trapezoid") == pytest.approx(0.5)
    assert auk_score(y, y) == pytest.approx(0.061058, abs=1e-6)

@settings(max_examples=40, deadline=None)
@given(st.integers(4, 60).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
    st.lists(st.integers(-5, 5), min_size=n, max_size=n))))
def test_prop_exact_auk_within_bounds_and_matches_curve(data):
    y, s = np.array(data[0]), np.array(data[1])
    low, high = auk_bounds(y.mean())
    auk = auk_score(y, s)
    assert low - 1e-12 <= auk <= high + 1e-12
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    assert auk == pytest.approx(auk_from_roc(fpr, tpr, y.mean()), abs=1e-12)
    # against the slow oracle of the vertices for the trapezoid
    bf_f, bf_k = brute_force_kappa_curve(y, s)
    trap = float(np.sum(np.diff(bf_f) * (bf_k[1:] + bf_k[:-1]) / 2))
    assert auk_score(y, s, method="trapezoid") == pytest.approx(trap, abs=1e-12)

@settings(max_examples=40, deadline=None)
@given(st.integers(2, 50).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
    st.lists(st.integers(-3, 3), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), min_size=n, max_size=n))))
def test_prop_exact_auk_with_weights_equals_repetition(data):
    y, s, w = (np.array(v) for v in data)
    if w[y].sum() == 0 or w[~y].sum() == 0:
        return
    want = auk_score(np.repeat(y, w), np.repeat(s, w))
    assert auk_score(y, s, sample_weight=w) == pytest.approx(want, abs=1e-12)
    assert auk_score(y, s, sample_weight=w * 1e-200) == pytest.approx(want, abs=1e-12)

# ================================================ counting few distinct values
@pytest.mark.parametrize("case", ["rounded", "crisp", "ints", "signed-zero", "rare-tails",
                                  "weighted", "too-many"])
def test_counting_by_value_equals_sorting(case, monkeypatch):
    """Large inputs with few distinct scores are counted by hashing, not sorting."""
    import auklib.curves as curves

    rng = np.random.default_rng(11)
    n = curves._FEW_MIN_N + 12345
    y = rng.random(n) < 0.3
    w = None
    if case == "rounded":
        s = np.round(rng.normal(size=n) + y, 2)
    elif case == "crisp":
        s = y.astype(float)
        s[::7] = 1 - s[::7]
    elif case == "ints":
        s = rng.integers(-50, 50, n).astype(np.int32)
    elif case == "signed-zero":
        s = np.round(rng.normal(size=n), 1) * 0.0 + rng.integers(0, 3, n)
        s[::3] = -0.0
    elif case == "rare-tails":
        s = np.round(rng.normal(size=n), 1)
        s[rng.integers(0, n, 40)] = np.arange(40) + 100.5  # unseen by the sample
    elif case == "weighted":
        s = np.round(rng.normal(size=n) + y, 1)
        w = rng.random(n) * np.where(y, 1e12, 1.0)
    else:
        s = np.round(rng.normal(size=n), 4)  # about 80000 values: falls back
    got = _binary_clf_counts(y, s, w)
    assert (curves._counts_few_values(y, s, w) is None) == (case == "too-many")
    monkeypatch.setattr(curves, "_FEW_MIN_N", 10**12)
    want = _binary_clf_counts(y, s, w)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype
        if w is None:
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12)
