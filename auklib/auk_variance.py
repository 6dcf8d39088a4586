"""The AUK's influence function: an analytic standard error and interval.

The exact AUK of a test set is a smooth function of the two classes' level
probabilities: with the distinct scores v_1 > v_2 > ... > v_K, a positive
case lies at level k with share ``a_k`` and a negative with share ``b_k``,
the ROC path runs through ``(F_k, T_k) = (b_1 + ... + b_k, a_1 + ... + a_k)``
and the AUK is the sum of the exact integrals of kappa along its segments::

    AUK = sum_k S(F_{k-1}, T_{k-1}, b_k, a_k; p)

(``auklib.curves._exact_segments``).  The class share p is held fixed: the
class counts are part of the design, as in the stratified bootstrap of
:mod:`auklib.uncertainty`.  The delta method over the two multinomial
vectors of level shares gives the influence of one case: for a positive at
level k, ``IF+_k = dAUK/da_k - sum_j a_j dAUK/da_j``, and likewise for a
negative with b.  Then::

    Var(AUK) ~ Var(IF+) / N+ + Var(IF-) / N-

(sample variances over the cases, ``ddof=1``).  With continuous scores each
case is its own level and ``IF-`` of a negative at y reduces to
``kappa(T(y), F(y)) - AUK`` plus the effect of y on the false positive rate
of the others; at p = 1/2 kappa is t - f and the formula is DeLong's.

The partial derivatives of each segment's integral are taken by the complex
step (``Im S(x + i h) / h``, exact to rounding because S is analytic in its
arguments): the library's segment integral is reused, not re-derived.  The
gradient with respect to ``a_k`` collects the segment's own rise and the
start height of every segment below it, a reverse cumulative sum; the whole
computation costs one count of the scores (a sort) and a few O(K) passes.
"""

import functools
import math

import numpy as np
from scipy.special import expit, ndtr, stdtrit
from scipy.stats import t as student_t

from ._validation import (
    _check_binary_inputs,
    _check_weighted_shares,
    _one_class_undefined,
    _warn,
    _warn_default_majority,
)
from .curves import _binary_clf_counts, _exact_segments, _shares, auk_bounds
from .kappa import _kappa_pn

__all__ = []  # private: reached through auk_confidence_interval / auk_compare

_MIN_CASES = 10  # the simulations of chapter 10 go down to 10 positive cases
_STEP = 1e-30  # complex step: far below rounding, no cancellation
_ALL_NAN = (float("nan"),) * 4  # estimate, low, high, standard error of a single class


