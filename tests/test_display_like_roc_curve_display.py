"""KappaCurveDisplay follows scikit-learn's RocCurveDisplay: signatures, keywords,
errors before the estimator is called, cross-validation results."""

import inspect

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate

from auklib import KappaCurveDisplay, auk_score


Y, S = [0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")

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

# -- KappaCurveDisplay.from_estimator checks its options before predicting -----
def test_from_estimator_checks_method_before_calling_the_estimator():
    from sklearn.linear_model import LogisticRegression

    calls = []

    class Spy(LogisticRegression):
        def predict_proba(self, X):
            calls.append("predict_proba")
            return super().predict_proba(X)

    X = np.r_[np.zeros((5, 1)), np.ones((5, 1))]
    y = np.r_[np.zeros(5), np.ones(5)]
    est = Spy().fit(X, y)
    with pytest.raises(ValueError, match="method"):
        KappaCurveDisplay.from_estimator(est, X, y, method="simpson")
    assert calls == []
