import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score, roc_auc_score, roc_curve

import auklib.curves as curves
from auklib import (
    UndefinedMetricWarning,
    auk_from_roc,
    auk_score,
    kappa_curve,
    kappa_from_rates,
    kappa_optimal_point,
    roc_convex_hull,
)
from auklib.curves import _binary_clf_counts
from oracles import brute_force_auk, brute_force_kappa_curve, make_scores, mp_exact_auk


# ---------------------------------------------------------------- kappa_curve
@pytest.mark.parametrize("n_levels", [None, 3])
def test_kappa_curve_matches_cohen_kappa_at_every_threshold(n_levels):
    y, s = make_scores(300, 0.2, 0, n_levels)
    fpr, kappa, thr = kappa_curve(y, s)
    for k, t in zip(kappa[1:], thr[1:]):
        assert k == pytest.approx(cohen_kappa_score(y, (s >= t).astype(int)), abs=1e-12)
    assert kappa[0] == 0 and kappa[-1] == 0
    assert fpr[0] == 0 and fpr[-1] == 1


def test_kappa_curve_grid_matches_roc_curve():
    y, s = make_scores(500, 0.1, 1, 10)
    w = np.random.default_rng(1).random(500)
    for weight in (None, w):
        fpr, _, thr = kappa_curve(y, s, sample_weight=weight)
        fpr_sk, _, thr_sk = roc_curve(y, s, drop_intermediate=False, sample_weight=weight)
        np.testing.assert_allclose(fpr, fpr_sk, atol=1e-12)
        np.testing.assert_array_equal(thr, thr_sk)


def test_kappa_curve_matches_brute_force_with_weights():
    y, s = make_scores(60, 0.3, 2, 4)
    w = np.random.default_rng(2).integers(1, 5, 60).astype(float)
    fpr, kappa, _ = kappa_curve(y, s, sample_weight=w)
    bf_fpr, bf_kappa = brute_force_kappa_curve(y, s, w)
    np.testing.assert_allclose(fpr, bf_fpr, atol=1e-12)
    np.testing.assert_allclose(kappa, bf_kappa, atol=1e-12)


def test_kappa_curve_equals_eq_19_on_roc_points():
    y, s = make_scores(400, 0.15, 3)
    fpr, kappa, _ = kappa_curve(y, s)
    fpr_sk, tpr_sk, _ = roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(kappa, kappa_from_rates(tpr=tpr_sk, fpr=fpr_sk, prevalence=y.mean()), atol=1e-12)


def test_pos_label_and_string_labels():
    y, s = make_scores(200, 0.3, 4)
    names = np.where(y == 1, "bad", "good")
    a = auk_score(y, s)
    assert auk_score(names, s, pos_label="bad") == pytest.approx(a, abs=1e-15)
    # the other class as positive: scores reversed
    assert auk_score(names, -s, pos_label="good") == pytest.approx(
        auk_score(1 - y, -s), abs=1e-15
    )
    assert auk_score(y * 2 - 1, s) == pytest.approx(a, abs=1e-15)
    assert auk_score(y.astype(bool), s) == pytest.approx(a, abs=1e-15)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.int64, np.float64])
def test_score_dtypes_count_in_float64(dtype):
    y, s = make_scores(500, 0.2, 5, 50)
    s_cast = (s * 50).astype(dtype)
    assert auk_score(y, s_cast, method="trapezoid") == pytest.approx(brute_force_auk(y, s_cast.astype(float)), abs=1e-12)


# ---------------------------------------------------------------- auk_score
@pytest.mark.parametrize("seed", range(5))
def test_auk_matches_brute_force(seed):
    y, s = make_scores(80, 0.25, seed, n_levels=[None, 2, 5, None, 1][seed])
    assert auk_score(y, s, method="trapezoid") == pytest.approx(brute_force_auk(y, s), abs=1e-12)


