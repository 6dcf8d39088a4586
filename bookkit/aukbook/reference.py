"""auklib against the reference implementations: which call matches which.

``chapters/data/reference/`` holds fixed data sets and what R's pROC, vcd and
psych, scikit-learn and the PyPI ``hmeasure`` package return on them
(``make_reference.py`` there wrote it).  This module says, once, which auklib
call answers which reference quantity (:data:`COMPARISONS`), and measures
the largest difference over the data sets (:func:`agreement`).  The appendix
*Agreement with the reference tools* shows that table and
``tests/test_reference_implementations.py`` asserts it, so neither needs R.

Where auklib computes a different quantity on purpose (its default AUC
interval is a score-type interval, not pROC's Wald interval) the comparison
is of the shared part: the estimate and DeLong's variance, from which the
Wald interval follows.
"""

import csv
import json
import math
import os
import warnings
from collections import namedtuple

import numpy as np
from scipy.special import ndtri

import auklib

__all__ = ["Comparison", "COMPARISONS", "NOT_COMPARED", "TOLERANCE", "load", "agreement"]

TOLERANCE = 1e-9  # the largest absolute difference the test suite accepts

# Stored reference values that no comparison reads, and why: (tool, quantity,
# data set, or "multiclass" for every multi-class set, "*" for every binary
# set) -> reason.
# tests/test_reference_implementations.py checks that every other stored
# value is compared.
NOT_COMPARED = {
    ("vcd", "kappa_ase", "multiclass"):
        "auklib has no standard error for the kappa of a table larger than 2 x 2",
    ("psych", "var_kappa", "multiclass"):
        "auklib has no standard error for the kappa of a table larger than 2 x 2",
    ("pROC", "auc_direction_auto", "*"):
        "roc() without direction = \"<\" picks the direction from the classes' "
        "medians and reverses a classifier whose positives score lower; auklib "
        "never reverses scores",
    ("stats", "mcnemar_test_statistic", "monotone_transform"):
        "no discordant case: R's mcnemar.test returns NaN (0/0), auklib's "
        "mcnemar_test a statistic of 0 and a P value of 1",
    ("stats", "mcnemar_test_p_value", "monotone_transform"):
        "no discordant case: R's mcnemar.test returns NaN (0/0), auklib's "
        "mcnemar_test a statistic of 0 and a P value of 1",
    ("stats", "binom_test_p_value", "monotone_transform"):
        "no discordant case: binom.test needs at least one trial; auklib's "
        "exact mcnemar_test gives a P value of 1",
    ("scikit-learn", "roc_auc_score", "weighted"):
        "auklib's AUC functions take no case weights",
    ("scikit-learn", "matthews_corrcoef", "weighted"):
        "mcc_confidence_interval takes no case weights (the weighted MCC is "
        "compared at every threshold, with metric_curve)",
}

Comparison = namedtuple("Comparison", ["tool", "reference", "auklib", "kind", "pairs"])
Comparison.__doc__ = """\
One reference quantity and the auklib call that should reproduce it.

``kind`` is ``"scorer"`` (once per data set and classifier), ``"pair"``
(once per data set, both classifiers) or ``"multiclass"``; ``pairs(case)``
returns ``(reference value, auklib value)``, scalars or equal-length
sequences, for one case.
"""

Case = namedtuple("Case", ["dataset", "scorer", "data", "ref"])

COMPARISONS = []


def _compare(tool, reference, auklib_call, kind="scorer"):
    def register(pairs):
        COMPARISONS.append(Comparison(tool, reference, auklib_call, kind, pairs))
        return pairs
    return register


