"""Chapter 4: the AUK."""

import numpy as np
from scipy.stats import norm

from auklib import auk_from_roc, auk_score
from aukbook.plotting import binormal_auk, skewed_breast_cancer

from . import Answer


def _deploy_lr():
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = skewed_breast_cancer(positive_share=0.1, seed=0)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(X_tr, y_tr)
    return auk_score(y_te, model.predict_proba(X_te)[:, 1], prevalence=0.01)


def _auks_at_002():
    auks = []
    for sigma in (0.6, 1.8):
        d = norm.ppf(0.85) * np.sqrt(1 + sigma**2)
        auks.append(binormal_auk(d, 0.02, sigma))
    return tuple(auks)


def _skewed_nb():
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB

    X, y = skewed_breast_cancer(positive_share=0.1, seed=0)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
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


VARIANTS = {"ch4-ex-crisp": crisp_variant}
