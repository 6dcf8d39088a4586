"""Issue 13: every input a user can pass, scikit-learn conventions, exact default.

Each test here failed on the code before the issue was fixed.
"""

import inspect
import re
import warnings

import matplotlib.pyplot as plt
import mpmath as mp
import numpy as np
import pandas as pd
import pytest
import sklearn.exceptions
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.model_selection import KFold, cross_validate

import auklib
from auklib import (
    KappaCurveDisplay,
    UndefinedMetricWarning,
    auk_bounds,
    auk_from_roc,
    auk_score,
    hand_till_score,
    hand_till_table,
    kappa_curve,
    kappa_from_confusion,
    kappa_from_matrix,
    kappa_from_rates,
    kappa_optimal_point,
    mww_ranked_table,
    mww_statistic,
    roc_convex_hull,
    tpr_from_kappa,
)
from auklib.curves import _binary_clf_counts
from oracles import brute_force_kappa_curve


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def scores(n, p, seed, decimals=None):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < p).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + y
    return y, (s if decimals is None else np.round(s, decimals))


# =============================================================== correctness
# ---- Hand & Till with object, string, categorical labels
Y_ABC = ["a", "a", "b", "b", "c", "c"]
P_ABC = np.eye(3)[[0, 1, 1, 1, 2, 0]]


@pytest.mark.parametrize(
    "y",
    [
        pd.Series(Y_ABC),
        pd.Series(Y_ABC, dtype="category"),
        pd.Series(Y_ABC, dtype="string"),
        np.array(Y_ABC, dtype=object),
        Y_ABC,
    ],
    ids=["series", "categorical", "string-dtype", "object-array", "list"],
)
def test_hand_till_object_labels(y):
    want = hand_till_score([0, 0, 1, 1, 2, 2], P_ABC)
    assert hand_till_score(y, P_ABC) == pytest.approx(want, abs=1e-15)
    rows = hand_till_table(y, P_ABC)
    assert [(r.class_i, r.class_j) for r in rows] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert all(type(r.class_i) is str for r in rows)
    # crisp predicted labels of object dtype too
    pred = pd.Series(["a", "b", "b", "b", "c", "a"], dtype=object)
    assert hand_till_score(y, pred) == pytest.approx(
        hand_till_score([0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0]), abs=1e-15
    )


@pytest.mark.parametrize("dtype", [object, "category", "string"])
def test_binary_functions_take_pandas_labels(dtype):
    y, s = scores(200, 0.3, 21)
    names = pd.Series(np.where(y == 1, "spam", "ham"), dtype=dtype)
    assert auk_score(names, s, pos_label="spam") == auk_score(y, s)
    np.testing.assert_array_equal(kappa_curve(names, s, pos_label="spam")[1],
                                  kappa_curve(y, s)[1])
    assert kappa_optimal_point(names, s, pos_label="spam") == kappa_optimal_point(y, s)
    with pytest.raises(ValueError, match="y_true contains (missing values|NaN)"):
        auk_score(pd.Series(["spam", pd.NA, "ham"], dtype=dtype), s[:3], pos_label="spam")


def test_hand_till_object_labels_with_labels_argument():
    y = np.array(Y_ABC, dtype=object)
    got = hand_till_score(y, P_ABC[:, [2, 0, 1]], labels=["c", "a", "b"])
    assert got == pytest.approx(hand_till_score(Y_ABC, P_ABC), abs=1e-15)


# ---- weighted counts: each class on its own
@pytest.mark.parametrize("ratio", [1e8, 1e12, 1e14, 1e16, 1e20])
def test_weighted_fpr_exact_whatever_the_weight_ratio(ratio):
    y, s = scores(2000, 0.3, 1, decimals=1)
    rng = np.random.default_rng(1)
    w = np.where(y == 1, ratio, 1.0) * rng.uniform(0.5, 1.5, y.size)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no false "no negative samples"
        fpr, _, thr = kappa_curve(y, s, sample_weight=w)
        auk = auk_score(y, s, sample_weight=w)
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


