import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate
from sklearn.svm import LinearSVC

from auklib import KappaCurveDisplay, auk_score, kappa_curve, kappa_from_rates, kappa_optimal_point


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


# ---- kappa where the model will be used, and its best threshold
def _roc(y, s):
    from sklearn.metrics import roc_curve

    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    return fpr, tpr


def _binormal(n=400, p=0.2, seed=3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < p).astype(int)
    return y, rng.normal(size=n) + y


@pytest.mark.parametrize("method", ["exact", "trapezoid"])
def test_prevalence_gives_the_curve_and_auk_at_that_share(method):
    y, s = _binormal()
    fpr, tpr = _roc(y, s)
    for prevalence in (0.01, 0.5, 0.9):
        disp = KappaCurveDisplay.from_predictions(y, s, prevalence=prevalence, method=method)
        np.testing.assert_allclose(disp.line_.get_ydata(),
                                   kappa_from_rates(tpr=tpr, fpr=fpr, prevalence=prevalence),
                                   rtol=1e-12, atol=1e-15)
        assert disp.auk == pytest.approx(
            auk_score(y, s, prevalence=prevalence, method=method), rel=1e-12)
        assert disp.prevalence == prevalence


def test_from_estimator_and_from_cv_results_take_a_prevalence():
    X, y = make_classification(300, weights=[0.8], random_state=0)
    est = LogisticRegression().fit(X, y)
    disp = KappaCurveDisplay.from_estimator(est, X, y, prevalence=0.01)
    assert disp.auk == pytest.approx(auk_score(y, est.predict_proba(X)[:, 1], prevalence=0.01))
    cv = cross_validate(LogisticRegression(), X, y, cv=3, return_estimator=True,
                        return_indices=True)
    disp = KappaCurveDisplay.from_cv_results(cv, X, y, prevalence=0.01)
    assert disp.prevalence == [0.01] * 3
    for est, test, auk in zip(cv["estimator"], cv["indices"]["test"], disp.auk):
        assert auk == pytest.approx(
            auk_score(y[test], est.predict_proba(X[test])[:, 1], prevalence=0.01))


def test_prevalence_is_checked_before_the_estimator_predicts():
    class Loud(LogisticRegression):
        def predict_proba(self, X):
            raise AssertionError("predicted before checking prevalence")

    X, y = make_classification(50, random_state=0)
    est = Loud().fit(X, y)
    for bad in (0.0, 1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="prevalence must lie strictly between 0 and 1"):
            KappaCurveDisplay.from_estimator(est, X, y, prevalence=bad)
    with pytest.raises(TypeError, match="prevalence must be a single number"):
        KappaCurveDisplay.from_predictions(y, X[:, 0], prevalence=[0.1, 0.2])


@pytest.mark.parametrize("prevalence", [None, 0.01])
def test_optimal_point_is_the_kappa_optimal_threshold(prevalence):
    y, s = _binormal()
    disp = KappaCurveDisplay.from_predictions(y, s, prevalence=prevalence,
                                              plot_optimal_point=True,
                                              optimal_point_kw={"color": "red"})
    fpr, tpr = _roc(y, s)
    p = y.mean() if prevalence is None else prevalence
    kappa = kappa_from_rates(tpr=tpr, fpr=fpr, prevalence=p)
    i = int(np.argmax(kappa))
    (x,), (k,) = disp.optimal_point_.get_data()
    assert (x, k) == pytest.approx((fpr[i], kappa[i]), rel=1e-12)
    if prevalence is None:
        best = kappa_optimal_point(y, s)
        assert (x, k) == pytest.approx((best.fpr, best.kappa), rel=1e-12)
    assert disp.optimal_point_.get_label() == f"max kappa = {kappa[i]:.3f}"
    assert disp.optimal_point_.get_color() == "red"
    labels = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert disp.optimal_point_.get_label() in labels
    assert KappaCurveDisplay.from_predictions(y, s).optimal_point_ is None


def test_optimal_points_of_cv_folds_are_marked_once_in_the_legend():
    X, y = make_classification(300, weights=[0.8], random_state=0)
    cv = cross_validate(LogisticRegression(), X, y, cv=3, return_estimator=True,
                        return_indices=True)
    disp = KappaCurveDisplay.from_cv_results(cv, X, y, plot_optimal_point=True)
    assert len(disp.optimal_point_) == 3
    for f, k, mark in zip(disp.fpr, disp.kappa, disp.optimal_point_):
        (x,), (best,) = mark.get_data()
        assert best == np.max(k) and x == f[np.argmax(k)]
    labels = [m.get_label() for m in disp.optimal_point_]
    assert labels == ["max kappa of each curve", "_nolegend_", "_nolegend_"]


