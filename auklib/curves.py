"""Kappa curves and the area under them (AUK) for binary scores.

Every public function here goes through :func:`_binary_clf_counts`, which
sorts the scores once and counts (FP, TP) at each distinct threshold.
"""

from collections import namedtuple

import numpy as np

from ._validation import (
    _check_binary_inputs,
    _check_option,
    _check_prevalence,
    _check_rates,
    _check_same_length,
    _warn_undefined,
)
from .kappa import _kappa_counts, _kappa_rates

__all__ = [
    "kappa_curve",
    "auk_score",
    "auk_from_roc",
    "roc_convex_hull",
    "kappa_optimal_point",
    "KappaOptimalPoint",
]

_METHODS = ("trapezoid", "exact")

KappaOptimalPoint = namedtuple("KappaOptimalPoint", ["threshold", "fpr", "tpr", "kappa"])
KappaOptimalPoint.__doc__ = """\
The threshold that maximises kappa and its ROC point.

Attributes
----------
threshold : float
    Predict positive when ``y_score >= threshold``.
fpr, tpr : float
    False and true positive rate at that threshold.
kappa : float
    The maximum of the kappa curve.
"""


def _binary_clf_counts(y_pos, score, weight=None):
    """Cumulative (FP, TP) counts at each distinct score, highest first.

    Parameters
    ----------
    y_pos : ndarray of bool
        True for positive samples.
    score : ndarray, 1-D numeric
        Scores; higher means more likely positive.
    weight : ndarray of float64 or None
        Sample weights; zero-weight samples are dropped, as in scikit-learn.

    Returns
    -------
    fps, tps : ndarray
        ``fps[i]``/``tps[i]`` is the (weighted) number of negatives/positives
        with ``score >= thresholds[i]``.  Element 0 is the empty prediction
        (threshold +inf, counts 0).  int64 without weights, float64 with.
    thresholds : ndarray of float64
        +inf followed by the distinct scores in decreasing order.
    """
    if weight is not None:
        keep = weight != 0
        if not keep.all():
            y_pos, score, weight = y_pos[keep], score[keep], weight[keep]
    # The default (unstable) sort is about 3x faster than a stable one at
    # n = 10^7, and ties are grouped below, so their order does not matter.
    order = np.argsort(score)[::-1]
    score = score[order]
    y_sorted = y_pos[order]
    last_of_run = np.flatnonzero(score[1:] != score[:-1])
    ends = np.append(last_of_run, score.shape[0] - 1)
    if weight is None:
        tps = np.cumsum(y_sorted, dtype=np.int64)[ends]
        fps = (ends + 1) - tps
        zero = np.zeros(1, dtype=np.int64)
    else:
        w = weight[order]
        tps = np.cumsum(w * y_sorted)[ends]
        fps = np.cumsum(w)[ends] - tps
        zero = np.zeros(1)
    thresholds = np.concatenate(([np.inf], score[ends].astype(np.float64)))
    return np.concatenate((zero, fps)), np.concatenate((zero, tps)), thresholds


def _curve_from_scores(y_true, y_score, pos_label, sample_weight, caller):
    """Validate and count; return (fpr, tpr, kappa, thresholds, prevalence).

    With a single class in ``y_true`` the rates are undefined: a warning is
    issued and fpr, tpr, kappa and prevalence are NaN.
    """
    y_pos, score, weight = _check_binary_inputs(y_true, y_score, pos_label, sample_weight)
    fps, tps, thresholds = _binary_clf_counts(y_pos, score, weight)
    n_pos, n_neg = tps[-1], fps[-1]
    if n_pos == 0 or n_neg == 0:
        missing = "positive" if n_pos == 0 else "negative"
        _warn_undefined(
            f"Only one class is present in y_true (no {missing} samples), so "
            f"the ROC and kappa curves are undefined; {caller} returns NaN."
        )
        nan = np.full(thresholds.shape, np.nan)
        return nan, nan, nan, thresholds, float("nan")
    fps = fps.astype(np.float64)
    tps = tps.astype(np.float64)
    kappa = _kappa_counts(tps, n_pos - tps, fps, n_neg - fps)
    return fps / n_neg, tps / n_pos, kappa, thresholds, float(n_pos / (n_pos + n_neg))