# ---- ROC convex hull
def test_hull_starts_at_origin_with_vertical_edge():
    f, t = roc_convex_hull([0, 0, 0.5], [0.3, 0.6, 0.9])
    np.testing.assert_array_equal(f, [0, 0, 0.5, 1])
    np.testing.assert_array_equal(t, [0, 0.6, 0.9, 1])
    f, t = roc_convex_hull([0.0], [1.0])
    np.testing.assert_array_equal(f, [0, 0, 1])
    np.testing.assert_array_equal(t, [0, 1, 1])
    f, t = roc_convex_hull([], [])
    np.testing.assert_array_equal(f, [0, 1])


@pytest.mark.parametrize("k", [3, 7, 10, 100])
def test_hull_drops_collinear_vertices_despite_rounding(k):
    # points on the line t = 3f that are collinear only up to rounding
    x = np.arange(1, k) / (3 * k)
    f, t = roc_convex_hull(x, 3 * x)
    np.testing.assert_allclose(f, [0, x[-1], 1])
    np.testing.assert_allclose(t, [0, 3 * x[-1], 1])
    # and on a diagonal edge: no point of (0,0)-(1,1) is kept
    f, t = roc_convex_hull(x, x)
    np.testing.assert_array_equal(f, [0, 1])


def _hull_reference(f, t):
    """scipy's Qhull on the points with the two corners, upper part only."""
    from scipy.spatial import ConvexHull

    pts = np.unique(np.column_stack([np.r_[0, f, 1, 1], np.r_[0, t, 1, 0]]), axis=0)
    hull = pts[ConvexHull(pts).vertices]
    upper = hull[(hull[:, 1] > 0) | (hull[:, 0] == 0)]
    upper = upper[~((upper[:, 0] == 1) & (upper[:, 1] < 1))]
    upper = upper[np.lexsort((upper[:, 1], upper[:, 0]))]
    # drop vertices under the chord (0,0)-(1,1) side of the hull
    return upper


@pytest.mark.parametrize("seed", range(6))
def test_hull_matches_qhull(seed):
    rng = np.random.default_rng(seed)
    if seed % 2:
        y, s = scores(3000, 0.2, seed, decimals=seed)
        f, t, _ = roc_curve(y, s, drop_intermediate=False)
    else:
        f, t = rng.random(5000), rng.random(5000) ** 0.3
    hf, ht = roc_convex_hull(f, t)
    ref = _hull_reference(f, t)
    ref = ref[np.r_[True, ref[1:, 1] > 0] | (ref[:, 0] > 0)]
    got = np.column_stack([hf, ht])
    got = got[(got[:, 0] > 0) | (got[:, 1] > 0)]
    ref = ref[(ref[:, 0] > 0) | (ref[:, 1] > 0)]
    np.testing.assert_allclose(got, ref, atol=1e-12)
    # every point lies under the hull
    assert np.all(np.interp(f, hf[1:] if hf[1] == 0 else hf, ht[1:] if hf[1] == 0 else ht)
                  >= t - 1e-12)


def test_hull_of_unsorted_input_equals_sorted():
    rng = np.random.default_rng(9)
    f, t = rng.random(2000), rng.random(2000)
    order = np.argsort(f)
    a = roc_convex_hull(f, t)
    b = roc_convex_hull(f[order], t[order])
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


# ---- silent numbers
def test_auk_from_roc_rejects_decreasing_tpr():
    with pytest.raises(ValueError, match="tpr decreases"):
        auk_from_roc([0, 0.2, 0.5, 1], [0, 0.8, 0.6, 1], 0.3)
    with pytest.raises(ValueError, match="fpr must be sorted"):
        auk_from_roc([0, 0.6, 0.5, 1], [0, 0.6, 0.8, 1], 0.3)


# ---- option arguments
OPTION_CALLS = [
    ("method", lambda v: auk_score([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6], method=v)),
    ("method", lambda v: auk_from_roc([0, 0.5, 1], [0, 0.7, 1], 0.3, method=v)),
    ("ties", lambda v: mww_statistic([0, 1, 1], [0.1, 0.4, 0.3], ties=v)),
    ("ties", lambda v: hand_till_score([0, 1, 2], [0, 1, 2], ties=v)),
    ("ties", lambda v: hand_till_table([0, 1, 2], [0, 1, 2], ties=v)),
    ("weights", lambda v: kappa_from_matrix([[3, 1], [1, 3]], weights=v)),
    ("method", lambda v: KappaCurveDisplay.from_predictions([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6],
                                                            method=v)),
]


