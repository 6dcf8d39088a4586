"""metric_curve against scikit-learn's metrics applied threshold by threshold."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    f1_score,
    matthews_corrcoef,
    metric_at_thresholds,
    precision_score,
    recall_score,
)

from auklib import UndefinedMetricWarning, kappa_curve, metric_curve
from oracles import make_scores

SKLEARN = {
    "accuracy": accuracy_score,
    "balanced_accuracy": balanced_accuracy_score,
    "precision": precision_score,
    "recall": recall_score,
    "f1": f1_score,
    "mcc": matthews_corrcoef,
    "kappa": cohen_kappa_score,
}


@pytest.mark.parametrize("name", sorted(SKLEARN))
@pytest.mark.parametrize("n_levels", [None, 2])
def test_matches_sklearn_metric_at_thresholds(name, n_levels):
    y, s = make_scores(300, 0.15, 0, n_levels)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no 0/0 warning from sklearn either
        expected, thr_sk = metric_at_thresholds(y, s, SKLEARN[name])
        values, thr = metric_curve(y, s, name)
    np.testing.assert_array_equal(thr, thr_sk)
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", sorted(SKLEARN))
def test_matches_sklearn_with_weights(name):
    y, s = make_scores(200, 0.3, 1, 3)
    w = np.random.default_rng(1).random(200)
    w[::7] = 0  # zero weights drop out of the thresholds in both
    expected, thr_sk = metric_at_thresholds(y, s, SKLEARN[name], sample_weight=w)
    values, thr = metric_curve(y, s, name, sample_weight=w)
    np.testing.assert_array_equal(thr, thr_sk)
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(
    y=st.lists(st.integers(0, 1), min_size=2, max_size=25),
    data=st.data(),
)
def test_matches_sklearn_on_small_tables(y, data):
    y = np.array(y)
    if y.min() == y.max():
        return
    s = np.array(
        data.draw(st.lists(st.integers(0, 4), min_size=len(y), max_size=len(y)))
    )
    names = sorted(SKLEARN)
    values, thr = metric_curve(y, s, names)
    assert values.shape == (len(thr), len(names))
    for j, t in enumerate(thr):
        pred = (s >= t).astype(int)
        for k, name in enumerate(names):
            kwargs = {"zero_division": 0.0} if name in ("precision", "f1") else {}
            assert values[j, k] == pytest.approx(
                SKLEARN[name](y, pred, **kwargs), abs=1e-12
            )


def test_kappa_column_is_kappa_curve_without_its_first_point():
    y, s = make_scores(500, 0.1, 2, 5)
    _, kappa, thr = kappa_curve(y, s)
    values, thr2 = metric_curve(y, s, "kappa")
    np.testing.assert_array_equal(thr[1:], thr2)
    np.testing.assert_allclose(values, kappa[1:], atol=1e-15)


def test_mcc_end_points_and_labels():
    y, s = make_scores(100, 0.4, 3)
    values, _ = metric_curve(y, s, "mcc")
    assert values[-1] == 0.0  # everything predicted positive: sklearn's 0
    names = np.where(y == 1, "spam", "ham")
    np.testing.assert_array_equal(
        metric_curve(names, s, "f1", pos_label="spam")[0], metric_curve(y, s, "f1")[0]
    )
    np.testing.assert_array_equal(
        metric_curve(2 * y - 1, s, "f1")[0], metric_curve(y, s, "f1")[0]
    )


def test_mcc_has_no_overflow_with_huge_weights():
    y, s = make_scores(50, 0.5, 4)
    values, _ = metric_curve(y, s, "mcc")
    big, _ = metric_curve(y, s, "mcc", sample_weight=np.full(50, 1e90))
    np.testing.assert_allclose(big, values, atol=1e-12)


def test_single_class():
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        values, thr = metric_curve([1, 1, 1], [0.2, 0.1, 0.2], "precision")
    assert values.shape == (2,) and np.isnan(values).all()
    with pytest.warns(UndefinedMetricWarning):
        values, _ = metric_curve([0, 0], [0.2, 0.1], ["mcc", "f1"])
    assert values.shape == (2, 2) and np.isnan(values).all()


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        (([0, 1], [0.1, 0.2], "auc"), {}, ValueError, "metric='auc' is not supported"),
        (([0, 1], [0.1, 0.2], ["f1", "roc"]), {}, ValueError, "metric='roc'"),
        (([0, 1], [0.1, 0.2], []), {}, ValueError, "empty list"),
        (([0, 1], [0.1, 0.2], f1_score), {}, TypeError, "metric_at_thresholds"),
        (([0, 1], [0.1, np.nan], "f1"), {}, ValueError, "y_score contains NaN"),
        (([0, 1, 2], [0.1, 0.2, 0.3], "f1"), {}, ValueError, "y_true must be binary"),
        (([0, 1], [0.1], "f1"), {}, ValueError, "different numbers of samples"),
        (
            ([0, 1], [0.1, 0.2], "f1"),
            {"sample_weight": [1, -1]},
            ValueError,
            "negative",
        ),
        (
            ([0, 1], [0.1, 0.2], "f1"),
            {"sample_weight": [0, 0]},
            ValueError,
            "zero for every",
        ),
        (([0, 1], [0.1, 0.2], "f1"), {"pos_label": 2}, ValueError, "pos_label=2"),
        ((["a", "b"], [0.1, 0.2], "f1"), {}, ValueError, "pos_label"),
    ],
)
def test_bad_input(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        metric_curve(*args, **kwargs)
