"""Chapter 11: kappa among its peers."""

import numpy as np

from auklib import h_measure, kappa_from_confusion

from . import Answer


def _kappa_mcc(tp=12, fn=8, fp=30, tn=150):
    mcc = (tp * tn - fn * fp) / np.sqrt((tp + fn) * (fp + tn) * (tp + fp) * (fn + tn))
    return kappa_from_confusion(tp, fn, fp, tn), mcc


def _two_accounts(ap=0.204):
    # constant scores: (1 + p) / 2 rounds to 0.533 for 0.065 <= p < 0.067
    p_min, p_max = 2 * 0.5325 - 1, 2 * 0.5335 - 1
    p, trap = 0.067, 0.533
    # rho q + (1 - rho) p = ap and rho (1 + q) / 2 + (1 - rho) (q + p) / 2 = trap
    rho = max(np.roots([-(1 - p), 2 * trap - 2 * p, p - ap]).real)
    return p_min, p_max, rho, 2 * trap - p - rho * (1 - p)


ANSWERS = {
    "ch11-ex-tables": Answer(
        form="the pair (kappa, MCC)",
        reference=_kappa_mcc,
        hint="both share the numerator TP TN - FN FP; kappa divides by "
             "(p n-hat + p-hat n) / 2, MCC by the square root of p n p-hat n-hat.",
        atol=5e-4),
    "ch11-ex-hand": Answer(
        form="the H-measure with severity ratio 1 (a number)",
        reference=lambda: h_measure([0, 0, 1, 0, 1, 1, 0, 0],
                                    [0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.05],
                                    severity_ratio=1.0),
        hint="L(gamma) is the minimum over thresholds of gamma n f + (1 - gamma) p "
             "(1 - t), including the thresholds that flag nobody and everybody; "
             "Lmax(gamma) = min(gamma n, (1 - gamma) p); u is the Beta(2, 2) density.",
        atol=1e-6),
    "ch11-ex-report": Answer(
        form="the four numbers (p_min, p_max, rho, q) with rho > 1/2",
        reference=_two_accounts,
        hint="(1 + p)/2 rounds to 0.533 when it lies in [0.5325, 0.5335); for "
             "the blocks, solve the trapezoid equation for q, substitute into the "
             "AP equation and take the root of the quadratic in rho above 1/2.",
        atol=1e-3),
}


def hand_variant(labels, scores):
    """ch11-ex-hand with the student's labels and scores."""
    return h_measure(list(labels), list(scores), severity_ratio=1.0)


VARIANTS = {"ch11-ex-tables": _kappa_mcc, "ch11-ex-hand": hand_variant,
            "ch11-ex-report": _two_accounts}


def _report_rubric(ap):
    p_min, p_max, rho, q = _two_accounts(ap)
    p, trap = 0.067, 0.533
    other = min(np.roots([-(1 - p), 2 * trap - 2 * p, p - ap]).real)
    return {"rho": f"{rho:.2f}", "q": f"{q:.2f}", "rho_other": f"{other:.2f}",
            "q_other": f"{2 * trap - p - other * (1 - p):.2f}"}


RUBRIC_VALUES = {"ch11-ex-report": _report_rubric}
