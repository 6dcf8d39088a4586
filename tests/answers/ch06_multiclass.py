"""Chapter 6: multi-class AUC from Mann-Whitney-Wilcoxon statistics, multi-class kappa."""

from fractions import Fraction

import numpy as np

from auklib import kappa_from_matrix, mww_ranked_table, mww_statistic

from . import Answer, num

# The chapter's diabetes confusion matrix (true grade down, predicted grade across),
# asserted in the notebook next to its figure.
DIABETES_CM = [[33, 14, 7, 1], [24, 13, 15, 4], [14, 14, 18, 9], [0, 7, 14, 34]]


WRONG_TRUTH = (1, 1, 1, 2, 2, 3, 3, 3)


def _wrong_m(predicted=(2, 3, 2, 1, 3, 1, 2, 1)):
    """Example 2's midrank MWW for the pairs (1|2), (2|1), (1|3), (3|1), (2|3), (3|2)."""
    truth = np.array(WRONG_TRUTH)
    predicted = np.array(predicted)
    values = []
    for i, j in [(1, 2), (2, 1), (1, 3), (3, 1), (2, 3), (3, 2)]:
        keep = (truth == i) | (truth == j)
        values.append(mww_statistic(truth[keep] == i, predicted[keep] == i))
    return tuple(values)


def _table(sizes=(4, 3, 3), predicted=(1, 3, 1, 1, 2, 3, 1, 3, 1, 3)):
    """(s, N_i, N_j, MWW) of the pair (1|3); class 1 first, then 2, then 3."""
    truth = np.repeat([1, 2, 3], sizes)
    predicted = np.asarray(predicted)
    keep = (truth == 1) | (truth == 3)
    signal = (truth[keep] == 1).astype(int)
    response = (predicted[keep] == 1).astype(int)
    table = mww_ranked_table(signal, response)
    s = int(table["rank"][table["signal"] == 1].sum())
    return (s, int(signal.sum()), int((1 - signal).sum()),
            mww_statistic(signal, response, ties="ranked_table"))


def _weighted():
    worse = np.array(DIABETES_CM)
    worse[0, 1] -= 1
    worse[0, 3] += 1
    return tuple(kappa_from_matrix(worse, weights=w) for w in (None, "linear", "quadratic"))


ANSWERS = {
    "ch6-ex-table": Answer(
        form="a tuple (s, N_i, N_j, MWW) for the pair (1|3) of the fourth classifier",
        reference=_table,
        hint="keep only the records of classes 1 and 3; the response is 'predicted as "
             "class 1', the signal 'is class 1'; rank the four blocks from rank 1 "
             "(response 0, signal 1) up.", atol=5e-4),
    "ch6-ex-wrong": Answer(
        form="a tuple of example 2's six midrank MWWs, for the pairs (1|2), (2|1), "
             "(1|3), (3|1), (2|3), (3|2) in that order",
        reference=_wrong_m,
        hint="with midranks each MWW is (1 + t - f) / 2 for its pair, with t and f "
             "the shares of class-i and class-j records predicted as class i.",
        atol=5e-4),
    "ch6-ex-weighted": Answer(
        form="a tuple (unweighted, linear, quadratic) of the kappas after the move",
        reference=_weighted,
        hint="copy the matrix, subtract 1 from cell [0, 1], add 1 to cell [0, 3], then "
             "call kappa_from_matrix with weights=None, 'linear' and 'quadratic'.",
        atol=5e-4),
}


def moved(moves, diagonal=(33, 13, 18, 34)):
    """The diabetes matrix, with ``diagonal`` on its diagonal, after the moves
    (true grade, from, to, patients)."""
    worse = np.array(DIABETES_CM)
    worse[np.diag_indices(4)] = diagonal
    for r, a, b, k in moves:
        worse[r, a] -= k
        worse[r, b] += k
    if (worse < 0).any():
        raise ValueError(f"moves {moves} empty a cell")
    return worse


def weighted_variant(diagonal, moves):
    """ch6-ex-weighted with the student's diagonal and moves of patients."""
    return tuple(kappa_from_matrix(moved(moves, diagonal), weights=w)
                 for w in (None, "linear", "quadratic"))


VARIANTS = {"ch6-ex-weighted": weighted_variant, "ch6-ex-table": _table,
            "ch6-ex-wrong": lambda predicted: _wrong_m(predicted)}


def _wrong_rubric(predicted):
    values = _wrong_m(predicted)
    fr = [str(Fraction(v).limit_denominator(36)) for v in values]
    return {"values": ", ".join(fr), "m": num(float(np.mean(values)), 4)}


def _weighted_rubric(diagonal, moves):
    before = weighted_variant(diagonal, ())
    after = weighted_variant(diagonal, moves)
    costs = []
    for r, a, b, k in moves:
        near, far = abs(a - r), abs(b - r)
        costs.append(f"a miss by {far} grade{'s' if far > 1 else ''} costs "
                     f"{Fraction(far, near)} (linear) or {Fraction(far**2, near**2)} "
                     f"(quadratic) times a miss by {near}")
    change = after[0] - before[0]
    return {"unweighted": f"{after[0]:.4f}",
            "unweighted_change": ("unchanged to four decimals" if abs(change) < 5e-5
                                  else f"a change of {change:+.4f}"),
            "linear": f"{after[1]:.3f}", "quadratic": f"{after[2]:.3f}",
            "costs": "; ".join(dict.fromkeys(costs))}


RUBRIC_VALUES = {"ch6-ex-wrong": _wrong_rubric, "ch6-ex-weighted": _weighted_rubric}
