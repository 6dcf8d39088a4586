"""Self-checks for the book's exercises.

A student computes an answer and calls :func:`check`::

    >>> from aukbook.checks import check
    >>> check("ch2-ex-target", 0.2)
    ✗ ch2-ex-target: not yet. Hint: solve eq. (19) for t at the given f and p (or use tpr_from_kappa); kappa at your t should be exactly 0.5.

The message says whether the answer is right and gives a hint, never the
answer itself.  The reference answers are computed here from the library
when the check runs; they are not stored.  :func:`describe` says what form
each answer takes, and :data:`CHECKS` lists the exercise labels.
"""

from dataclasses import dataclass

import numpy as np

from auklib.kappa import kappa_from_confusion, kappa_from_rates, tpr_from_kappa
from .plotting import binormal_roc as _binormal_t
from auklib.curves import auk_from_roc

__all__ = ["check", "describe", "CHECKS", "CheckResult"]


@dataclass(frozen=True)
class CheckResult:
    """Outcome of a self-check: ``passed`` and a message for the student."""

    exercise: str
    passed: bool
    message: str

    def __bool__(self):
        return self.passed

    def __repr__(self):
        return self.message


@dataclass(frozen=True)
class _Check:
    form: str            # what the student passes
    reference: object    # callable returning the expected value(s)
    hint: str            # general hint, shown on failure
    atol: float = 5e-4
    kind: str = "values"  # "values" or "function"
    probe: object = None  # for "function": callable(rng) -> args tuple


def _ch2_worst(p):
    return -2 * p * (1 - p) / (1 - 2 * p * (1 - p))


def _ch2_straight_argmax():
    f = np.linspace(0, 1, 2001)
    t = np.interp(f, [0, 0.2, 1], [0, 0.7, 1])
    return float(f[np.argmax(kappa_from_rates(t, f, 0.1))])


def _ch3_better_sigma():
    from scipy.stats import norm

    from .plotting import binormal_auk

    sigmas = (0.6, 1.8)
    auks = [binormal_auk(norm.ppf(0.85) * np.sqrt(1 + s**2), 0.05, s) for s in sigmas]
    return sigmas[int(np.argmax(auks))]


def _ch4_fstar():
    from scipy.optimize import brentq
    from scipy.stats import norm

    def tangency(f, d=1.0, p=0.05):
        c = norm.isf(f)
        t = _binormal_t(d, f)
        return norm.pdf(c - d) / norm.pdf(c) - (p + (1 - 2 * p) * t) / (p + (1 - 2 * p) * f)

    return brentq(tangency, 1e-6, 0.9)


def _ch4_flagged():
    f = np.linspace(0, 1, 1_000_001)
    t = _binormal_t(2.0, f)
    out = []
    for i in (np.argmax(kappa_from_rates(t, f, 0.02)), np.argmax(t - f)):
        out.append(10_000 * (0.02 * t[i] + 0.98 * f[i]))
    return tuple(out)


def _ch5_wrong_m():
    from auklib.multiclass import hand_till_score

    truth = [1, 1, 1, 2, 2, 3, 3, 3]
    return hand_till_score(truth, [2, 3, 2, 1, 3, 1, 2, 1])


def _ch5_table():
    from auklib.multiclass import mww_ranked_table, mww_statistic

    signal = [0, 0, 0, 1, 1, 1]          # records 1, 2, 3 (class 1), 6, 7, 8 (class 3)
    response = [0, 0, 0, 0, 1, 0]        # example 3 predicts class 3 for record 7 only
    table = mww_ranked_table(signal, response)
    s = int(table["rank"][table["signal"] == 1].sum())
    return (s, 3, 3, mww_statistic(signal, response, ties="ranked_table"))


