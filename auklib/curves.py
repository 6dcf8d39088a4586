"""Kappa curves and the area under them (AUK) for binary scores.

Every public function here goes through :func:`_binary_clf_counts`, which
counts (FP, TP) at each distinct threshold: by sorting each class's scores
and merging them, or, when the scores take few distinct values, by hashing
them and counting with ``np.bincount`` (no sort).  An area needs fewer
counts: asked for the segments of the ROC path, it sorts all the scores
once and the smaller class's apart and finds where the path turns by one
binary search per distinct score of the smaller class (no n-length array
of counts).  The exact AUK integrates kappa along those segments; the
trapezoid rule sums the horizontal runs of one-sample steps in closed form.
"""

import functools
from collections import namedtuple

import numpy as np

from ._validation import (
    _check_binary_inputs,
    _check_option,
    _check_rates,
    _check_same_length,
    _one_class_undefined,
    _scalar_prevalence,
    _warn_default_majority,
)
from .kappa import _kappa_pn

__all__ = [
    "kappa_curve",
    "auk_score",
    "auk_from_roc",
    "roc_convex_hull",
    "auk_bounds",
    "kappa_optimal_point",
    "KappaOptimalPoint",
]

_METHODS = ("exact", "trapezoid")

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


_RANK_BLOCK = 4096  # sorted needles searched per block


def _ranks(values, needles, side="left"):
    """``np.searchsorted(values, needles, side)`` for increasing ``needles``.

    The needles of a block all lie between the positions of its first needle
    and of the next block's first, so each block is searched in that slice
    of ``values`` (a slice that fits in cache) instead of in all of it: a
    fifth faster for 10^6 needles in 10^7 values.
    """
    m = needles.shape[0]
    if m <= 2 * _RANK_BLOCK:
        return np.searchsorted(values, needles, side=side)
    bounds = np.searchsorted(values, needles[::_RANK_BLOCK], side=side).tolist()
    bounds.append(values.shape[0])
    out = np.empty(m, dtype=np.intp)
    for i, a in enumerate(range(0, m, _RANK_BLOCK)):
        b = a + _RANK_BLOCK
        lo = bounds[i]
        r = np.searchsorted(values[lo : bounds[i + 1]], needles[a:b], side=side)
        r += lo
        out[a:b] = r
    return out


def _split_sorted(y_pos, score, n_pos):
    """The positives' scores and the negatives' scores, each sorted increasing.

    numpy sorts plain values several times faster than ``np.argsort``
    orders them, and the two sorts together cost about one sort of all the
    scores.  The smaller class is gathered by its indices (a short index
    array), the larger by a mask.  Scores keep their dtype: integers are
    compared as integers, exactly, beyond 2**53 too.
    """
    n = score.shape[0]
    if n_pos <= n - n_pos:
        pos = score.take(np.flatnonzero(y_pos))
        neg = score[~y_pos]
    else:
        neg = score.take(np.flatnonzero(~y_pos))
        pos = score[y_pos]
    pos.sort()
    neg.sort()
    return pos, neg


def _tied_runs(values):
    """(start, stop) of each run of two or more equal values of a sorted array.

    Found from the equal neighbours when ties are rare, from the unequal
    ones when they are common (few distinct values): never an index per
    sample.
    """
    if values.shape[0] < 2:
        return None
    same = values[1:] == values[:-1]
    n_same = int(np.count_nonzero(same))
    if n_same == 0:
        return None
    if 2 * n_same <= same.shape[0]:
        same = np.flatnonzero(same)
        breaks = np.flatnonzero(np.diff(same) != 1)
        starts = same[np.concatenate(([0], breaks + 1))]
        stops = same[np.append(breaks, same.shape[0] - 1)] + 2
        return starts, stops
    np.logical_not(same, out=same)
    bounds = np.concatenate(([0], np.flatnonzero(same) + 1, [values.shape[0]]))
    long = np.flatnonzero(np.diff(bounds) > 1)
    return bounds[long], bounds[long + 1]


_Segments = namedtuple("_Segments",
                       ["fps", "tps", "width", "rise", "run", "ties", "n_neg", "n_pos"])
_Segments.__doc__ = """The straight segments of positive width of an ROC path, in counts.

Segment i goes from (fps[i], tps[i]) to (fps[i] + width[i], tps[i] + rise[i]);
together they are the whole path but for its vertical stretches (which add
nothing to an area under kappa against the fpr), in any order.  ``run[i]``
(True: every segment) marks a horizontal stretch whose inner vertices were
left out: the path has
a vertex at each distinct negative score in it, a step of one sample each
except for the tied negatives listed in ``ties``, a tuple (fps, tps, size)
of the steps of several samples inside such stretches (None when not asked
for).  Without ``run`` every segment is one step of the path.  ``n_neg`` and
``n_pos`` are the (weighted) sizes of the classes, where the path ends.
"""


