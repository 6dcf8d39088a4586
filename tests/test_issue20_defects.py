"""Issue 20, section 3: the defects the independent checks found, one test each.

Each test fails on the code before the fix (checked by running this file
against the main checkout's auklib) and passes now.
"""

import sys
import warnings

import numpy as np
import pytest

import auklib
from auklib import (
    KappaCurveDisplay,
    aligned_ranks_posthoc,
    auc_confidence_interval,
    auk_compare,
    auk_confidence_interval,
    auk_from_roc,
    auk_score,
    friedman_aligned_ranks,
    h_measure,
    kappa_curve,
    kappa_from_confusion,
    kappa_from_rates,
    metric_curve,
)


def _integer_table(seed, b=6, k=4):
    """Scores whose aligned values are integers: distinct ones differ by >= 1/k.

    Each row sums to a multiple of k, so its mean is an integer; genuine ties
    between aligned values are exact and every other gap is at least 1.
    """
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 20, size=(b, k)).astype(float)
    x[:, -1] += (-x.sum(axis=1)) % k
    return x


# -- friedman_aligned_ranks / aligned_ranks_posthoc --------------------------
@pytest.mark.parametrize("seed", range(5))
def test_aligned_rank_tests_do_not_depend_on_the_unit_of_the_scores(seed):
    """x * 1e-12 gave T = 0 and p = 1 (every aligned value rounded to 0), and
    1e4 + x * 1e-8 changed T (rounded to 12 decimals of 1e4)."""
    x = _integer_table(seed)
    base = friedman_aligned_ranks(x)
    base_post = aligned_ranks_posthoc(x)
    assert base.statistic > 0
    for transformed in (x * 1e-12, x * 1e12, 1e4 + x * 1e-8, x * 1e-300):
        res = friedman_aligned_ranks(transformed)
        assert res.statistic == pytest.approx(base.statistic, rel=1e-12)
        assert res.p_value == pytest.approx(base.p_value, rel=1e-12)
        post = aligned_ranks_posthoc(transformed)
        np.testing.assert_allclose(post.mean_ranks, base_post.mean_ranks, rtol=1e-12)
        np.testing.assert_allclose(post.p_adjusted, base_post.p_adjusted, rtol=1e-12)


def test_aligned_ranks_still_tie_values_equal_in_decimal_arithmetic():
    """0.9 - 0.8 and 0.8 - 0.7 differ in binary; they are still one tie."""
    from auklib.stats import _aligned_ranks

    r = _aligned_ranks(np.array([[0.8, 0.7, 0.6], [0.9, 0.8, 0.7], [0.3, 0.2, 0.1]]))
    assert np.all(r == r[0])  # the three rows are the same up to a shift


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


# -- ragged input ---------------------------------------------------------------
R2 = [[1, 2], [3]]
R1 = [0.1, [0.2, 0.3], 0.3, 0.4]
Y = [0, 1, 0, 1]
S = [0.1, 0.2, 0.3, 0.4]
RAGGED = {
    "kappa_from_matrix": ("confusion", lambda: auklib.kappa_from_matrix(R2)),
    "kappa_from_confusion": ("tp", lambda: auklib.kappa_from_confusion(R2, 1, 1, 1)),
    "kappa_from_rates": ("tpr", lambda: kappa_from_rates(tpr=R1, fpr=0.1, prevalence=0.2)),
    "tpr_from_kappa": ("kappa", lambda: auklib.tpr_from_kappa(R2, 0.1, 0.2)),
    "auk_from_roc": ("fpr", lambda: auk_from_roc([0, [0.5, 0.6], 1], [0, 1, 1], 0.2)),
    "roc_convex_hull": ("fpr", lambda: auklib.roc_convex_hull([0, [0.5, 0.6]], [0, 1])),
    "auk_bounds": ("prevalence", lambda: auklib.auk_bounds([0.1, [0.2, 0.3]])),
    "kappa_curve-y_true": ("y_true", lambda: kappa_curve([0, [1, 0], 1, 0], S)),
    "kappa_curve-y_score": ("y_score", lambda: kappa_curve(Y, R1)),
    "kappa_curve-sample_weight": (
        "sample_weight", lambda: kappa_curve(Y, S, sample_weight=[1, [1, 2], 1, 1])),
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
    "auk_compare": ("y_score_b", lambda: auk_compare(Y, S, R1)),
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


# -- auk_compare: the p-value agrees with the interval ------------------------------
def test_auk_compare_p_value_agrees_with_its_interval_at_small_n_resamples():
    """p < 1 - confidence_level exactly when the interval excludes 0."""
    rng = np.random.default_rng(20)
    y = np.r_[np.ones(30), np.zeros(60)]
    checked = excluded = 0
    for _ in range(40):
        latent = np.r_[rng.normal(1.0, 1, 30), rng.normal(0, 1, 60)]
        a = latent + rng.normal(0, 0.5, 90)
        b = latent + rng.normal(0, 0.9, 90)
        for n_resamples in (5, 9, 20, 49):
            for level in (0.8, 0.9, 0.95):
                res = auk_compare(y, a, b, confidence_level=level,
                                  n_resamples=n_resamples, random_state=checked)
                out = res.low > 0 or res.high < 0
                assert (res.p_value < 1 - level) == out, (n_resamples, level, res)
                assert 0 <= res.p_value <= 1
                checked += 1
                excluded += out
    assert 0.1 < excluded / checked < 0.9  # both outcomes were met


# -- h_measure ---------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["constant", "reversed", "one-value-per-class-reversed"])
def test_h_measure_of_a_useless_scorer_is_zero_not_negative(kind):
    y = np.array([0, 1] * 20 + [0] * 7)
    s = {
        "constant": np.full(y.shape, 0.3),
        "reversed": -np.arange(y.shape[0]) * (y * 2 - 1) - 100 * y,
        "one-value-per-class-reversed": np.where(y == 1, 0.1, 0.9),
    }[kind]
    assert h_measure(y, s) == 0.0


def test_h_measure_is_never_below_zero_over_random_scorers():
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(2, 40))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = rng.integers(0, 4, n) - rng.uniform(0, 2) * y
        h = h_measure(y, s, severity_ratio=float(rng.uniform(0.1, 10)))
        assert 0.0 <= h <= 1.0


