import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

from auklib import KappaCurveDisplay, auk_score, kappa_curve


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_from_predictions_sets_attributes():
    rng = np.random.default_rng(0)
    y = (rng.random(200) < 0.2).astype(int)
    s = rng.normal(size=200) + y
    disp = KappaCurveDisplay.from_predictions(y, s, name="model", plot_chance_level=True)
    fpr, kappa, _ = kappa_curve(y, s)
    np.testing.assert_array_equal(disp.line_.get_xdata(), fpr)
    np.testing.assert_array_equal(disp.line_.get_ydata(), kappa)
    assert disp.auk == pytest.approx(auk_score(y, s, method="exact"))
    assert disp.line_.get_label() == f"model (AUK = {disp.auk:.3f})"
    assert disp.chance_level_.get_ydata()[0] == 0
    assert disp.ax_.figure is disp.figure_


def test_no_chance_level_and_given_axes():
    fig, ax = plt.subplots()
    disp = KappaCurveDisplay.from_predictions([0, 1, 0, 1], [0.2, 0.6, 0.4, 0.9], ax=ax,
                                              curve_kwargs={"color": "red"})
    assert disp.ax_ is ax and disp.chance_level_ is None
    assert disp.line_.get_color() == "red"


@pytest.mark.parametrize("est", [LogisticRegression(), LinearSVC()])
def test_from_estimator(est):
    X, y = make_classification(300, weights=[0.85], random_state=0)
    est.fit(X, y)
    disp = KappaCurveDisplay.from_estimator(est, X, y)
    score = est.predict_proba(X)[:, 1] if hasattr(est, "predict_proba") else est.decision_function(X)
    assert disp.auk == pytest.approx(auk_score(y, score))
    assert type(est).__name__ in disp.line_.get_label()


def test_from_estimator_errors():
    X, y = make_classification(50, random_state=0)
    with pytest.raises(NotFittedError):
        KappaCurveDisplay.from_estimator(LogisticRegression(), X, y)
    est = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="pos_label=7"):
        KappaCurveDisplay.from_estimator(est, X, y, pos_label=7)
    with pytest.raises(ValueError, match="response_method"):
        KappaCurveDisplay.from_estimator(est, X, y, response_method="predict")


def test_constructor_checks_shapes():
    with pytest.raises(ValueError, match="same shape"):
        KappaCurveDisplay(fpr=[0, 1], kappa=[0, 0.2, 0])