@pytest.mark.parametrize("value", [np.array("exact"), np.array(["exact"]), np.ones((2, 2)),
                                   1, 1.5, b"exact", ["exact"]],
                         ids=["0d-array", "1d-array", "weights-array", "int", "float",
                              "bytes", "list"])
@pytest.mark.parametrize("name, call", OPTION_CALLS, ids=[f"{n}{i}" for i, (n, _) in
                                                          enumerate(OPTION_CALLS)])
def test_options_reject_non_strings(name, call, value):
    with pytest.raises(TypeError, match=f"{name} must be a string"):
        call(value)


# ================================================================ clear errors
Y, S = [0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6]
F, T = [0, 0.5, 1], [0, 0.7, 1]
YM, PM = [0, 1, 2, 1], np.eye(3)[[0, 1, 2, 2]]

# (function, bad-input kind) -> call; each must raise ValueError/TypeError
# whose message names the argument.
BATTERY = {
    "auk_score": {
        "complex": ("y_score", lambda: auk_score(Y, np.array(S) + 1j)),
        "complex-labels": ("y_true", lambda: auk_score(np.array(Y) + 0j, S)),
        "complex-weights": ("sample_weight", lambda: auk_score(Y, S, sample_weight=[1j] * 4)),
        "none-y_true": ("y_true", lambda: auk_score(None, S)),
        "none-y_score": ("y_score", lambda: auk_score(Y, None)),
        "nan-labels": ("y_true", lambda: auk_score([0, 1, np.nan, 1], S)),
        "none-labels": ("y_true", lambda: auk_score([0, 1, None, 1], S)),
        "no-broadcast": ("samples", lambda: auk_score(Y, S[:3])),
        "option-array": ("method", lambda: auk_score(Y, S, method=np.ones(4))),
        "pos_label-array": ("pos_label", lambda: auk_score(Y, S, pos_label=[1])),
    },
    "kappa_curve": {
        "complex": ("y_score", lambda: kappa_curve(Y, np.array(S) + 1j)),
        "none-y_true": ("y_true", lambda: kappa_curve(None, S)),
        "nan-labels": ("y_true", lambda: kappa_curve([0, 1, np.nan, 1], S)),
        "none-labels": ("y_true", lambda: kappa_curve([0, 1, None, 1], S)),
        "no-broadcast": ("samples", lambda: kappa_curve(Y, S + [0.2])),
    },
    "kappa_optimal_point": {
        "complex": ("y_score", lambda: kappa_optimal_point(Y, np.array(S) + 1j)),
        "none-y_true": ("y_true", lambda: kappa_optimal_point(None, S)),
        "nan-labels": ("y_true", lambda: kappa_optimal_point([0, 1, np.nan, 1], S)),
    },
    "auk_from_roc": {
        "complex": ("fpr", lambda: auk_from_roc(np.array(F) + 1j, T, 0.3)),
        "none": ("tpr", lambda: auk_from_roc(F, None, 0.3)),
        "no-broadcast": ("samples", lambda: auk_from_roc(F, T[:2], 0.3)),
        "array-prevalence": ("prevalence", lambda: auk_from_roc(F, T, [0.3, 0.4])),
        "array-prevalence-1": ("prevalence", lambda: auk_from_roc(F, T, np.array([0.3]))),
        "complex-prevalence": ("prevalence", lambda: auk_from_roc(F, T, 0.3 + 1j)),
        "none-prevalence": ("prevalence", lambda: auk_from_roc(F, T, None)),
        "option-array": ("method", lambda: auk_from_roc(F, T, 0.3, method=np.ones(3))),
    },
    "auk_bounds": {
        "array-prevalence": ("prevalence", lambda: auk_bounds([0.3, 0.4])),
        "complex-prevalence": ("prevalence", lambda: auk_bounds(0.3j)),
    },
    "roc_convex_hull": {
        "complex": ("fpr", lambda: roc_convex_hull(np.array(F) + 1j, T)),
        "none": ("fpr", lambda: roc_convex_hull(None, T)),
        "no-broadcast": ("samples", lambda: roc_convex_hull(F, T[:2])),
    },
    "kappa_from_confusion": {
        "complex": ("tp", lambda: kappa_from_confusion(5 + 1j, 2, 3, 90)),
        "none": ("fn", lambda: kappa_from_confusion(5, None, 3, 90)),
        "no-broadcast": ("broadcast", lambda: kappa_from_confusion([1, 2], [1, 2, 3], 1, 1)),
    },
    "kappa_from_rates": {
        "complex": ("tpr", lambda: kappa_from_rates(tpr=0.5 + 1j, fpr=0.2, prevalence=0.3)),
        "none": ("fpr", lambda: kappa_from_rates(tpr=0.5, fpr=None, prevalence=0.3)),
        "no-broadcast": ("broadcast", lambda: kappa_from_rates(tpr=[0.1, 0.2], fpr=[0.1, 0.2, 0.3], prevalence=0.3)),
        "complex-prevalence": ("prevalence", lambda: kappa_from_rates(tpr=0.5, fpr=0.2, prevalence=0.3j)),
    },
    "tpr_from_kappa": {
        "complex": ("kappa", lambda: tpr_from_kappa(0.5j, 0.2, 0.3)),
        "none": ("kappa", lambda: tpr_from_kappa(None, 0.2, 0.3)),
        "no-broadcast": ("broadcast", lambda: tpr_from_kappa([0.1, 0.2], [0.1, 0.2, 0.3], 0.3)),
        "none-prevalence": ("prevalence", lambda: tpr_from_kappa(0.1, 0.2, None)),
    },
    "kappa_from_matrix": {
        "complex": ("confusion", lambda: kappa_from_matrix(np.eye(2) + 1j)),
        "none": ("confusion", lambda: kappa_from_matrix(None)),
        "option-array": ("weights", lambda: kappa_from_matrix(np.eye(3), weights=np.ones((3, 3)))),
    },
    "hand_till_score": {
        "complex": ("y_pred", lambda: hand_till_score(YM, PM + 1j)),
        "none-y_true": ("y_true", lambda: hand_till_score(None, PM)),
        "none-y_pred": ("y_pred", lambda: hand_till_score(YM, None)),
        "nan-labels": ("y_true", lambda: hand_till_score([0, 1, np.nan, 1], PM)),
        "none-labels": ("y_true", lambda: hand_till_score(["a", "b", None, "b"], PM)),
        "nan-object-labels": ("y_true", lambda: hand_till_score(
            pd.Series(["a", "b", np.nan, "c"]), PM)),
        "mixed-labels": ("y_true", lambda: hand_till_score(["a", 1, "b", 1], PM)),
        "complex-labels": ("y_true", lambda: hand_till_score(np.array(YM) + 0j, PM)),
        "no-broadcast": ("y_pred", lambda: hand_till_score(YM, PM[:3])),
        "option-array": ("ties", lambda: hand_till_score(YM, PM, ties=np.ones(4))),
        "nan-labels-arg": ("labels", lambda: hand_till_score(YM, PM, labels=[0, 1, np.nan])),
    },
    "hand_till_table": {
        "none-y_true": ("y_true", lambda: hand_till_table(None, PM)),
        "nan-labels": ("y_true", lambda: hand_till_table([0, 1, np.nan, 1], PM)),
        "none-labels": ("y_true", lambda: hand_till_table([0, 1, None, 1], PM)),
    },
    "mww_statistic": {
        "complex": ("response", lambda: mww_statistic([0, 1, 1], [0.1j, 0.2, 0.3])),
        "none": ("signal", lambda: mww_statistic(None, [0.1, 0.2, 0.3])),
        "no-broadcast": ("samples", lambda: mww_statistic([0, 1, 1], [0.1, 0.2])),
    },
    "mww_ranked_table": {
        "complex": ("signal", lambda: mww_ranked_table([0j, 1, 1], [0, 1, 1])),
        "none": ("response", lambda: mww_ranked_table([0, 1, 1], None)),
    },
    "KappaCurveDisplay": {
        "complex": ("y_score", lambda: KappaCurveDisplay.from_predictions(Y, np.array(S) + 1j)),
        "none-y_true": ("y_true", lambda: KappaCurveDisplay.from_predictions(None, S)),
        "option-array": ("method", lambda: KappaCurveDisplay.from_predictions(
            Y, S, method=np.ones(4))),
        "shape": ("fpr and kappa", lambda: KappaCurveDisplay(fpr=[0, 1], kappa=[0, 0.5, 0])),
    },
}
CASES = [(f, kind, *v) for f, kinds in BATTERY.items() for kind, v in kinds.items()]


