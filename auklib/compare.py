"""Comparing classifiers on the same cases: paired tests and agreement intervals.

Two classifiers scored on one test set are *paired*: the same hard cases
trouble both, so their AUCs (or their decisions) are correlated, and a test
that treats them as independent samples wastes that correlation.  This
module holds

* :func:`delong_test`, DeLong, DeLong & Clarke-Pearson's (1988) test of two
  correlated AUCs, from the placement values of each case;
* :func:`mcnemar_test`, McNemar's (1947) test of two classifiers' paired
  decisions, exact (binomial) or with Edwards' continuity correction;
* :func:`kappa_confidence_interval`, the large-sample interval for Cohen's
  kappa with the variance of Fleiss, Cohen & Everitt (1969);
* :func:`mcc_confidence_interval`, a delta-method interval for the MCC built
  on Fisher's z scale.

Placement values
----------------
With ``psi(x, y) = 1`` when a positive scored ``x`` outscores a negative
scored ``y``, ``1/2`` for a tie and 0 otherwise, the AUC is the mean of
``psi`` over all positive-negative pairs.  The placement of positive i is
``V10_i = mean_j psi(x_i, y_j)`` and that of negative j is
``V01_j = mean_i psi(x_i, y_j)``; both are read off midranks, so ties count
one half without any O(N+ N-) loop.
"""

import math
import numbers
from collections import namedtuple

import numpy as np
from scipy.special import ndtr, ndtri
from scipy.stats import binomtest, chi2

from ._validation import (
    UndefinedMetricWarning,
    _as_1d_numeric,
    _binary_labels,
    _check_binary_inputs,
    _check_labels,
    _check_option,
    _check_same_length,
    _one_class_undefined,
    _warn,
)
from .kappa import _kappa_counts
from .threshold_metrics import _mcc
from .uncertainty import _MIN_CASES, _check_options, _placements

__all__ = [
    "DeLongResult",
    "McNemarResult",
    "AgreementInterval",
    "delong_test",
    "mcnemar_test",
    "kappa_confidence_interval",
    "mcc_confidence_interval",
]

DeLongResult = namedtuple(
    "DeLongResult",
    ["statistic", "p_value", "difference", "low", "high", "standard_error"],
)
DeLongResult.__doc__ = """\
Result of :func:`delong_test`.

Attributes
----------
statistic : float
    ``difference / standard_error``, compared with the standard normal.
p_value : float
    Two-sided P value of "the two AUCs are equal".
difference : float
    AUC of ``y_score_a`` minus AUC of ``y_score_b`` (ties counting one half).
low, high : float
    ``difference -+ z standard_error``: the Wald interval of the difference.
standard_error : float
    DeLong's standard error of the difference.
"""

McNemarResult = namedtuple(
    "McNemarResult", ["statistic", "p_value", "a_only", "b_only"]
)
McNemarResult.__doc__ = """\
Result of :func:`mcnemar_test`.

Attributes
----------
statistic : float
    ``a_only`` for the exact test; the continuity-corrected chi-square
    statistic for ``method="chi2"``.
p_value : float
    Two-sided P value of "both classifiers err equally often".
a_only : int
    Cases that classifier a gets right and classifier b gets wrong.
b_only : int
    Cases that classifier b gets right and classifier a gets wrong.
"""

AgreementInterval = namedtuple(
    "AgreementInterval", ["estimate", "low", "high", "standard_error"]
)
AgreementInterval.__doc__ = """\
Result of :func:`kappa_confidence_interval` and :func:`mcc_confidence_interval`.

Attributes
----------
estimate : float
    Cohen's kappa (or the MCC) of the confusion matrix.
low, high : float
    The large-sample interval at the chosen confidence level.
standard_error : float
    The estimated large-sample standard error of the estimate.
"""

_MCNEMAR_METHODS = ("exact", "chi2")
_KAPPA_METHODS = ("wald", "fisher-z")