class _Influence:
    """One classifier's AUK and the influence of each score level.

    Attributes
    ----------
    estimate : float
        The exact AUK at the test set's class share.
    g_pos, g_neg : ndarray
        Influence of a positive (negative) case at each distinct score,
        highest first: ``dAUK/da_k`` (``dAUK/db_k``) centred by the class's
        level shares, so that the class mean of the influences is zero.
    """

    def __init__(self, y_pos, score, weight):
        fps, tps, thresholds = _binary_clf_counts(y_pos, score, weight)
        n_pos, n_neg = float(tps[-1]), float(fps[-1])
        p, n = _shares(n_pos, n_neg)
        self.p, self.n_pos, self.n_neg = p, n_pos, n_neg
        # the distinct scores, in the scores' own dtype (the thresholds are
        # float64, which merges integers beyond 2**53): see cases()
        self._score = score if weight is None else score[weight > 0]
        self._n_levels = thresholds.shape[0] - 1
        a_cnt, b_cnt = np.diff(tps), np.diff(fps)
        # Pieces of the ROC path with width: a maximal run of levels holding
        # negatives only (horizontal), or one level holding both (diagonal).
        # Levels holding positives only are vertical steps, over which the
        # integral is 0 whatever the start point: they add no partials.
        horiz = a_cnt == 0
        wide = b_cnt > 0
        prev_h = np.r_[False, horiz[:-1]]
        next_h = np.r_[horiz[1:], False]
        starts = np.flatnonzero(wide & ~(horiz & prev_h))
        ends = np.flatnonzero(wide & ~(horiz & next_h)) + 1  # end vertex
        f0, t0 = fps[starts] / n_neg, tps[starts] / n_pos
        w = (fps[ends] - fps[starts]) / n_neg
        r = (tps[ends] - tps[starts]) / n_pos
        fnr0, tnr0 = (n_pos - tps[starts]) / n_pos, (n_neg - fps[starts]) / n_neg
        rows = (starts.shape[0], 1)
        args = [v.reshape(rows).astype(complex) for v in (f0, t0, w, r, fnr0, tnr0)]
        p_col = np.full(rows, p)
        n_col = 1.0 - p_col

        def partial(i, j=None):
            x = list(args)
            x[i] = x[i] + 1j * _STEP
            if j is not None:
                x[j] = x[j] - 1j * _STEP  # fnr0 = 1 - t0, tnr0 = 1 - f0
            return np.imag(_exact_segments(*x, p_col, n_col)) / _STEP

        seg = np.real(_exact_segments(*args, p_col, n_col))
        self.estimate = float(np.sum(seg))
        d_f0, d_t0 = partial(0, 5), partial(1, 4)
        d_w, d_r = partial(2), partial(3)
        # suffix sums: the start partials of every piece from piece j on
        suf_t = np.r_[np.cumsum(d_t0[::-1])[::-1], 0.0]
        suf_f = np.r_[np.cumsum(d_f0[::-1])[::-1], 0.0]
        # piece of each level (levels before the first piece: -1)
        n_started = np.cumsum(wide & ~(horiz & prev_h))
        piece = n_started - 1
        # kappa at each piece's end: adding width to a negative level inside
        # a horizontal run lengthens the run at its end (same t), so
        # dAUK/db_k = kappa(run end) + the start partials of later pieces.
        kappa_end = _kappa_pn(tps[ends] / n_pos, fps[ends] / n_neg,
                              (n_pos - tps[ends]) / n_pos, (n_neg - fps[ends]) / n_neg,
                              p, n)
        g_pos = np.zeros(a_cnt.shape[0])
        g_neg = np.zeros(a_cnt.shape[0])
        vert = ~wide  # positives only: every piece after it moves up
        g_pos[vert] = suf_t[n_started[vert]]
        mixed = wide & ~horiz
        pm = piece[mixed]
        g_pos[mixed] = d_r[pm] + suf_t[pm + 1]
        g_neg[mixed] = d_w[pm] + suf_f[pm + 1]
        hz = wide & horiz
        ph = piece[hz]
        g_neg[hz] = kappa_end[ph] + suf_f[ph + 1]
        self.a, self.b = a_cnt / n_pos, b_cnt / n_neg
        g_pos -= np.dot(self.a, g_pos)
        g_neg -= np.dot(self.b, g_neg)
        self.g_pos, self.g_neg = g_pos, g_neg

    def variance_parts(self):
        """(v+, v-) of the unweighted cases, from the level counts."""
        n_pos, n_neg = self.n_pos, self.n_neg
        v_pos = float(np.dot(self.a, self.g_pos**2)) / (n_pos - 1) if n_pos > 1 else 0.0
        v_neg = float(np.dot(self.b, self.g_neg**2)) / (n_neg - 1) if n_neg > 1 else 0.0
        return v_pos, v_neg

    def cases(self, pos_score, neg_score, w_pos=None, w_neg=None):
        """Influence of each case (weighted: times its weight / class mean).

        Each case is matched to its level by its exact score, compared in the
        scores' own dtype: integer scores beyond 2**53 that float64 would
        merge stay apart, as they do in the counts.
        """
        levels = np.unique(self._score)  # increasing, exact
        if levels.shape[0] != self._n_levels:  # pragma: no cover - a counting bug
            raise RuntimeError("the score levels do not match the ROC counts")
        top = levels.shape[0] - 1
        if_pos = self.g_pos[top - np.searchsorted(levels, pos_score)]
        if_neg = self.g_neg[top - np.searchsorted(levels, neg_score)]
        if w_pos is not None:
            if_pos = if_pos * (w_pos / w_pos.mean())
            if_neg = if_neg * (w_neg / w_neg.mean())
        return if_pos, if_neg


def _variance_parts(if_pos, if_neg):
    """(v+, v-): Var(IF+)/N+ and Var(IF-)/N- with ddof=1 (0 for one case)."""
    n_pos, n_neg = if_pos.shape[0], if_neg.shape[0]
    v_pos = float(np.sum(if_pos**2)) / (n_pos * (n_pos - 1)) if n_pos > 1 else 0.0
    v_neg = float(np.sum(if_neg**2)) / (n_neg * (n_neg - 1)) if n_neg > 1 else 0.0
    return v_pos, v_neg