# ------------------------------------------------------------ reading
def _read_csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def load(directory):
    """``(reference, binary, multiclass)`` from ``directory``.

    ``reference`` is reference.json as a dict; ``binary`` maps each data set
    to arrays ``y``, ``score_a``, ``score_b``, ``pred_a``, ``pred_b`` and
    ``weight``; ``multiclass`` to ``y``, ``pred`` and ``proba`` (n x classes).
    """
    with open(os.path.join(directory, "reference.json"), encoding="utf-8") as fh:
        reference = json.load(fh)
    binary = {}
    for row in _read_csv(os.path.join(directory, "binary.csv")):
        d = binary.setdefault(row["dataset"], {k: [] for k in row if k != "dataset"})
        for k, v in row.items():
            if k != "dataset":
                d[k].append(float(v))
    for d in binary.values():
        for k in d:
            d[k] = np.asarray(d[k], dtype=int if k in ("y", "pred_a", "pred_b") else float)
    multiclass = {}
    for row in _read_csv(os.path.join(directory, "multiclass.csv")):
        d = multiclass.setdefault(row["dataset"], {"y": [], "pred": [], "proba": []})
        d["y"].append(int(row["y"]))
        d["pred"].append(int(row["pred"]))
        d["proba"].append([float(v) for k, v in row.items()
                           if k.startswith("p") and k[1:].isdigit() and v != "NA"])
    multiclass = {name: {k: np.asarray(v) for k, v in d.items()}
                  for name, d in multiclass.items()}
    return reference, binary, multiclass


def _weight(case):
    """The case weights, or None for an unweighted data set."""
    w = case.data["weight"]
    return None if np.all(w == 1) else w


def _score(case):
    return case.data["score_" + case.scorer]


def _pred(case):
    return case.data["pred_" + case.scorer]


def _quiet(fn, *args, **kwargs):
    """auklib's call without its small-sample warnings (3 positives; cells of
    fewer than 5 cases in the kappa and MCC intervals)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return fn(*args, **kwargs)


def _auc_interval(case):
    return _quiet(auklib.auc_confidence_interval, case.data["y"], _score(case))


def _delong(case):
    d = case.data
    return _quiet(auklib.delong_test, d["y"], d["score_a"], d["score_b"])


def _counts(y, pred, weight=None):
    """(TP, FN, FP, TN), weighted when ``weight`` is given."""
    w = np.ones(len(y)) if weight is None else weight
    y, pred = y == 1, pred == 1
    return tuple(float(w[m].sum()) for m in (y & pred, y & ~pred, ~y & pred, ~y & ~pred))


def _confusion(y, pred, n_classes):
    c = np.zeros((n_classes, n_classes))
    np.add.at(c, (y, pred), 1)
    return c


# ------------------------------------------------------------ pROC
def _proc(case):
    return case.ref["pROC"][case.scorer]


@_compare("pROC", "auc(roc)", "auc_confidence_interval(y, s).estimate")
def _(case):
    return _proc(case)["auc"], _auc_interval(case).estimate


@_compare("pROC", "auc(roc)", "mww_statistic(y, s)")
def _(case):
    return _proc(case)["auc"], auklib.mww_statistic(case.data["y"], _score(case))


@_compare("pROC", "auc(roc)", "auklib.dask.roc_auc_score(y, s) (dask arrays)")
def _(case):
    import dask.array as da

    from auklib.dask import roc_auc_score

    y, s = case.data["y"], _score(case)
    chunks = max(1, len(y) // 3)  # three chunks: the merge across chunks is exercised
    return _proc(case)["auc"], roc_auc_score(
        da.from_array(y, chunks=chunks), da.from_array(s, chunks=chunks))


@_compare("pROC", 'var(roc, method = "delong")',
          "auc_confidence_interval(y, s).standard_error ** 2")
def _(case):
    return _proc(case)["var_delong"], _auc_interval(case).standard_error ** 2


@_compare("pROC", 'ci.auc(roc, method = "delong")',
          "estimate -+ 1.96 standard_error of auc_confidence_interval, cut to [0, 1]")
def _(case):
    ci = _auc_interval(case)
    z = ndtri(0.975)
    wald = [ci.estimate - z * ci.standard_error, ci.estimate, ci.estimate + z * ci.standard_error]
    return _proc(case)["ci_auc_delong"], np.clip(wald, 0.0, 1.0)


@_compare("pROC", "1 - roc$specificities, roc$sensitivities",
          'kappa_curve(y, s)[0] and metric_curve(y, s, "recall")')
def _(case):
    y, s = case.data["y"], _score(case)
    fpr = auklib.kappa_curve(y, s)[0]
    tpr = np.r_[0.0, auklib.metric_curve(y, s, "recall")[0]]
    ref = _proc(case)
    return ref["roc_fpr"] + ref["roc_tpr"], np.r_[fpr, tpr]


def _roc_test(case, what):
    return case.ref["pROC"]["roc_test_delong_" + what]


@_compare("pROC", 'roc.test(roc_a, roc_b, method = "delong", paired = TRUE)$statistic',
          "delong_test(y, a, b).statistic", kind="pair")
def _(case):
    return _roc_test(case, "statistic"), _delong(case).statistic


@_compare("pROC", 'roc.test(roc_a, roc_b, method = "delong", paired = TRUE)$p.value',
          "delong_test(y, a, b).p_value", kind="pair")
def _(case):
    return _roc_test(case, "p_value"), _delong(case).p_value


@_compare("pROC", 'roc.test(roc_a, roc_b, method = "delong", paired = TRUE)$conf.int',
          "delong_test(y, a, b).low, .high", kind="pair")
def _(case):
    res = _delong(case)
    return _roc_test(case, "conf_int"), [res.low, res.high]


@_compare("pROC", 'roc.test(roc_a, roc_b, method = "delong", paired = TRUE)$estimate: '
          'AUC of a minus AUC of b',
          "delong_test(y, a, b).difference", kind="pair")
def _(case):
    a, b = _roc_test(case, "estimate")
    return a - b, _delong(case).difference


# ------------------------------------------------------------ R's stats
def _mcnemar_pairs(quantity, method, attribute):
    """The pairs of one of R's McNemar values; None without a discordant case."""
    def pairs(case):
        d = case.data
        res = auklib.mcnemar_test(d["y"], d["pred_a"], d["pred_b"], method=method)
        if res.a_only + res.b_only == 0:
            return None  # R returns NaN there: see NOT_COMPARED
        return case.ref["stats"][quantity], getattr(res, attribute)
    return pairs


