"""auklib hard to misuse: issue 38's battery of defects, and the rare class by default.

Each test here failed before its fix: an OverflowError at a high confidence
level with two positive cases; weights that leave a class no share in double
precision (an error about a prevalence never passed, all-NaN intervals, a NaN
difference with P = 1); warnings attributed to a line inside auklib instead
of the caller's; BCa's few-cases warning given twice; a bootstrap P-value of
exactly 0; and a positive class inferred from ``classes_[1]`` (or the label
1) that is the majority of ``y_true``, scored without a word.
"""

import math
import os
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import TunedThresholdClassifierCV, cross_validate

import auklib
from auklib import (
    PositiveClassWarning,
    UndefinedMetricWarning,
    auc_confidence_interval,
    auk_bounds,
    auk_compare,
    auk_confidence_interval,
    auk_score,
    auk_scorer,
    kappa_confidence_interval,
    kappa_curve,
    kappa_scorer,
    make_auk_scorer,
    make_kappa_scorer,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def assert_warned_here(record, category, count=None):
    """Every ``category`` warning in ``record`` names this test file as its origin.

    A warning's filename and line are where Python attributes it (its
    stack level): they must be the user's call, not a line inside auklib.
    """
    found = [w for w in record if issubclass(w.category, category)]
    assert found, f"no {category.__name__} was issued"
    for w in found:
        assert w.filename == __file__, (w.filename, str(w.message)[:80])
    if count is not None:
        assert len(found) == count, [str(w.message)[:60] for w in found]
    return found


def _recorded(func, *args, **kwargs):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        func(*args, **kwargs)
    return record


# ------------------------------------------------------------ no overflow
@pytest.mark.parametrize("n_neg, level", [(30, 0.9999), (300, 0.999)])
@pytest.mark.parametrize("method", ["score", "analytic"])
def test_two_positives_at_a_high_confidence_level_give_an_interval_not_an_overflow(
        n_neg, level, method):
    rng = np.random.default_rng(3)  # the battery's data: OverflowError before the fix
    y = np.r_[np.ones(2), np.zeros(n_neg)]
    s = rng.normal(size=n_neg + 2) + 2 * y
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # two positive cases
        ci = auk_confidence_interval(y, s, confidence_level=level, method=method)
    lo, hi = auk_bounds(2 / (n_neg + 2))
    assert all(math.isfinite(v) for v in ci)
    assert lo - 1e-12 <= ci.low <= ci.estimate <= ci.high <= hi + 1e-12


def test_delong_logit_auc_interval_at_a_high_confidence_level_does_not_overflow():
    y = np.r_[np.ones(2), np.zeros(30)]
    s = np.r_[[5.0, -1.0], np.linspace(-2, 2, 30)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ci = auc_confidence_interval(y, s, confidence_level=1 - 1e-15,
                                     method="delong-logit")
    assert 0 <= ci.low <= ci.estimate <= ci.high <= 1


# ------------------------------------------------- weights with no share
def _heavy_positives(factor=1e20):
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(20), np.zeros(200)]
    s = rng.normal(size=220) + y
    return y, s, rng.normal(size=220) + s, np.where(y == 1, factor, 1.0)


@pytest.mark.parametrize("method", ["score", "analytic", "bootstrap", "bca"])
def test_weights_that_leave_a_class_no_share_are_refused_by_name_in_the_interval(method):
    y, s, _, w = _heavy_positives()
    with pytest.raises(ValueError, match="sample_weight leaves the negative class"):
        auk_confidence_interval(y, s, sample_weight=w, method=method, random_state=0,
                                n_resamples=50)
    # the other way round the share of positives, 1e-21, is a double: a result
    ci = auk_confidence_interval(y, s, sample_weight=np.where(y == 1, 1.0, 1e20),
                                 method=method, random_state=0, n_resamples=50)
    assert 0 < ci.low <= ci.estimate <= ci.high < 1e-18


@pytest.mark.parametrize("method", ["analytic", "bootstrap"])
def test_weights_that_leave_a_class_no_share_are_refused_by_name_in_auk_compare(method):
    y, s, s2, w = _heavy_positives()
    with pytest.raises(ValueError, match="sample_weight"):
        auk_compare(y, s, s2, sample_weight=w, method=method, random_state=0,
                    n_resamples=50)


@pytest.mark.parametrize("method", ["score", "analytic", "bootstrap", "bca"])
def test_very_unequal_weights_that_keep_a_share_still_give_a_finite_interval(method):
    y, s, _, w = _heavy_positives(1e12)
    ci = auk_confidence_interval(y, s, sample_weight=w, method=method, random_state=0,
                                 n_resamples=200, pos_label=1)
    assert all(math.isfinite(v) for v in ci)
    assert ci.low <= ci.estimate <= ci.high
    res = auk_compare(y, s, s[::-1], sample_weight=w, pos_label=1)
    assert all(math.isfinite(v) for v in res)


# ------------------------------------------------ warnings at the user's line
def test_few_cases_warnings_point_at_the_callers_line():
    y = np.r_[np.ones(4), np.zeros(100)]
    s = np.r_[[3.0, 0.5, 2.0, -0.2], np.linspace(-2, 2, 100)]
    for method in ("bootstrap", "analytic", "score"):
        rec = _recorded(auk_confidence_interval, y, s, method=method, random_state=0,
                        n_resamples=50)
        assert_warned_here(rec, UserWarning)
    assert_warned_here(_recorded(auc_confidence_interval, y, s), UserWarning)
    assert_warned_here(_recorded(auk_compare, y, s, s ** 2), UserWarning)


def test_bca_warns_once_about_few_cases():
    y = np.r_[np.ones(4), np.zeros(100)]
    s = np.r_[[3.0, 0.5, 2.0, -0.2], np.linspace(-2, 2, 100)]
    rec = _recorded(auk_confidence_interval, y, s, method="bca", random_state=0,
                    n_resamples=200)
    few = [w for w in rec if "Only 4 positive cases" in str(w.message)]
    assert len(few) == 1, [str(w.message)[:60] for w in few]
    assert few[0].filename == __file__


@pytest.mark.parametrize("call", [
    lambda y, s: auk_confidence_interval(y, s),
    lambda y, s: auk_confidence_interval(y, s, method="analytic"),
    lambda y, s: auk_confidence_interval(y, s, method="bootstrap", n_resamples=20),
    lambda y, s: auk_compare(y, s, s[::-1]),
    lambda y, s: auk_compare(y, s, s[::-1], method="bootstrap", n_resamples=20),
    lambda y, s: auc_confidence_interval(y, s),
    lambda y, s: auk_score(y, s),
    lambda y, s: kappa_curve(y, s),
    lambda y, s: kappa_confidence_interval(y, (s > 5).astype(int) * 0),
])
def test_one_class_warnings_point_at_the_callers_line(call):
    y, s = np.zeros(20, dtype=int), np.arange(20.0)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        call(y, s)
    assert_warned_here(rec, UndefinedMetricWarning)


def test_dask_warnings_point_at_the_callers_line(monkeypatch):
    da = pytest.importorskip("dask.array")
    import auklib.dask as ad

    y, s = np.zeros(20, dtype=int), np.arange(20.0)
    for func in (ad.auk_score, ad.roc_auc_score, ad.kappa_curve, ad.auk_score_bounds):
        assert_warned_here(_recorded(func, da.from_array(y, chunks=5),
                                     da.from_array(s, chunks=5)), UndefinedMetricWarning)
    # the memory warning, on a cluster pretended to be small
    small = (2, [(1, 10_000, 0), (1, 10_000, 0)], True)
    monkeypatch.setattr(ad, "_cluster", lambda: small)
    y = np.r_[np.ones(50), np.zeros(950)]
    s = np.arange(1000.0)
    for func in (ad.auk_score, ad.roc_auc_score):
        assert_warned_here(_recorded(func, da.from_array(y, chunks=250),
                                     da.from_array(s, chunks=250)), ad.ClusterMemoryWarning)


# ------------------------------------------------------------ P-values
def test_bootstrap_p_value_is_never_exactly_zero():
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(100), np.zeros(900)]
    latent = np.r_[rng.normal(2.0, 1, 100), rng.normal(0, 1, 900)]
    a, b = latent, latent + rng.normal(0, 3.0, 1000)  # a far sharper view
    res = auk_compare(y, a, b, method="bootstrap", n_resamples=499, random_state=0)
    assert res.low > 0  # every replicate on one side
    assert res.p_value == pytest.approx(1 / 500)


