"""Chapter 13: comparing classifiers honestly."""

import functools
import math
import warnings

import numpy as np
from scipy.stats import binom, norm, studentized_range
from scipy.stats import t as t_dist

from auklib import delong_test, kappa_confidence_interval

from . import Answer, num


PLACEMENT_LABELS = (1, 1, 1, 1, 0, 0, 0, 0, 0)
BOOK_A = (0.9, 0.8, 0.6, 0.4, 0.7, 0.5, 0.3, 0.2, 0.1)
BOOK_B = (0.8, 0.9, 0.3, 0.5, 0.6, 0.5, 0.4, 0.2, 0.1)


def _delong_z(a=BOOK_A, b=BOOK_B):
    with warnings.catch_warnings():      # nine cases: the test warns about its level
        warnings.simplefilter("ignore", UserWarning)
        return delong_test(list(PLACEMENT_LABELS), list(a), list(b)).statistic


def _kappa_se(tp=30, fn=10, fp=20, tn=140, n=200):
    if tp + fn + fp + tn != n:
        raise ValueError("the four cells must add up to n")
    y = np.repeat([1, 1, 0, 0], [tp, fn, fp, tn])
    d = np.repeat([1, 0, 1, 0], [tp, fn, fp, tn])
    return kappa_confidence_interval(y, d).standard_error


def _two_sided(wins, losses):
    return min(1.0, 2 * binom.cdf(min(wins, losses), wins + losses, 0.5))


def _mcnemar(a_pos=1, b_pos=3, a_neg=10, b_neg=0):
    return _two_sided(a_pos + a_neg, b_pos + b_neg)


def _folds_rate(design="ten repetitions of 10-fold cross-validation", r=100, rho=0.1):
    return 2 * norm.sf(t_dist.ppf(0.975, r - 1) / math.sqrt((1 + (r - 1) * rho) / (1 - rho)))


@functools.lru_cache(maxsize=None)
def _nemenyi_q(k, alpha):
    return studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)


def _cd(k=4, b=20, alpha=0.05, ranks=(1.8, 2.3, 2.9, 3.0)):
    return _nemenyi_q(k, alpha) * math.sqrt(k * (k + 1) / (6 * b))


ANSWERS = {
    "ch13-ex-placements": Answer(
        form="the statistic z (a number)",
        reference=_delong_z,
        hint="the placements of the positives have divisor 5 (negatives), those "
             "of the negatives divisor 4; the variance of the difference uses the "
             "case-by-case differences of the placements, sample variances with "
             "divisor n - 1, divided by 4 and by 5.",
        atol=1e-4),
    "ch13-ex-kappa": Answer(
        form="the standard error (a number)",
        reference=_kappa_se,
        hint="cell shares are counts / 200; p_c (chance agreement) is the sum "
             "over classes of the row margin times the column margin; the whole "
             "bracket is divided by N (1 - p_c)^4 before the square root.",
        atol=1e-4),
    "ch13-ex-mcnemar": Answer(
        form="the two-sided P value (a number)",
        reference=lambda: min(1.0, 2 * binom.cdf(3, 14, 0.5)),
        hint="only the 14 discordant cases count; under the null the 11 is a "
             "Binomial(14, 1/2) count, and the two-sided P value doubles the "
             "smaller tail.",
        atol=1e-4),
    "ch13-ex-folds": Answer(
        form="the predicted rejection rate (a number)",
        reference=lambda: 2 * norm.sf(t_dist.ppf(0.975, 99)
                                      / math.sqrt((1 + 99 * 0.1) / (1 - 0.1))),
        hint="with s^2 fixed at sigma^2 (1 - rho), t = mean / (s / sqrt r) is "
             "normal with variance r Var(mean) / (sigma^2 (1 - rho)) = "
             "(1 + (r - 1) rho) / (1 - rho); the test rejects when |t| exceeds "
             "the 0.975 quantile of t with r - 1 = 99 degrees of freedom.",
        atol=1e-4),
    "ch13-ex-cd": Answer(
        form="the critical difference (a number)",
        reference=lambda: (studentized_range.ppf(0.95, 4, np.inf) / math.sqrt(2)
                           * math.sqrt(4 * 5 / (6 * 20))),
        hint="q_0.05 for k = 4 is the studentised range quantile for 4 groups "
             "(infinite degrees of freedom) divided by sqrt 2, about 2.569; "
             "then multiply by sqrt(k (k + 1) / (6 b)), b the number of data sets.",
        atol=1e-3),
}


