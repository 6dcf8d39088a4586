"""Chapter 8: the stored family-wise error rates (chapters/data/ch08_fwer.json).

``chapters/data/sim_ch08_fwer.py`` simulated 10,000 null tables per design; here a
fresh slice (other seed) must agree with it within Monte Carlo error, and the
stored rates must have standard errors of at most 0.005.
"""

import json
import pathlib

import numpy as np

from conftest import tool

ROOT = pathlib.Path(__file__).resolve().parents[2]
sim = tool("sim_ch08_fwer")
STORED = json.loads((ROOT / "chapters/data/ch08_fwer.json").read_text())


def test_ch08_fwer_stored_rates_have_mc_se_at_most_0005():
    assert STORED["reps"] >= 10_000
    for d in STORED["designs"]:
        for name, rate in d["fwer"].items():
            se = np.sqrt(rate * (1 - rate) / STORED["reps"])
            assert abs(se - d["mc_se"][name]) < 1e-5 and se <= 0.005


def test_ch08_fwer_rerun_slice_agrees_with_stored():
    reps = 300
    for d in STORED["designs"]:
        hits = sim.rejections(d["b"], d["k"], reps, seed=12345)
        for c, name in enumerate(sim.METHODS):
            ref = d["fwer"][name]
            se = np.sqrt(max(ref * (1 - ref), 0.02) / reps)
            assert abs(hits[:, c].mean() - ref) < 4 * se, (d["b"], name)


def test_ch08_fwer_exact_tests_hold_level_garcia_does_not():
    limit = 0.05 + 3 * np.sqrt(0.05 * 0.95 / STORED["reps"])
    for d in STORED["designs"]:
        assert d["fwer"]["exact variance"] <= limit
        assert d["fwer"]["permutation"] <= limit
        assert d["fwer"]["García et al."] > 0.6


def test_ch08_holm_helper_matches_definition():
    rng = np.random.default_rng(5)
    for _ in range(500):
        raw = rng.uniform(0, 0.2, size=rng.integers(1, 20))
        m = len(raw)
        order = np.argsort(raw, kind="stable")
        expected = np.empty(m)
        running = 0.0
        for step, idx in enumerate(order):
            running = max(running, min(1.0, (m - step) * raw[idx]))
            expected[idx] = running
        np.testing.assert_allclose(sim.holm(raw), expected)