def _counts_turns(y_pos, score, ties=False):
    """The segments of the ROC path between its turns, unweighted, as :class:`_Segments`.

    The path is known from the distinct scores u of the smaller class x
    alone: at u it steps from A = (#other > u, #x > u) to B = (#other >= u,
    #x >= u) (a diagonal when the other class ties at u, else along x's
    axis), and between two consecutive values of u it runs straight along
    the other class's axis.  With all the scores sorted (one ``np.sort``,
    several times faster than ordering them by ``np.argsort``) and x's
    sorted apart, one binary search of the sorted u gives #all < u, and so
    every A and B: the samples in between are never visited one by one, no
    n-length array of counts is formed, and scores that take few distinct
    values cost one sort of tied values (which numpy sorts fast) and a few
    searches.  With ``ties=True`` the ties among the negatives inside a
    horizontal run are listed too, for the trapezoid rule.
    """
    n = score.shape[0]
    n_pos = int(np.count_nonzero(y_pos))
    x_is_pos = n_pos <= n - n_pos
    x = score.take(np.flatnonzero(y_pos if x_is_pos else ~y_pos))
    x.sort()
    every = np.sort(score)
    _check_sorted_finite(every)
    mx, my = x.shape[0], n - x.shape[0]
    # the distinct values u of x, increasing; with x's own ties, #x < u
    # (xlo) and #x at u (x_at); without them u is x, xlo[j] = j and x_at = 1
    new = x[1:] != x[:-1]
    if new.all():
        u, xlo, x_at = x, None, 1
    else:
        xlo = np.concatenate(([0], np.flatnonzero(new) + 1))
        u = x[xlo]
        x_at = np.diff(np.append(xlo, mx))
    del new
    k = u.shape[0]
    below = _ranks(every, u, "left")  # all samples below u
    # the other class at u (e_at > 0: a diagonal step): is the score after
    # x's samples equal to u still u?
    below += x_at
    at = np.flatnonzero(every.take(below, mode="clip") == u)
    below -= x_at
    at = at[below[at] + (x_at if np.ndim(x_at) == 0 else x_at[at]) < n]
    e_at = (np.searchsorted(every, u[at], side="right") - below[at]
            - (x_at if np.ndim(x_at) == 0 else x_at[at]))
    inner = _inner_ties(x, every) if ties and x_is_pos else None
    del every, x, u
    if xlo is None:
        xlo = np.arange(k, dtype=np.int64)
    xhi = xlo + x_at
    ylo = below
    ylo -= xlo  # the other class below u
    del below
    if not x_is_pos:
        # x are the negatives: the step at each u is #neg == u wide (rising
        # where positives tie); between two values of u the path runs up
        # (vertical, no area)
        yhi = ylo.copy()
        yhi[at] += e_at
        return _Segments(mx - xhi, my - yhi, xhi - xlo, yhi - ylo, None, None, mx, my)
    # between two values of u (and above the first, below the last) the path
    # runs along the negatives, from B of the higher u to A of the lower, at
    # the height of B: start = my - ylo, end = my - yhi (of the lower u)
    start = np.empty(k + 1, dtype=np.int64)
    start[0] = 0
    np.subtract(my, ylo[::-1], out=start[1:])
    width = np.empty(k + 1, dtype=np.int64)
    np.subtract(start[1:], start[:-1], out=width[:-1])
    width[-1] = my - start[-1]
    width[k - 1 - at] -= e_at  # up to A of u where negatives tie with u
    height = np.empty(k + 1, dtype=np.int64)
    height[0] = 0
    np.subtract(mx, xlo[::-1], out=height[1:])
    if at.shape[0] == 0:
        flat = np.broadcast_to(np.int64(0), start.shape)  # no memory
        return _Segments(start, height, width, flat, True, inner, my, mx)
    # at u, from A to B: a diagonal where negatives tie with u
    diagonal = (my - ylo[at] - e_at, mx - xhi[at], e_at, xhi[at] - xlo[at])
    fp0, tp0, w, rise = diagonal
    run = np.zeros(k + 1 + at.shape[0], dtype=bool)
    run[: k + 1] = True
    return _Segments(np.concatenate((start, fp0)), np.concatenate((height, tp0)),
                     np.concatenate((width, w)),
                     np.concatenate((np.zeros(k + 1, dtype=np.int64), rise)), run, inner, my, mx)


_EMPTY = np.zeros(0, dtype=np.int64)


def _inner_ties(pos, every):
    """(fps, tps, size) of each run of tied scores that no positive shares.

    ``pos`` and ``every`` are the positives' and all the scores, sorted.
    Such a run is all negatives: a step of several samples inside the
    horizontal stretch at its height (the number of positives above it).
    """
    runs = _tied_runs(every)
    if runs is None:
        return _EMPTY, _EMPTY, _EMPTY
    starts, stops = runs
    value = every[starts]
    below = np.searchsorted(pos, value, side="left")
    mp = pos.shape[0]
    inner = pos[np.minimum(below, mp - 1)] != value if mp else np.ones(value.shape, bool)
    starts, stops, below = starts[inner], stops[inner], below[inner]
    # negatives above the run: all samples above it less the positives there
    above = every.shape[0] - stops - (mp - below)
    return above, mp - below, stops - starts


def _check_sorted_finite(*sorted_arrays):
    """NaN and infinite scores sort to the ends: a look at the ends finds them."""
    for a in sorted_arrays:
        if a.shape[0] and a.dtype.kind == "f" and not np.isfinite(a[[0, -1]]).all():
            bad = "NaN" if np.isnan(a[[0, -1]]).any() else "infinite values"
            raise ValueError(f"y_score contains {bad}; all values must be finite.")


def _segments_of_path(fps, tps):
    """:class:`_Segments` of a path given by every vertex: one step each."""
    width = np.diff(fps)
    at = np.flatnonzero(width)
    return _Segments(fps[at], tps[at], width[at], tps[at + 1] - tps[at], None, None,
                     fps[-1], tps[-1])


def _merged_by_score(y_pos, score, out=None):
    """All scores in increasing order (into ``out``) and the positives' places.

    The classes are sorted apart (:func:`_split_sorted`) and the smaller
    class's scores are placed into the larger's by binary search
    (:func:`_ranks`).  The order within a run of tied scores is arbitrary:
    callers group ties.
    """
    n = score.shape[0]
    n_pos = int(np.count_nonzero(y_pos))
    pos, neg = _split_sorted(y_pos, score, n_pos)
    small, large, small_is_pos = (pos, neg, True) if n_pos <= n - n_pos else (neg, pos, False)
    del pos, neg
    at = _ranks(large, small, "left")
    at += np.arange(small.shape[0])
    merged = np.empty(n, dtype=score.dtype) if out is None else out
    lab = np.zeros(n, dtype=bool)
    lab[at] = True
    merged[at] = small
    del at, small
    merged[~lab] = large
    del large
    if not small_is_pos:
        np.logical_not(lab, out=lab)
    return merged, lab


def _counts_sorted_float(y_pos, score):
    """Unweighted (FP, TP) counts of float64 scores at every distinct score.

    As the general case of :func:`_binary_clf_counts`, but the merge writes
    straight into the thresholds array (in decreasing order) and the
    cumulative count of positives into ``tps``: every large allocation
    costs page faults, so the counts are built in few n-length arrays.
    """
    n = score.shape[0]
    thresholds = np.empty(n + 1)
    thresholds[0] = np.inf
    _, lab = _merged_by_score(y_pos, score, out=thresholds[:0:-1])
    desc, y_desc = thresholds[1:], lab[::-1]
    tied = desc[1:] == desc[:-1]
    tps = np.empty(n + 1, dtype=np.int64)
    tps[0] = 0
    np.cumsum(y_desc, dtype=np.int64, out=tps[1:])
    del lab, y_desc
    if not tied.any():
        del tied
        fps = np.arange(n + 1, dtype=np.int64)
        fps -= tps
        return fps, tps, thresholds
    np.logical_not(tied, out=tied)
    ends = np.flatnonzero(tied)
    del tied
    ends = np.append(ends, n - 1)
    m = ends.shape[0]
    cum = tps
    tps = np.empty(m + 1, dtype=np.int64)
    tps[0] = 0
    np.take(cum[1:], ends, out=tps[1:])
    del cum
    fps = np.empty(m + 1, dtype=np.int64)
    fps[0] = 0
    np.add(ends, 1, out=fps[1:])
    fps -= tps
    thr = np.empty(m + 1)
    thr[0] = np.inf
    np.take(desc, ends, out=thr[1:])
    return fps, tps, thr


_FEW_MIN_N = 1 << 17  # below this, sorting is cheap enough
_FEW_SAMPLE = 8192
_FEW_MAX_VALUES = 4096
_CHUNK = 1 << 16  # elements per block: the block's buffers stay in cache
_HASH_MULTIPLIERS = (
    0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
)


