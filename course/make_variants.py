"""Write the exercises' variant designs from the reference answers.

    python course/make_variants.py                  # rewrite every design
    python course/make_variants.py ch4-ex-crisp ... # rewrite these designs only
    python course/make_variants.py --report         # distinct answers over 200 ids

For each exercise with variants (``aukbook.variants.VARIANT_LABELS``) this
draws parameter sets from the grid below, in a fixed pseudo-random order,
computes each set's answer with the reference function of ``tests/answers``
(``VARIANTS``), and keeps the set when

* its answer is finite and the exercise still teaches what it teaches
  (``valid``: e.g. the trapezoid still overstates for a crisp classifier);
* some number of its answer lies more than ``EXCLUDE`` = 4 tolerances from
  the book's answer, so the book's self-check, searched, gives nothing a
  student is graded on;
* for a *separated* exercise: some number of its answer lies more than
  ``SEP`` = 2 tolerances from the answer of every set kept before it.

A *limited* exercise (``aukbook.variants.LIMITED``) keeps every valid set
instead, ordered so that consecutive slots cycle through its distinct
answers.  The designs (parameters only) go to
``bookkit/aukbook/variant_designs.json``, which the installed package reads.
The answers of the designs whose reference fits models (``EXPENSIVE``) go to
``tests/answers/variant_answers.json`` (instructor material), which the tests
read instead of refitting hundreds of models; ``tests/test_variants.py``
recomputes some of them.
"""

import argparse
import hashlib
import json
import os
import re
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")

from aukbook import variants  # noqa: E402
from answers.grading import _module, answer  # noqa: E402

DESIGNS = os.path.join(ROOT, "bookkit", "aukbook", "variant_designs.json")
STORED = os.path.join(ROOT, "tests", "answers", "variant_answers.json")
SEP, EXCLUDE = 2.0, 4.0
K_SEPARATED, K_LIMITED = 300, 120
# limited designs that may keep more entries than K_LIMITED (none yet: chapter 8,
# which has no separated exercise, would need about 135 threshold answers; see
# tests/test_variants.py::test_each_chapter_offers_ten_times_a_class_of_variants)
LIMIT = {}
# designs whose answers fit models or integrate (30 ms or more an answer): their
# answers are stored for the tests
EXPENSIVE = ("ch4-ex-skew", "ch4-ex-shape", "ch4-ex-deploy", "ch5-ex-solve",
             "ch5-ex-deploy", "ch7-ex-split", "ch7-ex-hull", "ch8-ex-threshold",
             "ch10-ex-paired")


def steps(start, stop, step, ndigits=3):
    n = int(round((stop - start) / step))
    return [round(start + i * step, ndigits) for i in range(n + 1)]


def pick(rng, values):
    return values[int(rng.integers(len(values)))]


# --- the grids: label -> (draw(rng) -> params or None, valid(params, answer)) -------

def _fourth(rng):
    return {"alarm_share": pick(rng, steps(0.08, 0.2, 0.001)),
            "tp_share": pick(rng, steps(0.03, 0.068, 0.001))}


def _fourth_ok(p, a):
    return p["alarm_share"] - p["tp_share"] >= 0.005 and a[1] >= 0.2


def _pairs(rng):
    values = steps(0.1, 0.9, 0.1, 1)
    v, w, *others = [values[i] for i in rng.permutation(len(values))]
    n_pv = int(rng.integers(1, 3))
    n_nv = 1 if n_pv == 2 else int(rng.integers(1, 3))
    pos = [v] * n_pv + others[:4 - n_pv]
    others = others[4 - n_pv:]
    neg = [v] * n_nv + [w, w] + others[:2 - n_nv]
    return {"pos": tuple(sorted(pos, reverse=True)), "neg": tuple(sorted(neg, reverse=True)),
            "neg_tie": w}


