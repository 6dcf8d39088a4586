"""Per-student variants of the book's exercises.

In a graded assignment some exercises use numbers of the student's own
instead of the book's: a class share, a table of counts, a seed.  They are
derived from the student's id, deterministically, so the student's notebook
and the instructor's grader compute the same ones::

    >>> from aukbook.variants import variant, describe_variant
    >>> variant("ch9-ex-bc", "s001") == variant("ch9-ex-bc", "s001")
    True
    >>> sorted(variant("ch9-ex-bc", "s001"))
    ['level', 'share_below']

Each choice is read from a SHA-256 digest of the exercise label, the student
id and the name of the parameter (pure Python, so the same on every machine
and with every version of numpy).  Only the numbers of the exercise are here,
never its answer.  ``BOOK[label]`` holds the numbers the book itself uses.
"""

import hashlib
import itertools

__all__ = ["variant", "describe_variant", "VARIANT_LABELS", "BOOK"]


def _pick(label, student_id, name, options):
    """One of ``options``, chosen by the digest of (label, student id, name)."""
    if not isinstance(student_id, str) or not student_id.strip():
        raise ValueError("student_id must be a non-empty string, e.g. 's001'; "
                         f"got {student_id!r}.")
    digest = hashlib.sha256(f"{label}|{student_id.strip()}|{name}".encode()).digest()
    return options[int.from_bytes(digest[:8], "big") % len(options)]


def _steps(start, stop, step, ndigits=2):
    """start, start + step, ... up to stop (inclusive), rounded."""
    n = int(round((stop - start) / step))
    return tuple(round(start + i * step, ndigits) for i in range(n + 1))


# The six ways to move one patient of the diabetes table further from the
# diagonal: (true grade, predicted grade before, predicted grade after).
_MOVES = tuple((r, a, b) for r, a, b in itertools.product(range(4), repeat=3)
               if abs(b - r) > abs(a - r) and abs(b - a) >= 2 and (r, a) != (3, 0))


def _table(pick):
    """A 2 x 3 table of AUC-PR values (3 decimals), all different."""
    values = _steps(0.15, 0.40, 0.001, 3)
    out, seen = [], set()
    for i in range(6):
        v = pick(f"v{i}", values)
        while v in seen:                          # keep the six values distinct
            v = round(v + 0.001, 3)
        seen.add(v)
        out.append(v)
    return (tuple(out[:3]), tuple(out[3:]))


# label: (how to draw the parameters, what the student reads)
_SPECS = {
    "ch1-ex-fourth": (
        lambda pick: {"alarm_share": pick("alarm_share", _steps(0.08, 0.16, 0.005, 3)),
                      "tp_share": pick("tp_share", _steps(0.035, 0.065, 0.005, 3))},
        "classifier D raises alarms on {alarm_share:.1%} of the cases and catches "
        "{tp_share:.1%} of all cases as true positives (p = 0.07 as in the book)."),
    "ch2-ex-binormal": (
        lambda pick: (lambda mu: {
            "mu_neg": mu, "sd_neg": pick("sd_neg", (1.0, 1.2, 1.5, 2.0)),
            "mu_pos": round(mu + pick("gap", (0.8, 1.0, 1.2, 1.5)), 2),
            "sd_pos": pick("sd_pos", (0.6, 0.8, 1.0))})(
                pick("mu_neg", (1.5, 2.0, 2.5))),
        "in part 2, mu_- = {mu_neg:g}, sigma_- = {sd_neg:g}, mu_+ = {mu_pos:g}, "
        "sigma_+ = {sd_pos:g}."),
    "ch3-ex-target": (
        lambda pick: {"prevalence": pick("prevalence",
                                         (0.03, 0.04, 0.05, 0.06, 0.08, 0.1)),
                      "fpr": pick("fpr", (0.01, 0.02, 0.03)),
                      "kappa": pick("kappa", (0.4, 0.5, 0.6))},
        "{prevalence:.0%} positives, the regulator demands kappa >= {kappa:g}, and "
        "your classifier operates at f = {fpr:g}."),
    "ch4-ex-crisp": (
        lambda pick: {"fpr": pick("fpr", (0.05, 0.1, 0.15, 0.2)),
                      "tpr": pick("tpr", (0.5, 0.6, 0.7, 0.8)),
                      "prevalence": pick("prevalence", (0.1, 0.2, 0.3))},
        "the ROC vertex is (f_1, t_1) = ({fpr:g}, {tpr:g}) and p = {prevalence:g}."),
    "ch5-ex-solve": (
        lambda pick: {"d": pick("d", _steps(0.8, 1.6, 0.1)),
                      "prevalence": pick("prevalence", _steps(0.02, 0.1, 0.01))},
        "the binormal classifier has d = {d:g} (sigma = 1) and p = {prevalence:g}."),
    "ch6-ex-weighted": (
        lambda pick: dict(zip(("true_grade", "from_grade", "to_grade"),
                              pick("move", _MOVES))),
        "move one patient from the cell (true grade {true_grade}, predicted grade "
        "{from_grade}) to (true grade {true_grade}, predicted grade {to_grade})."),
    "ch7-ex-hull": (
        lambda pick: {"seed": pick("seed", tuple(range(1, 50)))},
        "in part (a), use the split of seed {seed} (scores_for(0.11, {seed})) "
        "instead of seed 0."),
    "ch8-ex-friedman": (
        lambda pick: dict(zip(("raw", "down"), _table(pick))),
        "the AUC-PR table (LR, RF, SVM) is raw = {raw}, down = {down}; use it for "
        "this exercise and the next."),
    "ch9-ex-bc": (
        lambda pick: {"share_below": pick("share_below", tuple(
                          v for v in _steps(0.35, 0.65, 0.01) if v != 0.5)),
                      "level": pick("level", (0.9, 0.95, 0.99))},
        "{share_below:.0%} of the bootstrap replicates lie below the estimate, and "
        "the interval is the {level:.0%} BC interval."),
    "ch10-ex-tables": (
        lambda pick: (lambda tp, fn, fp: {"tp": tp, "fn": fn, "fp": fp,
                                          "tn": 200 - tp - fn - fp})(
            pick("tp", tuple(range(8, 17))), pick("fn", tuple(range(4, 11))),
            pick("fp", tuple(range(20, 41)))),
        "out of 200 cases, TP = {tp}, FN = {fn}, FP = {fp}, TN = {tn}."),
    "ch11-ex-start": (
        lambda pick: {"ranges": (
            (pick("p1", tuple(range(30, 46))), pick("n1", tuple(range(3, 10)))),
            (pick("p2", tuple(range(15, 26))), pick("n2", tuple(range(45, 66)))),
            (pick("p3", tuple(range(5, 13))), pick("n3", tuple(range(120, 141)))))},
        "the three ranges hold (positives, negatives) = {ranges[0]}, {ranges[1]} "
        "and {ranges[2]}, from the highest scores down."),
}

