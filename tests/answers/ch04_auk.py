"""Chapter 4: the AUK."""

import functools
from fractions import Fraction

import numpy as np
from scipy.stats import norm

from auklib import auk_from_roc, auk_score
from aukbook.plotting import binormal_auk, skewed_breast_cancer

from . import Answer, num


@functools.lru_cache(maxsize=None)
def chapter_scores():
    """The chapter's test labels and the scores of its four scored models."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    X, y = skewed_breast_cancer(positive_share=0.1, seed=0)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
    models = {
        "logistic regression": make_pipeline(StandardScaler(), LogisticRegression(C=0.05)),
        "naive Bayes": GaussianNB(),
        "5-nearest neighbours": make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
        "tree, depth 2": DecisionTreeClassifier(max_depth=2, random_state=0),
    }
    return y_te, {name: m.fit(X_tr, y_tr).predict_proba(X_te)[:, 1]
                  for name, m in models.items()}


def _deploy_lr(model="logistic regression", prevalence=0.01):
    y_te, scores = chapter_scores()
    return auk_score(y_te, scores[model], prevalence=prevalence)


def _auks_at_002(auc=0.85, sigma_narrow=0.6, sigma_wide=1.8, prevalence=0.02):
    auks = []
    for sigma in (sigma_narrow, sigma_wide):
        d = norm.ppf(auc) * np.sqrt(1 + sigma**2)
        auks.append(binormal_auk(d, prevalence, sigma))
    return tuple(auks)


def _skewed_nb(seed=0):
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB

    X, y = skewed_breast_cancer(positive_share=0.1, seed=seed)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=seed)
    s = GaussianNB().fit(X_tr, y_tr).predict_proba(X_te)[:, 1]
    return roc_auc_score(y_te, s) - 0.5, auk_score(y_te, s, method="exact")


ANSWERS = {
    "ch4-ex-crisp": Answer(
        form="a pair (trapezoid AUK, exact AUK)",
        reference=lambda: (
            auk_from_roc([0, 0.1, 1], [0, 0.6, 1], 0.2, method="trapezoid"),
            auk_from_roc([0, 0.1, 1], [0, 0.6, 1], 0.2, method="exact")),
        hint="the ROC vertices are (0, 0), (0.1, 0.6) and (1, 1); give both methods the "
             "same vertices and p = 0.2.", atol=5e-5),
    "ch4-ex-skew": Answer(
        form="a pair (AUC - 1/2, exact AUK) of the chapter's naive Bayes model on "
             "the skewed test set",
        reference=_skewed_nb,
        hint="use the chapter's scores['naive Bayes'] and y_te; the AUK with "
             "method=\"exact\".", atol=5e-4),
    "ch4-ex-shape": Answer(
        form="a pair (AUK with sigma = 0.6, AUK with sigma = 1.8) at p = 0.02, both "
             "classifiers with AUC = 0.85",
        reference=_auks_at_002,
        hint="find the d that gives AUC = 0.85 for each sigma, d = Phi^-1(0.85) "
             "sqrt(1 + sigma^2), then binormal_auk(d, 0.02, sigma).", atol=5e-4),
    "ch4-ex-deploy": Answer(
        form="the exact AUK of the chapter's logistic regression at p = 0.01",
        reference=_deploy_lr,
        hint="auk_score(y_te, scores['logistic regression'], prevalence=0.01); the "
             "test set's ROC curve, kappa at p = 0.01.", atol=5e-4),
}


def crisp_variant(fpr, tpr, prevalence):
    """ch4-ex-crisp with the student's ROC vertex and class share."""
    return tuple(auk_from_roc([0, fpr, 1], [0, tpr, 1], prevalence, method=m)
                 for m in ("trapezoid", "exact"))


VARIANTS = {"ch4-ex-crisp": crisp_variant, "ch4-ex-skew": _skewed_nb,
            "ch4-ex-shape": _auks_at_002, "ch4-ex-deploy": _deploy_lr}


def _crisp_rubric(fpr, tpr, prevalence):
    trap, exact = crisp_variant(fpr, tpr, prevalence)
    share = Fraction(prevalence).limit_denominator(100)
    slope = Fraction(tpr / fpr).limit_denominator(1000)
    return {"trap": num(trap, 4), "exact": num(exact, 4),
            "p": f"{share}" if share.denominator > 1 else f"{prevalence:g}",
            "slope": f"{slope}" if slope.denominator == 1 else f"({slope})",
            "f1": f"{fpr:g}"}


def _shape_rubric(auc, sigma_narrow, sigma_wide, prevalence):
    narrow, wide = _auks_at_002(auc, sigma_narrow, sigma_wide, prevalence)
    winner = sigma_wide if wide > narrow else sigma_narrow
    return {"winner": f"{winner:g}", "p": f"{prevalence:g}", "narrow": f"{narrow:.3f}",
            "wide": f"{wide:.3f}", "half": num(auc - 0.5, 3)}


def _deploy_rubric(model, prevalence):
    return {"auk": f"{_deploy_lr(model, prevalence):.4f}", "p": f"{prevalence:g}",
            "q": f"{1 - prevalence:g}"}


RUBRIC_VALUES = {
    "ch4-ex-crisp": _crisp_rubric,
    "ch4-ex-skew": lambda seed: dict(zip(("half", "auk"),
                                         (f"{v:.2f}" for v in _skewed_nb(seed)))),
    "ch4-ex-shape": _shape_rubric,
    "ch4-ex-deploy": _deploy_rubric,
}