def _mix(rng):
    f1 = pick(rng, steps(0.05, 0.2, 0.01, 2))
    f2 = round(f1 + pick(rng, steps(0.15, 0.4, 0.01, 2)), 2)
    f = round(f1 + pick(rng, steps(0.2, 0.8, 0.01, 2)) * (f2 - f1), 2)
    t1 = pick(rng, steps(0.3, 0.65, 0.01, 2))
    t2 = round(t1 + pick(rng, steps(0.1, 0.35, 0.01, 2)), 2)
    lam = (f - f1) / (f2 - f1)
    t3 = round((1 - lam) * t1 + lam * t2 - pick(rng, steps(0.02, 0.08, 0.01, 2)), 2)
    return {"f1": f1, "t1": t1, "f2": f2, "t2": t2, "f": f, "t3": t3}


def _mix_ok(p, a):
    return (p["f1"] < p["f"] < p["f2"] and p["t2"] <= 0.97 and p["t1"] < p["t3"]
            and p["t3"] < a[1] - 0.015)


def _flip(rng):
    n = int(rng.integers(8, 15))
    n_pos = int(rng.integers(3, n - 2))
    pairs = n_pos * (n - n_pos)
    k = int(rng.integers(int(0.3 * pairs), int(0.9 * pairs) + 1))  # half-pairs won
    auc = k / (2 * pairs)
    if len(f"{auc:g}") > 7 or auc != float(f"{auc:g}"):
        return None                              # print it exactly
    return {"auc": auc, "n": n, "n_pos": n_pos}


def _straight(rng):
    fpr = pick(rng, steps(0.05, 0.5, 0.005))
    return {"fpr": fpr, "tpr": pick(rng, steps(min(0.98, round(fpr + 0.2, 2)), 0.98, 0.01, 2)),
            "prevalence": pick(rng, (0.05, 0.08, 0.1, 0.15, 0.2, 0.25))}


def _crisp(rng):
    return {"fpr": pick(rng, steps(0.02, 0.3, 0.01, 2)),
            "tpr": pick(rng, steps(0.3, 0.95, 0.01, 2)),
            "prevalence": pick(rng, steps(0.05, 0.45, 0.01, 2))}


def _crisp_ok(p, a):
    from auklib import kappa_from_rates
    k1 = kappa_from_rates(tpr=p["tpr"], fpr=p["fpr"], prevalence=p["prevalence"])
    return k1 > 0.1 and a[0] > a[1] + 1e-3      # selective: the trapezoid overstates


def _shape(rng):
    return {"auc": pick(rng, steps(0.7, 0.95, 0.01, 2)),
            "sigma_narrow": pick(rng, steps(0.4, 0.9, 0.05, 2)),
            "sigma_wide": pick(rng, steps(1.4, 2.5, 0.1, 1)),
            "prevalence": pick(rng, steps(0.01, 0.1, 0.005))}


def _table(rng):
    sizes = (int(rng.integers(3, 6)), int(rng.integers(2, 5)), int(rng.integers(3, 6)))
    return {"sizes": sizes,
            "predicted": tuple(int(v) for v in rng.integers(1, 4, sum(sizes)))}


def _wrong(rng):
    truth = (1, 1, 1, 2, 2, 3, 3, 3)
    return {"predicted": tuple(int(pick(rng, [c for c in (1, 2, 3) if c != t]))
                               for t in truth)}


# the ways to move patients of the diabetes table further from the diagonal
_MOVES = [(r, a, b) for r in range(4) for a in range(4) for b in range(4)
          if abs(b - r) > abs(a - r) and abs(b - a) >= 1 and a != r]


def _weighted(rng):
    diagonal = tuple(int(v + rng.integers(-8, 9)) for v in (33, 13, 18, 34))
    n = int(rng.integers(1, 3))
    moves = sorted((*_MOVES[i], int(rng.integers(1, 4)))
                   for i in rng.choice(len(_MOVES), n, replace=False))
    return {"diagonal": diagonal, "moves": tuple(moves)}


def _weighted_ok(p, a):
    """Every cell stays a count, and the lesson holds: the unweighted kappa barely
    moves while both weighted ones drop."""
    from answers.ch06_multiclass import moved, weighted_variant
    try:
        moved(p["moves"], p["diagonal"])
    except ValueError:
        return False
    before = weighted_variant(p["diagonal"], ())
    return (abs(a[0] - before[0]) < 0.01 and a[1] < before[1] - 1e-3
            and a[2] < before[2] - 1e-3)


