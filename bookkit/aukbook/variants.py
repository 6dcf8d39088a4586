"""Per-student variants of the book's exercises.

In a graded assignment the numerical exercises use numbers of the student's
own instead of the book's: a class share, a table of counts, a seed.  The
student's notebook and the instructor's grader compute the same numbers from
the student's id::

    >>> from aukbook.variants import variant, describe_variant
    >>> variant("ch10-ex-bc", "s001") == variant("ch10-ex-bc", "s001")
    True
    >>> sorted(variant("ch10-ex-bc", "s001"))
    ['level', 'share_below']

How the numbers are chosen
--------------------------
Each exercise has a *design*: a list of parameter sets, stored in
``variant_designs.json`` beside this module (parameters only, never an
answer).  ``course/make_variants.py`` writes it from the instructor's
reference answers: it walks a grid of sensible numbers in a fixed shuffled
order and keeps a parameter set only if its answer lies more than twice the
exercise's tolerance from the answer of every set kept before it, and more
than four times from the book's own answer (so a search of the book's
self-check, which knows only the book's numbers, finds nothing a student is
graded on; see ``aukbook.checks``).  Two students with different entries of
a *separated* design therefore have answers that differ by more than twice
the tolerance: a copied answer fails.

A student's entry is their *slot*.  Without a roster, the slot is read from a
SHA-256 digest of the exercise and the id, so two students of a class of
200 share an entry now and then (the birthday problem: about 200^2 / (2 K)
pairs for a design of K entries).  With a roster, :func:`roster_key` builds a
*course key*, a short public string that maps every id of the roster to its
own slot (a minimal-perfect-hash construction: the ids are put in buckets by
a digest, and each bucket gets the displacement that sends its ids to free
slots).  The slots are 0, 1, ..., n - 1 for a roster of n: a separated
design (at least :func:`capacity` entries) gives each student an entry of
their own, and a limited design is read at the slot modulo its *cycle*, the
number of distinct answers it cycles through, so that a class uses every
answer before any repeats; the limited designs of one chapter get pairwise
coprime cycles, so that no two students of a roster whose chapter space
allows it share every answer of a chapter (the Chinese remainder theorem).
The key holds no id: it is the same kind of string whoever is on the
roster, and an id that is not on the roster still gets a slot (a
classmate's).  The released assignment carries the key, so the student's
notebook computes its own numbers from the id alone::

    >>> from aukbook.variants import roster_key, slot
    >>> key = roster_key(["s001", "s002", "s003"])
    >>> len({slot("s001", key), slot("s002", key), slot("s003", key)})
    3

Some exercises cannot separate a class: their answer takes only a few
values whatever the numbers (a count out of 20, an exact P-value from 36
arrangements).  They are *limited* (``LIMITED`` says why); they still vary, so
that a copied answer is wrong for most classmates, and no entry has the
book's answer.  Exercises that ask for a formula are *fixed* (``FIXED`` says
why): the grader evaluates the student's function at random points.
``BOOK[label]`` holds the numbers the book itself uses.
"""

import hashlib
import json
import math
import os
import re

__all__ = ["variant", "describe_variant", "roster_key", "slot", "design_index",
           "VARIANT_LABELS", "SEPARATED", "LIMITED", "FIXED", "BOOK", "capacity",
           "design"]

_DESIGNS = os.path.join(os.path.dirname(__file__), "variant_designs.json")


def _pct(x, digits=1):
    return f"{100 * x:.{digits}f}%"


def _list(values):
    return ", ".join(f"{v:g}" for v in values)


def _text_ch6_weighted(p):
    moves = [f"{k} patient{'s' if k > 1 else ''} from the cell (true grade {r}, "
             f"predicted grade {a}) to (true grade {r}, predicted grade {b})"
             for r, a, b, k in p["moves"]]
    return (f"put {', '.join(map(str, p['diagonal'][:3]))} and {p['diagonal'][3]} "
            "patients on the diagonal of the diabetes matrix (grades 0 to 3, instead "
            "of 33, 13, 18 and 34), then move " + " and ".join(moves)
            + ", instead of the book's one patient.")


