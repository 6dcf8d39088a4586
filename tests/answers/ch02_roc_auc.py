"""Chapter 2: ROC curves and the AUC."""

import numpy as np
from scipy.stats import norm

from aukbook.roc_figures import pair_outcomes

from . import Answer

ANSWERS = {
    "ch2-ex-binormal": Answer(
        form="one number: the AUC when negatives score N(2, 1.5^2) and positives "
             "N(3.2, 0.8^2)",
        reference=lambda: norm.cdf((3.2 - 2.0) / np.hypot(1.5, 0.8)),
        hint="S+ - S- is normal: find its mean and variance, then P(S+ - S- > 0); "
             "variances add, standard deviations do not."),
    "ch2-ex-pairs": Answer(
        form="one number: the AUC of the eight cases (ties count one half)",
        reference=lambda: pair_outcomes([0.9, 0.7, 0.7, 0.4], [0.8, 0.7, 0.3, 0.3]).mean(),
        hint="there are 4 x 4 = 16 positive-negative pairs; a tie counts one half, "
             "divide the total by 16.", atol=1e-6),
    "ch2-ex-mix": Answer(
        form="a pair (lambda, t): the probability of using the lower threshold and "
             "the true positive rate reached at f = 0.2",
        reference=lambda: ((0.2 - 0.1) / (0.4 - 0.1), 0.5 + (0.2 - 0.1) / (0.4 - 0.1) * 0.3),
        hint="the expected point is (1 - lambda) (f1, t1) + lambda (f2, t2); solve the "
             "f coordinate for lambda first."),
    "ch2-ex-flip": Answer(
        form="a pair (AUC, Gini) after every score is multiplied by -1",
        reference=lambda: (1 - 0.3125, 2 * (1 - 0.3125) - 1),
        hint="flipping the sign turns every won pair into a lost one and leaves ties "
             "alone; then use eq. (10)."),
}


def binormal_variant(mu_neg, sd_neg, mu_pos, sd_pos):
    """ch2-ex-binormal, part 2, with the student's means and standard deviations."""
    return norm.cdf((mu_pos - mu_neg) / np.hypot(sd_neg, sd_pos))


VARIANTS = {"ch2-ex-binormal": binormal_variant}
