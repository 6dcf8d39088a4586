"""Multi-class AUC from Mann-Whitney-Wilcoxon statistics (Hand & Till 2001).

Two conventions for ties are offered:

``"midrank"``
    The standard one (Hand & Till, scikit-learn): tied responses share the
    mean of their ranks, so a tied (positive, negative) pair counts 1/2.
``"ranked_table"``
    The ranked table of Coenen & Setzkorn (2010) for crisp 0/1 responses.
    Ranks run upwards through four blocks: response 0 with signal 1, response
    0 with signal 0, response 1 with signal 0, response 1 with signal 1 (by
    record number within a block).  A tie is then broken in favour of the
    positive when both responses are 1 and against it when both are 0, and the
    statistic equals the true positive rate of the crisp prediction.
"""

from collections import namedtuple

import numpy as np

from ._validation import (
    _as_1d_numeric,
    _asarray,
    _check_labels,
    _check_option,
    _check_same_length,
    _reject_none_and_complex,
)
from .curves import _binary_clf_counts

__all__ = [
    "mww_statistic",
    "mww_ranked_table",
    "hand_till_score",
    "hand_till_table",
    "PairwiseAUC",
]

_TIES = ("midrank", "ranked_table")

PairwiseAUC = namedtuple("PairwiseAUC", ["class_i", "class_j", "mww_ij", "mww_ji", "a_ij"])
PairwiseAUC.__doc__ = """\
One row of the Hand & Till pairwise table.

Attributes
----------
class_i, class_j : label
    The two classes, ``class_i`` first in the order of ``labels``.
mww_ij : float
    MWW(i|j): how well the response for class i ranks class-i records above
    class-j records.
mww_ji : float
    MWW(j|i), the same with the roles swapped (response for class j).
a_ij : float
    A(i, j) = (MWW(i|j) + MWW(j|i)) / 2.
"""


def _check_signal(signal, response):
    sig = _as_1d_numeric(signal, "signal")
    resp = _as_1d_numeric(response, "response")
    _check_same_length(signal=sig, response=resp)
    if not np.all((sig == 0) | (sig == 1)):
        raise ValueError("signal must hold 0/1 (or bool) values: 1 marks the class of interest.")
    sig = sig.astype(bool)
    n1 = int(np.count_nonzero(sig))
    if n1 == 0 or n1 == sig.shape[0]:
        raise ValueError(
            "signal must contain both 1s and 0s: the MWW statistic compares "
            f"two groups, got n1={n1} and n2={sig.shape[0] - n1}."
        )
    return sig, resp


def mww_ranked_table(signal, response):
    """The ranked MWW table of Coenen & Setzkorn (2010) for 0/1 responses.

    Parameters
    ----------
    signal : array-like of shape (n_records,)
        The truth: 1 for records of the class of interest, 0 for the others.
    response : array-like of shape (n_records,)
        The crisp prediction: 1 if the classifier assigns the record to the
        class of interest, else 0.

    Returns
    -------
    table : dict of ndarray
        Columns ``"rank"`` (1..n), ``"record"`` (0-based position in the
        input), ``"response"`` and ``"signal"``, ordered by rank.

    Examples
    --------
    >>> from auklib import mww_ranked_table
    >>> t = mww_ranked_table(signal=[1, 1, 1, 0, 0], response=[1, 0, 1, 1, 0])
    >>> t["record"].tolist()
    [1, 4, 3, 0, 2]
    >>> int(t["rank"][t["signal"] == 1].sum())
    10
    """
    sig, resp = _check_signal(signal, response)
    if not np.all((resp == 0) | (resp == 1)):
        raise ValueError(
            "The ranked table is defined for crisp 0/1 responses only; use "
            "ties='midrank' for scores."
        )
    resp = resp.astype(bool)
    # block 0: R=0,S=1   1: R=0,S=0   2: R=1,S=0   3: R=1,S=1
    block = np.where(resp, np.where(sig, 3, 2), np.where(sig, 0, 1))
    order = np.lexsort((np.arange(sig.shape[0]), block))
    return {
        "rank": np.arange(1, sig.shape[0] + 1),
        "record": order,
        "response": resp[order].astype(np.int64),
        "signal": sig[order].astype(np.int64),
    }


