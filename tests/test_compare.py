"""Paired tests and agreement intervals (auklib.compare) against independent oracles.

* DeLong's test: the structural components of DeLong, DeLong & Clarke-Pearson
  (1988) computed by explicit O(N+ N-) loops over the kernel psi, their
  covariance matrices S10 and S01 and the contrast L = (1, -1); the AUCs
  from scikit-learn's roc_auc_score.
* Kappa's and the MCC's variances: the multinomial delta method with a
  numerical (central-difference) gradient, ``g' (diag(p) - p p') g / n``;
  the estimates from scikit-learn.
* McNemar: the binomial P value summed term by term with math.comb.
"""

import math
import warnings

import numpy as np
import pytest
from scipy.stats import chi2, norm
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef, roc_auc_score

from auklib import (
    UndefinedMetricWarning,
    auc_confidence_interval,
    delong_test,
    kappa_confidence_interval,
    mcc_confidence_interval,
    mcnemar_test,
)


def _delong_loops(y, a, b):
    """The 1988 paper's estimator, written out with loops."""
    pos = [i for i in range(len(y)) if y[i] == 1]
    neg = [j for j in range(len(y)) if y[j] == 0]
    m, n = len(pos), len(neg)

    def psi(x, z):
        return 1.0 if x > z else 0.5 if x == z else 0.0

    v10 = np.zeros((2, m))
    v01 = np.zeros((2, n))
    for r, s in enumerate((a, b)):
        for ii, i in enumerate(pos):
            for jj, j in enumerate(neg):
                k = psi(s[i], s[j])
                v10[r, ii] += k / n
                v01[r, jj] += k / m
    theta = v10.mean(axis=1)
    s10 = np.zeros((2, 2))
    s01 = np.zeros((2, 2))
    for r in range(2):
        for q in range(2):
            s10[r, q] = sum(
                (v10[r, i] - theta[r]) * (v10[q, i] - theta[q]) for i in range(m)
            ) / (m - 1)
            s01[r, q] = sum(
                (v01[r, j] - theta[r]) * (v01[q, j] - theta[q]) for j in range(n)
            ) / (n - 1)
    s = s10 / m + s01 / n
    L = np.array([1.0, -1.0])
    var = L @ s @ L
    diff = theta[0] - theta[1]
    return diff, math.sqrt(var), s


def _cases(seed, n_pos, n_neg, rho, ties):
    rng = np.random.default_rng(seed)
    cov = [[1, rho], [rho, 1]]
    pos = rng.multivariate_normal([1.0, 0.7], cov, n_pos)
    neg = rng.multivariate_normal([0.0, 0.0], cov, n_neg)
    x = np.r_[pos, neg]
    if ties:
        x = np.round(x, 0)  # few distinct values: many ties, within and across
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    order = rng.permutation(n_pos + n_neg)
    return y[order], x[order, 0], x[order, 1]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ties", [False, True])
def test_delong_matches_the_structural_components_computed_by_loops(seed, ties):
    y, a, b = _cases(seed, 12 + 3 * seed, 30 + 5 * seed, 0.6, ties)
    res = delong_test(y, a, b)
    diff, se, _ = _delong_loops(y, a, b)
    assert res.difference == pytest.approx(diff, abs=1e-12)
    assert res.difference == pytest.approx(
        roc_auc_score(y, a) - roc_auc_score(y, b), abs=1e-12)
    assert res.standard_error == pytest.approx(se, rel=1e-10)
    assert res.statistic == pytest.approx(diff / se, rel=1e-10)
    assert res.p_value == pytest.approx(2 * norm.sf(abs(diff / se)), rel=1e-9)
    z = norm.ppf(0.975)
    assert res.low == pytest.approx(diff - z * se, abs=1e-12)
    assert res.high == pytest.approx(diff + z * se, abs=1e-12)


def test_delong_diagonal_of_s_is_each_auc_variance_of_auc_confidence_interval():
    y, a, b = _cases(7, 25, 60, 0.3, False)
    _, _, s = _delong_loops(y, a, b)
    assert auc_confidence_interval(y, a).standard_error ** 2 == pytest.approx(s[0, 0])
    assert auc_confidence_interval(y, b).standard_error ** 2 == pytest.approx(s[1, 1])


