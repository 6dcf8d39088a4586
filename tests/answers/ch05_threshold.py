"""Chapter 5: choosing a threshold."""

import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm

from auklib import kappa_from_rates
from aukbook.plotting import binormal_roc

from . import Answer


def _fstar():
    def tangency(f, d=1.0, p=0.05):
        c = norm.isf(f)
        t = binormal_roc(d, f)
        return norm.pdf(c - d) / norm.pdf(c) - (p + (1 - 2 * p) * t) / (p + (1 - 2 * p) * f)

    return brentq(tangency, 1e-6, 0.9)


def _flagged():
    f = np.linspace(0, 1, 1_000_001)
    t = binormal_roc(2.0, f)
    out = []
    for i in (np.argmax(kappa_from_rates(tpr=t, fpr=f, prevalence=0.02)), np.argmax(t - f)):
        out.append(10_000 * (0.02 * t[i] + 0.98 * f[i]))
    return tuple(out)


ANSWERS = {
    "ch5-ex-pivot": Answer(
        form="the three pivots -p/(1-2p) for p = 0.2, 0.45 and 0.7 (a tuple)",
        reference=lambda: tuple(-p / (1 - 2 * p) for p in (0.2, 0.45, 0.7)),
        hint="mind the sign of 1 - 2p when p > 1/2.", atol=5e-4),
    "ch5-ex-solve": Answer(
        form="the kappa-optimal false positive rate f* (a number)",
        reference=_fstar,
        hint="the slope of the binormal ROC curve is phi(c - d) / phi(c) with "
             "c = Phi^-1(1 - f); set it equal to the right-hand side of the rewritten "
             "(26).", atol=5e-4),
    "ch5-ex-deploy": Answer(
        form="a pair (people flagged at the kappa optimum, people flagged at the Youden "
             "optimum) out of 10,000",
        reference=_flagged,
        hint="flagged = 10,000 x p_hat, with p_hat = p t + (1 - p) f at each operating "
             "point (eq. (17)).", atol=1.0),
}


def solve_variant(d, prevalence):
    """ch5-ex-solve with the student's d and class share."""
    def tangency(f):
        c = norm.isf(f)
        t = binormal_roc(d, f)
        p = prevalence
        slope = (p + (1 - 2 * p) * t) / (p + (1 - 2 * p) * f)
        return norm.pdf(c - d) / norm.pdf(c) - slope

    return brentq(tangency, 1e-6, 0.9)


VARIANTS = {"ch5-ex-solve": solve_variant}
