"""The ROC convex hull: its start, collinear vertices, agreement with Qhull, input order."""

import numpy as np
import pytest
from sklearn.metrics import roc_curve

from auklib import roc_convex_hull
from oracles import unit_shift_scores as scores


# ---- ROC convex hull
def test_hull_starts_at_origin_with_vertical_edge():
    f, t = roc_convex_hull([0, 0, 0.5], [0.3, 0.6, 0.9])
    np.testing.assert_array_equal(f, [0, 0, 0.5, 1])
    np.testing.assert_array_equal(t, [0, 0.6, 0.9, 1])
    f, t = roc_convex_hull([0.0], [1.0])
    np.testing.assert_array_equal(f, [0, 0, 1])
    np.testing.assert_array_equal(t, [0, 1, 1])
    f, t = roc_convex_hull([], [])
    np.testing.assert_array_equal(f, [0, 1])

@pytest.mark.parametrize("k", [3, 7, 10, 100])
def test_hull_drops_collinear_vertices_despite_rounding(k):
    # points on the line t = 3f that are collinear only up to rounding
    x = np.arange(1, k) / (3 * k)
    f, t = roc_convex_hull(x, 3 * x)
    np.testing.assert_allclose(f, [0, x[-1], 1])
    np.testing.assert_allclose(t, [0, 3 * x[-1], 1])
    # and on a diagonal edge: no point of (0,0)-(1,1) is kept
    f, t = roc_convex_hull(x, x)
    np.testing.assert_array_equal(f, [0, 1])

def _hull_reference(f, t):
    """scipy's Qhull on the points with the two corners, upper part only."""
    from scipy.spatial import ConvexHull

    pts = np.unique(np.column_stack([np.r_[0, f, 1, 1], np.r_[0, t, 1, 0]]), axis=0)
    hull = pts[ConvexHull(pts).vertices]
    upper = hull[(hull[:, 1] > 0) | (hull[:, 0] == 0)]
    upper = upper[~((upper[:, 0] == 1) & (upper[:, 1] < 1))]
    upper = upper[np.lexsort((upper[:, 1], upper[:, 0]))]
    # drop vertices under the chord (0,0)-(1,1) side of the hull
    return upper

@pytest.mark.parametrize("seed", range(6))
def test_hull_matches_qhull(seed):
    rng = np.random.default_rng(seed)
    if seed % 2:
        y, s = scores(3000, 0.2, seed, decimals=seed)
        f, t, _ = roc_curve(y, s, drop_intermediate=False)
    else:
        f, t = rng.random(5000), rng.random(5000) ** 0.3
    hf, ht = roc_convex_hull(f, t)
    ref = _hull_reference(f, t)
    ref = ref[np.r_[True, ref[1:, 1] > 0] | (ref[:, 0] > 0)]
    got = np.column_stack([hf, ht])
    got = got[(got[:, 0] > 0) | (got[:, 1] > 0)]
    ref = ref[(ref[:, 0] > 0) | (ref[:, 1] > 0)]
    np.testing.assert_allclose(got, ref, atol=1e-12)
    # every point lies under the hull
    assert np.all(np.interp(f, hf[1:] if hf[1] == 0 else hf, ht[1:] if hf[1] == 0 else ht)
                  >= t - 1e-12)

def test_hull_of_unsorted_input_equals_sorted():
    rng = np.random.default_rng(9)
    f, t = rng.random(2000), rng.random(2000)
    order = np.argsort(f)
    a = roc_convex_hull(f, t)
    b = roc_convex_hull(f[order], t[order])
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
