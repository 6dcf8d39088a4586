"""Every input a user can pass: labels of any type, options, bad input with an error
that names the argument, one-class folds and ragged arrays."""

import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.exceptions
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_curve
from sklearn.model_selection import KFold, cross_validate

import auklib
from auklib import (
    KappaCurveDisplay,
    UndefinedMetricWarning,
    aligned_ranks_posthoc,
    auc_confidence_interval,
    auk_bounds,
    auk_compare,
    auk_confidence_interval,
    auk_from_roc,
    auk_score,
    friedman_aligned_ranks,
    h_measure,
    hand_till_score,
    hand_till_table,
    kappa_curve,
    kappa_from_confusion,
    kappa_from_matrix,
    kappa_from_rates,
    kappa_optimal_point,
    metric_curve,
    mww_ranked_table,
    mww_statistic,
    roc_convex_hull,
    tpr_from_kappa,
)
from oracles import unit_shift_scores as scores


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

# -- ragged input ---------------------------------------------------------------
R2 = [[1, 2], [3]]

R1 = [0.1, [0.2, 0.3], 0.3, 0.4]

S_RAGGED = [0.1, 0.2, 0.3, 0.4]

RAGGED = {
    "kappa_from_matrix": ("confusion", lambda: auklib.kappa_from_matrix(R2)),
    "kappa_from_confusion": ("tp", lambda: auklib.kappa_from_confusion(R2, 1, 1, 1)),
    "kappa_from_rates": ("tpr", lambda: kappa_from_rates(tpr=R1, fpr=0.1, prevalence=0.2)),
    "tpr_from_kappa": ("kappa", lambda: auklib.tpr_from_kappa(R2, 0.1, 0.2)),
    "auk_from_roc": ("fpr", lambda: auk_from_roc([0, [0.5, 0.6], 1], [0, 1, 1], 0.2)),
    "roc_convex_hull": ("fpr", lambda: auklib.roc_convex_hull([0, [0.5, 0.6]], [0, 1])),
    "auk_bounds": ("prevalence", lambda: auklib.auk_bounds([0.1, [0.2, 0.3]])),
    "kappa_curve-y_true": ("y_true", lambda: kappa_curve([0, [1, 0], 1, 0], S_RAGGED)),
    "kappa_curve-y_score": ("y_score", lambda: kappa_curve(Y, R1)),
    "kappa_curve-sample_weight": (
        "sample_weight", lambda: kappa_curve(Y, S_RAGGED, sample_weight=[1, [1, 2], 1, 1])),
    "auk_score": ("y_score", lambda: auk_score(Y, R1)),
    "kappa_optimal_point": ("y_score", lambda: auklib.kappa_optimal_point(Y, R1)),
    "metric_curve": ("y_score", lambda: metric_curve(Y, R1, "mcc")),
    "h_measure": ("y_score", lambda: h_measure(Y, R1)),
    "friedman_aligned_ranks": ("scores", lambda: friedman_aligned_ranks(R2)),
    "aligned_ranks_posthoc": ("scores", lambda: aligned_ranks_posthoc(R2)),
    "mww_statistic": ("signal", lambda: auklib.mww_statistic(R2, [1, 0])),
    "mww_ranked_table": ("response", lambda: auklib.mww_ranked_table([1, 0], R2)),
    "hand_till_score": ("y_pred", lambda: auklib.hand_till_score(
        [0, 1, 2], [[0.1, 0.2, 0.7], [0.1, 0.9], [0.2, 0.2, 0.6]])),
    "hand_till_table": ("y_true", lambda: auklib.hand_till_table([0, [1, 2], 2], [0, 1, 2])),
    "auk_confidence_interval": ("y_score", lambda: auk_confidence_interval(Y, R1)),
    "auk_compare": ("y_score_b", lambda: auk_compare(Y, S_RAGGED, R1)),
    "auc_confidence_interval": ("y_score", lambda: auc_confidence_interval(Y, R1)),
    "KappaCurveDisplay": ("y_score", lambda: KappaCurveDisplay.from_predictions(Y, R1)),
}

@pytest.mark.parametrize("case", sorted(RAGGED))
def test_ragged_input_gets_an_error_that_names_the_argument(case):
    name, call = RAGGED[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((ValueError, TypeError)) as info:
            call()
    message = str(info.value)
    assert "inhomogeneous" not in message and "setting an array element" not in message
    assert message.startswith(name) and "ragged" in message

# -- kappa_from_rates: the rates by keyword only ---------------------------------
def test_kappa_from_rates_refuses_positional_rates():
    """scikit-learn's order (fpr, tpr) silently turned 0.675 into -0.384."""
    with pytest.raises(TypeError):
        kappa_from_rates(0.05, 0.7, 0.2)  # (fpr, tpr) as roc_curve returns them
    right = kappa_from_rates(fpr=0.05, tpr=0.7, prevalence=0.2)
    assert right == pytest.approx(kappa_from_confusion(tp=0.14, fn=0.06, fp=0.04, tn=0.76))
    assert round(right, 3) == 0.675