def _table8(rng):
    v = rng.choice(np.arange(150, 401), 6, replace=False) / 1000
    return {"raw": tuple(float(x) for x in v[:3]), "down": tuple(float(x) for x in v[3:])}


def _table8_ok(p, a):
    null = _module("ch8-ex-null").VARIANTS["ch8-ex-null"](**p)
    book = answer("ch8-ex-null").reference()
    return abs(null - book) > EXCLUDE * answer("ch8-ex-null").atol


def _bc(rng):
    share = pick(rng, [s for s in steps(0.3, 0.7, 0.001) if abs(s - 0.5) >= 0.02])
    return {"share_below": share, "level": pick(rng, (0.8, 0.85, 0.9, 0.95, 0.98, 0.99))}


def _paired(rng):
    a = pick(rng, steps(0.2, 1.0, 0.1, 1))
    return {"noise_a": a, "noise_b": pick(rng, steps(round(a + 0.1, 1), 1.6, 0.1, 1))}


def _positives(rng):
    se0 = pick(rng, steps(0.04, 0.1, 0.005))
    return {"n0": int(rng.integers(10, 61)), "se0": se0,
            "se1": pick(rng, [v for v in steps(0.01, 0.035, 0.0025, 4) if v < se0 / 1.5]),
            "prevalence": pick(rng, (0.005, 0.01, 0.02, 0.05, 0.1))}


def _misses(rng):
    n_sets = int(pick(rng, (20, 25, 30, 40, 50, 60, 80, 100)))
    coverage = pick(rng, (0.9, 0.95, 0.99))
    expected = n_sets * (1 - coverage)
    return {"n_sets": n_sets, "coverage": coverage,
            "k": int(rng.integers(max(1, int(expected)), int(expected + 3 * np.sqrt(expected) + 3)))}


def _swap(rng):
    values = steps(0.05, 0.95, 0.05, 2)
    draw = [values[i] for i in rng.choice(len(values), 12, replace=False)]
    pos_a, pos_b = sorted(draw[:3], reverse=True), draw[3:6]
    neg_a, neg_b = draw[6:9], draw[9:12]
    return {"pos_a": tuple(pos_a), "pos_b": tuple(pos_b),
            "neg_a": tuple(neg_a), "neg_b": tuple(neg_b)}


def _tables(rng):
    tp, fn, fp = int(rng.integers(6, 31)), int(rng.integers(3, 21)), int(rng.integers(8, 61))
    return {"tp": tp, "fn": fn, "fp": fp, "tn": 200 - tp - fn - fp}


def _tables_ok(p, a):
    return min(a) > 0.05


def _hand(rng):
    k = int(rng.integers(2, 5))
    labels = np.zeros(8, dtype=int)
    labels[rng.choice(8, k, replace=False)] = 1
    return {"labels": tuple(int(v) for v in labels),
            "scores": (0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.05)}


def _hand_ok(p, a):
    return 0.05 < a[0] < 0.95


def _bins(rng):
    return {"bins": ((int(rng.integers(2, 7)), int(rng.integers(1, 4))),
                     (int(rng.integers(1, 5)), int(rng.integers(2, 8))),
                     (0, int(rng.integers(3, 13))))}


def _start(rng):
    r = lambda lo, hi: int(rng.integers(lo, hi + 1))  # noqa: E731
    return {"ranges": ((r(30, 45), r(3, 9)), (r(15, 25), r(45, 65)), (r(5, 12), r(120, 140)))}


def _placements(rng):
    from answers.ch13_comparing import BOOK_A
    values = [round(0.1 * i, 1) for i in range(1, 10)]
    order = rng.permutation(9)
    b = [values[i] for i in order]
    pos, neg = int(rng.integers(0, 4)), int(rng.integers(4, 9))
    b[neg] = b[pos]                                   # one positive-negative tie
    return {"a": BOOK_A, "b": tuple(b)}


