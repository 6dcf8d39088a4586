"""The AUK and kappa scorers in scikit-learn's model selection, for every label type."""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import cohen_kappa_score, make_scorer
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB

import auklib
from auklib import (
    auk_score,
    auk_scorer,
    kappa_curve,
    kappa_from_rates,
    kappa_scorer,
    make_auk_scorer,
    make_kappa_scorer,
)

X, Y = make_classification(240, weights=[0.75], random_state=0)
CV = StratifiedKFold(3, shuffle=True, random_state=0)

LABELS = {
    "0/1": lambda y: y,
    "-1/1": lambda y: 2 * y - 1,
    "bool": lambda y: y.astype(bool),
    "strings": lambda y: np.where(y == 1, "yes", "no"),
    # classes_ = ["churn", "stay"]: the positive class is "stay", the 0s
    "strings, 1 sorted first": lambda y: np.where(y == 1, "churn", "stay"),
}


def _folds(estimator, labels, scoring, **kw):
    res = cross_validate(estimator, X, labels, cv=CV, scoring=scoring, error_score="raise",
                         return_estimator=True, return_indices=True, **kw)
    return res, zip(res["estimator"], res["indices"]["test"])


@pytest.mark.parametrize("kind", LABELS)
@pytest.mark.parametrize("estimator", [LogisticRegression(), GaussianNB()],
                         ids=["decision_function", "predict_proba"])
def test_cross_validate_auk_scores_classes_1_whatever_the_labels(kind, estimator):
    labels = LABELS[kind](Y)
    res, folds = _folds(estimator, labels, auk_scorer)
    for score, (est, test) in zip(res["test_score"], folds):
        positive = labels[test] == est.classes_[1]
        if hasattr(est, "decision_function"):
            s = est.decision_function(X[test])
        else:
            s = est.predict_proba(X[test])[:, 1]
        assert score == auk_score(positive, s)
    if kind != "strings, 1 sorted first":  # the same positives as 0/1: the same AUKs
        want = cross_validate(estimator, X, Y, cv=CV, scoring=auk_scorer)["test_score"]
        np.testing.assert_allclose(res["test_score"], want, rtol=1e-12)


def test_string_labels_give_nan_with_make_scorer_but_not_with_the_scorer():
    labels = LABELS["strings"](Y)
    naive = make_scorer(auk_score, response_method="predict_proba")
    with pytest.warns(UserWarning, match="without pos_label they must be"):
        nan = cross_validate(LogisticRegression(), X, labels, cv=CV, scoring=naive)
    assert np.isnan(nan["test_score"]).all()
    ours = cross_validate(LogisticRegression(), X, labels, cv=CV, scoring=auk_scorer)
    want = cross_validate(LogisticRegression(), X, Y, cv=CV, scoring=auk_scorer)
    np.testing.assert_allclose(ours["test_score"], want["test_score"], rtol=1e-12)
    assert np.isfinite(ours["test_score"]).all()


@pytest.mark.parametrize("flag", ["needs_proba", "needs_threshold"])
def test_make_scorer_old_flags_are_named_with_the_fix(flag):
    old = make_scorer(auk_score, **{flag: True})  # scikit-learn >= 1.6 accepts it silently
    with pytest.raises(TypeError, match=rf"{flag}=True.*auklib\.auk_scorer.*response_method"):
        cross_validate(LogisticRegression(), X, Y, cv=CV, scoring=old, error_score="raise")
    # without error_score="raise" every fold is NaN; the warning carries the fix
    with pytest.warns(UserWarning, match=rf"{flag}=True.*auklib\.auk_scorer"):
        res = cross_validate(LogisticRegression(), X, Y, cv=CV, scoring=old)
    assert np.isnan(res["test_score"]).all()
    with pytest.raises(TypeError, match=flag):
        auk_score(Y, X[:, 0], **{flag: True})


def test_other_unknown_keywords_keep_pythons_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'prevalance'"):
        auk_score(Y, X[:, 0], prevalance=0.1)


