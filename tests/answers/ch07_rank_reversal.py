"""Chapter 7: AUC against AUK, rank reversals (case study).

The models are fitted as in the chapter (same features, split and seeds); run
with OPENBLAS_CORETYPE=Haswell exported, as the Makefile does, so that the
networks train to the same weights as the chapter's stored outputs.
"""

import functools
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import roc_auc_score, roc_curve
from threadpoolctl import threadpool_limits

from auklib import auk_from_roc, auk_score, roc_convex_hull
from aukbook.case_studies import case_study_models, case_study_split

from . import Answer

@functools.lru_cache(maxsize=None)
def scores_for(share, seed):
    """Test labels and the (linear, neural net) scores of one split, as in the chapter."""
    X_tr, X_te, y_tr, y_te = case_study_split(share, seed)
    pair = case_study_models(seed)
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        s_lin = pair["linear"].fit(X_tr, y_tr).predict(X_te)
        s_net = pair["neural net"].fit(X_tr, y_tr).predict_proba(X_te)[:, 1]
    return y_te, (s_lin, s_net)


def _split_count(first=50, last=69):
    count = 0
    for seed in range(first, last + 1):
        y, scores = scores_for(0.11, seed)
        auc = [roc_auc_score(y, s) for s in scores]
        auk = [auk_score(y, s, method="exact") for s in scores]
        count += np.sign(auc[0] - auc[1]) != np.sign(auk[0] - auk[1])
    return int(count)


def _hull_raise(seed=0, share=0.11):
    y, scores = scores_for(share, seed)
    out = []
    for s in scores:
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
        hf, ht = roc_convex_hull(fpr, tpr)
        out.append(auk_from_roc(hf, ht, y.mean(), method="exact")
                   - auk_score(y, s, method="exact"))
    return tuple(out)


ANSWERS = {
    "ch7-ex-split": Answer(
        form="the number of seeds 50-69 (a count out of 20) on which AUC and AUK "
             "rank the two models differently",
        reference=_split_count,
        hint="for each seed compare the sign of AUC(linear) - AUC(net) with the sign "
             "of AUK(linear) - AUK(net), both on the raw curves (disagree() does "
             "this), and count the differences.", atol=0.1),
    "ch7-ex-hull": Answer(
        form="a pair (linear, neural net): AUK of the convex hull minus AUK of the "
             "raw curve on the seed-0 split",
        reference=_hull_raise,
        hint="both columns are in the table of the seed-0 split: subtract "
             "'AUK (raw)' from 'AUK (hull)' for each model.", atol=5e-4),
}


def hull_variant(share, seed):
    """ch7-ex-hull (a) on the student's split."""
    return _hull_raise(seed, share)


VARIANTS = {"ch7-ex-hull": hull_variant, "ch7-ex-split": _split_count}


def _split_rubric(first, last):
    count = _split_count(first, last)
    spread = (20 * 0.1 * 0.9) ** 0.5
    return {"count": str(count),
            "in_line": ("well in line" if abs(count - 2) <= spread else
                        "in line (within two standard deviations)"
                        if abs(count - 2) <= 2 * spread else
                        "more than two standard deviations away: worth a look")}


RUBRIC_VALUES = {
    "ch7-ex-split": _split_rubric,
    "ch7-ex-hull": lambda share, seed: dict(zip(
        ("linear", "net"), (f"{v:.4f}" for v in hull_variant(share, seed)))),
}