def _text_ch12_bins(p):
    (p1, n1), (p2, n2), (p3, n3) = p["bins"]
    return (f"{p1 + n1 + p2 + n2 + p3 + n3} cases: from the highest scores down, bin 1 "
            f"holds {p1} positives and {n1} negatives, bin 2 holds {p2} positives and "
            f"{n2} negatives, bin 3 holds {p3} positives and {n3} negatives.")


def _text_ch13_placements(p):
    return ("the two classifiers score the cases (+ + + + − − − − −) as "
            f"a = ({_list(p['a'])}) and b = ({_list(p['b'])}).")


def _text_ch13_mcnemar(p):
    ap, bp, an, bn = p["a_pos"], p["b_pos"], p["a_neg"], p["b_neg"]
    return (f"a is right and b wrong on {ap + an} cases, b right and a wrong on "
            f"{bp + bn}; among the positives a alone is right on {ap} and b alone on "
            f"{bp}, among the negatives a alone on {an} and b alone on {bn} (500 "
            "cases, 5% positives, a missed positive costs 20 false alarms, as in the "
            "book).")


# label: (kind, what the student reads, the book's numbers)
#   kind "separated": every slot of the design has its own answer
#   kind "limited": see LIMITED for why the answers take few values
_SPECS = {
    "ch1-ex-fourth": (
        "separated",
        "classifier D raises alarms on {alarm_share:.1%} of the cases and catches "
        "{tp_share:.1%} of all cases as true positives (p = 0.07 as in the book).",
        {"alarm_share": 0.12, "tp_share": 0.06}),
    "ch1-ex-random": (
        "limited",
        "simulate with p = {prevalence:g} and q = {q:g} (N = 10,000 and 2,000 test "
        "sets as in the book).",
        {"prevalence": 0.07, "q": 0.08}),
    "ch2-ex-binormal": (
        "separated",
        "in part 2, mu_- = {mu_neg:g}, sigma_- = {sd_neg:g}, mu_+ = {mu_pos:g}, "
        "sigma_+ = {sd_pos:g}.",
        {"mu_neg": 2.0, "sd_neg": 1.5, "mu_pos": 3.2, "sd_pos": 0.8}),
    "ch2-ex-pairs": (
        "limited",
        lambda p: (f"the positives score {_list(p['pos'])} and the negatives "
                   f"{_list(p['neg'])}; the book's question about the tie at 0.3 is "
                   f"about your tie between two negatives, at {p['neg_tie']:g}."),
        {"pos": (0.9, 0.7, 0.7, 0.4), "neg": (0.8, 0.7, 0.3, 0.3), "neg_tie": 0.3}),
    "ch2-ex-mix": (
        "separated",
        "the two thresholds give the ROC points ({f1:g}, {t1:g}) and ({f2:g}, {t2:g}), "
        "the clinic can afford f = {f:g}, and the third threshold has the ROC point "
        "({f:g}, {t3:g}).",
        {"f1": 0.1, "t1": 0.5, "f2": 0.4, "t2": 0.8, "f": 0.2, "t3": 0.55}),
    "ch2-ex-flip": (
        "limited",
        "the model reaches AUC = {auc:g} on a test set of {n:d} cases, {n_pos:d} of "
        "them positive.",
        {"auc": 0.3125, "n": 10, "n_pos": 4}),
    "ch3-ex-target": (
        "separated",
        "{prevalence:.1%} positives, the regulator demands kappa >= {kappa:g}, and "
        "your classifier operates at f = {fpr:g}.",
        {"prevalence": 0.05, "fpr": 0.02, "kappa": 0.5}),
    "ch3-ex-straight": (
        "limited",
        "the ROC point is (f_1, t_1) = ({fpr:g}, {tpr:g}) and p = {prevalence:g}.",
        {"fpr": 0.2, "tpr": 0.7, "prevalence": 0.1}),
    "ch4-ex-crisp": (
        "separated",
        "the ROC vertex is (f_1, t_1) = ({fpr:g}, {tpr:g}) and p = {prevalence:g}.",
        {"fpr": 0.1, "tpr": 0.6, "prevalence": 0.2}),
    "ch4-ex-skew": (
        "limited",
        "refit the naive Bayes model on your own data and split: "
        "skewed_breast_cancer(positive_share=0.1, seed={seed}) and "
        "train_test_split(..., test_size=0.5, stratify=y, random_state={seed}).",
        {"seed": 0}),
    "ch4-ex-shape": (
        "separated",
        "both classifiers have AUC = {auc:g}, one with sigma = {sigma_narrow:g} and "
        "one with sigma = {sigma_wide:g}; the class share is p = {prevalence:g} "
        "(and 0.5).",
        {"auc": 0.85, "sigma_narrow": 0.6, "sigma_wide": 1.8, "prevalence": 0.02}),
    "ch4-ex-deploy": (
        "separated",
        "carry the chapter's {model} (scores['{model}']) to a population with "
        "{prevalence:.2%} malignant cases (p = {prevalence:g}).",
        {"model": "logistic regression", "prevalence": 0.01}),
    "ch5-ex-pivot": (
        "separated",
        "compute the pivot for p = {p1:g}, {p2:g} and {p3:g}.",
        {"p1": 0.2, "p2": 0.45, "p3": 0.7}),
    "ch5-ex-solve": (
        "separated",
        "the binormal classifier has d = {d:g} (sigma = 1) and p = {prevalence:g}; "
        "use them in the simulation too.",
        {"d": 1.0, "prevalence": 0.05}),
    "ch5-ex-deploy": (
        "separated",
        "the condition has {prevalence:.1%} prevalence and the test is binormal with "
        "d = {d:g} (sigma = 1).",
        {"d": 2.0, "prevalence": 0.02}),
    "ch6-ex-table": (
        "limited",
        lambda p: (f"records 1-{p['sizes'][0]} are of class 1, the next "
                   f"{p['sizes'][1]} of class 2 and the last {p['sizes'][2]} of "
                   f"class 3, and the classifier predicts {list(p['predicted'])} "
                   f"for records 1 to {sum(p['sizes'])}."),
        {"sizes": (4, 3, 3), "predicted": (1, 3, 1, 1, 2, 3, 1, 3, 1, 3)}),
    "ch6-ex-wrong": (
        "limited",
        lambda p: ("instead of example 2, take the always-wrong classifier that "
                   f"predicts {list(p['predicted'])} for the records of true classes "
                   "[1, 1, 1, 2, 2, 3, 3, 3]."),
        {"predicted": (2, 3, 2, 1, 3, 1, 2, 1)}),
    "ch6-ex-weighted": (
        "separated", _text_ch6_weighted,
        {"diagonal": (33, 13, 18, 34), "moves": ((0, 1, 3, 1),)}),
    "ch7-ex-split": (
        "limited",
        "use the seeds {first}-{last} instead of 50-69.",
        {"first": 50, "last": 69}),
    "ch7-ex-hull": (
        "separated",
        "in part (a), use the split of seed {seed} with {share:.0%} positives "
        "(scores_for({share:g}, {seed})) instead of seed 0 with 11%.",
        {"share": 0.11, "seed": 0}),
    "ch8-ex-friedman": (
        "limited",
        "the AUC-PR table (LR, RF, SVM) is raw = {raw}, down = {down}; use it for "
        "this exercise and the next.",
        {"raw": (0.186, 0.344, 0.311), "down": (0.168, 0.333, 0.191)}),
    "ch8-ex-threshold": (
        "limited",
        "refit the raw-data logistic regression on your own split: "
        "train_test_split(..., test_size=0.25, stratify=y, random_state={seed}) "
        "for the test set, the validation split as in the chapter.",
        {"seed": 0}),
    "ch9-ex-positives": (
        "separated",
        "the test set has {n0} positive cases and the AUC's standard error is "
        "{se0:g}; the target is {se1:g}, and the share of positives is "
        "{prevalence:g}.",
        {"n0": 25, "se0": 0.06, "se1": 0.02, "prevalence": 0.01}),
    "ch9-ex-misses": (
        "limited",
        "the rule's coverage is {coverage:.0%}, a batch holds {n_sets} intervals, "
        "and the share asked for is of batches with {k} or more misses.",
        {"n_sets": 40, "k": 5, "coverage": 0.95}),
    "ch9-ex-swap": (
        "limited",
        lambda p: (f"the positive cases score {_list(p['pos_a'])} with a and "
                   f"{_list(p['pos_b'])} with b; the negative cases score "
                   f"{_list(p['neg_a'])} with a and {_list(p['neg_b'])} with b."),
        {"pos_a": (0.9, 0.7, 0.6), "pos_b": (0.8, 0.5, 0.4),
         "neg_a": (0.3, 0.5, 0.2), "neg_b": (0.6, 0.45, 0.35)}),
    "ch10-ex-bc": (
        "separated",
        "{share_below:.1%} of the bootstrap replicates lie below the estimate, and "
        "the interval is the {level:.0%} BC interval.",
        {"share_below": 0.6, "level": 0.95}),
    "ch10-ex-paired": (
        "limited",
        "rebuild a and b with noise of standard deviation {noise_a:g} and "
        "{noise_b:g} (instead of 0.5 and 0.8), the rest of pairing_example as in "
        "the chapter.",
        {"noise_a": 0.5, "noise_b": 0.8}),
    "ch11-ex-tables": (
        "separated",
        "out of 200 cases, TP = {tp}, FN = {fn}, FP = {fp}, TN = {tn}.",
        {"tp": 12, "fn": 8, "fp": 30, "tn": 150}),
    "ch11-ex-hand": (
        "limited",
        lambda p: (f"the labels are {list(p['labels'])} and the scores "
                   f"{list(p['scores'])}."),
        {"labels": (0, 0, 1, 0, 1, 1, 0, 0),
         "scores": (0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.05)}),
    "ch11-ex-report": (
        "limited",
        "in part 2, suppose the printed average precision were {ap:g} (the AUC-PR "
        "0.533 and p = 0.067 as printed).",
        {"ap": 0.204}),
    "ch12-ex-bins": ("separated", _text_ch12_bins,
                     {"bins": ((4, 1), (2, 5), (0, 8))}),
    "ch12-ex-start": (
        "separated",
        "the three ranges hold (positives, negatives) = {ranges[0]}, {ranges[1]} "
        "and {ranges[2]}, from the highest scores down.",
        {"ranges": ((37, 6), (21, 58), (9, 131))}),
    "ch13-ex-placements": (
        "separated", _text_ch13_placements,
        {"a": (0.9, 0.8, 0.6, 0.4, 0.7, 0.5, 0.3, 0.2, 0.1),
         "b": (0.8, 0.9, 0.3, 0.5, 0.6, 0.5, 0.4, 0.2, 0.1)}),
    "ch13-ex-kappa": (
        "separated",
        "the decisions on {n} cases give TP = {tp}, FN = {fn}, FP = {fp}, TN = {tn}.",
        {"tp": 30, "fn": 10, "fp": 20, "tn": 140, "n": 200}),
    "ch13-ex-mcnemar": (
        "limited", _text_ch13_mcnemar,
        {"a_pos": 1, "b_pos": 3, "a_neg": 10, "b_neg": 0}),
    "ch13-ex-folds": (
        "separated",
        "predict the rejection rate for {design} (r = {r}) with rho = {rho:g}, "
        "critical value t_(0.975, {r} - 1); compare the book's r = 100, rho = 0.1 "
        "with the figure.",
        {"design": "ten repetitions of 10-fold cross-validation", "r": 100, "rho": 0.1}),
    "ch13-ex-cd": (
        "separated",
        lambda p: (f"{p['k']} learners are ranked on {p['b']} data sets; their average "
                   f"ranks are {_list(p['ranks'])}; use alpha = {p['alpha']:g}."),
        {"k": 4, "b": 20, "alpha": 0.05, "ranks": (1.8, 2.3, 2.9, 3.0)}),
    "ch14-ex-brier": (
        "separated",
        lambda p: ("on {} days she says {} and it rains on {}; on {} days she says {} "
                   "and it rains on {}; on {} days she says {} and it rains on {}."
                   ).format(*[v for row in zip(p["days"], p["said"], p["rained"])
                              for v in row]),
        {"days": (60, 30, 10), "said": (0.1, 0.5, 0.9), "rained": (5, 18, 8)}),
    "ch14-ex-weights": (
        "separated",
        "the model is trained with weight w_1 = {w1:g} on every positive (w_0 = 1), "
        "and it outputs q = {q:g} in (b).",
        {"w1": 5, "q": 0.4}),
    "ch14-ex-rate": (
        "separated",
        "the data have p = {prevalence:g}; A has AUC {auc_a:g} and B has AUC {auc_b:g}.",
        {"prevalence": 0.07, "auc_a": 0.8, "auc_b": 0.9}),
}