def test_delong_is_antisymmetric_and_invariant_to_monotone_transforms():
    y, a, b = _cases(3, 20, 40, 0.5, False)
    ab, ba = delong_test(y, a, b), delong_test(y, b, a)
    assert ab.statistic == pytest.approx(-ba.statistic)
    assert ab.p_value == pytest.approx(ba.p_value)
    moved = delong_test(y, np.exp(a), 3 * b - 1)
    assert moved.statistic == pytest.approx(ab.statistic)


def test_delong_with_the_same_ranking_twice_is_zero_and_p_one():
    y, a, _ = _cases(1, 15, 30, 0.5, False)
    res = delong_test(y, a, np.exp(a))
    assert (res.statistic, res.p_value, res.difference, res.standard_error) == (
        0.0, 1.0, 0.0, 0.0)


def test_delong_zero_variance_with_a_difference_warns_and_is_infinite():
    y = np.r_[np.ones(12, dtype=int), np.zeros(12, dtype=int)]
    perfect = y.astype(float)
    constant = np.zeros(24)
    with pytest.warns(UserWarning, match="variance of the AUC difference is 0"):
        res = delong_test(y, perfect, constant)
    assert res.statistic == math.inf and res.p_value == 0.0
    assert res.difference == 0.5


def test_delong_pos_label_and_confidence_level():
    y, a, b = _cases(2, 20, 30, 0.5, False)
    labels = np.where(y == 1, "sick", "well")
    res = delong_test(labels, a, b, pos_label="sick", confidence_level=0.9)
    ref = delong_test(y, a, b)
    assert res.statistic == pytest.approx(ref.statistic)
    half = norm.ppf(0.95) * ref.standard_error
    assert res.high - res.low == pytest.approx(2 * half)


def test_delong_single_class_and_few_cases_warn():
    with pytest.warns(UndefinedMetricWarning):
        res = delong_test([1, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2, 0.1])
    assert all(math.isnan(v) for v in res)
    with pytest.warns(UserWarning, match="Only 3 positive cases"):
        delong_test([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                    np.arange(14.0), np.arange(14.0) % 5)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(y_score_b=[0.1, 0.2]), ValueError, "different numbers of samples"),
        (dict(y_score_a=None), TypeError, "y_score_a is None"),
        (dict(y_score_b=["a", "b", "c"]), TypeError, "y_score_b"),
        (dict(y_score_a=[0.1, np.nan, 0.3]), ValueError, "y_score_a contains NaN"),
        (dict(y_true=[0, 1, 2]), ValueError, "binary"),
        (dict(confidence_level=1.0), ValueError, "confidence_level"),
    ],
)
def test_delong_bad_input_is_named(kwargs, exc, match):
    args = dict(y_true=[0, 1, 1], y_score_a=[0.1, 0.5, 0.3], y_score_b=[0.2, 0.4, 0.6])
    args.update(kwargs)
    conf = args.pop("confidence_level", 0.95)
    with pytest.raises(exc, match=match):
        delong_test(args["y_true"], args["y_score_a"], args["y_score_b"],
                    confidence_level=conf)


def _exact_mcnemar(a_only, b_only):
    n = a_only + b_only
    pmf = [math.comb(n, k) / 2**n for k in range(n + 1)]
    obs = pmf[a_only]
    return min(1.0, sum(q for q in pmf if q <= obs * (1 + 1e-7)))


@pytest.mark.parametrize("seed", range(8))
def test_mcnemar_matches_the_binomial_and_chi_square_by_hand(seed):
    rng = np.random.default_rng(seed)
    n = 40 + 10 * seed
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)
    b = np.where(rng.random(n) < 0.7, y, 1 - y)
    res = mcnemar_test(y, a, b)
    ra, rb = a == y, b == y
    a_only, b_only = int(np.sum(ra & ~rb)), int(np.sum(rb & ~ra))
    assert (res.a_only, res.b_only) == (a_only, b_only)
    assert res.p_value == pytest.approx(_exact_mcnemar(a_only, b_only), rel=1e-9)
    c = mcnemar_test(y, a, b, method="chi2")
    stat = max(abs(a_only - b_only) - 1, 0) ** 2 / (a_only + b_only)
    assert c.statistic == pytest.approx(stat)
    assert c.p_value == pytest.approx(chi2.sf(stat, 1))


