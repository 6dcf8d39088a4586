"""Chapter 12 (the AUK beyond one machine): the general statements it makes."""

import numpy as np
import pytest
import sympy as sp

dask = pytest.importorskip("dask")
import dask.array as da  # noqa: E402

import auklib  # noqa: E402
import auklib.dask as ad  # noqa: E402


@pytest.fixture(autouse=True)
def _sync_scheduler():
    with dask.config.set(scheduler="sync"):
        yield


def test_ch12_kappa_increases_in_t_at_every_f():
    """d kappa / d t = 2 p n (n f + p (1 - f)) / D^2 > 0 on the unit square."""
    p, t, f = sp.symbols("p t f", positive=True)
    n = 1 - p
    den = n * (p * t + n * f) + p * (p * (1 - t) + n * (1 - f))
    kappa = 2 * p * n * (t - f) / den
    claimed = 2 * p * n * (n * f + p * (1 - f)) / den**2
    assert sp.simplify(sp.diff(kappa, t) - claimed) == 0
    rng = np.random.default_rng(0)
    pp, tt, ff = rng.random((3, 100_000))
    value = sp.lambdify((p, t, f), claimed)(pp, tt, ff)
    assert np.all(value > 0)


def _random_case(rng):
    n = int(rng.integers(2, 400))
    kind = rng.integers(4)
    prev = [0.5, 0.05, 0.95, rng.random()][kind]
    y = (rng.random(n) < prev).astype(int)
    y[rng.integers(n)] = 1
    y[rng.integers(n)] = 0 if y.sum() > 1 else y[0]
    if y.min() == y.max():
        y[0] = 1 - y[0]
    levels = int(rng.integers(1, 40))
    s = np.round(rng.random(n) * levels) / levels  # ties, many on bin edges
    s = np.clip(s + 0.3 * y * rng.random(), 0, 1)
    return y, s


def test_ch12_bounds_always_contain_the_exact_auk_random_search():
    rng = np.random.default_rng(20261123)
    for _ in range(300):
        y, s = _random_case(rng)
        n_bins = int(rng.integers(1, 50))
        chunk = int(rng.integers(1, 200))
        b = ad.auk_score_bounds(da.from_array(y, chunks=chunk),
                                da.from_array(s, chunks=chunk), n_bins=n_bins,
                                range=(0, 1), refine=int(rng.integers(0, 3)))
        assert b.low <= auklib.auk_score(y, s) <= b.high


def test_ch12_refining_the_bins_never_widens_the_bounds():
    """Halving every bin (nested bins) never widens the bounds."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        y, s = _random_case(rng)
        yd, sd = da.from_array(y, chunks=64), da.from_array(s, chunks=64)
        prev = None
        for k in range(0, 9):
            b = ad.auk_score_bounds(yd, sd, n_bins=2**k, range=(0, 1))
            pad = 64 * np.finfo(float).eps * (2**k + 16)
            if prev is not None:
                assert b.low + pad >= prev.low + prev_pad - 1e-13
                assert b.high - pad <= prev.high - prev_pad + 1e-13
            prev, prev_pad = b, pad


def test_ch12_bins_with_one_class_add_no_width():
    """When no bin holds both classes the two bounds coincide (up to the pad)."""
    rng = np.random.default_rng(9)
    for _ in range(50):
        n_bins = int(rng.integers(2, 30))
        bins = rng.integers(0, n_bins, 300)
        cls = rng.random(n_bins) < 0.4
        cls[0], cls[-1] = True, False
        y = cls[bins].astype(int)
        if y.min() == y.max():
            continue
        s = (bins + rng.random(300) * 0.98 + 0.01) / n_bins
        b = ad.auk_score_bounds(da.from_array(y, chunks=50), da.from_array(s, chunks=50),
                                n_bins=n_bins, range=(0, 1))
        assert b.high - b.low <= 2 * 64 * np.finfo(float).eps * (n_bins + 16)
        assert b.low <= auklib.auk_score(y, s) <= b.high
