"""auklib.dask against the in-memory auklib (the oracle) and scikit-learn."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

dask = pytest.importorskip("dask")
import dask.array as da  # noqa: E402
import dask.dataframe as dd  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.metrics import roc_auc_score as sk_auc  # noqa: E402

import auklib  # noqa: E402
import auklib.dask as ad  # noqa: E402
from auklib import UndefinedMetricWarning  # noqa: E402
from oracles import make_scores  # noqa: E402


@pytest.fixture(autouse=True)
def _sync_scheduler():
    # one thread, deterministic and fast for small graphs
    with dask.config.set(scheduler="sync"):
        yield


def _d(x, chunks):
    return da.from_array(np.asarray(x), chunks=chunks)


# ------------------------------------------------------------ exact scores


@pytest.mark.parametrize("n_levels", [None, 20, 2])
@pytest.mark.parametrize("chunks,n_ranges", [(5000, None), (777, None), (1000, 3), (300, 40)])
def test_auk_equals_in_memory(n_levels, chunks, n_ranges):
    y, s = make_scores(5000, 0.15, seed=3, n_levels=n_levels)
    want = auklib.auk_score(y, s)
    got = ad.auk_score(_d(y, chunks), _d(s, chunks), n_ranges=n_ranges)
    assert abs(got - want) < 1e-12
    assert abs(ad.roc_auc_score(_d(y, chunks), _d(s, chunks), n_ranges=n_ranges)
               - sk_auc(y, s)) < 1e-12


@pytest.mark.parametrize("p", [0.001, 0.5, 0.999])
def test_auk_extreme_prevalence_and_integer_scores(p):
    rng = np.random.default_rng(7)
    y = (rng.random(4000) < p).astype(int)
    y[:2] = [0, 1]
    s = rng.integers(-50, 50, 4000) + 10 * y  # integer scores, many ties
    got = ad.auk_score(_d(y, 500), _d(s, 500))
    assert abs(got - auklib.auk_score(y, s)) < 1e-12


def test_chunks_with_one_class_and_sorted_input():
    # sorted by label: every chunk holds a single class
    y = np.repeat([0, 1], [3000, 1000])
    s = np.random.default_rng(1).normal(size=4000) + y
    got = ad.auk_score(_d(y, 500), _d(s, 500))
    assert abs(got - auklib.auk_score(y, s)) < 1e-12


def test_labels_minus_one_one_bool_and_strings():
    y, s = make_scores(2000, 0.3, seed=5, n_levels=10)
    want = auklib.auk_score(y, s)
    assert abs(ad.auk_score(_d(2 * y - 1, 300), _d(s, 300)) - want) < 1e-12
    assert abs(ad.auk_score(_d(y.astype(bool), 300), _d(s, 300)) - want) < 1e-12
    lab = np.where(y == 1, "spam", "ham")
    got = ad.auk_score(_d(lab, 300), _d(s, 300), pos_label="spam")
    assert abs(got - want) < 1e-12


def test_dataframe_columns_with_empty_partition():
    y, s = make_scores(3000, 0.2, seed=9, n_levels=50)
    pdf = pd.DataFrame({"y": y, "s": s})
    ddf = dd.from_pandas(pdf, npartitions=6)
    ddf = ddf[ddf.s > -1e9]  # a filter keeps all rows
    ddf = ddf.map_partitions(lambda d: d.iloc[:0] if d.index[0] == 0 else d)
    keep = pdf.iloc[ddf.index.compute()]
    want = auklib.auk_score(keep.y.to_numpy(), keep.s.to_numpy())
    assert abs(ad.auk_score(ddf.y, ddf.s) - want) < 1e-12
    # a column and an array
    s_arr = ddf.s.to_dask_array(lengths=True)
    assert abs(ad.auk_score(ddf.y, s_arr) - want) < 1e-12


def test_kappa_curve_equals_in_memory():
    y, s = make_scores(3000, 0.1, seed=11, n_levels=30)
    f0, k0, t0 = auklib.kappa_curve(y, s)
    f1, k1, t1 = ad.kappa_curve(_d(y, 400), _d(s, 400), n_ranges=5)
    np.testing.assert_array_equal(t1, t0)
    np.testing.assert_allclose(f1, f0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(k1, k0, rtol=0, atol=1e-14)


def test_distributed_local_cluster():
    distributed = pytest.importorskip("distributed")
    y, s = make_scores(4000, 0.2, seed=2)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        assert client.status == "running"
        with dask.config.set(scheduler=client.get):
            got = ad.auk_score(_d(y, 1000), _d(s, 1000))
            b = ad.auk_score_bounds(_d(y, 1000), _d(s, 1000), n_bins=50)
    want = auklib.auk_score(y, s)
    assert abs(got - want) < 1e-12
    assert b.low <= want <= b.high


def test_persisted_arrays_on_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    y, s = make_scores(4000, 0.2, seed=3)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        with dask.config.set(scheduler=client.get):
            y_d = _d(y, 700) > 0  # computed chunks, then persisted
            s_d = _d(s, 700) * 2.0 + 1.0
            y_d, s_d = dask.persist(y_d, s_d)
            got = ad.auk_score(y_d, s_d)
            curve = ad.kappa_curve(y_d, s_d, n_ranges=3)
    assert abs(got - auklib.auk_score(y, s)) < 1e-12
    np.testing.assert_allclose(curve[1], auklib.kappa_curve(y, s)[1], rtol=0, atol=1e-14)


def test_import_auklib_does_not_import_dask():
    code = "import sys, auklib; print('dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------ bad input


def test_single_class_warns_and_returns_nan():
    y = np.zeros(100, int)
    s = np.arange(100.0)
    for func in (ad.auk_score, ad.roc_auc_score):
        with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
            assert np.isnan(func(_d(y, 30), _d(s, 30)))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(ad.auk_score_bounds(_d(y, 30), _d(s, 30)).low)


def test_errors_name_the_problem():
    y = _d(np.array([0, 1, 0, 1]), 2)
    s = _d(np.array([0.1, 0.2, 0.3, 0.4]), 2)
    with pytest.raises(ValueError, match="different numbers of samples"):
        ad.auk_score(y, _d(np.arange(5.0), 2))
    with pytest.raises(ValueError, match="binary"):
        # each chunk has two labels, all chunks three
        ad.auk_score(_d(np.array([0, 1, 1, -1]), 2), s)
    with pytest.raises(ValueError, match="without pos_label"):
        ad.auk_score(_d(np.array([0, 0, 2, 2]), 2), s)
    with pytest.raises(ValueError, match="contains NaN"):
        ad.auk_score(y, _d(np.array([0.1, np.nan, 0.3, 0.4]), 2))
    with pytest.raises(TypeError, match="y_score must contain numbers"):
        ad.auk_score(y, _d(np.array(["a", "b", "c", "d"]), 2))
    with pytest.raises(ValueError, match="1-D"):
        ad.auk_score(y, da.zeros((4, 2), chunks=2))
    with pytest.raises(TypeError, match="pos_label must be a single label"):
        ad.auk_score(y, s, pos_label=[1])
    with pytest.raises(TypeError, match="n_ranges must be an integer"):
        ad.auk_score(y, s, n_ranges=2.0)
    with pytest.raises(ValueError, match="n_bins must be at least 1"):
        ad.auk_score_bounds(y, s, n_bins=0)
    with pytest.raises(TypeError, match="n_bins must be an integer"):
        ad.auk_score_bounds(y, s, n_bins=True)
    with pytest.raises(ValueError, match="outside range"):
        ad.auk_score_bounds(y, s, range=(0.15, 1.0))
    with pytest.raises(ValueError, match="low < high"):
        ad.auk_score_bounds(y, s, range=(1.0, 0.0))
    with pytest.raises(TypeError, match="range must be None or a pair"):
        ad.auk_score_bounds(y, s, range=3)
    with pytest.raises(ValueError, match="refine must be at least 0"):
        ad.auk_score_bounds(y, s, refine=-1)


# ------------------------------------------------------------ the bounds


def _bins(s, lo, hi, n_bins):
    """The bin of each score, as auk_score_bounds computes it."""
    x = (np.asarray(s, float) - lo) * (n_bins / (hi - lo))
    return np.minimum(x.astype(np.int64), n_bins - 1)


def _attained(y, s, lo, hi, n_bins, first):
    """Scores that keep every sample's bin but put one class first inside it.

    ``first="neg"`` ranks the negatives of each bin above its positives (the
    path goes right first: the lower bound); ``"pos"`` the reverse.
    """
    b = _bins(s, lo, hi, n_bins).astype(float)
    top = (y == 1) if first == "pos" else (y == 0)
    return b + np.where(top, 0.75, 0.25)


def _check_bounds(y, s, n_bins, chunks, rng=None, refine=0):
    b = ad.auk_score_bounds(_d(y, chunks), _d(s, chunks), n_bins=n_bins, range=rng,
                            refine=refine)
    exact = auklib.auk_score(y, s)
    assert b.low <= exact <= b.high
    return b, exact


def test_bounds_are_attained_by_the_extreme_orders_in_each_bin():
    y, s = make_scores(3000, 0.2, seed=4)
    lo, hi = float(s.min()), float(s.max())
    for n_bins in (1, 7, 100):
        b, _ = _check_bounds(y, s, n_bins, 500)
        low = auklib.auk_score(y, _attained(y, s, lo, hi, n_bins, "neg"))
        high = auklib.auk_score(y, _attained(y, s, lo, hi, n_bins, "pos"))
        pad = 64 * np.finfo(float).eps * (n_bins + 16)
        assert abs(b.low + pad - low) < 1e-12
        assert abs(b.high - pad - high) < 1e-12


def test_bounds_mass_at_bin_edges_and_ties():
    rng = np.random.default_rng(12)
    n_bins = 16
    s = rng.integers(0, n_bins + 1, 5000) / n_bins  # every score on a bin edge
    y = (rng.random(5000) < 0.3 + 0.4 * s).astype(int)
    for r in ((0.0, 1.0), None, (-1e-9, 1.0)):
        _check_bounds(y, s, n_bins, 700, rng=r)
    # all mass on one score: one bin, the diagonal
    b, exact = _check_bounds(y, np.full(5000, 0.5), n_bins, 700)
    assert abs(exact) < 1e-15 and b.low < 0 < b.high


def test_bounds_one_class_per_bin_are_exact():
    # the classes never share a bin: both paths are the true path
    rng = np.random.default_rng(8)
    s = rng.integers(0, 10, 4000) / 10 + 0.05
    y = (np.floor(s * 10) % 3 == 0).astype(int)
    b, exact = _check_bounds(y, s, 10, 500, rng=(0, 1))
    assert b.high - b.low < 1e-9
    # one bin holds all the positives and the negatives are elsewhere
    y2 = (s > 0.9).astype(int)
    b2, exact2 = _check_bounds(y2, s, 10, 500, rng=(0, 1))
    assert b2.high - b2.low < 1e-9


@pytest.mark.parametrize("p", [1e-4, 0.9999])
def test_bounds_extreme_prevalence(p):
    rng = np.random.default_rng(21)
    n = 20000
    y = np.zeros(n, int)
    k = max(1, int(round(p * n)))
    y[rng.choice(n, k, replace=False)] = 1
    s = rng.random(n) * 0.5 + 0.5 * y
    for n_bins in (1, 3, 64):
        _check_bounds(y, s, n_bins, 4000, rng=(0, 1), refine=2)


def test_refinement_narrows_and_keeps_the_exact_value():
    y, s = make_scores(20000, 0.1, seed=6)
    b0, exact = _check_bounds(y, s, 32, 5000)
    b1, _ = _check_bounds(y, s, 32, 5000, refine=4)
    assert b1.n_bins == 32 + 4 * 31
    assert b1.high - b1.low < b0.high - b0.low
    assert b1.low >= b0.low and b1.high <= b0.high


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 12)), min_size=2,
                  max_size=80),
    n_bins=st.integers(1, 8),
    chunk=st.integers(1, 30),
    refine=st.integers(0, 3),
)
def test_bounds_contain_exact_hypothesis(data, n_bins, chunk, refine):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data], float) / 12  # many scores on bin edges
    if y.min() == y.max():
        y[0] = 1 - y[0]
    b = ad.auk_score_bounds(_d(y, chunk), _d(s, chunk), n_bins=n_bins, range=(0, 1),
                            refine=refine)
    exact = auklib.auk_score(y, s)
    assert b.low <= exact <= b.high


def test_bounds_equal_with_dataframe_and_threads():
    y, s = make_scores(5000, 0.3, seed=13)
    ddf = dd.from_pandas(pd.DataFrame({"y": y, "s": s}), npartitions=4)
    with dask.config.set(scheduler="threads"):
        b1 = ad.auk_score_bounds(ddf.y, ddf.s, n_bins=40)
    b2 = ad.auk_score_bounds(_d(y, 5000), _d(s, 5000), n_bins=40)
    assert b1 == b2


def test_no_warnings_from_bounds_or_exact():
    y, s = make_scores(2000, 0.5, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # about half positives, by chance a few more: name the positive class,
        # or auklib says (PositiveClassWarning) that it is the majority
        ad.auk_score(_d(y, 500), _d(s, 500), pos_label=1)
        ad.auk_score_bounds(_d(y, 500), _d(s, 500), n_bins=10, refine=2, pos_label=1)


def test_pyarrow_backed_columns_and_mixed_label_types():
    y, s = make_scores(2000, 0.2, seed=17, n_levels=40)
    pdf = pd.DataFrame({"y": pd.array(y, dtype="int64[pyarrow]"),
                        "s": pd.array(s, dtype="float64[pyarrow]")})
    ddf = dd.from_pandas(pdf, npartitions=3)
    assert abs(ad.auk_score(ddf.y, ddf.s) - auklib.auk_score(y, s)) < 1e-12
    mixed = np.array(["a"] * 2 + [1] * 2, dtype=object)
    with pytest.raises((ValueError, TypeError), match="y_true"):
        ad.auk_score(_d(mixed, 2), _d(np.arange(4.0), 2), pos_label="a")


# ------------------------------------------------ integer scores, graph size, edge input


def _big_int_scores(dtype, seed):
    """Distinct integer scores that float64 rounds together (steps of 1 above 2**60)."""
    rng = np.random.default_rng(seed)
    n = 600
    y = (rng.random(n) < 0.4).astype(int)
    y[:2] = [0, 1]
    base = 2**60 if dtype == np.int64 else 2**64 - 2**12
    s = (np.uint64(base) + rng.integers(0, 40, n).astype(np.uint64)
         + (8 * y).astype(np.uint64))
    return y, s.astype(dtype)


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
@pytest.mark.parametrize("chunks,n_ranges", [(600, None), (70, None), (50, 4)])
def test_integer_scores_beyond_2_53_keep_their_ties(dtype, chunks, n_ranges):
    y, s = _big_int_scores(dtype, seed=23)
    assert np.unique(s.astype(np.float64)).shape[0] < np.unique(s).shape[0]
    want = auklib.auk_score(y, s)
    got = ad.auk_score(_d(y, chunks), _d(s, chunks), n_ranges=n_ranges)
    assert abs(got - want) < 1e-12
    got_auc = ad.roc_auc_score(_d(y, chunks), _d(s, chunks), n_ranges=n_ranges)
    assert abs(got_auc - sk_auc(y, s)) < 1e-12
    f0, k0, _ = auklib.kappa_curve(y, s)
    f1, k1, _ = ad.kappa_curve(_d(y, chunks), _d(s, chunks), n_ranges=n_ranges)
    np.testing.assert_allclose(f1, f0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(k1, k0, rtol=0, atol=1e-14)


def test_four_scores_beyond_2_53_are_four_thresholds():
    s = np.array([2**60 + 1, 2**60 + 2, 2**60 + 3, 2**60 + 4], dtype=np.int64)
    y = np.array([0, 1, 0, 1])
    assert ad.auk_score(_d(y, 2), _d(s, 2)) == pytest.approx(auklib.auk_score(y, s),
                                                              abs=1e-15)
    assert ad.roc_auc_score(_d(y, 2), _d(s, 2)) == pytest.approx(0.75, abs=1e-15)
    assert ad.kappa_curve(_d(y, 2), _d(s, 2))[0].shape == (5,)


def _tasks_run(n_chunks, chunk_len, **kw):
    """The number of tasks the local scheduler runs for one exact AUK."""
    from dask.callbacks import Callback

    count = [0]

    class Count(Callback):
        def _pretask(self, key, dsk, state):
            count[0] += 1

    rng = np.random.default_rng(n_chunks)
    n = n_chunks * chunk_len
    y = (rng.random(n) < 0.3).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + y
    with Count():
        got = ad.auk_score(_d(y, chunk_len), _d(s, chunk_len), **kw)
    assert abs(got - auklib.auk_score(y, s)) < 1e-12
    return count[0]


@pytest.mark.parametrize("kw", [{}, {"n_ranges": 4}])
def test_task_count_grows_linearly_in_the_chunks(kw):
    sizes = (10, 20, 40)
    counts = [_tasks_run(c, 10, **kw) for c in sizes]
    # doubling the chunks at most doubles the tasks (plus a constant)
    for (c0, t0), (c1, t1) in zip(zip(sizes, counts), zip(sizes[1:], counts[1:])):
        assert t1 <= 2 * t0 + 10, (sizes, counts)
    assert counts[-1] <= 12 * sizes[-1]


def test_bounds_on_extreme_finite_scores():
    y = np.array([0, 1, 0, 1, 1, 0])
    for s in ([-1e308, 1e308, 0.0, 1.0, 1e308, -1e308],
              [0.0, 5e-324, 0.0, 5e-324, 5e-324, 0.0],
              [-1.7976931348623157e308, 1.7976931348623157e308, -1.0, 1.0, 2.0, 3.0]):
        s = np.array(s)
        exact = auklib.auk_score(y, s)
        for n_bins, refine in ((1, 0), (4, 0), (1000, 2)):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                b = ad.auk_score_bounds(_d(y, 2), _d(s, 2), n_bins=n_bins, refine=refine)
            assert b.low <= exact <= b.high
    b = ad.auk_score_bounds(_d(y, 3), _d(np.array([-1e308, 1e308, 0, 1, 2, -3.0]), 3),
                            n_bins=16, range=(-1e308, 1e308))
    assert b.low <= auklib.auk_score(y, [-1e308, 1e308, 0, 1, 2, -3.0]) <= b.high


def _empty_inputs():
    yield _d(np.array([], int), 1), _d(np.array([], float), 1)
    pdf = pd.DataFrame({"y": np.array([], int), "s": np.array([], float)})
    ddf = dd.from_pandas(pdf, npartitions=1)
    yield ddf.y, ddf.s
    full = dd.from_pandas(pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, 0.2, 0.3, 0.4]}),
                          npartitions=2)
    gone = full[full.s > 1]  # unknown lengths, every partition empty
    yield gone.y, gone.s


@pytest.mark.parametrize("pos_label", [None, 1])
def test_empty_input_says_it_is_empty(pos_label):
    with pytest.raises(ValueError) as memory:
        auklib.auk_score(np.array([], int), np.array([]), pos_label=pos_label)
    for y, s in _empty_inputs():
        for func in (ad.auk_score, ad.roc_auc_score, ad.kappa_curve):
            with pytest.raises(ValueError) as got:
                func(y, s, pos_label=pos_label)
            assert str(got.value) == str(memory.value)
        for rng in (None, (0, 1)):
            with pytest.raises(ValueError) as got:
                ad.auk_score_bounds(y, s, pos_label=pos_label, range=rng)
            assert str(got.value) == str(memory.value)


def test_unknown_chunk_sizes_beside_known_name_the_argument():
    pdf = pd.DataFrame({"y": [0, 1, 0, 1, 1, 0], "s": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]})
    ddf = dd.from_pandas(pdf, npartitions=2)
    y_unknown, s_unknown = ddf.y.to_dask_array(), ddf.s.to_dask_array()
    y_known, s_known = _d(pdf.y.to_numpy(), 3), _d(pdf.s.to_numpy(), 3)
    with pytest.raises(ValueError, match="y_score has unknown chunk sizes"):
        ad.auk_score(y_known, s_unknown)
    with pytest.raises(ValueError, match="y_true has unknown chunk sizes"):
        ad.auk_score_bounds(y_unknown, s_known)
    # both unknown, from the same frame: the partitions line up
    want = auklib.auk_score(pdf.y.to_numpy(), pdf.s.to_numpy())
    assert abs(ad.auk_score(y_unknown, s_unknown) - want) < 1e-12


def test_memory_warning_before_a_sort_that_will_spill():
    GiB = 2**30
    two_workers = (2, [(1, 3 * GiB, GiB // 4), (1, 3 * GiB, GiB // 4)], True)
    # 1e8 distinct scores: 4.8 GB of tables and ranges alone, over the 3.1 GiB of room
    with pytest.warns(ad.ClusterMemoryWarning, match=r"100,000,000 distinct scores") as rec:
        need = ad._warn_memory(10**8, 16, two_workers, "auk_score")
    assert need > 2 * 24 * 10**8
    assert "3.10 GiB of room" in str(rec[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ad._warn_memory(10**7, 2, two_workers, "auk_score") is None
        # no memory limits: nothing to compare with
        assert ad._warn_memory(10**9, 2, (2, [(1, None, 0)] * 2, True), "auk_score") is None


def test_memory_warning_on_a_small_local_cluster(monkeypatch):
    distributed = pytest.importorskip("distributed")
    y, s = make_scores(20000, 0.2, seed=4)
    no_spill = {f"distributed.worker.memory.{k}": False
                for k in ("target", "spill", "pause", "terminate")}
    with dask.config.set(no_spill), distributed.Client(
            processes=False, n_workers=1, threads_per_worker=1, memory_limit="64MiB",
            dashboard_address=None) as client:
        with dask.config.set(scheduler=client.get):
            # the check's decision, recorded: warnings.catch_warnings (pytest.warns)
            # is not thread-safe, and the cluster's threads use it too
            decided = []
            check = ad._warn_memory

            def spy(*args):
                decided.append(check(*args))
                return decided[-1]

            monkeypatch.setattr(ad, "_warn_memory", spy)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ad.ClusterMemoryWarning)
                got = ad.auk_score(_d(y, 5000), _d(s, 5000))
    assert len(decided) == 1 and decided[0] > 2 * 24 * 20000
    assert abs(got - auklib.auk_score(y, s)) < 1e-12


# ------------------------------------------- parity: sample_weight, prevalence
def _weighted_case(seed=0, n=4000):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    s = np.round(rng.normal(size=n) + y, 2)  # ties within and across chunks
    w = rng.exponential(size=n)
    w[:40] = 0.0  # zero weights, as auklib takes them
    return y, s, w


@pytest.mark.parametrize("prevalence", [None, 0.01, 0.7])
def test_auk_score_takes_sample_weight_and_prevalence_as_auklib_does(prevalence):
    y, s, w = _weighted_case()
    want = auklib.auk_score(y, s, sample_weight=w, prevalence=prevalence)
    got = ad.auk_score(_d(y, 900), _d(s, 900), sample_weight=_d(w, 700),
                       prevalence=prevalence)
    assert abs(got - want) < 1e-12
    assert abs(ad.auk_score(_d(y, 900), _d(s, 900), prevalence=prevalence)
               - auklib.auk_score(y, s, prevalence=prevalence)) < 1e-12
    b = ad.auk_score_bounds(_d(y, 900), _d(s, 900), sample_weight=_d(w, 900),
                            prevalence=prevalence, n_bins=100, refine=4)
    assert b.low <= want <= b.high


def test_roc_auc_and_kappa_curve_take_sample_weight_as_auklib_and_sklearn_do():
    y, s, w = _weighted_case(1)
    yd, sd, wd = _d(y, 1100), _d(s, 1100), _d(w, 1100)
    assert abs(ad.roc_auc_score(yd, sd, sample_weight=wd)
               - sk_auc(y, s, sample_weight=w)) < 1e-12
    got, want = ad.kappa_curve(yd, sd, sample_weight=wd), auklib.kappa_curve(
        y, s, sample_weight=w)
    for g, e in zip(got, want):
        np.testing.assert_allclose(g, e, rtol=0, atol=1e-12)


def test_sample_weight_as_a_dataframe_column_or_a_numpy_array():
    y, s, w = _weighted_case(2)
    want = auklib.auk_score(y, s, sample_weight=w)
    df = dd.from_pandas(pd.DataFrame({"y": y, "s": s, "w": w}), npartitions=3)
    assert abs(ad.auk_score(df.y, df.s, sample_weight=df.w) - want) < 1e-12
    assert abs(ad.auk_score(df.y, df.s, sample_weight=w) - want) < 1e-12


@pytest.mark.parametrize("bad, message", [
    (lambda w: -w, "sample_weight contains negative values"),
    (lambda w: np.where(np.arange(w.shape[0]) == 3, np.nan, w), "sample_weight contains NaN"),
    (lambda w: np.zeros_like(w), "sample_weight is zero for every sample"),
    (lambda w: w[:10], "sample_weight has 10"),
])
def test_bad_sample_weight_is_named(bad, message):
    y, s, w = _weighted_case(3, 500)
    with pytest.raises(ValueError, match=message):
        ad.auk_score(_d(y, 200), _d(s, 200), sample_weight=bad(w))
    with pytest.raises(ValueError, match="prevalence"):
        ad.auk_score(_d(y, 200), _d(s, 200), prevalence=1.0)


def test_dask_auk_warns_when_the_default_positive_class_is_the_majority():
    from auklib import PositiveClassWarning

    y, s, _ = _weighted_case(4, 500)
    for func in (ad.auk_score, ad.kappa_curve, ad.auk_score_bounds):
        with pytest.warns(PositiveClassWarning, match="pos_label=0") as rec:
            func(_d(1 - y, 200), _d(s, 200))
        assert rec[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error", PositiveClassWarning)
        ad.roc_auc_score(_d(1 - y, 200), _d(s, 200))  # the AUC is symmetric
        ad.auk_score(_d(y, 200), _d(s, 200))


def test_without_dask_the_import_error_says_how_to_install_it(monkeypatch):
    import importlib

    monkeypatch.delitem(sys.modules, "auklib.dask")
    monkeypatch.setitem(sys.modules, "dask", None)
    with pytest.raises(ModuleNotFoundError, match=r'pip install "auklib\[dask\]"'):
        importlib.import_module("auklib.dask")
    monkeypatch.undo()
    assert importlib.import_module("auklib.dask") is ad
