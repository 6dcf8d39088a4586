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


def _better_sigma():
    sigmas = (0.6, 1.8)
    auks = [binormal_auk(norm.ppf(0.85) * np.sqrt(1 + s**2), 0.05, s) for s in sigmas]
    return sigmas[int(np.argmax(auks))]


def _skewed_lr():
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = skewed_breast_cancer(positive_share=0.1, seed=0)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y,
                                              random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=0.05)).fit(X_tr, y_tr)
    s = model.predict_proba(X_te)[:, 1]
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
        form="a pair (AUC - 1/2, exact AUK) of the chapter's logistic regression on "
             "the skewed test set",
        reference=_skewed_lr,
        hint="use the chapter's scores['logistic regression'] and y_te; the AUK with "
             "method=\"exact\".", atol=5e-4),
    "ch4-ex-shape": Answer(
        form="the sigma (0.6 or 1.8) of the classifier with the larger AUK at p = 0.05",
        reference=_better_sigma,
        hint="at p = 0.05 kappa weighs the left part of ROC space most: which curve "
             "rises faster near f = 0?", atol=1e-3),
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
