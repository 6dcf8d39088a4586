"""How sure are we of an AUK?  Bootstrap intervals and paired comparisons.

The AUK of a test set is an estimate: another test set from the same
population would give another value.  This module resamples the test set with
the class counts held fixed (a stratified bootstrap), so that every replicate
has the test set's class share, on which the AUK's scale depends.

How a replicate is computed
---------------------------
The scores are sorted once.  A bootstrap replicate draws, for each class
separately, multinomial counts over that class's cases (how often each case
is drawn), and the AUK of the replicate follows from cumulative sums of those
counts along the sorted order: no replicate is ever sorted.  Consecutive
cases of one class lie on one straight (horizontal or vertical) piece of the
ROC curve, along which kappa is a single linear-fractional function, so each
such run is one segment of the exact integral whatever the counts.  Tied
scores of both classes form a diagonal segment of their own.  A replicate
thus costs O(n) array work, and the replicates are processed in 2-D batches.
"""

import math
import numbers
from collections import namedtuple

import numpy as np
from scipy.special import expit, ndtr, ndtri

from ._validation import (
    _as_1d_numeric,
    _check_binary_inputs,
    _check_option,
    _check_random_state,
    _check_same_length,
    _check_weighted_shares,
    _warn_default_majority,
    _one_class_undefined,
    _warn,
)
from .auk_variance import analytic_compare, analytic_interval, score_interval
from .curves import _exact_segments

__all__ = [
    "AUKInterval",
    "AUKComparison",
    "AUCInterval",
    "auk_confidence_interval",
    "auk_compare",
    "auc_confidence_interval",
]

AUKInterval = namedtuple("AUKInterval", ["estimate", "low", "high", "standard_error"])
AUKInterval.__doc__ = """\
Result of :func:`auk_confidence_interval`.

Attributes
----------
estimate : float
    The exact AUK of the test set (``auk_score(..., method="exact")``).
low, high : float
    The bias-corrected percentile (BC) bootstrap interval.
standard_error : float
    Standard deviation of the bootstrap replicates.
"""

AUKComparison = namedtuple("AUKComparison", ["difference", "low", "high", "p_value"])
AUKComparison.__doc__ = """\
Result of :func:`auk_compare`.

Attributes
----------
difference : float
    AUK of ``y_score_a`` minus AUK of ``y_score_b`` (both exact).
low, high : float
    The interval of the difference.  With ``method="analytic"`` (the
    default) ``difference +- t SE``, the paired influence-function standard
    error with Student's t on Welch-Satterthwaite degrees of freedom; with
    ``method="bootstrap"`` the bias-corrected percentile interval of the
    paired bootstrap replicates.
p_value : float
    Two-sided P-value of "no difference", below ``1 - confidence_level``
    exactly when the interval excludes 0.  Analytic: from the same t
    statistic.  Bootstrap: the smallest level at which the bootstrap
    interval of that level excludes 0, and never below
    ``1 / (n_resamples + 1)``, the resolution of ``n_resamples``
    replicates (when every replicate lies on one side of 0 the data say
    only that P is below that; it is not 0).
"""

AUCInterval = namedtuple("AUCInterval", ["estimate", "low", "high", "standard_error"])
AUCInterval.__doc__ = """\
Result of :func:`auc_confidence_interval`.

Attributes
----------
estimate : float
    The AUC (Mann-Whitney statistic, ties counting one half).
low, high : float
    The interval of the chosen ``method``, inside [0, 1]: by default the
    score-type interval (see :func:`auc_confidence_interval`); with
    ``method="delong-logit"`` DeLong's interval built on the logit scale.
standard_error : float
    DeLong's standard error of the estimate (whatever the method).
"""

_AUC_METHODS = ("score", "newcombe", "delong", "delong-logit")

# Fewer cases than this in a class: warn that the interval is unreliable.
# Chosen from the coverage simulations of the book's chapter 10: with 10
# positives the 95% BC interval covers about 0.93.
_MIN_CASES = 10
# Size of a 2-D batch: drawn case numbers (8 MB of int32) and run counts.
_BATCH_ELEMENTS = 2_000_000
_BATCH_RUNS = 32_768
_CI_METHODS = ("score", "analytic", "bootstrap", "bca")
_COMPARE_METHODS = ("analytic", "bootstrap")


def _check_options(confidence_level, n_resamples):
    if (
        isinstance(confidence_level, bool)
        or not isinstance(confidence_level, numbers.Real)
        or not 0 < confidence_level < 1
    ):
        raise ValueError(
            "confidence_level must be a number strictly between 0 and 1; "
            f"got {confidence_level!r}."
        )
    if (
        isinstance(n_resamples, bool)
        or not isinstance(n_resamples, numbers.Integral)
        or n_resamples < 1
    ):
        raise ValueError(
            f"n_resamples must be a positive integer; got {n_resamples!r}."
        )
    return float(confidence_level), int(n_resamples)