VARIANTS = {"ch13-ex-placements": _delong_z, "ch13-ex-kappa": _kappa_se,
            "ch13-ex-mcnemar": _mcnemar, "ch13-ex-folds": _folds_rate,
            "ch13-ex-cd": _cd}


def _placements_rubric(a, b):
    y = np.array(PLACEMENT_LABELS)
    auc = [float(np.mean([(p > q) + 0.5 * (p == q) for p in np.array(s)[y == 1]
                          for q in np.array(s)[y == 0]])) for s in (a, b)]
    tie = sorted(set(b[:4]) & set(b[4:]))
    return {"auc_a": f"{auc[0]:.3f}", "auc_b": f"{auc[1]:.3f}",
            "z": f"{_delong_z(a, b):.2f}", "tie": ", ".join(f"{v:g}" for v in tie)}


def _holm(ps):
    order = np.argsort(ps)
    out, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def _p(p):
    return f"{p:.3f}" if p >= 0.01 else f"{p:.4f}"


def _cost(missed, alarms):
    """The cost of missing ``missed`` positives (20 each) and ``alarms`` false alarms."""
    terms = ([f"{missed} \\times 20"] if missed else []) + ([str(alarms)] if alarms else [])
    return " + ".join(terms or ["0"]) + (f" = {20 * missed + alarms}" if terms else "")


def _mcnemar_rubric(a_pos, b_pos, a_neg, b_neg):
    wins, losses = a_pos + a_neg, b_pos + b_neg
    p_neg, p_pos = _two_sided(a_neg, b_neg), _two_sided(a_pos, b_pos)
    h_neg, h_pos = _holm([p_neg, p_pos])
    cost_a, cost_b = 20 * b_pos + b_neg, 20 * a_pos + a_neg

    def verdict(p, a, b, what):
        if p >= 0.05:
            return f"nothing is shown about {what}"
        return f"{'a' if a > b else 'b'} {'raises fewer false alarms' if what == 'false alarms' else 'misses fewer positives'}"

    cheaper = ("b is cheaper although a is right more often" if cost_b < cost_a and wins > losses
               else "a is cheaper" if cost_a < cost_b else
               "b is cheaper" if cost_b < cost_a else "the two cost the same")
    return {
        "m": str(wins + losses), "k": str(min(wins, losses)), "p": _p(_mcnemar(a_pos, b_pos, a_neg, b_neg)),
        "neg": f"{a_neg} against {b_neg}", "p_neg": f"{p_neg:.4f}", "h_neg": f"{h_neg:.4f}",
        "pos": f"{a_pos} against {b_pos}", "p_pos": f"{p_pos:.4f}", "h_pos": f"{h_pos:.4f}",
        "neg_verdict": verdict(h_neg, a_neg, b_neg, "false alarms"),
        "pos_verdict": verdict(h_pos, a_pos, b_pos, "missed positives"),
        "cost_a": _cost(b_pos, b_neg), "cost_b": _cost(a_pos, a_neg),
        "cheaper": cheaper, "score": f"{wins} against {losses}",
    }


def _folds_rubric(design, r, rho):
    num_ = 1 + (r - 1) * rho
    var = num_ / (1 - rho)
    normal = 2 * norm.sf(norm.ppf(0.975) / math.sqrt(var))
    return {"num": f"{num_:g}", "den": f"{1 - rho:g}", "var": f"{var:.1f}",
            "df": str(r - 1), "rate": f"{_folds_rate(design, r, rho):.3f}",
            "normal": f"{normal:.3f}"}


def _cd_rubric(k, b, alpha, ranks):
    q = _nemenyi_q(k, alpha)
    cd = _cd(k, b, alpha, ranks)
    names = "ABCDEFGH"
    pairs = [f"{names[i]}-{names[j]} ({num(ranks[j] - ranks[i], 2)})"
             for i in range(k) for j in range(i + 1, k) if ranks[j] - ranks[i] > cd]
    return {"alpha": f"{alpha:g}", "q": f"{q:.3f}", "k": str(k),
            "kk": str(k * (k + 1)), "six_b": str(6 * b), "cd": f"{cd:.3f}",
            "pairs": ("no pair" if not pairs else
                      ("only " if len(pairs) < k * (k - 1) // 2 else "")
                      + " and ".join([", ".join(pairs[:-1]), pairs[-1]]
                                     if len(pairs) > 1 else pairs)),
            "b": str(b)}


RUBRIC_VALUES = {"ch13-ex-placements": _placements_rubric,
                 "ch13-ex-mcnemar": _mcnemar_rubric, "ch13-ex-folds": _folds_rubric,
                 "ch13-ex-cd": _cd_rubric}
