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


def test_analytic_interval_of_a_perfect_ranking_is_a_point_and_warns():
    y = [0, 0, 0, 1, 1]
    with pytest.warns(UserWarning, match="interval is a point"):
        ci = auk_confidence_interval(y, [0.1, 0.2, 0.3, 0.8, 0.9], method="analytic")
    # every case's influence is zero: moving a case within its class's block
    # does not change the ROC path
    assert ci.standard_error < 1e-12
    assert ci.high - ci.low < 1e-10 and ci.low <= ci.estimate <= ci.high


def _no_point_cases():
    """Test sets where a variance-at-the-estimate interval has no width."""
    rng = np.random.default_rng(40)
    for n_pos in (1, 2, 3, 5, 10, 50):
        for n_neg in (1, 3, 10, 100, 1000):
            y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
            ranked = np.r_[np.arange(n_pos) + n_neg + 1.0, np.arange(n_neg, dtype=float)]
            yield f"perfect {n_pos}/{n_neg}", y, ranked, None
            yield f"reversed {n_pos}/{n_neg}", y, -ranked, None
            yield f"all tied {n_pos}/{n_neg}", y, np.zeros(n_pos + n_neg), None
            yield f"crisp {n_pos}/{n_neg}", y, (ranked > n_neg).astype(float), None
            w = rng.uniform(0.1, 3.0, n_pos + n_neg)
            yield f"perfect, weighted {n_pos}/{n_neg}", y, ranked, w
            if n_pos <= 3:
                yield f"random {n_pos}/{n_neg}", y, rng.normal(size=n_pos + n_neg), None
    y = np.r_[np.ones(1000, dtype=int), np.zeros(100_000, dtype=int)]
    yield "perfect 1000/100000", y, np.r_[np.ones(1000), np.zeros(100_000)], None
    yield "all tied but one 1000/100000", y, np.r_[1.0, np.zeros(100_999)], None


def test_no_setting_gives_a_point_interval():
    """The default (score) interval has a width in every setting, inside the
    AUK's range and around the estimate: perfect and reversed rankings, all
    scores tied, crisp scores, 1 to 3 positive cases, weights, 10^5 cases."""
    from auklib import auk_bounds

    checked = 0
    for name, y, s, w in _no_point_cases():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # few cases of a class
            ci = auk_confidence_interval(y, s, sample_weight=w)
        w_pos = y.sum() if w is None else w[y == 1].sum()
        w_all = y.size if w is None else w.sum()
        lo, hi = auk_bounds(w_pos / w_all)
        assert ci.low < ci.high, name
        assert ci.low <= ci.estimate <= ci.high, name
        # the exact AUK of a perfect (reversed) ranking is the bound, to rounding
        assert lo - 1e-12 <= ci.low and ci.high <= hi + 1e-12, name
        checked += 1
    assert checked > 150


@pytest.mark.parametrize("n_pos, n_neg", [(20, 180), (20, 20), (10, 490), (200, 200)])
def test_score_interval_of_a_perfect_ranking_is_low_to_the_upper_bound(n_pos, n_neg):
    from auklib import auk_bounds

    y = np.r_[np.ones(n_pos), np.zeros(n_neg)]
    s = np.r_[np.arange(n_pos) + 200.0 + n_neg, np.arange(float(n_neg))]
    ci = auk_confidence_interval(y, s)
    lo, hi = auk_bounds(n_pos / (n_pos + n_neg))
    assert ci.estimate == pytest.approx(hi, abs=1e-15)
    assert ci.high == pytest.approx(hi, abs=1e-15)
    assert lo < ci.low < hi - 1e-3 * (hi - lo)  # a real width, not rounding


def test_power_family_matches_the_exact_auk_and_a_large_sample():
    """The model table against the exact AUK of the ROC t = f^lam, and its
    variance against the influence-function variance of one very large
    sample of exponential scores (relative error of that estimate about
    sqrt(2 / N) for each class, a few per cent here)."""
    from auklib import auk_from_roc
    from auklib.auk_variance import _model_variance, _power_family

    for p in (0.02, 0.1, 0.5):
        theta, _, _ = _power_family(p)
        assert np.all(np.diff(theta) > 0)
        for lam in (0.02, 0.3, 1.0, 4.0):
            lf = np.linspace(-200.0, 0.0, 400_001)
            exact = auk_from_roc(np.r_[0.0, np.exp(lf)], np.r_[0.0, np.exp(lam * lf)], p)
            i = np.argmin(np.abs(np.exp(np.linspace(-12, 12, 241)) - lam))
            lam_grid = np.exp(np.linspace(-12, 12, 241))[i]
            exact_grid = auk_from_roc(np.r_[0.0, np.exp(lf)],
                                      np.r_[0.0, np.exp(lam_grid * lf)], p)
            assert np.min(np.abs(theta - exact_grid)) < 2e-6
            del exact
    rng = np.random.default_rng(41)
    for p, lam in ((0.1, 0.2), (0.5, 0.5)):
        n_neg = 60_000
        n_pos = int(round(p / (1 - p) * n_neg))
        y = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n_neg, dtype=bool)]
        s = np.r_[rng.exponential(1 / lam, n_pos), rng.exponential(1.0, n_neg)]
        c = _Influence(y, s, None)
        v_pos, v_neg = c.variance_parts()
        model = float(_model_variance(c.estimate, c.p, n_pos, n_neg))
        assert model == pytest.approx(v_pos + v_neg, rel=0.06)