def test_auk_is_auc_minus_half_when_balanced():
    rng = np.random.default_rng(6)
    y = np.repeat([0, 1], 250)
    s = np.round(rng.normal(size=500) + y, 1)
    auc = roc_auc_score(y, s)
    assert auk_score(y, s) == pytest.approx(auc - 0.5, abs=1e-12)
    assert auk_score(y, s, method="exact") == pytest.approx(auc - 0.5, abs=1e-12)


def test_exact_equals_trapezoid_without_ties_in_the_limit():
    # with all distinct scores every ROC segment is horizontal or vertical;
    # kappa is still non-linear along horizontal ones, but the difference
    # shrinks as n grows
    diffs = []
    for n in (100, 1000, 10000):
        y, s = make_scores(n, 0.1, 7)
        diffs.append(abs(auk_score(y, s, method="trapezoid") - auk_score(y, s, method="exact")))
    assert diffs[2] < diffs[1] < diffs[0]


@pytest.mark.parametrize("p", [0.5, 0.5 + 1e-13, 0.5 - 1e-9, 0.5 + 1e-6, 0.499, 0.3, 0.07, 1e-3, 1e-5])
def test_exact_against_mpmath(p):
    rng = np.random.default_rng(8)
    f = np.concatenate(([0.0], np.sort(rng.random(12)), [1.0]))
    t = np.concatenate(([0.0], np.sort(rng.random(12)), [1.0]))
    f[3] = f[4]  # a vertical segment
    t[6] = t[7]  # a horizontal one
    got = auk_from_roc(f, t, p, method="exact")
    want = mp_exact_auk(f, t, p)
    assert abs(got - float(want)) <= 1e-12 * abs(float(want))


def test_exact_continuous_in_p_across_half():
    f = np.array([0, 0.1, 0.4, 1.0])
    t = np.array([0, 0.6, 0.9, 1.0])
    vals = [auk_from_roc(f, t, 0.5 + d, method="exact") for d in (-1e-7, -1e-10, 0, 1e-10, 1e-7)]
    assert np.all(np.abs(np.diff(vals)) < 1e-7)


def test_exact_auk_from_scores_against_mpmath_with_ties():
    y, s = make_scores(300, 0.1, 9, n_levels=2)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    want = float(mp_exact_auk(fpr, tpr, y.mean()))
    assert auk_score(y, s, method="exact") == pytest.approx(want, rel=1e-12)
    # with few thresholds the trapezoid is visibly off
    assert abs(auk_score(y, s, method="trapezoid") - want) > 1e-3
    assert auk_score(y, s) == auk_score(y, s, method="exact")  # the default


def test_auk_from_roc_equals_auk_score():
    y, s = make_scores(300, 0.2, 10, 3)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    for method in ("trapezoid", "exact"):
        assert auk_from_roc(fpr, tpr, y.mean(), method=method) == pytest.approx(
            auk_score(y, s, method=method), abs=1e-14
        )


def test_integer_weights_equal_repetition_example():
    y, s = make_scores(50, 0.3, 11, 3)
    w = np.random.default_rng(11).integers(0, 4, 50)
    w[:2] = 1
    rep_y, rep_s = np.repeat(y, w), np.repeat(s, w)
    for method in ("trapezoid", "exact"):
        assert auk_score(y, s, sample_weight=w, method=method) == pytest.approx(
            auk_score(rep_y, rep_s, method=method), abs=1e-12
        )


# ---------------------------------------------------------------- hull, optimum
def test_roc_convex_hull():
    f, t = roc_convex_hull([0.5, 0.1, 0.2, 0.3], [0.9, 0.5, 0.55, 0.6])
    np.testing.assert_allclose(f, [0, 0.1, 0.5, 1])
    np.testing.assert_allclose(t, [0, 0.5, 0.9, 1])
    # a point below the diagonal is never on the hull
    f, t = roc_convex_hull([0.6], [0.2])
    np.testing.assert_allclose(f, [0, 1])