def _satterthwaite_df(v_pos, v_neg, n_pos, n_neg):
    """Welch-Satterthwaite degrees of freedom of the variance estimate."""
    den = 0.0
    if n_pos > 1:
        den += v_pos**2 / (n_pos - 1)
    if n_neg > 1:
        den += v_neg**2 / (n_neg - 1)
    if den == 0:
        return math.inf
    return (v_pos + v_neg) ** 2 / den


def _quantile(confidence_level, df):
    q = 0.5 + confidence_level / 2
    if math.isinf(df):
        from scipy.special import ndtri

        return float(ndtri(q))
    return float(stdtrit(df, q))  # Student's t quantile, as student_t.ppf


def _influences(y_true, scores, pos_label, sample_weight, caller, warn_few=True):
    """Validate; per score vector (influence, case influences or None).

    The case influences (positives, negatives) are formed only when
    ``cases`` is needed: for weighted cases or a paired comparison.
    ``warn_few=False`` leaves the few-cases and majority-class warnings to
    a caller that has already given its own (the BCa interval's
    acceleration).
    """
    out = []
    for s, need_cases in scores:
        y_pos, score, weight = _check_binary_inputs(y_true, s, pos_label, sample_weight)
        keep = np.ones(y_pos.shape[0], dtype=bool) if weight is None else weight > 0
        n_pos = int(np.count_nonzero(y_pos & keep))
        n_neg = int(np.count_nonzero(~y_pos & keep))
        if _one_class_undefined(n_pos, n_neg, "the AUK is", caller):
            return None
        if not out:
            w_pos, w_neg = n_pos, n_neg
            if weight is not None:
                w_pos, w_neg = float(np.sum(weight[y_pos])), float(np.sum(weight[~y_pos]))
                _check_weighted_shares(w_pos, w_neg, caller)
            if pos_label is None and warn_few:
                _warn_default_majority(y_true, w_pos, w_neg, caller)
        if warn_few and not out and min(n_pos, n_neg) < _MIN_CASES:
            few, cls = (n_pos, "positive") if n_pos <= n_neg else (n_neg, "negative")
            _warn(
                f"Only {few} {cls} case{'s' if few != 1 else ''} in y_true: the "
                "analytic interval was checked by simulation down to "
                f"{_MIN_CASES} cases of a class; below that its coverage is "
                "unknown.",
                UserWarning,
            )
        c = _Influence(y_pos, score, weight)
        cases = None
        if need_cases or weight is not None:
            pk, nk = y_pos & keep, ~y_pos & keep
            cases = c.cases(score[pk], score[nk],
                            None if weight is None else weight[pk],
                            None if weight is None else weight[nk])
        out.append((c, cases))
    return out


def _estimate_and_variance(y_true, y_score, pos_label, sample_weight, caller):
    """(influence, v+, v-, n+, n-, effective n+, effective n-) or None.

    ``v+ + v-`` is the influence-function variance of the AUK; ``n+``/``n-``
    count the cases with positive weight (the Welch-Satterthwaite degrees of
    freedom use them); the effective sizes are Kish's ``(sum w)^2 / sum w^2``
    of each class, the counts themselves without weights.
    """
    infl = _influences(y_true, [(y_score, False)], pos_label, sample_weight, caller)
    if infl is None:
        return None
    c, cases = infl[0]
    if cases is None:
        v_pos, v_neg = c.variance_parts()
        n_pos, n_neg = int(c.n_pos), int(c.n_neg)
        e_pos, e_neg = float(n_pos), float(n_neg)
    else:
        v_pos, v_neg = _variance_parts(*cases)
        n_pos, n_neg = cases[0].shape[0], cases[1].shape[0]
        _, score, weight = _check_binary_inputs(y_true, y_score, pos_label, sample_weight)
        y_pos = _check_binary_inputs(y_true, y_score, pos_label, None)[0]
        kept = weight > 0
        e_pos, e_neg = (float(np.sum(w) ** 2 / np.sum(w * w))
                        for w in (weight[kept & y_pos], weight[kept & ~y_pos]))
    return c, v_pos, v_neg, n_pos, n_neg, e_pos, e_neg