# Exercises that use the numbers of another exercise's variant.
_SHARED = {"ch8-ex-null": "ch8-ex-friedman"}

#: The exercises that have per-student variants.
VARIANT_LABELS = tuple(sorted(set(_SPECS) | set(_SHARED),
                              key=lambda s: (int(s.split("-")[0][2:]), s)))

#: The numbers the book itself uses in each of those exercises.
BOOK = {
    "ch1-ex-fourth": {"alarm_share": 0.12, "tp_share": 0.06},
    "ch2-ex-binormal": {"mu_neg": 2.0, "sd_neg": 1.5, "mu_pos": 3.2, "sd_pos": 0.8},
    "ch3-ex-target": {"prevalence": 0.05, "fpr": 0.02, "kappa": 0.5},
    "ch4-ex-crisp": {"fpr": 0.1, "tpr": 0.6, "prevalence": 0.2},
    "ch5-ex-solve": {"d": 1.0, "prevalence": 0.05},
    "ch6-ex-weighted": {"true_grade": 0, "from_grade": 1, "to_grade": 3},
    "ch7-ex-hull": {"seed": 0},
    "ch8-ex-friedman": {"raw": (0.186, 0.344, 0.311), "down": (0.168, 0.333, 0.191)},
    "ch9-ex-bc": {"share_below": 0.6, "level": 0.95},
    "ch10-ex-tables": {"tp": 12, "fn": 8, "fp": 30, "tn": 150},
    "ch11-ex-start": {"ranges": ((37, 6), (21, 58), (9, 131))},
}
BOOK.update({label: BOOK[source] for label, source in _SHARED.items()})


def _spec(label):
    label = _SHARED.get(label, label)
    if label not in _SPECS:
        raise ValueError(f"No exercise {label!r} has variants; "
                         f"those that do: {', '.join(VARIANT_LABELS)}.")
    return _SPECS[label]


def variant(label, student_id):
    """The numbers of exercise ``label`` for the student ``student_id`` (a dict).

    Parameters
    ----------
    label : str
        The exercise label, e.g. ``"ch1-ex-fourth"`` (see ``VARIANT_LABELS``).
    student_id : str
        The student's id, as the instructor gave it.

    Returns
    -------
    params : dict
        The exercise's numbers, by name; ``BOOK[label]`` has the same keys.

    Examples
    --------
    >>> from aukbook.variants import variant, BOOK
    >>> set(variant("ch10-ex-tables", "s001")) == set(BOOK["ch10-ex-tables"])
    True
    >>> sum(variant("ch10-ex-tables", "s001").values())
    200
    """
    draw, _text = _spec(label)
    label = _SHARED.get(label, label)
    return draw(lambda name, options: _pick(label, student_id, name, options))


def describe_variant(label, student_id):
    """One sentence for the student: the numbers of their variant of ``label``."""
    _draw, text = _spec(label)
    return f"Your numbers for {label}: " + text.format(**variant(label, student_id))
