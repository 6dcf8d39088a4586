"""Bootstrap intervals and paired comparisons for the AUK (auklib.uncertainty).

The statistical tests simulate binormal data (negatives N(0, 1), positives
N(d, 1)) whose population AUK is known, and check coverage and error rates
against their nominal values with a Monte-Carlo allowance of three standard
errors.  They are small and seeded; a failure means the procedure (or the
random stream) changed, not bad luck with a fixed seed.
"""

import math
import warnings

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.stats import norm

from aukbook.plotting import binormal_auk
from auklib import (
    UndefinedMetricWarning,
    auc_confidence_interval,
    auk_compare,
    auk_confidence_interval,
    auk_score,
)
from auklib.uncertainty import _prepare


def _binormal(rng, n_pos, n_neg, d):
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    s = np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]
    return y, s


def _kappa_19(f, t, p):
    """Eq. (19): kappa of the ROC point (f, t) at class share p."""
    return 2 * p * (1 - p) * (t - f) / (p + (1 - 2 * p) * (p * t + (1 - p) * f))


@pytest.mark.parametrize("d, p", [(1.5, 0.1), (1.0, 0.02), (2.0, 0.5)])
def test_population_auk_by_quadrature_of_eq_19(d, p):
    roc = lambda f: norm.sf(norm.isf(f) - d)  # noqa: E731
    value, _ = quad(lambda f: _kappa_19(f, roc(f), p), 0, 1, limit=200)
    assert binormal_auk(d, p) == pytest.approx(value, abs=1e-7)


# --------------------------------------------------------------------------
# The replicates are exact AUKs of resampled test sets


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_replicate_is_the_exact_auk_of_the_resampled_cases(ties, weighted):
    rng = np.random.default_rng(3)
    y, s = _binormal(rng, 30, 170, 1.0)
    if ties:
        s = np.round(s, 1)
    w = rng.uniform(0.5, 2.0, y.shape[0]) if weighted else None
    curves, w_pos, w_neg = _prepare(y, {"s": s}, None, w, "test")
    sp, sn = s[y == 1], s[y == 0]
    for _ in range(4):
        dp = rng.integers(0, sp.shape[0], sp.shape[0])
        dn = rng.integers(0, sn.shape[0], sn.shape[0])
        pw = None if w is None else w[y == 1][dp]
        nw = None if w is None else w[y == 0][dn]
        p = 30 / 200 if w is None else pw.sum() / (pw.sum() + nw.sum())
        got = curves[0].auk(dp[None], dn[None], None if pw is None else pw[None],
                            None if nw is None else nw[None], [p])[0]
        ww = None if w is None else np.r_[pw, nw]
        ref = auk_score(np.r_[np.ones(30), np.zeros(170)], np.r_[sp[dp], sn[dn]],
                        sample_weight=ww, method="exact")
        assert got == pytest.approx(ref, abs=1e-12)


def test_estimate_is_the_exact_auk_and_results_are_reproducible():
    rng = np.random.default_rng(0)
    y, s = _binormal(rng, 40, 360, 1.2)
    s = np.round(s, 1)                                  # ties too
    ci = auk_confidence_interval(y, s, n_resamples=300, method="bootstrap", random_state=1)
    assert ci.estimate == pytest.approx(auk_score(y, s, method="exact"), abs=1e-12)
    assert ci.low < ci.estimate < ci.high and ci.standard_error > 0
    again = auk_confidence_interval(y, s, n_resamples=300,
                                    method="bootstrap", random_state=np.random.default_rng(1))
    assert again == ci
    other = auk_confidence_interval(y, s, n_resamples=300, method="bootstrap", random_state=2)
    assert other != ci


