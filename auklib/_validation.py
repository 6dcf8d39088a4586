"""Input checks shared by every public function.

Each check either returns clean float64/int64/bool arrays or raises a
``ValueError``/``TypeError`` whose message names the argument and the
problem.  The checks are O(n) wherever the dtype allows it (no ``np.unique``
on numeric labels), because validation is a large share of the run time of a
metric on millions of scores.
"""

import numbers
import os
import sys
import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning as _SklearnUndefinedMetricWarning

__all__ = ["PositiveClassWarning", "UndefinedMetricWarning"]


class UndefinedMetricWarning(_SklearnUndefinedMetricWarning):
    """Warning raised when a metric is undefined for the given input.

    The metric is then returned as NaN, as scikit-learn does.  It subclasses
    ``sklearn.exceptions.UndefinedMetricWarning``, so a filter set for
    scikit-learn's warning catches auklib's too.
    """


class PositiveClassWarning(UserWarning):
    """Warning raised when the positive class was inferred and is the majority.

    The AUK and kappa at a given prevalence are not symmetric in the two
    classes: they measure how well the *positive* class is picked out, and
    auklib means it to be the rare one.  When the positive class is not
    given (``pos_label=None``: the label 1 of a metric, ``classes_[1]`` of
    an estimator in a scorer) and it is the majority of ``y_true``, auklib
    warns, naming the class it chose and the ``pos_label`` that would choose
    the other.  Pass ``pos_label`` explicitly to silence it.  The AUC is
    symmetric (swapping the classes and reversing the scores leaves it
    unchanged), so the AUC's functions do not warn.
    """


# Frames in these folders are not the user's: a warning is attributed to the
# first frame outside them (the user's line), also when scikit-learn or joblib
# called the metric (a scorer inside cross_validate).
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _library_dirs():
    dirs = [_PACKAGE_DIR]
    for name in ("sklearn", "joblib"):
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        if path:
            dirs.append(os.path.dirname(os.path.abspath(path)) + os.sep)
    return tuple(dirs)


def _warn(message, category=UserWarning):
    """``warnings.warn`` attributed to the first caller outside auklib.

    The stack level is counted, not fixed: a public function may reach the
    warning through any number of private helpers, and the user should see
    the line of their own code that called auklib (or scikit-learn's
    ``cross_validate``, for a scorer).
    """
    dirs = _library_dirs()
    frame, level = sys._getframe(1), 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(dirs):
        frame, level = frame.f_back, level + 1
    if frame is None:  # called from auklib or scikit-learn alone
        level -= 1
    warnings.warn(message, category, stacklevel=level)


def _warn_default_majority(y_true, n_pos, n_neg, caller):
    """:func:`_warn_majority_positive` for a metric called without ``pos_label``.

    The positive class is then 1 (True for bool labels) and the other is 0,
    -1 or False; they are looked up only when the warning is due.
    """
    if not n_pos > n_neg or not n_neg > 0:
        return
    y = np.asarray(y_true)
    if y.dtype.kind == "b":
        pos, other = True, False
    else:
        pos = 1
        other = -1 if y.dtype.kind in "iuf" and y.size and y.min() == -1 else 0
    _warn_majority_positive(n_pos, n_neg, caller, pos, other, "pos_label=None means 1")


def _warn_majority_positive(n_pos, n_neg, caller, pos_label, other, how):
    """Warn when the positive class, not given but inferred, is the majority.

    ``n_pos``/``n_neg`` are the (weighted) class sizes, ``pos_label`` the
    class chosen, ``other`` the other class and ``how`` how it was chosen.
    The message is the same in every fold of a cross-validation (no counts),
    so Python's default filter shows it once per calling line.
    """
    if not n_pos > n_neg or not n_neg > 0:
        return
    _warn(
        f"{caller} scores {pos_label!r} as the positive class ({how}), but "
        f"{pos_label!r} is the majority of y_true: the AUK and kappa at a "
        "prevalence, unlike the AUC, depend on which class is positive and are "
        f"meant for the rare one. Pass pos_label={other!r} to score the rare "
        f"class, or pos_label={pos_label!r} to keep this choice without this "
        "warning.",
        PositiveClassWarning,
    )