def test_mcnemar_without_discordant_cases_and_bad_input():
    res = mcnemar_test([0, 1, 1], [0, 1, 0], [0, 1, 0])
    assert res == (0.0, 1.0, 0, 0)
    with pytest.raises(ValueError, match="method='x' is not supported"):
        mcnemar_test([0, 1], [0, 1], [0, 1], method="x")
    with pytest.raises(ValueError, match="y_pred_b"):
        mcnemar_test([0, 1, 1], [0, 1, 1], [0, 1, 2])
    with pytest.raises(ValueError, match="different numbers of samples"):
        mcnemar_test([0, 1, 1], [0, 1, 1], [0, 1])
    with pytest.raises(TypeError, match="y_pred_a is None"):
        mcnemar_test([0, 1, 1], None, [0, 1, 1])


def _numeric_delta_variance(func, cells, n, h=1e-6):
    """g' (diag(p) - p p') g / n with a central-difference gradient g."""
    p = np.asarray(cells, dtype=float)
    g = np.zeros(4)
    for k in range(4):
        e = np.zeros(4)
        e[k] = h
        g[k] = (func(p + e) - func(p - e)) / (2 * h)
    cov = (np.diag(p) - np.outer(p, p)) / n
    return float(g @ cov @ g)


def _kappa_cells(c):
    tp, fn, fp, tn = c / c.sum()
    pe = (tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)
    return (tp + tn - pe) / (1 - pe)


def _mcc_cells(c):
    tp, fn, fp, tn = c / c.sum()
    den = math.sqrt((tp + fn) * (fp + tn) * (tp + fp) * (fn + tn))
    return (tp * tn - fp * fn) / den


def _labels(counts):
    tp, fn, fp, tn = counts
    y = np.r_[np.ones(tp + fn, dtype=int), np.zeros(fp + tn, dtype=int)]
    d = np.r_[np.ones(tp, dtype=int), np.zeros(fn, dtype=int),
              np.ones(fp, dtype=int), np.zeros(tn, dtype=int)]
    return y, d


@pytest.mark.parametrize(
    "counts", [(15, 5, 10, 70), (3, 7, 2, 88), (40, 10, 30, 20), (5, 20, 25, 50),
               (1, 0, 4, 95), (9, 1, 0, 40)])
def test_kappa_and_mcc_variances_match_the_numerical_delta_method(counts):
    y, d = _labels(counts)
    n = len(y)
    cells = np.array(counts, dtype=float) / n
    k = kappa_confidence_interval(y, d, method="wald")
    assert k.estimate == pytest.approx(cohen_kappa_score(y, d))
    assert k.standard_error**2 == pytest.approx(
        _numeric_delta_variance(_kappa_cells, cells, n), rel=1e-5)
    m = mcc_confidence_interval(y, d)
    assert m.estimate == pytest.approx(matthews_corrcoef(y, d))
    assert m.standard_error**2 == pytest.approx(
        _numeric_delta_variance(_mcc_cells, cells, n), rel=1e-5)
    z = norm.ppf(0.975)
    assert k.low == pytest.approx(max(-1, k.estimate - z * k.standard_error))
    kz = kappa_confidence_interval(y, d, method="fisher-z")
    if abs(k.estimate) < 1:
        c, h = math.atanh(k.estimate), z * k.standard_error / (1 - k.estimate**2)
        assert (kz.low, kz.high) == pytest.approx((math.tanh(c - h), math.tanh(c + h)))
        assert kz.standard_error == k.standard_error
    zm = math.atanh(m.estimate)
    half = z * m.standard_error / (1 - m.estimate**2)
    assert (m.low, m.high) == pytest.approx(
        (math.tanh(zm - half), math.tanh(zm + half)))


def test_kappa_variance_at_kappa_zero_reduces_to_fleiss_null_form():
    # independent truth and decisions: FCE's non-null variance at kappa = 0 is their
    # null variance (p_e + p_e^2 - sum p_i. p_.i (p_i. + p_.i)) / (n (1 - p_e)^2)
    y, d = _labels((4, 16, 16, 64))  # rows 0.2/0.8, columns 0.2/0.8, product form
    k = kappa_confidence_interval(y, d)
    assert k.estimate == pytest.approx(0.0, abs=1e-12)
    r = np.array([0.2, 0.8])
    pe = float(r @ r)
    null = (pe + pe**2 - float(np.sum(r * r * (r + r)))) / (100 * (1 - pe) ** 2)
    assert k.standard_error**2 == pytest.approx(null)