def test_hull_dominates_and_is_concave():
    y, s = make_scores(400, 0.2, 12)
    fpr, tpr, _ = roc_curve(y, s)
    hf, ht = roc_convex_hull(fpr, tpr)
    assert (hf[0], ht[0], hf[-1], ht[-1]) == (0, 0, 1, 1)
    if hf[1] == 0:  # a vertical first edge
        hf, ht = hf[1:], ht[1:]
    assert np.all(np.diff(hf) > 0)
    slopes = np.diff(ht) / np.diff(hf)
    assert np.all(np.diff(slopes) < 0)
    assert np.all(np.interp(fpr, hf, ht) >= tpr - 1e-12)


def test_kappa_optimal_point():
    y, s = make_scores(500, 0.1, 13)
    pt = kappa_optimal_point(y, s)
    fpr, kappa, thr = kappa_curve(y, s)
    assert pt.kappa == kappa.max()
    assert pt.kappa == pytest.approx(cohen_kappa_score(y, (s >= pt.threshold).astype(int)), abs=1e-12)
    assert pt.fpr == pytest.approx(np.mean(s[y == 0] >= pt.threshold))
    assert pt.tpr == pytest.approx(np.mean(s[y == 1] >= pt.threshold))


# ---------------------------------------------------------------- properties
labels_scores = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
        st.lists(st.integers(-6, 6), min_size=n, max_size=n),
    )
)


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_prop_monotone_transform_invariance(data):
    y, s = np.array(data[0]), np.array(data[1])
    for method in ("trapezoid", "exact"):
        a = auk_score(y, s, method=method)
        assert auk_score(y, s**3 + 5 * s, method=method) == pytest.approx(a, abs=1e-12)
        assert auk_score(y, np.exp(s / 3.0), method=method) == pytest.approx(a, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(labels_scores, st.randoms(use_true_random=False))
def test_prop_permutation_invariance(data, rnd):
    y, s = np.array(data[0]), np.array(data[1])
    idx = list(range(len(y)))
    rnd.shuffle(idx)
    for method in ("trapezoid", "exact"):
        assert auk_score(y[idx], s[idx], method=method) == pytest.approx(
            auk_score(y, s, method=method), abs=1e-12
        )


@settings(max_examples=60, deadline=None)
@given(labels_scores, st.data())
def test_prop_integer_weights_equal_repetition(data, draw):
    y, s = np.array(data[0]), np.array(data[1])
    w = np.array(draw.draw(st.lists(st.integers(0, 3), min_size=len(y), max_size=len(y))))
    rep_y = np.repeat(y, w)
    if rep_y.size == 0:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = auk_score(y, s, sample_weight=w) if w.sum() else np.nan
        want = auk_score(rep_y, np.repeat(s, w))
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(want, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 20).flatmap(lambda m: st.lists(st.integers(-5, 5), min_size=2 * m, max_size=2 * m)))
def test_prop_balanced_auk_is_half_gini(s):
    s = np.array(s)
    y = np.repeat([0, 1], len(s) // 2)
    gini = 2 * roc_auc_score(y, s) - 1
    for method in ("trapezoid", "exact"):
        assert auk_score(y, s, method=method) == pytest.approx(gini / 2, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_prop_kappa_bounds_and_endpoints(data):
    y, s = np.array(data[0]), np.array(data[1])
    fpr, kappa, _ = kappa_curve(y, s)
    assert np.all(kappa >= -1 - 1e-12) and np.all(kappa <= 1 + 1e-12)
    assert kappa[0] == 0 and kappa[-1] == 0
    assert np.all(np.diff(fpr) >= 0)
    assert auk_score(y, s, method="trapezoid") == pytest.approx(brute_force_auk(y, s), abs=1e-12)


# ---------------------------------------------------------------- single class
@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1]])
def test_single_class_nan_and_warning_like_sklearn(y):
    s = [0.1, 0.5, 0.7]
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(auk_score(y, s))
    with pytest.warns(UndefinedMetricWarning):
        fpr, kappa, thr = kappa_curve(y, s)
    assert np.isnan(kappa).all() and thr[0] == np.inf
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(kappa_optimal_point(y, s).kappa)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert np.isnan(roc_auc_score(y, s))  # scikit-learn does the same
    assert rec