def _placements_ok(p, a):
    """AUC_b in a sensible range, |z| at most 3, and the lesson of the exercise: the
    two classifiers find the same cases hard, so pairing shrinks the variance."""
    def placements(s):
        s = np.asarray(s)
        psi = (s[:4, None] > s[None, 4:]) + 0.5 * (s[:4, None] == s[None, 4:])
        return psi.mean(axis=1), psi.mean(axis=0), psi.mean()

    (v10a, v01a, auc_a), (v10b, v01b, auc_b) = placements(p["a"]), placements(p["b"])
    cov = np.cov(v10a, v10b)[0, 1] / 4 + np.cov(v01a, v01b)[0, 1] / 5
    var_a = np.var(v10a, ddof=1) / 4 + np.var(v01a, ddof=1) / 5
    var_b = np.var(v10b, ddof=1) / 4 + np.var(v01b, ddof=1) / 5
    return (0.6 <= auc_b <= 0.95 and 0.05 <= abs(a[0]) <= 3
            and var_a + var_b - 2 * cov < 0.8 * (var_a + var_b))


def _kappa12(rng):
    n = pick(rng, list(range(100, 401, 20)))
    share = pick(rng, steps(0.1, 0.3, 0.01, 2))
    tpr, fpr = pick(rng, steps(0.5, 0.9, 0.01, 2)), pick(rng, steps(0.03, 0.2, 0.01, 2))
    pos = round(n * share)
    tp, fp = round(pos * tpr), round((n - pos) * fpr)
    return {"tp": tp, "fn": pos - tp, "fp": fp, "tn": n - pos - fp, "n": n}


def _kappa12_ok(p, a):
    from auklib import kappa_from_confusion
    k = kappa_from_confusion(p["tp"], p["fn"], p["fp"], p["tn"])
    return min(p["tp"], p["fn"], p["fp"]) >= 3 and 0.2 <= k <= 0.85


def _mcnemar(rng):
    return {"a_pos": int(rng.integers(0, 5)), "b_pos": int(rng.integers(1, 7)),
            "a_neg": int(rng.integers(3, 17)), "b_neg": int(rng.integers(0, 5))}


def _mcnemar_ok(p, a):
    return 0.001 <= a[0] <= 0.6 and p["a_pos"] + p["a_neg"] > p["b_pos"] + p["b_neg"]


_FOLDS = ([(f"{k} repetition{'s' if k > 1 else ''} of {m}-fold cross-validation", k * m, 1 / m)
           for m in (4, 5, 8, 10, 20) for k in range(1, 21) if k * m >= 8]
          + [(f"{r} random training/test splits with {share:.0%} of the cases for "
              "testing", r, share) for share in (0.1, 0.2, 0.25, 0.3, 0.4, 0.5)
             for r in range(5, 51)])


def _folds(rng):
    design, r, rho = _FOLDS[int(rng.integers(len(_FOLDS)))]
    return {"design": design, "r": r, "rho": round(rho, 6)}


