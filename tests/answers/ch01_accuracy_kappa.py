"""Chapter 1: accuracy, chance agreement and Cohen's kappa."""

import math

from auklib import kappa_from_confusion

from . import Answer, num

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

# classifier A of the chapter (shares), and its kappa
A = dict(tp=0.05, fn=0.02, fp=0.03, tn=0.90)
KAPPA_A = kappa_from_confusion(**A)


def _fourth_cells(alarm_share, tp_share, prevalence=0.07):
    tp, fn = tp_share, prevalence - tp_share
    fp, tn = alarm_share - tp_share, 1 - prevalence - alarm_share + tp_share
    return tp, fn, fp, tn


def fourth_variant(alarm_share, tp_share, prevalence=0.07):
    """ch1-ex-fourth with the student's alarm share and true positive share."""
    tp, fn, fp, tn = _fourth_cells(alarm_share, tp_share, prevalence)
    return tp + tn, kappa_from_confusion(tp, fn, fp, tn)


def random_variant(prevalence, q):
    """ch1-ex-random: sqrt(N) times the large-sample sd of kappa for p and q."""
    p, n = prevalence, 1 - prevalence
    return 2 * math.sqrt(p * n * q * (1 - q)) / (p * (1 - q) + n * q)


# Per-student variants (aukbook.variants draws the parameters): label -> f(**params)
VARIANTS = {"ch1-ex-fourth": fourth_variant, "ch1-ex-random": random_variant}


def _fourth_rubric(alarm_share, tp_share):
    tp, fn, fp, tn = _fourth_cells(alarm_share, tp_share)
    acc, kappa = fourth_variant(alarm_share, tp_share)
    better = kappa > KAPPA_A
    dtp, dfp = tp - A["tp"], fp - A["fp"]
    if dtp > 1e-12:
        trade = (f"it catches {num(dtp, 3)} more of all cases as frauds than A, at "
                 f"{num(dfp, 3)} more of all cases in false alarms" if dfp > 0 else
                 f"it catches {num(dtp, 3)} more of all cases as frauds than A, with "
                 f"{num(-dfp, 3)} fewer false alarms")
    elif dtp < -1e-12:
        trade = (f"it catches {num(-dtp, 3)} fewer of all cases as frauds than A, "
                 + (f"and raises {num(dfp, 3)} more false alarms" if dfp > 0 else
                    f"and saves {num(-dfp, 3)} of all cases in false alarms"))
    else:
        trade = f"it catches as many frauds as A, with {num(dfp, 3)} more false alarms"
    majority = ("above" if acc > 0.93 + 1e-12 else
                "below" if acc < 0.93 - 1e-12 else "no better than")
    return {
        "tp": num(tp, 3), "fn": num(fn, 3), "fp": num(fp, 3), "tn": num(tn, 3),
        "accuracy": num(acc, 3), "kappa": f"{kappa:.3f}",
        "verdict": f"D is {'better' if better else 'worse'} than A",
        "majority": majority, "trade": trade,
    }


def _random_rubric(prevalence, q):
    value = random_variant(prevalence, q)
    return {"sd_root_n": f"{value:.2f}", "sd": f"{value / 100:.4f}"}


RUBRIC_VALUES = {"ch1-ex-fourth": _fourth_rubric, "ch1-ex-random": _random_rubric}