def kappa_curve(y_true, y_score, *, pos_label=None, sample_weight=None):
    """Cohen's kappa against the false positive rate, one point per threshold.

    Each distinct score is a threshold (predict positive when
    ``y_score >= threshold``); tied scores make one point, as in
    ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.  No point is
    dropped: kappa is not linear along an ROC segment, so removing collinear
    ROC points would change the kappa curve and its area.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1}, {-1, 1} or bool, or any two labels with
        ``pos_label`` given.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive (probabilities, decision
        values, ...).
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    fpr : ndarray of shape (n_thresholds + 1,)
        Increasing false positive rates, from 0 to 1.
    kappa : ndarray of shape (n_thresholds + 1,)
        Cohen's kappa at each threshold; 0 at both ends.
    thresholds : ndarray of shape (n_thresholds + 1,)
        Decreasing thresholds; the first is +inf (nothing predicted positive).

    See Also
    --------
    auk_score : The area under this curve.
    kappa_optimal_point : The threshold with the highest kappa.

    Notes
    -----
    With one class only in ``y_true`` the curve is undefined: a warning is
    issued and ``fpr`` and ``kappa`` are NaN, as scikit-learn's ``roc_curve``
    does.

    References
    ----------
    .. [1] U. Kaymak, A. Ben-David and R. Potharst, "The AUK: a simple
       alternative to the AUC", Engineering Applications of Artificial
       Intelligence 25(5), 1082-1089, 2012, Section 4.

    Examples
    --------
    >>> from auklib import kappa_curve
    >>> fpr, kappa, thr = kappa_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr
    array([0. , 0. , 0.5, 0.5, 1. ])
    >>> kappa
    array([0. , 0.5, 0. , 0.5, 0. ])
    >>> thr
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    """
    fpr, _, kappa, thresholds, _ = _curve_from_scores(
        y_true, y_score, pos_label, sample_weight, "kappa_curve"
    )
    return fpr, kappa, thresholds


def _phi(u):
    """(log1p(u)/u, (u - log1p(u))/u^2) for u > -1, continued to (1, 1/2) at 0.

    For |u| < 1e-2 the closed forms lose digits to cancellation, so the
    alternating series 1/2 - u/3 + u^2/4 - ... gives the second, with just
    enough terms for the largest |u| present (|u|^k < 1e-17), and the first
    is 1 - u times the second.
    """
    phi1 = np.empty_like(u)
    out = np.empty_like(u)
    small = np.abs(u) < 1e-2
    ub = u[~small]
    log_ratio = np.log1p(ub) / ub
    phi1[~small] = log_ratio
    out[~small] = (1.0 - log_ratio) / ub
    us = u[small]
    if us.size:
        umax = float(np.max(np.abs(us)))
        terms = 1 if umax == 0 else int(min(10, max(1, np.ceil(-17 / np.log10(umax)))))
        series = np.full_like(us, 1.0 / (terms + 2))
        for k in range(terms + 1, 1, -1):
            series = 1.0 / k - us * series
        out[small] = series
        phi1[small] = 1.0 - us * series
    return phi1, out