class _Curve:
    """One classifier's scores, sorted once and cut into the pieces of its ROC path.

    Tied scores form groups; consecutive groups holding only positives (or
    only negatives) form a run, and a group holding both is a run of its
    own.  Only the runs that hold negatives move along f: a run of positives
    alone is a vertical step, over which the integral of kappa df is zero.
    Those m runs are the *segments* of every replicate.  ``run_pos[i]`` is
    the bucket of positive case i: ``2 s`` when its run comes before segment
    s and holds positives only, ``2 s + 1`` when it lies in segment s (tied
    with negatives).  ``run_neg[j]`` is the segment of negative case j.
    Cases are numbered in the caller's order within each class; segments are
    numbered from the highest score down.
    """

    def __init__(self, pos_score, neg_score):
        n_pos = pos_score.shape[0]
        score = np.concatenate((pos_score, neg_score))
        order = np.argsort(score, kind="stable")[::-1]
        s = score[order]
        y = order < n_pos
        # groups of tied scores
        new_group = np.concatenate(([True], s[1:] != s[:-1]))
        group = np.cumsum(new_group) - 1
        n_groups = group[-1] + 1
        g_pos = np.bincount(group, weights=y, minlength=n_groups)
        g_all = np.bincount(group, minlength=n_groups)
        kind = np.where(g_pos == 0, 0, np.where(g_pos == g_all, 1, 2))
        # runs: consecutive pure groups of one class; a mixed group alone
        new_run = np.ones(n_groups, dtype=bool)
        new_run[1:] = (kind[1:] != kind[:-1]) | (kind[1:] == 2)
        run = np.cumsum(new_run) - 1
        run_kind = kind[new_run]
        is_segment = run_kind != 1
        segments_before = np.cumsum(is_segment) - is_segment
        self.n_segments = int(np.count_nonzero(is_segment))
        self.n_runs = int(run[-1] + 1)  # sets the batch size of _replicates
        run_of_case = np.empty(score.shape[0], dtype=np.intp)
        run_of_case[order] = run[group]
        rp, rn = run_of_case[:n_pos], run_of_case[n_pos:]
        self.run_pos = 2 * segments_before[rp] + (run_kind[rp] == 2)
        self.run_neg = segments_before[rn]

    @staticmethod
    def _counts(bucket, n_buckets, draws, weight):
        """(Weighted) number of drawn cases in each bucket, one row per replicate."""
        rows = draws.shape[0]
        idx = bucket[draws]
        # One bincount per row: a short output array stays in cache.
        out = np.empty((rows, n_buckets))
        for i in range(rows):
            out[i] = np.bincount(
                idx[i],
                weights=None if weight is None else weight[i],
                minlength=n_buckets,
            )
        return out

    def auk(self, pos_draws, neg_draws, pos_w, neg_w, p):
        """Exact AUK of each replicate (row) given its drawn case numbers."""
        m = self.n_segments
        cp = self._counts(self.run_pos, 2 * m + 1, pos_draws, pos_w)
        cn = self._counts(self.run_neg, m, neg_draws, neg_w)
        tot_p = cp.sum(axis=1, keepdims=True)
        tot_n = cn.sum(axis=1, keepdims=True)
        np.cumsum(cp, axis=1, out=cp[:, :])  # cp is reused: counts -> cumulative
        pos_before = cp[:, 0 : 2 * m : 2]  # positives above segment s
        rise = cp[:, 1 : 2 * m + 1 : 2] - pos_before  # positives tied inside it
        neg_in = cn
        neg_before = np.cumsum(cn, axis=1) - neg_in
        p = np.asarray(p, dtype=np.float64).reshape(-1, 1)
        return _exact_segments(
            neg_before / tot_n, pos_before / tot_p, neg_in / tot_n, rise / tot_p,
            (tot_p - pos_before) / tot_p, (tot_n - neg_before) / tot_n,
            np.broadcast_to(p, (cp.shape[0], 1)), 1.0 - p,
        )


def _prepare(y_true, scores, pos_label, sample_weight, caller):
    """Validate; split the cases by class.  None if only one class is present."""
    y_pos = score = None
    parts = []
    for name, s in scores.items():
        y_pos, score, weight = _check_binary_inputs(y_true, s, pos_label, sample_weight)
        parts.append((name, score))
    keep = np.ones(y_pos.shape[0], dtype=bool) if weight is None else weight > 0
    y_pos = y_pos[keep]
    n_pos, n_neg = int(np.count_nonzero(y_pos)), int(np.count_nonzero(~y_pos))
    if _one_class_undefined(n_pos, n_neg, "the AUK is", caller):
        return None
    if weight is None:
        w_pos, w_neg = n_pos, n_neg
    else:
        kept = weight[keep]
        w_pos, w_neg = float(np.sum(kept[y_pos])), float(np.sum(kept[~y_pos]))
        _check_weighted_shares(w_pos, w_neg, caller)
    if pos_label is None:
        _warn_default_majority(y_true, w_pos, w_neg, caller)
    if min(n_pos, n_neg) < _MIN_CASES:
        few, cls = (n_pos, "positive") if n_pos <= n_neg else (n_neg, "negative")
        _warn(
            f"Only {few} {cls} case{'s' if few != 1 else ''} in y_true: a bootstrap "
            f"from fewer than {_MIN_CASES} cases of a class is unreliable (its "
            "intervals cover less often than they claim). Collect more cases "
            "of that class, or report the estimate with that caveat.",
            UserWarning,
        )
    curves = [
        _Curve(score[keep][y_pos], score[keep][~y_pos]) for _, score in parts
    ]
    if weight is None:
        return curves, None, None
    weight = weight[keep]
    return curves, weight[y_pos], weight[~y_pos]