# Exercises that use the numbers of another exercise's variant.
_SHARED = {"ch8-ex-null": "ch8-ex-friedman"}

#: Why each limited exercise cannot give every student of a class an answer
#: of their own (its design still varies, and avoids the book's answer).
LIMITED = {
    "ch1-ex-random": "a simulated spread accepted within 0.05: sqrt(N) times the "
                     "standard deviation of kappa is at most 1 for every p and q, so "
                     "only a few values 0.1 apart exist below the book's 1.0",
    "ch2-ex-pairs": "the AUC of four positives and four negatives is a multiple of "
                    "1/32",
    "ch2-ex-flip": "the AUC of a ten-case test set with ties is a multiple of "
                   "1/(2 n_+ n_-): a few dozen values below 1/2",
    "ch3-ex-straight": "the answer is the vertex's f, kept on the 0.005 grid of the "
                       "book's plot (at most 91 values)",
    "ch4-ex-skew": "the naive Bayes model ranks nearly perfectly on every split: "
                   "AUC - 1/2 lies between 0.45 and 0.5 and the AUK between 0.22 and "
                   "0.26, so the splits' answers cluster (52 of 120 splits 0.001 apart)",
    "ch6-ex-table": "s, N_i, N_j and MWW of ten records are small integers and "
                    "fractions",
    "ch6-ex-wrong": "the six MWWs of an always-wrong classifier of eight records are "
                    "fractions with small denominators",
    "ch7-ex-split": "a count out of 20 splits: at most 21 values, mostly 0 to 5",
    "ch8-ex-friedman": "the P-value depends only on the aligned ranks of a 2 x 3 "
                       "table, a multiple of 1/36",
    "ch8-ex-null": "the variance depends only on the aligned ranks of a 2 x 3 table: "
                   "two values over all tables",
    "ch8-ex-threshold": "the best kappa of the model over test splits lies between "
                        "about 0.07 and 0.35: at most about 200 answers 0.001 apart, "
                        "fewer than a class of 200 needs once the splits scatter",
    "ch9-ex-misses": "a probability accepted within 0.005: answers 0.01 apart "
                      "number about a hundred at most, fewer in a sensible range",
    "ch9-ex-swap": "an exact P-value over 64 arrangements is a multiple of 1/64 and "
                    "an AUC difference of three positive and three negative cases a "
                    "multiple of 1/18",
    "ch10-ex-paired": "a bootstrap ratio accepted within 0.05 over a narrow range",
    "ch11-ex-hand": "the H-measure of eight cases depends only on their ranking: at "
                    "most 154 orderings of 2 to 4 positives",
    "ch11-ex-report": "the exercise is about the numbers one paper printed; only the "
                      "average precision can change without changing the exercise",
    "ch13-ex-mcnemar": "an exact binomial P-value of a few dozen discordant cases "
                       "takes a few hundred values, fewer in a sensible range",
}

