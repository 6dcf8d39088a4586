"""Chapter 9: uncertainty, by simulation."""

import itertools
from fractions import Fraction

import numpy as np
from scipy.stats import binom
from sklearn.metrics import roc_auc_score

from . import Answer


def positives_variant(n0, se0, se1, prevalence):
    """ch9-ex-positives: positive cases for the target standard error, and
    the cases in all at the class share."""
    positives = n0 * (se0 / se1) ** 2
    return (float(positives), float(positives / prevalence))


def misses_variant(n_sets, k, coverage):
    """ch9-ex-misses: the probability that k or more of n_sets intervals miss."""
    return float(binom.sf(k - 1, n_sets, 1 - coverage))


def _auc_rows(pos, neg):
    """AUC of each row: pairs won by the positive, ties one half."""
    diff = pos[:, :, None] - neg[:, None, :]
    return (diff > 0).mean(axis=(1, 2)) + (diff == 0).mean(axis=(1, 2)) / 2


def swap_variant(pos_a, pos_b, neg_a, neg_b):
    """ch9-ex-swap: AUC(a) - AUC(b) and the exact two-sided swap P-value."""
    n_pos = len(pos_a)
    a, b = np.r_[pos_a, neg_a], np.r_[pos_b, neg_b]
    swaps = np.array(list(itertools.product([False, True], repeat=len(a))))
    a_s, b_s = np.where(swaps, b, a), np.where(swaps, a, b)
    diffs = (_auc_rows(a_s[:, :n_pos], a_s[:, n_pos:])
             - _auc_rows(b_s[:, :n_pos], b_s[:, n_pos:]))
    observed = diffs[0]                      # the first arrangement swaps nothing
    p = np.mean(np.abs(diffs) >= abs(observed) - 1e-12)
    return (float(observed), float(p))


def _swap_by_roc_auc(pos_a, pos_b, neg_a, neg_b):
    """The same with scikit-learn's AUC, one arrangement at a time (for tests)."""
    y = np.r_[np.ones(len(pos_a)), np.zeros(len(neg_a))]
    a, b = np.r_[pos_a, neg_a], np.r_[pos_b, neg_b]
    observed = roc_auc_score(y, a) - roc_auc_score(y, b)
    diffs = []
    for swap in itertools.product([False, True], repeat=len(y)):
        s = np.array(swap)
        diffs.append(roc_auc_score(y, np.where(s, b, a)) - roc_auc_score(y, np.where(s, a, b)))
    return (float(observed), float(np.mean(np.abs(np.array(diffs)) >= abs(observed) - 1e-12)))


BOOK_SWAP = {"pos_a": (0.9, 0.7, 0.6), "pos_b": (0.8, 0.5, 0.4),
             "neg_a": (0.3, 0.5, 0.2), "neg_b": (0.6, 0.45, 0.35)}

ANSWERS = {
    "ch9-ex-positives": Answer(
        form="a pair (positives, cases): the positive cases needed for the target "
             "standard error and the cases in all",
        reference=lambda: positives_variant(25, 0.06, 0.02, 0.01),
        hint="the standard error shrinks with the square root of the number of "
             "positive cases: to divide it by k, multiply the positives by k squared; "
             "then divide by the share of positives.",
        atol=0.5),
    "ch9-ex-misses": Answer(
        form="one number: the share of batches of 40 intervals in which 5 or more "
             "miss",
        reference=lambda: misses_variant(40, 5, 0.95),
        hint="count the misses of each batch (a sum along axis 1) and take the share "
             "of batches with 5 or more; 'or more' includes 5.",
        atol=0.005),
    "ch9-ex-swap": Answer(
        form="a pair (difference, P): AUC(a) - AUC(b) and the exact P-value over the "
             "64 arrangements",
        reference=lambda: swap_variant(**BOOK_SWAP),
        hint="an arrangement counts when its difference is at least as far from 0 "
             "as the observed one, on either side; the observed arrangement is one "
             "of the 64.",
        atol=1e-4),
}

VARIANTS = {"ch9-ex-positives": positives_variant, "ch9-ex-misses": misses_variant,
            "ch9-ex-swap": swap_variant}


def _fraction(x):
    """An AUC of three positive and three negative cases (a multiple of 1/18)."""
    return str(Fraction(round(x * 18), 18))


def _misses_rubric(n_sets, k, coverage):
    return {"mean": f"{n_sets * (1 - coverage):g}", "n_sets": str(n_sets), "k": str(k),
            "share": f"{misses_variant(n_sets, k, coverage):.3f}",
            "observed": f"{1 - k / n_sets:.3f}",
            "mcse": f"{np.sqrt(coverage * (1 - coverage) / n_sets):.3f}"}


def _swap_rubric(pos_a, pos_b, neg_a, neg_b):
    diff, p = swap_variant(pos_a, pos_b, neg_a, neg_b)
    auc_a = _auc_rows(np.array([pos_a]), np.array([neg_a]))[0]
    auc_b = _auc_rows(np.array([pos_b]), np.array([neg_b]))[0]
    return {"auc_a": _fraction(auc_a), "auc_b": _fraction(auc_b), "diff": _fraction(diff),
            "count": str(round(p * 64))}


RUBRIC_VALUES = {"ch9-ex-misses": _misses_rubric, "ch9-ex-swap": _swap_rubric}