def test_model_variance_at_half_prevalence_is_hanley_and_mcneils():
    """At p = 1/2 the AUK is the AUC - 1/2 and the power-law model is Hanley
    & McNeil's exponential one: Var(IF+) = Q2 - A^2, Var(IF-) = Q1 - A^2 with
    Q1 = A / (2 - A), Q2 = 2 A^2 / (1 + A) (their eq. for the AUC's variance
    without its finite-sample term)."""
    from auklib.auk_variance import _model_variance

    for auc in (0.55, 0.7, 0.85, 0.95, 0.99, 0.999):
        q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
        for n_pos, n_neg in ((1.0, 1e12), (1e12, 1.0), (20.0, 180.0)):
            expected = (q2 - auc**2) / n_pos + (q1 - auc**2) / n_neg
            got = float(_model_variance(auc - 0.5, 0.5, n_pos, n_neg))
            assert got == pytest.approx(expected, rel=5e-3), (auc, n_pos, n_neg)


def test_score_interval_at_half_prevalence_has_the_auc_estimate_and_standard_error():
    rng = np.random.default_rng(42)
    for d in (0.5, 1.5, 3.0):
        y, s = _sample(rng, 40, 40, d=d)
        auk = auk_confidence_interval(y, s)
        auc = auc_confidence_interval(y, s)
        assert auk.estimate == pytest.approx(auc.estimate - 0.5, abs=1e-12)
        assert auk.standard_error == pytest.approx(auc.standard_error, rel=1e-9)
        assert auk.low < auk.estimate < auk.high <= 0.5


def test_equal_weights_give_the_unweighted_score_interval():
    rng = np.random.default_rng(43)
    y, s = _sample(rng, 20, 80, step=0.5)
    a = auk_confidence_interval(y, s)
    b = auk_confidence_interval(y, s, sample_weight=np.full(100, 0.3))
    np.testing.assert_allclose(a, b, rtol=1e-9)


def test_bca_acceleration_is_the_jackknife_one_to_first_order():
    """The acceleration from the influence values against the jackknife's
    (the O(n^2) estimate the book's first simulation used); they differ by
    O(1/n)."""
    from auklib.uncertainty import _acceleration, _Curve

    sim = tool("sim_intervals")
    rng = np.random.default_rng(44)
    for n_pos, n_neg in ((30, 270), (60, 60)):
        y, s = _sample(rng, n_pos, n_neg, d=1.5)
        jack = sim.auk_jackknife(_Curve(s[y == 1], s[y == 0]), n_pos, n_neg,
                                 n_pos / (n_pos + n_neg))
        a_jack = sim.bca_acceleration(jack)
        a_if = _acceleration(y, s, None, None)
        assert a_if == pytest.approx(a_jack, rel=0.1, abs=2e-3)
        assert a_if != 0


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


# --------------------------------------------------------------------------
# Integer scores beyond 2**53 are data: every case is matched to its own level


def _huge_integer_scores(seed=31, n_pos=30, n_neg=120):
    """Distinct int64 scores that float64 cannot tell apart (spacing 1 near 2**60)."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    rank = np.r_[rng.normal(1.0, 1, n_pos), rng.normal(0, 1, n_neg)].argsort().argsort()
    return y, np.int64(2**60) + rank.astype(np.int64)


def test_identical_rankings_of_huge_integer_scores_give_a_zero_difference():
    y, s = _huge_integer_scores()
    assert np.unique(s.astype(np.float64)).size < np.unique(s).size  # float64 merges
    # the same ranking as small floats: a monotone transform of the scores
    res = auk_compare(y, s, (s - np.int64(2**60)) / 7.0, method="analytic")
    assert res.difference == 0.0
    assert res.low == res.high == 0.0 and res.p_value == 1.0


def test_unit_weights_give_the_unweighted_standard_error_for_huge_integer_scores():
    y, s = _huge_integer_scores()
    plain = auk_confidence_interval(y, s, method="analytic")
    weighted = auk_confidence_interval(y, s, method="analytic",
                                       sample_weight=np.ones(y.size))
    # the same scores shifted into float64's exact range rank identically
    small = auk_confidence_interval(y, s - np.int64(2**60), method="analytic")
    assert plain.standard_error == pytest.approx(small.standard_error, rel=1e-12)
    assert weighted.standard_error == pytest.approx(plain.standard_error, rel=1e-12)


def test_stored_score_interval_table_reproduces_on_a_fresh_slice():
    """Re-run 300 test sets of a stored setting of the score interval's table
    (other seeds): the coverage agrees within Monte Carlo error, and the
    stored table meets its claims (MC SE <= 0.005, never a point)."""
    sim = tool("sim_auk_score")
    stored = json.loads(sim.OUT.read_text())["coverage"]
    key = "binormal, 20/20, AUC 0.75"
    row = next(r for r in stored if r["key"] == key)
    setting = next(s for s in sim.coverage_settings() if s["key"] == key)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        truth, count, _, _ = sim.run_batch(setting, ("score",), 300, 99)
    assert truth == pytest.approx(row["truth"], abs=1e-12)
    fresh = count["score"]["covered"] / 300
    old = row["score"]["covered"] / row["reps"]
    allowance = 3 * math.hypot(sim.mcse(count["score"]["covered"], 300),
                               sim.mcse(row["score"]["covered"], row["reps"]))
    assert abs(fresh - old) <= allowance
    assert count["score"]["points"] == 0
    assert all(sim.mcse(r["score"]["covered"], r["reps"]) <= 0.005 for r in stored)
    assert all(r["score"]["points"] == 0 for r in stored)