@pytest.mark.parametrize("func, kind, names, call", CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_bad_input_battery(func, kind, names, call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's warnings are not an answer
        with pytest.raises((ValueError, TypeError)) as info:
            call()
    message = str(info.value)
    assert names in message, message
    assert "truth value of an array" not in message


def test_battery_covers_every_public_function():
    mine = {"auklib.curves", "auklib.kappa", "auklib.multiclass", "auklib.display"}
    public = {
        name for name in auklib.__all__
        if getattr(getattr(auklib, name), "__module__", "") in mine
        and callable(getattr(auklib, name))
        and not name[0].isupper() or name == "KappaCurveDisplay"
    }
    assert public - set(BATTERY) == set()


# ================================================== native to scikit-learn 1.9
def test_undefined_metric_warning_is_sklearns():
    assert issubclass(UndefinedMetricWarning, sklearn.exceptions.UndefinedMetricWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", sklearn.exceptions.UndefinedMetricWarning)
        assert np.isnan(auk_score([0, 0, 0], [0.1, 0.2, 0.3]))


@pytest.mark.parametrize("y", [["ham", "ham", "ham"], np.array(["ham"] * 3, dtype=object)])
@pytest.mark.parametrize(
    "func", [auk_score, lambda y, s, **k: kappa_curve(y, s, **k)[1][1],
             lambda y, s, **k: kappa_optimal_point(y, s, **k).kappa],
    ids=["auk_score", "kappa_curve", "kappa_optimal_point"])
def test_one_class_fold_with_pos_label_warns_and_returns_nan(func, y):
    s = [0.2, 0.5, 0.9]
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(func(y, s, pos_label="spam"))
    with pytest.warns(sklearn.exceptions.UndefinedMetricWarning):
        assert np.isnan(roc_curve(y, s, pos_label="spam")[1]).all()  # the same
    # a two-class y_true without the pos_label is still an error
    with pytest.raises(ValueError, match="pos_label='spam' is not a label"):
        func(["ham", "eggs", "ham"], s, pos_label="spam")


def test_one_class_fold_in_cross_validation():
    X, y01 = make_classification(60, random_state=0)
    order = np.argsort(y01, kind="stable")
    X, y = X[order], np.where(y01[order] == 1, "spam", "ham")
    from sklearn.metrics import make_scorer

    scorer = make_scorer(auk_score, response_method="predict_proba", pos_label="spam")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cross_validate(LogisticRegression(), X, y, cv=KFold(3), scoring=scorer,
                             error_score="raise")
    assert np.isnan(res["test_score"]).any()  # the folds with one class
    assert np.isfinite(res["test_score"]).any()


def test_display_signatures_like_roc_curve_display():
    from sklearn.metrics import RocCurveDisplay

    for meth in ("plot", "from_predictions", "from_estimator", "from_cv_results"):
        ours = inspect.signature(getattr(KappaCurveDisplay, meth)).parameters
        theirs = inspect.signature(getattr(RocCurveDisplay, meth)).parameters
        for arg in ("curve_kwargs", "despine", "plot_chance_level", "chance_level_kw"):
            assert arg in ours, (meth, arg)
        assert ours["plot_chance_level"].default is False
        assert ours["despine"].default is False
        for arg in ("ax", "name", "curve_kwargs", "pos_label", "sample_weight",
                    "response_method"):
            if arg in theirs:
                assert arg in ours, (meth, arg)
        if "method" in ours:
            assert ours["method"].default == "exact"


def test_display_chance_level_kw_despine_and_title():
    fig, ax = plt.subplots()
    ax.set_title("mine")
    disp = KappaCurveDisplay.from_predictions(
        Y, S, ax=ax, plot_chance_level=True, chance_level_kw={"color": "red"},
        despine=True, curve_kwargs={"linewidth": 3},
    )
    assert ax.get_title() == "mine"
    assert disp.chance_level_.get_color() == "red"
    assert disp.line_.get_linewidth() == 3
    assert not ax.spines["top"].get_visible() and not ax.spines["right"].get_visible()
    disp = KappaCurveDisplay.from_predictions(Y, S)
    assert disp.chance_level_ is None and disp.ax_.get_title() == ""


def test_display_not_fitted_and_from_cv_results():
    X, y = make_classification(120, weights=[0.8], random_state=0)
    with pytest.raises(NotFittedError):
        KappaCurveDisplay.from_estimator(LogisticRegression(), X, y)
    cv = cross_validate(LogisticRegression(), X, y, cv=3, return_estimator=True,
                        return_indices=True)
    disp = KappaCurveDisplay.from_cv_results(cv, X, y, plot_chance_level=True)
    assert len(disp.line_) == 3 and len(disp.auk) == 3
    for est, test, auk in zip(cv["estimator"], cv["indices"]["test"], disp.auk):
        assert auk == pytest.approx(auk_score(y[test], est.predict_proba(X[test])[:, 1]))
    assert "+/-" in disp.line_[0].get_label()
    disp = KappaCurveDisplay.from_cv_results(
        cv, X, y, name=["a", "b", "c"], curve_kwargs=[{}, {}, {"color": "k"}])
    assert [ln.get_label()[:1] for ln in disp.line_] == ["a", "b", "c"]


def _documented(doc):
    section = doc.split("Parameters\n", 1)[1].split("\n    Returns", 1)[0]
    section = re.split(r"\n\s*(?:Returns|Attributes)\n", section)[0]
    names = set()
    lines = section.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^\s*([\w*, ]+) :", line)
        if m:
            described = i + 1 < len(lines) and lines[i + 1].strip() != ""
            described |= line.rstrip().endswith("\\")
            for nm in m.group(1).split(","):
                names.add((nm.strip().lstrip("*"), described))
    return {n for n, ok in names if ok}


@pytest.mark.parametrize("obj", [
    KappaCurveDisplay, KappaCurveDisplay.plot, KappaCurveDisplay.from_predictions,
    KappaCurveDisplay.from_estimator, KappaCurveDisplay.from_cv_results,
    auk_score, auk_from_roc, auk_bounds, kappa_curve, kappa_optimal_point, roc_convex_hull,
    kappa_from_confusion, kappa_from_rates, tpr_from_kappa, kappa_from_matrix,
    hand_till_score, hand_till_table, mww_statistic, mww_ranked_table,
], ids=lambda o: o.__qualname__)
def test_every_parameter_is_described(obj):
    sig = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
    params = [p for p in sig.parameters if p not in ("self", "cls")]
    documented = _documented(inspect.getdoc(obj) if not inspect.isclass(obj)
                             else "    " + obj.__doc__.replace("\n", "\n    "))
    missing = [p for p in params if p not in documented]
    assert not missing, missing


# ========================================================= exact by default
def test_exact_is_the_default():
    for func in (auk_score, auk_from_roc, KappaCurveDisplay.from_predictions,
                 KappaCurveDisplay.from_estimator, KappaCurveDisplay.from_cv_results):
        assert inspect.signature(func).parameters["method"].default == "exact"
    y, s = scores(300, 0.1, 5, decimals=1)
    assert auk_score(y, s) == auk_score(y, s, method="exact")
    assert auk_score(y, s) != auk_score(y, s, method="trapezoid")


@pytest.mark.parametrize("func", [auk_score, auk_from_roc])
def test_docstring_claims(func):
    doc = inspect.getdoc(func)
    assert "no:" not in doc
    assert "-1/2 and 1/2" not in doc
    assert "small amount" not in doc
    assert "comparison with other tools" in " ".join(doc.split())


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