#: Exercises whose graded answer is the same for every student, and why.
FIXED = {
    "ch1-ex-counts": "a formula (a derivation): the grader compares the student's "
                     "function with the reference at random tables",
    "ch3-ex-corner": "a formula (a derivation): the grader compares the student's "
                     "function with the reference at random class shares",
}

#: The numbers the book itself uses in each exercise that has variants.
BOOK = {label: spec[2] for label, spec in _SPECS.items()}
BOOK.update({label: BOOK[source] for label, source in _SHARED.items()})

#: The exercises that have per-student variants.
VARIANT_LABELS = tuple(sorted(set(_SPECS) | set(_SHARED),
                              key=lambda s: (int(re.match(r"ch(\d+)", s).group(1)), s)))

#: The exercises whose design gives every slot an answer of its own.
SEPARATED = tuple(lab for lab in VARIANT_LABELS
                  if _SPECS[_SHARED.get(lab, lab)][0] == "separated")
if set(VARIANT_LABELS) - set(SEPARATED) != set(LIMITED):
    raise RuntimeError("LIMITED must name every exercise whose design is not separated")


def _tupled(value):
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


_cache = {}


def _designs():
    if "designs" not in _cache:
        with open(_DESIGNS, encoding="utf-8") as fh:
            raw = json.load(fh)
        _cache["cycles"] = {label: entry.get("cycle", len(entry["rows"]))
                            for label, entry in raw.items()}
        _cache["designs"] = {
            label: [dict(zip(entry["names"], map(_tupled, row))) for row in entry["rows"]]
            for label, entry in raw.items()}
    return _cache["designs"]