def test_class_counts_are_fixed():
    # Perfect separation: every stratified replicate is perfect too, with the
    # test set's class share, so its AUK is the same number.  Resampling the
    # cases without strata would change the share and hence the AUK.
    y = np.r_[np.ones(20), np.zeros(180)]
    s = np.r_[np.linspace(2, 3, 20), np.linspace(0, 1, 180)]
    with pytest.warns(UserWarning, match="Every bootstrap replicate"):
        ci = auk_confidence_interval(y, s, n_resamples=200, method="bootstrap",
                                     random_state=0)
    assert ci.low == pytest.approx(ci.estimate, abs=1e-12)
    assert ci.high == pytest.approx(ci.estimate, abs=1e-12)
    assert ci.standard_error == pytest.approx(0, abs=1e-12)


def test_pos_label_and_weights():
    rng = np.random.default_rng(5)
    y, s = _binormal(rng, 30, 120, 1.0)
    labels = np.where(y == 1, "bad", "good")
    a = auk_confidence_interval(y, s, n_resamples=200, method="bootstrap", random_state=0)
    b = auk_confidence_interval(labels, s, n_resamples=200, method="bootstrap", random_state=0,
                                pos_label="bad")
    assert a == b
    w = np.ones_like(s)
    c = auk_confidence_interval(y, s, n_resamples=200, method="bootstrap", random_state=0, sample_weight=w)
    assert c.estimate == pytest.approx(a.estimate, abs=1e-12)
    assert c.low == pytest.approx(a.low, abs=1e-12)
    w = rng.uniform(0.5, 2, s.shape[0])
    c = auk_confidence_interval(y, s, n_resamples=200, method="bootstrap", random_state=0, sample_weight=w)
    assert c.estimate == pytest.approx(auk_score(y, s, sample_weight=w, method="exact"))


def test_compare_is_paired_and_antisymmetric():
    rng = np.random.default_rng(7)
    y, s = _binormal(rng, 50, 450, 1.5)
    a = s + rng.normal(0, 0.3, s.shape[0])
    b = s + rng.normal(0, 0.3, s.shape[0])
    ab = auk_compare(y, a, b, n_resamples=500, method="bootstrap", random_state=0)
    ba = auk_compare(y, b, a, n_resamples=500, method="bootstrap", random_state=0)
    assert ab.difference == pytest.approx(
        auk_score(y, a, method="exact") - auk_score(y, b, method="exact"))
    assert ba.difference == pytest.approx(-ab.difference)
    assert ba.low == pytest.approx(-ab.high) and ba.high == pytest.approx(-ab.low)
    assert ab.p_value == pytest.approx(ba.p_value)
    # Paired: the interval of a difference between two strongly correlated
    # classifiers is much narrower than either classifier's own interval.
    ca = auk_confidence_interval(y, a, n_resamples=500, method="bootstrap", random_state=0)
    assert ab.high - ab.low < 0.6 * (ca.high - ca.low)
    # A classifier against itself: difference 0 in every replicate.
    same = auk_compare(y, a, a, n_resamples=100, method="bootstrap", random_state=0)
    assert same.difference == 0 and same.low == 0 and same.high == 0
    assert same.p_value == 1


# --------------------------------------------------------------------------
# Coverage, size and power by simulation


@pytest.mark.parametrize("method", ["score", "bootstrap"])
@pytest.mark.parametrize("p, n_cases", [(0.01, 3000), (0.05, 600), (0.2, 150), (0.5, 100)])
def test_interval_covers_the_population_auk(p, n_cases, method):
    """The bootstrap within 3 MC SE of 95%; the score interval not below it
    (it errs on the safe side, up to 0.99 at p = 0.01 in chapter 10's table)."""
    reps, d = 250, 1.5
    n_pos = int(round(p * n_cases))
    truth = binormal_auk(d, n_pos / n_cases)
    rng = np.random.default_rng(int(1000 * p) + n_cases)
    hits = 0
    for r in range(reps):
        y, s = _binormal(rng, n_pos, n_cases - n_pos, d)
        ci = auk_confidence_interval(y, s, n_resamples=300, random_state=r,
                                     method=method)
        hits += ci.low <= truth <= ci.high
    se = math.sqrt(0.95 * 0.05 / reps)
    assert 0.95 - 3 * se <= hits / reps
    if method == "bootstrap":
        assert hits / reps <= 0.95 + 3 * se


