"""Chapter 4, "The AUK where the model will be used": the general claims of the
section, each checked by a random search or a simulation.  One test per claim."""

import numpy as np
from scipy.stats import norm
from sklearn.metrics import roc_auc_score, roc_curve

from auklib import auk_score, kappa_from_rates
from aukbook.plotting import binormal_auk

RNG_SEED = 1989


def class_weights(y, p):
    """Weights that give the positives a total share p."""
    return np.where(y == 1, p / np.sum(y == 1), (1 - p) / np.sum(y == 0))


def test_ch04_roc_curve_and_spauc_do_not_depend_on_p_but_the_auk_does():
    """Reweighting the classes to any share p leaves every ROC vertex, the AUC
    and the standardised partial AUC unchanged; the AUK moves."""
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(200):
        n = int(rng.integers(10, 200))
        y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(int)
        if y.min() == y.max():
            continue
        s = np.round(rng.standard_normal(n) + y * rng.uniform(0, 2), 1)
        p = float(rng.uniform(0.01, 0.99))
        w = class_weights(y, p)
        f0, t0, _ = roc_curve(y, s, drop_intermediate=False)
        f1, t1, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        assert f0.shape == f1.shape
        assert np.allclose(f0, f1, atol=1e-12) and np.allclose(t0, t1, atol=1e-12)
        m = float(rng.uniform(0.05, 1))
        assert abs(roc_auc_score(y, s, max_fpr=m)
                   - roc_auc_score(y, s, sample_weight=w, max_fpr=m)) < 1e-12
        moved = auk_score(y, s, prevalence=p)
        assert abs(moved - auk_score(y, s, sample_weight=w)) < 1e-10
        if abs(p - y.mean()) > 0.05 and roc_auc_score(y, s) > 0.6:
            assert abs(moved - auk_score(y, s)) > 1e-6


def test_ch04_carried_auk_at_half_is_auc_minus_half_for_every_curve():
    rng = np.random.default_rng(RNG_SEED + 1)
    for _ in range(300):
        n = int(rng.integers(4, 100))
        y = (rng.random(n) < rng.uniform(0.05, 0.95)).astype(int)
        if y.min() == y.max():
            continue
        s = np.round(rng.standard_normal(n) + y * rng.uniform(-1, 3), 1)
        half = auk_score(y, s, prevalence=0.5)
        assert abs(half - (roc_auc_score(y, s) - 0.5)) < 1e-12


def test_ch04_auk_weight_dkappa_dt_formula_and_always_positive():
    """d kappa / d t = 2p(1-p)(p + qf) / (p + qf + pq(t - f))^2 > 0, q = 1 - 2p."""
    rng = np.random.default_rng(RNG_SEED + 2)
    f, t = rng.random(20_000), rng.random(20_000)
    p = rng.uniform(0.001, 0.999, 20_000)
    q = 1 - 2 * p
    weight = 2 * p * (1 - p) * (p + q * f) / (p + q * f + p * q * (t - f)) ** 2
    h = 1e-6
    up = kappa_from_rates(tpr=t + h, fpr=f, prevalence=p)
    down = kappa_from_rates(tpr=t - h, fpr=f, prevalence=p)
    numeric = (up - down) / (2 * h)
    assert np.allclose(weight, numeric, rtol=1e-6, atol=1e-8)
    assert np.all(weight > 0)


def test_ch04_two_binormal_curves_with_auc_085_swap_at_p_half():
    """The population curves of the section's two classifiers: sigma = 1.8 has
    the larger AUK for p < 1/2, sigma = 0.6 for p > 1/2, equal at 1/2."""
    d = {s: norm.ppf(0.85) * np.sqrt(1 + s**2) for s in (0.6, 1.8)}
    for p in np.linspace(0.02, 0.98, 25):
        gap = binormal_auk(d[1.8], p, 1.8) - binormal_auk(d[0.6], p, 0.6)
        if p < 0.49:
            assert gap > 0
        elif p > 0.51:
            assert gap < 0
        else:
            assert abs(gap) < 1e-6


def draw_population(rng, size, share):
    """Two features per case, each shifted up for the positives; the score is
    their sum."""
    y = (rng.random(size) < share).astype(int)
    x1 = rng.standard_normal(size) + 1.2 * y
    x2 = rng.standard_normal(size) + 0.6 * y
    return y, x1, x2


def test_ch04_sampling_by_outcome_keeps_the_transfer_by_features_breaks_it():
    rng = np.random.default_rng(RNG_SEED + 3)
    y, x1, x2 = draw_population(rng, 600_000, 0.05)
    s = x1 + x2
    truth = auk_score(y, s)
    # by outcome: 5,000 positives and 15,000 negatives drawn from the population
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    idx = np.concatenate([rng.choice(pos, 5000, replace=False),
                          rng.choice(neg, 15000, replace=False)])
    by_outcome = auk_score(y[idx], s[idx], prevalence=y.mean())
    # by features: only cases with x1 > 0.5 are referred (and tested)
    ref = np.flatnonzero(x1 > 0.5)
    by_features = auk_score(y[ref], s[ref], prevalence=y.mean())
    # Monte Carlo error of each AUK here is a few thousandths
    assert abs(by_outcome - truth) < 0.01
    assert truth - by_features > 0.015
