"""Chapter 4: the AUK."""

import numpy as np
from scipy.stats import norm

from auklib import auk_from_roc
from aukbook.plotting import binormal_auk

from . import Answer


def _better_sigma():
    sigmas = (0.6, 1.8)
    auks = [binormal_auk(norm.ppf(0.85) * np.sqrt(1 + s**2), 0.05, s) for s in sigmas]
    return sigmas[int(np.argmax(auks))]


ANSWERS = {
    "ch4-ex-crisp": Answer(
        form="a pair (trapezoid AUK, exact AUK)",
        reference=lambda: (
            auk_from_roc([0, 0.1, 1], [0, 0.6, 1], 0.2, method="trapezoid"),
            auk_from_roc([0, 0.1, 1], [0, 0.6, 1], 0.2, method="exact")),
        hint="the ROC vertices are (0, 0), (0.1, 0.6) and (1, 1); give both methods the "
             "same vertices and p = 0.2.", atol=5e-5),
    "ch4-ex-shape": Answer(
        form="the sigma (0.6 or 1.8) of the classifier with the larger AUK at p = 0.05",
        reference=_better_sigma,
        hint="at p = 0.05 kappa weighs the left part of ROC space most: which curve "
             "rises faster near f = 0?", atol=1e-3),
}