def delong_test(y_true, y_score_a, y_score_b, *, confidence_level=0.95, pos_label=None):
    """DeLong's paired test of two correlated AUCs on the same cases.

    Both classifiers score the same N+ positive and N- negative cases.  With
    the placement values of each case under each classifier (see the module
    notes), DeLong, DeLong & Clarke-Pearson (1988) estimate the covariance
    matrix of the two AUCs as ``S = S10 / N+ + S01 / N-``, where ``S10`` is
    the 2x2 sample covariance matrix (divisor N+ - 1) of the positives'
    placement pairs ``(V10_a, V10_b)`` and ``S01`` that of the negatives'.
    The variance of the difference is ``S_aa + S_bb - 2 S_ab``; the statistic
    ``z = (AUC_a - AUC_b) / SE`` is compared with the standard normal.

    The positive covariance ``S_ab`` of two classifiers that find the same
    cases hard is what makes the paired test sharper than two separate
    intervals.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        The two classifiers' scores for the same cases, higher meaning more
        likely positive.
    confidence_level : float, default=0.95
        Level of the interval of the difference, strictly between 0 and 1.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).

    Returns
    -------
    result : DeLongResult
        Named tuple ``(statistic, p_value, difference, low, high,
        standard_error)``.  All NaN, with an
        :class:`~auklib.UndefinedMetricWarning`, when a class is absent.

    Warns
    -----
    UserWarning
        When a class has fewer than 10 cases, and when the estimated
        variance of the difference is 0 although the AUCs differ (the
        statistic is then infinite).

    See Also
    --------
    auc_confidence_interval : Interval for one AUC (DeLong's variance).
    auk_compare : Paired comparison of two AUKs.

    Notes
    -----
    In the book's simulations (``chapters/data/sim_comparing.py``, chapter 13;
    correlated binormal scores, population AUCs 0.85, 10,000 test sets per
    setting, Monte Carlo standard error at most 0.003) the 5% test rejected
    equal AUCs at 0.044-0.056 with 10 to 50 positive cases when both ROC
    curves have the same shape; when they cross (classifier b's positives
    twice as spread) it rejected at 0.080 with 10 positives, 0.066 with 20
    and 0.056 with 50.  DeLong's standard error was too small by up to 3.7%
    (same shapes) and 5.0% (crossing curves) with 10 positive cases, by at
    most 1.5% with 50.  With identical placements for both classifiers (for
    example ``y_score_b`` a monotone transform of ``y_score_a``) the
    difference and its standard error are both 0: the statistic is then 0
    and the P value 1.

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the
       areas under two or more correlated receiver operating characteristic
       curves: a nonparametric approach", Biometrics 44, 837-845, 1988.

    Examples
    --------
    >>> import numpy as np
    >>> from auklib import delong_test
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.ones(50), np.zeros(150)]
    >>> latent = np.r_[rng.normal(1.2, 1, 50), rng.normal(0, 1, 150)]
    >>> a = latent + rng.normal(0, 0.3, 200)   # a sharper view of the signal
    >>> b = latent + rng.normal(0, 1.5, 200)   # a noisier one
    >>> res = delong_test(y, a, b)
    >>> print(f"diff {res.difference:.3f} [{res.low:.3f}, {res.high:.3f}], "
    ...       f"z = {res.statistic:.2f}, P = {res.p_value:.4f}")
    diff 0.089 [0.016, 0.163], z = 2.40, P = 0.0166
    """
    confidence_level, _ = _check_options(confidence_level, 1)
    a = _as_1d_numeric(y_score_a, "y_score_a")
    b = _as_1d_numeric(y_score_b, "y_score_b")
    _check_same_length(y_score_a=a, y_score_b=b)
    y_pos, a, _ = _check_binary_inputs(y_true, a, pos_label, None)
    n_pos, n_neg = int(np.count_nonzero(y_pos)), int(np.count_nonzero(~y_pos))
    if _one_class_undefined(n_pos, n_neg, "the AUCs are", "delong_test"):
        nan = float("nan")
        return DeLongResult(nan, nan, nan, nan, nan, nan)
    if min(n_pos, n_neg) < _MIN_CASES:
        few, cls = (n_pos, "positive") if n_pos <= n_neg else (n_neg, "negative")
        _warn(
            f"Only {few} {cls} case{'s' if few != 1 else ''} in y_true: DeLong's "
            f"test with fewer than {_MIN_CASES} cases of a class can reject more "
            "often than its level says.",
            UserWarning,
        )
    v10_a, v01_a = _placements(y_pos, a)
    v10_b, v01_b = _placements(y_pos, b)
    difference = float(v10_a.mean() - v10_b.mean())
    # variance of the difference: the placements' differences carry the
    # covariance term, var(Va - Vb) = var(Va) + var(Vb) - 2 cov(Va, Vb)
    d10, d01 = v10_a - v10_b, v01_a - v01_b
    var = (np.var(d10, ddof=1) / n_pos if n_pos > 1 else 0.0) + (
        np.var(d01, ddof=1) / n_neg if n_neg > 1 else 0.0
    )
    se = math.sqrt(max(float(var), 0.0))
    z = float(ndtri(0.5 + confidence_level / 2))
    # the placements' differences are all equal exactly when var is 0; their
    # mean is then the difference, up to rounding
    if se <= 8 * np.finfo(float).eps * max(1.0, abs(difference)):
        if abs(difference) <= 8 * np.finfo(float).eps:
            return DeLongResult(0.0, 1.0, 0.0, 0.0, 0.0, 0.0)
        _warn(
            "The estimated variance of the AUC difference is 0 although the "
            "AUCs differ (every case moves by the same amount); the statistic "
            "is infinite and the P value 0, which the data cannot support "
            "with so little variation.",
            UserWarning,
        )
        return DeLongResult(
            math.copysign(math.inf, difference), 0.0, difference,
            difference, difference, 0.0,
        )
    statistic = difference / se
    p_value = float(min(1.0, 2 * ndtr(-abs(statistic))))
    return DeLongResult(
        statistic, p_value, difference, difference - z * se, difference + z * se, se
    )


