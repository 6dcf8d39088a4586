"""Data and models of the book's case studies, shared by the chapters.

Chapter 7 (rank reversals) and chapters 10 and 11 use the same model pair on
the skewed breast-cancer data; chapters 8 and 11 use the same skewed digits
data.  They are built here once.
"""

import numpy as np
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from .plotting import skewed_breast_cancer

__all__ = [
    "CASE_STUDY_FEATURES",
    "case_study_split",
    "case_study_network",
    "case_study_models",
    "skewed_digits",
    "ranking_score",
]

#: The four weak breast-cancer features of the rank-reversal case study.
CASE_STUDY_FEATURES = [1, 4, 8, 9]


def case_study_split(share, seed):
    """Skewed breast-cancer split of chapter 7: ``X_tr, X_te, y_tr, y_te``.

    ``share`` of malignant cases, the four features above, 40% test data,
    stratified; ``seed`` draws both the subsample and the split.

    >>> X_tr, X_te, y_tr, y_te = case_study_split(0.11, 0)
    >>> X_tr.shape[1], len(y_te), int(y_te.sum())
    (4, 161, 18)
    """
    X, y = skewed_breast_cancer(share, seed=seed)
    return train_test_split(
        X[:, CASE_STUDY_FEATURES], y, test_size=0.4, stratify=y, random_state=seed
    )


def case_study_network(shape, seed, max_iter=300):
    """The case study's standardised logistic-unit network (L-BFGS)."""
    return make_pipeline(
        StandardScaler(),
        MLPClassifier(shape, activation="logistic", solver="lbfgs", alpha=1e-3,
                      max_iter=max_iter, random_state=seed),
    )


def case_study_models(seed, max_iter=300):
    """Chapter 7's pair: a linear regression and a five-unit network."""
    return {
        "linear": make_pipeline(StandardScaler(), LinearRegression()),
        "neural net": case_study_network((5,), seed, max_iter=max_iter),
    }


def skewed_digits(positive_share=0.07, seed=0):
    """Eights against the other digits, as 4 quadrant means, at a 7% share.

    The 8x8 digit images of scikit-learn are averaged over their four 4x4
    quadrants (four weak features); eights are subsampled so that they make
    ``positive_share`` of the data, all other digits are kept.

    >>> X, y = skewed_digits()
    >>> X.shape, round(float(y.mean()), 3)
    ((1745, 4), 0.07)
    """
    from sklearn.datasets import load_digits

    X_all, digit = load_digits(return_X_y=True)
    quadrants = X_all.reshape(-1, 2, 4, 2, 4).mean(axis=(2, 4)).reshape(-1, 4)
    y_all = (digit == 8).astype(int)
    rng = np.random.default_rng(seed)
    neg, pos = np.flatnonzero(y_all == 0), np.flatnonzero(y_all == 1)
    n_pos = int(round(positive_share * len(neg) / (1 - positive_share)))
    keep = np.sort(np.concatenate([neg, rng.choice(pos, n_pos, replace=False)]))
    return quadrants[keep], y_all[keep]


def ranking_score(model, X):
    """The score a fitted classifier ranks by: its decision function if it
    has one, else the predicted probability of the positive class."""
    if hasattr(model, "decision_function"):
        return model.decision_function(X)
    return model.predict_proba(X)[:, 1]
