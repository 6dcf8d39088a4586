"""Chapter 10's general claims about its intervals and tests, by random search.

Each test is named after the claim it checks (chapter 10, "How sure are we?").
"""

import math
import warnings

import numpy as np
import pytest
from scipy.stats import norm

from auklib import auc_confidence_interval, auk_compare

from conftest import tool


def _random_test_set(rng, max_cases=80):
    m, n = rng.integers(1, max_cases, size=2)
    y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
    s = np.r_[rng.normal(rng.uniform(-3, 8), rng.uniform(0.2, 3), m),
              rng.normal(0, 1, n)]
    if rng.random() < 0.3:
        s = np.round(s)  # ties
    return y, s


def test_ch10_score_interval_is_never_zero_width_and_lies_in_0_1():
    rng = np.random.default_rng(901)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for _ in range(400):
            y, s = _random_test_set(rng)
            level = rng.uniform(0.5, 0.999)
            for method in ("score", "newcombe"):
                r = auc_confidence_interval(y, s, method=method, confidence_level=level)
                assert 0 <= r.low <= r.estimate <= r.high <= 1
                assert r.high - r.low > 0


@pytest.mark.parametrize("m", [1, 2, 5, 20, 100, 2000])
@pytest.mark.parametrize("n", [1, 3, 20, 180, 5000])
def test_ch10_at_sample_auc_1_the_interval_is_low_to_1_with_low_below_1(m, n):
    y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
    s = np.r_[np.arange(m) + n, np.arange(n)].astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        r = auc_confidence_interval(y, s)
        old = auc_confidence_interval(y, s, method="delong-logit")
    assert r.estimate == 1 and r.high == 1 and 0 < r.low < 1
    # and DeLong's variance is 0 there, so the old interval is the point
    assert r.standard_error == 0 and old.low == old.high == 1


def test_ch10_boundary_quartic_has_one_root_on_each_side_of_the_estimate():
    rng = np.random.default_rng(902)
    P = np.polynomial.Polynomial
    t = P([0, 1])
    for _ in range(3000):
        m, n = rng.integers(1, 5000, size=2)
        theta = rng.uniform(0, 1) if rng.random() < 0.9 else rng.choice([0.0, 1.0])
        z = norm.ppf(0.5 + rng.uniform(0.3, 0.9995) / 2)
        c = 1 + rng.exponential(3) * (rng.random() < 0.5)
        h = (m + n) / 2 - 1
        q = t * (1 - t)
        f = m * n * (theta - t) ** 2 * (2 - t) * (1 + t) - z * z * c * q * (
            2 + h + (1 + 2 * h) * q
        )
        r = f.roots()
        r = r.real[np.abs(r.imag) < 1e-9]
        eps = 1e-7
        below = r[(r > eps) & (r < theta - eps)]
        above = r[(r > theta + eps) & (r < 1 - eps)]
        assert len(below) == (1 if theta > eps else 0)
        assert len(above) == (1 if theta < 1 - eps else 0)


def test_ch10_default_is_never_shorter_than_newcombes_method_5():
    rng = np.random.default_rng(903)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for _ in range(300):
            y, s = _random_test_set(rng)
            a = auc_confidence_interval(y, s)
            b = auc_confidence_interval(y, s, method="newcombe")
            assert a.low <= b.low + 1e-12 and b.high <= a.high + 1e-12


def test_ch10_paired_p_below_level_exactly_when_interval_excludes_0():
    rng = np.random.default_rng(904)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for _ in range(40):
            n_pos, n_neg = rng.integers(10, 60), rng.integers(10, 200)
            y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
            latent = np.r_[rng.normal(1.5, 1, n_pos), rng.normal(0, 1, n_neg)]
            a = latent + rng.normal(0, 0.5, latent.size)
            b = latent + rng.normal(0, rng.uniform(0.3, 1.5), latent.size)
            level = rng.choice([0.8, 0.9, 0.95, 0.99])
            r = auk_compare(y, a, b, confidence_level=level, n_resamples=300,
                            random_state=int(rng.integers(1 << 30)))
            excludes = r.low > 0 or r.high < 0
            # away from the boundary, where the two may differ by rounding
            if abs(r.p_value - (1 - level)) > 1e-9:
                assert (r.p_value < 1 - level) == excludes


