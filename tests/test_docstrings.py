"""The docstrings: every parameter described, and the claims they make hold."""

import inspect
import re

import pytest

from auklib import (
    KappaCurveDisplay,
    auk_bounds,
    auk_from_roc,
    auk_score,
    hand_till_score,
    hand_till_table,
    kappa_curve,
    kappa_from_confusion,
    kappa_from_matrix,
    kappa_from_rates,
    kappa_optimal_point,
    mww_ranked_table,
    mww_statistic,
    roc_convex_hull,
    tpr_from_kappa,
)


def _documented(doc):
    section = doc.split("Parameters\n", 1)[1].split("\n    Returns", 1)[0]
    section = re.split(r"\n\s*(?:Returns|Attributes)\n", section)[0]
    names = set()
    lines = section.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^\s*([\w*, ]+) :", line)
        if m:
            described = i + 1 < len(lines) and lines[i + 1].strip() != ""
            described |= line.rstrip().endswith("\\")
            for nm in m.group(1).split(","):
                names.add((nm.strip().lstrip("*"), described))
    return {n for n, ok in names if ok}

@pytest.mark.parametrize("obj", [
    KappaCurveDisplay, KappaCurveDisplay.plot, KappaCurveDisplay.from_predictions,
    KappaCurveDisplay.from_estimator, KappaCurveDisplay.from_cv_results,
    auk_score, auk_from_roc, auk_bounds, kappa_curve, kappa_optimal_point, roc_convex_hull,
    kappa_from_confusion, kappa_from_rates, tpr_from_kappa, kappa_from_matrix,
    hand_till_score, hand_till_table, mww_statistic, mww_ranked_table,
], ids=lambda o: o.__qualname__)
def test_every_parameter_is_described(obj):
    sig = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
    params = [p for p in sig.parameters if p not in ("self", "cls")]
    documented = _documented(inspect.getdoc(obj) if not inspect.isclass(obj)
                             else "    " + obj.__doc__.replace("\n", "\n    "))
    missing = [p for p in params if p not in documented]
    assert not missing, missing

@pytest.mark.parametrize("func", [auk_score, auk_from_roc])
def test_docstring_claims(func):
    doc = inspect.getdoc(func)
    assert "no:" not in doc
    assert "-1/2 and 1/2" not in doc
    assert "small amount" not in doc
    assert "comparison with other tools" in " ".join(doc.split())
