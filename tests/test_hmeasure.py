"""h_measure: the hmeasure package, direct integration, invariance, bad input."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from auklib import UndefinedMetricWarning, h_measure
from auklib import roc_convex_hull

hmeasure = pytest.importorskip("hmeasure")


def probability_scores(seed, n, ties=False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.03, 0.7)).astype(int)
    y[:2] = [0, 1]
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + rng.uniform(-1, 3) * y)))
    if ties:
        s = np.round(s, 1)
    return y, s


def h_by_quadrature(y, s, severity_ratio=None, w=None):
    """The definition, integrated numerically: the least loss over every
    threshold (no hull), averaged over the Beta cost density with quad."""
    y = np.asarray(y, dtype=bool)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    pi1 = w[y].sum() / w.sum()
    pi0 = 1 - pi1
    sr = pi1 / pi0 if severity_ratio is None else severity_ratio
    u = stats.beta(2, 1 + 1 / sr).pdf
    thr = np.concatenate(([np.inf], np.unique(s)))
    f = np.array([w[~y & (s >= t)].sum() for t in thr]) / w[~y].sum()
    t = np.array([w[y & (s >= t)].sum() for t in thr]) / w[y].sum()

    def least_loss(c):
        return np.min(c * pi0 * f + (1 - c) * pi1 * (1 - t))

    # the kinks of the least loss: costs where two thresholds tie
    with np.errstate(divide="ignore", invalid="ignore"):
        kinks = pi1 * np.diff(t) / (pi1 * np.diff(t) + pi0 * np.diff(f))
    kinks = np.unique(kinks[np.isfinite(kinks) & (kinks > 0) & (kinks < 1)])
    opts = dict(epsabs=1e-12, epsrel=1e-12, limit=500)
    loss = integrate.quad(lambda c: least_loss(c) * u(c), 0, 1, points=kinks, **opts)[0]
    lmax = integrate.quad(
        lambda c: min(c * pi0, (1 - c) * pi1) * u(c), 0, 1, points=[pi1], **opts
    )[0]
    return 1 - loss / lmax


pytestmark = pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")


# ------------------------------------------------------- the hmeasure package
@pytest.mark.parametrize("seed", range(40))
def test_matches_hmeasure_package(seed):
    y, s = probability_scores(seed, 20 + 37 * seed, ties=seed % 3 == 0)
    sr = None if seed % 2 else [0.1, 0.5, 1.0, 3.0, 10.0][seed % 5]
    expected = hmeasure.h_score(y, s, severity_ratio=sr)
    assert h_measure(y, s, severity_ratio=sr) == pytest.approx(expected, abs=1e-9)


def test_matches_package_on_its_own_example():
    # the example of the package's docstring (seed 66)
    rng = np.random.default_rng(66)
    y = rng.integers(low=0, high=2, size=10)
    s = rng.random(10)
    for sr in (None, 0.7, 0.1, 0.5):
        assert h_measure(y, s, severity_ratio=sr) == pytest.approx(
            hmeasure.h_score(y, s, severity_ratio=sr), abs=1e-12
        )


def test_package_refuses_decision_functions_but_we_do_not():
    y, s = probability_scores(5, 300)
    z = np.log(s / (1 - s)) * 3.0 + 10.0  # a decision function
    with pytest.raises(TypeError):
        hmeasure.h_score(y, z)
    assert h_measure(y, z) == pytest.approx(hmeasure.h_score(y, s), abs=1e-12)


# ---------------------------------------------------------------- definition
@pytest.mark.parametrize("seed", range(8))
def test_matches_numerical_integration_of_definition(seed):
    y, s = probability_scores(100 + seed, 25, ties=seed % 2 == 0)
    sr = None if seed < 4 else [0.3, 1.0, 2.0, 7.0][seed - 4]
    assert h_measure(y, s, severity_ratio=sr) == pytest.approx(
        h_by_quadrature(y, s, sr), abs=1e-9
    )


def test_hand_worked_example():
    # hull (0,0), (0,1/2), (1/2,1), (1,1); Beta(2,2); L = Lmax / 2 (see docstring)
    assert h_measure([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == pytest.approx(
        0.5, abs=1e-15
    )


def test_perfect_random_and_reversed():
    y = np.array([0, 0, 0, 1, 1])
    assert h_measure(y, [1, 2, 3, 4, 5]) == pytest.approx(1.0, abs=1e-15)
    assert h_measure(y, np.zeros(5)) == pytest.approx(0.0, abs=1e-15)
    # perfectly wrong: the hull is the diagonal, no better than trivial
    assert h_measure(y, [5, 4, 3, 2, 1]) == pytest.approx(0.0, abs=1e-15)


# ---------------------------------------------------------------- invariance
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    scale=st.floats(1e-3, 1e3),
    shift=st.floats(-1e4, 1e4),
    kind=st.sampled_from(["affine", "exp", "cube", "tan"]),
)
def test_invariant_under_monotone_rescaling(seed, scale, shift, kind):
    y, s = probability_scores(seed, 200, ties=seed % 2 == 0)
    base = h_measure(y, s)
    z = {
        "affine": s * scale + shift,
        "exp": np.exp(5 * s),
        "cube": (s - 0.5) ** 3 * scale,
        "tan": np.tan((s - 0.5) * 3.0),
    }[kind]
    if len(np.unique(z)) != len(np.unique(s)):
        return  # the map merged scores in floating point: not order-preserving
    assert h_measure(y, z) == pytest.approx(base, abs=1e-12)


# ------------------------------------------------------------------- weights
def test_integer_weights_are_repetitions():
    y, s = probability_scores(7, 150, ties=True)
    w = np.random.default_rng(7).integers(0, 4, 150)
    w[:2] = 1
    rep_y, rep_s = np.repeat(y, w), np.repeat(s, w)
    for sr in (None, 2.0):
        assert h_measure(y, s, sample_weight=w, severity_ratio=sr) == pytest.approx(
            h_measure(rep_y, rep_s, severity_ratio=sr), abs=1e-12
        )


def test_real_weights_match_quadrature():
    y, s = probability_scores(8, 30, ties=True)
    w = np.random.default_rng(8).random(30) + 0.1
    assert h_measure(y, s, sample_weight=w) == pytest.approx(
        h_by_quadrature(y, s, None, w), abs=1e-9
    )


def test_labels_and_pos_label():
    y, s = probability_scores(9, 100)
    h = h_measure(y, s)
    assert h_measure(np.where(y == 1, "bad", "good"), s, pos_label="bad") == h
    assert h_measure(2 * y - 1, s) == h
    assert h_measure(y.astype(bool), s) == h
    assert h_measure(list(y), list(s)) == h


# ---------------------------------------------------------------------- hull
def assert_is_upper_hull(x, y, hull):
    """The vertices are points of the curve, from the first to the last, the
    polyline is strictly concave, and no point lies above it."""
    x, y = x / x[-1], y / y[-1]  # the hull h_measure uses is taken in rates
    hx, hy = hull
    points = set(zip(x.tolist(), y.tolist()))
    assert all((a, b) in points for a, b in zip(hx.tolist(), hy.tolist()))
    assert (hx[0], hy[0]) == (x[0], y[0]) and (hx[-1], hy[-1]) == (x[-1], y[-1])
    for j in range(1, len(hx) - 1):
        cross = (hx[j] - hx[j - 1]) * (hy[j + 1] - hy[j - 1]) - (hy[j] - hy[j - 1]) * (
            hx[j + 1] - hx[j - 1]
        )
        assert cross < 0
    start = 1 if len(hx) > 1 and hx[1] == hx[0] else 0  # vertical first edge
    top = np.interp(x, hx[start:], hy[start:])
    assert np.all(y <= top + 1e-9)


def hull_in_rates(x, y):
    return roc_convex_hull(x / x[-1], y / y[-1])


def test_upper_hull_of_roc_curves():
    from auklib.curves import _binary_clf_counts

    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(2, 60))
        y = rng.random(n) < 0.4
        y[:2] = [False, True]
        s = rng.integers(0, 8, n) + 2 * y * rng.random()
        fps, tps, _ = _binary_clf_counts(y, s)
        assert_is_upper_hull(fps, tps, hull_in_rates(fps, tps))


def test_upper_hull_falls_back_to_the_chain_after_many_passes():
    # a concave arc whose points each stop being vertices only once their
    # right-hand neighbour is gone: one point per vectorised pass, so the
    # stack-based chain has to finish the job
    x = np.arange(201, dtype=np.int64)
    y = x * (400 - x)
    x = np.append(x, 201)
    y = np.append(y, 10**9)
    hx, hy = hull_in_rates(x, y)
    np.testing.assert_array_equal(np.c_[hx, hy], [[0, 0], [1, 1]])
    y[-1] = y[-2] + 1  # now the arc is the hull
    assert_is_upper_hull(x, y, hull_in_rates(x, y))


# ---------------------------------------------------------------- bad input
def test_single_class_gives_nan_and_warning():
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(h_measure([0, 0, 0], [0.1, 0.2, 0.3]))
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert np.isnan(h_measure([1, 1], [0.1, 0.2]))


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        (([0, 1], [0.1, np.nan]), {}, ValueError, "y_score contains NaN"),
        (([0, 1], [0.1, np.inf]), {}, ValueError, "y_score contains infinite"),
        (([0, 1, 2], [0.1, 0.2, 0.3]), {}, ValueError, "y_true must be binary"),
        (([0, 1], [0.1]), {}, ValueError, "different numbers of samples"),
        (([0, 1], "ab"), {}, TypeError, "y_score must be an array"),
        (([0, 1], [0.1, 0.2]), {"severity_ratio": 0}, ValueError, "positive finite"),
        (([0, 1], [0.1, 0.2]), {"severity_ratio": -0.7}, ValueError, "positive finite"),
        (([0, 1], [0.1, 0.2]), {"severity_ratio": np.inf}, ValueError, "positive"),
        (([0, 1], [0.1, 0.2]), {"severity_ratio": "1"}, TypeError, "severity_ratio"),
        (([0, 1], [0.1, 0.2]), {"severity_ratio": [1, 2]}, TypeError, "severity_ratio"),
        (([0, 1], [0.1, 0.2]), {"sample_weight": [1, -1]}, ValueError, "negative"),
        (([0, 1], [0.1, 0.2]), {"pos_label": 3}, ValueError, "pos_label=3"),
        ((["a", "b"], [0.1, 0.2]), {}, ValueError, "pos_label"),
        (([], []), {}, ValueError, "empty"),
    ],
)
def test_bad_input(args, kwargs, exc, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(exc, match=match):
            h_measure(*args, **kwargs)


# -- h_measure ---------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["constant", "reversed", "one-value-per-class-reversed"])
def test_h_measure_of_a_useless_scorer_is_zero_not_negative(kind):
    y = np.array([0, 1] * 20 + [0] * 7)
    s = {
        "constant": np.full(y.shape, 0.3),
        "reversed": -np.arange(y.shape[0]) * (y * 2 - 1) - 100 * y,
        "one-value-per-class-reversed": np.where(y == 1, 0.1, 0.9),
    }[kind]
    assert h_measure(y, s) == 0.0

def test_h_measure_is_never_below_zero_over_random_scorers():
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(2, 40))
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = rng.integers(0, 4, n) - rng.uniform(0, 2) * y
        h = h_measure(y, s, severity_ratio=float(rng.uniform(0.1, 10)))
        assert 0.0 <= h <= 1.0
