"""auk_score(prevalence=...): the test set's ROC curve carried to another share of
positives, checked against independent oracles (reweighting the test cases,
mpmath quadrature along the ROC polygon, a large sample drawn at the target share)
and for clear errors on bad input."""

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_curve

from auklib import auk_score
from oracles import mp_exact_auk


def sample(rng, n, share, sigma=1.0, d=1.0, decimals=None):
    y = (rng.random(n) < share).astype(int)
    s = np.where(y == 1, d + sigma * rng.standard_normal(n), rng.standard_normal(n))
    if decimals is not None:
        s = np.round(s, decimals)  # ties: long ROC segments
    return y, s


def reweighted(y, p):
    """Weights that give the positives a total share p, the negatives 1 - p."""
    y = np.asarray(y)
    return np.where(y == 1, p / np.sum(y == 1), (1 - p) / np.sum(y == 0))


@pytest.mark.parametrize("method", ["exact", "trapezoid"])
def test_prevalence_equals_reweighting_the_test_cases(method):
    rng = np.random.default_rng(20261123)
    for _ in range(60):
        y, s = sample(rng, int(rng.integers(8, 300)), rng.uniform(0.1, 0.9),
                      sigma=rng.uniform(0.3, 3), decimals=int(rng.integers(0, 3)))
        if y.min() == y.max():
            continue
        p = float(rng.uniform(0.001, 0.999))
        moved = auk_score(y, s, prevalence=p, method=method)
        oracle = auk_score(y, s, sample_weight=reweighted(y, p), method=method)
        assert abs(moved - oracle) < 1e-10, (moved, oracle, p)


def test_prevalence_equals_mpmath_quadrature_on_the_roc_polygon():
    rng = np.random.default_rng(7)
    for _ in range(15):
        y, s = sample(rng, 60, 0.3, decimals=1)
        if y.min() == y.max():
            continue
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
        p = float(rng.choice([0.003, 0.05, 0.5, 0.77, 0.99]))
        oracle = float(mp_exact_auk(fpr, tpr, p))
        assert abs(auk_score(y, s, prevalence=p) - oracle) < 1e-11


def test_prevalence_with_weights_moves_only_the_share():
    rng = np.random.default_rng(3)
    y, s = sample(rng, 200, 0.4, decimals=1)
    w = rng.uniform(0.2, 3, 200)
    fpr, tpr, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert abs(auk_score(y, s, sample_weight=w, prevalence=0.08)
               - float(mp_exact_auk(fpr, tpr, 0.08))) < 1e-11


def test_prevalence_at_the_test_share_changes_nothing():
    rng = np.random.default_rng(11)
    y, s = sample(rng, 500, 0.2)
    assert abs(auk_score(y, s, prevalence=float(np.mean(y))) - auk_score(y, s)) < 1e-13


def test_prevalence_agrees_with_a_large_sample_drawn_at_the_target_share():
    """Test set at p = 0.5; deployment sample of 400,000 cases at p = 0.05 from
    the same class-conditional score distributions."""
    rng = np.random.default_rng(2026)
    y, s = sample(rng, 100_000, 0.5, sigma=1.5, d=1.2)
    moved = auk_score(y, s, prevalence=0.05)
    y_big, s_big = sample(rng, 400_000, 0.05, sigma=1.5, d=1.2)
    direct = auk_score(y_big, s_big)
    # the binormal curve's AUK at p = 0.05, by quadrature (neither sample)
    f = np.linspace(0, 1, 400_001)
    t = norm.sf((norm.isf(f) - 1.2) / 1.5)
    k = 2 * 0.05 * 0.95 * (t - f) / (0.05 + 0.9 * f + 0.05 * 0.9 * (t - f))
    curve = float(np.sum(np.diff(f) * (k[1:] + k[:-1]) / 2))
    # Monte Carlo error of these AUKs is below 0.002 at these sizes
    assert abs(moved - curve) < 0.006
    assert abs(direct - curve) < 0.006
    assert abs(moved - direct) < 0.008


@pytest.mark.parametrize("bad", [0, 1, -0.2, 1.5, np.nan, np.inf])
def test_prevalence_out_of_range_is_a_value_error_naming_it(bad):
    with pytest.raises(ValueError, match="prevalence"):
        auk_score([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6], prevalence=bad)


@pytest.mark.parametrize("bad", ["0.1", [0.1, 0.2], 0.1 + 0j, True])
def test_prevalence_of_wrong_type_is_a_type_error_naming_it(bad):
    with pytest.raises((TypeError, ValueError), match="prevalence"):
        auk_score([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6], prevalence=bad)


def test_prevalence_is_validated_before_the_labels():
    with pytest.raises(ValueError, match="prevalence"):
        auk_score([0, 0, 0], [0.1, 0.2, 0.3], prevalence=2.0)


def test_prevalence_with_a_single_class_is_nan_with_a_warning():
    with pytest.warns(Warning, match="one class"):
        assert np.isnan(auk_score([0, 0, 0], [0.1, 0.2, 0.3], prevalence=0.1))
