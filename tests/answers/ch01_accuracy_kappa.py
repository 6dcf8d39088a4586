"""Chapter 1: accuracy, chance agreement and Cohen's kappa."""

import math

from auklib import kappa_from_confusion

from . import Answer

ANSWERS = {
    "ch1-ex-counts": Answer(
        form="a function kappa(tp, fn, fp, tn) of four numbers (counts) returning "
             "Cohen's kappa",
        reference=kappa_from_confusion, kind="function",
        probe=lambda rng: tuple(float(v) for v in rng.integers(1, 60, 4)),
        hint="kappa = (a - p_c) / (1 - p_c) with a, p and p_hat as shares of the total; "
             "divide the counts by their sum first.", atol=1e-9),
    "ch1-ex-fourth": Answer(
        form="a pair (accuracy, kappa) for classifier D",
        reference=lambda: (0.06 + 0.87, kappa_from_confusion(0.06, 0.01, 0.06, 0.87)),
        hint="first fill in all four cells: FN = p - TP, FP = p_hat - TP, TN = the rest; "
             "then use eqs. (1), (11) and (12)."),
    "ch1-ex-random": Answer(
        form="the standard deviation of kappa over the simulated test sets of "
             "N = 10,000 cases, multiplied by sqrt(N) (a number)",
        # large-sample value: kappa = phi * 2 sqrt(p n q (1-q)) / (p (1-q) + n q), and
        # sqrt(N) phi is standard normal when predictions ignore the truth
        reference=lambda: 2 * math.sqrt(0.07 * 0.93 * 0.08 * 0.92)
        / (0.07 * 0.92 + 0.93 * 0.08),
        hint="draw the four counts of each test set with rng.multinomial(N, probs), "
             "compute kappa per test set, take the standard deviation and multiply "
             "by sqrt(N).", atol=0.05),
}


def fourth_variant(alarm_share, tp_share, prevalence=0.07):
    """ch1-ex-fourth with the student's alarm share and true positive share."""
    tp, fn = tp_share, prevalence - tp_share
    fp, tn = alarm_share - tp_share, 1 - prevalence - alarm_share + tp_share
    return tp + tn, kappa_from_confusion(tp, fn, fp, tn)


# Per-student variants (aukbook.variants draws the parameters): label -> f(**params)
VARIANTS = {"ch1-ex-fourth": fourth_variant}
