"""Chapter 13: calibration and costs."""

import numpy as np

from . import Answer


def _rain_terms():
    days = np.array([60, 30, 10])
    said = np.array([0.1, 0.5, 0.9])
    rained = np.array([5, 18, 8])
    o_k = rained / days
    base = rained.sum() / days.sum()
    rel = np.sum(days * (said - o_k) ** 2) / days.sum()
    res = np.sum(days * (o_k - base) ** 2) / days.sum()
    return rel, res, base * (1 - base)


def _weights():
    beta = 1 / 5
    q = 0.4
    return beta * q / (beta * q + 1 - q), 1 / (1 + beta)


def _rate_uniform():
    p = 0.07
    return tuple(0.5 + (1 - p) * p * (1 - 2 * auc) for auc in (0.80, 0.90))


ANSWERS = {
    "ch13-ex-brier": Answer(
        form="the triple (REL, RES, UNC)",
        reference=_rain_terms,
        hint="each bin's weight is its share of the 100 days; REL compares what "
             "she said with how often it rained in the bin, RES compares the "
             "bins' frequencies with the overall share of rainy days.",
        atol=1e-5),
    "ch13-ex-weights": Answer(
        form="the pair (eta at q = 0.4, the output q* from which eta >= 1/2)",
        reference=_weights,
        hint="the weights multiply the odds by w1 / w0; divide the model's odds "
             "by that factor, and ask when the population odds reach 1.",
        atol=1e-6),
    "ch13-ex-rate": Answer(
        form="the pair of expected losses (A, B)",
        reference=_rate_uniform,
        hint="the rate-uniform loss is 1/2 + p n (1 - 2 AUC), with "
             "n = 1 - p.",
        atol=1e-6),
}
