"""Cohen's kappa of a binary classifier, from counts and from ROC rates.

Equation numbers refer to Kaymak, Ben-David & Potharst (2012) in its 2010
report version, which numbers the equations (1)-(26).
"""

import numpy as np

from ._validation import (
    _broadcast,
    _check_option,
    _check_prevalence,
    _check_rates,
    _finite_float_array,
    _is_numeric,
    _reject_none_and_complex,
    _warn_undefined,
)

__all__ = ["kappa_from_confusion", "kappa_from_matrix", "kappa_from_rates", "tpr_from_kappa"]


def _kappa_counts(tp, fn, fp, tn):
    """Cohen's kappa of 2x2 tables, no checks; 0/0 gives NaN silently.

    The counts become rates and class shares (ratios of counts, so that
    neither counts of 1e200 nor weights of 1e-200 overflow or underflow) and
    go to the one kappa kernel, :func:`_kappa_pn`.  A table with an empty
    class gets rate 0 for that class: kappa is then 0 when the prediction
    uses both classes and 0/0 = NaN when it does not, as eqs. (11)-(12) give.
    """
    tp, fn, fp, tn = (np.asarray(v, dtype=np.float64) for v in (tp, fn, fp, tn))
    pos, neg = tp + fn, fp + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        big = np.maximum(pos, neg)
        a, b = pos / big, neg / big
        p, n = a / (a + b), b / (a + b)  # each share from its own count
        t, fnr = (np.where(pos > 0, v / np.where(pos > 0, pos, 1.0), 0.0) for v in (tp, fn))
        f, tnr = (np.where(neg > 0, v / np.where(neg > 0, neg, 1.0), 0.0) for v in (fp, tn))
    return _kappa_pn(t, f, fnr, tnr, p, n)


def kappa_from_confusion(tp, fn, fp, tn):
    """Cohen's kappa of a binary confusion matrix.

    Implements eqs. (1), (11) and (12) of Kaymak et al.: with accuracy
    ``a = TP + TN`` and chance agreement ``p_c = p p_hat + n n_hat`` (all as
    fractions of the total), ``kappa = (a - p_c) / (1 - p_c)``.

    Parameters
    ----------
    tp, fn, fp, tn : float or array-like
        Counts or fractions of true positives, false negatives, false
        positives and true negatives.  They broadcast against each other, so
        arrays give one kappa per table.  They need not sum to 1.

    Returns
    -------
    kappa : float or ndarray
        Cohen's kappa in [-1, 1], a float for scalar input.  NaN (with an
        :class:`~auklib.UndefinedMetricWarning`) where chance agreement is
        certain, i.e. when the truth or the prediction puts everything in one
        class and the other is empty.

    Raises
    ------
    ValueError
        If a count is negative, NaN or infinite, or a table sums to zero.
    TypeError
        If a count is not numeric.

    References
    ----------
    .. [1] J. Cohen, "A coefficient of agreement for nominal scales",
       Educational and Psychological Measurement 20, 37-46, 1960.
    .. [2] U. Kaymak, A. Ben-David and R. Potharst, "The AUK: a simple
       alternative to the AUC", Engineering Applications of Artificial
       Intelligence 25(5), 1082-1089, 2012.

    Examples
    --------
    Classifier A of the paper's Table 1:

    >>> from auklib import kappa_from_confusion
    >>> round(kappa_from_confusion(tp=0.05, fn=0.02, fp=0.03, tn=0.90), 3)
    0.64
    >>> kappa_from_confusion([5, 4], [2, 2], [3, 3], [90, 91]).round(3)
    array([0.64 , 0.589])
    """
    names = ("tp", "fn", "fp", "tn")
    arrays = {}
    for name, value in zip(names, (tp, fn, fp, tn)):
        arr = _finite_float_array(value, name)
        if np.any(arr < 0):
            raise ValueError(f"{name} contains negative counts.")
        arrays[name] = arr
    arrays = _broadcast(**arrays)
    tp_, fn_, fp_, tn_ = arrays
    if np.any(tp_ + fn_ + fp_ + tn_ == 0):
        raise ValueError("A confusion matrix sums to zero: there is nothing to score.")
    kappa = _kappa_counts(tp_, fn_, fp_, tn_)
    if np.any(np.isnan(kappa)):
        _warn_undefined(
            "kappa is undefined (0/0) for a table whose truth or prediction "
            "puts every sample in the same class; returning NaN there."
        )
    return kappa.item() if kappa.ndim == 0 else kappa