def test_paired_test_holds_its_size_and_has_power():
    # Two views of one latent score: a = latent + e1, b = latent + e2.  Under
    # the null the noise levels are equal (equal population AUKs); for power,
    # b is noisier.
    reps, n_pos, n_neg = 200, 50, 450
    rng = np.random.default_rng(11)
    null_rejections = power_rejections = 0
    for r in range(reps):
        y, latent = _binormal(rng, n_pos, n_neg, 1.5)
        a = latent + rng.normal(0, 0.5, latent.shape[0])
        b = latent + rng.normal(0, 0.5, latent.shape[0])
        worse = latent + rng.normal(0, 1.5, latent.shape[0])
        null_rejections += auk_compare(y, a, b, n_resamples=300,
                                       random_state=r).p_value < 0.05
        power_rejections += auk_compare(y, a, worse, n_resamples=300,
                                        random_state=r).p_value < 0.05
    se = math.sqrt(0.05 * 0.95 / reps)
    assert null_rejections / reps <= 0.05 + 3 * se
    assert power_rejections / reps >= 0.8


def test_p_value_agrees_with_the_interval():
    rng = np.random.default_rng(12)
    for r in range(20):
        y, latent = _binormal(rng, 30, 270, 1.5)
        a = latent + rng.normal(0, 0.5, 300)
        b = latent + rng.normal(0, 0.5 + 0.05 * r, 300)
        res = auk_compare(y, a, b, n_resamples=400, method="bootstrap", random_state=r)
        assert (res.p_value < 0.05) == (not res.low <= 0 <= res.high)


# --------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize("kwargs, match", [
    ({"confidence_level": 0}, "confidence_level must be a number strictly between 0 and 1"),
    ({"confidence_level": 1.0}, "confidence_level"),
    ({"confidence_level": 95}, "confidence_level"),
    ({"confidence_level": float("nan")}, "confidence_level"),
    ({"confidence_level": "0.95"}, "confidence_level"),
    ({"n_resamples": 0}, "n_resamples must be a positive integer"),
    ({"n_resamples": 10.0}, "n_resamples must be a positive integer"),
    ({"n_resamples": True}, "n_resamples"),
    ({"n_resamples": -5}, "n_resamples"),
])
def test_bad_options(kwargs, match):
    y, s = [0, 1] * 20, np.arange(40.0)
    with pytest.raises(ValueError, match=match):
        auk_confidence_interval(y, s, **kwargs)
    with pytest.raises(ValueError, match=match):
        auk_compare(y, s, s, **kwargs)


def test_bad_arrays():
    y, s = [0, 1] * 20, np.arange(40.0)
    with pytest.raises(ValueError, match="different numbers of samples"):
        auk_confidence_interval(y, s[:-1])
    with pytest.raises(ValueError, match="y_score_a has 40, y_score_b has 39"):
        auk_compare(y, s, s[:-1])
    with pytest.raises(ValueError, match="different numbers of samples"):
        auk_compare(y[:-1], s, s)
    with pytest.raises(ValueError, match="y_score_b contains NaN"):
        auk_compare(y, s, np.r_[s[:-1], np.nan])
    with pytest.raises(TypeError, match="y_score"):
        auk_confidence_interval(y, ["a"] * 40)
    with pytest.raises(ValueError, match="binary"):
        auk_confidence_interval([0, 1, 2] * 10, np.arange(30.0))


def test_one_class_gives_nan_with_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        ci = auk_confidence_interval([0] * 20, np.arange(20.0))
    assert all(math.isnan(v) for v in ci)
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        res = auk_compare([1] * 20, np.arange(20.0), np.arange(20.0))
    assert all(math.isnan(v) for v in res)