def _asarray(x, name, dtype=None):
    """``np.asarray`` with a named error for ragged input.

    numpy refuses nested sequences of unequal lengths with "setting an array
    element with a sequence ... inhomogeneous shape"; say which argument is
    ragged instead.
    """
    try:
        return np.asarray(x) if dtype is None else np.asarray(x, dtype=dtype)
    except ValueError as exc:
        if "inhomogeneous" not in str(exc) and "sequence" not in str(exc):
            raise
        raise ValueError(
            f"{name} is ragged (nested sequences of different lengths); "
            "pass a rectangular array of numbers."
        ) from None


def _reject_none_and_complex(x, name):
    """Named errors for None, ragged and complex input (before numpy sees them)."""
    if x is None:
        raise TypeError(f"{name} is None; pass an array of numbers.")
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a number or an array of numbers, got a string.")
    if isinstance(x, (list, tuple)):
        _asarray(x, name)  # a named error for ragged input
    if isinstance(x, complex) or np.iscomplexobj(x):
        raise TypeError(f"{name} contains complex numbers; only real numbers are accepted.")


def _as_1d_numeric(x, name, *, finite=True):
    """Return ``x`` as a 1-D numeric array or raise a named error."""
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers, got a string.")
    _reject_none_and_complex(x, name)
    arr = _asarray(x, name)
    if arr.dtype.kind == "O":
        if any(isinstance(v, complex) for v in arr.ravel().tolist()):
            raise TypeError(f"{name} contains complex numbers; only real numbers are accepted.")
        if any(v is None for v in arr.ravel().tolist()):
            raise TypeError(f"{name} contains None; all values must be numbers.")
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"{name} must contain numbers only; got values of dtype object "
                "that cannot be converted to float."
            ) from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(
            f"{name} must contain numbers; got dtype {arr.dtype} "
            f"(for example {arr.ravel()[:1].tolist()})."
        )
    if arr.ndim != 1:
        if name.startswith("y_score") and arr.ndim == 2:
            raise ValueError(
                f"{name} has shape {arr.shape} but must be 1-D, one score per "
                "sample: this metric is for two classes. From predict_proba of a "
                "binary classifier pass the positive class's column (proba[:, 1]); "
                "for scores of several classes use auklib.hand_till_score."
            )
        raise ValueError(
            f"{name} must be 1-D with one value per sample; got an array of "
            f"shape {arr.shape}."
        )
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is needed.")
    # a sum is finite when every term is (no n-length temporary); only
    # when it is not (NaN, inf or an overflowing sum) are the values looked at
    if finite and arr.dtype.kind == "f" and not np.isfinite(np.sum(arr)) and not (
        np.isfinite(arr).all()
    ):
        bad = "NaN" if np.isnan(arr).any() else "infinite values"
        raise ValueError(f"{name} contains {bad}; all values must be finite.")
    if arr.dtype.kind == "b":
        arr = arr.view(np.uint8)
    return arr


def _check_sample_weight(sample_weight, n):
    """Return float64 weights of length ``n`` (or None) after checking them."""
    if sample_weight is None:
        return None
    w = _as_1d_numeric(sample_weight, "sample_weight", finite=False)
    if w.shape[0] != n:
        raise ValueError(
            f"sample_weight has {w.shape[0]} values but there are {n} samples."
        )
    w = w.astype(np.float64, copy=False)
    if not np.isfinite(w).all():
        raise ValueError("sample_weight contains NaN or infinite values.")
    if (w < 0).any():
        raise ValueError("sample_weight contains negative values.")
    top = float(w.max())
    if not top > 0:
        raise ValueError("sample_weight is zero for every sample.")
    if not 1e-250 < top < 1e250 / n:
        # rescale by a power of two (exact) so that sums neither overflow
        # nor lose digits in subnormal numbers
        w = np.ldexp(w, -int(np.frexp(top)[1]))
    return w


