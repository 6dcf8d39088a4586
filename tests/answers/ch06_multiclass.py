"""Chapter 6: multi-class AUC from Mann-Whitney-Wilcoxon statistics, multi-class kappa."""

import numpy as np

from auklib import kappa_from_matrix, mww_ranked_table, mww_statistic

from . import Answer

# The chapter's diabetes confusion matrix (true grade down, predicted grade across),
# asserted in the notebook next to its figure.
DIABETES_CM = [[33, 14, 7, 1], [24, 13, 15, 4], [14, 14, 18, 9], [0, 7, 14, 34]]


def _wrong_m():
    """Example 2's midrank MWW for the pairs (1|2), (2|1), (1|3), (3|1), (2|3), (3|2)."""
    truth = np.array([1, 1, 1, 2, 2, 3, 3, 3])
    predicted = np.array([2, 3, 2, 1, 3, 1, 2, 1])
    values = []
    for i, j in [(1, 2), (2, 1), (1, 3), (3, 1), (2, 3), (3, 2)]:
        keep = (truth == i) | (truth == j)
        values.append(mww_statistic(truth[keep] == i, predicted[keep] == i))
    return tuple(values)


def _table():
    signal = [1, 1, 1, 1, 0, 0, 0]       # records 1-4 (class 1), 8, 9, 10 (class 3)
    response = [1, 0, 1, 1, 0, 1, 0]     # predicted class 1: records 1, 3, 4 and 9
    table = mww_ranked_table(signal, response)
    s = int(table["rank"][table["signal"] == 1].sum())
    return (s, 4, 3, mww_statistic(signal, response, ties="ranked_table"))


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


def weighted_variant(true_grade, from_grade, to_grade):
    """ch6-ex-weighted with the student's move of one patient."""
    worse = np.array(DIABETES_CM)
    worse[true_grade, from_grade] -= 1
    worse[true_grade, to_grade] += 1
    return tuple(kappa_from_matrix(worse, weights=w)
                 for w in (None, "linear", "quadratic"))


VARIANTS = {"ch6-ex-weighted": weighted_variant}