def analytic_interval(y_true, y_score, confidence_level, pos_label, sample_weight):
    """The interval of ``auk_confidence_interval(..., method="analytic")``.

    The standard error is ``sqrt(Var(IF+)/N+ + Var(IF-)/N-)`` (see the
    module docstring; the class counts, hence p, are held fixed).  The
    interval is built on the scale ``logit((AUK - lo) / (hi - lo))``, with
    ``(lo, hi) = auk_bounds(p)`` the range of the AUK at the class share p
    (at p = 1/2 the logit of the AUC, as in DeLong's interval of
    :func:`auklib.auc_confidence_interval`), and uses the quantile of
    Student's t with Welch-Satterthwaite degrees of freedom for the two
    variance terms.  Its variance vanishes at the bounds: with a sample
    ranked perfectly (or nearly) it is a point (or too short); the default
    :func:`score_interval` is not.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`auklib.auk_confidence_interval`, validated here.
    confidence_level : float
        Already checked to lie strictly between 0 and 1.

    Returns
    -------
    estimate, low, high, standard_error : float
        All NaN (with an :class:`~auklib.UndefinedMetricWarning`) when
        ``y_true`` holds one class only.  A zero standard error (a perfect
        ranking, constant influences) gives the point interval.

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the
       areas under two or more correlated receiver operating characteristic
       curves: a nonparametric approach", Biometrics 44, 837-845, 1988.
    .. [2] A. W. van der Vaart, "Asymptotic Statistics", Cambridge University
       Press, 1998, Chapters 3 and 20 (the delta method, influence functions).

    Examples
    --------
    >>> import numpy as np
    >>> from auklib import auk_confidence_interval, auc_confidence_interval
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.ones(50), np.zeros(450)]
    >>> s = np.r_[rng.normal(1.5, 1, 50), rng.normal(0, 1, 450)]
    >>> ci = auk_confidence_interval(y, s, method="analytic")
    >>> print(f"{ci.estimate:.3f} [{ci.low:.3f}, {ci.high:.3f}] "
    ...       f"SE {ci.standard_error:.4f}")
    0.189 [0.161, 0.210] SE 0.0120

    At p = 1/2 the standard error is DeLong's, ties included:

    >>> y2, s2 = [0, 0, 1, 0, 1, 1] * 5, [0.1, 0.4, 0.4, 0.8, 0.7, 0.9] * 5
    >>> a = auk_confidence_interval(y2, s2, method="analytic").standard_error
    >>> b = auc_confidence_interval(y2, s2).standard_error
    >>> bool(abs(a - b) < 1e-12)
    True
    """
    parts = _estimate_and_variance(y_true, y_score, pos_label, sample_weight,
                                   "auk_confidence_interval")
    if parts is None:
        return _ALL_NAN
    c, v_pos, v_neg, n_pos, n_neg, _, _ = parts
    se = math.sqrt(v_pos + v_neg)
    df = _satterthwaite_df(v_pos, v_neg, n_pos, n_neg)
    z = _quantile(confidence_level, df)
    est = c.estimate
    lo, hi = auk_bounds(c.p)
    x = (est - lo) / (hi - lo)
    if se == 0 or not 0 < x < 1:
        _warn(
            "The influence-function standard error is 0 (a perfectly ranked "
            "test set, or every case with the same influence): the analytic "
            "interval is a point, which says nothing about the population. "
            "Use the default method='score' instead.",
            UserWarning,
        )
        return est, est, est, se
    low, high = _logit_limits(est, se, z, lo, hi)
    return est, low, high, se


def _logit_limits(est, se, q, lo, hi):
    """``est +- q se`` on the logit scale of ``[lo, hi]``, mapped back.

    The logistic function is scipy's ``expit``, which takes any real (or
    infinite) argument: a huge half-width (few cases at a high confidence
    level, Student's t with one degree of freedom) gives the bound itself,
    not an OverflowError.
    """
    x = (est - lo) / (hi - lo)
    centre = math.log(x / (1 - x))
    half = q * se / ((hi - lo) * x * (1 - x))
    low = lo + (hi - lo) * float(expit(centre - half))
    high = lo + (hi - lo) * float(expit(centre + half))
    return low, high