def _cd(rng):
    k = int(rng.integers(3, 7))
    b = int(rng.integers(8, 81))
    alpha = pick(rng, (0.01, 0.05, 0.1))
    raw = np.sort(rng.uniform(1, k, k))
    raw = raw - raw.mean() + (k + 1) / 2
    ranks = np.round(raw / 0.05) * 0.05
    ranks[k // 2] += (k * (k + 1) / 2) - ranks.sum()
    ranks = np.round(ranks, 2)
    if not (np.all(np.diff(ranks) >= 0) and ranks[0] >= 1 and ranks[-1] <= k):
        return None
    return {"k": k, "b": b, "alpha": alpha, "ranks": tuple(float(v) for v in ranks)}


def _cd_ok(p, a):
    r, cd = np.array(p["ranks"]), a[0]
    gaps = np.abs(r[:, None] - r[None, :])[np.triu_indices(len(r), 1)]
    # some pairs differ significantly and some do not, none within 0.01 of the CD
    return (gaps > cd).any() and (gaps < cd).any() and np.min(np.abs(gaps - cd)) > 0.01


def _brier(rng):
    d1, d2 = int(rng.integers(40, 71)), int(rng.integers(15, 41))
    d3 = 100 - d1 - d2
    if not 5 <= d3 <= 30:
        return None
    said = (pick(rng, (0.05, 0.1, 0.15, 0.2)), pick(rng, (0.4, 0.5, 0.6)),
            pick(rng, (0.8, 0.85, 0.9)))
    rained = tuple(int(np.clip(round(d * (s + rng.uniform(-0.15, 0.15))), 0, d))
                   for d, s in zip((d1, d2, d3), said))
    return {"days": (d1, d2, d3), "said": said, "rained": rained}


def _brier_ok(p, a):
    rel, res, _ = a
    return rel > 1e-4 and res > rel


def _weights(rng):
    return {"w1": pick(rng, [w for w in steps(2, 10, 0.5, 1)]),
            "q": pick(rng, steps(0.1, 0.9, 0.01, 2))}


def _rate(rng):
    auc_a = pick(rng, steps(0.7, 0.85, 0.01, 2))
    return {"prevalence": pick(rng, steps(0.02, 0.2, 0.005)), "auc_a": auc_a,
            "auc_b": round(auc_a + pick(rng, steps(0.05, 0.12, 0.01, 2)), 2)}


GRIDS = {
    "ch1-ex-fourth": (_fourth, _fourth_ok),
    "ch1-ex-random": (lambda rng: {"prevalence": pick(rng, steps(0.03, 0.12, 0.01, 2)),
                                   "q": pick(rng, steps(0.15, 0.6, 0.01, 2))}, None),
    "ch2-ex-binormal": (lambda rng: (lambda mu: {
        "mu_neg": mu, "sd_neg": pick(rng, steps(0.6, 2.0, 0.1, 1)),
        "mu_pos": round(mu + pick(rng, steps(0.3, 2.5, 0.1, 1)), 2),
        "sd_pos": pick(rng, steps(0.5, 1.5, 0.1, 1))})(pick(rng, steps(0, 3, 0.5, 1))),
        lambda p, a: 0.55 <= a[0] <= 0.97),
    "ch2-ex-pairs": (_pairs, lambda p, a: 0.55 <= a[0] <= 0.95),
    "ch2-ex-mix": (_mix, _mix_ok),
    "ch2-ex-flip": (_flip, None),
    "ch3-ex-target": (lambda rng: {"prevalence": pick(rng, steps(0.02, 0.15, 0.005)),
                                   "fpr": pick(rng, steps(0.005, 0.05, 0.005)),
                                   "kappa": pick(rng, steps(0.3, 0.7, 0.01, 2))},
                      lambda p, a: 0.1 < a[0] <= 0.97),
    "ch3-ex-straight": (_straight, None),
    "ch4-ex-crisp": (_crisp, _crisp_ok),
    "ch4-ex-skew": (lambda rng: {"seed": int(rng.integers(1, 1000))}, None),
    "ch4-ex-shape": (_shape, lambda p, a: a[1] > a[0] + 0.002),
    "ch4-ex-deploy": (lambda rng: {
        "model": pick(rng, ("logistic regression", "naive Bayes", "5-nearest neighbours",
                            "tree, depth 2")),
        "prevalence": pick(rng, steps(0.002, 0.2, 0.0002, 4))}, None),
    "ch5-ex-pivot": (lambda rng: {"p1": pick(rng, steps(0.05, 0.35, 0.01, 2)),
                                  "p2": pick(rng, steps(0.36, 0.46, 0.01, 2)),
                                  "p3": pick(rng, steps(0.55, 0.9, 0.01, 2))}, None),
    "ch5-ex-solve": (lambda rng: {"d": pick(rng, steps(0.3, 2.5, 0.01, 2)),
                                  "prevalence": pick(rng, steps(0.005, 0.45, 0.001))},
                     None),
    "ch5-ex-deploy": (lambda rng: {"d": pick(rng, steps(1.5, 3.0, 0.05, 2)),
                                   "prevalence": pick(rng, steps(0.005, 0.05, 0.001))},
                      None),
    "ch6-ex-table": (_table, lambda p, a: 0 < a[3] < 1),
    "ch6-ex-wrong": (_wrong, lambda p, a: a.min() > 0),  # f < 1 for every pair
    "ch6-ex-weighted": (_weighted, _weighted_ok),
    "ch7-ex-split": (lambda rng: (lambda first: {"first": first, "last": first + 19})(
        100 + 20 * int(rng.integers(0, 40))), None),
    "ch7-ex-hull": (lambda rng: {"share": pick(rng, (0.06, 0.08, 0.11, 0.15, 0.2)),
                                 "seed": int(rng.integers(100, 900))}, None),
    "ch8-ex-friedman": (_table8, _table8_ok),
    "ch8-ex-threshold": (lambda rng: {"seed": int(rng.integers(1, 1000))}, None),
    "ch9-ex-positives": (_positives, None),
    "ch9-ex-misses": (_misses, lambda p, a: 0.02 <= a[0] <= 0.98),
    "ch9-ex-swap": (_swap, lambda p, a: abs(a[0]) >= 1 / 9 - 1e-9),
    "ch10-ex-bc": (_bc, None),
    "ch10-ex-paired": (_paired, None),
    "ch11-ex-tables": (_tables, _tables_ok),
    "ch11-ex-hand": (_hand, _hand_ok),
    "ch11-ex-report": (lambda rng: {"ap": pick(rng, steps(0.15, 0.28, 0.001))}, None),
    "ch12-ex-bins": (_bins, None),
    "ch12-ex-start": (_start, None),
    "ch13-ex-placements": (_placements, _placements_ok),
    "ch13-ex-kappa": (_kappa12, _kappa12_ok),
    "ch13-ex-mcnemar": (_mcnemar, _mcnemar_ok),
    "ch13-ex-folds": (_folds, lambda p, a: 0.06 <= a[0] <= 0.95),
    "ch13-ex-cd": (_cd, _cd_ok),
    "ch14-ex-brier": (_brier, _brier_ok),
    "ch14-ex-weights": (_weights, None),
    "ch14-ex-rate": (_rate, None),
}
# how many draws to try before giving up on filling a design
TRIES = {"ch5-ex-solve": 8000, "ch4-ex-skew": 700, "ch7-ex-split": 400, "ch7-ex-hull": 1800,
         "ch8-ex-threshold": 500, "ch10-ex-paired": 300, "ch4-ex-shape": 2500}


_FORBIDDEN = []


def printed_book_answers():
    """The book's answers as four-decimal strings, which no file of the student
    edition may hold (tests/test_student.py searches for them): a design that
    printed one among its parameters would look like a leak."""
    if not _FORBIDDEN:
        import re
        from fractions import Fraction

        for lab in sorted(variants.VARIANT_LABELS) + sorted(variants.FIXED):
            if answer(lab).kind != "values":
                continue
            for value in flat(answer(lab).reference()):
                if abs(value) < 10 and abs(value - Fraction(value).limit_denominator(20)) > 1e-9:
                    _FORBIDDEN.append(re.compile(rf"(?<![\d.]){re.escape(f'{value:.4f}')}(?!\d)"))
    return _FORBIDDEN


def reference(label):
    return _module(label).VARIANTS[label]


def flat(value):
    return np.ravel(np.asarray(value, dtype=float))


def build(label, log=print):
    """(params list, answers list) of ``label``'s design."""
    draw, valid = GRIDS[label]
    ref, atol = reference(label), answer(label).atol
    book = flat(ref(**variants.BOOK[label]))
    separated = label in variants.SEPARATED
    rng = np.random.default_rng(int(hashlib.sha256(label.encode()).hexdigest()[:8], 16))
    seen, kept, answers = set(), [], []
    cap = K_SEPARATED if separated else K_LIMITED * 20
    tries = TRIES.get(label, 40_000)
    start = time.time()
    for _ in range(tries):
        params = draw(rng)
        if params is None:
            continue
        key = json.dumps(params, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        try:
            a = flat(ref(**params))
        except (ValueError, ZeroDivisionError, FloatingPointError):
            continue
        if not np.all(np.isfinite(a)) or (valid and not valid(params, a)):
            continue
        if any(f.search(key) for f in printed_book_answers()):
            continue
        if not np.max(np.abs(a - book)) > EXCLUDE * atol:
            continue
        if separated and answers and np.min(np.max(np.abs(np.array(answers) - a), axis=1)) \
                <= SEP * atol:
            continue
        kept.append(params)
        answers.append(a)
        if len(kept) >= cap:
            break
    if not separated:
        # cycle through the distinct answers of this exercise and of those that
        # share its numbers (ch8-ex-null shares ch8-ex-friedman's table)
        companions = [lab for lab, src in variants._SHARED.items() if src == label]
        keys = [np.concatenate([a / atol] + [flat(reference(c)(**p)) / answer(c).atol
                                             for c in companions])
                for p, a in zip(kept, answers)]
        kept, answers = _cycle(kept, answers, keys, LIMIT.get(label, K_LIMITED))
    log(f"{label}: {len(kept)} sets from {len(seen)} draws ({time.time() - start:.0f} s)")
    return kept, answers


def _cycle(kept, answers, keys, limit=K_LIMITED):
    """At most K_LIMITED sets, cycling through the distinct answers (``keys``: the
    answers in units of the tolerance)."""
    groups = {}
    for params, a, k in zip(kept, answers, keys):
        groups.setdefault(tuple(np.round(k).astype(int)), []).append((params, a))
    order = []
    while len(order) < limit and any(groups.values()):
        for g in list(groups):
            if groups[g] and len(order) < limit:
                order.append(groups[g].pop(0))
    return [p for p, _ in order], [a for _, a in order]


def _json_ready(value):
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    return value


def entry_values(label, stored, params_list=None):
    """Each entry's answer, with the answers of the exercises that share its
    numbers, in units of each one's tolerance."""
    labels = [label] + [lab for lab, src in variants._SHARED.items() if src == label]
    for i, params in enumerate(params_list or variants.design(label)):
        parts = []
        for lab in labels:
            a = (np.asarray(stored[lab][i], dtype=float) if lab in stored
                 else flat(reference(lab)(**params)))
            parts.append(a / answer(lab).atol)
        yield np.concatenate(parts)


def separate_first(label, stored, params_list):
    """The order that puts first a largest-found set of entries whose answers are
    more than one tolerance apart (in some number) from each other (greedy, in
    design order), then the others; and how many come first (the *cycle*: a
    course key reads a limited design modulo it, so a copy of one classmate's
    answer is wrong for every other student in the same pass)."""
    values = list(entry_values(label, stored, params_list))
    first, rest = [], []
    for i, v in enumerate(values):
        if all(np.max(np.abs(values[j] - v)) > 1 + 1e-9 for j in first):
            first.append(i)
        else:
            rest.append(i)
    return first + rest, len(first)


def write(labels, store_only=False, cycles_only=False):
    designs = json.load(open(DESIGNS)) if os.path.exists(DESIGNS) else {}
    stored = json.load(open(STORED)) if os.path.exists(STORED) else {}
    for label in labels:
        if label in variants._SHARED:
            continue
        if cycles_only:
            continue
        if store_only:                       # the answers of the design as it is
            if label in EXPENSIVE:
                kept = variants.design(label)
                stored[label] = [flat(reference(label)(**p)).tolist() for p in kept]
            continue
        kept, answers = build(label)
        names = list(variants.BOOK[label])
        designs[label] = {"names": names,
                          "rows": [[_json_ready(p[n]) for n in names] for p in kept]}
        if label in EXPENSIVE:
            stored[label] = [a.tolist() for a in answers]
    for label, entry in designs.items():
        entry.pop("cycle", None)
        if label in variants.LIMITED and label not in variants._SHARED:
            rows = [dict(zip(entry["names"], map(variants._tupled, row)))
                    for row in entry["rows"]]
            order, entry["cycle"] = separate_first(label, stored, rows)
            entry["rows"] = [entry["rows"][i] for i in order]
            for lab in [label] + [c for c, src in variants._SHARED.items() if src == label]:
                if lab in stored:
                    stored[lab] = [stored[lab][i] for i in order]
    designs = {k: designs[k] for k in sorted(designs, key=_order)}
    with open(DESIGNS, "w", encoding="utf-8") as fh:
        fh.write("{\n" + ",\n".join(
            f" {json.dumps(k)}: {{\"names\": {json.dumps(v['names'])}, "
            + (f"\"cycle\": {v['cycle']}, " if "cycle" in v else "") + "\"rows\": [\n  "
            + ",\n  ".join(json.dumps(r) for r in v["rows"]) + "]}"
            for k, v in designs.items()) + "\n}\n")
    stored = {k: stored[k] for k in sorted(stored, key=_order)}
    with open(STORED, "w", encoding="utf-8") as fh:
        fh.write("{\n" + ",\n".join(
            f" {json.dumps(k)}: [\n  " + ",\n  ".join(json.dumps(r) for r in v) + "]"
            for k, v in stored.items()) + "\n}\n")
    variants._cache.clear()


def _order(label):
    return (int(re.match(r"ch(\d+)", label).group(1)), label)


def sharing(values, atol):
    """(distinct answers, students who share theirs with a classmate) of a class:
    two answers are shared when every number is within ``atol``."""
    v = np.array(values)
    same = np.all(np.abs(v[:, None, :] - v[None, :, :]) <= atol, axis=2)
    np.fill_diagonal(same, False)
    distinct = len({tuple(np.round(row / atol).astype(int)) for row in v})
    return distinct, int(same.any(axis=1).sum())


def report(rosters):
    """Print, per graded exercise, distinct answers and sharing students over each
    roster, with its course key and without one."""
    from aukbook.checks import CHECKS

    stored = json.load(open(STORED)) if os.path.exists(STORED) else {}
    keys = {name: variants.roster_key(ids) for name, ids in rosters.items()}
    cache = {}

    def entry(label, index):
        if (label, index) not in cache:
            if label in stored:
                cache[label, index] = np.asarray(stored[label][index], dtype=float)
            else:
                cache[label, index] = flat(reference(label)(**variants.design(label)[index]))
        return cache[label, index]

    cols = [(name, key) for name, key in keys.items()] + [
        (f"{name}, no key", None) for name in rosters]
    print("| exercise | kind | " + " | ".join(c for c, _ in cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    for label in sorted(CHECKS, key=_order):
        kind = ("separated" if label in variants.SEPARATED else "limited"
                if label in variants.LIMITED else "fixed")
        cells = []
        for name, key in cols:
            ids = rosters[name.replace(", no key", "")]
            if label not in variants.VARIANT_LABELS:
                cells.append("formula")
                continue
            vals = [entry(label, variants.design_index(label, s, key)) for s in ids]
            d, shared = sharing(vals, answer(label).atol)
            cells.append(f"{d} ({shared} share)")
        print(f"| {label} | {kind} | " + " | ".join(cells) + " |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", nargs="*", help="designs to rewrite (default: all)")
    parser.add_argument("--report", action="store_true",
                        help="print distinct answers over 200 ids instead")
    parser.add_argument("--cycles", action="store_true",
                        help="only reorder the limited designs (well-separated answers first) "
                             "and recompute their cycles")
    parser.add_argument("--store", action="store_true",
                        help="only recompute the stored answers of the designs")
    args = parser.parse_args(argv)
    if args.report:
        rng = np.random.default_rng(2026)
        lms = [f"{v:07d}" for v in rng.choice(np.arange(10_000, 9_999_999), 200,
                                              replace=False)]
        report({"s001-s200": [f"s{i:03d}" for i in range(1, 201)], "LMS ids": lms})
        return 0
    unknown = set(args.labels) - set(GRIDS)
    if unknown:
        parser.error(f"no grid for {sorted(unknown)}")
    write(args.labels or [lab for lab in variants.VARIANT_LABELS if lab in GRIDS],
          store_only=args.store, cycles_only=args.cycles)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