@pytest.mark.parametrize("method", ["score", "analytic", "bootstrap", "bca"])
def test_too_few_cases_of_a_class_warns(method):
    y = np.r_[np.ones(4), np.zeros(200)]
    s = np.random.default_rng(0).permutation(204).astype(float)
    with pytest.warns(UserWarning, match="Only 4 positive cases"):
        auk_confidence_interval(y, s, n_resamples=50, method=method, random_state=0)
    compare = "bootstrap" if method == "bootstrap" else "analytic"
    with pytest.warns(UserWarning, match="Only 3 negative cases"):
        auk_compare(np.r_[np.ones(50), np.zeros(3)], np.arange(53.0), np.arange(53.0),
                    n_resamples=50, method=compare, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        auk_confidence_interval(np.r_[np.ones(10), np.zeros(10)], s[:20], method=method,
                                n_resamples=50, random_state=0)


# --------------------------------------------------------------------------
# DeLong's interval for the AUC (for comparison)


def test_delong_matches_its_definition_and_sklearn():
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(21)
    y = (rng.random(300) < 0.2).astype(int)
    s = np.round(rng.normal(size=300) + y, 1)           # many ties
    res = auc_confidence_interval(y, s)
    assert res.estimate == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    pos, neg = s[y == 1], s[y == 0]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    var = psi.mean(1).var(ddof=1) / pos.size + psi.mean(0).var(ddof=1) / neg.size
    assert res.standard_error == pytest.approx(math.sqrt(var), rel=1e-12)
    assert 0 < res.low < res.estimate < res.high < 1
    perfect = auc_confidence_interval(
        [0, 0, 1, 1] * 5, [1, 2, 3, 4] * 5, method="delong-logit"
    )
    assert perfect == (1.0, 1.0, 1.0, 0.0)


@pytest.mark.parametrize("method", ["score", "delong-logit"])
@pytest.mark.parametrize("n_pos, n_neg", [(50, 450), (300, 300)])
def test_delong_interval_covers(n_pos, n_neg, method):
    reps, d = 400, 1.5
    truth = norm.cdf(d / math.sqrt(2))
    rng = np.random.default_rng(n_pos)
    hits = 0
    for _ in range(reps):
        y, s = _binormal(rng, n_pos, n_neg, d)
        res = auc_confidence_interval(y, s, method=method)
        hits += res.low <= truth <= res.high
    se = math.sqrt(0.95 * 0.05 / reps)
    assert 0.95 - 3 * se <= hits / reps <= 0.95 + 3 * se


def test_delong_bad_input():
    with pytest.raises(ValueError, match="confidence_level"):
        auc_confidence_interval([0, 1] * 10, np.arange(20.0), confidence_level=1.5)
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        assert math.isnan(auc_confidence_interval([1] * 5, np.arange(5.0)).estimate)
    with pytest.warns(UserWarning, match="Only 3 positive cases"):
        auc_confidence_interval([1] * 3 + [0] * 30, np.arange(33.0))
    with pytest.raises(ValueError, match="method must be one of"):
        auc_confidence_interval([0, 1] * 10, np.arange(20.0), method="wald")
    with pytest.raises(ValueError, match="method must be one of"):
        auc_confidence_interval([0, 1] * 10, np.arange(20.0), method=None)


# --------------------------------------------------------------------------
# The score-type AUC intervals (Newcombe 2006)

# Independent values: SingleCaseES (R), NAP of A = phase 1 and B = phase 2,
# "Newcombe" interval (Newcombe's Method 5), as its own tests print them.
_NAP_A = [20, 20, 26, 25, 22, 23]
_NAP_B = [28, 25, 24, 27, 30, 30, 29]


@pytest.mark.parametrize(
    "level, low, high",
    [(0.95, 0.5973193600384168, 0.9859976893703788),
     (0.90, 0.6591091902344411, 0.9822247870934007)],
)
def test_newcombe_matches_an_independent_implementation(level, low, high):
    y = [0] * len(_NAP_A) + [1] * len(_NAP_B)
    with pytest.warns(UserWarning, match="Only 6 negative cases"):
        res = auc_confidence_interval(
            y, _NAP_A + _NAP_B, method="newcombe", confidence_level=level
        )
    assert res.estimate == pytest.approx(11 / 12, abs=1e-12)
    assert res.low == pytest.approx(low, abs=1e-9)
    assert res.high == pytest.approx(high, abs=1e-9)


def _quartic_limits(theta, m, n, z, scale):
    """Oracle: the limits as real roots of the boundary polynomial."""
    P = np.polynomial.Polynomial
    t = P([0, 1])
    h = (m + n) / 2 - 1
    q = t * (1 - t)
    f = m * n * (theta - t) ** 2 * (2 - t) * (1 + t) - z * z * scale * q * (
        2 + h + (1 + 2 * h) * q
    )
    r = f.roots()
    r = np.sort(r.real[np.abs(r.imag) < 1e-7])
    lows = r[(r >= -1e-12) & (r <= theta + 1e-12)]
    highs = r[(r >= theta - 1e-12) & (r <= 1 + 1e-12)]
    return (lows.min() if theta > 0 else 0.0), (highs.max() if theta < 1 else 1.0)


def test_score_limits_are_the_roots_of_the_boundary_quartic():
    rng = np.random.default_rng(5)
    for _ in range(60):
        m, n = rng.integers(10, 200, size=2)
        y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
        s = np.r_[rng.normal(rng.uniform(0, 4), 1, m), rng.normal(0, 1, n)]
        level = rng.uniform(0.5, 0.999)
        z = norm.ppf(0.5 + level / 2)
        for method in ("score", "newcombe"):
            res = auc_confidence_interval(y, s, method=method, confidence_level=level)
            th = res.estimate
            hq = (m + n) / 2 - 1
            v_n = th * (1 - th) * (2 + hq + (1 + 2 * hq) * th * (1 - th)) / (
                m * n * (2 - th) * (1 + th)
            )
            scale = 1.0
            if method == "score" and res.standard_error > 0 and v_n > 0:
                scale = max(1.0, res.standard_error**2 / v_n)
            low, high = _quartic_limits(th, m, n, z, scale)
            assert res.low == pytest.approx(low, abs=1e-9)
            assert res.high == pytest.approx(high, abs=1e-9)


@pytest.mark.parametrize("method", ["score", "newcombe", "delong-logit"])
def test_auc_limits_lie_in_0_1_and_contain_the_estimate(method):
    rng = np.random.default_rng(6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for _ in range(300):
            m, n = rng.integers(1, 60, size=2)
            y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
            s = np.r_[rng.normal(rng.uniform(-2, 6), 1, m), rng.normal(0, 1, n)]
            if rng.random() < 0.3:
                s = np.round(s)  # ties
            res = auc_confidence_interval(
                y, s, method=method, confidence_level=rng.uniform(0.5, 0.999)
            )
            assert 0 <= res.low <= res.estimate <= res.high <= 1
            if method != "delong-logit":
                assert res.high - res.low > 0


@pytest.mark.parametrize("n_pos, n_neg", [(1, 1), (3, 40), (20, 20), (500, 20)])
def test_score_interval_at_a_perfect_sample_is_wide_and_one_sided(n_pos, n_neg):
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    s = np.r_[np.arange(n_pos) + n_neg, np.arange(n_neg)].astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        top = auc_confidence_interval(y, s)
        bottom = auc_confidence_interval(y, -s)
    assert top.estimate == 1 and top.high == 1 and 0 < top.low < 1
    assert bottom.estimate == 0 and bottom.low == 0
    assert bottom.high == pytest.approx(1 - top.low, abs=1e-12)  # symmetric
    assert top.standard_error == 0


def test_score_interval_contains_newcombes():
    # the scale factor is at least 1, so the default is never shorter
    rng = np.random.default_rng(8)
    for _ in range(100):
        m, n = rng.integers(10, 100, size=2)
        y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
        s = np.r_[rng.normal(rng.uniform(0, 4), rng.uniform(0.3, 3), m),
                  rng.normal(0, 1, n)]
        a = auc_confidence_interval(y, s)
        b = auc_confidence_interval(y, s, method="newcombe")
        assert a.low <= b.low + 1e-12 and b.high <= a.high + 1e-12


def _stored(path, **key):
    import json
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "chapters", "data", path)) as fh:
        data = json.load(fh)
    return [r for r in data["rows"] if all(r[k] == v for k, v in key.items())]