def _auk_segments(fpr, tpr, p, method):
    """Integral of kappa(f) over each ROC segment, summed.

    ``"trapezoid"`` averages kappa at the two vertices.  ``"exact"`` follows
    the straight segment between them: there t is linear in f, so kappa of
    eq. (19) is N(f)/D(f) with N and D linear, and with u = dD/D0 over the
    segment (width w, rise r)::

        integral = N0 w / D0 * log1p(u)/u + 2 p n (r - w) w / D0 * (u - log1p(u))/u^2

    Both factors are smooth at u = 0 (p = 1/2), where they are 1 and 1/2;
    near there a Taylor series replaces the cancelling formula.
    """
    n = 1.0 - p
    q = 1.0 - 2.0 * p
    w = np.diff(fpr)
    if method == "trapezoid":
        kappa = _kappa_rates(tpr, fpr, p)
        return float(np.sum(w * (kappa[1:] + kappa[:-1])) * 0.5)
    f0, t0 = fpr[:-1], tpr[:-1]
    r = np.diff(tpr)
    d0 = p + q * (p * t0 + n * f0)
    u = q * (p * r + n * w) / d0
    phi1, phi2 = _phi(u)
    seg = (w / d0) * ((t0 - f0) * phi1 + (r - w) * phi2)
    return float(2.0 * p * n * np.sum(seg))


def auk_score(y_true, y_score, *, pos_label=None, sample_weight=None, method="trapezoid"):
    """Area under the kappa curve (AUK), eq. (21) of Kaymak et al.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1}, {-1, 1} or bool, or any two labels with
        ``pos_label`` given.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    method : {"trapezoid", "exact"}, default="trapezoid"
        ``"trapezoid"``: the trapezoid rule over the vertices of
        :func:`kappa_curve`, the usual computation.  ``"exact"``: the exact
        integral of kappa along each straight segment of the empirical ROC
        curve (the ROC of classifiers that randomise between two adjacent
        thresholds).  Kappa is concave... no: it is linear-fractional along a
        segment, so the two differ by a small amount that grows with the
        length of the segments (few distinct scores).

    Returns
    -------
    auk : float
        The AUK, between -1/2 and 1/2 in principle; NaN with a warning when
        ``y_true`` has a single class.

    See Also
    --------
    kappa_curve : The curve whose area this is.
    auk_from_roc : The same from ROC vertices.

    References
    ----------
    .. [1] U. Kaymak, A. Ben-David and R. Potharst, "The AUK: a simple
       alternative to the AUC", Engineering Applications of Artificial
       Intelligence 25(5), 1082-1089, 2012.

    Examples
    --------
    >>> from auklib import auk_score
    >>> y = [0, 0, 1, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8]
    >>> auk_score(y, s)
    0.25
    >>> round(auk_score([0, 0, 0, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.4
    >>> round(auk_score([0, 0, 0, 1], [0.1, 0.4, 0.35, 0.8], method="exact"), 6)
    0.386294

    The exact value is the integral of (1 - f) / (1 + f), 2 ln 2 - 1.
    """
    _check_option(method, "method", _METHODS)
    fpr, tpr, _, _, p = _curve_from_scores(
        y_true, y_score, pos_label, sample_weight, "auk_score"
    )
    if np.isnan(p):
        return float("nan")
    return _auk_segments(fpr, tpr, p, method)


def _check_roc(fpr, tpr, *, sorted_fpr=True):
    f = _check_rates(fpr, "fpr")
    t = _check_rates(tpr, "tpr")
    if f.ndim != 1 or t.ndim != 1:
        raise ValueError(f"fpr and tpr must be 1-D; got shapes {f.shape} and {t.shape}.")
    _check_same_length(fpr=f, tpr=t)
    if sorted_fpr and f.shape[0] < 2:
        raise ValueError(f"An ROC curve needs at least 2 points; got {f.shape[0]}.")
    if sorted_fpr and np.any(np.diff(f) < 0):
        raise ValueError("fpr must be sorted in non-decreasing order.")
    return f, t