# ------------------------------------------------------------ the score interval
# The power-law ROC family t = f^zeta (Hanley & McNeil's and Newcombe's
# exponential model: negative scores Exp(1), positive scores Exp(zeta)), on a
# grid of zeta wide enough that the AUK runs from within 1e-5 of its lower
# bound to within 1e-5 of its upper one at every p.
_LOG_ZETA = np.linspace(-12.0, 12.0, 241)
_QUANTILES = 1000  # quantiles of each class per member of the family
# the score interval's scale Vhat / V(AUK) is never taken below this, so that
# a (nearly) perfect ranking, whose Vhat is (nearly) 0, keeps a width.  Chosen
# on the tuning settings of chapters/data/sim_interval_width.py (400 test sets
# each) from 1/4, 1/2 and a pooling of the model's level with the data's:
# with 20 or more positive cases at AUC 0.99, 1/2 united with the analytic
# interval (the previous default) covered 0.975-0.985 at 1.3-1.4 times the
# narrowest width; 1/4 alone 0.938-0.975 at 0.99-1.00 times it.
_MIN_VARIANCE_RATIO = 0.25


@functools.lru_cache(maxsize=1)
def _power_grid():
    """The part of :func:`_power_family` that does not depend on p.

    The cells of the grid, one row per member of the family: the shares
    ``a`` of positives and ``b`` of negatives in each cell (ordered by f),
    and the true and false positive rates at each cell's midpoint (``t_mid``,
    ``f_mid``) and their complements summed from the other end (``t_rest``,
    ``f_rest``, which keep their precision near 1).  Computed once, read-only
    (six arrays of 241 x 2001, 23 MB); it is over half the cost of a member
    of the family at a new p.
    """
    zeta = np.exp(_LOG_ZETA)[:, None]
    q = np.linspace(0.0, 1.0, _QUANTILES + 1)[None, :]
    with np.errstate(under="ignore"):
        v = q ** (1.0 / zeta)  # quantiles of the positives' F(X)
        x = np.sort(np.concatenate((np.broadcast_to(q, v.shape), v), axis=1), axis=1)
        b = np.diff(x, axis=1)  # share of negatives per cell, ordered by f
        a = np.diff(x**zeta, axis=1)  # share of positives per cell
    t_mid = np.cumsum(a, axis=1) - a / 2
    f_mid = np.cumsum(b, axis=1) - b / 2
    t_rest = np.cumsum(a[:, ::-1], axis=1)[:, ::-1] - a / 2  # 1 - t_mid, exactly
    f_rest = np.cumsum(b[:, ::-1], axis=1)[:, ::-1] - b / 2
    grid = (a, b, t_mid, f_mid, t_rest, f_rest)
    for part in grid:
        part.setflags(write=False)
    return grid


@functools.lru_cache(maxsize=64)
def _power_family(p):
    """AUK and influence variances of the power-law ROC family at share p.

    For the ROC curve ``t(f) = f^zeta`` a negative's false positive rate
    ``U = F(Y)`` is uniform and a positive's ``V = F(X)`` has distribution
    function ``v^zeta``.  The influences of the module docstring become, with
    ``kappa_t`` and ``kappa_f`` kappa's partial derivatives along the curve,

        IF+(v) = int_v^1 kappa_t df - int_0^1 kappa_t t df
        IF-(u) = kappa(t(u), u) - AUK + int_u^1 kappa_f df - int_0^1 kappa_f f df,

    and ``Var(IF+) = E IF+(V)^2``, ``Var(IF-) = E IF-(U)^2``.  They are
    computed on the union of 1,000 quantiles of each class (so no cell of
    the grid holds more than 1/1000 of either class), with the midpoint
    rule; the AUK so computed agrees with the exact integral to 1e-6.

    Returns
    -------
    theta, log_var_pos, log_var_neg : ndarray
        Increasing AUKs of the family and the logarithms of the two
        influence variances, one per grid value of zeta.
    """
    a, b, t_mid, f_mid, t_rest, f_rest = _power_grid()
    n = 1.0 - p
    den = n * (p * t_mid + n * f_mid) + p * (p * t_rest + n * f_rest)
    kappa = _kappa_pn(t_mid, f_mid, t_rest, f_rest, p, n)
    kappa_t = (2 * p * n - kappa * p * (n - p)) / den
    kappa_f = (-2 * p * n - kappa * n * (n - p)) / den
    theta = np.sum(b * kappa, axis=1)

    def above(g):  # sum over the cells of higher f (lower scores), plus half its own
        return np.cumsum(g[:, ::-1], axis=1)[:, ::-1] - g / 2

    if_pos = above(b * kappa_t)
    if_pos -= np.sum(a * if_pos, axis=1, keepdims=True)
    if_neg = kappa + above(b * kappa_f)
    if_neg -= np.sum(b * if_neg, axis=1, keepdims=True)
    var_pos = np.sum(a * if_pos**2, axis=1)
    var_neg = np.sum(b * if_neg**2, axis=1)
    order = np.argsort(theta)
    theta, var_pos, var_neg = theta[order], var_pos[order], var_neg[order]
    # keep a strictly increasing theta (rounding at the two ends)
    ok = np.r_[True, np.diff(theta) > 0]
    tiny = np.finfo(float).tiny
    return (theta[ok], np.log(np.maximum(var_pos[ok], tiny)),
            np.log(np.maximum(var_neg[ok], tiny)))