def test_each_optimal_point_takes_its_curves_colour():
    from matplotlib.colors import to_rgba

    X, y = make_classification(300, weights=[0.8], random_state=0)
    cv = cross_validate(LogisticRegression(), X, y, cv=3, return_estimator=True,
                        return_indices=True)
    disp = KappaCurveDisplay.from_cv_results(
        cv, X, y, plot_optimal_point=True,
        curve_kwargs=[{"color": c} for c in ("tab:blue", "tab:orange", "tab:green")])
    colours = [to_rgba(m.get_color()) for m in disp.optimal_point_]
    assert colours == [to_rgba(ln.get_color()) for ln in disp.line_]
    assert len(set(colours)) == 3  # not all black, as the marks were
    one = KappaCurveDisplay.from_predictions(y, X[:, 0], plot_optimal_point=True)
    assert to_rgba(one.optimal_point_.get_color()) == to_rgba(one.line_.get_color())


@pytest.mark.parametrize("prevalence, title", [
    (None, "Positive class 'fraud', p = 0.2"), (0.01, "Positive class 'fraud', p = 0.01")])
def test_legend_title_names_the_positive_class_and_the_prevalence(prevalence, title):
    y = np.array(["fraud"] * 20 + ["ok"] * 80)
    s = np.r_[np.arange(20) + 50.0, np.arange(80.0)]
    disp = KappaCurveDisplay.from_predictions(y, s, pos_label="fraud", prevalence=prevalence)
    assert disp.ax_.get_legend().get_title().get_text() == title
    X, yy = make_classification(300, weights=[0.8], random_state=0)
    cv = cross_validate(LogisticRegression(), X, yy, cv=3, return_estimator=True,
                        return_indices=True)
    folds = KappaCurveDisplay.from_cv_results(cv, X, yy, prevalence=prevalence)
    shares = [np.mean(yy[t]) for t in cv["indices"]["test"]]
    expected = ("p = 0.01" if prevalence else
                f"p = {min(shares):.3g}-{max(shares):.3g}")
    assert folds.ax_.get_legend().get_title().get_text() == "Positive class 1, " + expected


def test_display_warns_when_the_inferred_positive_class_is_the_majority():
    from auklib import PositiveClassWarning

    X, y = make_classification(300, weights=[0.8], random_state=0)
    labels = np.where(y == 1, "churn", "stay")  # classes_[1] is "stay", 80%
    model = LogisticRegression().fit(X, labels)
    with pytest.warns(PositiveClassWarning, match="pos_label='churn'") as record:
        KappaCurveDisplay.from_estimator(model, X, labels)
    assert record[0].filename == __file__
    with pytest.warns(PositiveClassWarning, match="pos_label=0") as record:
        KappaCurveDisplay.from_predictions(1 - y, X[:, 0])
    assert record[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositiveClassWarning)
        KappaCurveDisplay.from_estimator(model, X, labels, pos_label="churn")
        KappaCurveDisplay.from_predictions(y, X[:, 0])


def test_without_matplotlib_the_error_says_how_to_install_it(monkeypatch):
    import sys

    y, s = _binormal()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    hint = r'pip install "auklib\[plot\]"'
    with pytest.raises(ModuleNotFoundError, match=rf"from_predictions draws with matplotlib.*{hint}"):
        KappaCurveDisplay.from_predictions(y, s)
    X, yy = make_classification(50, random_state=0)
    est = LogisticRegression().fit(X, yy)
    with pytest.raises(ModuleNotFoundError, match=hint):
        KappaCurveDisplay.from_estimator(est, X, yy)
    with pytest.raises(ModuleNotFoundError, match=rf"KappaCurveDisplay.plot .*{hint}"):
        KappaCurveDisplay(fpr=[0, 1], kappa=[0, 0]).plot()


def test_the_plot_extra_installs_matplotlib():
    import tomllib
    from pathlib import Path

    meta = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert any(dep.startswith("matplotlib") for dep in meta["project"]["optional-dependencies"]["plot"])
