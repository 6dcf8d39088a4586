"""Chapter 3: from ROC space to kappa."""

import numpy as np

from auklib import kappa_from_rates, tpr_from_kappa

from . import Answer


def _worst(p):
    return -2 * p * (1 - p) / (1 - 2 * p * (1 - p))


def _straight_argmax(fpr=0.2, tpr=0.7, prevalence=0.1):
    f = np.linspace(0, 1, 2001)
    t = np.interp(f, [0, fpr, 1], [0, tpr, 1])
    return float(f[np.argmax(kappa_from_rates(tpr=t, fpr=f, prevalence=prevalence))])


ANSWERS = {
    "ch3-ex-corner": Answer(
        form="a function worst(p) giving kappa at (f, t) = (1, 0) for class share p",
        reference=_worst, kind="function",
        probe=lambda rng: (float(rng.uniform(0.01, 0.99)),),
        hint="put t = 0 and f = 1 into eq. (19) and simplify numerator and denominator "
             "separately.", atol=1e-9),
    "ch3-ex-target": Answer(
        form="the true positive rate t needed at f = 0.02 (a number)",
        reference=lambda: tpr_from_kappa(0.5, 0.02, 0.05),
        hint="solve eq. (19) for t at the given f and p (or use tpr_from_kappa); "
             "kappa at your t should be exactly 0.5."),
    "ch3-ex-straight": Answer(
        form="the false positive rate at which kappa is largest (a number)",
        reference=_straight_argmax,
        hint="kappa is linear-fractional along each segment, so its maximum is at an "
             "end of a segment; compare the candidates."),
}


def target_variant(prevalence, fpr, kappa):
    """ch3-ex-target with the student's class share, false positive rate and kappa."""
    return tpr_from_kappa(kappa, fpr, prevalence)


VARIANTS = {"ch3-ex-target": target_variant, "ch3-ex-straight": _straight_argmax}

RUBRIC_VALUES = {
    "ch3-ex-straight": lambda fpr, tpr, prevalence: {"f": f"{fpr:g}"},
}
