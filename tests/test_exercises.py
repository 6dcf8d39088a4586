"""Every self-check accepts an independently computed answer, rejects wrong
ones, and never prints the expected value."""

import functools
import glob
import itertools
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.stats import norm
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef, roc_auc_score

from auklib import auk_from_roc, kappa_from_rates
from aukbook.plotting import binormal_auk
from aukbook.checks import CHECKS, check, describe, tolerance
from oracles import labels_from_counts, mp_exact_auk

from answers import ch08_metrics_imbalance as ch08_answers  # noqa: E402
from answers import ch10_how_sure as ch10_answers  # noqa: E402
from auklib import auk_score  # noqa: E402
from auklib import friedman_aligned_ranks  # noqa: E402
from auklib.stats import _aligned_ranks  # noqa: E402


def sk_kappa(tp, fn, fp, tn):
    return cohen_kappa_score(*labels_from_counts(tp, fn, fp, tn))


def binormal_t(d, f):
    return norm.cdf(d + norm.ppf(f))


def binormal_t_sigma(d, sigma, f):
    return norm.cdf((d + norm.ppf(f)) / sigma)


def flagged_at(index_rule):
    f = np.linspace(0, 1, 400_001)
    t = binormal_t(2.0, f)
    i = index_rule(t, f)
    return 10_000 * (0.02 * t[i] + 0.98 * f[i])


# chapter 7 (ch07_rank_reversal): the chapter's fitted scores, measured another way
def ch7_quad_auk(f, t, p):
    """AUK by numerical quadrature of eq. (19) along each straight ROC segment."""
    from scipy.integrate import quad

    return sum(quad(lambda x: kappa_from_rates(tpr=t0 + (t1 - t0) * (x - f0) / (f1 - f0), fpr=x, prevalence=p),
                    f0, f1)[0] for f0, f1, t0, t1 in zip(f[:-1], f[1:], t[:-1], t[1:])
               if f1 > f0)


def ch7_roc(y, s, hull=False):
    """ROC vertices by brute force over thresholds; hull=True keeps the upper hull."""
    pos, neg = s[y == 1], s[y == 0]
    cuts = np.r_[np.inf, np.unique(s)[::-1]]
    f = np.array([(neg >= c).mean() for c in cuts])
    t = np.array([(pos >= c).mean() for c in cuts])
    if not hull:
        return f, t
    upper = []                                       # monotone chain, upper hull
    for pt in sorted(set(zip(f, t))):
        while len(upper) >= 2 and ((upper[-1][0] - upper[-2][0]) * (pt[1] - upper[-2][1])
                                   - (upper[-1][1] - upper[-2][1]) * (pt[0] - upper[-2][0])
                                   >= 0):
            upper.pop()                              # upper[-1] is not above the chord
        upper.append(pt)
    return np.array(upper).T


@functools.lru_cache(maxsize=None)
def ch7_split_count():
    from answers.ch07_rank_reversal import scores_for   # the chapter's models and splits

    count = 0
    for seed in range(50, 70):
        y, (lin, net) = scores_for(0.11, seed)
        auc = [np.mean((s[y == 1][:, None] > s[y == 0]) + 0.5 * (s[y == 1][:, None]
                                                                 == s[y == 0]))
               for s in (lin, net)]
        auk = [ch7_quad_auk(*ch7_roc(y, s), y.mean()) for s in (lin, net)]
        count += np.sign(auc[0] - auc[1]) != np.sign(auk[0] - auk[1])
    return int(count)


@functools.lru_cache(maxsize=None)
def ch7_hull_raise():
    from answers.ch07_rank_reversal import scores_for

    y, scores = scores_for(0.11, 0)
    return tuple(ch7_quad_auk(*ch7_roc(y, s, hull=True), y.mean())
                 - ch7_quad_auk(*ch7_roc(y, s), y.mean()) for s in scores)


def simulated_random_kappa_spread(size, reps=100_000, p=0.07, q=0.08):
    """sqrt(N) times the spread of kappa over test sets where predictions ignore truth."""
    rng = np.random.default_rng(12345)
    tp, fn, fp, tn = rng.multinomial(
        size, [p * q, p * (1 - q), (1 - p) * q, (1 - p) * (1 - q)], size=reps).T / size
    p_c = (tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)
    return float(np.std((tp + tn - p_c) / (1 - p_c)) * np.sqrt(size))