def design(label):
    """The parameter sets of ``label``'s design, in slot order (a list of dicts)."""
    return list(_designs()[_source(label)])


def cycle(label):
    """How many entries of ``label``'s design to read with a course key: the
    design's length if it is separated, else its cycle of distinct answers,
    lowered where needed to be coprime with the cycles of the chapter's other
    limited designs (the longer ones keep theirs)."""
    source = _source(label)
    if "moduli" not in _cache:
        _designs()
        moduli = {}
        chapters = {}
        for lab in VARIANT_LABELS:
            src = _source(lab)
            if src not in SEPARATED:
                chapters.setdefault(src.split("-")[0], set()).add(src)
        for srcs in chapters.values():
            taken = []
            for src in sorted(srcs, key=lambda x: (-_cache["cycles"][x], x)):
                m = _cache["cycles"][src]
                while m > 1 and any(math.gcd(m, t) > 1 for t in taken):
                    m -= 1
                moduli[src] = m
                taken.append(m)
        _cache["moduli"] = moduli
    return _cache["moduli"].get(source, len(_designs()[source]))


def capacity():
    """The largest roster :func:`roster_key` serves: the smallest separated design."""
    designs = _designs()
    return min(len(designs[_source(lab)]) for lab in SEPARATED)


def _source(label):
    label = _SHARED.get(label, label)
    if label not in _SPECS:
        why = f" ({FIXED[label]})" if label in FIXED else ""
        raise ValueError(f"No exercise {label!r} has variants{why}; "
                         f"those that do: {', '.join(VARIANT_LABELS)}.")
    return label


