"""Chapter 12: comparing classifiers honestly."""

import math

import numpy as np
from scipy.stats import binom, norm, studentized_range
from scipy.stats import t as t_dist

from auklib import delong_test, kappa_confidence_interval

from . import Answer


def _delong_z():
    y = [1, 1, 1, 1, 0, 0, 0, 0, 0]
    a = [0.9, 0.8, 0.6, 0.4, 0.7, 0.5, 0.3, 0.2, 0.1]
    b = [0.8, 0.9, 0.3, 0.5, 0.6, 0.5, 0.4, 0.2, 0.1]
    return delong_test(y, a, b).statistic


def _kappa_se():
    y = np.repeat([1, 1, 0, 0], [30, 10, 20, 140])
    d = np.repeat([1, 0, 1, 0], [30, 10, 20, 140])
    return kappa_confidence_interval(y, d).standard_error


ANSWERS = {
    "ch12-ex-placements": Answer(
        form="the statistic z (a number)",
        reference=_delong_z,
        hint="the placements of the positives have divisor 5 (negatives), those "
             "of the negatives divisor 4; the variance of the difference uses the "
             "case-by-case differences of the placements, sample variances with "
             "divisor n - 1, divided by 4 and by 5.",
        atol=1e-4),
    "ch12-ex-kappa": Answer(
        form="the standard error (a number)",
        reference=_kappa_se,
        hint="cell shares are counts / 200; p_c (chance agreement) is the sum "
             "over classes of the row margin times the column margin; the whole "
             "bracket is divided by N (1 - p_c)^4 before the square root.",
        atol=1e-4),
    "ch12-ex-mcnemar": Answer(
        form="the two-sided P value (a number)",
        reference=lambda: min(1.0, 2 * binom.cdf(3, 14, 0.5)),
        hint="only the 14 discordant cases count; under the null the 11 is a "
             "Binomial(14, 1/2) count, and the two-sided P value doubles the "
             "smaller tail.",
        atol=1e-4),
    "ch12-ex-folds": Answer(
        form="the predicted rejection rate (a number)",
        reference=lambda: 2 * norm.sf(t_dist.ppf(0.975, 99)
                                      / math.sqrt((1 + 99 * 0.1) / (1 - 0.1))),
        hint="with s^2 fixed at sigma^2 (1 - rho), t = mean / (s / sqrt r) is "
             "normal with variance r Var(mean) / (sigma^2 (1 - rho)) = "
             "(1 + (r - 1) rho) / (1 - rho); the test rejects when |t| exceeds "
             "the 0.975 quantile of t with r - 1 = 99 degrees of freedom.",
        atol=1e-4),
    "ch12-ex-cd": Answer(
        form="the critical difference (a number)",
        reference=lambda: (studentized_range.ppf(0.95, 4, np.inf) / math.sqrt(2)
                           * math.sqrt(4 * 5 / (6 * 20))),
        hint="q_0.05 for k = 4 is the studentised range quantile for 4 groups "
             "(infinite degrees of freedom) divided by sqrt 2, about 2.569; "
             "then multiply by sqrt(k (k + 1) / (6 b)), b the number of data sets.",
        atol=1e-3),
}