def binormal_auk_by_quadrature(d, p, sigma):
    """The population AUK by scipy quadrature of eq. (19) along the binormal curve."""
    from scipy.integrate import quad

    def kappa(f):
        t = norm.cdf((d + norm.ppf(f)) / sigma)
        return 2 * p * (1 - p) * (t - f) / (p + (1 - 2 * p) * (f + p * (t - f)))

    return quad(kappa, 0, 1, limit=400, epsabs=1e-12)[0]


def skewed_nb_by_hand():
    """Chapter 4: AUC by the trapezoid over roc_curve, AUK by mpmath quadrature."""
    from sklearn.metrics import roc_curve
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from aukbook.plotting import skewed_breast_cancer

    X, y = skewed_breast_cancer(positive_share=0.1, seed=0)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
    model = GaussianNB().fit(X_tr, y_tr)
    fpr, tpr, _ = roc_curve(y_te, model.predict_proba(X_te)[:, 1])
    auc = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
    return auc - 0.5, float(mp_exact_auk(fpr, tpr, y_te.mean()))


def deployed_lr_by_hand():
    """Chapter 4: the skewed logistic regression's ROC vertices from roc_curve, kappa
    at p = 0.01 integrated along them by mpmath quadrature."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_curve
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from aukbook.plotting import skewed_breast_cancer
    X, y = skewed_breast_cancer(positive_share=0.1, seed=0)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(X_tr, y_tr)
    fpr, tpr, _ = roc_curve(y_te, model.predict_proba(X_te)[:, 1])
    return float(mp_exact_auk(fpr, tpr, 0.01))


# independent routes to each correct answer
CORRECT = {
    "ch1-ex-counts": lambda: sk_kappa,
    "ch1-ex-fourth": lambda: (0.93, sk_kappa(6, 1, 6, 87)),
    "ch1-ex-random": lambda: simulated_random_kappa_spread(10_000),

    # ch. 2, ROC curves and the AUC
    "ch2-ex-binormal": lambda: float(np.mean(  # quadrature of eq. (9) after standardising
        binormal_t_sigma(1.2 / 1.5, 0.8 / 1.5, np.linspace(0, 1, 2_000_001)))),
    "ch2-ex-pairs": lambda: roc_auc_score([1, 1, 1, 1, 0, 0, 0, 0],
                                          [0.9, 0.7, 0.7, 0.4, 0.8, 0.7, 0.3, 0.3]),
    "ch2-ex-mix": lambda: (1 / 3, float(np.interp(0.2, [0.1, 0.4], [0.5, 0.8]))),
    "ch2-ex-flip": lambda: (1 - 0.3125, -(2 * 0.3125 - 1)),  # Gini changes sign
    "ch3-ex-corner": lambda: (lambda p: kappa_from_rates(tpr=0.0, fpr=1.0, prevalence=p)),
    "ch3-ex-target": lambda: brentq(lambda t: kappa_from_rates(tpr=t, fpr=0.02, prevalence=0.05) - 0.5, 0.02, 1),
    "ch3-ex-straight": lambda: 0.2,   # the vertex (0.2, 0.7) given in the exercise
    "ch4-ex-crisp": lambda: (
        0.5 * (0.1 * kappa_from_rates(tpr=0.6, fpr=0.1, prevalence=0.2) + 0.9 * kappa_from_rates(tpr=0.6, fpr=0.1, prevalence=0.2)),
        float(mp_exact_auk([0, 0.1, 1], [0, 0.6, 1], 0.2))),
    "ch4-ex-skew": lambda: skewed_nb_by_hand(),
    "ch4-ex-deploy": lambda: deployed_lr_by_hand(),
    "ch4-ex-shape": lambda: tuple(binormal_auk_by_quadrature(
        norm.ppf(0.85) * np.sqrt(1 + s**2), 0.02, s) for s in (0.6, 1.8)),
    "ch5-ex-pivot": lambda: (-0.2 / 0.6, -0.45 / 0.1, -0.7 / -0.4),
    "ch5-ex-solve": lambda: (lambda f: f[np.argmax(kappa_from_rates(tpr=binormal_t(1.0, f), fpr=f, prevalence=0.05))])(
        np.linspace(0, 1, 400_001)),
    "ch5-ex-deploy": lambda: (
        flagged_at(lambda t, f: np.argmax(kappa_from_rates(tpr=t, fpr=f, prevalence=0.02))),
        flagged_at(lambda t, f: np.argmax(t - f))),
    # chapter 6, ch06_multiclass
    # pair (1|3): the ranked table's MWW is the true positive rate t (3 of the 4
    # class-1 records predicted 1), and s = N_i (N_i + 1) / 2 + N_i N_j t
    "ch6-ex-table": lambda: (lambda t: (10 + 12 * t, 4, 3, t))(
        np.mean(np.array([1, 3, 1, 1]) == 1)),
    # example 2's six midrank MWWs, each pair's AUC of "predicted as i" by scikit-learn
    "ch6-ex-wrong": lambda: (lambda t, p: tuple(
        roc_auc_score(t[(t == i) | (t == j)] == i, p[(t == i) | (t == j)] == i)
        for i, j in [(1, 2), (2, 1), (1, 3), (3, 1), (2, 3), (3, 2)]))(
        np.array([1, 1, 1, 2, 2, 3, 3, 3]), np.array([2, 3, 2, 1, 3, 1, 2, 1])),
    "ch6-ex-weighted": lambda: tuple(   # the moved matrix, by hand, through scikit-learn
        cohen_kappa_score(*np.repeat(np.indices((4, 4)).reshape(2, -1), np.ravel(
            [[33, 13, 7, 2], [24, 13, 15, 4], [14, 14, 18, 9], [0, 7, 14, 34]]), axis=1),
            weights=w) for w in (None, "linear", "quadratic")),
    # chapter 7, ch07_rank_reversal
    "ch7-ex-split": ch7_split_count,
    "ch7-ex-hull": ch7_hull_raise,

    # chapter 8 (stats11): the library's exact enumeration and the closed-form
    # null variance; kappa maximised by brute force over sklearn's kappa
    "ch8-ex-friedman": lambda: friedman_aligned_ranks(
        [[0.186, 0.344, 0.311], [0.168, 0.333, 0.191]], method="permutation").p_value,
    "ch8-ex-null": lambda: (lambda r: 2 * ((r - r.mean(1, keepdims=True)) ** 2).sum() / (
        2**2 * (3 - 1)))(_aligned_ranks(np.array([[0.186, 0.344, 0.311],
                                                  [0.168, 0.333, 0.191]]))),
    "ch8-ex-threshold": lambda: (lambda y, s: max(
        cohen_kappa_score(y, (s >= c).astype(int)) for c in np.unique(s)))(
        *ch08_answers.raw_lr_test_scores()),
    # chapter 10 (stats11): BC levels from scipy's normal; pairing ratio from
    # the replicates' own spread (a paired bootstrap written out here)
    "ch9-ex-positives": lambda: (25 * 3**2, 25 * 3**2 * 100),   # (0.06/0.02)^2 = 9
    "ch9-ex-misses": lambda: sum(math.comb(40, k) * 0.05**k * 0.95**(40 - k)
                                  for k in range(5, 41)),
    "ch9-ex-swap": lambda: _ch9_swap_by_roc_auc(),
    "ch10-ex-bc": lambda: tuple(norm.cdf(2 * norm.ppf(0.6) + s * 1.959963984540054)
                               for s in (-1, 1)),
    "ch10-ex-paired": lambda: _ch10_pairing_ratio(),
    # chapter 11 (kappa among its peers): scikit-learn, the hmeasure package, brentq
    "ch11-ex-tables": lambda: (
        sk_kappa(12, 8, 30, 150),
        matthews_corrcoef(*labels_from_counts(12, 8, 30, 150))),
    "ch11-ex-hand": lambda: __import__("hmeasure").h_score(
        np.array([0, 0, 1, 0, 1, 1, 0, 0]),
        np.array([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.05]), severity_ratio=1.0),
    "ch11-ex-report": lambda: (lambda rho: (
        2 * 0.5325 - 1, 2 * 0.5335 - 1, rho, 2 * 0.533 - 0.067 - rho * 0.933))(
        brentq(lambda r: r * (2 * 0.533 - 0.067 - r * 0.933) + (1 - r) * 0.067 - 0.204,
               0.5, 1.0)),
    # chapter 12 (the AUK beyond one machine): data in the two extreme orders
    # within each bin, scored by auk_score; counting the ranges by hand
    "ch12-ex-bins": lambda: tuple(
        auk_score(np.repeat(lab, counts), np.repeat([5, 4, 3, 2, 1], counts))
        for lab, counts in (([0, 1, 0, 1, 0], [1, 4, 5, 2, 8]),
                            ([1, 0, 1, 0, 0], [4, 1, 2, 5, 8]))),
    "ch12-ex-start": lambda: ((6 + 58) / (6 + 58 + 131), (37 + 21) / (37 + 21 + 9)),
    # chapter 14 (calibration and costs): each by another route
    "ch14-ex-brier": lambda: ch14_rain_by_total_variance(),
    "ch14-ex-weights": lambda: ch14_weights_by_minimising(),
    "ch14-ex-rate": lambda: tuple(ch14_rate_uniform_binormal(auc) for auc in (0.8, 0.9)),
    # chapter 13 (comparing classifiers): DeLong's sums written out as loops; the
    # kappa variance by the delta method with a numerical gradient; the binomial
    # summed with math.comb; the normal tail by math.erfc; Demsar's printed q = 2.569
    "ch13-ex-placements": lambda: _ch13_delong_loops(),
    "ch13-ex-kappa": lambda: _ch13_kappa_delta(),
    "ch13-ex-mcnemar": lambda: 2 * sum(__import__("math").comb(14, k)
                                       for k in range(4)) / 2**14,
    "ch13-ex-folds": lambda: __import__("math").erfc(
        __import__("scipy.stats").stats.t.ppf(0.975, 99)
        / (10.9 / 0.9) ** 0.5 / 2 ** 0.5),
    "ch13-ex-cd": lambda: 2.569 * (4 * 5 / (6 * 20)) ** 0.5,
}
# each independent answer is computed once per test process (some refit models)
CORRECT = {label: functools.cache(make) for label, make in CORRECT.items()}


def ch14_rain_by_total_variance():
    """UNC from the overall share, RES as UNC minus the mean within-day-group
    outcome variance, REL as what is left of sklearn's Brier score."""
    from sklearn.metrics import brier_score_loss

    y = np.concatenate([np.r_[np.ones(r), np.zeros(n - r)]
                        for n, r in ((60, 5), (30, 18), (10, 8))])
    q = np.repeat([0.1, 0.5, 0.9], [60, 30, 10])
    unc = y.var()
    within = np.mean([y[q == v].var() for v in q])     # case-weighted mean
    res = unc - within
    rel = brier_score_loss(y, q) - unc + res
    return rel, res, unc


