"""Hand's H-measure of a binary scorer, from the ROC convex hull.

Hand (2009) scores a classifier by the misclassification loss it achieves
when the threshold is chosen optimally for each cost, averaged over a
distribution ``u(c)`` of the normalised cost ``c`` and scaled by the loss of
the better trivial classifier.  This module follows the Beta cost
distribution of Hand's own code (the R package ``hmeasure``, translated to
Python as the PyPI package ``hmeasure``) and evaluates the average in closed
form, segment by segment of the ROC convex hull.
"""

import numpy as np
from scipy.special import betainc

from ._validation import _check_binary_inputs, _is_numeric, _one_class_undefined
from .curves import _binary_clf_counts, roc_convex_hull

__all__ = ["h_measure"]


def _beta_params(severity_ratio, pi1, pi0):
    """Shape parameters (alpha, beta) of the cost distribution of Hand's code.

    With severity ratio SR (how much worse misclassifying a class-0 case is
    than misclassifying a class-1 case), the code uses Beta(2, 1 + 1/SR),
    whose mode is at c = SR / (1 + SR); the default SR = pi1 / pi0 puts the
    mode at c = pi1, the cost at which both trivial classifiers lose the same.
    """
    sr = pi1 / pi0 if severity_ratio is None else severity_ratio
    return 2.0, 1.0 + 1.0 / sr


def _check_severity_ratio(severity_ratio):
    if severity_ratio is None:
        return None
    if isinstance(severity_ratio, bool) or not (
        _is_numeric(severity_ratio) and np.ndim(severity_ratio) == 0
    ):
        raise TypeError(
            "severity_ratio must be a positive number or None, got "
            f"{type(severity_ratio).__name__}."
        )
    sr = float(severity_ratio)
    if not np.isfinite(sr) or sr <= 0:
        raise ValueError(
            f"severity_ratio must be a positive finite number; got {severity_ratio!r}."
        )
    return sr


def h_measure(
    y_true, y_score, *, severity_ratio=None, pos_label=None, sample_weight=None
):
    """Hand's H-measure with the Beta cost distribution of Hand's own code.

    Let ``pi1`` and ``pi0`` be the class shares (class 1 is the positive
    class, the one with high scores), ``f`` and ``t`` the false and true
    positive rates of a point of the ROC convex hull, and ``c`` in [0, 1]
    the cost of a false positive relative to the sum of both error costs.
    The least loss at cost ``c`` is::

        L(c) = min over the hull of  c pi0 f + (1 - c) pi1 (1 - t)

    and the H-measure is ``1 - int L(c) u(c) dc / int Lmax(c) u(c) dc`` with
    ``Lmax(c) = min(c pi0, (1 - c) pi1)`` the loss of the better trivial
    classifier and ``u`` the Beta(2, 1 + 1/SR) density, SR the severity ratio.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1}, {-1, 1} or bool, or any two labels with
        ``pos_label`` given.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive: probabilities, decision
        values, any real numbers.  Only their order matters.
    severity_ratio : float, default=None
        How many times worse a false positive is than a false negative, as
        Hand's code defines it; the mode of the cost distribution is at
        ``c = SR / (1 + SR)``.  None means ``pi1 / pi0``, the default of the
        R and Python ``hmeasure`` packages (with rare positives, a missed
        positive then costs ``pi0 / pi1`` false alarms).  ``severity_ratio=1``
        gives the Beta(2, 2) of Hand (2009).
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; ``pi1`` and ``pi0`` are weighted shares.

    Returns
    -------
    h : float
        The H-measure, in [0, 1]: 0 for a scorer no better than the trivial
        classifiers, 1 for a perfect one.  NaN with an
        :class:`~auklib.UndefinedMetricWarning` when ``y_true`` holds one
        class only.

    Notes
    -----
    The hull has vertices ``(FP_j, TP_j)`` (counts, j = 0..k from (0, 0) to
    (N-, N+)); vertex j is optimal for ``c`` between the costs where its two
    edges become optimal, ``c_j = dTP / (dTP + dFP)`` over edge j.  With
    ``M1(x) = int_0^x c u(c) dc`` and ``M0(x) = int_0^x (1 - c) u(c) dc``,
    both regularised incomplete Beta functions, the integral is the finite
    sum ``sum_j (FP_j dM1_j + FN_j dM0_j) / N``.  Sorting the scores is the
    only O(n log n) step.

    The R package flips the scores (with a warning) when the AUC is below
    1/2; this function, like the Python package, does not.

    References
    ----------
    .. [1] D. J. Hand, "Measuring classifier performance: a coherent
       alternative to the area under the ROC curve", Machine Learning 77,
       103-123, 2009.
    .. [2] D. J. Hand and C. Anagnostopoulos, "A better Beta for the H
       measure of classification performance", Pattern Recognition Letters
       40, 41-46, 2014.

    Examples
    --------
    >>> from auklib import h_measure
    >>> h_measure([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    >>> h_measure([0, 0, 1, 1], [-3.0, 0.2, 7.5, 9.9])
    1.0
    """
    sr = _check_severity_ratio(severity_ratio)
    y_pos, score, weight = _check_binary_inputs(
        y_true, y_score, pos_label, sample_weight
    )
    fps, tps, _ = _binary_clf_counts(y_pos, score, weight)
    n_pos, n_neg = tps[-1], fps[-1]
    if _one_class_undefined(n_pos, n_neg, "the H-measure is", "h_measure"):
        return float("nan")
    n_pos, n_neg = float(n_pos), float(n_neg)
    f_hull, t_hull = roc_convex_hull(fps / n_neg, tps / n_pos)
    fp, tp = f_hull * n_neg, t_hull * n_pos
    total = n_pos + n_neg
    pi1, pi0 = n_pos / total, n_neg / total
    a, b = _beta_params(sr, pi1, pi0)

    d_tp, d_fp = np.diff(tp), np.diff(fp)
    # edge costs, decreasing from the steep first edge to the flat last one;
    # vertex j is optimal on [cost[j + 1], cost[j]]
    cost = np.concatenate(([1.0], d_tp / (d_tp + d_fp), [0.0]))
    m1 = a / (a + b) * betainc(a + 1.0, b, cost)
    m0 = b / (a + b) * betainc(a, b + 1.0, cost)
    loss = (np.dot(fp, m1[:-1] - m1[1:]) + np.dot(n_pos - tp, m0[:-1] - m0[1:])) / total
    loss_max = pi0 * a / (a + b) * betainc(a + 1.0, b, pi1) + pi1 * b / (a + b) * (
        1.0 - betainc(a, b + 1.0, pi1)
    )
    # H is in [0, 1]; a trivial hull (constant or reversed scores) has
    # loss == loss_max up to rounding, which must not give -2e-16
    return float(min(1.0, max(0.0, 1.0 - loss / loss_max)))
