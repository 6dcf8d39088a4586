"""Chapter 5's general statements about the kappa-optimal threshold, checked by
random search over ROC curves (concave and not, better and worse than chance)
and class shares.

Kappa along one straight ROC segment is a ratio of two linear functions of the
position on the segment, hence monotone, so the maximum of kappa along a
polyline ROC curve is at one of its vertices (checked below too); the other
tests therefore compare vertices.
"""

import numpy as np
import pytest

from auklib import kappa_from_rates, roc_convex_hull
from aukbook.plotting import iso_kappa_tpr
from aukbook.searches import random_roc_curve  # the family the chapter searches too

N_CURVES = 1000


def first_argmax(values, tol=1e-12):
    "Index of the first value within tol of the maximum (ties go left)."
    return int(np.flatnonzero(values >= values.max() - tol)[0])


def kappa_opt_f(f, t, p):
    return f[first_argmax(kappa_from_rates(tpr=t, fpr=f, prevalence=p))]


@pytest.fixture(scope="module")
def curves():
    rng = np.random.default_rng(2024)
    return [random_roc_curve(rng) for _ in range(N_CURVES)]


def test_ch05_kappa_max_along_a_polyline_is_at_a_vertex(curves):
    rng = np.random.default_rng(1)
    u = np.linspace(0, 1, 201)[:, None]
    for f, t in curves[:300]:
        p = rng.uniform(0.01, 0.99)
        fs = (f[:-1] + u * np.diff(f)).ravel()
        ts = (t[:-1] + u * np.diff(t)).ravel()
        dense = kappa_from_rates(tpr=ts, fpr=fs, prevalence=p).max()
        assert dense <= kappa_from_rates(tpr=t, fpr=f, prevalence=p).max() + 1e-12


def test_ch05_kappa_optimum_is_a_vertex_of_the_convex_hull(curves):
    """The global optimum of any ROC curve lies on its convex hull."""
    rng = np.random.default_rng(2)
    for f, t in curves:
        hf, ht = roc_convex_hull(f, t)
        for p in rng.uniform(0.01, 0.99, 3):
            k_curve = kappa_from_rates(tpr=t, fpr=f, prevalence=p).max()
            k_hull = kappa_from_rates(tpr=ht, fpr=hf, prevalence=p).max()
            # the hull's best vertex is a point of the curve, so equal maxima
            assert abs(k_curve - k_hull) < 1e-12


def test_ch05_optimum_moves_left_as_positives_get_rarer_whatever_the_curve(
    curves,
):
    """As p falls below 1/2 the pivot nears the origin and the kappa-optimal
    f never moves right, for concave and non-concave curves alike."""
    rng = np.random.default_rng(3)
    n_moved = 0
    for f, t in curves:
        shares = np.sort(rng.uniform(0.001, 0.4999, 12))[::-1]  # p falling
        f_opt = np.array([kappa_opt_f(f, t, p) for p in shares])
        assert np.all(np.diff(f_opt) <= 1e-12)
        n_moved += f_opt[-1] < f_opt[0]
        # the mirror statement for majority positives: it moves right as p rises
        up = np.sort(rng.uniform(0.5001, 0.999, 6))
        f_up = [kappa_opt_f(f, t, p) for p in up]
        assert np.all(np.diff(f_up) >= -1e-12)
    assert n_moved > 0.3 * len(curves)  # the search does exercise movement


def test_ch05_on_a_dented_curve_a_point_meeting_26_need_not_be_the_optimum():
    """Concavity matters only for the local reading of (26): on a dented curve
    kappa can have a local maximum that is not the global one."""
    f = np.array([0, 0.05, 0.5, 0.55, 1])
    t = np.array([0, 0.5, 0.52, 0.95, 1])  # slope 10, 0.04, 8.6, 0.11
    k = kappa_from_rates(tpr=t, fpr=f, prevalence=0.1)
    assert k[3] > max(k[2], k[4])  # a local maximum at f = 0.55
    assert k[1] > k[3]  # but the global one is at f = 0.05