def ch14_weights_by_minimising():
    """The weighted model's output is the minimiser of the expected weighted
    log loss; invert it numerically."""
    from scipy.optimize import minimize_scalar

    def output(p):
        return minimize_scalar(lambda q: -5 * p * np.log(q) - (1 - p) * np.log(1 - q),
                               bounds=(1e-12, 1 - 1e-12), method="bounded",
                               options={"xatol": 1e-12}).x

    return brentq(lambda p: output(p) - 0.4, 1e-6, 1 - 1e-6, xtol=1e-12), output(0.5)


def ch14_rate_uniform_binormal(auc, pi1=0.07):
    """Rate-uniform loss integrated numerically along a binormal ROC curve
    with the given AUC: r = pi0 f + pi1 t runs from 0 to 1."""
    d = np.sqrt(2) * norm.ppf(auc)
    z = np.linspace(12, -12, 400_001)
    f, t = norm.sf(z), norm.sf(z - d)          # threshold z from high to low
    f, t = np.r_[0, f, 1], np.r_[0, t, 1]
    pi0 = 1 - pi1
    r = pi0 * f + pi1 * t
    g = pi0 * f + pi1 * (1 - t)
    return float(np.sum(np.diff(r) * (g[1:] + g[:-1]) / 2))


def _ch13_delong_loops():
    pos = [(0.9, 0.8), (0.8, 0.9), (0.6, 0.3), (0.4, 0.5)]
    neg = [(0.7, 0.6), (0.5, 0.5), (0.3, 0.4), (0.2, 0.2), (0.1, 0.1)]

    def psi(x, z):
        return 1.0 if x > z else 0.5 if x == z else 0.0

    d10 = [sum(psi(p[0], q[0]) - psi(p[1], q[1]) for q in neg) / 5 for p in pos]
    d01 = [sum(psi(p[0], q[0]) - psi(p[1], q[1]) for p in pos) / 4 for q in neg]
    diff = sum(d10) / 4
    var = (sum((v - diff) ** 2 for v in d10) / 3 / 4
           + sum((v - diff) ** 2 for v in d01) / 4 / 5)
    return diff / var**0.5