@pytest.mark.parametrize("method", ["score", "delong-logit"])
def test_stored_auc_coverage_agrees_with_a_fresh_slice(method):
    """Re-run one cell of tools/sim_intervals.py with the public function."""
    n_pos, n_neg, auc, reps = 20, 180, 0.97, 600
    (row,) = _stored("sim_auc.json", model="binormal", positives=n_pos,
                     negatives=n_neg, auc=auc, method=method)
    rng = np.random.default_rng(2024)
    d = math.sqrt(2) * norm.ppf(auc)
    hits = 0
    for _ in range(reps):
        y, s = _binormal(rng, n_pos, n_neg, d)
        res = auc_confidence_interval(y, s, method=method)
        hits += res.low <= auc <= res.high
    stored = row["covered"] / row["reps"]
    se = math.sqrt(stored * (1 - stored) * (1 / reps + 1 / row["reps"]))
    assert abs(hits / reps - stored) <= 4 * se


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
                                  n_resamples=n_resamples, method="bootstrap", random_state=checked)
                out = res.low > 0 or res.high < 0
                floor = 1 / (n_resamples + 1)  # the P-value's resolution
                if 1 - level > floor:
                    assert (res.p_value < 1 - level) == out, (n_resamples, level, res)
                assert floor <= res.p_value <= 1
                checked += 1
                excluded += out
    assert 0.1 < excluded / checked < 0.9  # both outcomes were met