def _decisions(y_true, y_pred, pos_label, name):
    """Boolean truth and decisions (positive = True), checked by name."""
    y_pos = _binary_labels(y_true, pos_label)
    if y_pred is None:
        raise TypeError(f"{name} is None; pass an array of predicted labels.")
    try:
        d = _binary_labels(y_pred, pos_label)
    except ValueError as exc:
        raise ValueError(str(exc).replace("y_true", name)) from None
    except TypeError as exc:
        raise TypeError(str(exc).replace("y_true", name)) from None
    _check_same_length(y_true=y_pos, **{name: d})
    _check_label_union(y_true, y_pred, name)
    return y_pos, d


def _distinct_labels(y, name):
    """The (at most two) distinct labels of an already checked binary array."""
    arr = _check_labels(y, name)
    if arr.dtype.kind == "b":
        arr = arr.view(np.uint8)
    if arr.dtype.kind in "iuf":
        return [v.item() for v in {arr.min(), arr.max()}]
    return np.unique(arr).tolist()


def _check_label_union(y_true, y_pred, name):
    """Refuse decisions with a label that y_true does not have.

    Each array alone may be binary and yet the two hold three labels between
    them (``y_true`` in {a, b}, ``y_pred`` in {a, c}): the decision c would
    silently count as negative.  scikit-learn refuses that union; so do we.
    """
    truth = _distinct_labels(y_true, "y_true")
    pred = _distinct_labels(y_pred, name)
    union = set(truth) | set(pred)
    if len(union) > 2:
        extra = [v for v in pred if v not in set(truth)]
        raise ValueError(
            f"{name} has the label{'s' if len(extra) > 1 else ''} "
            f"{', '.join(map(repr, extra))} that y_true does not have "
            f"(y_true's labels: {truth}); between them they hold "
            f"{len(union)} labels, but a binary comparison needs at most two. "
            "Map the predictions to y_true's labels first."
        )