for _reference, _auklib, _quantity, _method, _attribute in [
    ("mcnemar.test(table, correct = TRUE)$statistic",
     'mcnemar_test(y, d_a, d_b, method="chi2").statistic',
     "mcnemar_test_statistic", "chi2", "statistic"),
    ("mcnemar.test(table, correct = TRUE)$p.value",
     'mcnemar_test(y, d_a, d_b, method="chi2").p_value',
     "mcnemar_test_p_value", "chi2", "p_value"),
    ("binom.test(a_only, a_only + b_only, 0.5)$p.value",
     "mcnemar_test(y, d_a, d_b).p_value (exact)",
     "binom_test_p_value", "exact", "p_value"),
]:
    _compare("stats", _reference, _auklib, kind="pair")(
        _mcnemar_pairs(_quantity, _method, _attribute))


# ------------------------------------------------------------ vcd, psych
def _kappa_interval(case, method="fisher-z"):
    return _quiet(auklib.kappa_confidence_interval, case.data["y"], _pred(case),
                  method=method)


@_compare("vcd", 'Kappa(table)$Unweighted["value"]', "kappa_confidence_interval(y, d).estimate")
def _(case):
    return case.ref["vcd"][case.scorer]["kappa"], _kappa_interval(case).estimate


@_compare("vcd", 'Kappa(table)$Unweighted["ASE"]', "kappa_confidence_interval(y, d).standard_error")
def _(case):
    return case.ref["vcd"][case.scorer]["kappa_ase"], _kappa_interval(case).standard_error


@_compare("psych", "cohen.kappa(table)$kappa", "kappa_from_confusion(TP, FN, FP, TN)")
def _(case):
    return case.ref["psych"][case.scorer]["kappa"], auklib.kappa_from_confusion(
        *_counts(case.data["y"], _pred(case)))


@_compare("psych", "cohen.kappa(table)$var.kappa",
          "kappa_confidence_interval(y, d).standard_error ** 2")
def _(case):
    return case.ref["psych"][case.scorer]["var_kappa"], _kappa_interval(case).standard_error ** 2


@_compare("psych", 'cohen.kappa(table)$confid["unweighted kappa", c("lower", "upper")]',
          'kappa_confidence_interval(y, d, method="wald").low, .high')
def _(case):
    res = _kappa_interval(case, method="wald")    # psych's interval is Wald's
    return case.ref["psych"][case.scorer]["kappa_confid"], [res.low, res.high]


@_compare("psych", "phi(table, digits = 17)", "mcc_confidence_interval(y, d).estimate")
def _(case):
    return case.ref["psych"][case.scorer]["phi"], _quiet(
        auklib.mcc_confidence_interval, case.data["y"], _pred(case)).estimate


