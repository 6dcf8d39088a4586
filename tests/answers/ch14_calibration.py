"""Chapter 14: calibration and costs."""

from fractions import Fraction

import numpy as np

from . import Answer, num


def _rain_terms(days=(60, 30, 10), said=(0.1, 0.5, 0.9), rained=(5, 18, 8)):
    days, said, rained = np.array(days), np.array(said), np.array(rained)
    o_k = rained / days
    base = rained.sum() / days.sum()
    rel = np.sum(days * (said - o_k) ** 2) / days.sum()
    res = np.sum(days * (o_k - base) ** 2) / days.sum()
    return rel, res, base * (1 - base)


def _weights(w1=5, q=0.4):
    beta = 1 / w1
    return beta * q / (beta * q + 1 - q), 1 / (1 + beta)


def _rate_uniform(prevalence=0.07, auc_a=0.80, auc_b=0.90):
    p = prevalence
    return tuple(0.5 + (1 - p) * p * (1 - 2 * auc) for auc in (auc_a, auc_b))


ANSWERS = {
    "ch14-ex-brier": Answer(
        form="the triple (REL, RES, UNC)",
        reference=_rain_terms,
        hint="each bin's weight is its share of the 100 days; REL compares what "
             "she said with how often it rained in the bin, RES compares the "
             "bins' frequencies with the overall share of rainy days.",
        atol=1e-5),
    "ch14-ex-weights": Answer(
        form="the pair (eta at q = 0.4, the output q* from which eta >= 1/2)",
        reference=_weights,
        hint="the weights multiply the odds by w1 / w0; divide the model's odds "
             "by that factor, and ask when the population odds reach 1.",
        atol=1e-6),
    "ch14-ex-rate": Answer(
        form="the pair of expected losses (A, B)",
        reference=_rate_uniform,
        hint="the rate-uniform loss is 1/2 + p n (1 - 2 AUC), with "
             "n = 1 - p.",
        atol=1e-6),
}


VARIANTS = {"ch14-ex-brier": _rain_terms, "ch14-ex-weights": _weights,
            "ch14-ex-rate": _rate_uniform}


def _brier_rubric(days, said, rained):
    rel, res, unc = _rain_terms(days, said, rained)
    days, said, rained = np.array(days), np.array(said), np.array(rained)
    base = rained.sum() / days.sum()
    parts = days * (said - rained / days) ** 2 / days.sum()
    order = np.argsort(parts)[::-1]
    top, second = order[0], order[1]
    gap = abs(said[top] - rained[top] / days[top])
    gap2 = abs(said[second] - rained[second] / days[second])
    ratio = res / rel if rel > 0 else float("inf")
    return {
        "rel": f"{rel:.4f}", "res": f"{res:.4f}", "unc": f"{unc:.4f}",
        "base": num(base, 2), "nbase": num(1 - base, 2),
        "brier": f"{rel - res + unc:.3f}",
        "top": f"{said[top]:g}", "top_pct": f"{100 * rained[top] / days[top]:.0f}",
        "top_days": str(days[top]), "top_part": f"{parts[top]:.4f}",
        "second": f"{said[second]:g}", "gap2": num(gap2, 3), "gap": num(gap, 3),
        "second_part": f"{parts[second]:.4f}",
        "winner": "resolution" if res > rel else "reliability",
        "ratio": f"{ratio:.0f}" if ratio >= 2 else f"{ratio:.1f}",
        "res_short": f"{res:.3f}",
    }


def _weights_rubric(w1, q):
    eta, q_star = _weights(w1, q)
    beta = Fraction(1) / Fraction(w1).limit_denominator(100)
    eta_f = Fraction(eta).limit_denominator(1000)
    star_f = Fraction(q_star).limit_denominator(1000)
    return {"beta": num(float(beta), 4), "q": f"{q:g}",
            "eta": (f"{eta_f} \\approx {eta:.3f}" if abs(float(eta_f) - eta) < 1e-12
                    else f"{eta:.4f}"),
            "q_star": f"{star_f}" if abs(float(star_f) - q_star) < 1e-12 else f"{q_star:.4f}"}


def _rate_rubric(prevalence, auc_a, auc_b):
    a, b = _rate_uniform(prevalence, auc_a, auc_b)
    return {"pn": num(prevalence * (1 - prevalence), 6), "a": f"{a:.4f}", "b": f"{b:.4f}"}


RUBRIC_VALUES = {"ch14-ex-brier": _brier_rubric, "ch14-ex-weights": _weights_rubric,
                 "ch14-ex-rate": _rate_rubric}