def _replicates(curves, w_pos, w_neg, n_resamples, random_state):
    """Estimates and bootstrap replicates of each curve's exact AUK.

    ``w_pos``/``w_neg`` are the case weights, or None when unweighted.  Each
    replicate draws N+ positive and N- negative case numbers uniformly with
    replacement (multinomial counts per class); the draws are made in 2-D
    batches and shared by all curves (paired resampling).
    """
    rng = np.random.default_rng(random_state)
    n_pos, n_neg = curves[0].run_pos.shape[0], curves[0].run_neg.shape[0]
    all_pos, all_neg = np.arange(n_pos), np.arange(n_neg)

    def share(pw, nw):
        if pw is None:
            return n_pos / (n_pos + n_neg)
        return float(pw.sum() / (pw.sum() + nw.sum()))

    p0 = share(w_pos, w_neg)
    one_pos, one_neg = all_pos[None, :], all_neg[None, :]
    wp0 = None if w_pos is None else w_pos[None, :]
    wn0 = None if w_neg is None else w_neg[None, :]
    estimates = np.array([c.auk(one_pos, one_neg, wp0, wn0, [p0])[0] for c in curves])
    reps = np.empty((len(curves), n_resamples))
    dtype = np.int32 if max(n_pos, n_neg) < 2**31 else np.int64
    max_runs = max(c.n_runs for c in curves)
    # Batches of replicates: enough rows to amortise the per-call overhead on
    # small test sets, few enough that the per-run arrays stay in cache.
    batch = max(1, min(_BATCH_ELEMENTS // (n_pos + n_neg), _BATCH_RUNS // max_runs))
    for start in range(0, n_resamples, batch):
        rows = min(batch, n_resamples - start)
        pos_draws = rng.integers(0, n_pos, size=(rows, n_pos), dtype=dtype)
        neg_draws = rng.integers(0, n_neg, size=(rows, n_neg), dtype=dtype)
        if w_pos is None:
            pw = nw = None
            p = np.full(rows, p0)
        else:
            pw, nw = w_pos[pos_draws], w_neg[neg_draws]
            sp, sn = pw.sum(axis=1), nw.sum(axis=1)
            p = sp / (sp + sn)
        for j, c in enumerate(curves):
            reps[j, start : start + rows] = c.auk(pos_draws, neg_draws, pw, nw, p)
    return estimates, reps


def _bc_interval(estimate, reps, confidence_level):
    """Bias-corrected percentile interval (Efron 1981; Efron & Tibshirani 1993).

    z0 = Phi^-1(share of replicates below the estimate, ties counting half);
    the interval is the percentile interval at Phi(2 z0 +- z_{1-alpha/2}).
    """
    below = (np.count_nonzero(reps < estimate) + 0.5 * np.count_nonzero(reps == estimate))
    share = below / reps.shape[0]
    share = min(max(share, 0.5 / reps.shape[0]), 1 - 0.5 / reps.shape[0])
    z0 = ndtri(share)
    z = ndtri(0.5 + confidence_level / 2)
    lo_q, hi_q = ndtr(2 * z0 - z), ndtr(2 * z0 + z)
    low, high = np.quantile(reps, [lo_q, hi_q])
    return float(low), float(high), float(z0)


def _bc_p_value(reps, z0):
    """The smallest alpha at which the BC interval of level 1 - alpha excludes 0.

    Inverts :func:`_bc_interval` itself, the same quantile function
    included, so that ``p < alpha`` exactly when that interval excludes 0,
    whatever the number of replicates.  The lower end
    ``Q(Phi(2 z0 - z))`` is above 0 when ``Phi(2 z0 - z)`` exceeds
    ``q_hi = max{q : Q(q) <= 0}``, i.e. when ``z < 2 z0 - Phi^-1(q_hi)``;
    the upper end is below 0 when ``z < Phi^-1(q_lo) - 2 z0`` with
    ``q_lo = min{q : Q(q) >= 0}``.  ``Q`` is numpy's (linear) quantile of
    the sorted replicates, piecewise linear in q, so both are found exactly.
    0 when every replicate lies on one side of 0 (the interval excludes 0
    at every level).
    """
    r = np.sort(reps)
    m = r.shape[0]
    if m == 1:
        return 1.0 if r[0] == 0 else 0.0

    def crossing(j):
        # the q at which Q rises from r[j - 1] <= 0 to r[j] > 0 (or >= 0)
        h = (j - 1) + (0.0 - r[j - 1]) / (r[j] - r[j - 1]) if r[j] != r[j - 1] else j - 1
        return h / (m - 1)

    j = int(np.count_nonzero(r <= 0))  # Q(q) <= 0 exactly for q <= q_hi
    i = int(np.count_nonzero(r < 0))   # Q(q) >= 0 exactly for q >= q_lo
    edges = []
    if j < m:  # otherwise Q <= 0 everywhere: the lower end is never above 0
        edges.append(np.inf if j == 0 else 2 * z0 - ndtri(min(1.0, crossing(j))))
    if i > 0:
        edges.append(np.inf if i == m else ndtri(crossing(i)) - 2 * z0)
    z_edge = max(edges) if edges else -np.inf
    return float(min(1.0, 2 * ndtr(-z_edge)))


def _bca_interval(estimate, reps, confidence_level, acceleration):
    """Bias-corrected and accelerated (BCa) percentile interval (Efron 1987).

    The replicates are read at ``Phi(z0 + (z0 -+ z) / (1 - a (z0 -+ z)))``,
    with ``z0`` as in :func:`_bc_interval` and the acceleration ``a``.
    """
    m = reps.shape[0]
    below = np.count_nonzero(reps < estimate) + 0.5 * np.count_nonzero(reps == estimate)
    z0 = ndtri(min(max(below / m, 0.5 / m), 1 - 0.5 / m))
    z = ndtri(0.5 + confidence_level / 2)
    levels = [ndtr(z0 + (z0 + w) / (1 - acceleration * (z0 + w))) for w in (-z, z)]
    low, high = np.quantile(reps, levels)
    return float(low), float(high)


def _acceleration(y_true, y_score, pos_label, sample_weight):
    """BCa acceleration of the exact AUK from its influence values, O(n log n).

    For a statistic of two independent samples (the stratified bootstrap),
    ``a = sum_c n_c^-3 sum_i l_ci^3 / (6 (sum_c n_c^-2 sum_i l_ci^2)^(3/2))``
    with ``l_ci`` the influence of case i of class c (Davison & Hinkley 1997,
    Section 3.2), which the jackknife only approximates, at O(n^2) cost.
    """
    from .auk_variance import _influences

    (_, (if_pos, if_neg)), = _influences(
        y_true, [(y_score, True)], pos_label, sample_weight, "auk_confidence_interval",
        warn_few=False)
    num = sum(np.sum(v**3) / v.shape[0] ** 3 for v in (if_pos, if_neg))
    den = sum(np.sum(v**2) / v.shape[0] ** 2 for v in (if_pos, if_neg))
    return float(num / (6 * den**1.5)) if den > 0 else 0.0


def _warn_if_all_equal(reps, what):
    if reps.shape[0] > 1 and np.all(reps == reps[0]):
        _warn(
            f"Every bootstrap replicate of {what} is the same (as for a "
            "perfectly ranked test set, whose resamples are all perfectly "
            "ranked): the bootstrap interval is a point, which says nothing "
            "about the population. Use the default method instead.",
            UserWarning,
        )


def auk_confidence_interval(
    y_true,
    y_score,
    *,
    confidence_level=0.95,
    n_resamples=2000,
    random_state=None,
    pos_label=None,
    sample_weight=None,
    method="score",
):
    """Confidence interval for the AUK, class counts held fixed.

    The AUK's scale depends on the class share p, so every method holds the
    test set's class counts fixed: the interval is for the population's AUK
    at the test set's p.

    ``method="score"`` (the default) is a score-type interval, the AUK's
    counterpart of :func:`auc_confidence_interval`'s default.  It and the
    analytic interval are auklib's own constructions, not published
    methods; the simulations quoted below are their validation.  The AUK's
    variance is evaluated at each candidate value theta instead of at the
    estimate, and the interval keeps every theta that the estimate does not
    reject::

        (AUK - theta)^2 <= tau^2 xi V(theta),   xi = max(Vhat / V(AUK), 1/4),

    where ``V(theta)`` is the delta-method (influence-function) variance
    ``Var(IF+)/N+ + Var(IF-)/N-`` of the AUK under the exponential model
    of Hanley & McNeil (the power-law ROC curve ``t = f^zeta``, the model
    of Newcombe's AUC interval) with population AUK theta at the test set's
    p, ``Vhat`` the test set's own influence-function variance (ties
    included), and ``tau`` Student's t quantile on the Welch-Satterthwaite
    degrees of freedom of Vhat (normal when Vhat is 0).  The model gives
    the shape of the variance along the AUK's range, the data its level,
    floored at a quarter of the model's so that a test set ranked (nearly)
    perfectly keeps a width.  ``V(theta)`` vanishes
    only at the ends of the AUK's range ``auk_bounds(p)``, so the interval
    lies inside that range and always has a width: a perfectly ranked test
    set gets ``[low, AUK_max]`` with ``low < AUK_max``.  It costs one sort
    of the scores and no resampling.

    Measured coverage of the 95% interval.  The floor 1/4 was chosen on the
    tuning settings of the book's ``chapters/data/sim_interval_width.py``
    (the 17 settings of ``chapters/data/sim_auk_score.py``, chapter 10:
    binormal scores at AUC 0.75-0.99, 10 to 200 positive cases at
    p = 0.02-0.5, ties, unequal variances, exponential scores, perfect
    separation; and two with tighter positives); an earlier version, floored
    at 1/2 and widened to contain the analytic interval, over-covered there
    at AUC 0.99 (about 0.98) at up to 1.4 times the narrowest width that
    covers.  Checked on 25 settings not used to choose it (5 to 500
    positive cases, p = 0.01-0.5, AUC 0.8-0.995 and perfect separation,
    scores rounded to a grid or on five levels, positives half, equally or
    twice as spread as the negatives, exponential scores; at least 2,000
    test sets each, Monte Carlo standard error at most 0.005) it covers
    0.918-0.988 in 25 settings (1 for a perfectly separated population) and
    is never a point.  With 20 or more positive cases it covers at most
    0.973 (at AUC 0.995) and is at most 1.001 times as wide as the
    narrowest method that covers 0.94 (the analytic interval, where that
    covers).  It still over-covers with 5 positive cases at AUC 0.99
    (0.988), and falls short where the positives' scores have a long lower
    tail: 0.918 +- 0.005 with positives twice as spread as the negatives at
    AUC 0.98, 0.927 for exponential scores at AUC 0.95 (the analytic
    interval 0.927 and 0.935 there; no method tried reached 0.94).

    ``method="analytic"`` is the same variance Vhat put into a Wald
    interval on the logit scale of ``auk_bounds(p)`` with the t quantile.
    It covers close to 95% at moderate separation but its variance
    vanishes at the bounds: at high separation it is too short (0.920 with
    20 positives and 180 negatives at AUC 0.99, 0.691 with 20 and 20, in
    chapter 10's table), and a perfectly ranked test set gets a point.

    ``method="bootstrap"`` is the bias-corrected percentile (BC) interval
    of a stratified bootstrap (each replicate resamples the positives and
    the negatives separately, so it keeps the class counts; its AUK is the
    exact integral along the replicate's ROC curve), and ``method="bca"``
    adds Efron's acceleration, taken from the influence values (O(n log n),
    no jackknife).  Both fall short with few positive cases and at high
    separation, and give a point for a perfectly ranked test set (every
    resample is perfectly ranked too; a warning says so).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    n_resamples : int, default=2000
        Number of bootstrap replicates (``"bootstrap"`` and ``"bca"``
        only).
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the resampling (``"bootstrap"`` and ``"bca"`` only; checked
        whatever the method).
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative case weights.  The bootstrap resamples the cases (class
        counts fixed) and they carry their weights into the replicate; the
        analytic methods weight each case's influence, and ``"score"`` uses
        Kish's effective class sizes ``(sum w)^2 / sum w^2`` in ``V``.
    method : {"score", "analytic", "bootstrap", "bca"}, default="score"
        The interval, see above.

    Returns
    -------
    result : AUKInterval
        Named tuple ``(estimate, low, high, standard_error)``: the exact
        AUK, the interval, and the influence-function standard error
        ``sqrt(Vhat)`` (``"score"``, ``"analytic"``) or the standard
        deviation of the bootstrap replicates.  All NaN, with an
        :class:`~auklib.UndefinedMetricWarning`, when ``y_true`` holds one
        class only.

    Warns
    -----
    UserWarning
        When a class has fewer than 10 cases (coverage below that is
        untested), and when every bootstrap replicate is the same.

    See Also
    --------
    auk_compare : Paired comparison of two classifiers' AUKs.
    auc_confidence_interval : The score-type interval for the AUC.
    auk_bounds : The AUK's range at a class share.

    Notes
    -----
    At p = 1/2 the AUK is the AUC minus 1/2, and the score interval is
    close to (not identical with) ``auc_confidence_interval``'s minus 1/2:
    the model is the same, Newcombe's variance adds a finite-sample term.
    ``standard_error`` is the same for ``"score"`` and ``"analytic"``:
    the score interval differs in where the variance is evaluated, not in
    the estimate of it.  Speed: the bootstrap sorts the scores once and
    computes each replicate's exact AUK from cumulative sums of multinomial
    counts, O(n) per replicate; the analytic methods cost one sort (the
    score interval also builds the model's table once per class share,
    about 0.1 s, and caches it).

    References
    ----------
    .. [1] J. A. Hanley and B. J. McNeil, "The meaning and use of the area
       under a receiver operating characteristic (ROC) curve", Radiology
       143, 29-36, 1982.
    .. [2] R. G. Newcombe, "Confidence intervals for an effect size measure
       based on the Mann-Whitney statistic. Part 2: asymptotic methods and
       evaluation", Statistics in Medicine 25, 559-573, 2006.
    .. [3] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, Chapters 13-14.
    .. [4] U. Kaymak, A. Ben-David and R. Potharst, "The AUK: a simple
       alternative to the AUC", Engineering Applications of Artificial
       Intelligence 25(5), 1082-1089, 2012.

    Examples
    --------
    >>> import numpy as np
    >>> from auklib import auk_confidence_interval
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.ones(50), np.zeros(450)]
    >>> s = np.r_[rng.normal(1.5, 1, 50), rng.normal(0, 1, 450)]
    >>> ci = auk_confidence_interval(y, s)
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}]")
    0.189 [0.161, 0.209]

    A perfectly ranked test set still gets an interval with a width:

    >>> y = np.r_[np.ones(20), np.zeros(180)]
    >>> s = np.r_[np.arange(20) + 200.0, np.arange(180.0)]
    >>> ci = auk_confidence_interval(y, s)
    >>> print(f"{ci.estimate:.4f} [{ci.low:.4f}, {ci.high:.4f}]")
    0.2529 [0.2442, 0.2529]
    """
    confidence_level, n_resamples = _check_options(confidence_level, n_resamples)
    random_state = _check_random_state(random_state)
    method = _check_option(method, "method", _CI_METHODS)
    if method == "score":
        return AUKInterval(*score_interval(
            y_true, y_score, confidence_level, pos_label, sample_weight))
    if method == "analytic":
        return AUKInterval(*analytic_interval(
            y_true, y_score, confidence_level, pos_label, sample_weight))
    prepared = _prepare(
        y_true, {"y_score": y_score}, pos_label, sample_weight,
        "auk_confidence_interval",
    )
    if prepared is None:
        nan = float("nan")
        return AUKInterval(nan, nan, nan, nan)
    curves, w_pos, w_neg = prepared
    est, reps = _replicates(curves, w_pos, w_neg, n_resamples, random_state)
    _warn_if_all_equal(reps[0], "the AUK")
    if method == "bca":
        a = _acceleration(y_true, y_score, pos_label, sample_weight)
        low, high = _bca_interval(est[0], reps[0], confidence_level, a)
    else:
        low, high, _ = _bc_interval(est[0], reps[0], confidence_level)
    se = float(np.std(reps[0], ddof=1)) if n_resamples > 1 else float("nan")
    return AUKInterval(float(est[0]), low, high, se)


def auk_compare(
    y_true,
    y_score_a,
    y_score_b,
    *,
    confidence_level=0.95,
    n_resamples=2000,
    random_state=None,
    pos_label=None,
    sample_weight=None,
    method="analytic",
):
    """Paired comparison of the AUKs of two classifiers on the same cases.

    Both score vectors belong to the same cases, so their AUKs are
    correlated (the hard cases are hard for both), and a paired comparison
    uses that: it is much sharper than two separate intervals.

    ``method="analytic"`` (the default): each case's influence on
    AUK(a) - AUK(b) is the difference of its influences on the two AUKs
    (ties included), so the variance of the difference is
    ``Var(IF+_a - IF+_b)/N+ + Var(IF-_a - IF-_b)/N-``; the interval is
    ``difference +- tau SE`` with Student's t quantile ``tau`` on Welch-Satterthwaite
    degrees of freedom, and the P-value is two-sided from the same t
    statistic, so ``p_value < 1 - confidence_level`` exactly when the
    interval excludes 0.  ``n_resamples`` is then unused.

    ``method="bootstrap"``: each replicate draws one stratified resample of
    the cases and computes both exact AUKs on it; the interval is the
    bias-corrected percentile interval of the replicate differences (as in
    :func:`auk_confidence_interval`), and the P-value the smallest
    ``1 - confidence_level`` at which that interval excludes 0.

    Rejection rates of the 5% tests when the two classifiers' population
    AUKs are equal (two noisy views of one latent binormal score, 2,000 to
    3,200 test sets per setting, Monte Carlo standard error at most 0.005;
    chapter 10 of the book): the analytic test 0.026-0.057 with 10 to 100
    positive cases (``chapters/data/sim_auk_analytic.py``; the lower rates
    when the two classifiers agree closely), the bootstrap test 0.059 with
    50 positive cases, 0.075 with 20 and 0.085 with 10
    (``chapters/data/sim_intervals.py``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        The two classifiers' scores for the same cases.
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    n_resamples : int, default=2000
        Number of bootstrap replicates (``method="bootstrap"`` only).
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the resampling (``method="bootstrap"`` only; checked
        whatever the method).
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative case weights.
    method : {"analytic", "bootstrap"}, default="analytic"
        The test, see above.

    Returns
    -------
    result : AUKComparison
        Named tuple ``(difference, low, high, p_value)`` with
        ``difference = AUK(a) - AUK(b)``.  All NaN, with an
        :class:`~auklib.UndefinedMetricWarning`, for a single class.  When
        every case has the same influence on both AUKs (the two rankings
        are the same, or both are perfect) the standard error is 0: the
        interval is the point ``difference`` and the P-value 1 if the
        difference is 0, else 0.

    Warns
    -----
    UserWarning
        When a class has fewer than 10 cases.

    See Also
    --------
    auk_confidence_interval : Interval for one classifier.
    delong_test : DeLong's paired test of two AUCs.

    Notes
    -----
    The bootstrap P-value inverts its interval with the same quantiles of
    the replicates, so the two agree for any ``n_resamples`` (at levels
    above ``1 / (n_resamples + 1)``); its resolution is limited by
    ``n_resamples``: it is at least ``1 / (n_resamples + 1)``, the value it
    takes when every replicate lies on one side of 0 (report it as "below
    ``1 / (n_resamples + 1)``").

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the
       areas under two or more correlated receiver operating characteristic
       curves: a nonparametric approach", Biometrics 44, 837-845, 1988.
    .. [2] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap",
       Chapman & Hall, 1993, Chapter 16.

    Examples
    --------
    >>> import numpy as np
    >>> from auklib import auk_compare
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.ones(100), np.zeros(900)]
    >>> latent = np.r_[rng.normal(1.5, 1, 100), rng.normal(0, 1, 900)]
    >>> a = latent + rng.normal(0, 0.3, 1000)   # a sharper view of the signal
    >>> b = latent + rng.normal(0, 1.0, 1000)   # a noisier one
    >>> res = auk_compare(y, a, b)
    >>> print(f"{res.difference:.3f} [{res.low:.3f}, {res.high:.3f}] "
    ...       f"p = {res.p_value:.4f}")
    0.027 [0.008, 0.046] p = 0.0055
    >>> res = auk_compare(y, a, b, method="bootstrap", random_state=0)
    >>> print(f"{res.difference:.3f} [{res.low:.3f}, {res.high:.3f}] "
    ...       f"p = {res.p_value:.4f}")
    0.027 [0.009, 0.045] p = 0.0037
    """
    confidence_level, n_resamples = _check_options(confidence_level, n_resamples)
    random_state = _check_random_state(random_state)
    a = _as_1d_numeric(y_score_a, "y_score_a")
    b = _as_1d_numeric(y_score_b, "y_score_b")
    _check_same_length(y_score_a=a, y_score_b=b)
    if _check_option(method, "method", _COMPARE_METHODS) == "analytic":
        return AUKComparison(*analytic_compare(
            y_true, a, b, confidence_level, pos_label, sample_weight))
    prepared = _prepare(
        y_true, {"y_score_a": a, "y_score_b": b}, pos_label,
        sample_weight, "auk_compare",
    )
    if prepared is None:
        nan = float("nan")
        return AUKComparison(nan, nan, nan, nan)
    curves, w_pos, w_neg = prepared
    est, reps = _replicates(curves, w_pos, w_neg, n_resamples, random_state)
    diff, d_reps = float(est[0] - est[1]), reps[0] - reps[1]
    low, high, z0 = _bc_interval(diff, d_reps, confidence_level)
    # the resolution of n_resamples replicates: never an exact 0
    p_value = max(_bc_p_value(d_reps, z0), 1.0 / (n_resamples + 1))
    return AUKComparison(diff, low, high, p_value)


def _placements(y_pos, score):
    """Placement values of the positives and of the negatives, ties counting 1/2.

    ``V10_i`` is the share of negatives that positive i outscores and
    ``V01_j`` the share of positives that outscore negative j (DeLong et al.
    1988); both means equal the AUC.  They follow from midranks: the rank of
    positive i among all cases minus its rank among the positives counts the
    negatives below it, ties counting one half.
    """
    from scipy.stats import rankdata

    ranks = rankdata(score)
    pos_s, neg_s = score[y_pos], score[~y_pos]
    n_pos, n_neg = pos_s.shape[0], neg_s.shape[0]
    v10 = (ranks[y_pos] - rankdata(pos_s)) / n_neg
    v01 = 1.0 - (ranks[~y_pos] - rankdata(neg_s)) / n_pos
    return v10, v01


def _newcombe_variance(theta, n_pos, n_neg):
    """Newcombe's (2006) variance of the Mann-Whitney AUC at a candidate ``theta``.

    Hanley & McNeil's (1982) variance with their exponential-model moments
    ``Q1 = theta / (2 - theta)`` and ``Q2 = 2 theta^2 / (1 + theta)``, and
    ``N+ - 1`` and ``N- - 1`` both replaced by ``N* - 1``, ``N* = (N+ + N-) / 2``
    (Newcombe's "Method 5"); in closed form::

        theta (1 - theta) (2 + h + (1 + 2h) theta (1 - theta))
        ------------------------------------------------------,  h = N* - 1.
              N+ N- (2 - theta) (1 + theta)
    """
    h = (n_pos + n_neg) / 2 - 1
    q = theta * (1 - theta)
    return q * (2 + h + (1 + 2 * h) * q) / (n_pos * n_neg * (2 - theta) * (1 + theta))


# Degrees of freedom given to the exponential model's variance level when it
# is pooled with the test set's own (the default's scale c, below).  Infinite:
# the model's level is a floor, c = max(1, r).  A finite value (10 was the
# best of 5, 10, 20 and 40 on the tuning settings of
# chapters/data/sim_interval_width.py) removes the over-coverage with tighter
# positives and at AUC 0.99 (0.994-1.000 down to 0.942-0.969) but falls to
# 0.88-0.91 where the positives' scores have a long lower tail (positives
# twice as spread at AUC 0.98, exponential scores at AUC 0.95), where
# DeLong's variance is too small in most test sets and only the model's
# floor keeps the coverage: the default keeps the floor.
_AUC_MODEL_DF = math.inf


def _auc_score_scale(auc, var_pos, var_neg, n_pos, n_neg, model_df=None):
    """The default's scale ``c`` of Newcombe's variance, vectorised.

    ``r = Var_DeLong / V_N(AUC)`` is the test set's variance level against
    the model's.  It is pooled with the model's level 1 as if the model had
    ``k = model_df`` degrees of freedom and DeLong's estimate its
    Welch-Satterthwaite ones, and never taken below ``r``:
    ``c = max(r, (df r + k) / (df + k))``; with ``k`` infinite (the
    default) ``c = max(1, r)``.  A zero DeLong variance (a perfectly
    separated sample) has no degrees of freedom and gives ``c = 1``,
    Newcombe's Method 5.
    """
    k = _AUC_MODEL_DF if model_df is None else model_df
    auc = np.asarray(auc, dtype=np.float64)
    var_pos = np.asarray(var_pos, dtype=np.float64)
    var_neg = np.asarray(var_neg, dtype=np.float64)
    var = var_pos + var_neg
    v_n = _newcombe_variance(auc, n_pos, n_neg)
    ok = (var > 0) & (v_n > 0)
    ratio = np.where(ok, var / np.where(ok, v_n, 1.0), 0.0)
    if math.isinf(k):
        return np.maximum(1.0, ratio)
    den = (var_pos**2 / (n_pos - 1) if n_pos > 1 else 0.0) + (
        var_neg**2 / (n_neg - 1) if n_neg > 1 else 0.0)
    df = np.where(ok & (den > 0), var**2 / np.where(den > 0, den, 1.0), 0.0)
    return np.maximum(ratio, (df * ratio + k) / (df + k))


def _score_limits(theta, n_pos, n_neg, z, scale=1.0):
    """Limits of the score-type interval ``(theta_hat - t)^2 <= z^2 scale V(t)``.

    ``V`` is :func:`_newcombe_variance`, evaluated at the candidate ``t``
    rather than at the estimate.  Each limit is the one root of the
    inequality's boundary on its side of the estimate (the boundary is a
    quartic in ``t`` with one root in (0, theta_hat) and one in
    (theta_hat, 1)), found by bisection; vectorised over arrays of
    estimates and scales.  An estimate of exactly 1 (or 0) keeps 1 (or 0)
    as one limit and gets a proper other limit.
    """
    theta = np.asarray(theta, dtype=np.float64)
    scale = np.broadcast_to(np.asarray(scale, dtype=np.float64), theta.shape)

    def outside(t):  # True where t lies outside the interval
        return (theta - t) ** 2 > z * z * scale * _newcombe_variance(t, n_pos, n_neg)

    def bisect(lo, hi, outside_at_lo):
        for _ in range(60):  # 2^-60: below the double-precision spacing
            mid = 0.5 * (lo + hi)
            move_lo = outside(mid) == outside_at_lo
            lo, hi = np.where(move_lo, mid, lo), np.where(move_lo, hi, mid)
        return 0.5 * (lo + hi)

    zero, one = np.zeros_like(theta), np.ones_like(theta)
    low = np.where(theta > 0, bisect(zero, theta, True), 0.0)
    high = np.where(theta < 1, bisect(theta, one, False), 1.0)
    return low, high


def auc_confidence_interval(
    y_true, y_score, *, confidence_level=0.95, method="score", pos_label=None
):
    """Confidence interval for the AUC, for comparison with the AUK's.

    The AUC is the mean of the placement values ``V_i`` of the positive
    cases (the share of negatives each one outscores, ties counting one
    half), and equally the mean of ``1 - W_j`` over the negatives, with
    ``W_j`` the share of positives each negative outscores.  DeLong,
    DeLong & Clarke-Pearson (1988) estimate its variance as::

        Var(AUC) = var(V) / N+ + var(W) / N-

    (sample variances).  That estimate is small exactly when the sample AUC
    is near 1, and 0 when the AUC is exactly 1, so an interval of the form
    estimate +- z SE is too short where skewed, well-separated problems
    live.  A *score-type* interval (Newcombe 2006) instead evaluates the
    variance at each candidate value ``theta`` of the AUC and keeps every
    ``theta`` with ``(AUC - theta)^2 <= z^2 V(theta)``.

    ``method="score"`` (the default) uses Newcombe's closed-form variance
    ``V_N(theta)`` (Hanley & McNeil's formula under an exponential model, with
    the two class sizes replaced by their mean; his "Method 5"), scaled up
    by ``c = max(1, Var_DeLong / V_N(AUC))`` when the data vary more than
    that model says (``c = 1`` when DeLong's estimate is 0)::

        (AUC - theta)^2 <= z^2 c V_N(theta).

    ``method="newcombe"`` is Newcombe's Method 5 itself (``c = 1``);
    ``method="delong"`` is pROC's default, ``ci.auc(roc, method =
    "delong")``: the Wald interval ``AUC +- z SE`` with DeLong's standard
    error, cut to [0, 1] (it agrees with pROC to rounding on the book's
    reference data sets, ``chapters/data/reference``); and
    ``method="delong-logit"`` is the interval of earlier versions,
    ``logit(AUC) +- z SE / (AUC (1 - AUC))`` mapped back.  Both DeLong
    intervals have zero width at an AUC of 0 or 1 and are too short near
    them; use them to agree with other tools, not for a skewed,
    well-separated problem.

    Coverage of the 95% interval in 10,000 simulated test sets per case
    (Monte Carlo standard error at most 0.005; the book's
    ``chapters/data/sim_intervals.py``, chapter 10), at AUC 0.75-0.99 with 20 or 50
    positive cases (20/20, 20/180 and 50/450 positive/negative): for
    equal-variance binormal scores the default covers 0.958-0.989 (it
    over-covers at high AUC), DeLong's logit interval 0.69-0.96 (0.88-0.90
    at AUC 0.99 with 180-450 negatives, 0.69 with 20 of each); for binormal
    scores whose positives are twice as spread as the negatives, and for
    exponential scores, the default covers 0.929-0.968, Newcombe's Method 5
    alone 0.87-0.96 and DeLong's logit interval 0.47-0.96.

    Checked on 25 settings not used to choose it
    (``chapters/data/sim_interval_width.py``; 5 to 500 positive cases,
    p = 0.01-0.5, AUC 0.8-0.995 and perfect separation, ties, positives
    half, equally or twice as spread as the negatives, exponential scores;
    2,000 to 3,000 test sets each, Monte Carlo standard error at most
    0.005): the default covers 0.926-1.000 in 25 settings, never as a
    point.  It still over-covers, beyond 0.975 with 20 or more positive
    cases, where the positives' scores are tighter than the negatives'
    (0.996-1.000 at AUC 0.9-0.98, at 1.6-2.1 times the width of DeLong's
    logit interval, which covers 0.942-0.952 there) and at AUC 0.99 or
    more (0.985-0.996, 1.0-1.9 times the narrowest interval covering
    0.94).  Letting the scale fall below 1 (pooling the model's level with
    DeLong's) removes that excess but covers 0.887-0.922 where the
    positives have a long lower tail (positives twice as spread at AUC
    0.9-0.98, exponential scores at AUC 0.95) and also at AUC 0.995 and at
    p = 0.01: DeLong's variance is then too small in most test sets, and
    only the model's floor keeps the coverage, so the default keeps it.  No interval tried holds
    0.95 +- 0.01 in every case; the default errs on the safe side where
    the others fail.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    method : {"score", "newcombe", "delong", "delong-logit"}, default="score"
        The interval, see above; "delong" is pROC's default.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).

    Returns
    -------
    result : AUCInterval
        Named tuple ``(estimate, low, high, standard_error)``, with DeLong's
        standard error whatever the method; all NaN with an
        :class:`~auklib.UndefinedMetricWarning` for a single class.

    Warns
    -----
    UserWarning
        When a class has fewer than 10 cases.

    See Also
    --------
    auk_confidence_interval : The bootstrap interval for the AUK.

    Notes
    -----
    With an AUC of exactly 1 the score-type intervals are ``[low, 1]`` with
    ``low < 1`` (for 20 positive and 20 negative cases ``low`` is about
    0.90); DeLong's logit interval shrinks to the point.  With 10 positive
    cases among 100 the default covers 0.93-0.98, DeLong's logit interval
    0.35-0.93.

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the
       areas under two or more correlated receiver operating characteristic
       curves: a nonparametric approach", Biometrics 44, 837-845, 1988.
    .. [2] J. A. Hanley and B. J. McNeil, "The meaning and use of the area
       under a receiver operating characteristic (ROC) curve", Radiology
       143, 29-36, 1982.
    .. [3] R. G. Newcombe, "Confidence intervals for an effect size measure
       based on the Mann-Whitney statistic. Part 2: asymptotic methods and
       evaluation", Statistics in Medicine 25, 559-573, 2006.

    Examples
    --------
    >>> from auklib import auc_confidence_interval
    >>> y = [0, 0, 1, 0, 1, 1] * 5
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.7, 0.9] * 5
    >>> res = auc_confidence_interval(y, s)
    >>> print(f"{res.estimate:.4f} [{res.low:.4f}, {res.high:.4f}]")
    0.6667 [0.4516, 0.8240]
    >>> res = auc_confidence_interval(y, s, method="delong-logit")
    >>> print(f"{res.estimate:.4f} [{res.low:.4f}, {res.high:.4f}]")
    0.6667 [0.4467, 0.8321]

    pROC's ``ci.auc(roc, method = "delong")``, the Wald interval:

    >>> res = auc_confidence_interval(y, s, method="delong")
    >>> print(f"{res.estimate:.4f} [{res.low:.4f}, {res.high:.4f}]")
    0.6667 [0.4650, 0.8683]
    """
    confidence_level, _ = _check_options(confidence_level, 1)
    if not isinstance(method, str) or method not in _AUC_METHODS:
        raise ValueError(
            f"method must be one of {', '.join(map(repr, _AUC_METHODS))}; "
            f"got {method!r}."
        )
    y_pos, score, _ = _check_binary_inputs(y_true, y_score, pos_label, None)
    n_pos, n_neg = int(np.count_nonzero(y_pos)), int(np.count_nonzero(~y_pos))
    if _one_class_undefined(n_pos, n_neg, "the AUC is", "auc_confidence_interval"):
        nan = float("nan")
        return AUCInterval(nan, nan, nan, nan)
    if min(n_pos, n_neg) < _MIN_CASES:
        few, cls = (n_pos, "positive") if n_pos <= n_neg else (n_neg, "negative")
        _warn(
            f"Only {few} {cls} case{'s' if few != 1 else ''} in y_true: an AUC "
            f"interval from fewer than {_MIN_CASES} cases of a class is "
            "unreliable.",
            UserWarning,
        )
    v, w = _placements(y_pos, score)
    auc = float(v.mean())
    var_pos = np.var(v, ddof=1) / n_pos if n_pos > 1 else 0.0
    var_neg = np.var(w, ddof=1) / n_neg if n_neg > 1 else 0.0
    var = var_pos + var_neg
    se = math.sqrt(var)
    z = float(ndtri(0.5 + confidence_level / 2))
    if method == "delong":  # pROC's ci.auc(method = "delong"): Wald, cut to [0, 1]
        return AUCInterval(auc, max(0.0, auc - z * se), min(1.0, auc + z * se), se)
    if method != "delong-logit":
        scale = 1.0
        if method == "score":
            scale = float(_auc_score_scale(auc, var_pos, var_neg, n_pos, n_neg))
        low, high = _score_limits(auc, n_pos, n_neg, z, scale)
        return AUCInterval(auc, float(low), float(high), se)
    if se == 0 or not 0 < auc < 1:
        return AUCInterval(auc, auc, auc, se)
    centre = math.log(auc / (1 - auc))
    half = z * se / (auc * (1 - auc))
    low = float(expit(centre - half))
    high = float(expit(centre + half))
    return AUCInterval(auc, low, high, se)
