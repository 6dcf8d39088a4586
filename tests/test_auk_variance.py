"""The AUK's analytic standard error, interval and paired test (auklib.auk_variance).

Three kinds of check: the influence of each case against a brute-force
numerical derivative of the exact AUK with respect to that case's weight;
the standard error against the spread of the AUK over simulated test sets
drawn from a known population; and the interval's coverage and the paired
test's size against their nominal values, with a Monte Carlo allowance of
three standard errors (and a slice of the stored simulation of
``chapters/data/sim_auk_analytic.py`` re-run).
"""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from auklib import (
    UndefinedMetricWarning,
    auc_confidence_interval,
    auk_compare,
    auk_confidence_interval,
    auk_score,
)
from auklib.auk_variance import _Influence

from conftest import tool

ROOT = Path(__file__).resolve().parent.parent


def _sample(rng, n_pos, n_neg, d=1.0, step=None):
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    s = np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]
    if step is not None:
        s = np.round(s / step) * step
    return y, s


def _brute_influence(y, s, w=None, eps=1e-5):
    """d AUK / d eps when case i's class moves eps of its weight onto case i.

    Weights w_j (1 - eps) within the class of case i, plus eps W on case i
    (W the class's total weight): the class's weight, hence p, is unchanged,
    and the class's level shares move from a to (1 - eps) a + eps delta_i.
    """
    w = np.ones(y.shape[0]) if w is None else np.asarray(w, dtype=float)
    out = np.empty(y.shape[0])
    for i in range(y.shape[0]):
        cls = y == y[i]
        vals = []
        for e in (eps, -eps):
            v = w.copy()
            v[cls] *= 1 - e
            v[i] += e * w[cls].sum()
            vals.append(auk_score(y, s, sample_weight=v))
        out[i] = (vals[0] - vals[1]) / (2 * eps)
    return out


@pytest.mark.parametrize("step", [None, 0.5, 1.0])
def test_influence_equals_brute_force_derivative_of_the_exact_auk(step):
    rng = np.random.default_rng(1)
    y, s = _sample(rng, 9, 31, step=step)
    c = _Influence(y == 1, s, None)
    if_pos, if_neg = c.cases(s[y == 1], s[y == 0])
    brute = _brute_influence(y, s)
    assert c.estimate == pytest.approx(auk_score(y, s), abs=1e-13)
    np.testing.assert_allclose(if_pos, brute[y == 1], atol=1e-8)
    np.testing.assert_allclose(if_neg, brute[y == 0], atol=1e-8)
    # centred within each class
    assert abs(if_pos.sum()) < 1e-12 and abs(if_neg.sum()) < 1e-12


def test_weighted_influence_is_weight_times_level_influence():
    rng = np.random.default_rng(2)
    y, s = _sample(rng, 8, 25, step=0.5)
    w = rng.uniform(0.5, 2.0, y.shape[0])
    c = _Influence(y == 1, s, w)
    brute = _brute_influence(y, s, w)
    wp, wn = w[y == 1], w[y == 0]
    if_pos, if_neg = c.cases(s[y == 1], s[y == 0], wp, wn)
    np.testing.assert_allclose(if_pos, wp / wp.mean() * brute[y == 1], atol=1e-8)
    np.testing.assert_allclose(if_neg, wn / wn.mean() * brute[y == 0], atol=1e-8)


def test_equal_weights_give_the_unweighted_interval():
    rng = np.random.default_rng(3)
    y, s = _sample(rng, 20, 80)
    a = auk_confidence_interval(y, s, method="analytic")
    w = np.full(100, 2.5)
    b = auk_confidence_interval(y, s, method="analytic", sample_weight=w)
    np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("step", [None, 0.1, 1.0])
def test_at_half_prevalence_the_standard_error_is_delongs(step):
    rng = np.random.default_rng(4)
    y, s = _sample(rng, 40, 40, step=step)
    se = auk_confidence_interval(y, s, method="analytic").standard_error
    assert se == pytest.approx(auc_confidence_interval(y, s).standard_error, rel=1e-10)


@pytest.mark.parametrize(
    "n_pos, n_neg, step",
    [(40, 360, None), (40, 360, 1.0), (20, 980, None)],
)
def test_standard_error_matches_the_spread_over_test_sets(n_pos, n_neg, step):
    """Mean analytic SE against the SD of the AUK over 800 simulated test sets.

    The SD's relative Monte Carlo error is about 1 / sqrt(2 x 800) = 2.5%;
    the allowance is 3 of those.  With step = 1 the scores take about 6
    levels: the half-credit treatment of ties (kappa at the segment's
    midpoint) would fall short here; the exact segment integral does not.
    """
    rng = np.random.default_rng(5)
    reps = 800
    est, se = np.empty(reps), np.empty(reps)
    for r in range(reps):
        y, s = _sample(rng, n_pos, n_neg, step=step)
        ci = auk_confidence_interval(y, s, method="analytic")
        est[r], se[r] = ci.estimate, ci.standard_error
    sd = est.std(ddof=1)
    assert abs(se.mean() / sd - 1) < 3 / math.sqrt(2 * reps)


