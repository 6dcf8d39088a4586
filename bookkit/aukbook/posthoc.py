"""Small helpers for post-hoc comparisons, shared by chapter 8 and the appendix.

* :func:`aligned_ranks`: the ranks 1..kb of the aligned values of a
  (data sets x classifiers) table, as in Friedman's aligned-rank test.
* :func:`holm` and :func:`finner`: step-down adjustments of a family of
  P-values for multiplicity.
* :func:`pairwise_z_pvalues`: two-sided normal P-values of all pairwise
  differences of mean aligned ranks, for a given standard error.

``auklib.aligned_ranks_posthoc`` is the library's corrected post-hoc test;
these helpers reproduce the *published* formulas that the book examines.
"""

import numpy as np
from scipy.stats import norm, rankdata

__all__ = ["aligned_ranks", "holm", "finner", "pairwise_z_pvalues"]


def aligned_ranks(scores):
    """Ranks 1..kb of the aligned values (each row minus its mean), midranks for ties.

    >>> aligned_ranks([[0.8, 0.7, 0.6], [0.9, 0.85, 0.7]])
    array([[6., 3., 2.],
           [5., 4., 1.]])
    """
    s = np.asarray(scores, dtype=float)
    aligned = s - s.mean(axis=1, keepdims=True)
    return rankdata(aligned.ravel()).reshape(s.shape)


def holm(raw):
    """Holm's step-down adjusted P-values.

    Sort the m P-values; multiply the smallest by m, the next by m - 1, ...,
    the largest by 1; make the results non-decreasing and cap them at 1.

    >>> holm([0.01, 0.04, 0.03]).round(3)
    array([0.03, 0.06, 0.06])
    """
    raw = np.asarray(raw, dtype=float)
    order = np.argsort(raw, kind="stable")
    m = len(raw)
    steps = np.minimum(1.0, (m - np.arange(m)) * raw[order])  # m, m-1, ..., 1
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(steps)  # non-decreasing
    return adjusted


def finner(raw):
    """Finner's step-down adjusted P-values, 1 - (1 - p_(i))^(m/i), made non-decreasing.

    The default adjustment of the R package scmamp's ``postHocTest``.

    >>> finner([0.01, 0.04, 0.03]).round(4)
    array([0.0297, 0.0447, 0.0447])
    """
    raw = np.asarray(raw, dtype=float)
    order = np.argsort(raw, kind="stable")
    m = len(raw)
    steps = 1.0 - (1.0 - raw[order]) ** (m / np.arange(1, m + 1))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(steps))
    return adjusted


def pairwise_z_pvalues(scores, standard_error):
    """Mean aligned ranks and the two-sided P-value of every pair (i < j).

    ``standard_error`` is that of a difference of two mean aligned ranks, a
    number or a function of (b, k), the numbers of data sets and of
    classifiers.  Returns ``(mean_ranks, pairs, p)`` with ``pairs`` a list of
    index pairs (i, j), i < j, in the order of ``np.triu_indices``.

    >>> ranks, pairs, p = pairwise_z_pvalues([[1, 2, 3], [1, 2, 3]], 1.0)
    >>> ranks.tolist(), pairs[0], round(float(p[0]), 4)
    ([1.5, 3.5, 5.5], (0, 1), 0.0455)
    """
    s = np.asarray(scores, dtype=float)
    b, k = s.shape
    se = standard_error(b, k) if callable(standard_error) else float(standard_error)
    mean_ranks = aligned_ranks(s).mean(axis=0)
    iu = np.triu_indices(k, 1)
    gaps = np.abs(mean_ranks[iu[0]] - mean_ranks[iu[1]])
    return mean_ranks, list(zip(iu[0].tolist(), iu[1].tolist())), 2 * norm.sf(gaps / se)
