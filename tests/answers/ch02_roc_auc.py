"""Chapter 2: ROC curves and the AUC."""

from fractions import Fraction

import numpy as np
from scipy.stats import norm

from aukbook.roc_figures import pair_outcomes

from . import Answer, num

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


def pairs_variant(pos, neg, neg_tie):
    """ch2-ex-pairs with the student's eight scores."""
    return float(pair_outcomes(pos, neg).mean())


def mix_variant(f1, t1, f2, t2, f, t3):
    """ch2-ex-mix with the student's two ROC points and affordable f."""
    lam = (f - f1) / (f2 - f1)
    return lam, (1 - lam) * t1 + lam * t2


def flip_variant(auc, n, n_pos):
    """ch2-ex-flip with the student's AUC and test set."""
    return 1 - auc, 2 * (1 - auc) - 1


VARIANTS = {"ch2-ex-binormal": binormal_variant, "ch2-ex-pairs": pairs_variant,
            "ch2-ex-mix": mix_variant, "ch2-ex-flip": flip_variant}


def _pairs_rubric(pos, neg, neg_tie):
    wins = pair_outcomes(pos, neg).sum()
    mixed = sorted(set(pos) & set(neg), reverse=True)
    v = mixed[0]
    n_p, n_n = list(pos).count(v), list(neg).count(v)
    words = {1: "a", 2: "two", 3: "three"}
    who = (f"{'a positive' if n_p == 1 else f'{words[n_p]} positives'} and "
           f"{'a negative' if n_n == 1 else f'{words[n_n]} negatives'}")
    return {"wins": num(wins, 1), "auc": str(Fraction(float(wins) / 16).limit_denominator(64)),
            "diagonal": f"{v:g}", "who": who, "neg_tie": f"{neg_tie:g}"}


def _mix_rubric(f1, t1, f2, t2, f, t3):
    lam, t = mix_variant(f1, t1, f2, t2, f, t3)
    frac = Fraction(lam).limit_denominator(100)
    return {"lam": f"{frac}" if abs(float(frac) - lam) < 1e-12 else f"{lam:.4f}",
            "t": num(t, 4), "f": f"{f:g}", "t3_pct": num(100 * t3, 1),
            "t_pct": num(100 * t, 1)}


def _flip_rubric(auc, n, n_pos):
    n_neg = n - n_pos
    pairs = n_pos * n_neg
    sd = np.sqrt((n_pos + n_neg + 1) / (12 * n_pos * n_neg))
    within = abs(auc - 0.5) <= sd
    return {"auc": f"{auc:g}", "pairs": str(pairs), "won": num(auc * pairs, 1),
            "auc_flip": num(1 - auc, 4), "gini_flip": num(1 - 2 * auc, 4),
            "n_pos": str(n_pos), "n_neg": str(n_neg), "sd": f"{sd:.3f}",
            "within": ("within one standard deviation of 1/2" if within else
                       f"{abs(auc - 0.5) / sd:.1f} standard deviations below 1/2")}


RUBRIC_VALUES = {
    "ch2-ex-binormal": lambda **p: {"auc": f"{binormal_variant(**p):.3f}"},
    "ch2-ex-pairs": _pairs_rubric, "ch2-ex-mix": _mix_rubric, "ch2-ex-flip": _flip_rubric,
}
