"""Chapter 3's general claims about kappa in ROC space, each checked by a random
search over (t, f, p).  One test per claim."""

import numpy as np

from auklib import kappa_from_rates, tpr_from_kappa
from aukbook.plotting import iso_kappa_tpr

RNG_SEED = 3031


def random_points(rng, size):
    t, f = rng.random((2, size))
    p = rng.random(size) * 0.998 + 0.001
    return t, f, p


def test_ch03_kappa_rises_with_t_and_falls_with_f_everywhere():
    rng = np.random.default_rng(RNG_SEED)
    t, f, p = random_points(rng, 200_000)
    step = 1e-3 + rng.random(t.size) * 0.1
    up, right = np.minimum(t + step, 1), np.minimum(f + step, 1)
    moved_t, moved_f = up > t, right > f
    k = kappa_from_rates(tpr=t, fpr=f, prevalence=p)
    assert np.all(kappa_from_rates(tpr=up, fpr=f, prevalence=p)[moved_t] > k[moved_t])
    k_right = kappa_from_rates(tpr=t, fpr=right, prevalence=p)
    assert np.all(k_right[moved_f] < k[moved_f])


def test_ch03_room_above_chance_is_between_p_and_1_minus_p():
    rng = np.random.default_rng(RNG_SEED + 1)
    t, f, p = random_points(rng, 200_000)
    room = p + (1 - 2 * p) * (p * t + (1 - p) * f)
    assert np.all(room >= np.minimum(p, 1 - p) - 1e-15)
    assert np.all(room <= np.maximum(p, 1 - p) + 1e-15)
    assert np.all(room > 0)


def test_ch03_lowest_kappa_in_roc_space_is_at_the_corner_1_0():
    rng = np.random.default_rng(RNG_SEED + 2)
    t, f, p = random_points(rng, 200_000)
    worst = -2 * p * (1 - p) / (1 - 2 * p * (1 - p))
    assert np.allclose(kappa_from_rates(tpr=0.0, fpr=1.0, prevalence=p), worst)
    assert np.all(kappa_from_rates(tpr=t, fpr=f, prevalence=p) >= worst - 1e-12)
    assert np.all(worst[np.abs(p - 0.5) > 1e-6] > -1)


def test_ch03_every_iso_kappa_line_passes_through_the_pivot():
    rng = np.random.default_rng(RNG_SEED + 3)
    kappa = rng.random(100_000) * 1.5 - 0.5
    p = rng.random(kappa.size) * 0.998 + 0.001
    p = p[np.abs(1 - 2 * p) > 1e-3]
    kappa = kappa[: p.size]
    pivot = -p / (1 - 2 * p)
    # the line of the chapter, extended beyond ROC space (auklib's stops at [0, 1])
    at_pivot = iso_kappa_tpr(kappa, pivot, p)
    assert np.allclose(at_pivot, pivot, atol=1e-9, rtol=1e-9)
    inside = rng.random(p.size)  # and that line is auklib's inside ROC space
    assert np.allclose(
        iso_kappa_tpr(kappa, inside, p), tpr_from_kappa(kappa, inside, p)
    )


def test_ch03_iso_kappa_slope_grows_with_kappa_when_p_below_half():
    rng = np.random.default_rng(RNG_SEED + 4)
    p = rng.random(100_000) * 0.499 + 0.0005
    k1, k2 = np.sort(rng.random((2, p.size)), axis=0)  # 0 <= k1 <= k2 <= 1

    def slope(k):
        numerator = (1 - p) * (2 * p + k * (1 - 2 * p))
        return numerator / (p * (2 * (1 - p) - k * (1 - 2 * p)))

    apart = k2 - k1 > 1e-9
    assert np.all(slope(k2)[apart] > slope(k1)[apart])
    # and the line's slope is what auklib's line has
    rise = tpr_from_kappa(k1, 1.0, p) - tpr_from_kappa(k1, 0.0, p)
    assert np.allclose(rise, slope(k1))


def test_ch03_same_height_kappa_falls_with_f_iff_p_below_half():
    rng = np.random.default_rng(RNG_SEED + 5)
    p = rng.random(100_000) * 0.998 + 0.001
    delta = rng.random(p.size) * 0.9 + 0.01  # height above the diagonal
    f1 = rng.random(p.size) * (1 - delta)
    f2 = f1 + rng.random(p.size) * (1 - delta - f1)
    k1 = kappa_from_rates(tpr=f1 + delta, fpr=f1, prevalence=p)
    k2 = kappa_from_rates(tpr=f2 + delta, fpr=f2, prevalence=p)
    clear = (f2 - f1 > 1e-6) & (np.abs(1 - 2 * p) > 1e-3)
    assert np.array_equal((k2 < k1)[clear], (p < 0.5)[clear])


def test_ch03_kappa_is_monotone_along_every_straight_roc_segment():
    rng = np.random.default_rng(RNG_SEED + 6)
    lam = np.linspace(0, 1, 101)
    for _ in range(3000):
        f0, t0 = rng.random(2)
        f1, t1 = f0 + rng.random() * (1 - f0), t0 + rng.random() * (1 - t0)
        p = rng.random() * 0.998 + 0.001
        k = kappa_from_rates(
            tpr=t0 + lam * (t1 - t0), fpr=f0 + lam * (f1 - f0), prevalence=p
        )
        steps = np.diff(k)
        assert np.all(steps >= -1e-13) or np.all(steps <= 1e-13)