def _binary_labels(y_true, pos_label):
    """Return a boolean array ``y == pos_label`` after checking ``y_true``.

    ``y_true`` must hold at most two distinct values.  Without ``pos_label``
    the labels must be {0, 1}, {-1, 1} or bool, and the positive class is 1
    (True).  A single class is allowed here; callers decide what it means.
    """
    y = _check_labels(y_true, "y_true")
    if y.shape[0] == 0:
        raise ValueError("y_true is empty; at least one sample is needed.")
    fast = _default_binary_labels(y, pos_label)
    if fast is not None:
        return fast
    if y.dtype.kind in "biuf":
        if y.dtype.kind == "b":
            y = y.view(np.uint8)
        if y.dtype.kind == "f":
            if not np.isfinite(y).all():
                raise ValueError("y_true contains NaN or infinite values.")
        lo, hi = y.min(), y.max()
        if y.dtype.kind in "iu" and int(hi) - int(lo) <= 1:
            two_values = True  # integers between lo and lo + 1
        else:
            n_hi = np.count_nonzero(y == hi)
            n_lo = np.count_nonzero(y == lo) if lo != hi else 0
            two_values = n_lo + n_hi == y.shape[0]
        if not two_values:
            kind = "continuous" if y.dtype.kind == "f" and not np.all(
                np.mod(y, 1) == 0
            ) else "multiclass"
            raise ValueError(
                f"y_true must be binary (two distinct labels); got {kind} "
                "targets with more than two distinct values."
            )
        classes = [lo] if lo == hi else [lo, hi]
        classes = [c.item() for c in classes]
    else:
        try:
            classes = np.unique(y).tolist()
        except TypeError:
            raise TypeError(
                "y_true mixes label types that cannot be compared."
            ) from None
        if len(classes) > 2:
            raise ValueError(
                f"y_true must be binary (two distinct labels); got "
                f"{len(classes)} classes: {classes[:5]}."
            )

    if pos_label is None:
        allowed = ({0, 1}, {-1, 1}, {0}, {1}, {-1})
        if set(classes) not in allowed:
            raise ValueError(
                f"y_true has labels {classes}; without pos_label they must be "
                "{0, 1}, {-1, 1} or bool. Pass pos_label to say which label "
                "is the positive class."
            )
        pos_label = 1
    else:
        if isinstance(pos_label, (list, tuple, dict, set, np.ndarray)):
            raise TypeError(
                f"pos_label must be a single label, got {type(pos_label).__name__}."
            )
        if pos_label not in classes:
            if len(classes) == 2:
                raise ValueError(
                    f"pos_label={pos_label!r} is not a label of y_true "
                    f"(labels present: {classes})."
                )
            # One class only, e.g. a cross-validation fold: every sample is
            # negative.  As in scikit-learn the caller warns and returns NaN.
            return np.zeros(y.shape[0], dtype=bool)
    return y == pos_label


def _default_binary_labels(y, pos_label):
    """``y == 1`` for the usual labels {0, 1}, {-1, 1} or bool, in one or two passes.

    Labels of millions of samples are checked on every call, so the common
    cases avoid the general check (a minimum, a maximum and a comparison):
    bool labels are returned as they are (a view of ``y_true``: callers never
    write into it), and integer labels are compared with 1 once and counted
    once.  None means "not one of these cases"; the caller then checks in full
    (and words the error).
    """
    if y.dtype.kind == "b":
        return y if pos_label is None or (_is_label_one(pos_label)) else None
    if y.dtype.kind not in "iu" or not (pos_label is None or _is_label_one(pos_label)):
        return None
    y_pos = y == 1
    n_one = np.count_nonzero(y_pos)
    n_nonzero = np.count_nonzero(y)
    if n_nonzero == n_one:  # every label is 0 or 1
        return y_pos
    if y.dtype.kind == "i" and n_nonzero == y.shape[0] and (
        np.count_nonzero(y == -1) == y.shape[0] - n_one
    ):  # every label is -1 or 1
        return y_pos
    return None


def _is_label_one(pos_label):
    """True for 1 and True (as Python or numpy scalars), the default positive label."""
    return (
        isinstance(pos_label, (numbers.Integral, np.bool_))
        and not isinstance(pos_label, np.ndarray)
        and pos_label == 1
    )