def _clean_id(student_id):
    if not isinstance(student_id, str) or not student_id.strip():
        raise ValueError("student_id must be a non-empty string, e.g. 's001'; "
                         f"got {student_id!r}.")
    return student_id.strip()


def _h(*parts):
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


# --- the course key: a minimal-perfect-hash of the roster --------------------------

_KEY = re.compile(r"^aukv1-(\d+)-(\d+)-([0-9a-z.]+)$")


def _parse_key(key):
    m = _KEY.match(key.strip()) if isinstance(key, str) else None
    if not m:
        raise ValueError("key must be a course key made by roster_key(), like "
                         f"'aukv1-0-310-3.0.1a...'; got {key!r}.")
    salt, slots = int(m.group(1)), int(m.group(2))
    shifts = [int(d, 36) for d in m.group(3).split(".")]
    if slots < 1:
        raise ValueError(f"key {key!r} has no slots.")
    return salt, slots, shifts


def _slot(student_id, salt, slots, shifts):
    shift = shifts[_h("bucket", salt, student_id) % len(shifts)]
    return _h("slot", salt, shift, student_id) % slots


def roster_key(roster, slots=None):
    """A course key that gives every student of ``roster`` a slot of their own.

    Parameters
    ----------
    roster : iterable of str
        The class's student ids (surrounding spaces are ignored; repeats count
        once).
    slots : int, optional
        How many slots to spread the roster over; default the roster's size
        (slots 0 to n - 1, so that the limited designs use all their answers
        before any repeats).  At most :func:`capacity`, the size of the
        smallest separated design.

    Returns
    -------
    key : str
        Pass it to :func:`variant` (``key=``), in the released assignment and in
        the grader alike.  The same roster always gives the same key; keep the
        key of the released assignment for grading (a student added later gets
        a slot too, possibly a classmate's).

    Examples
    --------
    >>> from aukbook.variants import roster_key, slot
    >>> ids = [f"{n:07d}" for n in range(3_100_000, 3_100_200)]
    >>> key = roster_key(ids)
    >>> len({slot(i, key) for i in ids})
    200
    """
    ids = sorted({_clean_id(s) for s in roster})
    top = capacity()
    slots = len(ids) if slots is None else int(slots)
    if not ids:
        raise ValueError("roster is empty.")
    if not len(ids) <= slots <= top:
        raise ValueError(f"roster has {len(ids)} ids but the designs have {top} "
                         f"separated slots (slots={slots}); split the class into "
                         "groups of at most that many, each with its own key.")
    n_buckets = max(1, math.ceil(len(ids) / 4))
    for salt in range(1000):
        buckets = [[] for _ in range(n_buckets)]
        for s in ids:
            buckets[_h("bucket", salt, s) % n_buckets].append(s)
        shifts, taken = [0] * n_buckets, set()
        order = sorted(range(n_buckets), key=lambda b: (-len(buckets[b]), b))
        for b in order:
            if not buckets[b]:
                continue
            for shift in range(20_000):
                got = {_h("slot", salt, shift, s) % slots for s in buckets[b]}
                if len(got) == len(buckets[b]) and not got & taken:
                    shifts[b] = shift
                    taken |= got
                    break
            else:
                break                           # this salt failed; try the next
        else:
            return f"aukv1-{salt}-{slots}-" + ".".join(_base36(d) for d in shifts)
    raise RuntimeError("no course key found")  # pragma: no cover (never seen)


