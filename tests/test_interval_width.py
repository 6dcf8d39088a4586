"""The default AUK and AUC intervals: properties that could fail, and the stored table.

The construction of ``auk_confidence_interval``'s and
``auc_confidence_interval``'s defaults (score-type intervals, see their
docstrings) is checked over a random family of test sets wide enough to find
a counterexample: never a point, always inside the metric's range and around
the estimate, nested as the confidence level grows.  The validation table of
``chapters/data/sim_interval_width.py`` is checked against its own counts,
against a fresh slice, and against the docstrings that quote it.
"""

import json
import math
import warnings

import numpy as np
import pytest

from auklib import auc_confidence_interval, auk_bounds, auk_confidence_interval

from conftest import tool

sim = tool("sim_interval_width")
LEVELS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)


def _family(seed, count):
    """Random test sets: 1 to 60 cases a class, any separation (reversed to
    perfect), spreads 0.2-3, ties (rounded or few-level scores), weights."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        m, n = (int(v) for v in rng.integers(1, 60, size=2))
        y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
        s = np.r_[rng.normal(rng.uniform(-3, 9), rng.uniform(0.2, 3), m),
                  rng.normal(0, 1, n)]
        kind = i % 5
        if kind == 1:
            s = np.round(s)  # ties
        elif kind == 2:
            s = np.searchsorted([-0.5, 0.5, 1.5, 2.5], s).astype(float)  # five levels
        elif kind == 3:
            s = np.r_[np.arange(m) + n + 1.0, np.arange(n, dtype=float)]  # perfect
        w = rng.uniform(0.1, 3.0, m + n) if i % 7 == 0 else None
        yield y, s, w


def _auk(y, s, w=None, level=0.95):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # few cases of a class
        return auk_confidence_interval(y, s, sample_weight=w, confidence_level=level)


def _auc(y, s, level=0.95):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return auc_confidence_interval(y, s, confidence_level=level)


def test_default_auk_interval_is_never_a_point_and_lies_inside_auk_bounds():
    checked = 0
    for y, s, w in _family(3801, 300):
        ci = _auk(y, s, w)
        p = y.mean() if w is None else w[y == 1].sum() / w.sum()
        lo, hi = auk_bounds(p)
        assert ci.low < ci.high
        assert ci.low <= ci.estimate <= ci.high
        assert lo - 1e-12 <= ci.low and ci.high <= hi + 1e-12
        checked += 1
    assert checked == 300


def test_default_auc_interval_is_never_a_point_and_lies_inside_0_1():
    for y, s, _ in _family(3802, 300):
        ci = _auc(y, s)
        assert 0 <= ci.low < ci.high <= 1
        assert ci.low <= ci.estimate <= ci.high


@pytest.mark.parametrize("metric", ["auk", "auc"])
def test_default_intervals_are_nested_as_the_confidence_level_grows(metric):
    """A higher confidence level never gives a shorter interval on either side."""
    for y, s, w in _family(3803 if metric == "auk" else 3804, 60):
        cis = [(_auk(y, s, w, lv) if metric == "auk" else _auc(y, s, lv))
               for lv in LEVELS]
        lows = np.array([c.low for c in cis])
        highs = np.array([c.high for c in cis])
        # the AUK's limits are found to 2^-40 of its range by bracketing
        tol = 1e-9 if metric == "auk" else 1e-12
        assert np.all(np.diff(lows) <= tol) and np.all(np.diff(highs) >= -tol)


def test_simulation_builds_the_auk_default_as_the_public_function_does():
    from auklib.auk_variance import _estimate_and_variance

    for y, s, _ in _family(3805, 40):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            parts = _estimate_and_variance(y, s, None, None, "test")
        if parts is None:  # one class
            continue
        low, high = sim.auk_limits(parts)["score"]
        ci = _auk(y, s)
        assert (low, high) == (ci.low, ci.high)


def test_simulation_builds_the_auc_intervals_as_the_public_function_does():
    rng = np.random.default_rng(3806)
    z = 1.959963984540054
    for _ in range(30):
        m, n = (int(v) for v in rng.integers(2, 40, size=2))
        pos = np.round(rng.normal(rng.uniform(0, 4), rng.uniform(0.3, 2), (3, m)), 1)
        neg = np.round(rng.normal(0, 1, (3, n)), 1)
        auc, vp, vn = sim.auc_parts(pos, neg)
        lim = sim.auc_limits(auc, vp, vn, m, n, z)
        y = np.r_[np.ones(m, dtype=int), np.zeros(n, dtype=int)]
        for r in range(3):
            for method, name in (("score", "score"), ("newcombe", "newcombe"),
                                 ("delong-logit", "delong-logit")):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UserWarning)
                    ci = auc_confidence_interval(y, np.r_[pos[r], neg[r]], method=method)
                assert ci.estimate == pytest.approx(auc[r], abs=1e-12)
                assert lim[name][0][r] == pytest.approx(ci.low, abs=1e-9)
                assert lim[name][1][r] == pytest.approx(ci.high, abs=1e-9)


def _stored():
    return json.loads(sim.OUT.read_text())


def test_stored_table_summaries_follow_from_its_counts():
    data = _stored()
    rows = data["rows"]
    assert {r["part"] for r in rows} == {"auk", "auc"}
    for r in rows:
        methods = sim.AUK_METHODS if r["part"] == "auk" else sim.AUC_METHODS
        again = sim.summarise(r, methods)
        for k in ("coverage", "mc_se", "mean_width", "points", "meets_goal", "reference"):
            assert again[k] == r["summary"][k], (r["key"], k)
        # every coverage claim of the validation table is that precise
        if r["role"] == "validation" and r["summary"]["coverage"] < 1:
            assert r["summary"]["mc_se"] <= 0.005 + 1e-9, r["key"]
        assert r["score"]["points"] == 0, r["key"]  # never a point


def test_validation_settings_are_not_tuning_settings():
    tuning = {s["key"] for s in sim.tuning_settings()}
    validation = {s["key"] for s in sim.validation_settings()}
    assert not tuning & validation
    stored = {(r["part"], r["key"]) for r in _stored()["rows"] if r["role"] == "validation"}
    assert stored == {(part, k) for part in ("auk", "auc") for k in validation}


@pytest.mark.parametrize("part, key", [("auk", "binormal, 500/4500, AUC 0.99"),
                                       ("auc", "binormal, sd+ 0.5, 30/270, AUC 0.9")])
def test_stored_coverage_reproduces_on_a_fresh_slice(part, key):
    """300 fresh test sets (other seeds) of a stored validation setting: the
    default's coverage agrees within Monte Carlo error (3 SE)."""
    row = next(r for r in _stored()["rows"]
               if r["part"] == part and r["key"] == key and r["role"] == "validation")
    setting = next(s for s in sim.validation_settings() if s["key"] == key)
    reps = 150 if part == "auk" else 600
    run = sim.run_auk if part == "auk" else sim.run_auc
    kwargs = {"methods": ("score",)} if part == "auk" else {}
    truth, count = run(setting, reps, 77, **kwargs)
    assert truth == pytest.approx(row["truth"], abs=1e-12)
    fresh = count["score"]["covered"] / reps
    old = row["score"]["covered"] / row["reps"]
    allowance = 3 * math.hypot(sim.mcse(count["score"]["covered"], reps),
                               sim.mcse(row["score"]["covered"], row["reps"]))
    assert abs(fresh - old) <= max(allowance, 3 / reps)
    assert count["score"]["points"] == 0


@pytest.mark.parametrize("part", ["auk", "auc"])
def test_docstring_quotes_the_stored_validation_ranges(part):
    """The tested range the docstring states is the stored table's."""
    rows = [r for r in _stored()["rows"] if r["part"] == part and r["role"] == "validation"]
    inner = [r["summary"]["coverage"] for r in rows if r["model"] != "perfect"]
    doc = (auk_confidence_interval if part == "auk" else auc_confidence_interval).__doc__
    doc = " ".join(doc.split())
    assert f"{min(inner):.3f}-{max(inner):.3f}" in doc
    assert f"{len(rows)} settings" in doc