def auk_from_roc(fpr, tpr, prevalence, *, method="trapezoid"):
    """AUK of an ROC curve given by its vertices.

    Integrates kappa(f) from the first to the last vertex; pass a curve from
    (0, 0) to (1, 1) for the AUK of eq. (21).

    Parameters
    ----------
    fpr, tpr : array-like of shape (n_points,)
        ROC vertices with ``fpr`` non-decreasing, all in [0, 1].
    prevalence : float
        Share p of positives, strictly between 0 and 1.
    method : {"trapezoid", "exact"}, default="trapezoid"
        As in :func:`auk_score`: trapezoid rule over kappa at the vertices,
        or the exact integral along straight segments between them.

    Returns
    -------
    auk : float

    Examples
    --------
    At p = 1/2 the AUK is AUC - 1/2 (eq. (23)):

    >>> from auklib import auk_from_roc
    >>> round(auk_from_roc([0, 0.2, 1], [0, 0.7, 1], prevalence=0.5), 12)
    0.25
    >>> round(auk_from_roc([0, 0.2, 1], [0, 0.7, 1], 0.1, method="exact"), 6)
    0.118313
    """
    _check_option(method, "method", _METHODS)
    f, t = _check_roc(fpr, tpr)
    p = float(_check_prevalence(prevalence))
    return _auk_segments(f, t, p, method)


def roc_convex_hull(fpr, tpr):
    """The ROC convex hull: the upper hull of the points with (0,0) and (1,1).

    The corners stand for the trivial classifiers (all negative, all
    positive), which are always available, so they are always on the hull
    (Fawcett 2006, Section 6).

    Parameters
    ----------
    fpr, tpr : array-like of shape (n_points,)
        ROC points in [0, 1], in any order.

    Returns
    -------
    fpr_hull, tpr_hull : ndarray
        Vertices of the hull from (0, 0) to (1, 1), fpr increasing; points
        on a straight edge are left out.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition
       Letters 27, 861-874, 2006.

    Examples
    --------
    >>> from auklib import roc_convex_hull
    >>> roc_convex_hull([0, 0.1, 0.2, 0.5, 1], [0, 0.5, 0.55, 0.9, 1])
    (array([0. , 0.1, 0.5, 1. ]), array([0. , 0.5, 0.9, 1. ]))
    """
    f, t = _check_roc(fpr, tpr, sorted_fpr=False)
    f = np.concatenate(([0.0], f, [1.0]))
    t = np.concatenate(([0.0], t, [1.0]))
    order = np.lexsort((-t, f))
    f, t = f[order], t[order]
    hull = []
    for x, y in zip(f.tolist(), t.tolist()):
        if hull and hull[-1][0] == x:
            continue  # same fpr: the first (highest tpr) wins
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            # remove the middle point unless it lies strictly above the chord
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) >= 0:
                hull.pop()
            else:
                break
        hull.append((x, y))
    h = np.array(hull)
    return h[:, 0], h[:, 1]


def kappa_optimal_point(y_true, y_score, *, pos_label=None, sample_weight=None):
    """The threshold that maximises Cohen's kappa (Section 7 of the paper).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    point : KappaOptimalPoint
        Named tuple ``(threshold, fpr, tpr, kappa)``.  Predict positive when
        ``y_score >= threshold``.  Where several thresholds share the maximum,
        the highest threshold is returned.  All NaN (with a warning) for a
        single class.

    Examples
    --------
    >>> from auklib import kappa_optimal_point
    >>> kappa_optimal_point([0, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2])
    KappaOptimalPoint(threshold=0.35, fpr=0.3333333333333333, tpr=1.0, kappa=0.6153846153846154)
    """
    fpr, tpr, kappa, thresholds, p = _curve_from_scores(
        y_true, y_score, pos_label, sample_weight, "kappa_optimal_point"
    )
    if np.isnan(p):
        nan = float("nan")
        return KappaOptimalPoint(nan, nan, nan, nan)
    i = int(np.argmax(kappa))
    return KappaOptimalPoint(
        float(thresholds[i]), float(fpr[i]), float(tpr[i]), float(kappa[i])
    )