def _check_labels(labels, name):
    """A 1-D array of class labels with no None, NaN, complex or mixed types."""
    if labels is None:
        raise TypeError(f"{name} is None; pass an array of class labels.")
    if isinstance(labels, (str, bytes)):
        raise TypeError(f"{name} must be an array of labels, got a string.")
    if isinstance(labels, (list, tuple)):
        _asarray(labels, name)  # a named error for ragged input
    if np.iscomplexobj(labels):
        raise TypeError(f"{name} contains complex numbers; labels must be real or strings.")
    if hasattr(labels, "dtype") and str(labels.dtype) == "category":
        labels = np.asarray(labels, dtype=object)
    y = _asarray(labels, name)
    if y.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D with one label per sample; got shape {y.shape}."
        )
    if y.dtype.kind == "U" and isinstance(labels, (list, tuple)):
        # numpy turns ["a", 1] into ["a", "1"]: look at the values as given
        y = np.asarray(labels, dtype=object)
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError(f"{name} contains NaN; every sample needs a label.")
    if y.dtype.kind == "O":
        values = y.tolist()
        if any(v is None for v in values):
            raise ValueError(f"{name} contains None; every sample needs a label.")
        if any(isinstance(v, float) and v != v for v in values):
            raise ValueError(f"{name} contains NaN; every sample needs a label.")
        if any(type(v).__name__ in ("NAType", "NaTType") for v in values):
            raise ValueError(
                f"{name} contains missing values (pandas NA); every sample needs a label."
            )
        if any(isinstance(v, complex) for v in values):
            raise TypeError(f"{name} contains complex numbers; labels must be real or strings.")
        kinds = {type(v) for v in values}
        if len(kinds) > 1 and not all(issubclass(k, numbers.Number) for k in kinds):
            raise TypeError(
                f"{name} mixes label types ({sorted(k.__name__ for k in kinds)}); "
                "use one type for all labels."
            )
        if kinds and all(issubclass(k, str) for k in kinds):
            y = y.astype(str)
    return y


def _check_same_length(**arrays):
    lengths = {k: len(v) for k, v in arrays.items()}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"{k} has {n}" for k, n in lengths.items())
        raise ValueError(f"Inputs have different numbers of samples: {desc}.")


def _check_binary_inputs(y_true, y_score, pos_label, sample_weight, *, finite=True):
    """Validate the usual (y_true, y_score) pair of a binary metric.

    Returns ``(y_pos, score, weight)``: a boolean array, a numeric 1-D array
    and float64 weights or None.  ``finite=False`` leaves the check for NaN
    and infinite scores to a caller that sorts them (their ends show them).
    """
    score = _as_1d_numeric(y_score, "y_score", finite=finite)
    y_pos = _binary_labels(y_true, pos_label)
    _check_same_length(y_true=y_pos, y_score=score)
    weight = _check_sample_weight(sample_weight, score.shape[0])
    return y_pos, score, weight


def _check_prevalence(prevalence):
    _reject_none_and_complex(prevalence, "prevalence")
    if not _is_numeric(prevalence):
        raise TypeError(f"prevalence must be a number, got {type(prevalence).__name__}.")
    p = np.asarray(prevalence, dtype=np.float64)
    if not np.all(np.isfinite(p)) or np.any(p <= 0) or np.any(p >= 1):
        raise ValueError(
            f"prevalence must lie strictly between 0 and 1; got {prevalence!r}."
        )
    return p


def _scalar_prevalence(prevalence):
    """A single prevalence as a float (arrays are refused by name)."""
    p = _check_prevalence(prevalence)
    if p.ndim != 0:
        raise TypeError(
            f"prevalence must be a single number here, not an array of shape {p.shape}."
        )
    return float(p)


def _broadcast(**arrays):
    """np.broadcast_arrays with an error that names the arguments."""
    try:
        return np.broadcast_arrays(*arrays.values())
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(v)}" for k, v in arrays.items())
        raise ValueError(
            f"{', '.join(arrays)} cannot be broadcast together: {shapes}."
        ) from None