# -------------------------------------------- the rare class by default
def _fraud():
    X, y = make_classification(2000, weights=[0.95], random_state=0)
    return X, y, np.where(y == 1, "fraud", "ok")  # classes_[1] is "ok", 95%


def test_auk_scorer_warns_when_classes_1_is_the_majority_naming_both_labels():
    X, _, labels = _fraud()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        cross_validate(LogisticRegression(), X, labels, cv=3, scoring=auk_scorer)
    found = assert_warned_here(rec, PositiveClassWarning, count=3)  # one per fold
    message = str(found[0].message)
    assert "'ok'" in message and "pos_label='fraud'" in message and "\n" not in message
    # the rare class named: silent, and the score is the rare class's
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositiveClassWarning)
        cross_validate(LogisticRegression(), X, labels, cv=3,
                       scoring=make_auk_scorer(pos_label="fraud"))
        cross_validate(LogisticRegression(), X, labels == "fraud", cv=3, scoring=auk_scorer)


def test_kappa_scorer_warns_only_where_kappa_depends_on_the_class():
    X, _, labels = _fraud()
    with warnings.catch_warnings():
        # Cohen's kappa of the labels is the same for either class: no warning
        warnings.simplefilter("error", PositiveClassWarning)
        cross_validate(LogisticRegression(), X, labels, cv=3, scoring=kappa_scorer)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        cross_validate(LogisticRegression(), X, labels, cv=3,
                       scoring=make_kappa_scorer(prevalence=0.01))
    assert_warned_here(rec, PositiveClassWarning, count=3)