def mww_statistic(signal, response, *, ties="midrank"):
    """Normalised Mann-Whitney-Wilcoxon statistic (s - n1(n1+1)/2) / (n1 n2).

    s is the sum of the ranks of the records with signal 1 when all records
    are ranked by response (higher response, higher rank), n1 the number of
    records with signal 1 and n2 the number with signal 0.  It estimates the
    probability that a random signal-1 record gets a higher response than a
    random signal-0 record: the AUC of ``response`` for ``signal``.

    Parameters
    ----------
    signal : array-like of shape (n_records,)
        The truth, 0/1 or bool: 1 for the class of interest.
    response : array-like of shape (n_records,)
        Scores or crisp 0/1 predictions for the class of interest.
    ties : {"midrank", "ranked_table"}, default="midrank"
        How tied responses are ranked; see the module notes.
        ``"ranked_table"`` needs 0/1 responses.

    Returns
    -------
    mww : float
        In [0, 1].

    References
    ----------
    .. [1] D. J. Hand and R. J. Till, "A simple generalisation of the area
       under the ROC curve for multiple class classification problems",
       Machine Learning 45, 171-186, 2001.
    .. [2] F. Coenen and C. Setzkorn, "Computation of the AUC in the context
       of classification association rule mining", University of Liverpool,
       2010.

    Examples
    --------
    >>> from auklib import mww_statistic
    >>> sig, resp = [1, 1, 1, 0, 0], [1, 0, 1, 1, 0]
    >>> round(mww_statistic(sig, resp, ties="ranked_table"), 4)
    0.6667
    >>> round(mww_statistic(sig, resp), 4)
    0.5833
    """
    _check_option(ties, "ties", _TIES)
    if ties == "ranked_table":
        table = mww_ranked_table(signal, response)
        is_sig = table["signal"] == 1
        n1 = int(np.count_nonzero(is_sig))
        n2 = table["rank"].shape[0] - n1
        s = int(table["rank"][is_sig].sum())
        return (s - n1 * (n1 + 1) / 2) / (n1 * n2)
    sig, resp = _check_signal(signal, response)
    fps, tps, _ = _binary_clf_counts(sig, resp)
    # Area under the step ROC with ties as diagonal segments = midrank MWW,
    # computed from integer counts so that it is exact up to one rounding.
    area2 = np.sum((fps[1:] - fps[:-1]) * (tps[1:] + tps[:-1]))
    return float(area2 / (2.0 * tps[-1] * fps[-1]))


def _sorted_unique(values, name):
    try:
        return np.unique(values)
    except TypeError:
        raise TypeError(f"{name} mixes label types that cannot be compared.") from None


def _check_multiclass(y_true, y_pred, labels):
    y = _check_labels(y_true, "y_true")
    if y.shape[0] == 0:
        raise ValueError("y_true is empty; at least one sample is needed.")
    present = _sorted_unique(y, "y_true")
    if labels is None:
        classes = present
    else:
        classes = _check_labels(labels, "labels")
        if _sorted_unique(classes, "labels").shape[0] != classes.shape[0]:
            raise ValueError("labels must be a 1-D list of distinct class labels.")
        unknown = [v for v in present.tolist() if v not in set(classes.tolist())]
        if unknown:
            raise ValueError(f"y_true has labels not in labels: {unknown[:5]}.")
        missing = [v for v in classes.tolist() if v not in set(present.tolist())]
        if missing:
            raise ValueError(
                f"Classes {missing[:5]} of labels have no samples in "
                "y_true, so their pairwise AUCs are undefined."
            )
    if classes.shape[0] < 2:
        raise ValueError(
            f"Hand & Till's M needs at least two classes; y_true has "
            f"{classes.shape[0]} ({classes.tolist()})."
        )
    if y_pred is None:
        raise TypeError("y_pred is None; pass predicted labels or scores.")
    pred = _asarray(y_pred, "y_pred")
    if pred.ndim == 1:
        pred = _check_labels(y_pred, "y_pred")
        if pred.shape[0] != y.shape[0]:
            raise ValueError(
                f"y_true has {y.shape[0]} samples but y_pred has {pred.shape[0]}."
            )
        known = set(classes.tolist())
        stray = [v for v in _sorted_unique(pred, "y_pred").tolist() if v not in known]
        if stray:
            raise ValueError(
                f"y_pred has predicted labels that are not classes: {stray[:5]}."
            )
        scores = np.stack([pred == c for c in classes], axis=1).astype(np.float64)
    elif pred.ndim == 2:
        _reject_none_and_complex(pred, "y_pred")
        if pred.dtype.kind not in "biuf":
            raise TypeError(f"Scores in y_pred must be numeric; got dtype {pred.dtype}.")
        if pred.shape[0] != y.shape[0]:
            raise ValueError(
                f"y_true has {y.shape[0]} samples but y_pred has {pred.shape[0]} rows."
            )
        if pred.shape[1] != classes.shape[0]:
            raise ValueError(
                f"y_pred has {pred.shape[1]} score columns but there are "
                f"{classes.shape[0]} classes {classes.tolist()[:10]}; give one "
                "column per class, in the order of labels (sorted if None)."
            )
        scores = pred.astype(np.float64)
        if not np.isfinite(scores).all():
            raise ValueError("y_pred contains NaN or infinite scores.")
    else:
        raise ValueError(f"y_pred must be 1-D labels or 2-D scores; got shape {pred.shape}.")
    return y, classes, scores


