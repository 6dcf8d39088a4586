"""What the book's source documents print, and a re-implementation of one.

The numbers below are typed from the source documents (``/work/shared/seeds``
in the project, cited in the bibliography), so that the pages that check
them, chapter 8, chapter 10 and the appendix *Notes on the sources*, use one
copy.

* :data:`BARTMAN_SCHMITZ_TABLE4`: the AUC-ROC, average precision, AUC-PR
  and accuracy of Bartman & Schmitz's Table 4, per data version and model.
* :data:`BARTMAN_SCHMITZ`: their other printed numbers used by the book.
* :func:`blog_style_auk`: an AUK computed the way the blog post's class
  does it, one pass over the data per threshold (the book's code, not the
  post's).
"""

import pandas as pd

__all__ = ["BARTMAN_SCHMITZ_TABLE4", "BARTMAN_SCHMITZ", "bartman_schmitz_table",
           "blog_style_auk"]

_MODELS = ["LR", "RF", "SVM", "MLP", "XGB", "NB"]
_VERSIONS = ["raw", "down", "SMOTE"]

#: Bartman & Schmitz's Table 4 ("Best metrics for each data set"): for each
#: metric, data version (rows) and model (columns), the best of 25 settings
#: by that metric, rounded to three decimals as printed.
BARTMAN_SCHMITZ_TABLE4 = {
    "AUC-ROC": [[0.723, 0.840, 0.630, 0.799, 0.841, 0.788],
                [0.782, 0.840, 0.797, 0.796, 0.837, 0.789],
                [0.778, 0.826, 0.796, 0.800, 0.818, 0.767]],
    "Avg Precision": [[0.204, 0.331, 0.171, 0.285, 0.332, 0.254],
                      [0.262, 0.331, 0.274, 0.283, 0.321, 0.256],
                      [0.259, 0.296, 0.283, 0.288, 0.282, 0.240]],
    "AUC-PR": [[0.533, 0.328, 0.170, 0.284, 0.330, 0.253],
               [0.263, 0.329, 0.272, 0.487, 0.320, 0.254],
               [0.260, 0.294, 0.281, 0.373, 0.279, 0.238]],
    "Accuracy": [[0.933, 0.935, 0.933, 0.935, 0.935, 0.933],
                 [0.754, 0.758, 0.784, 0.772, 0.765, 0.910],
                 [0.721, 0.910, 0.783, 0.818, 0.931, 0.924]],
}

#: Other numbers Bartman & Schmitz print: the mean and standard deviation of
#: the 0/1 default column (Table 2), the class counts of their experimental
#: design, their Table 5 (Friedman aligned-rank test) and what their text
#: says about the post-hoc pairs of the AUC (their Figure 2).
BARTMAN_SCHMITZ = {
    "default mean": 0.067,
    "default sd": 0.251,
    "bad customers": 1954,
    "good customers": 26275,
    "table 5": {"AUC": (11.58, 0.04, 5), "Accuracy": (6.31, 0.28, 5)},
    # "the random forest classifier outperforms logistic regression, SVM and
    # naive bayes with p < 0.05; same holds for the gradient boosted
    # classifier, except that the p-value for naive bayes is 0.06"
    "post-hoc below 0.05": {("RF", "LR"), ("RF", "SVM"), ("RF", "NB"),
                            ("XGB", "LR"), ("XGB", "SVM")},
    "post-hoc 0.06": ("XGB", "NB"),
}


def bartman_schmitz_table(metric):
    """One metric of their Table 4 as a DataFrame (rows raw/down/SMOTE, columns models).

    >>> bartman_schmitz_table("AUC-ROC").loc["raw", "XGB"]
    np.float64(0.841)
    """
    return pd.DataFrame(BARTMAN_SCHMITZ_TABLE4[metric], index=_VERSIONS, columns=_MODELS)


def blog_style_auk(scores, labels):
    """AUK, false positive rates and kappas computed as the blog post's class does.

    For every distinct score, taken as a threshold from the lowest to the
    highest, it classifies every case again and counts the confusion matrix
    (one pass over the data per threshold, so a cost growing with the square
    of the number of cases); it sums trapezoids of kappa over consecutive
    thresholds only, and pads each returned list with one 0, appended or
    prepended according to where that list's minimum is.  Returns
    ``(auk, fprs, kappas)``.  This is the book's re-implementation of the
    approach, not the post's code.

    >>> auk, fprs, kappas = blog_style_auk([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
    >>> auk, fprs, kappas
    (0.25, [1.0, 0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.5, 0.0, 0.5])
    """
    thresholds = sorted(set(scores))
    total = len(labels)

    def table(thr):
        tp = sum(1 for s, y in zip(scores, labels) if s >= thr and y == 1)
        fp = sum(1 for s, y in zip(scores, labels) if s >= thr and y == 0)
        fn = sum(labels) - tp
        return (tp / total, fn / total, fp / total, (total - tp - fp - fn) / total)

    def kappa(tp, fn, fp, tn):
        p_c = (tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)
        return (tp + tn - p_c) / (1 - p_c)

    def pad(curve):  # zero at the end, or at the start if the minimum is first
        return curve + [0.0] if curve.index(min(curve)) > 0 else [0.0] + curve

    cells = [table(thr) for thr in thresholds]
    kappas = [kappa(*c) for c in cells]
    fprs = [c[2] / (c[2] + c[3]) for c in cells]
    auk = sum(abs(fprs[i + 1] - fprs[i]) * (kappas[i] + kappas[i + 1]) / 2
              for i in range(len(cells) - 1))
    return auk, pad(fprs), pad(kappas)
