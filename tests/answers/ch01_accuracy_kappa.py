"""Chapter 1: accuracy, chance agreement and Cohen's kappa."""

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
}