def _model_variance(t, p, n_pos, n_neg):
    """The power-law model's variance of the AUK at candidate value(s) t."""
    theta, lv_pos, lv_neg = _power_family(p)
    return (np.exp(np.interp(t, theta, lv_pos)) / n_pos
            + np.exp(np.interp(t, theta, lv_neg)) / n_neg)


def _score_limits(est, scale, q, p, n_pos, n_neg):
    """Limits of ``{t : (est - t)^2 <= q^2 scale V(t)}`` inside ``auk_bounds(p)``.

    ``V`` is :func:`_model_variance`.  On each side of the estimate the
    boundary nearest to it is bracketed on a grid of 257 points, and the
    bracket refined five times the same way (to 2^-40 of the range); an
    estimate at a bound keeps that bound as its limit and gets a proper
    other limit, since ``V`` is positive inside the bounds.
    """
    lo, hi = auk_bounds(p)

    def outside(t):
        return (est - t) ** 2 > q * q * scale * _model_variance(t, p, n_pos, n_neg)

    low, high = lo, hi
    if est > lo:
        a, b = lo, est  # a rejected, b (the estimate) kept
        for _ in range(5):
            t = np.linspace(a, b, 257)
            out = np.flatnonzero(outside(t))
            if out.size == 0:  # the bound itself not rejected (model's tail)
                break
            a, b = t[out[-1]], t[out[-1] + 1]
        low = 0.5 * (a + b) if a > lo or out.size else lo
    if est < hi:
        a, b = est, hi  # a kept, b rejected
        for _ in range(5):
            t = np.linspace(a, b, 257)
            out = np.flatnonzero(outside(t))
            if out.size == 0:
                break
            a, b = t[out[0] - 1], t[out[0]]
        high = 0.5 * (a + b) if b < hi or out.size else hi
    return float(low), float(high)


def score_interval(y_true, y_score, confidence_level, pos_label, sample_weight):
    """The default interval of :func:`auklib.auk_confidence_interval`.

    A score-type interval, the AUK's counterpart of the AUC's default in
    :func:`auklib.auc_confidence_interval`: the variance is evaluated at
    each candidate value ``t`` of the AUK instead of at the estimate, and
    the interval keeps every ``t`` that the estimate does not reject::

        (AUK - t)^2 <= q^2 max(Vhat / V(AUK), 1/4) V(t).

    An earlier version was also united with the analytic interval
    (:func:`analytic_interval`) and its floor was 1/2: that interval
    over-covered at high separation (0.975-0.988 at AUC 0.99 with 20 to
    500 positive cases) at up to 1.4 times the narrowest width that
    covers; see ``chapters/data/sim_interval_width.py``.

    ``V(t)`` is the influence-function variance ``Var(IF+)/N+ +
    Var(IF-)/N-`` of the AUK when the ROC curve is ``t = f^zeta`` (the
    exponential model of Hanley & McNeil and Newcombe's Method 5, one
    member per AUK at the test set's p; :func:`_power_family`); ``Vhat`` is
    the test set's own influence-function variance (ties included), and
    ``q`` Student's t quantile with Welch-Satterthwaite degrees of freedom
    of ``Vhat``'s two parts.  The model gives the shape of the variance
    along the AUK's range, the data its level; the level is floored at a
    quarter of the model's, so that a test set ranked (nearly) perfectly, whose
    ``Vhat`` is (nearly) 0, keeps a width.  ``V`` is
    positive inside the AUK's range ``auk_bounds(p)`` and vanishes at its
    ends, so the interval always has a width, lies inside the range, and at
    a perfectly ranked test set is ``[low, AUK_max]`` with ``low <
    AUK_max``.  With weights, N+ and N- are Kish's effective sizes.

    Returns
    -------
    estimate, low, high, standard_error : float
        The standard error is ``sqrt(Vhat)``, as for ``method="analytic"``;
        all NaN (with a warning) for a single class.
    """
    parts = _estimate_and_variance(y_true, y_score, pos_label, sample_weight,
                                   "auk_confidence_interval")
    if parts is None:
        return _ALL_NAN
    return _score_from_parts(parts, confidence_level)


