"""Each computation has one implementation: one-class input, kappa and the trapezoid
rule each go through a single private helper that every public function calls."""

import sys

import pytest

import auklib
from auklib import (
    auc_confidence_interval,
    auk_confidence_interval,
    auk_from_roc,
    auk_score,
    h_measure,
    kappa_curve,
    kappa_from_confusion,
    kappa_from_rates,
    metric_curve,
)


Y = [0, 1, 0, 1]

S = [0.1, 0.2, 0.3, 0.4]

# -- one implementation of each: single class, kappa kernel, trapezoid -------------
def _spy_on(monkeypatch, name):
    """Wrap the private helper ``name`` in every auklib module that binds it."""
    calls = []
    modules = [m for key, m in sys.modules.items()
               if key.startswith("auklib") and m is not None and hasattr(m, name)]
    assert modules, f"no auklib module defines {name}"
    original = getattr(sys.modules["auklib._validation" if name.startswith("_one")
                                   else "auklib.kappa" if name == "_kappa_pn"
                                   else "auklib.curves"], name)

    def spy(*args, **kwargs):
        calls.append(name)
        return original(*args, **kwargs)

    for m in modules:
        if getattr(m, name) is original:
            monkeypatch.setattr(m, name, spy)
    return calls

ONE_CLASS = {
    "kappa_curve": lambda y: kappa_curve(y, S),
    "auk_score": lambda y: auk_score(y, S),
    "metric_curve": lambda y: metric_curve(y, S, "kappa"),
    "h_measure": lambda y: h_measure(y, S),
    "auk_confidence_interval": lambda y: auk_confidence_interval(y, S, n_resamples=5),
    "auc_confidence_interval": lambda y: auc_confidence_interval(y, S),
}

@pytest.mark.parametrize("caller", sorted(ONE_CLASS))
def test_single_class_is_handled_by_the_one_helper(monkeypatch, caller):
    calls = _spy_on(monkeypatch, "_one_class_undefined")
    with pytest.warns(auklib.UndefinedMetricWarning,
                      match=rf"Only one class .*no positive samples.*; {caller} returns NaN"):
        ONE_CLASS[caller]([0, 0, 0, 0])
    assert calls  # the shared helper decided

KAPPAS = {
    "kappa_from_confusion": lambda: kappa_from_confusion(5, 2, 3, 90),
    "kappa_from_rates": lambda: kappa_from_rates(tpr=0.7, fpr=0.1, prevalence=0.3),
    "kappa_curve": lambda: kappa_curve(Y, S),
    "metric_curve": lambda: metric_curve(Y, S, "kappa"),
    "auk_score-trapezoid": lambda: auk_score(Y, S, method="trapezoid"),
    "auk_from_roc-trapezoid": lambda: auk_from_roc([0, 0.2, 1], [0, 0.7, 1], 0.3,
                                                   method="trapezoid"),
    "kappa_confidence_interval": lambda: auklib.kappa_confidence_interval(
        [1] * 20 + [0] * 80, [1] * 15 + [0] * 15 + [1] * 10 + [0] * 60),
}

@pytest.mark.parametrize("caller", sorted(KAPPAS))
def test_every_kappa_goes_through_the_one_kernel(monkeypatch, caller):
    calls = _spy_on(monkeypatch, "_kappa_pn")
    KAPPAS[caller]()
    assert calls

@pytest.mark.parametrize("method_of", ["auk_score", "auk_from_roc"])
def test_every_trapezoid_rule_is_the_one_helper(monkeypatch, method_of):
    calls = _spy_on(monkeypatch, "_trapezoid_sum")
    if method_of == "auk_score":
        value = auk_score([0, 0, 0, 1], [0.1, 0.4, 0.35, 0.8], method="trapezoid")
        assert value == pytest.approx(0.4)
    else:
        value = auk_from_roc([0, 0.2, 1], [0, 0.7, 1], 0.1, method="trapezoid")
        assert value == pytest.approx(0.15)
    assert calls