def test_tuned_threshold_with_kappa_at_a_prevalence_warns_about_the_majority_class():
    X, _, labels = _fraud()
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        TunedThresholdClassifierCV(LogisticRegression(), cv=3,
                                   scoring=make_kappa_scorer(prevalence=0.01)).fit(X, labels)
    found = assert_warned_here(rec, PositiveClassWarning)
    assert "pos_label='fraud'" in str(found[0].message)


@pytest.mark.parametrize("labels, pos, other", [
    (lambda y: 1 - y, "1", "0"), (lambda y: 1 - 2 * y, "1", "-1"),
    (lambda y: y == 0, "True", "False")])
@pytest.mark.parametrize("func", [
    auk_score, kappa_curve,
    lambda y, s: auk_confidence_interval(y, s),
    lambda y, s: auk_confidence_interval(y, s, method="bca", n_resamples=20),
    lambda y, s: auk_compare(y, s, s[::-1])])
def test_metrics_without_pos_label_warn_once_when_the_positives_are_the_majority(
        func, labels, pos, other):
    rng = np.random.default_rng(1)
    y = (rng.random(300) < 0.2).astype(int)  # 1 is the rare class
    s = rng.normal(size=300) - y  # higher scores for the majority (now positive)
    found = assert_warned_here(_recorded(func, labels(y), s), PositiveClassWarning,
                               count=1)
    assert f"pos_label={other}" in str(found[0].message)
    assert f"scores {pos} as the positive class" in str(found[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositiveClassWarning)
        func(y, -s)  # the rare class positive: silent


def test_an_explicit_pos_label_keeps_the_majority_class_without_a_warning():
    rng = np.random.default_rng(1)
    y = (rng.random(300) < 0.8).astype(int)
    s = rng.normal(size=300) + y
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositiveClassWarning)
        auk_score(y, s, pos_label=1)
        kappa_curve(y, s, pos_label=1)
        auk_confidence_interval(y, s, pos_label=1)
        auk_compare(y, s, s[::-1], pos_label=1)


def test_auc_functions_do_not_warn_about_the_majority_class():
    """The AUC is symmetric: swapping the classes and reversing the scores keeps it."""
    rng = np.random.default_rng(1)
    y = (rng.random(300) < 0.8).astype(int)
    s = rng.normal(size=300) + y
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositiveClassWarning)
        auc = auc_confidence_interval(y, s)
        assert auc.estimate == pytest.approx(auc_confidence_interval(1 - y, -s).estimate)
        auklib.delong_test(y, s, s[::-1])
        auklib.mww_statistic(y, s)


def test_majority_warning_follows_the_weights():
    rng = np.random.default_rng(1)
    y = (rng.random(300) < 0.3).astype(int)
    s = rng.normal(size=300) + y
    heavy = np.where(y == 1, 10.0, 1.0)  # the positives carry most of the weight
    assert_warned_here(_recorded(auk_score, y, s, sample_weight=heavy),
                       PositiveClassWarning, count=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositiveClassWarning)
        auk_score(y, s, sample_weight=np.where(y == 1, 1.0, 10.0))


def test_positive_class_warning_is_a_user_warning_exported_by_auklib():
    assert issubclass(PositiveClassWarning, UserWarning)
    assert "PositiveClassWarning" in auklib.__all__