def _as_bits(values):
    """Scores as uint64 keys: equal keys for equal values (-0.0 is 0.0)."""
    if values.dtype.kind == "f":
        return np.add(values, 0.0, dtype=np.float64).view(np.uint64)
    return values.astype(np.int64).view(np.uint64)


def _counts_few_values(y_pos, score, weight):
    """Counts per distinct score when there are few of them, in O(n).

    A sample tells whether the scores take few distinct values (rounded
    probabilities, crisp predictions, small trees).  Then each score is
    mapped to its value through a perfect hash of its bits (multiplicative
    hashing into at least cap^2 / 2 slots for cap = 2 k + 64, collision-free for the values seen) and
    the two classes are counted with ``np.bincount``, block by block so
    that every buffer stays in cache: no sort, and the cost per sample does
    not grow with n (numpy's sorts slow down on heavy ties and large
    arrays).  Values missing from the sample are added to the table when
    met.  Returns None when the scores turn out to have too many distinct
    values or a collision appears; the caller then sorts.
    """
    n = score.shape[0]
    if n < _FEW_MIN_N or score.dtype == np.uint64:
        return None
    seen = np.unique(_as_bits(score[:: n // _FEW_SAMPLE]))
    if seen.shape[0] > _FEW_MAX_VALUES // 4:
        return None
    cap = min(_FEW_MAX_VALUES, 2 * seen.shape[0] + 64)
    b = 2 * int(cap).bit_length() - 1  # 2^b >= cap^2 / 2 slots
    shift = np.uint64(64 - b)
    for mult in _HASH_MULTIPLIERS:
        mult = np.uint64(mult)
        slots = (seen * mult) >> shift
        if np.unique(slots).shape[0] == seen.shape[0]:
            break
    else:
        return None
    empty = cap  # index of "no value"; keys[empty] is never compared as a match
    # int16 entries (cap <= 4096): a table of a quarter the size stays in cache
    table = np.full(1 << b, empty, dtype=np.int16)
    keys = np.zeros(cap + 1, dtype=np.uint64)
    is_float = score.dtype.kind == "f"
    if is_float:  # a NaN's bits: never equal to a (finite) score's
        keys[empty] = np.array(np.nan).view(np.uint64)
    k = seen.shape[0]
    table[slots] = np.arange(k)
    keys[:k] = seen
    weighted = weight is not None
    dtype = np.float64 if weighted else np.int64
    pos = np.zeros(cap + 1, dtype=dtype)
    tot = np.zeros(cap + 1, dtype=dtype)
    by_class = np.zeros(2 * (cap + 1), dtype=np.int64)  # unweighted: [neg, pos] per value
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        bits = _as_bits(score[start:stop])
        h = bits * mult
        h >>= shift
        idx = table[h]
        ok = keys[idx] == bits
        if not is_float:
            ok &= idx != empty
        if not ok.all():
            new = np.unique(bits[~ok])
            new_slots = (new * mult) >> shift
            if (
                k + new.shape[0] > cap
                or np.unique(new_slots).shape[0] < new.shape[0]
                or np.any(table[new_slots] != empty)
            ):
                return None  # too many values or a collision: sort instead
            table[new_slots] = np.arange(k, k + new.shape[0])
            keys[k : k + new.shape[0]] = new
            k += new.shape[0]
            idx = table[h]
        yc = y_pos[start:stop]
        if weighted:
            wc = weight[start:stop]
            pos += np.bincount(idx, weights=np.where(yc, wc, 0.0), minlength=cap + 1)
            tot += np.bincount(idx, weights=wc, minlength=cap + 1)
        else:  # one count of 2 idx + label
            code = np.left_shift(idx, 1)
            np.bitwise_or(code, yc, out=code)
            by_class += np.bincount(code, minlength=2 * (cap + 1))
    if not weighted:
        pos, tot = by_class[1::2], by_class[0::2] + by_class[1::2]
    if is_float and tot[empty] > 0:  # NaN's bits matched the "no value" key
        raise ValueError("y_score contains NaN; all values must be finite.")
    if weighted:
        # the negatives counted on their own too, not as total - positives
        neg = np.zeros(cap + 1)
        for start in range(0, n, _CHUNK):
            stop = min(n, start + _CHUNK)
            h = _as_bits(score[start:stop]) * mult
            h >>= shift
            yc = y_pos[start:stop]
            neg += np.bincount(table[h], weights=np.where(yc, 0.0, weight[start:stop]),
                               minlength=cap + 1)
    else:
        neg = tot - pos
    keys = keys[:k]
    values = keys.view(np.float64) if score.dtype.kind == "f" else keys.view(np.int64)
    order = np.argsort(values)[::-1]
    values, pos, neg = values[order], pos[:k][order], neg[:k][order]
    tps = np.zeros(k + 1, dtype=dtype)
    fps = np.zeros(k + 1, dtype=dtype)
    np.cumsum(pos, out=tps[1:])
    np.cumsum(neg, out=fps[1:])
    thresholds = np.concatenate(([np.inf], values.astype(np.float64)))
    return fps, tps, thresholds


def _binary_clf_counts(y_pos, score, weight=None, *, segments=None):
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
        Each class is counted on its own (two cumulative sums), so both are
        non-decreasing and exact for integer counts, whatever the ratio of
        the weights of the two classes.
    thresholds : ndarray of float64
        +inf followed by the distinct scores in decreasing order.

    For an area under the path fewer counts do.  ``segments="turns"``
    returns the straight segments of the path between its turns, enough for
    the integral along them, and ``segments="steps"`` adds the ties inside
    the horizontal ones, enough for the trapezoid rule over every vertex;
    both as :class:`_Segments`.  Without weights these come from
    :func:`_counts_turns`, which never forms an n-length array of counts;
    otherwise from every vertex.  The scores need not have been checked for
    NaN and infinite values: the segments are computed from sorted values
    (or their distinct values), whose ends show them.
    """
    if weight is not None:
        keep = weight != 0
        if not keep.all():
            y_pos, score, weight = y_pos[keep], score[keep], weight[keep]
    if segments is not None:
        if weight is None:
            return _counts_turns(y_pos, score, ties=segments == "steps")
        fps, tps, thresholds = _binary_clf_counts(y_pos, score, weight)
        _check_sorted_finite(thresholds[1:])
        if segments == "turns":
            idx = _corners(fps, tps)
            fps, tps = fps[idx], tps[idx]
        return _segments_of_path(fps, tps)
    few = _counts_few_values(y_pos, score, weight)
    if few is not None:
        return few
    if weight is None and score.dtype == np.float64:
        return _counts_sorted_float(y_pos, score)
    if weight is not None:
        # The default (unstable) sort; ties are grouped below.
        order = np.argsort(score)[::-1]
        desc = score[order]
        y_desc = y_pos[order]
        w = weight[order]
        del order
    else:
        merged, lab = _merged_by_score(y_pos, score)
        desc, y_desc = merged[::-1], lab[::-1]
    n = desc.shape[0]
    tied = desc[1:] == desc[:-1]
    if tied.any():
        ends = np.flatnonzero(~tied)
        ends = np.append(ends, n - 1)
    else:
        ends = None
    del tied
    m = n if ends is None else ends.shape[0]
    thresholds = np.empty(m + 1)
    thresholds[0] = np.inf
    if ends is None:
        thresholds[1:] = desc
    elif desc.dtype == np.float64:
        np.take(desc, ends, out=thresholds[1:])
    else:
        thresholds[1:] = desc[ends]
    if weight is None:
        tps = np.empty(m + 1, dtype=np.int64)
        tps[0] = 0
        if ends is None:
            np.cumsum(y_desc, dtype=np.int64, out=tps[1:])
            fps = np.arange(m + 1, dtype=np.int64)
        else:
            cum = np.cumsum(y_desc, dtype=np.int64)
            np.take(cum, ends, out=tps[1:])
            del cum
            fps = np.empty(m + 1, dtype=np.int64)
            fps[0] = 0
            np.add(ends, 1, out=fps[1:])
        fps -= tps
        return fps, tps, thresholds
    # weighted: one cumulative sum per class, never a difference of sums
    tps = np.zeros(m + 1)
    fps = np.zeros(m + 1)
    for out, mask in ((tps, y_desc), (fps, ~y_desc)):
        cum = np.cumsum(np.where(mask, w, 0.0))
        if ends is None:
            out[1:] = cum
        else:
            np.take(cum, ends, out=out[1:])
    return fps, tps, thresholds


def _counts_from_scores(y_true, y_score, pos_label, sample_weight, caller):
    """Validate and count; None (after a warning) when a class is missing."""
    y_pos, score, weight = _check_binary_inputs(y_true, y_score, pos_label, sample_weight)
    fps, tps, thresholds = _binary_clf_counts(y_pos, score, weight)
    if _one_class_undefined(tps[-1], fps[-1], "the ROC and kappa curves are", caller):
        return None, thresholds
    return (fps, tps), thresholds


def _curve_from_scores(y_true, y_score, pos_label, sample_weight, caller, prevalence=None,
                       *, asymmetric=False):
    """Validate and count; return (fpr, tpr, kappa, thresholds, prevalence).

    With a single class in ``y_true`` the rates are undefined: a warning is
    issued and fpr, tpr, kappa and prevalence are NaN.  Kappa is computed
    from the rates (eq. (19)), so that no product of counts is formed: the
    result does not depend on the scale of the weights.  It is taken at the
    share of positives in ``y_true``, or at ``prevalence`` when given (a
    checked float; it is then the prevalence returned).  ``asymmetric``:
    the caller's result depends on which class is positive, so a default
    positive class that is the majority of ``y_true`` is warned about.
    """
    counts, thresholds = _counts_from_scores(
        y_true, y_score, pos_label, sample_weight, caller
    )
    if counts is None:
        nan = np.full(thresholds.shape, np.nan)
        return nan, nan, nan, thresholds, float("nan")
    fps, tps = counts
    n_pos, n_neg = float(tps[-1]), float(fps[-1])
    if asymmetric and pos_label is None:
        _warn_default_majority(y_true, n_pos, n_neg, caller)
    p, n = _shares(n_pos, n_neg) if prevalence is None else (prevalence, 1.0 - prevalence)
    fpr, tpr = fps / n_neg, tps / n_pos
    kappa = _kappa_pn(tpr, fpr, (n_pos - tps) / n_pos, (n_neg - fps) / n_neg, p, n)
    return fpr, tpr, kappa, thresholds, p


def _shares(n_pos, n_neg):
    """(p, n): the shares of positives and negatives, each from its own count."""
    big = max(n_pos, n_neg)
    a, b = n_pos / big, n_neg / big
    return a / (a + b), b / (a + b)


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
        y_true, y_score, pos_label, sample_weight, "kappa_curve", asymmetric=True
    )
    return fpr, kappa, thresholds


def _phi(u, ratio=None):
    """(log1p(u)/u, (u - log1p(u))/u^2) for u > -1, continued to (1, 1/2) at 0.

    For |u| < 1e-2 the closed forms lose digits to cancellation, so the
    alternating series 1/2 - u/3 + u^2/4 - ... gives the second, with just
    enough terms for the largest |u| present (|u|^k < 1e-17), and the first
    is 1 - u times the second.  ``ratio``, if given, is 1 + u computed on
    its own: where u is near -1 (1 + u lost to rounding) log(ratio) stands
    for log1p(u).
    """
    au = np.abs(u)
    umax = float(au.max()) if au.size else 0.0
    if umax < 1e-2:  # all small (short segments): no masking
        return _phi_series(u, umax)
    small = au < 1e-2
    del au
    if not small.any():
        log_ratio = _log1p(u, ratio) / u
        return log_ratio, (1.0 - log_ratio) / u
    phi1 = np.empty_like(u)
    out = np.empty_like(u)
    ub = u[~small]
    log_ratio = _log1p(ub, None if ratio is None else ratio[~small]) / ub
    phi1[~small] = log_ratio
    out[~small] = (1.0 - log_ratio) / ub
    us = u[small]
    phi1[small], out[small] = _phi_series(us, float(np.max(np.abs(us))))
    return phi1, out


def _log1p(u, ratio):
    """log1p(u), or log(ratio) where u < -1/2 and ``ratio`` = 1 + u is given."""
    if ratio is None:
        return np.log1p(u)
    return np.where(u < -0.5, np.log(ratio), np.log1p(np.maximum(u, -0.5)))


def _phi_series(u, umax):
    """:func:`_phi` for |u| <= umax < 1e-2 by its series, as many terms as umax needs."""
    terms = 1 if umax == 0 else int(min(10, max(1, np.ceil(-17 / np.log10(umax)))))
    series = np.full_like(u, 1.0 / (terms + 2))
    for k in range(terms + 1, 1, -1):  # series = 1/k - u series
        np.multiply(series, u, out=series)
        np.subtract(1.0 / k, series, out=series)
    phi1 = np.multiply(u, series)
    np.subtract(1.0, phi1, out=phi1)
    return phi1, series


_BLOCK = 1 << 15  # segments per block in the sums over segments

# B_2k / (2k) for k = 1..6 (Bernoulli numbers B_2k), the Euler-Maclaurin coefficients
_EULER_MACLAURIN = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760)
_EXTREME_SHARE = 1e-2  # below this ratio of the class shares, log(D1 / D0) is formed directly
_NEAR_POLE = 32.0  # the series serves steps at least this far from the pole of kappa
_EXPLICIT_STEPS = 64  # steps summed one by one next to the pole


def _kappa_counts_pn(fps, tps, n_pos, n_neg, p, n):
    """Kappa at counts (fps, tps) of classes of (weighted) sizes n_neg, n_pos."""
    return _kappa_pn(tps / n_pos, fps / n_neg, (n_pos - tps) / n_pos,
                     (n_neg - fps) / n_neg, p, n)


def _trapezoid_segments(seg, n_pos, n_neg, p, n):
    """Trapezoid rule over kappa at every vertex of the path, from its segments.

    Kappa comes from the rates and their complements, each a ratio of
    counts (no cancellation when a class is rare), through the one kernel,
    at the class shares (p, n).  A segment that is one step is one
    trapezoid (:func:`_trapezoid_sum`); a horizontal run of one-sample steps
    whose inner vertices were left out is summed in closed form
    (:func:`_unit_runs_trapezoid`), and each tie inside it is a step of
    several samples instead of as many one-sample steps.
    """
    if seg.run is True:  # every segment is such a run
        total = _unit_runs_trapezoid(seg.fps, seg.tps, seg.width, n_pos, n_neg, p, n)
    else:
        single = slice(None) if seg.run is None else ~seg.run
        total = _step_trapezoids(seg.fps[single], seg.tps[single], seg.width[single],
                                 seg.rise[single], n_pos, n_neg, p, n)
        if seg.run is not None:
            run = seg.run
            total += _unit_runs_trapezoid(seg.fps[run], seg.tps[run], seg.width[run],
                                          n_pos, n_neg, p, n)
    if seg.ties is not None:
        tie_fps, tie_tps, size = seg.ties
        total += _step_trapezoids(tie_fps, tie_tps, size, 0, n_pos, n_neg, p, n)
        total -= _unit_runs_trapezoid(tie_fps, tie_tps, size, n_pos, n_neg, p, n)
    return total


def _step_trapezoids(fps, tps, width, rise, n_pos, n_neg, p, n):
    """The trapezoids of single steps from (fps, tps) by (width, rise)."""
    f = np.stack((fps, fps + width), axis=-1)
    t = np.stack((tps, tps + rise), axis=-1)
    return _trapezoid_sum(_kappa_counts_pn(f, t, n_pos, n_neg, p, n), f / n_neg)


def _unit_runs_trapezoid(start, height, width, n_pos, n_neg, p, n):
    """The trapezoid rule over horizontal runs of one-sample steps, in closed form.

    Along a run at height T (t = T / n_pos) kappa is, in the count F of
    negatives, g(F) = 2pn (N t - F) / D(F) with D(F) = N den(F / N) linear in
    F (slope beta = n (n - p)) and positive on [0, N].  The trapezoids over
    the unit steps from F = a to b add up, by the Euler-Maclaurin formula, to
    the integral of g plus sum_k B_2k / (2k)! (g^(2k-1)(b) - g^(2k-1)(a));
    here g^(2k-1) = -K (2k-1)! beta^(2k-2) / D^(2k) with K = 2pn N den(t),
    so in units of the fpr the sum is the run's exact AUK
    (:func:`_exact_segments`) plus

        -2pn den(t) (h(D(b)) - h(D(a))),  h(D) = sum_k B_2k / (2k) beta^(2k-2) / D^(2k).

    The first term of h(D(b)) - h(D(a)) is formed as -beta (b - a) (D(a) +
    D(b)) / (D(a) D(b))^2 / 12, without cancellation; the others matter only
    where |beta| / D, one over the distance in steps to the pole of g, is
    not small.  From distance 32 on six terms leave less than 1e-18 of the
    first; steps closer to the pole (only within 32 samples of F = 0 or
    F = N, for a tiny class or an extreme prevalence) are summed one by one.
    """
    total = 0.0
    beta = n * (n - p)
    extreme = min(p, n) < _EXTREME_SHARE * max(p, n)
    for a in range(0, start.shape[0], _BLOCK):
        f0, t0, w = (v[a : a + _BLOCK] for v in (start, height, width))
        d_start = _run_den(f0, t0, n_pos, n_neg, p, n)
        if extreme:
            d_end = _run_den(f0 + w, t0, n_pos, n_neg, p, n)
        else:
            d_end = d_start + beta * (w / n_neg)
        near = _NEAR_POLE * abs(beta) > n_neg * np.minimum(d_start, d_end)
        if near.any():
            total += _near_pole_runs(f0[near], t0[near], w[near], beta, n_pos, n_neg, p, n)
            far = ~near
            f0, t0, w, d_start, d_end = f0[far], t0[far], w[far], d_start[far], d_end[far]
        t, fnr = t0 / n_pos, (n_pos - t0) / n_pos
        total += _exact_segments(f0 / n_neg, t, w / n_neg, 0.0, fnr, (n_neg - f0) / n_neg,
                                 p, n, d_end if extreme else None, d0=d_start)
        total -= 2.0 * p * n * float(np.dot(n * t + p * fnr,
                                            _euler_maclaurin_difference(
                                                n_neg * d_start, n_neg * d_end, w, beta)))
    return total


def _near_pole_runs(start, height, width, beta, n_pos, n_neg, p, n):
    """Runs with steps near the pole of kappa: those steps one by one, the rest in closed form."""
    total = 0.0
    rest = []
    for a, t, w in zip(start.tolist(), height.tolist(), width.tolist()):
        m = min(w, _EXPLICIT_STEPS)
        first = a if beta > 0 else a + w - m  # the steps next to the pole
        f = np.arange(first, first + m + 1, dtype=np.float64)
        total += _trapezoid_sum(_kappa_counts_pn(f, float(t), n_pos, n_neg, p, n), f / n_neg)
        if w > m:  # the rest, far enough from the pole, by the series
            rest.append((a + m if beta > 0 else a, t, w - m))
    if rest:
        a, t, w = (np.array(v, dtype=np.int64) for v in zip(*rest))
        total += _unit_runs_trapezoid(a, t, w, n_pos, n_neg, p, n)
    return total


def _run_den(fps, tps, n_pos, n_neg, p, n):
    """den = n p_hat + p n_hat of eq. (19) at counts (fps, tps), a sum of non-negative terms."""
    t, fnr = tps / n_pos, (n_pos - tps) / n_pos
    f, tnr = fps / n_neg, (n_neg - fps) / n_neg
    return n * (p * t + n * f) + p * (p * fnr + n * tnr)


def _euler_maclaurin_difference(d_start, d_end, steps, beta):
    """h(d_end) - h(d_start), h(d) = sum_k B_2k / (2k) beta^(2k-2) / d^(2k).

    d_end - d_start = beta * steps.  The first term is formed from that
    difference (no cancellation); the others only when some |beta| / d
    exceeds 1e-4 (below, they change the result by less than 1e-9 of the
    first term, which is itself of the order of the rounding of the AUK).
    """
    c1 = _EULER_MACLAURIN[0]
    out = (-c1 * beta) * steps * (d_start + d_end) / (d_start * d_end) ** 2
    if d_start.size and abs(beta) > 1e-4 * min(float(d_start.min()), float(d_end.min())):
        for d, sign in ((d_end, 1.0), (d_start, -1.0)):
            rho2 = (beta / d) ** 2
            s = np.full_like(d, _EULER_MACLAURIN[-1])
            for c in _EULER_MACLAURIN[-2:0:-1]:
                s *= rho2
                s += c
            out += sign * s * rho2 / (d * d)
    return out


def _exact_sum(seg, n_pos, n_neg, p, n):
    """Exact AUK of the path of :class:`_Segments`, with kappa at shares (p, n).

    The segments are summed block by block, so that no temporary is larger
    than a block.
    """
    extreme = min(p, n) < _EXTREME_SHARE * max(p, n)
    flat = not seg.rise.any()
    total = 0.0
    for a in range(0, seg.fps.shape[0], _BLOCK):
        b = a + _BLOCK
        f, t, w = seg.fps[a:b], seg.tps[a:b], seg.width[a:b]
        r = 0 if flat else seg.rise[a:b]
        d1 = _run_den(f + w, t + r, n_pos, n_neg, p, n) if extreme else None
        total += _exact_segments(f / n_neg, t / n_pos, w / n_neg, r / n_pos,
                                 (n_pos - t) / n_pos, (n_neg - f) / n_neg, p, n, d1)
    return total


def _trapezoid_sum(k, f):
    """The trapezoid rule ``sum_i (f[i+1] - f[i]) (k[i] + k[i+1]) / 2``.

    Written as ``(k[0] (f[1] - f[0]) + k[-1] (f[-1] - f[-2])
    + k[1:-1] . (f[2:] - f[:-2])) / 2`` so that one product does the work.
    A 2-D ``k`` and ``f`` hold one polyline per row; the sum over all rows is
    returned.
    """
    if f.shape[-1] < 2 or f.size == 0:
        return 0.0
    if f.ndim == 1:
        total = float(np.dot(k[1:-1], f[2:] - f[:-2]))
    else:
        total = float(np.sum(k[:, 1:-1] * (f[:, 2:] - f[:, :-2])))
    total += float(np.sum(k[..., 0] * (f[..., 1] - f[..., 0])
                          + k[..., -1] * (f[..., -1] - f[..., -2])))
    return 0.5 * total


def _trapezoid(fpr, tpr, p):
    kappa = _kappa_pn(tpr, fpr, 1.0 - tpr, 1.0 - fpr, p, 1.0 - p)
    return _trapezoid_sum(kappa, fpr)


def _exact(fpr, tpr, p, n=None, fnr=None, tnr=None):
    """Exact integral of kappa(f) along the straight segments between vertices.

    On a segment t is linear in f, so kappa of eq. (19) is N(f)/D(f) with N
    and D linear; with u = dD/D0 over the segment (width w, rise r)::

        integral = 2 p n w / D0 * ((t0 - f0) log1p(u)/u + (r - w) (u - log1p(u))/u^2)

    Both factors are smooth at u = 0 (p = 1/2), where they are 1 and 1/2;
    near there a Taylor series replaces the cancelling formula.  D0 is
    written as n p_hat + p n_hat (non-negative terms) with ``n = 1 - p``,
    ``fnr = 1 - tpr`` and ``tnr = 1 - fpr`` given exactly by callers who
    count.

    The vertices run along the last axis.  For 1-D input ``p`` is a number
    and a float is returned; for 2-D input (one ROC polygon per row, as the
    bootstrap of ``auklib.uncertainty`` needs) ``p`` has shape (rows, 1) and
    one AUK per row is returned.
    """
    n = 1.0 - p if n is None else n
    fnr = 1.0 - tpr if fnr is None else fnr
    tnr = 1.0 - fpr if tnr is None else tnr
    w = np.diff(fpr, axis=-1)
    r = np.diff(tpr, axis=-1)
    return _exact_segments(fpr[..., :-1], tpr[..., :-1], w, r,
                           fnr[..., :-1], tnr[..., :-1], p, n)


def _exact_segments(f0, t0, w, r, fnr0, tnr0, p, n, d1=None, d0=None):
    """The sum of ``_exact`` over segments given by start, width and rise.

    Segments of zero width (vertical steps) add nothing and may be left out
    by the caller.  Shapes as in ``_exact`` (segments along the last axis).
    ``d1``, the denominator D at each segment's end from non-negative terms,
    keeps log(D1 / D0) exact where D falls by orders of magnitude along a
    segment (u near -1; possible only when p or n is tiny).  ``d0``, D at
    each start, may be passed when the caller has it.
    """
    q = n - p
    if d0 is None:
        d0 = n * (p * t0 + n * f0) + p * (p * fnr0 + n * tnr0)
    u = (q * n) * w if np.ndim(r) == 0 and r == 0 else q * (p * r + n * w)
    u /= d0
    phi1, phi2 = _phi(u, None if d1 is None else d1 / d0)
    phi1 *= t0 - f0
    phi2 *= r - w
    phi1 += phi2
    seg = np.divide(w, d0, out=phi2)
    seg *= phi1
    if seg.ndim == 1:
        return float(2.0 * p * n * np.sum(seg))
    return 2.0 * (p * n)[..., 0] * np.sum(seg, axis=-1)


def _auk_segments(fpr, tpr, p, method):
    """AUK of the ROC polygon through (fpr, tpr) by ``method``."""
    if method == "trapezoid":
        return _trapezoid(fpr, tpr, p)
    return _exact(fpr, tpr, p)


def _corners(fps, tps):
    """Indices of the vertices where the ROC path turns.

    Inside a run of horizontal (or of vertical) segments the path is one
    straight line, so the exact integral over the run equals that over its
    two ends; only the turning vertices and the ends are kept.
    """
    rise = tps[1:] != tps[:-1]
    if fps.dtype.kind == "i" and int(fps[-1]) + int(tps[-1]) == fps.shape[0] - 1:
        # one sample per vertex (no ties): every segment is vertical or
        # horizontal, and the path turns where it changes between the two
        inner = rise[:-1] != rise[1:]
    else:
        # keep a vertex unless both its segments are horizontal or both vertical
        run = fps[1:] != fps[:-1]
        inner = rise[:-1] | rise[1:]
        inner &= run[:-1] | run[1:]
        del run
    del rise
    keep = np.flatnonzero(inner)
    keep += 1
    return np.concatenate(([0], keep, [fps.shape[0] - 1]))


def _auk_of_segments(seg, method, prevalence=None):
    """AUK of the path of :class:`_Segments` by ``method``.

    Kappa is taken at the shares of the counts, or at ``prevalence`` (the
    same ROC path carried to that share of positives).
    """
    n_pos, n_neg = float(seg.n_pos), float(seg.n_neg)
    if prevalence is None:
        p, n = _shares(n_pos, n_neg)
    else:
        p, n = prevalence, 1.0 - prevalence
    if method == "trapezoid":
        return _trapezoid_segments(seg, n_pos, n_neg, p, n)
    return _exact_sum(seg, n_pos, n_neg, p, n)


def auk_bounds(prevalence):
    """The smallest and largest AUK possible at a given share of positives.

    The largest belongs to a perfect ranking, the ROC path (0, 0)-(0, 1)-(1, 1),
    and the smallest to a reversed one, (0, 0)-(1, 0)-(1, 1), because kappa
    increases with t at every f.  Integrating eq. (19) along them gives, with
    n = 1 - p and q = 1 - 2p::

        AUK_max = 2p (ln(1 / (2p)) - q) / q^2
        AUK_min = -2pn (1 / (qn) - p / (qn)^2 ln((p^2 + n^2) / p))

    (both continued to 1/2 and -1/2 at p = 1/2).  Over all p the exact AUK
    lies in (-0.50896, 2 - 2 ln 2 = 0.61371): it is not confined to
    [-1/2, 1/2], although the trapezoid rule over a crisp classifier's three
    vertices is.

    Parameters
    ----------
    prevalence : float
        Share p of positives, strictly between 0 and 1.

    Returns
    -------
    low, high : float
        ``auk_score(..., method="exact")`` of a reversed and of a perfect
        ranking.

    Examples
    --------
    >>> from auklib import auk_bounds
    >>> [round(b, 4) for b in auk_bounds(0.9)]
    [-0.1064, 0.5969]
    >>> auk_bounds(0.5)
    (-0.5, 0.5)
    """
    p = _scalar_prevalence(prevalence)
    # the closed forms cancel near p = 1/2; the segment integral does not
    low = _exact(np.array([0.0, 1.0, 1.0]), np.array([0.0, 0.0, 1.0]), p)
    high = _exact(np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 1.0]), p)
    return float(low), float(high)


_MAKE_SCORER_FLAGS = ("needs_proba", "needs_threshold")


def _refuses_make_scorer_flags(metric):
    """Name the fix when ``make_scorer``'s removed flags reach ``metric``.

    scikit-learn 1.4 deprecated ``make_scorer(..., needs_proba=True)`` (and
    ``needs_threshold``) for ``response_method`` and 1.6 removed them; since
    then ``make_scorer`` passes them on to the metric as keywords, and
    cross-validation turns the error into NaN scores.  The error says what
    to use instead.
    """

    @functools.wraps(metric)
    def checked(*args, **kwargs):
        flags = [f for f in _MAKE_SCORER_FLAGS if f in kwargs]
        if flags:
            raise TypeError(
                f"{metric.__name__}() got {flags[0]}={kwargs[flags[0]]!r}: that is "
                "make_scorer's old flag, which scikit-learn 1.6 removed and now passes "
                "on to the metric. Use scoring=auklib.auk_scorer (or "
                "auklib.make_auk_scorer(...)), or make_scorer(auk_score, "
                "response_method=('decision_function', 'predict_proba'))."
            )
        return metric(*args, **kwargs)

    return checked


@_refuses_make_scorer_flags
def auk_score(y_true, y_score, *, pos_label=None, sample_weight=None, method="exact",
              prevalence=None):
    """Area under the kappa curve (AUK), eq. (21) of Kaymak et al.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1}, {-1, 1} or bool, or any two labels with
        ``pos_label`` given.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True), with a
        :class:`~auklib.PositiveClassWarning` when the positives are the
        (weighted) majority: the AUK is not symmetric in the classes and is
        meant for the rare one.  Pass ``pos_label`` to choose without the
        warning.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    method : {"exact", "trapezoid"}, default="exact"
        ``"exact"``: the exact integral of kappa along each straight segment
        of the empirical ROC curve (the ROC of classifiers that randomise
        between two adjacent thresholds).  Along a segment kappa is a
        linear-fractional function of f, not a linear one, so the trapezoid
        rule over the vertices of :func:`kappa_curve` is not the area under
        the curve.  ``"trapezoid"``: that trapezoid rule, kept for comparison
        with other tools that compute it.  The two can differ a lot when the
        segments are long (few distinct scores): for a perfect crisp
        classifier at p = 0.01 the trapezoid gives 0.5 and the exact area
        0.061.
    prevalence : float, default=None
        The share p of positives at which to evaluate kappa, strictly
        between 0 and 1.  None uses the (weighted) share in ``y_true``.  A
        number carries the test set's ROC curve to a population with that
        share of positives (where the model will be used): the AUK of the
        same ROC curve with kappa taken at ``prevalence``.  This assumes that
        only the share changes and the scores' distribution within each class
        stays the same (prior shift); it equals ``auk_score`` with weights
        that give the positives a total share of ``prevalence``.

    Returns
    -------
    auk : float
        The AUK; NaN with a warning when ``y_true`` has a single class.  The
        exact AUK lies between the bounds of :func:`auk_bounds` (about -0.509
        and 0.614 over all prevalences, 0.597 for a perfect ranking at
        p = 0.9).

    See Also
    --------
    kappa_curve : The curve whose area this is.
    auk_from_roc : The same from ROC vertices.
    auk_bounds : The range of the AUK at a given prevalence.

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
    >>> auk_score(y, s)  # p = 1/2: the AUK is AUC - 1/2 by either method
    0.25
    >>> round(auk_score([0, 0, 0, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.386294
    >>> round(auk_score([0, 0, 0, 1], [0.1, 0.4, 0.35, 0.8], method="trapezoid"), 6)
    0.4

    The exact value is the integral of (1 - f) / (1 + f), 2 ln 2 - 1.

    The same ranking where positives will be 1% of the cases:

    >>> round(auk_score(y, s, prevalence=0.01), 6)
    0.030565
    """
    method = _check_option(method, "method", _METHODS)
    target = None if prevalence is None else _scalar_prevalence(prevalence)
    # NaN and infinite scores are found where the scores are sorted
    y_pos, score, weight = _check_binary_inputs(y_true, y_score, pos_label, sample_weight,
                                                finite=False)
    seg = _binary_clf_counts(y_pos, score, weight,
                             segments="steps" if method == "trapezoid" else "turns")
    if _one_class_undefined(seg.n_pos, seg.n_neg, "the ROC and kappa curves are", "auk_score"):
        return float("nan")
    if pos_label is None:
        _warn_default_majority(y_true, seg.n_pos, seg.n_neg, "auk_score")
    return _auk_of_segments(seg, method, target)


def _check_roc(fpr, tpr, *, curve=True):
    f = _check_rates(fpr, "fpr")
    t = _check_rates(tpr, "tpr")
    if f.ndim != 1 or t.ndim != 1:
        raise ValueError(f"fpr and tpr must be 1-D; got shapes {f.shape} and {t.shape}.")
    _check_same_length(fpr=f, tpr=t)
    if curve:
        if f.shape[0] < 2:
            raise ValueError(f"An ROC curve needs at least 2 points; got {f.shape[0]}.")
        if np.any(f[1:] < f[:-1]):
            raise ValueError("fpr must be sorted in non-decreasing order.")
        if np.any(t[1:] < t[:-1]):
            raise ValueError(
                "tpr decreases along the curve; an ROC curve has non-decreasing "
                "fpr and tpr (sort the points by threshold, highest first)."
            )
    return f, t


def auk_from_roc(fpr, tpr, prevalence, *, method="exact"):
    """AUK of an ROC curve given by its vertices.

    Integrates kappa(f) from the first to the last vertex; pass a curve from
    (0, 0) to (1, 1) for the AUK of eq. (21).

    Parameters
    ----------
    fpr, tpr : array-like of shape (n_points,)
        ROC vertices, both non-decreasing, all in [0, 1].
    prevalence : float
        Share p of positives, strictly between 0 and 1.
    method : {"exact", "trapezoid"}, default="exact"
        As in :func:`auk_score`: the exact integral along the straight
        segments between the vertices, or the trapezoid rule over kappa at
        the vertices (for comparison with other tools).

    Returns
    -------
    auk : float

    Examples
    --------
    At p = 1/2 the AUK is AUC - 1/2 (eq. (23)):

    >>> from auklib import auk_from_roc
    >>> round(auk_from_roc([0, 0.2, 1], [0, 0.7, 1], prevalence=0.5), 12)
    0.25
    >>> round(auk_from_roc([0, 0.2, 1], [0, 0.7, 1], 0.1), 6)
    0.118313
    >>> round(auk_from_roc([0, 0.2, 1], [0, 0.7, 1], 0.1, method="trapezoid"), 6)
    0.15
    """
    method = _check_option(method, "method", _METHODS)
    f, t = _check_roc(fpr, tpr)
    p = _scalar_prevalence(prevalence)
    return _auk_segments(f, t, p, method)


def _above(ax, ay, bx, by, cx, cy):
    """True where b lies above the chord a-c by more than rounding (ax < bx < cx)."""
    lhs = (by - ay) * (cx - ax)
    rhs = (cy - ay) * (bx - ax)
    return lhs - rhs > 8.0 * np.finfo(float).eps * (np.abs(lhs) + np.abs(rhs))


def _upper_hull(f, t):
    """Vertices of the upper hull of points with strictly increasing f.

    Passes of numpy remove, all at once, every point that is not above the
    chord of its two neighbours (a run of such points bends upwards, so it
    lies under the chord of the points around it and none of it is on the
    hull).  When a pass removes little, a monotone chain finishes the job.
    """
    while f.shape[0] > 2:
        m = f.shape[0]
        keep = np.ones(m, dtype=bool)
        keep[1:-1] = _above(f[:-2], t[:-2], f[1:-1], t[1:-1], f[2:], t[2:])
        n_keep = int(np.count_nonzero(keep))
        if n_keep == m:
            return f, t
        f, t = f[keep], t[keep]
        if m - n_keep < m // 8 and n_keep > 64:
            break
    if f.shape[0] <= 2:
        return f, t
    xs, ys = f.tolist(), t.tolist()
    hx, hy = [xs[0]], [ys[0]]
    for x, y in zip(xs[1:], ys[1:]):
        while len(hx) >= 2 and not _above(hx[-2], hy[-2], hx[-1], hy[-1], x, y):
            hx.pop()
            hy.pop()
        hx.append(x)
        hy.append(y)
    return np.array(hx), np.array(hy)


def _under_extremes_dropped(f, t):
    """Drop, before sorting, the points under a chain of extreme points.

    The points that maximise t - lambda f for a few slopes lambda lie on the
    hull; a point strictly under the polyline through them (and the two
    corners) lies under a segment between two points and cannot be a
    vertex (Akl & Toussaint's heuristic).  Usually few points survive.
    """
    if f.shape[0] < 1024:
        return f, t
    return _drop_under_chain(f, t, (0.1, 0.3, 1.0, 3.0, 10.0))


def _drop_under_chain(f, t, slopes):
    picks = [int(np.argmax(t))] + [int(np.argmax(t - lam * f)) for lam in slopes]
    cf = np.concatenate(([0.0], f[picks], [1.0]))
    ct = np.concatenate(([0.0], t[picks], [1.0]))
    order = np.lexsort((ct, cf))
    cf, ct = cf[order], ct[order]
    # at equal fpr keep the highest point (the last after the sort)
    last = np.concatenate((cf[1:] != cf[:-1], [True]))
    cf, ct = cf[last], ct[last]
    under = np.interp(f, cf, ct)
    keep = t > under - 8.0 * np.finfo(float).eps * (np.abs(under) + 1.0)
    return f[keep], t[keep]


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
        Vertices of the hull from (0, 0) to (1, 1): ``fpr_hull`` is
        non-decreasing (a vertical first edge from (0, 0) when a point has
        fpr = 0 and tpr > 0) and ``tpr_hull`` increasing, except a last
        horizontal edge into (1, 1).  Points on a straight edge, to within
        rounding, are left out.

    Notes
    -----
    Only points that rise above every point to their left can be vertices
    (the hull rises from left to right), so those are kept first in one
    pass; the upper hull of the rest takes a few vectorised passes.  It
    runs in O(n) after a sort, which is skipped when ``fpr`` is sorted
    already (an ROC curve).

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition
       Letters 27, 861-874, 2006.

    Examples
    --------
    >>> from auklib import roc_convex_hull
    >>> roc_convex_hull([0, 0.1, 0.2, 0.5, 1], [0, 0.5, 0.55, 0.9, 1])
    (array([0. , 0.1, 0.5, 1. ]), array([0. , 0.5, 0.9, 1. ]))
    >>> roc_convex_hull([0, 0, 0.5], [0.3, 0.6, 0.9])
    (array([0. , 0. , 0.5, 1. ]), array([0. , 0.6, 0.9, 1. ]))
    """
    f, t = _check_roc(fpr, tpr, curve=False)
    if f.shape[0] > 1 and np.any(f[1:] < f[:-1]):
        f, t = _under_extremes_dropped(f, t)
        order = np.argsort(f)  # ties in f are merged below, in any order
        f, t = f[order], t[order]
    f = np.concatenate(([0.0], f, [1.0]))
    t = np.concatenate(([0.0], t, [1.0]))
    # the highest point at each distinct fpr
    starts = np.flatnonzero(np.concatenate(([True], f[1:] != f[:-1])))
    if starts.shape[0] < f.shape[0]:
        t = np.maximum.reduceat(t, starts)
        f = f[starts]
    # a vertex rises above every point to its left; (1, 1) ends the hull
    rises = np.empty(f.shape[0], dtype=bool)
    rises[0] = True
    rises[1:] = t[1:] > np.maximum.accumulate(t)[:-1]
    rises[-1] = True
    f, t = _upper_hull(f[rises], t[rises])
    if t[0] > 0:  # a vertical first edge from (0, 0)
        f = np.concatenate(([0.0], f))
        t = np.concatenate(([0.0], t))
    return f, t


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