def test_ch05_kappa_optimum_never_right_of_youden_optimum_under_skew(curves):
    rng = np.random.default_rng(4)
    strictly = 0
    for f, t in curves:
        f_youden = f[first_argmax(t - f)]
        for p in rng.uniform(0.001, 0.4999, 3):
            f_kappa = kappa_opt_f(f, t, p)
            assert f_kappa <= f_youden + 1e-12
            strictly += f_kappa < f_youden
        for p in rng.uniform(0.5001, 0.999, 2):
            # ties now go right: the largest f among maximisers
            k = kappa_from_rates(tpr=t, fpr=f, prevalence=p)
            f_kappa = f[np.flatnonzero(k >= k.max() - 1e-12)[-1]]
            g = t - f
            assert f_kappa >= f[np.flatnonzero(g >= g.max() - 1e-12)[-1]] - 1e-12
    assert strictly > 0


def test_ch05_steepest_spoke_from_the_pivot_has_the_highest_kappa():
    rng = np.random.default_rng(5)
    for _ in range(3000):
        p = rng.uniform(0.001, 0.4999)
        f, t = rng.random(20), rng.random(20)
        pivot = -p / (1 - 2 * p)
        slope = (t - pivot) / (f - pivot)
        k = kappa_from_rates(tpr=t, fpr=f, prevalence=p)
        assert np.all(np.diff(k[np.argsort(slope)]) >= -1e-12)


def test_ch05_iso_kappa_lines_steepen_with_kappa_and_meet_at_the_pivot():
    rng = np.random.default_rng(6)
    p = rng.uniform(0.001, 0.4999, 5000)
    k1, k2 = np.sort(rng.uniform(-1, 1, (2, 5000)), axis=0)
    pivot = -p / (1 - 2 * p)
    for k in (k1, k2):
        assert np.allclose(iso_kappa_tpr(k, pivot, p), pivot, atol=1e-9)
    slope1 = iso_kappa_tpr(k1, 1.0, p) - iso_kappa_tpr(k1, 0.0, p)
    slope2 = iso_kappa_tpr(k2, 1.0, p) - iso_kappa_tpr(k2, 0.0, p)
    assert np.all(slope2 >= slope1 - 1e-12)
    # the pivot is below and left of ROC space and nears the origin as p falls
    assert np.all(pivot < 0)
    order = np.argsort(p)
    assert np.all(np.diff(pivot[order]) <= 0)
    # for p > 1/2 it lies above and right of ROC space
    q = rng.uniform(0.5001, 0.999, 5000)
    assert np.all(-q / (1 - 2 * q) > 1)


def test_ch05_kappa_rises_with_t_at_fixed_f():
    """Used for 'no ROC point at f = 0.60 reaches kappa = 0.328 at p = 0.11':
    at fixed f kappa is largest at t = 1."""
    rng = np.random.default_rng(7)
    f = rng.random(20000)
    t1, t2 = np.sort(rng.random((2, 20000)), axis=0)
    p = rng.uniform(0.001, 0.999, 20000)
    assert np.all(kappa_from_rates(tpr=t2, fpr=f, prevalence=p) >= kappa_from_rates(tpr=t1, fpr=f, prevalence=p) - 1e-12)
    assert kappa_from_rates(tpr=1.0, fpr=0.60, prevalence=0.11) < 0.328


def test_ch05_kappa_and_youden_rank_points_alike_only_for_balanced_classes():
    rng = np.random.default_rng(8)
    f, t = rng.random((2, 500))
    order = np.argsort(t - f)
    assert np.all(np.diff(kappa_from_rates(tpr=t, fpr=f, prevalence=0.5)[order]) >= -1e-12)
    for p in (0.01, 0.2, 0.45, 0.55, 0.9):
        assert np.any(np.diff(kappa_from_rates(tpr=t, fpr=f, prevalence=p)[order]) < -1e-6)