def test_ch10_bc_levels_both_move_up_when_more_than_half_lie_below():
    z = norm.ppf(0.975)
    for share in np.linspace(0.001, 0.999, 999):
        z0 = norm.ppf(share)
        lo, hi = norm.cdf(2 * z0 - z), norm.cdf(2 * z0 + z)
        if share > 0.5:
            assert lo > 0.025 and hi > 0.975
        elif share < 0.5:
            assert lo < 0.025 and hi < 0.975
    assert math.isclose(norm.cdf(2 * norm.ppf(0.5) - z), 0.025)


def _sim_module():
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return tool("sim_intervals"), root


def test_ch10_posthoc_controls_its_level_under_the_complete_null_only():
    """A fresh slice of the stored post-hoc simulation agrees with it."""
    import json
    import os

    sim, root = _sim_module()
    with open(os.path.join(root, "chapters", "data", "sim_posthoc.json")) as fh:
        stored = json.load(fh)
    reps = 800
    for case, partial, seed in (("complete null", False, 7), ("partial null", True, 8)):
        rng = np.random.default_rng(seed)
        hits = sum(sim.aligned_raw_p(sim.posthoc_table(rng, partial))[(4, 5)] < 0.05
                   for _ in range(reps))
        old = stored[case]["raw_pair"] / stored["reps"]
        se = math.sqrt(old * (1 - old) * (1 / reps + 1 / stored["reps"]))
        assert abs(hits / reps - old) <= 4 * se
    assert stored["partial null"]["raw_pair"] / stored["reps"] > 0.1
    assert stored["complete null"]["holm_familywise"] / stored["reps"] <= 0.05


def test_ch10_aligned_raw_p_of_the_simulation_matches_auklib_for_two_columns():
    from auklib import aligned_ranks_posthoc

    sim, _ = _sim_module()
    rng = np.random.default_rng(905)
    for _ in range(50):
        s = rng.normal(size=(rng.integers(2, 12), 2))
        assert sim.aligned_raw_p(s)[(0, 1)] == pytest.approx(
            aligned_ranks_posthoc(s).p_adjusted[0, 1], rel=1e-12)


def test_ch10_delong_variance_is_at_most_auc_times_one_minus_auc():
    """DeLong's variance <= AUC (1 - AUC) (1/(N+ - 1) + 1/(N- - 1)), always.

    Placement values lie in [0, 1], so each sample variance is at most
    mean (1 - mean) times n / (n - 1).  Checked against the library's
    DeLong standard error on random test sets with ties, small classes,
    perfect and reversed separation.
    """
    from auklib import delong_test

    rng = np.random.default_rng(911)
    for i in range(600):
        y, s = _random_test_set(rng)
        m, n = int(y.sum()), int((1 - y).sum())
        if m < 2 or n < 2:
            continue
        if i % 50 == 0:
            s = np.where(y == 1, -1.0, 1.0) * rng.uniform(1, 2, y.size)  # AUC 0
        pos, neg = s[y == 1], s[y == 0]
        wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        V, W = wins.mean(axis=1), wins.mean(axis=0)
        auc = V.mean()
        var = V.var(ddof=1) / m + W.var(ddof=1) / n
        bound = auc * (1 - auc) * (1 / (m - 1) + 1 / (n - 1))
        assert var <= bound + 1e-12
        # the library's DeLong variance is the same: a classifier against a
        # constant one (AUC 1/2, placements all 1/2, zero variance)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = delong_test(y, s, np.zeros(y.size))
        if np.isfinite(res.standard_error):
            assert abs(res.standard_error - math.sqrt(var)) < 1e-9
