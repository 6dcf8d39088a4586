"""Chapter 14: the expected loss of four threshold choice methods, and the
H-measure as a weighted area under the cost lines' lower envelope.

Loss at the cost share gamma (c below) of the ROC point (f, t), with p the
share of positives (pi1 below) and n = 1 - p (pi0 below):
Q(gamma) = 2 {gamma n f + (1 - gamma) p (1 - t)}.
A case is called positive when its score is at least the threshold, as
everywhere in the book.  The integrals over gamma are exact here (the loss is
piecewise linear in gamma between the scores), except the optimal loss and
the H-measure, integrated on a fine grid.
"""

import numpy as np
from scipy.stats import beta as beta_dist
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss, roc_auc_score, roc_curve

from auklib import h_measure, roc_convex_hull
from aukbook.searches import random_scored_data as _data  # the chapter's family


def _rates(y, q, threshold):
    called = q >= threshold
    return called[y == 0].mean(), called[y == 1].mean()


def _lower_envelope(y, q, c):
    """min over the ROC points of gamma n f + (1 - gamma) p (1 - t), per gamma in c
    (half the optimal loss Q)."""
    pi1 = y.mean()
    f, t, _ = roc_curve(y, q, drop_intermediate=False)
    return (c[:, None] * (1 - pi1) * f + (1 - c[:, None]) * pi1 * (1 - t)).min(axis=1)


def _piecewise_integral(y, q, integrand):
    """Exact integral over [0, 1] of integrand(c, f(c), t(c)) when it is
    linear in c between consecutive distinct scores (f, t constant there)."""
    cuts = np.unique(np.r_[0.0, np.clip(q, 0, 1), 1.0])
    total = 0.0
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        mid = (lo + hi) / 2
        f, t = _rates(y, q, mid)
        total += (hi - lo) * integrand(mid, f, t)
    return total


def test_ch14_threshold_choice_losses_are_brier_mae_and_linear_in_auc():
    rng = np.random.default_rng(1311)
    for _ in range(300):
        y, q = _data(rng)
        if len(set(y)) < 2:
            continue
        pi1 = y.mean()
        pi0 = 1 - pi1
        # score-driven: threshold = c
        sd = _piecewise_integral(
            y, q, lambda c, f, t: 2 * (c * pi0 * f + (1 - c) * pi1 * (1 - t)))
        assert abs(sd - brier_score_loss(y, q)) < 1e-12
        # score-uniform: threshold uniform, independent of c (E[2c] = 1)
        su = _piecewise_integral(y, q, lambda c, f, t: pi0 * f + pi1 * (1 - t))
        assert abs(su - np.mean(np.abs(y - q))) < 1e-12
        # rate-uniform: r = pi0 f + pi1 t uniform, along the straight segments
        f, t, _ = roc_curve(y, q, drop_intermediate=False)
        r = pi0 * f + pi1 * t
        g = pi0 * f + pi1 * (1 - t)
        ru = np.sum(np.diff(r) * (g[1:] + g[:-1]) / 2)
        assert abs(ru - (0.5 + pi0 * pi1 * (1 - 2 * roc_auc_score(y, q)))) < 1e-12


def test_ch14_optimal_loss_is_the_brier_score_after_the_isotonic_map():
    rng = np.random.default_rng(1312)
    c = np.linspace(0, 1, 20_001)  # largest error seen: 6e-10
    for _ in range(150):
        y, q = _data(rng)
        if len(set(y)) < 2:
            continue
        optimal = np.trapezoid(2 * _lower_envelope(y, q, c), c)
        iso = IsotonicRegression(out_of_bounds="clip").fit_transform(q, y)
        assert abs(optimal - brier_score_loss(y, iso)) < 1e-8


def test_ch14_lower_envelope_is_made_of_the_hull_vertices():
    rng = np.random.default_rng(1313)
    pc = np.linspace(0, 1, 2001)
    for _ in range(300):
        y, q = _data(rng)
        if len(set(y)) < 2:
            continue
        f, t, _ = roc_curve(y, q, drop_intermediate=False)
        fh, th = roc_convex_hull(f, t)
        every = ((1 - t)[:, None] * pc + f[:, None] * (1 - pc)).min(axis=0)
        hull = ((1 - th)[:, None] * pc + fh[:, None] * (1 - pc)).min(axis=0)
        assert np.allclose(every, hull, rtol=0, atol=1e-12)


def test_ch14_h_measure_is_the_beta_weighted_optimal_loss():
    rng = np.random.default_rng(1314)
    c = np.linspace(0, 1, 20_001)  # largest error seen: 5e-8
    for _ in range(100):
        y, q = _data(rng)
        if len(set(y)) < 2:
            continue
        pi1 = y.mean()
        pi0 = 1 - pi1
        sr = None if rng.uniform() < 0.5 else float(rng.uniform(0.05, 5))
        b = 1 + (pi0 / pi1 if sr is None else 1 / sr)
        u = beta_dist.pdf(c, 2, b)
        l_opt = _lower_envelope(y, q, c)
        l_max = np.minimum(c * pi0, (1 - c) * pi1)
        h = 1 - np.trapezoid(l_opt * u, c) / np.trapezoid(l_max * u, c)
        assert abs(h - h_measure(y, q, severity_ratio=sr)) < 1e-6