@pytest.mark.parametrize("kind", LABELS)
def test_grid_search_refits_the_model_with_the_best_auk(kind):
    labels = LABELS[kind](Y)
    scoring = {"auk": make_auk_scorer(prevalence=0.05), "auc": "roc_auc"}
    search = GridSearchCV(LogisticRegression(), {"C": [1e-3, 1e-2, 1.0]}, cv=CV,
                          scoring=scoring, refit="auk", error_score="raise").fit(X, labels)
    means = search.cv_results_["mean_test_auk"]
    assert search.best_index_ == int(np.argmax(means))
    assert search.best_score_ == means[search.best_index_]
    # each mean is the mean over the folds of auk_score at 5% positives
    C = search.cv_results_["params"][0]["C"]
    folds = []
    for train, test in CV.split(X, labels):
        est = LogisticRegression(C=C).fit(X[train], labels[train])
        folds.append(auk_score(labels[test] == est.classes_[1],
                               est.decision_function(X[test]), prevalence=0.05))
    assert means[0] == pytest.approx(np.mean(folds), rel=1e-12)


@pytest.mark.parametrize("kind", LABELS)
def test_tuned_threshold_maximises_kappa_like_cohen_kappa_score(kind):
    labels = LABELS[kind](Y)
    kw = dict(cv=CV, store_cv_results=True, random_state=0)
    ours = TunedThresholdClassifierCV(LogisticRegression(), scoring=kappa_scorer, **kw)
    theirs = TunedThresholdClassifierCV(LogisticRegression(),
                                        scoring=make_scorer(cohen_kappa_score), **kw)
    ours.fit(X, labels)
    theirs.fit(X, labels)
    np.testing.assert_allclose(ours.cv_results_["scores"], theirs.cv_results_["scores"],
                               rtol=1e-12, atol=1e-15)
    assert ours.best_threshold_ == theirs.best_threshold_
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    assert set(ours.predict(X)) <= set(labels.tolist())


@pytest.mark.parametrize("kind", LABELS)
def test_kappa_at_a_prevalence_tunes_the_same_whatever_the_labels(kind):
    labels = LABELS[kind](Y)
    tuned = TunedThresholdClassifierCV(LogisticRegression(), cv=CV, random_state=0,
                                       scoring=make_kappa_scorer(prevalence=0.02))
    base = TunedThresholdClassifierCV(LogisticRegression(), cv=CV, random_state=0,
                                      scoring=make_kappa_scorer(prevalence=0.02))
    tuned.fit(X, labels)
    if kind == "strings, 1 sorted first":  # "stay" (the 0s) is positive here
        base.fit(X, 1 - Y)
    else:
        base.fit(X, Y)
    assert tuned.best_threshold_ == pytest.approx(base.best_threshold_, rel=1e-12)
    assert tuned.best_score_ == pytest.approx(base.best_score_, rel=1e-12)


def test_kappa_scorer_at_a_prevalence_is_eq_19_of_the_rates():
    est = LogisticRegression().fit(X, Y)
    pred = est.predict(X)
    t = np.mean(pred[Y == 1] == 1)
    f = np.mean(pred[Y == 0] == 1)
    for p in (0.01, 0.3, 0.9):
        got = make_kappa_scorer(prevalence=p)(est, X, Y)
        assert got == pytest.approx(kappa_from_rates(tpr=t, fpr=f, prevalence=p), rel=1e-13)
    assert kappa_scorer(est, X, Y) == pytest.approx(cohen_kappa_score(Y, pred), rel=1e-13)


def test_metadata_routing_weights_the_folds():
    w = np.random.default_rng(0).uniform(0.5, 3.0, Y.shape[0])
    with sklearn.config_context(enable_metadata_routing=True):
        model = LogisticRegression().set_fit_request(sample_weight=False)
        scoring = {
            "auk": make_auk_scorer().set_score_request(sample_weight=True),
            "kappa": make_kappa_scorer().set_score_request(sample_weight=True),
        }
        res = cross_validate(model, X, Y, cv=CV, scoring=scoring, error_score="raise",
                             params={"sample_weight": w}, return_estimator=True,
                             return_indices=True)
        tuned = TunedThresholdClassifierCV(
            model, cv=CV, random_state=0, store_cv_results=True,
            scoring=make_kappa_scorer().set_score_request(sample_weight=True))
        tuned.fit(X, Y, sample_weight=w)
        sk = TunedThresholdClassifierCV(
            model, cv=CV, random_state=0, store_cv_results=True,
            scoring=make_scorer(cohen_kappa_score).set_score_request(sample_weight=True))
        sk.fit(X, Y, sample_weight=w)
    for auk, kappa, est, test in zip(res["test_auk"], res["test_kappa"], res["estimator"],
                                     res["indices"]["test"]):
        assert auk == auk_score(Y[test], est.decision_function(X[test]), sample_weight=w[test])
        assert auk != auk_score(Y[test], est.decision_function(X[test]))
        assert kappa == pytest.approx(
            cohen_kappa_score(Y[test], est.predict(X[test]), sample_weight=w[test]), rel=1e-12)
    np.testing.assert_allclose(tuned.cv_results_["scores"], sk.cv_results_["scores"],
                               rtol=1e-12, atol=1e-15)