def _ch13_kappa_delta(h=1e-6):
    p = np.array([30, 10, 20, 140]) / 200

    def kappa(c):
        c = c / c.sum()
        pe = (c[0] + c[1]) * (c[0] + c[2]) + (c[2] + c[3]) * (c[1] + c[3])
        return (c[0] + c[3] - pe) / (1 - pe)

    g = np.array([(kappa(p + h * e) - kappa(p - h * e)) / (2 * h) for e in np.eye(4)])
    return float(np.sqrt(g @ (np.diag(p) - np.outer(p, p)) @ g / 200))


def _ch10_pairing_ratio(n=2000):
    y, a, b = ch10_answers.pairing_example()
    rng = np.random.default_rng(0)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    da, db = np.empty(n), np.empty(n)
    for i in range(n):
        idx = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        da[i] = auk_score(y[idx], a[idx], method="exact")
        db[i] = auk_score(y[idx], b[idx], method="exact")
    return float(np.hypot(da.std(), db.std()) / (da - db).std())


def _ch9_swap_by_roc_auc():
    """The exact swap test of the six cases, one arrangement at a time with
    scikit-learn's AUC (the reference enumerates with numpy pair counts)."""
    y = np.array([1, 1, 1, 0, 0, 0])
    a = np.array([0.9, 0.7, 0.6, 0.3, 0.5, 0.2])
    b = np.array([0.8, 0.5, 0.4, 0.6, 0.45, 0.35])
    observed = roc_auc_score(y, a) - roc_auc_score(y, b)
    extreme = 0
    for swap in itertools.product([False, True], repeat=6):
        s = np.array(swap)
        diff = roc_auc_score(y, np.where(s, b, a)) - roc_auc_score(y, np.where(s, a, b))
        extreme += abs(diff) >= abs(observed) - 1e-12
    return observed, extreme / 64