def kappa_from_rates(*, tpr, fpr, prevalence):
    """Cohen's kappa of the ROC point (fpr, tpr) when a share p is positive.

    Eq. (19) of Kaymak et al.::

        kappa = 2 p (1 - p) (t - f) / (p + (1 - 2p) f + p (1 - 2p) (t - f))

    The arguments are keyword-only: scikit-learn's ``roc_curve`` and
    :func:`auk_from_roc` give the rates in the order (fpr, tpr), and
    swapping them silently negates the sign of t - f.

    Parameters
    ----------
    tpr : float or array-like
        True positive rate(s) t, in [0, 1].
    fpr : float or array-like
        False positive rate(s) f, in [0, 1]; broadcasts against ``tpr``.
    prevalence : float or array-like
        Share p of positives in the data, strictly between 0 and 1.

    Returns
    -------
    kappa : float or ndarray
        Kappa of each point, a float for scalar input.

    References
    ----------
    .. [1] U. Kaymak, A. Ben-David and R. Potharst, "The AUK: a simple
       alternative to the AUC", Engineering Applications of Artificial
       Intelligence 25(5), 1082-1089, 2012, eq. (19).

    Examples
    --------
    >>> from auklib import kappa_from_rates
    >>> round(kappa_from_rates(tpr=0.05 / 0.07, fpr=0.03 / 0.93, prevalence=0.07), 3)
    0.64
    >>> kappa_from_rates(tpr=0.8, fpr=0.3, prevalence=0.5)  # p = 1/2: t - f, eq. (20)
    0.5
    """
    t = _check_rates(tpr, "tpr")
    f = _check_rates(fpr, "fpr")
    p = _check_prevalence(prevalence)
    t, f, p = _broadcast(tpr=t, fpr=f, prevalence=p)
    kappa = _kappa_rates(t, f, p)
    return kappa.item() if np.ndim(kappa) == 0 else kappa


def _kappa_rates(t, f, p):
    """Eq. (19) without checks: :func:`_kappa_pn` with the complements formed here."""
    return _kappa_pn(t, f, 1.0 - t, 1.0 - f, p, 1.0 - p)


def _kappa_pn(t, f, fnr, tnr, p, n):
    """The kappa kernel: kappa from the rates with both class shares given.

    Every kappa of auklib (from counts, from rates, along a curve) is
    computed here, as eq. (19) written with non-negative terms::

        kappa = 2 p n (t - f) / (n (p t + n f) + p (p fnr + n tnr))

    the denominator being ``n p_hat + p n_hat``, so that no digit cancels
    when a class is rare.  ``fnr = 1 - t``, ``tnr = 1 - f`` and
    ``n = 1 - p`` are passed in, so that callers who count can give them
    exactly (no cancellation when p or t is within rounding of 1).  0/0
    gives NaN silently; the result is clipped to [-1, 1], the range of kappa
    (rounding at the corners can otherwise give 1 + 2e-16).
    """
    den = n * (p * t + n * f) + p * (p * fnr + n * tnr)
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = 2.0 * p * n * (t - f) / den
    if np.ndim(kappa) == 0:
        return np.float64(min(1.0, max(-1.0, kappa))) if kappa == kappa else np.float64(kappa)
    return np.clip(kappa, -1.0, 1.0, out=kappa)