def _base36(n):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def slot(student_id, key=None):
    """The student's slot under the course key (None without a key)."""
    sid = _clean_id(student_id)
    if key is None or key == "":
        return None
    return _slot(sid, *_parse_key(key))


def variant(label, student_id, key=None):
    """The numbers of exercise ``label`` for the student ``student_id`` (a dict).

    Parameters
    ----------
    label : str
        The exercise label, e.g. ``"ch1-ex-fourth"`` (see ``VARIANT_LABELS``).
    student_id : str
        The student's id, as the instructor gave it.
    key : str, optional
        The course key of :func:`roster_key`, which the released assignment
        carries; the grader passes the same key.  Without a key the entry is
        read from a digest of the label and the id (two students of a class
        may then share one).

    Returns
    -------
    params : dict
        The exercise's numbers, by name; ``BOOK[label]`` has the same keys.

    Examples
    --------
    >>> from aukbook.variants import variant, BOOK
    >>> set(variant("ch11-ex-tables", "s001")) == set(BOOK["ch11-ex-tables"])
    True
    >>> sum(variant("ch11-ex-tables", "s001").values())
    200
    """
    return dict(_designs()[_source(label)][design_index(label, student_id, key)])


def design_index(label, student_id, key=None):
    """Which entry of ``design(label)`` the student gets (see :func:`variant`)."""
    source = _source(label)
    sid = _clean_id(student_id)
    size = len(_designs()[source])
    where = slot(sid, key)
    return _h(source, sid) % size if where is None else where % cycle(source)


def describe_variant(label, student_id, key=None):
    """One sentence for the student: the numbers of their variant of ``label``."""
    text = _SPECS[_source(label)][1]
    params = variant(label, student_id, key)
    body = text(params) if callable(text) else text.format(**params)
    return f"Your numbers for {label}: " + body