def _score_from_parts(parts, confidence_level):
    """:func:`score_interval` from :func:`_estimate_and_variance`'s parts."""
    c, v_pos, v_neg, n_pos, n_neg, e_pos, e_neg = parts
    v_hat = v_pos + v_neg
    est = c.estimate
    v_model = float(_model_variance(est, c.p, e_pos, e_neg))
    q = _quantile(confidence_level, _satterthwaite_df(v_pos, v_neg, n_pos, n_neg))
    # the model's shape scaled to the data's variance, the scale floored so
    # that a test set ranked (nearly) perfectly, whose Vhat is (nearly) 0,
    # keeps a width
    ratio = v_hat / v_model if v_model > 0 else 0.0
    scale = q * q * max(ratio, _MIN_VARIANCE_RATIO)
    low, high = _score_limits(est, scale, 1.0, c.p, e_pos, e_neg)
    return est, min(low, est), max(high, est), math.sqrt(v_hat)


def analytic_compare(y_true, a, b, confidence_level, pos_label, sample_weight):
    """The paired comparison of ``auk_compare(method="analytic")``.

    The influence of each case on AUK(a) - AUK(b) is the difference of its
    influences on the two AUKs, so the covariance of the two estimates is
    carried by the cases themselves: the variance of the difference is
    ``Var(IF+_a - IF+_b)/N+ + Var(IF-_a - IF-_b)/N-``.  The interval is
    ``difference +- t SE`` with Student's t on Welch-Satterthwaite degrees
    of freedom, and the P-value is two-sided from the same t statistic, so
    it is below ``1 - confidence_level`` exactly when the interval excludes
    0.

    Parameters
    ----------
    y_true, pos_label, sample_weight
        As in :func:`auklib.auk_compare`, validated here.
    a, b : ndarray
        The two score vectors, already checked to be numeric and of one
        length.
    confidence_level : float
        Already checked to lie strictly between 0 and 1.

    Returns
    -------
    difference, low, high, p_value : float
        All NaN (with a warning) for a single class.

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44,
       837-845, 1988 (the paired AUC comparison this generalises).

    Examples
    --------
    >>> import numpy as np
    >>> from auklib import auk_compare
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.ones(100), np.zeros(900)]
    >>> latent = np.r_[rng.normal(1.5, 1, 100), rng.normal(0, 1, 900)]
    >>> a = latent + rng.normal(0, 0.3, 1000)
    >>> b = latent + rng.normal(0, 1.0, 1000)
    >>> res = auk_compare(y, a, b, method="analytic")
    >>> print(f"{res.difference:.3f} [{res.low:.3f}, {res.high:.3f}] "
    ...       f"P = {res.p_value:.4f}")
    0.027 [0.008, 0.046] P = 0.0055
    """
    infl = _influences(y_true, [(a, True), (b, True)], pos_label, sample_weight,
                       "auk_compare")
    if infl is None:
        return _ALL_NAN
    (ca, (pa, na)), (cb, (pb, nb)) = infl
    d_pos, d_neg = pa - pb, na - nb
    v_pos, v_neg = _variance_parts(d_pos, d_neg)
    se = math.sqrt(v_pos + v_neg)
    diff = ca.estimate - cb.estimate
    df = _satterthwaite_df(v_pos, v_neg, d_pos.shape[0], d_neg.shape[0])
    z = _quantile(confidence_level, df)
    if se == 0:
        return diff, diff, diff, (1.0 if diff == 0 else 0.0)
    stat = abs(diff) / se
    p_value = float(2 * (ndtr(-stat) if math.isinf(df) else student_t.sf(stat, df)))
    return diff, diff - z * se, diff + z * se, min(1.0, p_value)