def mcnemar_test(y_true, y_pred_a, y_pred_b, *, method="exact", pos_label=None):
    """McNemar's test of two classifiers' paired decisions on the same cases.

    Only the discordant cases carry information: ``a_only`` cases that
    classifier a gets right and b wrong, ``b_only`` the reverse.  Under
    "both err equally often" each discordant case is a fair coin, so
    ``a_only ~ Binomial(a_only + b_only, 1/2)``.

    ``method="exact"`` gives the two-sided binomial P value
    (``scipy.stats.binomtest``).  ``method="chi2"`` compares
    ``(|a_only - b_only| - 1)^2 / (a_only + b_only)`` (Edwards' continuity
    correction, with ``|a_only - b_only| - 1`` taken as 0 when negative)
    with chi-square on one degree of freedom.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_pred_a, y_pred_b : array-like of shape (n_samples,)
        The two classifiers' predicted labels for the same cases, with the
        labels of ``y_true``.
    method : {"exact", "chi2"}, default="exact"
        The reference distribution, see above.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).

    Returns
    -------
    result : McNemarResult
        Named tuple ``(statistic, p_value, a_only, b_only)``.  With no
        discordant case the statistic is 0 and the P value 1.

    See Also
    --------
    delong_test : Paired test of the AUCs (uses the scores, not decisions).

    Notes
    -----
    The test compares error rates, so on skewed data it is dominated by the
    majority class; compare the decisions on each class separately when the
    classes matter differently.  Both versions are conservative: in the
    book's simulations (chapter 13; 50 to 1,000 cases, 20,000 per setting)
    the 5% tests rejected a true null at 0.002-0.042, the chi-square version
    never more often than the exact one.

    References
    ----------
    .. [1] Q. McNemar, "Note on the sampling error of the difference between
       correlated proportions or percentages", Psychometrika 12, 153-157,
       1947.
    .. [2] T. G. Dietterich, "Approximate statistical tests for comparing
       supervised classification learning algorithms", Neural Computation
       10, 1895-1923, 1998.

    Examples
    --------
    >>> from auklib import mcnemar_test
    >>> y = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    >>> a = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    >>> b = [1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0]
    >>> res = mcnemar_test(y, a, b)
    >>> print(res.a_only, res.b_only, f"{res.p_value:.4f}")
    6 0 0.0312
    >>> print(f"{mcnemar_test(y, a, b, method='chi2').p_value:.4f}")
    0.0412
    """
    _check_option(method, "method", _MCNEMAR_METHODS)
    y_pos, da = _decisions(y_true, y_pred_a, pos_label, "y_pred_a")
    _, db = _decisions(y_true, y_pred_b, pos_label, "y_pred_b")
    _check_same_length(y_pred_a=da, y_pred_b=db)
    right_a, right_b = da == y_pos, db == y_pos
    a_only = int(np.count_nonzero(right_a & ~right_b))
    b_only = int(np.count_nonzero(right_b & ~right_a))
    n = a_only + b_only
    if n == 0:
        return McNemarResult(0.0, 1.0, 0, 0)
    if method == "exact":
        p = float(binomtest(a_only, n, 0.5).pvalue)
        return McNemarResult(float(a_only), min(1.0, p), a_only, b_only)
    stat = max(abs(a_only - b_only) - 1, 0) ** 2 / n
    return McNemarResult(float(stat), float(chi2.sf(stat, 1)), a_only, b_only)


def _table(y_true, y_pred, pos_label):
    """Cell shares (tp, fn, fp, tn) and the number of cases."""
    y_pos, d = _decisions(y_true, y_pred, pos_label, "y_pred")
    n = y_pos.shape[0]
    tp = np.count_nonzero(y_pos & d)
    fn = np.count_nonzero(y_pos & ~d)
    fp = np.count_nonzero(~y_pos & d)
    tn = n - tp - fn - fp
    return np.array([tp, fn, fp, tn], dtype=np.float64) / n, n