def test_paired_test_holds_its_size_under_the_null():
    """Two identically distributed classifiers: rejections at 5% over 1,000 sets."""
    rng = np.random.default_rng(6)
    reps, n_pos, n_neg = 1000, 30, 270
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    hits = 0
    for _ in range(reps):
        latent = np.r_[rng.normal(1.5, 1, n_pos), rng.normal(0, 1, n_neg)]
        a = latent + rng.normal(0, 0.7, latent.size)
        b = latent + rng.normal(0, 0.7, latent.size)
        hits += auk_compare(y, a, b, method="analytic").p_value < 0.05
    assert abs(hits / reps - 0.05) < 3 * math.sqrt(0.05 * 0.95 / reps)


def test_paired_interval_and_p_value_agree():
    rng = np.random.default_rng(7)
    y, latent = _sample(rng, 60, 540, d=1.5)
    a = latent + rng.normal(0, 0.3, latent.size)
    b = latent + rng.normal(0, 1.0, latent.size)
    for level in (0.9, 0.95, 0.99):
        res = auk_compare(y, a, b, method="analytic", confidence_level=level)
        assert res.difference == pytest.approx(auk_score(y, a) - auk_score(y, b))
        assert (res.low > 0) == (res.p_value < 1 - level)
    # same classifier twice: no difference, no spread
    same = auk_compare(y, a, a, method="analytic")
    assert same.difference == 0 and same.p_value == 1.0


def test_paired_se_is_smaller_than_the_unpaired_one():
    rng = np.random.default_rng(8)
    y, latent = _sample(rng, 60, 540, d=1.5)
    a = latent + rng.normal(0, 0.3, latent.size)
    b = latent + rng.normal(0, 0.5, latent.size)
    res = auk_compare(y, a, b, method="analytic", confidence_level=0.95)
    se_paired = (res.high - res.low) / 2
    ca = auk_confidence_interval(y, a, method="analytic")
    cb = auk_confidence_interval(y, b, method="analytic")
    assert se_paired < 0.5 * 1.96 * math.hypot(ca.standard_error, cb.standard_error)


def test_interval_lies_within_the_auk_range_and_contains_the_estimate():
    from auklib import auk_bounds

    rng = np.random.default_rng(9)
    for n_pos in (10, 30):
        y, s = _sample(rng, n_pos, 500, d=3.0)
        ci = auk_confidence_interval(y, s, method="analytic")
        lo, hi = auk_bounds(n_pos / (n_pos + 500))
        assert lo < ci.low < ci.estimate < ci.high < hi


def test_perfect_ranking_gives_a_point_interval():
    y = [0, 0, 0, 1, 1]
    with pytest.warns(UserWarning, match="Only 2 positive cases"):
        ci = auk_confidence_interval(y, [0.1, 0.2, 0.3, 0.8, 0.9], method="analytic")
    # every case's influence is zero: moving a case within its class's block
    # does not change the ROC path
    assert ci.standard_error < 1e-12
    assert ci.high - ci.low < 1e-10 and ci.low <= ci.estimate <= ci.high


def test_bad_method_and_single_class():
    y, s = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]
    with pytest.raises(ValueError, match="method"):
        auk_confidence_interval(y, s, method="delong")
    with pytest.raises(TypeError, match="method"):
        auk_compare(y, s, s, method=1)
    with pytest.raises(ValueError, match="confidence_level"):
        auk_confidence_interval(y, s, method="analytic", confidence_level=1.5)
    with pytest.warns(UndefinedMetricWarning):
        ci = auk_confidence_interval([1, 1, 1], [0.1, 0.2, 0.3], method="analytic")
    assert all(math.isnan(v) for v in ci)
    with pytest.warns(UndefinedMetricWarning):
        res = auk_compare([0, 0], [0.1, 0.2], [0.3, 0.1], method="analytic")
    assert all(math.isnan(v) for v in res)


def _sim_module():
    return tool("sim_auk_analytic")


@pytest.mark.parametrize(
    "name", ["10 positives (p = 0.1)", "ties (scores rounded to 0.5)"]
)
def test_stored_coverage_table_reproduces_on_a_fresh_slice(name):
    """Re-run 500 test sets of a stored setting (other seeds): coverage and
    mean width agree with the stored table within Monte Carlo error."""
    sim = _sim_module()
    stored = json.loads(sim.OUT.read_text())
    row = next(r for r in stored["analytic"] if r["setting"] == name)
    setting = next(s for s in sim.settings() if s["name"] == name)
    assert setting["truth"] == pytest.approx(row["auk"], abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh = sim.coverage(setting, 500, seed=99)
    allowance = 3 * math.hypot(fresh["mc_se"], row["mc_se"])
    assert abs(fresh["coverage"] - row["coverage"]) <= allowance
    # mean widths: the width's SD over test sets is below a third of its mean
    assert fresh["mean_width"] == pytest.approx(row["mean_width"], rel=0.05)
    # and the stored table itself meets the brief: MC SE <= 0.005 everywhere
    assert all(r["mc_se"] <= 0.005 for r in stored["analytic"])