def test_kappa_interval_defaults_to_fisher_z_the_books_recommendation():
    y, d = _labels((15, 5, 10, 70))
    default = kappa_confidence_interval(y, d)
    assert default == kappa_confidence_interval(y, d, method="fisher-z")
    assert default != kappa_confidence_interval(y, d, method="wald")


def test_perfect_agreement_gives_a_point_and_undefined_cases_warn():
    y, d = _labels((10, 0, 0, 90))
    k, m = kappa_confidence_interval(y, d), mcc_confidence_interval(y, d)
    assert (k.estimate, k.low, k.high, k.standard_error) == (1.0, 1.0, 1.0, 0.0)
    assert (m.estimate, m.low, m.high) == (1.0, 1.0, 1.0)
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(kappa_confidence_interval([0, 0, 0], [0, 0, 0]).estimate)
    with pytest.warns(UndefinedMetricWarning, match="margin"):
        assert math.isnan(mcc_confidence_interval([0, 1, 1], [1, 1, 1]).low)


@pytest.mark.parametrize("func", [kappa_confidence_interval, mcc_confidence_interval])
def test_interval_bad_input_is_named(func):
    with pytest.raises(ValueError, match="different numbers of samples"):
        func([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="y_pred"):
        func([0, 1, 1], [0, 1, 5])
    with pytest.raises(ValueError, match="confidence_level"):
        func([0, 1, 1], [0, 1, 1], confidence_level=0)
    with pytest.raises(TypeError, match="y_pred is None"):
        func([0, 1, 1], None)
    if func is kappa_confidence_interval:
        with pytest.raises(ValueError, match="method='exact' is not supported"):
            func([0, 1, 1], [0, 1, 1], method="exact")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = func(["a", "b", "b", "a", "a"] * 5, ["a", "b", "a", "a", "b"] * 5, pos_label="b")
    assert -1 <= res.low <= res.estimate <= res.high <= 1


@pytest.mark.parametrize("func", [kappa_confidence_interval, mcc_confidence_interval])
def test_a_cell_with_fewer_than_five_cases_warns(func):
    """Every cell at 5 or more: silent; one cell at 4: a warning naming the cells."""
    for counts in ((5, 5, 5, 85), (50, 5, 5, 5), (5, 40, 5, 50)):
        y, d = _labels(counts)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            func(y, d)
    for counts in ((4, 6, 10, 80), (20, 10, 4, 66), (3, 0, 5, 92)):
        y, d = _labels(counts)
        tp, fn, fp, tn = counts
        with pytest.warns(UserWarning, match=rf"fewer than 5 cases \(TP={tp}, FN={fn}, "
                                             rf"FP={fp}, TN={tn}\)"):
            func(y, d)


# -- a predicted label that y_true does not have is refused, by name ----------
@pytest.mark.parametrize("call, name", [
    (lambda t, p: kappa_confidence_interval(t, p, pos_label="a"), "y_pred"),
    (lambda t, p: mcc_confidence_interval(t, p, pos_label="a"), "y_pred"),
    (lambda t, p: mcnemar_test(t, p, ["a", "b", "b", "b"], pos_label="a"), "y_pred_a"),
    (lambda t, p: mcnemar_test(t, ["a", "b", "b", "b"], p, pos_label="a"), "y_pred_b"),
])
def test_predicted_label_missing_from_y_true_is_refused(call, name):
    truth, pred = ["a", "b", "a", "b"], ["a", "c", "c", "c"]
    with pytest.raises(ValueError, match=rf"{name} has the label 'c'.*y_true"):
        call(truth, pred)
    # numeric labels alike: -1 is neither 0 nor 1
    with pytest.raises(ValueError, match="y_pred has the label -1"):
        kappa_confidence_interval([0, 1, 0, 1], [1, -1, -1, 1])
    # two labels between them is fine, one of them absent from either side
    with pytest.warns(UserWarning, match="fewer than 5"):
        assert kappa_confidence_interval(["a", "a", "b"], ["a", "a", "a"],
                                         pos_label="a").estimate == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined MCC; cells below 5
        mcc_confidence_interval(["b", "b", "b"], ["a", "b", "b"], pos_label="a")
    assert mcnemar_test([True, False, True], [1, 0, 0], [1.0, 1.0, 1.0]).b_only == 1