# -- kappa_from_rates: the rates by keyword only ---------------------------------
def test_kappa_from_rates_refuses_positional_rates():
    """scikit-learn's order (fpr, tpr) silently turned 0.675 into -0.384."""
    with pytest.raises(TypeError):
        kappa_from_rates(0.05, 0.7, 0.2)  # (fpr, tpr) as roc_curve returns them
    right = kappa_from_rates(fpr=0.05, tpr=0.7, prevalence=0.2)
    assert right == pytest.approx(kappa_from_confusion(tp=0.14, fn=0.06, fp=0.04, tn=0.76))
    assert round(right, 3) == 0.675


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


# -- one implementation of each: single class, kappa kernel, trapezoid -------------
def _spy_on(monkeypatch, name):
    """Wrap the private helper ``name`` in every auklib module that binds it."""
    calls = []
    modules = [m for key, m in sys.modules.items()
               if key.startswith("auklib") and m is not None and hasattr(m, name)]
    assert modules, f"no auklib module defines {name}"
    original = getattr(sys.modules["auklib._validation" if name.startswith("_one")
                                   else "auklib.kappa" if name == "_kappa_pn"
                                   else "auklib.curves"], name)

    def spy(*args, **kwargs):
        calls.append(name)
        return original(*args, **kwargs)

    for m in modules:
        if getattr(m, name) is original:
            monkeypatch.setattr(m, name, spy)
    return calls


ONE_CLASS = {
    "kappa_curve": lambda y: kappa_curve(y, S),
    "auk_score": lambda y: auk_score(y, S),
    "metric_curve": lambda y: metric_curve(y, S, "kappa"),
    "h_measure": lambda y: h_measure(y, S),
    "auk_confidence_interval": lambda y: auk_confidence_interval(y, S, n_resamples=5),
    "auc_confidence_interval": lambda y: auc_confidence_interval(y, S),
}


@pytest.mark.parametrize("caller", sorted(ONE_CLASS))
def test_single_class_is_handled_by_the_one_helper(monkeypatch, caller):
    calls = _spy_on(monkeypatch, "_one_class_undefined")
    with pytest.warns(auklib.UndefinedMetricWarning,
                      match=rf"Only one class .*no positive samples.*; {caller} returns NaN"):
        ONE_CLASS[caller]([0, 0, 0, 0])
    assert calls  # the shared helper decided


KAPPAS = {
    "kappa_from_confusion": lambda: kappa_from_confusion(5, 2, 3, 90),
    "kappa_from_rates": lambda: kappa_from_rates(tpr=0.7, fpr=0.1, prevalence=0.3),
    "kappa_curve": lambda: kappa_curve(Y, S),
    "metric_curve": lambda: metric_curve(Y, S, "kappa"),
    "auk_score-trapezoid": lambda: auk_score(Y, S, method="trapezoid"),
    "auk_from_roc-trapezoid": lambda: auk_from_roc([0, 0.2, 1], [0, 0.7, 1], 0.3,
                                                   method="trapezoid"),
    "kappa_confidence_interval": lambda: auklib.kappa_confidence_interval(
        [1] * 20 + [0] * 80, [1] * 15 + [0] * 15 + [1] * 10 + [0] * 60),
}


@pytest.mark.parametrize("caller", sorted(KAPPAS))
def test_every_kappa_goes_through_the_one_kernel(monkeypatch, caller):
    calls = _spy_on(monkeypatch, "_kappa_pn")
    KAPPAS[caller]()
    assert calls


@pytest.mark.parametrize("method_of", ["auk_score", "auk_from_roc"])
def test_every_trapezoid_rule_is_the_one_helper(monkeypatch, method_of):
    calls = _spy_on(monkeypatch, "_trapezoid_sum")
    if method_of == "auk_score":
        value = auk_score([0, 0, 0, 1], [0.1, 0.4, 0.35, 0.8], method="trapezoid")
        assert value == pytest.approx(0.4)
    else:
        value = auk_from_roc([0, 0.2, 1], [0, 0.7, 1], 0.1, method="trapezoid")
        assert value == pytest.approx(0.15)
    assert calls