# ------------------------------------------------------------ scikit-learn
def _sk(case, what):
    return case.ref["scikit-learn"][case.scorer][what]


@_compare("scikit-learn", "roc_auc_score(y, s)", "auc_confidence_interval(y, s).estimate")
def _(case):
    if _weight(case) is not None:
        return None  # auklib's AUC functions take no case weights
    return _sk(case, "roc_auc_score"), _auc_interval(case).estimate


@_compare("scikit-learn", "roc_curve(y, s, drop_intermediate=False): fpr, thresholds",
          "kappa_curve(y, s): fpr, thresholds")
def _(case):
    fpr, _, thr = auklib.kappa_curve(case.data["y"], _score(case), sample_weight=_weight(case))
    return (_sk(case, "roc_curve_fpr") + _sk(case, "roc_curve_thresholds"),
            np.r_[fpr, thr[1:]])


@_compare("scikit-learn", "roc_curve(y, s, drop_intermediate=False): tpr",
          'metric_curve(y, s, "recall")')
def _(case):
    rec = auklib.metric_curve(case.data["y"], _score(case), "recall",
                              sample_weight=_weight(case))[0]
    return _sk(case, "roc_curve_tpr"), np.r_[0.0, rec]


@_compare("scikit-learn", "precision_recall_curve(y, s): precision, recall",
          'metric_curve(y, s, ["precision", "recall"])')
def _(case):
    v = auklib.metric_curve(case.data["y"], _score(case), ["precision", "recall"],
                            sample_weight=_weight(case))[0]
    return (_sk(case, "precision_recall_curve_precision")
            + _sk(case, "precision_recall_curve_recall"), np.r_[v[:, 0], v[:, 1]])


@_compare("scikit-learn", "average_precision_score(y, s)",
          'sum of (recall step) x precision from metric_curve(y, s, ["precision", "recall"])')
def _(case):
    v = auklib.metric_curve(case.data["y"], _score(case), ["precision", "recall"],
                            sample_weight=_weight(case))[0]
    return _sk(case, "average_precision_score"), float(np.sum(np.diff(v[:, 1], prepend=0.0) * v[:, 0]))


@_compare("scikit-learn", "cohen_kappa_score(y, d)", "kappa_from_confusion(TP, FN, FP, TN)")
def _(case):
    return _sk(case, "cohen_kappa_score"), auklib.kappa_from_confusion(
        *_counts(case.data["y"], _pred(case), _weight(case)))


@_compare("scikit-learn", "matthews_corrcoef(y, d)", "mcc_confidence_interval(y, d).estimate")
def _(case):
    if _weight(case) is not None:
        return None  # mcc_confidence_interval takes no case weights
    return _sk(case, "matthews_corrcoef"), _quiet(
        auklib.mcc_confidence_interval, case.data["y"], _pred(case)).estimate


@_compare("scikit-learn", "cohen_kappa_score(y, s >= t) at every threshold t",
          "kappa_curve(y, s)[1] and metric_curve(y, s, \"kappa\")")
def _(case):
    y, s, w = case.data["y"], _score(case), _weight(case)
    kappa = auklib.kappa_curve(y, s, sample_weight=w)[1][1:]
    ref = _sk(case, "cohen_kappa_score_per_threshold")
    return ref + ref, np.r_[kappa, auklib.metric_curve(y, s, "kappa", sample_weight=w)[0]]


@_compare("scikit-learn", "matthews_corrcoef(y, s >= t) at every threshold t",
          'metric_curve(y, s, "mcc")')
def _(case):
    return _sk(case, "matthews_corrcoef_per_threshold"), auklib.metric_curve(
        case.data["y"], _score(case), "mcc", sample_weight=_weight(case))[0]


# ------------------------------------------------------------ hmeasure
@_compare("hmeasure", "h_score(y, s)", "h_measure(y, s)")
def _(case):
    return case.ref["hmeasure"][case.scorer]["h_score"], auklib.h_measure(
        case.data["y"], _score(case))


@_compare("hmeasure", "h_score(y, s, severity_ratio=1)",
          "h_measure(y, s, severity_ratio=1)")
def _(case):
    return case.ref["hmeasure"][case.scorer]["h_score_severity_1"], auklib.h_measure(
        case.data["y"], _score(case), severity_ratio=1.0)