def test_the_ready_scorers_are_not_changed_by_a_request():
    with sklearn.config_context(enable_metadata_routing=True):
        make_auk_scorer().set_score_request(sample_weight=True)
        routing = auk_scorer.get_metadata_routing()
    assert routing.score.requests["sample_weight"] is None


@pytest.mark.parametrize("scorer, hint", [(auk_scorer, "hand_till_score"),
                                          (kappa_scorer, "cohen_kappa_score")])
def test_multiclass_estimators_are_refused_with_a_hint(scorer, hint):
    X3, y3 = make_classification(150, n_classes=3, n_informative=4, random_state=0)
    est = LogisticRegression().fit(X3, y3)
    with pytest.raises(ValueError, match=rf"binary classifiers; LogisticRegression has 3 "
                                         rf"classes\..*{hint}"):
        scorer(est, X3, y3)


def test_an_estimator_without_classes_is_refused():
    from sklearn.linear_model import LinearRegression

    est = LinearRegression().fit(X, Y)
    with pytest.raises(TypeError, match="auk_scorer scores fitted classifiers"):
        auk_scorer(est, X, Y)


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"method": "simpson"}, ValueError, "method='simpson'"),
    ({"prevalence": 1.5}, ValueError, "prevalence must lie strictly between 0 and 1"),
    ({"response_method": "predict"}, ValueError, "response_method='predict'"),
    ({"response_method": 3}, TypeError, "response_method"),
])
def test_make_auk_scorer_checks_its_options(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        make_auk_scorer(**kwargs)


def test_scorers_say_what_they_are_and_are_public():
    assert repr(auk_scorer) == "make_auk_scorer()"
    assert repr(make_auk_scorer(prevalence=0.01, method="trapezoid")) == (
        "make_auk_scorer(prevalence=0.01, method='trapezoid')")
    assert repr(kappa_scorer) == "make_kappa_scorer()"
    for name in ("auk_scorer", "kappa_scorer", "make_auk_scorer", "make_kappa_scorer"):
        assert name in auklib.__all__
    est = LogisticRegression().fit(X, Y)
    assert make_auk_scorer(method="trapezoid")(est, X, Y) == auk_score(
        Y, est.decision_function(X), method="trapezoid")
    assert make_auk_scorer(pos_label=0)(est, X, Y) == auk_score(
        Y, -est.decision_function(X), pos_label=0)


def test_a_fold_with_one_class_is_nan_with_a_warning():
    est = LogisticRegression().fit(X, Y)
    one = Y == 0
    with pytest.warns(auklib.UndefinedMetricWarning, match="kappa_scorer returns NaN"):
        assert np.isnan(kappa_scorer(est, X[one], Y[one]))
    with pytest.warns(auklib.UndefinedMetricWarning, match="auk_score returns NaN"):
        assert np.isnan(auk_scorer(est, X[one], Y[one]))


# ---- scores of several classes given to a binary metric
@pytest.mark.parametrize("call", [
    lambda y, s: auk_score(y, s),
    lambda y, s: kappa_curve(y, s),
    lambda y, s: auklib.kappa_optimal_point(y, s),
    lambda y, s: auklib.h_measure(y, s),
    lambda y, s: auklib.delong_test(y, s, s),
], ids=["auk_score", "kappa_curve", "kappa_optimal_point", "h_measure", "delong_test"])
def test_scores_of_several_classes_point_to_hand_till(call):
    X3, y3 = make_classification(90, n_classes=3, n_informative=4, random_state=0)
    proba = LogisticRegression().fit(X3, y3).predict_proba(X3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"shape \(90, 3\) but must be 1-D.*two "
                                             r"classes.*proba\[:, 1\].*hand_till_score"):
            call(y3 == 2, proba)