def test_every_check_is_tested():
    assert set(CORRECT) == set(CHECKS)


def test_hashed_checks_match_the_reference_answers():
    """bookkit/aukbook/checks/*.json are what course/make_checks.py writes today."""
    root = os.path.dirname(os.path.dirname(__file__))
    run = subprocess.run([sys.executable, os.path.join(root, "course", "make_checks.py"),
                          "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_installed_package_holds_no_reference_answer():
    """Neither the check files nor the package source contain an answer's digits."""
    import aukbook

    folder = os.path.dirname(aukbook.__file__)
    text = ""
    for base, _, files in os.walk(folder):
        for name in files:
            if name.endswith((".py", ".json")):
                text += open(os.path.join(base, name), encoding="utf-8").read()
    for label, make in CORRECT.items():
        good = make()
        if callable(good):
            continue
        for value in np.atleast_1d(np.asarray(good, dtype=float)):
            if abs(value) < 10 and round(value, 2) != value:
                assert f"{value:.4f}" not in text, f"{label} leaks {value:.4f}"


@pytest.mark.parametrize("label", sorted(CHECKS))
def test_tolerance_is_stated_and_honoured(label):
    """describe() states atol; an answer atol/2 away passes, 3 atol away fails."""
    atol = tolerance(label)
    assert f"{atol:g}" in describe(label)
    good = CORRECT[label]()
    if callable(good):
        near = lambda *a: good(*a) + 0.5 * atol  # noqa: E731
        far = lambda *a: good(*a) + 3 * atol  # noqa: E731
    else:
        arr = np.atleast_1d(np.asarray(good, dtype=float))
        near, far = tuple(arr + 0.5 * atol), tuple(arr - 3 * atol)
    assert check(label, near).passed
    assert not check(label, far).passed


@pytest.mark.parametrize("label", sorted(CHECKS))
def test_correct_answer_passes(label):
    result = check(label, CORRECT[label]())
    assert result.passed and bool(result)
    assert "correct" in repr(result)


def perturbed(answer):
    if callable(answer):
        return lambda *args: answer(*args) + 0.05
    arr = np.atleast_1d(np.asarray(answer, dtype=float))
    arr = arr.copy()
    arr[-1] = arr[-1] * 1.1 + 0.05
    return tuple(arr) if arr.size > 1 else float(arr[0])


@pytest.mark.parametrize("label", sorted(CHECKS))
def test_wrong_answer_fails_without_revealing(label):
    good = CORRECT[label]()
    result = check(label, perturbed(good))
    assert not result.passed
    assert "Hint:" in result.message
    if not callable(good):
        for value in np.atleast_1d(np.asarray(good, dtype=float)):
            for digits in (2, 3, 4):
                text = f"{value:.{digits}f}"
                if text not in ("0.00", "1.00", "0.000", "1.000", "0.0000", "1.0000"):
                    assert text not in result.message, f"{label} leaks {text}"


def test_wrong_shape_and_type_are_explained():
    r = check("ch1-ex-fourth", 0.5)
    assert not r and "2 numbers" in r.message
    r = check("ch3-ex-target", "0.5x")
    assert not r and "expected" in r.message
    r = check("ch1-ex-counts", 3.0)
    assert not r and "expected a function" in r.message


def test_a_failing_function_is_reported():
    def broken(tp, fn, fp, tn):
        raise ZeroDivisionError("oops")

    r = check("ch1-ex-counts", broken)
    assert not r and "ZeroDivisionError" in r.message


def test_unknown_label():
    with pytest.raises(ValueError, match="No self-check"):
        check("ch10-ex-nothing", 1)
    assert "pass" in describe("ch5-ex-solve")


def test_every_check_names_an_exercise_in_the_book():
    root = os.path.dirname(os.path.dirname(__file__))
    text = "".join(open(p).read() for p in glob.glob(os.path.join(root, "chapters", "*.ipynb")))
    labels = set(re.findall(r":label: (ch\d+u?-ex-[a-z-]+)", text))
    assert set(CHECKS) <= labels


# --- a self-check cannot be searched for a graded answer ----------------------------
# Every graded exercise with a number for an answer has per-student variants, and
# its self-check knows only the book's numbers: the hashes hold the grid cells of
# the book's answer.  A search of the self-check therefore recovers the book's
# answer, and no design entry lies within aukbook.variants' exclusion zone of it.
# The two exercises that ask for a formula are graded at random points the
# self-check never saw.

def _search_ids():
    from test_variants import KEYS, ROSTERS

    out = [(sid, KEYS[name]) for name, ids in ROSTERS.items() for sid in ids]
    return out + [(f"s{i:03d}", None) for i in range(1, 201)]   # roster-free too


def _grading_judge():
    """course/grading/judge.py, which marks the answers in the grader's process."""
    folder = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "course", "grading")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import judge
    return judge


@pytest.mark.parametrize("label", sorted(CHECKS))
def test_self_check_search_recovers_no_graded_answer(label):
    """Search the self-check over the cells around every graded answer of 600
    students (two rosters of 200 with their course keys, 200 ids without one):
    it accepts no number within the tolerance of any of them."""
    from aukbook.checks import _cell, _digest
    from aukbook.variants import FIXED, VARIANT_LABELS, design_index

    spec = CHECKS[label]
    atol = float(spec["atol"])
    if spec["kind"] == "function":
        assert label in FIXED
        from answers.grading import answer
        judge = _grading_judge()
        # the best a search can do: the reference's exact outputs at every probe the
        # self-check hashes, and anything elsewhere
        table = {tuple(args): answer(label).reference(*args) for args in spec["probes"]}
        lookup = lambda *args: table.get(tuple(float(a) for a in args), 0.5)  # noqa: E731
        assert check(label, lookup)              # it passes the self-check ...
        outputs = [lookup(*args) for args in judge.probes(label)]
        verdict = judge.judge(label, {"label": label, "callable": True,
                                      "outputs": outputs}, "s001")
        assert not verdict.value                 # ... and fails the grader
        return
    assert label in VARIANT_LABELS, f"{label} is graded on the book's numbers"
    from test_variants import book_answer, entry_answer

    book = book_answer(label)
    book_cells = [_cell(v, atol) for v in book]
    # the self-check's hashes are the book's cells: what any search recovers
    assert [_digest(label, i, c) for i, c in enumerate(book_cells)] == spec["digests"]
    windows = {}
    for sid, key in _search_ids():
        index = design_index(label, sid, key)
        got = entry_answer(label, index)
        # the number furthest (in cells) from the book's answer
        i = int(np.argmax(np.abs(np.floor(got / atol) - book_cells)))
        window = range(_cell(got[i] - atol, atol) - 1, _cell(got[i] + atol, atol) + 2)
        # a value v within atol of got[i] has its cell in the window's middle, and
        # the self-check accepts v only if a cell next to v's hashes to the digest
        assert min(abs(c - book_cells[i]) for c in window) >= 2, (label, sid)
        windows[index] = [(i, c) for c in window]
    # and the search itself, hash by hash (5 ms a hash), over the windows of 12
    # students' answers spread over the design
    sample = sorted(windows)[:: max(1, len(windows) // 12)]
    cells = {cell for index in sample for cell in windows[index]}
    assert [cell for cell in sorted(cells)
            if _digest(label, cell[0], cell[1]) == spec["digests"][cell[0]]] == []
