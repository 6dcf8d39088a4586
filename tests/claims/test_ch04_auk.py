"""Chapter 4's general claims about the AUK and the trapezoid rule, each
checked by a random search over ROC segments, curves and class shares.  One
test per claim."""

import numpy as np
from numpy.polynomial.legendre import leggauss

from auklib import auk_from_roc, kappa_from_rates, tpr_from_kappa

RNG_SEED = 4044
NODES, WEIGHTS = leggauss(60)


def kappa_integral(f0, t0, f1, t1, p, pieces=8):
    """Kappa integrated over f along the segment, by Gauss-Legendre quadrature
    (independent of auklib's closed form)."""
    total = 0.0
    edges = np.linspace(0, 1, pieces + 1)
    for a, b in zip(edges[:-1], edges[1:]):
        lam = a + (b - a) * (NODES + 1) / 2
        k = kappa_from_rates(
            tpr=t0 + lam * (t1 - t0), fpr=f0 + lam * (f1 - f0), prevalence=p
        )
        total += (b - a) / 2 * np.sum(WEIGHTS * k)
    return total * (f1 - f0)


def random_segment(rng):
    f0, t0 = rng.random(2)
    f1 = f0 + (rng.random() * 0.999 + 0.001) * (1 - f0)
    t1 = t0 + rng.random() * (1 - t0)
    p = rng.random() * 0.98 + 0.01
    return f0, t0, f1, t1, p


def test_ch04_trapezoid_understates_rising_and_overstates_falling_segments():
    """p < 1/2: kappa above its chord where it rises, below where it falls;
    p > 1/2 the reverse."""
    rng = np.random.default_rng(RNG_SEED)
    seen = set()
    for _ in range(2500):
        f0, t0, f1, t1, p = random_segment(rng)
        k0 = kappa_from_rates(tpr=t0, fpr=f0, prevalence=p)
        k1 = kappa_from_rates(tpr=t1, fpr=f1, prevalence=p)
        exact = kappa_integral(f0, t0, f1, t1, p)
        trapezoid = (f1 - f0) * (k0 + k1) / 2
        assert abs(exact - auk_from_roc([f0, f1], [t0, t1], p, method="exact")) < 1e-10
        assert abs(
            trapezoid - auk_from_roc([f0, f1], [t0, t1], p, method="trapezoid")
        ) < 1e-12
        gap = exact - trapezoid
        if abs(gap) < 1e-11 or abs(k1 - k0) < 1e-9 or abs(p - 0.5) < 1e-3:
            continue
        predicted = np.sign(1 - 2 * p) * np.sign(k1 - k0)
        assert np.sign(gap) == predicted, (f0, t0, f1, t1, p, gap)
        seen.add((p < 0.5, k1 > k0))
    assert len(seen) == 4  # all four cases were met


def test_ch04_exact_equals_trapezoid_at_balance_and_on_iso_kappa_segments():
    rng = np.random.default_rng(RNG_SEED + 1)
    for _ in range(2000):
        f0, t0, f1, t1, p = random_segment(rng)
        exact = auk_from_roc([f0, f1], [t0, t1], 0.5, method="exact")
        trap = auk_from_roc([f0, f1], [t0, t1], 0.5, method="trapezoid")
        assert abs(exact - trap) < 1e-12
        # a segment on an iso-kappa line: kappa constant, the chord is exact
        kappa = rng.random() * 0.9
        ta, tb = tpr_from_kappa(kappa, f0, p), tpr_from_kappa(kappa, f1, p)
        if 0 <= ta <= tb <= 1:
            exact = auk_from_roc([f0, f1], [ta, tb], p, method="exact")
            trap = auk_from_roc([f0, f1], [ta, tb], p, method="trapezoid")
            assert abs(exact - trap) < 1e-10


def auk_max(p):
    return 2 * p * (2 * p - 1 - np.log(2 * p)) / (1 - 2 * p) ** 2


def test_ch04_no_roc_curve_beats_the_perfect_classifiers_auk():
    rng = np.random.default_rng(RNG_SEED + 2)
    for _ in range(2000):
        k = int(rng.integers(1, 8))
        f = np.r_[0, np.sort(rng.random(k)), 1]
        t = np.r_[0, np.sort(rng.random(k)), 1]
        p = rng.random() * 0.98 + 0.01
        if abs(p - 0.5) < 1e-3:
            continue
        assert auk_from_roc(f, t, p, method="exact") <= auk_max(p) + 1e-12


def test_ch04_auk_is_auc_minus_half_for_balanced_classes():
    rng = np.random.default_rng(RNG_SEED + 3)
    for _ in range(2000):
        k = int(rng.integers(1, 8))
        f = np.r_[0, np.sort(rng.random(k)), 1]
        t = np.r_[0, np.sort(rng.random(k)), 1]
        auc = np.sum(np.diff(f) * (t[1:] + t[:-1]) / 2)
        assert abs(auk_from_roc(f, t, 0.5, method="exact") - (auc - 0.5)) < 1e-12


def test_ch04_crisp_trapezoid_is_half_the_vertex_kappa_wherever_the_vertex():
    rng = np.random.default_rng(RNG_SEED + 4)
    for _ in range(2000):
        f1, t1 = rng.random(2)
        p = rng.random() * 0.98 + 0.01
        trap = auk_from_roc([0, f1, 1], [0, t1, 1], p, method="trapezoid")
        assert abs(trap - kappa_from_rates(tpr=t1, fpr=f1, prevalence=p) / 2) < 1e-12
