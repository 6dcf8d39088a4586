"""Friedman's aligned-rank test for comparing algorithms over data sets.

Following García, Fernández, Luengo & Herrera (2010), as used by the
metric-comparison report behind chapter 7 (its formula (9)).
"""

from collections import namedtuple

import numpy as np
from scipy.stats import chi2, norm, rankdata

from ._validation import _is_numeric

__all__ = ["friedman_aligned_ranks", "aligned_ranks_posthoc", "AlignedRanksResult"]

AlignedRanksResult = namedtuple("AlignedRanksResult", ["statistic", "p_value"])


def _check_scores(scores):
    if not _is_numeric(scores):
        raise TypeError("scores must be a numeric array of shape (n_datasets, n_algorithms).")
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2:
        raise ValueError(f"scores must be 2-D (n_datasets, n_algorithms); got shape {s.shape}.")
    n, k = s.shape
    if n < 2 or k < 2:
        raise ValueError(
            f"The test needs at least 2 data sets and 2 algorithms; got {n} and {k}."
        )
    if not np.all(np.isfinite(s)):
        raise ValueError("scores contains NaN or infinite values.")
    return s


def _aligned_ranks(s):
    aligned = s - s.mean(axis=1, keepdims=True)
    return rankdata(aligned.ravel()).reshape(s.shape)   # ties share midranks


def friedman_aligned_ranks(scores):
    """Friedman's aligned-rank test that k algorithms perform alike on n data sets.

    Each score is aligned by subtracting its data set's mean over algorithms;
    all k n aligned values are ranked together (1 to kn, ties sharing their
    mean rank).  With rank totals R_j per algorithm and R_i per data set::

        T = (k - 1) [sum_j R_j^2 - (k n^2 / 4)(kn + 1)^2]
            / ([kn (kn + 1)(2kn + 1)] / 6 - (1/k) sum_i R_i^2)

    which is compared with a chi-square distribution with k - 1 degrees of
    freedom.  The direction of ranking does not matter: reversing it leaves T
    unchanged.

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_algorithms)
        One performance value per data set and algorithm.

    Returns
    -------
    result : AlignedRanksResult
        ``(statistic, p_value)``.

    References
    ----------
    .. [1] S. García, A. Fernández, J. Luengo and F. Herrera, "Advanced
       nonparametric tests for multiple comparisons in the design of
       experiments in computational intelligence and data mining",
       Information Sciences 180, 2044-2064, 2010.

    Examples
    --------
    >>> from auklib import friedman_aligned_ranks
    >>> res = friedman_aligned_ranks([[0.80, 0.70, 0.60],
    ...                               [0.90, 0.85, 0.70],
    ...                               [0.75, 0.80, 0.65]])
    >>> round(res.statistic, 4), round(res.p_value, 4)
    (4.4667, 0.1072)
    """
    s = _check_scores(scores)
    n, k = s.shape
    ranks = _aligned_ranks(s)
    r_alg = ranks.sum(axis=0)
    r_data = ranks.sum(axis=1)
    kn = k * n
    num = (k - 1) * (np.sum(r_alg**2) - (k * n**2 / 4.0) * (kn + 1) ** 2)
    den = kn * (kn + 1) * (2 * kn + 1) / 6.0 - np.sum(r_data**2) / k
    stat = float(num / den)
    return AlignedRanksResult(stat, float(chi2.sf(stat, k - 1)))


def aligned_ranks_posthoc(scores):
    """Pairwise post-hoc comparison after the aligned-rank test, Holm-adjusted.

    For algorithms i and j with mean aligned ranks R_i and R_j,
    ``z = (R_i - R_j) / sqrt(k (n + 1) / 6)`` and the two-sided p-values are
    adjusted for the k (k - 1) / 2 comparisons with Holm's step-down method
    (García et al. 2010, Sections 3.3 and 5).

    Parameters
    ----------
    scores : array-like of shape (n_datasets, n_algorithms)

    Returns
    -------
    mean_ranks : ndarray of shape (n_algorithms,)
        Mean aligned rank of each algorithm (higher = better scores).
    p_adjusted : ndarray of shape (n_algorithms, n_algorithms)
        Holm-adjusted p-values, symmetric, with 1 on the diagonal.

    Examples
    --------
    >>> from auklib import aligned_ranks_posthoc
    >>> ranks, p = aligned_ranks_posthoc([[0.80, 0.70, 0.60],
    ...                                   [0.90, 0.85, 0.70],
    ...                                   [0.75, 0.80, 0.65]])
    >>> ranks.round(3).tolist()
    [7.333, 5.667, 2.0]
    """
    s = _check_scores(scores)
    n, k = s.shape
    mean_ranks = _aligned_ranks(s).mean(axis=0)
    se = np.sqrt(k * (n + 1) / 6.0)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    raw = np.array([2 * norm.sf(abs(mean_ranks[i] - mean_ranks[j]) / se) for i, j in pairs])
    order = np.argsort(raw)
    m = len(raw)
    adjusted = np.empty(m)
    running = 0.0
    for step, idx in enumerate(order):
        running = max(running, min(1.0, (m - step) * raw[idx]))
        adjusted[idx] = running
    p = np.ones((k, k))
    for (i, j), value in zip(pairs, adjusted):
        p[i, j] = p[j, i] = value
    return mean_ranks, p
