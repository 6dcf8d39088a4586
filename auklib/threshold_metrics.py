"""Confusion-matrix metrics at every threshold, from one sort of the scores.

``sklearn.metrics.metric_at_thresholds`` (scikit-learn 1.9) thresholds the
scores and calls the metric once per distinct score: O(n) work per
threshold, O(n^2) in all.  :func:`metric_curve` counts the confusion matrix
at every threshold with one cumulative sum over the sorted scores and then
evaluates the metric on whole arrays of counts.
"""

import numpy as np

from ._validation import _check_binary_inputs, _one_class_undefined
from .curves import _binary_clf_counts
from .kappa import _kappa_counts

__all__ = ["metric_curve"]


def _ratio(num, den):
    """num / den with 0 where den == 0 (scikit-learn's zero_division=0.0)."""
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _accuracy(tp, fn, fp, tn):
    return (tp + tn) / (tp + fn + fp + tn)


def _balanced_accuracy(tp, fn, fp, tn):
    return 0.5 * (tp / (tp + fn) + tn / (tn + fp))


def _precision(tp, fn, fp, tn):
    return _ratio(tp, tp + fp)


def _recall(tp, fn, fp, tn):
    return tp / (tp + fn)


def _f1(tp, fn, fp, tn):
    return _ratio(2.0 * tp, 2.0 * tp + fp + fn)


def _mcc(tp, fn, fp, tn):
    # the cells as shares of the total (ratios: weights of 1e160 do not
    # overflow, weights of 1e-200 do not underflow), and each margin under
    # its own square root, so that no product of four margins is formed
    total = tp + fn + fp + tn
    tp, fn, fp, tn = (v / total for v in (tp, fn, fp, tn))
    den = np.sqrt(tp + fp) * np.sqrt(tn + fn) * np.sqrt(tp + fn) * np.sqrt(tn + fp)
    return np.clip(_ratio(tp * tn - fp * fn, den), -1.0, 1.0)


_CURVE_METRICS = {
    "accuracy": _accuracy,
    "balanced_accuracy": _balanced_accuracy,
    "precision": _precision,
    "recall": _recall,
    "f1": _f1,
    "mcc": _mcc,
    "kappa": _kappa_counts,
}


def _check_metric(metric):
    names = [metric] if isinstance(metric, str) else metric
    try:
        names = list(names)
    except TypeError:
        raise TypeError(
            "metric must be a metric name or a list of names, got "
            f"{type(metric).__name__}; callables are for "
            "sklearn.metrics.metric_at_thresholds."
        ) from None
    if not names:
        raise ValueError("metric is an empty list; name at least one metric.")
    for name in names:
        if not isinstance(name, str) or name not in _CURVE_METRICS:
            raise ValueError(
                f"metric={name!r} is not supported; choose from "
                f"{sorted(_CURVE_METRICS)}."
            )
    return names


def metric_curve(y_true, y_score, metric, *, pos_label=None, sample_weight=None):
    """A confusion-matrix metric at every threshold, vectorised.

    Returns what ``sklearn.metrics.metric_at_thresholds(y_true, y_score,
    metric_func)`` returns for the matching scikit-learn metric (same
    thresholds, same values), from one sort of the scores instead of one
    pass over the data per threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1}, {-1, 1} or bool, or any two labels with
        ``pos_label`` given.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    metric : str or list of str
        One or more of ``"accuracy"``, ``"balanced_accuracy"``,
        ``"precision"``, ``"recall"``, ``"f1"``, ``"mcc"`` (Matthews
        correlation coefficient) and ``"kappa"`` (Cohen's kappa).
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.  Zero-weight samples are dropped
        (their scores are not thresholds), as in scikit-learn.

    Returns
    -------
    values : ndarray of shape (n_thresholds,) or (n_thresholds, n_metrics)
        The metric at each threshold; one column per metric when ``metric``
        is a list.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores in decreasing order; at ``thresholds[i]`` the
        prediction is ``y_score >= thresholds[i]``.  Every threshold
        predicts at least one sample positive.

    Notes
    -----
    Where a metric is 0/0 the value is the one scikit-learn returns with
    its default ``zero_division``, without a warning: MCC is 0 at the
    lowest threshold, where everything is predicted positive (sklearn's
    ``matthews_corrcoef`` returns 0 there).  Precision and F1 never meet
    0/0 here, because every threshold predicts some sample positive.

    With one class only in ``y_true``, recall, balanced accuracy, MCC and
    kappa are undefined; to keep one convention for every metric (that of
    :func:`kappa_curve`), all values are NaN, with an
    :class:`~auklib.UndefinedMetricWarning`.

    Examples
    --------
    >>> from auklib import metric_curve
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> values, thresholds = metric_curve(y, s, "accuracy")
    >>> values
    array([0.75, 0.5 , 0.75, 0.5 ])
    >>> thresholds
    array([0.8 , 0.4 , 0.35, 0.1 ])
    >>> metric_curve(y, s, ["mcc", "kappa"])[0].round(3)
    array([[0.577, 0.5  ],
           [0.   , 0.   ],
           [0.577, 0.5  ],
           [0.   , 0.   ]])
    """
    names = _check_metric(metric)
    y_pos, score, weight = _check_binary_inputs(
        y_true, y_score, pos_label, sample_weight
    )
    fps, tps, thresholds = _binary_clf_counts(y_pos, score, weight)
    fps, tps, thresholds = fps[1:], tps[1:], thresholds[1:]  # drop the +inf point
    n_pos, n_neg = tps[-1], fps[-1]
    if _one_class_undefined(n_pos, n_neg, "the metric curve is", "metric_curve"):
        shape = (
            thresholds.shape
            if isinstance(metric, str)
            else (len(thresholds), len(names))
        )
        return np.full(shape, np.nan), thresholds
    tp = tps.astype(np.float64)
    fp = fps.astype(np.float64)
    fn = n_pos - tp
    tn = n_neg - fp
    columns = [_CURVE_METRICS[name](tp, fn, fp, tn) for name in names]
    values = columns[0] if isinstance(metric, str) else np.column_stack(columns)
    return values, thresholds