# -- random_state: anything that cannot seed is refused by name ---------------------
def _calls_with_random_state():
    from auklib import aligned_ranks_posthoc, friedman_aligned_ranks

    y, s = np.r_[np.ones(12), np.zeros(30)], np.arange(42.0)
    table = np.random.default_rng(0).normal(size=(8, 4))
    return {
        "auk_confidence_interval": lambda rs: auk_confidence_interval(
            y, s, n_resamples=20, random_state=rs),
        "auk_compare": lambda rs: auk_compare(y, s, s[::-1], n_resamples=20,
                                              random_state=rs),
        "friedman_aligned_ranks": lambda rs: friedman_aligned_ranks(
            table, method="permutation", n_permutations=99, random_state=rs),
        "aligned_ranks_posthoc": lambda rs: aligned_ranks_posthoc(
            table, method="permutation", n_permutations=99, random_state=rs),
    }


def test_every_public_function_with_random_state_is_checked_here():
    import inspect

    import auklib

    takes = {name for name in auklib.__all__
             if callable(obj := getattr(auklib, name)) and not isinstance(obj, type)
             and "random_state" in inspect.signature(obj).parameters}
    assert takes == set(_calls_with_random_state())


@pytest.mark.parametrize("bad, exc", [
    ("abc", TypeError), (-1, ValueError), (1.5, TypeError), (True, TypeError),
    ([1, "x"], TypeError), (object(), TypeError),
])
@pytest.mark.parametrize("name", sorted(_calls_with_random_state()))
def test_a_random_state_that_cannot_seed_is_refused_by_name(name, bad, exc):
    call = _calls_with_random_state()[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(exc, match="random_state"):
            call(bad)
        # what numpy accepts still works, and a RandomState as in scikit-learn
        for good in (None, 0, np.int64(7), np.random.default_rng(1),
                     np.random.SeedSequence(3), np.random.RandomState(4)):
            call(good)