# ------------------------------------------------------------ multi-class
def _matrix(case):
    d = case.data
    return _confusion(d["y"], d["pred"], d["proba"].shape[1])


@_compare("pROC", 'multiclass.roc(y, P, direction = ">")$auc', "hand_till_score(y, P)",
          kind="multiclass")
def _(case):
    return case.ref["pROC"]["multiclass_auc"], auklib.hand_till_score(
        case.data["y"], case.data["proba"])


@_compare("scikit-learn", 'roc_auc_score(y, P, multi_class="ovo")', "hand_till_score(y, P)",
          kind="multiclass")
def _(case):
    return case.ref["scikit-learn"]["roc_auc_score_ovo"], auklib.hand_till_score(
        case.data["y"], case.data["proba"])


def _weighted_kappas(tool, unweighted, linear, quadratic):
    """The pairs of a tool's kappa, linear and quadratic weighted kappa."""
    def pairs(case):
        ref, c = case.ref[tool], _matrix(case)
        return ([ref[unweighted], ref[linear], ref[quadratic]],
                [auklib.kappa_from_matrix(c, weights=w) for w in (None, "linear", "quadratic")])
    return pairs


for _tool, _reference, _names in [
    ("vcd", 'Kappa(table)$Unweighted["value"]; Kappa(table, weights = '
     '"Equal-Spacing" and "Fleiss-Cohen")$Weighted["value"]',
     ("kappa", "kappa_equal_spacing", "kappa_fleiss_cohen")),
    ("psych", "cohen.kappa(table)$kappa; cohen.kappa(table, w)$weighted.kappa, "
     "w linear and quadratic (the default)",
     ("kappa", "weighted_kappa_linear", "weighted_kappa_quadratic")),
    ("scikit-learn", 'cohen_kappa_score(y, d, weights=None, "linear", "quadratic")',
     ("cohen_kappa_score", "cohen_kappa_score_linear", "cohen_kappa_score_quadratic")),
]:
    _compare(_tool, _reference, 'kappa_from_matrix(C), weights="linear", weights="quadratic"',
             kind="multiclass")(_weighted_kappas(_tool, *_names))


# ------------------------------------------------------------ the table
def cases(comparison, reference, binary, multiclass):
    """The cases on which ``comparison``'s tool has stored values."""
    if comparison.kind == "multiclass":
        for name, data in multiclass.items():
            ref = reference["multiclass"][name]
            if comparison.tool in ref:
                yield Case(name, None, data, ref)
        return
    for name, data in binary.items():
        ref = reference["binary"][name]
        if comparison.tool not in ref:
            continue  # the tool takes no case weights
        for scorer in ("a", "b") if comparison.kind == "scorer" else (None,):
            yield Case(name, scorer, data, ref)


def differences(comparison, reference, binary, multiclass):
    """``[(case, |reference - auklib| per value)]``; NaN in both agrees (0)."""
    out = []
    for case in cases(comparison, reference, binary, multiclass):
        pair = comparison.pairs(case)
        if pair is None:
            continue
        ref = np.asarray([np.nan if v is None else v for v in np.atleast_1d(pair[0])],
                         dtype=float)
        got = np.atleast_1d(np.asarray(pair[1], dtype=float))
        if ref.shape != got.shape:
            out.append((case, np.array([math.inf])))
            continue
        both_nan = np.isnan(ref) & np.isnan(got)
        with np.errstate(invalid="ignore"):
            diff = np.where(both_nan, 0.0, np.abs(ref - got))
        out.append((case, np.where(np.isnan(diff), math.inf, diff)))
    return out


def agreement(directory):
    """One row per comparison: tool, the two calls, the data sets compared on,
    the number of cases and of values, and the largest absolute difference."""
    reference, binary, multiclass = load(directory)
    rows = []
    for comp in COMPARISONS:
        diffs = differences(comp, reference, binary, multiclass)
        values = np.concatenate([d for _, d in diffs]) if diffs else np.array([])
        rows.append({
            "tool": comp.tool,
            "reference": comp.reference,
            "auklib": comp.auklib,
            "data_sets": sorted({case.dataset for case, _ in diffs}),
            "cases": len(diffs),
            "values": int(values.size),
            "max_abs_difference": float(values.max()) if values.size else math.nan,
        })
    return rows