def _plain(label):
    """A numpy scalar as the Python value (str, int, float, ...)."""
    return label.item() if isinstance(label, np.generic) else label


def hand_till_table(y_true, y_pred, *, labels=None, ties="midrank"):
    """The pairwise table behind Hand & Till's M: one row per pair of classes.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted labels (1-D), or scores with one column per class (2-D) in
        the order of ``labels``.  Rows need not sum to 1.
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the score columns.  None means the
        sorted distinct values of ``y_true``.
    ties : {"midrank", "ranked_table"}, default="midrank"
        Tie convention of :func:`mww_statistic`.

    Returns
    -------
    table : list of PairwiseAUC
        ``(class_i, class_j, mww_ij, mww_ji, a_ij)`` for every pair i < j.

    Examples
    --------
    >>> from auklib import hand_till_table
    >>> rows = hand_till_table([0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0])
    >>> [(r.class_i, r.class_j, r.a_ij) for r in rows]
    [(0, 1, 0.75), (0, 2, 0.625), (1, 2, 0.875)]
    """
    ties = _check_option(ties, "ties", _TIES)
    y, classes, scores = _check_multiclass(y_true, y_pred, labels)
    rows = []
    for a in range(classes.shape[0]):
        for b in range(a + 1, classes.shape[0]):
            ci, cj = classes[a], classes[b]
            mask = (y == ci) | (y == cj)
            is_i = y[mask] == ci
            mww_ij = mww_statistic(is_i, scores[mask, a], ties=ties)
            mww_ji = mww_statistic(~is_i, scores[mask, b], ties=ties)
            rows.append(
                PairwiseAUC(_plain(ci), _plain(cj), mww_ij, mww_ji, (mww_ij + mww_ji) / 2)
            )
    return rows


def hand_till_score(y_true, y_pred, *, labels=None, ties="midrank"):
    """Hand & Till's multi-class AUC, M = mean over pairs of A(i, j).

    ``A(i, j) = (MWW(i|j) + MWW(j|i)) / 2`` and
    ``M = 2 / (c (c - 1)) * sum_{i<j} A(i, j)``.  With ``ties="midrank"`` and
    probability scores this equals
    ``sklearn.metrics.roc_auc_score(y_true, y_pred, multi_class="ovo")``; it
    also accepts scores whose rows do not sum to 1 (decision functions) and
    crisp predicted labels.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels; at least two classes.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted labels (1-D) or per-class scores (2-D, columns in the order
        of ``labels``).
    labels : array-like of shape (n_classes,), default=None
        The classes.  None means the sorted distinct values of ``y_true``.
    ties : {"midrank", "ranked_table"}, default="midrank"
        Tie convention; ``"ranked_table"`` reproduces Coenen & Setzkorn's
        worked examples and needs crisp predictions.

    Returns
    -------
    m : float
        Hand & Till's M in [0, 1].

    See Also
    --------
    hand_till_table : The pairwise values behind M.

    References
    ----------
    .. [1] D. J. Hand and R. J. Till, "A simple generalisation of the area
       under the ROC curve for multiple class classification problems",
       Machine Learning 45, 171-186, 2001.

    Examples
    --------
    >>> from auklib import hand_till_score
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> hand_till_score(y, [0, 1, 1, 1, 2, 0])
    0.75
    >>> round(hand_till_score(y, [0, 1, 1, 1, 2, 0], ties="ranked_table"), 4)
    0.6667
    """
    rows = hand_till_table(y_true, y_pred, labels=labels, ties=ties)
    return float(np.mean([r.a_ij for r in rows]))
