"""Chapter 5: choosing a threshold."""

import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm

from aukbook.plotting import binormal_roc

from . import Answer


def _fstar():
    return solve_variant(1.0, 0.05)


def _optima(d, prevalence):
    """(f, t) at the kappa optimum (tangency (26), solved) and at the Youden optimum
    (slope 1: the threshold c = d/2 on the negatives' scale)."""
    f_k = solve_variant(d, prevalence)
    f_y = norm.sf(d / 2)
    return (f_k, binormal_roc(d, f_k)), (f_y, binormal_roc(d, f_y))


def _flagged(d=2.0, prevalence=0.02):
    return tuple(10_000 * (prevalence * t + (1 - prevalence) * f)
                 for f, t in _optima(d, prevalence))


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

    return brentq(tangency, 1e-9, 0.9, xtol=1e-14)


def pivot_variant(p1, p2, p3):
    """ch5-ex-pivot at the student's three class shares."""
    return tuple(-p / (1 - 2 * p) for p in (p1, p2, p3))


VARIANTS = {"ch5-ex-pivot": pivot_variant, "ch5-ex-solve": solve_variant,
            "ch5-ex-deploy": _flagged}


def _signed(x):
    return f"{x:+.3f}"


def _deploy_rubric(d, prevalence):
    (fk, tk), (fy, ty) = _optima(d, prevalence)
    cases = 10_000 * prevalence
    flag = [10_000 * (prevalence * t + (1 - prevalence) * f) for f, t in ((fk, tk), (fy, ty))]
    return {"k_flagged": f"{flag[0]:,.0f}", "k_found": f"{cases * tk:,.0f}",
            "y_flagged": f"{flag[1]:,.0f}", "y_found": f"{cases * ty:,.0f}",
            "cases": f"{cases:,.0f}"}


RUBRIC_VALUES = {
    "ch5-ex-pivot": lambda p1, p2, p3: dict(zip(("v1", "v2", "v3"), (
        _signed(v) for v in pivot_variant(p1, p2, p3)))),
    "ch5-ex-deploy": _deploy_rubric,
}