# ---------------------------------------------------------------- bad input
GOOD_Y = [0, 1, 0, 1]
GOOD_S = [0.1, 0.8, 0.3, 0.6]


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(y_true=[0, 1, 0], y_score=GOOD_S), ValueError, "different numbers of samples"),
        (dict(y_true=[], y_score=[]), ValueError, "empty"),
        (dict(y_true=GOOD_Y, y_score=[0.1, np.nan, 0.3, 0.4]), ValueError, "NaN"),
        (dict(y_true=GOOD_Y, y_score=[0.1, np.inf, 0.3, 0.4]), ValueError, "infinite"),
        (dict(y_true=[0, 1, 2, 1], y_score=GOOD_S), ValueError, "binary"),
        (dict(y_true=[0.1, 0.5, 0.2, 0.9], y_score=GOOD_S), ValueError, "continuous"),
        (dict(y_true=[2, 3, 2, 3], y_score=GOOD_S), ValueError, "pos_label"),
        (dict(y_true=["a", "b", "a", "b"], y_score=GOOD_S), ValueError, "pos_label"),
        (dict(y_true=GOOD_Y, y_score=GOOD_S, pos_label=2), ValueError, "pos_label=2 is not a label"),
        (dict(y_true=GOOD_Y, y_score=np.ones((4, 2))), ValueError, "1-D"),
        (dict(y_true=GOOD_Y, y_score=["a", "b", "c", "d"]), TypeError, "numbers"),
        (dict(y_true=GOOD_Y, y_score=[None, 1, 2, 3]), TypeError, "None"),
        (dict(y_true=GOOD_Y, y_score=GOOD_S, sample_weight=[1, -1, 1, 1]), ValueError, "negative"),
        (dict(y_true=GOOD_Y, y_score=GOOD_S, sample_weight=[1, np.nan, 1, 1]), ValueError, "NaN"),
        (dict(y_true=GOOD_Y, y_score=GOOD_S, sample_weight=[0, 0, 0, 0]), ValueError, "zero for every"),
        (dict(y_true=GOOD_Y, y_score=GOOD_S, sample_weight=[1, 1]), ValueError, "sample_weight has 2"),
        (dict(y_true=np.array([[0, 1], [0, 1]]), y_score=GOOD_S), ValueError, "y_true must be 1-D"),
    ],
)
@pytest.mark.parametrize("func", [auk_score, kappa_curve, kappa_optimal_point])
def test_bad_input(func, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        func(**kwargs)


def test_unknown_method():
    with pytest.raises(ValueError, match="method='simpson' is not supported"):
        auk_score(GOOD_Y, GOOD_S, method="simpson")


@pytest.mark.parametrize(
    "args, kwargs, exc, match",
    [
        (([0, 0.5, 1], [0, 0.7], 0.3), {}, ValueError, "different numbers"),
        (([0, 0.6, 0.5, 1], [0, 0.7, 0.8, 1], 0.3), {}, ValueError, "sorted"),
        (([0, 1.5], [0, 1], 0.3), {}, ValueError, "fpr must lie in"),
        (([0, 1], [0, -1], 0.3), {}, ValueError, "tpr must lie in"),
        (([0, 1], [0, 1], 0.0), {}, ValueError, "prevalence"),
        (([0, 1], [0, 1], 1.2), {}, ValueError, "prevalence"),
        (([0, 1], [0, 1], 0.3), {"method": "max"}, ValueError, "method="),
        (([0], [0], 0.3), {}, ValueError, "at least 2 points"),
    ],
)
def test_auk_from_roc_bad_input(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        auk_from_roc(*args, **kwargs)


def test_hull_bad_input():
    with pytest.raises(ValueError, match="different numbers"):
        roc_convex_hull([0, 0.5], [0.1])
    with pytest.raises(ValueError, match="tpr must lie in"):
        roc_convex_hull([0, 0.5], [0.1, 1.3])


# ---------------------------------------------------------------- the turning vertices
# auk_score counts the ROC path only where it turns (_binary_clf_counts(...,
# vertices="turns" or "steps")); these check that path against every vertex.
def _labels_and_scores(draw, max_n=60):
    n = draw(st.integers(1, max_n))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    kind = draw(st.sampled_from(["ties", "floats", "huge ints"]))
    if kind == "ties":
        s = np.array(draw(st.lists(st.integers(-4, 4), min_size=n, max_size=n)), dtype=float)
    elif kind == "floats":
        s = np.array(draw(st.lists(st.floats(-3, 3), min_size=n, max_size=n)))
    else:  # integers beyond 2**53: float64 would merge neighbours
        s = 2**60 + np.array(draw(st.lists(st.integers(-4, 4), min_size=n, max_size=n)),
                             dtype=np.int64)
    return y, s


@st.composite
def labelled_scores(draw):
    return _labels_and_scores(draw)


def _vertices(fps, tps):
    return set(zip(np.asarray(fps).tolist(), np.asarray(tps).tolist()))


def _arrays(seg):
    k = seg.fps.shape[0]
    run = np.zeros(k, bool) if seg.run is None else np.broadcast_to(seg.run, (k,))
    return (np.asarray(seg.fps), np.asarray(seg.tps), np.asarray(seg.width),
            np.broadcast_to(seg.rise, (k,)), run)


@settings(max_examples=150, deadline=None)
@given(labelled_scores(), st.sampled_from(["turns", "steps"]))
def test_prop_segments_are_straight_pieces_of_the_path_that_cover_it(data, kind):
    y, s = data
    fps, tps, _ = _binary_clf_counts(y, s)
    seg = _binary_clf_counts(y, s, segments=kind)
    assert (seg.n_neg, seg.n_pos) == (fps[-1], tps[-1])
    f0, t0, w, r, run = _arrays(seg)
    assert np.all(w[~run] > 0) and np.all(w >= 0)  # only runs may be empty
    assert w.sum() == fps[-1]  # together they cover every negative once
    full = _vertices(fps, tps)
    assert _vertices(f0, t0) <= full and _vertices(f0 + w, t0 + r) <= full
    for i in range(f0.shape[0]):  # straight: vertices strictly inside lie on the chord
        inside = (fps > f0[i]) & (fps < f0[i] + w[i])
        if run[i]:
            assert r[i] == 0 and np.all(tps[inside] == t0[i])
        else:
            assert not inside.any()  # a single step


@settings(max_examples=150, deadline=None)
@given(labelled_scores())
def test_prop_steps_leave_out_only_vertices_one_sample_apart(data):
    """Inside a run the path has a vertex at every count but inside the listed ties."""
    y, s = data
    fps, tps, _ = _binary_clf_counts(y, s)
    seg = _binary_clf_counts(y, s, segments="steps")
    f0, t0, w, _, run = _arrays(seg)
    ties = [] if seg.ties is None else list(zip(*(v.tolist() for v in seg.ties)))
    for i in np.flatnonzero(run):
        a, b, height = int(f0[i]), int(f0[i] + w[i]), int(t0[i])
        want = set(range(a, b + 1))
        for tf, tt, size in ties:
            if tt == height and a <= tf and tf + size <= b:
                want -= set(range(tf + 1, tf + size))
        got = {int(f) for f, t in zip(fps, tps) if t == height and a <= f <= b}
        assert got == want


@settings(max_examples=150, deadline=None)
@given(labelled_scores(), st.sampled_from([None, 1e-9, 0.2, 0.5, 0.8, 1 - 1e-9]))
def test_prop_auk_from_segments_equals_auk_from_every_vertex(data, prevalence):
    y, s = data
    if y.all() or not y.any():
        return
    fps, tps, _ = _binary_clf_counts(y, s)
    every = curves._segments_of_path(fps, tps)
    for method in ("exact", "trapezoid"):
        want = curves._auk_of_segments(every, method, prevalence)
        assert auk_score(y, s, method=method, prevalence=prevalence) == pytest.approx(
            want, rel=1e-12, abs=1e-15)


def _fraction_trapezoid(fps, tps, prevalence=None):
    """The trapezoid AUK of counts at every vertex, in exact rational arithmetic."""
    from fractions import Fraction

    big_p, big_n = int(tps[-1]), int(fps[-1])
    p = Fraction(big_p, big_p + big_n) if prevalence is None else Fraction(prevalence)
    n = 1 - p
    total, last = Fraction(0), None
    for fp, tp in zip(fps.tolist(), tps.tolist()):
        t, f = Fraction(tp, big_p), Fraction(fp, big_n)
        k = 2 * p * n * (t - f) / (n * (p * t + n * f) + p * (p * (1 - t) + n * (1 - f)))
        if last is not None:
            total += (f - last[0]) * (k + last[1]) / 2
        last = (f, k)
    return total


@pytest.mark.parametrize("n_pos, prevalence", [
    (1, None), (3, None), (40, None), (3, 1e-9), (200, 1e-9), (200, 1 - 1e-9),
    (200, 0.5), (200, 0.999),
])
def test_trapezoid_over_long_runs_matches_exact_arithmetic(n_pos, prevalence):
    """Runs of thousands of one-sample steps, summed in closed form, near kappa's pole too."""
    rng = np.random.default_rng(n_pos)
    n = 6000
    y = np.zeros(n, dtype=bool)
    y[rng.choice(n, n_pos, replace=False)] = True
    s = rng.normal(size=n) + 2.0 * y
    s[rng.choice(n, 300)] = np.round(s[rng.choice(n, 300)], 1)  # and some ties
    fps, tps, _ = _binary_clf_counts(y, s)
    want = float(_fraction_trapezoid(fps, tps, prevalence))
    got = auk_score(y, s, method="trapezoid", prevalence=prevalence)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-16)


def test_integer_scores_beyond_2_53_are_ranked_exactly():
    rng = np.random.default_rng(0)
    y = rng.random(5000) < 0.3
    small = rng.integers(0, 50, 5000) + 3 * y
    huge = 2**62 + small.astype(np.int64)  # 2**62 + 1 == 2**62 in float64
    assert float(huge.max()) == float(huge.min() + 40)  # float64 could not tell them apart
    for method in ("exact", "trapezoid"):
        assert auk_score(y, huge, method=method) == auk_score(y, small, method=method)


@pytest.mark.parametrize("needles", [0, 5, 4096 * 2, 4096 * 2 + 1, 30000])
def test_blockwise_search_equals_searchsorted(needles):
    rng = np.random.default_rng(needles)
    values = np.sort(rng.integers(0, 5000, 100000))
    probe = np.sort(rng.integers(-10, 5010, needles))
    for side in ("left", "right"):
        np.testing.assert_array_equal(curves._ranks(values, probe, side),
                                      np.searchsorted(values, probe, side=side))


@pytest.mark.parametrize("decimals", [None, 2])
def test_auk_needs_at_most_twice_the_memory_of_sorting_the_scores(decimals):
    import tracemalloc

    rng = np.random.default_rng(0)
    y = (rng.random(10**6) < 0.1).astype(np.int64)
    s = rng.normal(size=10**6) + y
    if decimals is not None:
        s = np.round(s, decimals)

    tracemalloc.start()
    try:
        np.sort(s)
        floor = tracemalloc.get_traced_memory()[1]  # the peak: the sorted copy
        for method in ("exact", "trapezoid"):
            tracemalloc.reset_peak()
            auk_score(y, s, method=method)
            assert tracemalloc.get_traced_memory()[1] <= 2 * floor, method
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("share", [0.03, 0.5, 0.97])
@pytest.mark.parametrize("decimals", [0, 1, 2])
def test_exact_auk_of_rounded_scores_against_mpmath_whichever_class_is_smaller(share, decimals):
    """Ties between and within the classes, the positives the smaller class or the larger."""
    rng = np.random.default_rng(decimals)
    y = rng.random(3000) < share
    s = np.round(rng.normal(size=3000) + 1.5 * y, decimals)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    want = float(mp_exact_auk(fpr, tpr, y.mean()))
    assert auk_score(y, s) == pytest.approx(want, rel=1e-12, abs=1e-15)
    labels = np.where(y, "pos", "neg")  # the same through the general label path
    assert auk_score(labels, s, pos_label="pos") == auk_score(y, s)