CHECKS = {
    "ch1-ex-counts": _Check(
        form="a function kappa(tp, fn, fp, tn) of four numbers (counts) returning Cohen's kappa",
        reference=kappa_from_confusion, kind="function",
        probe=lambda rng: tuple(float(v) for v in rng.integers(1, 60, 4)),
        hint="kappa = (a - p_c) / (1 - p_c) with a, p and p_hat as shares of the total; "
             "divide the counts by their sum first.", atol=1e-9),
    "ch1-ex-fourth": _Check(
        form="a pair (accuracy, kappa) for classifier D",
        reference=lambda: (0.06 + 0.87, kappa_from_confusion(0.06, 0.01, 0.06, 0.87)),
        hint="first fill in all four cells: FN = p - TP, FP = p_hat - TP, TN = the rest; "
             "then use eqs. (1), (11) and (12)."),
    "ch2-ex-corner": _Check(
        form="a function worst(p) giving kappa at (f, t) = (1, 0) for class share p",
        reference=_ch2_worst, kind="function",
        probe=lambda rng: (float(rng.uniform(0.01, 0.99)),),
        hint="put t = 0 and f = 1 into eq. (19) and simplify numerator and denominator "
             "separately.", atol=1e-9),
    "ch2-ex-target": _Check(
        form="the true positive rate t needed at f = 0.02 (a number)",
        reference=lambda: tpr_from_kappa(0.5, 0.02, 0.05),
        hint="solve eq. (19) for t at the given f and p (or use tpr_from_kappa); "
             "kappa at your t should be exactly 0.5."),
    "ch2-ex-straight": _Check(
        form="the false positive rate at which kappa is largest (a number)",
        reference=_ch2_straight_argmax,
        hint="kappa is linear-fractional along each segment, so its maximum is at an "
             "end of a segment; compare the candidates."),
    "ch3-ex-crisp": _Check(
        form="a pair (trapezoid AUK, exact AUK)",
        reference=lambda: (auk_from_roc([0, 0.1, 1], [0, 0.6, 1], 0.2),
                           auk_from_roc([0, 0.1, 1], [0, 0.6, 1], 0.2, method="exact")),
        hint="the ROC vertices are (0, 0), (0.1, 0.6) and (1, 1); give both methods the "
             "same vertices and p = 0.2.", atol=5e-5),
    "ch3-ex-shape": _Check(
        form="the sigma (0.6 or 1.8) of the classifier with the larger AUK at p = 0.05",
        reference=_ch3_better_sigma,
        hint="at p = 0.05 kappa weighs the left part of ROC space most: which curve "
             "rises faster near f = 0?", atol=1e-9),
    "ch4-ex-pivot": _Check(
        form="the three pivots -p/(1-2p) for p = 0.2, 0.45 and 0.7 (a tuple)",
        reference=lambda: tuple(-p / (1 - 2 * p) for p in (0.2, 0.45, 0.7)),
        hint="mind the sign of 1 - 2p when p > 1/2.", atol=5e-4),
    "ch4-ex-solve": _Check(
        form="the kappa-optimal false positive rate f* (a number)",
        reference=_ch4_fstar,
        hint="the slope of the binormal ROC curve is phi(c - d) / phi(c) with "
             "c = Phi^-1(1 - f); set it equal to the right-hand side of the rewritten (26).",
        atol=5e-4),
    "ch4-ex-deploy": _Check(
        form="a pair (people flagged at the kappa optimum, people flagged at the Youden "
             "optimum) out of 10,000",
        reference=_ch4_flagged,
        hint="flagged = 10,000 x p_hat, with p_hat = p t + (1 - p) f at each operating "
             "point (eq. (17)).", atol=1.0),
    "ch5-ex-table": _Check(
        form="a tuple (s, n1, n2, MWW) for the pair (3|1) of example 3",
        reference=_ch5_table,
        hint="keep only the records of classes 1 and 3; the response is 'predicted as "
             "class 3', the signal 'is class 3'; rank the four blocks from the bottom up.",
        atol=5e-4),
    "ch5-ex-wrong": _Check(
        form="Hand and Till's M of example 2 with midranks (a number)",
        reference=_ch5_wrong_m,
        hint="with midranks each MWW is (1 + t - f) / 2 for its pair; average the six.",
        atol=5e-4),
}


def describe(exercise):
    """What form the answer to ``exercise`` takes (a sentence)."""
    _lookup(exercise)
    return f"{exercise}: pass {CHECKS[exercise].form}."


def _lookup(exercise):
    if exercise not in CHECKS:
        raise ValueError(
            f"No self-check is called {exercise!r}; available: {', '.join(sorted(CHECKS))}."
        )
    return CHECKS[exercise]


def _as_values(x):
    if isinstance(x, (str, bytes)) or x is None:
        raise TypeError
    arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
    if arr.ndim != 1:
        raise TypeError
    return arr


def check(exercise, answer):
    """Check an answer to one of the book's exercises.

    Parameters
    ----------
    exercise : str
        The exercise label shown in the book, e.g. ``"ch2-ex-target"``.
    answer : number, tuple of numbers, or function
        See :func:`describe` for the form each exercise expects.

    Returns
    -------
    result : CheckResult
        Truthy when correct; its text says "correct" or gives a hint.  The
        expected value is never shown.

    Examples
    --------
    >>> from aukbook.checks import check
    >>> bool(check("ch4-ex-pivot", (-1/3, -4.5, 1.75)))
    True
    """
    spec = _lookup(exercise)
    ok_msg = f"✓ {exercise}: correct."
    bad = f"✗ {exercise}: not yet. Hint: {spec.hint}"
    if spec.kind == "function":
        if not callable(answer):
            return CheckResult(exercise, False,
                               f"✗ {exercise}: expected {spec.form}, got {type(answer).__name__}.")
        rng = np.random.default_rng(20261121)
        for _ in range(20):
            args = spec.probe(rng)
            try:
                got = float(answer(*args))
            except Exception as exc:  # the student's code failed
                return CheckResult(exercise, False,
                                   f"✗ {exercise}: your function raised {type(exc).__name__}: {exc}")
            if not np.isfinite(got) or abs(got - float(spec.reference(*args))) > spec.atol:
                return CheckResult(exercise, False, bad)
        return CheckResult(exercise, True, ok_msg)
    expected = _as_values(spec.reference())
    try:
        got = _as_values(answer)
    except (TypeError, ValueError):
        return CheckResult(exercise, False,
                           f"✗ {exercise}: expected {spec.form}, got {answer!r:.40}.")
    if got.shape != expected.shape:
        return CheckResult(exercise, False,
                           f"✗ {exercise}: expected {spec.form} ({expected.size} number"
                           f"{'s' if expected.size > 1 else ''}), got {got.size}.")
    if np.all(np.abs(got - expected) <= spec.atol):
        return CheckResult(exercise, True, ok_msg)
    return CheckResult(exercise, False, bad)