def _kappa_variance(cells, n):
    """Fleiss, Cohen & Everitt's (1969) large-sample variance of kappa, 2x2.

    With cell shares ``p_ij`` (rows = truth, columns = decision), row and
    column margins ``p_i.`` and ``p_.j``, ``p_o = sum p_ii`` and
    ``p_e = sum p_i. p_.i``, their non-null large-sample variance is::

        Var = ( sum_i p_ii [(1 - p_e) - (p_.i + p_i.)(1 - p_o)]^2
              + (1 - p_o)^2 sum_{i != j} p_ij (p_.i + p_j.)^2
              - (p_o p_e - 2 p_e + p_o)^2 ) / (n (1 - p_e)^4).

    Vectorised: ``cells`` is (tp, fn, fp, tn) along the first axis, each a
    share (array or number); NaN where p_e = 1.
    """
    tp, fn, fp, tn = (np.asarray(c, dtype=np.float64) for c in cells)
    r1, r2, c1, c2 = tp + fn, fp + tn, tp + fp, fn + tn  # truth rows, columns
    po, pe = tp + tn, r1 * c1 + r2 * c2
    total = (tp * ((1 - pe) - (c1 + r1) * (1 - po)) ** 2
             + tn * ((1 - pe) - (c2 + r2) * (1 - po)) ** 2
             + (1 - po) ** 2 * (fn * (c1 + r2) ** 2 + fp * (c2 + r1) ** 2)
             - (po * pe - 2 * pe + po) ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.maximum(total, 0.0) / (n * (1 - pe) ** 4)


def _mcc_variance(cells, n):
    """Delta-method variance of the MCC of a multinomial 2x2 table.

    The MCC ``M = (tp tn - fp fn) / sqrt(D)``, ``D`` the product of the four
    margins, is homogeneous of degree 0 in the cells, so its gradient ``g``
    satisfies ``sum_k p_k g_k = 0`` and the multinomial delta method gives
    ``Var = sum_k p_k g_k^2 / n``.  With ``N`` the numerator,
    ``dM/dp_k = (dN/dp_k) / sqrt(D) - M (d log D / dp_k) / 2``.
    Vectorised like :func:`_kappa_variance`; NaN where a margin is 0.
    """
    tp, fn, fp, tn = (np.asarray(c, dtype=np.float64) for c in cells)
    r1, r2, c1, c2 = tp + fn, fp + tn, tp + fp, fn + tn  # truth rows, columns
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(r1) * np.sqrt(r2) * np.sqrt(c1) * np.sqrt(c2)
        m = (tp * tn - fp * fn) / root
        dn = (tn, -fp, -fn, tp)  # d N / d (tp, fn, fp, tn)
        dlog = (1 / r1 + 1 / c1, 1 / r1 + 1 / c2, 1 / r2 + 1 / c1, 1 / r2 + 1 / c2)
        total = sum(c * (d / root - 0.5 * m * g) ** 2
                    for c, d, g in zip((tp, fn, fp, tn), dn, dlog))
    return total / n


# Below this many cases in a cell of the 2x2 table the large-sample kappa and
# MCC intervals are flagged: chapter 13's exact enumeration of every table
# (chapters/data/sim_comparing.py) finds them covering far less than they
# claim when a cell's expected count is about 1-2.
_MIN_CELL = 5


def _interval_inputs(y_true, y_pred, confidence_level, pos_label, what):
    confidence_level, _ = _check_options(confidence_level, 1)
    cells, n = _table(y_true, y_pred, pos_label)
    counts = np.rint(cells * n).astype(np.int64)
    if counts.min() < _MIN_CELL:
        tp, fn, fp, tn = counts
        _warn(
            f"A cell of the confusion matrix holds fewer than {_MIN_CELL} cases "
            f"(TP={tp}, FN={fn}, FP={fp}, TN={tn}): the large-sample {what} "
            "interval can cover much less than its level when a cell's "
            "expected count is this small. Report it with that caveat, or "
            "collect more cases of the rare class.",
            UserWarning,
        )
    return cells, n, float(ndtri(0.5 + confidence_level / 2))


def _fisher_z(m, se, z):
    """``tanh(atanh(m) -+ z se / (1 - m^2))``; the point m where |m| = 1."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = np.abs(m) < 1
        mm = np.where(inside, m, 0.0)
        centre, half = np.arctanh(mm), z * se / (1 - mm * mm)
        low = np.where(inside, np.tanh(centre - half), m)
        high = np.where(inside, np.tanh(centre + half), m)
    return low, high


def _kappa_interval(cells, n, z, method):
    """Kappa's interval from cell shares: (kappa, low, high, se) arrays.

    Vectorised over tables (``cells`` = (tp, fn, fp, tn) shares along the
    first axis); NaN where kappa is undefined (p_e = 1).  Shared by
    :func:`kappa_confidence_interval` and the book's exact enumeration of
    every table (chapters/data/sim_comparing.py).
    """
    tp, fn, fp, tn = (np.asarray(c, dtype=np.float64) for c in cells)
    kappa = _kappa_counts(tp, fn, fp, tn)  # the library's one kappa kernel
    pe = (tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)
    kappa = np.where(pe < 1, kappa, np.nan)
    se = np.sqrt(_kappa_variance((tp, fn, fp, tn), n))
    if method == "fisher-z":
        low, high = _fisher_z(kappa, se, z)
    else:
        low = np.maximum(-1.0, kappa - z * se)
        high = np.minimum(1.0, kappa + z * se)
    return kappa, low, high, se


def _mcc_interval(cells, n, z):
    """The MCC's interval (Fisher z scale) from cell shares, vectorised.

    (mcc, low, high, se) arrays, NaN where a margin is 0 (the MCC undefined).
    """
    tp, fn, fp, tn = (np.asarray(c, dtype=np.float64) for c in cells)
    defined = np.minimum(np.minimum(tp + fn, fp + tn), np.minimum(tp + fp, fn + tn)) > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        m = np.where(defined, _mcc(tp, fn, fp, tn), np.nan)  # the one MCC
    se = np.sqrt(_mcc_variance((tp, fn, fp, tn), n))
    low, high = _fisher_z(m, se, z)
    return m, low, high, se


def _as_result(values, undefined):
    """An AgreementInterval of floats from the 0-d arrays of one table.

    All NaN, after an UndefinedMetricWarning saying ``undefined``, when the
    estimate is NaN.
    """
    result = AgreementInterval(*(float(v) for v in values))
    if math.isnan(result.estimate):
        # attributed to the line that called the public function
        _warn(undefined, UndefinedMetricWarning)
        nan = float("nan")
        return AgreementInterval(nan, nan, nan, nan)
    return result


def kappa_confidence_interval(
    y_true, y_pred, *, confidence_level=0.95, method="fisher-z", pos_label=None
):
    """Large-sample confidence interval for Cohen's kappa of binary decisions.

    The cases are taken as a random sample, so the confusion matrix is
    multinomial; Fleiss, Cohen & Everitt (1969) give the large-sample
    variance of kappa (the variance of an estimated kappa, not the variance
    under kappa = 0 used to test it).  ``method="fisher-z"`` (the default)
    builds that standard error into ``atanh(kappa) +- z SE / (1 - kappa^2)``
    and maps it back with ``tanh``, as :func:`mcc_confidence_interval` does,
    which makes the interval asymmetric where kappa's sampling distribution
    is skewed; ``method="wald"`` gives ``kappa +- z SE``, cut at -1 and 1.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels, with the labels of ``y_true``.
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    method : {"fisher-z", "wald"}, default="fisher-z"
        The interval built on the standard error, see above; "fisher-z"
        covers better (Notes).  Before auklib 0.1.0 the default was
        "wald".
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).

    Returns
    -------
    result : AgreementInterval
        Named tuple ``(estimate, low, high, standard_error)``.  All NaN with
        an :class:`~auklib.UndefinedMetricWarning` when chance agreement is
        1 (a single class in both truth and decisions).

    Warns
    -----
    UserWarning
        When a cell of the confusion matrix holds fewer than 5 cases.

    See Also
    --------
    mcc_confidence_interval : The same for the MCC.
    kappa_from_confusion : Kappa of a confusion matrix.

    Notes
    -----
    The standard error is 0 when the decisions agree with the truth on
    every case (kappa = 1), so the interval shrinks to the point: a Wald
    interval cannot say how far below 1 the population kappa may be.

    The interval assumes many cases in every cell of the table, and warns
    when one holds fewer than 5.  Its exact coverage (every table of N
    cases enumerated with its multinomial probability, so without Monte
    Carlo error; the book's ``chapters/data/sim_comparing.py``, chapter 13),
    for two classifiers (sensitivity 0.8 and specificity 0.9; 0.6 and 0.95)
    at p = 0.05, 0.2 and 0.5: with 400 or 2,000 cases the Wald interval
    covers 0.936-0.950 and the Fisher-z one 0.942-0.951; with 100 cases
    0.934-0.942 and 0.945-0.957 at p = 0.2 and 0.5, but at p = 0.05 (five
    expected positive cases) only 0.899 and 0.918 for the first classifier
    and 0.887 and 0.902 for the second.  In those two designs at least
    99.6% of the tables draw the warning.

    In every one of these designs the Fisher-z interval covers at least as
    often as the Wald interval and closer to 0.95 (with 400 or more cases
    they differ by at most 0.006), so ``method="fisher-z"`` is the default,
    the interval the book recommends (chapter 13).  ``method="wald"`` is
    the interval R's ``vcd::Kappa`` prints (``confint``), for results that
    agree with it.

    References
    ----------
    .. [1] J. L. Fleiss, J. Cohen and B. S. Everitt, "Large sample standard
       errors of kappa and weighted kappa", Psychological Bulletin 72,
       323-327, 1969.

    Examples
    --------
    >>> from auklib import kappa_confidence_interval
    >>> y = [1] * 20 + [0] * 80
    >>> d = [1] * 15 + [0] * 5 + [1] * 10 + [0] * 70
    >>> res = kappa_confidence_interval(y, d)
    >>> print(f"{res.estimate:.4f} [{res.low:.4f}, {res.high:.4f}] "
    ...       f"SE {res.standard_error:.4f}")
    0.5714 [0.3492, 0.7328] SE 0.0980
    >>> res = kappa_confidence_interval(y, d, method="wald")
    >>> print(f"[{res.low:.4f}, {res.high:.4f}]")
    [0.3794, 0.7634]
    """
    _check_option(method, "method", _KAPPA_METHODS)
    cells, n, z = _interval_inputs(y_true, y_pred, confidence_level, pos_label, "kappa")
    return _as_result(
        _kappa_interval(cells, n, z, method),
        "Truth and decisions hold a single class, so chance agreement is 1 "
        "and kappa is undefined; kappa_confidence_interval returns NaN.",
    )


def mcc_confidence_interval(y_true, y_pred, *, confidence_level=0.95, pos_label=None):
    """Large-sample confidence interval for the MCC of binary decisions.

    The MCC's standard error is the multinomial delta method's (the
    gradient of the MCC with respect to the four cell shares).  The
    interval is built on Fisher's z scale, ``atanh(MCC) +- z SE /
    (1 - MCC^2)``, and mapped back with ``tanh``, so that it stays inside
    (-1, 1) and is asymmetric near the ends, as the MCC's sampling
    distribution is.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels, with the labels of ``y_true``.
    confidence_level : float, default=0.95
        Strictly between 0 and 1.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).

    Returns
    -------
    result : AgreementInterval
        Named tuple ``(estimate, low, high, standard_error)``, the standard
        error on the MCC's own scale.  All NaN with an
        :class:`~auklib.UndefinedMetricWarning` when a margin of the
        confusion matrix is 0 (the MCC is then undefined).

    Warns
    -----
    UserWarning
        When a cell of the confusion matrix holds fewer than 5 cases.

    See Also
    --------
    kappa_confidence_interval : The same for Cohen's kappa.

    Notes
    -----
    Only ``1 / sqrt(n - 3)`` would be Fisher's standard error for a
    correlation of bivariate *normal* data; the MCC is the correlation of
    two binary variables, whose variance depends on the margins, hence the
    delta method.  At MCC = +-1 the standard error is 0 and the interval a
    point.  It warns, as :func:`kappa_confidence_interval` does, when a cell
    holds fewer than 5 cases.  Exact coverage in the designs of
    :func:`kappa_confidence_interval` (among the tables in which the MCC is
    defined): 0.943-0.951 with 400 or 2,000 cases; with 100 cases
    0.948-0.953 at p = 0.2 and 0.5, and at p = 0.05 0.940 for the first
    classifier and 0.910 for the second.

    References
    ----------
    .. [1] Y. M. M. Bishop, S. E. Fienberg and P. W. Holland, "Discrete
       Multivariate Analysis: Theory and Practice", MIT Press, 1975,
       Chapter 14 (the delta method for multinomial data).
    .. [2] B. W. Matthews, "Comparison of the predicted and observed secondary
       structure of T4 phage lysozyme", Biochimica et Biophysica Acta 405,
       442-451, 1975.

    Examples
    --------
    >>> from auklib import mcc_confidence_interval
    >>> y = [1] * 20 + [0] * 80
    >>> d = [1] * 15 + [0] * 5 + [1] * 10 + [0] * 70
    >>> res = mcc_confidence_interval(y, d)
    >>> print(f"{res.estimate:.4f} [{res.low:.4f}, {res.high:.4f}] "
    ...       f"SE {res.standard_error:.4f}")
    0.5774 [0.3573, 0.7367] SE 0.0968
    """
    cells, n, z = _interval_inputs(y_true, y_pred, confidence_level, pos_label, "MCC")
    return _as_result(
        _mcc_interval(cells, n, z),
        "A margin of the confusion matrix is 0 (one class absent from the "
        "truth or the decisions), so the MCC is undefined; "
        "mcc_confidence_interval returns NaN.",
    )
