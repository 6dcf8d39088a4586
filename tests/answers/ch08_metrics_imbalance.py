"""Chapter 8: nine metrics under class imbalance."""

from fractions import Fraction
from itertools import permutations, product

import numpy as np
from scipy.stats import rankdata

from auklib import kappa_optimal_point

from . import Answer

# The AUC-PR table given in the exercises (LR, RF, SVM; raw and down-sampled).
TABLE = np.array([[0.186, 0.344, 0.311], [0.168, 0.333, 0.191]])


def _ranks(table):
    aligned = table - table.mean(axis=1, keepdims=True)
    return rankdata(aligned.ravel()).reshape(table.shape)


def _arrangements(r):
    b, k = r.shape
    for pm in product(permutations(range(k)), repeat=b):
        yield np.array([r[i, list(pm[i])] for i in range(b)])


def _t(r):
    k = r.shape[1]
    tot = r.sum(axis=0)
    ss = ((r - r.mean(axis=1, keepdims=True)) ** 2).sum()
    return (k - 1) * ((tot - tot.mean()) ** 2).sum() / ss


def _exact_p(table=TABLE):
    r = _ranks(np.asarray(table, dtype=float))
    t_obs = _t(r)
    return float(np.mean([_t(a) >= t_obs - 1e-12 for a in _arrangements(r)]))


def _null_variance(table=TABLE):
    r = _ranks(np.asarray(table, dtype=float))
    d = [a[:, 0].mean() - a[:, 1].mean() for a in _arrangements(r)]
    return float(np.var(d))


def raw_lr_test_scores(seed=0):
    """The chapter's raw-data logistic regression and its test scores (the test
    split drawn with ``random_state=seed``; the chapter's is 0)."""
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X_all, digit = load_digits(return_X_y=True)
    quadrants = X_all.reshape(-1, 2, 4, 2, 4).mean(axis=(2, 4)).reshape(-1, 4)
    y_all = (digit == 8).astype(int)
    rng = np.random.default_rng(0)
    neg, pos = np.flatnonzero(y_all == 0), np.flatnonzero(y_all == 1)
    n_pos = int(round(0.07 * len(neg) / 0.93))
    keep = np.sort(np.concatenate([neg, rng.choice(pos, n_pos, replace=False)]))
    X, y = quadrants[keep], y_all[keep]
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.25, stratify=y, random_state=seed)
    X_fit, X_val, y_fit, y_val = train_test_split(
        X_train, y_train, test_size=0.2, stratify=y_train, random_state=0)
    best = None
    for c in (0.01, 0.1, 1.0):
        model = make_pipeline(StandardScaler(), LogisticRegression(
            l1_ratio=1.0, solver="liblinear", C=c)).fit(X_fit, y_fit)
        val_auc = roc_auc_score(y_val, model.decision_function(X_val))
        if best is None or val_auc > best[0]:
            best = (val_auc, model)
    return y_test, best[1].decision_function(X_test)


ANSWERS = {
    "ch8-ex-friedman": Answer(
        form="the exact permutation p-value of the aligned-rank statistic (a number)",
        reference=_exact_p,
        hint="align each row by its own mean, rank all six aligned values "
             "together, and count the share of the 36 arrangements whose "
             "statistic is at least the observed one (ties count).",
        atol=5e-4),
    "ch8-ex-null": Answer(
        form="the variance of the difference of mean aligned ranks, LR minus RF "
             "(a number)",
        reference=_null_variance,
        hint="permute the ranks within each row only; the variance is over "
             "all 36 arrangements, each equally likely (divide by 36, not 35).",
        atol=5e-4),
    "ch8-ex-threshold": Answer(
        form="the maximum kappa of the raw-data logistic regression on the test "
             "set (a number)",
        reference=lambda: kappa_optimal_point(*raw_lr_test_scores()).kappa,
        hint="use the model's decision_function on X_test and the test labels; "
             "the best threshold is chosen on the test set here.",
        atol=5e-4),
}


def threshold_variant(seed):
    """ch8-ex-threshold on the student's test split."""
    return kappa_optimal_point(*raw_lr_test_scores(seed)).kappa


# ch8-ex-friedman and ch8-ex-null on the student's table (one variant for both)
VARIANTS = {"ch8-ex-friedman": lambda raw, down: _exact_p([raw, down]),
            "ch8-ex-null": lambda raw, down: _null_variance([raw, down]),
            "ch8-ex-threshold": threshold_variant}


def _friedman_rubric(raw, down):
    from auklib import friedman_aligned_ranks

    table = np.array([raw, down], dtype=float)
    p = _exact_p(table)
    return {"t": f"{_t(_ranks(table)):.2f}",
            "p": str(Fraction(p).limit_denominator(36)),
            "chi2": f"{friedman_aligned_ranks(table).p_value:.3f}"}


RUBRIC_VALUES = {
    "ch8-ex-friedman": _friedman_rubric,
    "ch8-ex-threshold": lambda seed: {"kappa": f"{threshold_variant(seed):.3f}"},
}