def _finite_float_array(x, name):
    """``x`` as a float64 array of finite real numbers, or a named error."""
    _reject_none_and_complex(x, name)
    if not _is_numeric(x):
        raise TypeError(f"{name} must be a number or an array of numbers.")
    arr = np.asarray(x, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return arr


def _check_rates(x, name):
    arr = _finite_float_array(x, name)
    if np.any(arr < 0) or np.any(arr > 1):
        raise ValueError(f"{name} must lie in [0, 1]; got values outside it.")
    return arr


def _is_numeric(x):
    if isinstance(x, numbers.Number) and not isinstance(x, bool):
        return True
    try:
        arr = np.asarray(x)
    except Exception:  # pragma: no cover - exotic containers
        return False
    return arr.dtype.kind in "iuf"


def _check_option(value, name, options):
    """Return ``value`` if it is one of the string ``options`` (or None if allowed)."""
    if value is None and None in options:
        return None
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be a string, one of {list(options)}; got "
            f"{type(value).__name__}."
        )
    if value not in options:
        raise ValueError(
            f"{name}={value!r} is not supported; choose one of {list(options)}."
        )
    return value


def _one_class_undefined(n_pos, n_neg, what, caller):
    """Warn and return True when y_true lacks a class (then ``what`` is undefined).

    The one place that decides what a single class means: the caller returns
    NaN, as scikit-learn does, after an :class:`UndefinedMetricWarning`.
    """
    if n_pos > 0 and n_neg > 0:
        return False
    missing = "positive" if n_pos == 0 else "negative"
    _warn(
        f"Only one class is present in y_true (no {missing} samples), so "
        f"{what} undefined; {caller} returns NaN.",
        UndefinedMetricWarning,
    )
    return True


def _check_weighted_shares(w_pos, w_neg, caller):
    """A named error when the weights leave one class no share in double precision.

    ``w_pos``/``w_neg`` are the classes' total weights.  With weights such as
    1e20 on the positives and 1 on the negatives the share of positives
    rounds to 1.0: the AUK's range ``auk_bounds(p)``, its variance and every
    interval or test built on them are undefined there (``auk_score`` keeps
    the share of the negatives apart and still gives the AUK).
    """
    big = max(w_pos, w_neg)
    p = (w_pos / big) / (w_pos / big + w_neg / big)
    if 0.0 < p < 1.0:
        return
    cls, share = ("negative", w_neg / (w_pos + w_neg)) if p == 1.0 else (
        "positive", w_pos / (w_pos + w_neg))
    raise ValueError(
        f"sample_weight leaves the {cls} class {share:.3g} of the total weight, "
        f"so the share of positives rounds to {p:.1f} in double precision and "
        f"{caller} is undefined (the AUK's range, its variance and interval "
        "need a share strictly between 0 and 1). Weights this unequal make one "
        "class carry no effective weight; give each class a share of at least "
        "about 1e-15."
    )


def _warn_undefined(message):
    _warn(message, UndefinedMetricWarning)


def _check_random_state(random_state):
    """A ``numpy.random.Generator`` from ``random_state``, or a named error.

    Accepted: None (fresh entropy), a non-negative integer, a sequence of
    non-negative integers, a ``SeedSequence``, a ``BitGenerator``, a
    ``Generator`` (used as it is) and, as in scikit-learn, a legacy
    ``RandomState`` (which draws the seed, so it advances as scikit-learn's
    would).  Anything else gets an error naming ``random_state`` instead of
    numpy's SeedSequence message.
    """
    if random_state is None or isinstance(
        random_state, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)
    ):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(
            random_state.randint(0, 2**63 - 1, dtype=np.int64, size=2))
    what = (
        "random_state must be None, a non-negative integer, a sequence of "
        "non-negative integers or a numpy Generator / SeedSequence / "
        "BitGenerator / RandomState"
    )
    if isinstance(random_state, (bool, np.bool_)):
        raise TypeError(f"{what}; got the bool {random_state!r}.")
    if isinstance(random_state, numbers.Integral):
        if random_state < 0:
            raise ValueError(f"{what}; got the negative integer {random_state!r}.")
        return np.random.default_rng(int(random_state))
    if isinstance(random_state, (list, tuple, np.ndarray)):
        values = np.asarray(random_state, dtype=object).ravel().tolist()
        if values and all(
            isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))
            for v in values
        ):
            if min(values) < 0:
                raise ValueError(f"{what}; got a sequence with a negative integer.")
            return np.random.default_rng([int(v) for v in values])
    raise TypeError(f"{what}; got {type(random_state).__name__} {random_state!r:.60}.")