def tpr_from_kappa(kappa, fpr, prevalence):
    """The true positive rate at which an ROC point has a given kappa.

    Solves eq. (19) for t, which is eq. (16) with the predicted positive share
    of eq. (17) substituted::

        t = (kappa p + f (1 - p) (2p + kappa (1 - 2p)))
            / (p (2 (1 - p) - kappa (1 - 2p)))

    The points with equal kappa form a straight line in ROC space (an
    iso-kappa line).

    Parameters
    ----------
    kappa : float or array-like
        Kappa value(s) in [-1, 1].
    fpr : float or array-like
        False positive rate(s) f in [0, 1].
    prevalence : float or array-like
        Share p of positives, strictly between 0 and 1.

    Returns
    -------
    tpr : float or ndarray
        The t with ``kappa_from_rates(tpr=t, fpr=f, prevalence=p) == kappa``.  A value outside
        [0, 1] means that no ROC point at this f reaches that kappa.  NaN
        where the iso-kappa line is vertical: for p >= 3/4 and
        kappa = -2(1 - p)/(2p - 1) the coefficient of t in eq. (19) vanishes
        and the points with that kappa form the line f = p/(2p - 1) > 1,
        outside ROC space, so no ROC point has that kappa and no t answers.
        (That kappa is below the smallest one possible at p, -2pn/(1 - 2pn).)

    Examples
    --------
    >>> from auklib import tpr_from_kappa, kappa_from_rates
    >>> t = tpr_from_kappa(0.3, fpr=0.1, prevalence=0.07)
    >>> round(t, 4)
    0.5173
    >>> round(kappa_from_rates(tpr=t, fpr=0.1, prevalence=0.07), 12)
    0.3
    >>> tpr_from_kappa(0.0, 0.25, 0.3)  # kappa = 0 is the diagonal t = f
    0.25
    """
    _reject_none_and_complex(kappa, "kappa")
    if not _is_numeric(kappa):
        raise TypeError("kappa must be a number or an array of numbers.")
    k = np.asarray(kappa, dtype=np.float64)
    if not np.all(np.isfinite(k)) or np.any(np.abs(k) > 1):
        raise ValueError("kappa must lie in [-1, 1].")
    f = _check_rates(fpr, "fpr")
    p = _check_prevalence(prevalence)
    k, f, p = _broadcast(kappa=k, fpr=f, prevalence=p)
    n = 1.0 - p
    q = 1.0 - 2.0 * p
    den = p * (2.0 * n - k * q)
    # zero up to the rounding of 2n - k q: the iso-kappa line is vertical
    vertical = np.abs(2.0 * n - k * q) <= 4 * np.finfo(float).eps * (2.0 * n + np.abs(k * q))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (k * p + f * n * (2.0 * p + k * q)) / den
    t = np.where(vertical, np.nan, t)
    return t.item() if np.ndim(t) == 0 else t


def kappa_from_matrix(confusion, *, weights=None):
    """Cohen's kappa of a c x c confusion matrix, optionally weighted.

    With observed shares ``O = C / C.sum()``, chance shares
    ``E = outer(row totals, column totals)`` and disagreement weights ``W``
    (0 on the diagonal), ``kappa = 1 - sum(W O) / sum(W E)``.  Unweighted
    kappa uses ``W = 1 - I``; for ordered classes ``"linear"`` uses
    ``|i - j|`` and ``"quadratic"`` ``(i - j)^2`` (Cohen 1968).  For two
    classes and no weights this is :func:`kappa_from_confusion`.

    Parameters
    ----------
    confusion : array-like of shape (c, c)
        Counts or shares; rows are true classes, columns predicted classes.
    weights : {None, "linear", "quadratic"}, default=None
        Disagreement weights: None for unweighted kappa, ``"linear"`` or
        ``"quadratic"`` for ordered classes.

    Returns
    -------
    kappa : float
        NaN with a warning when chance disagreement is zero.

    Examples
    --------
    >>> from auklib import kappa_from_matrix
    >>> round(kappa_from_matrix([[5, 2], [3, 90]]), 4)
    0.6398
    >>> round(kappa_from_matrix([[4, 1, 0], [1, 3, 1], [0, 2, 5]], weights="linear"), 4)
    0.6693
    """
    _check_option(weights, "weights", (None, "linear", "quadratic"))
    _reject_none_and_complex(confusion, "confusion")
    if not _is_numeric(confusion):
        raise TypeError("confusion must be a numeric square matrix.")
    c = np.asarray(confusion, dtype=np.float64)
    if c.ndim != 2 or c.shape[0] != c.shape[1] or c.shape[0] < 2:
        raise ValueError(f"confusion must be a square matrix of at least 2 x 2; got shape {c.shape}.")
    if not np.all(np.isfinite(c)) or np.any(c < 0):
        raise ValueError("confusion must hold finite, non-negative counts.")
    total = c.sum()
    if total == 0:
        raise ValueError("The confusion matrix sums to zero: there is nothing to score.")
    obs = c / total
    exp = np.outer(obs.sum(axis=1), obs.sum(axis=0))
    i, j = np.indices(c.shape)
    w = {None: (i != j).astype(float), "linear": np.abs(i - j).astype(float),
         "quadratic": ((i - j) ** 2).astype(float)}[weights]
    chance = float(np.sum(w * exp))
    if chance == 0:
        _warn_undefined("kappa is undefined: chance disagreement is zero (a single class).")
        return float("nan")
    return 1.0 - float(np.sum(w * obs)) / chance
