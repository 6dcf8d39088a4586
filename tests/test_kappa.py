import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from oracles import labels_from_counts
from auklib import (
    UndefinedMetricWarning,
    kappa_from_confusion,
    kappa_from_rates,
    tpr_from_kappa,
)

# The paper's Tables 1-3 as fractions (TP, FN, FP, TN) and its stated kappas.
PAPER_TABLES = {
    "A": ((0.05, 0.02, 0.03, 0.90), 0.640),
    "B": ((0.04, 0.02, 0.03, 0.91), 0.589),
    "C": ((0.06, 0.02, 0.03, 0.89), 0.679),
}


@pytest.mark.parametrize("name", sorted(PAPER_TABLES))
def test_paper_tables(name):
    cells, stated = PAPER_TABLES[name]
    kappa = kappa_from_confusion(*cells)
    assert abs(kappa - stated) < 5e-4
    counts = [round(c * 100) for c in cells]
    y_true, y_pred = labels_from_counts(*counts)
    assert kappa == pytest.approx(cohen_kappa_score(y_true, y_pred), abs=1e-12)
    # counts and fractions give the same kappa
    assert kappa_from_confusion(*counts) == pytest.approx(kappa, abs=1e-12)


def test_matches_eq_11_12_definition():
    rng = np.random.default_rng(0)
    cells = rng.integers(0, 50, size=(4, 200)) + 1
    tp, fn, fp, tn = (c.astype(float) for c in cells)
    total = tp + fn + fp + tn
    tp, fn, fp, tn = tp / total, fn / total, fp / total, tn / total
    a = tp + tn
    p, n = tp + fn, fp + tn
    p_hat, n_hat = tp + fp, fn + tn
    pc = p * p_hat + n * n_hat
    np.testing.assert_allclose(kappa_from_confusion(tp, fn, fp, tn), (a - pc) / (1 - pc), rtol=1e-12, atol=1e-15)


def test_matches_sklearn_on_random_tables():
    rng = np.random.default_rng(1)
    for _ in range(50):
        counts = rng.integers(0, 30, size=4)
        if counts.sum() == 0:
            continue
        y_true, y_pred = labels_from_counts(*counts)
        if len(np.unique(y_true)) < 2 or len(np.unique(y_pred)) < 2:
            continue
        assert kappa_from_confusion(*counts) == pytest.approx(
            cohen_kappa_score(y_true, y_pred), abs=1e-12
        )


def test_broadcasting_and_integer_overflow():
    out = kappa_from_confusion(np.array([5, 4]), 2, 3, np.array([[90], [91]]))
    assert out.shape == (2, 2)
    big = np.int32(2_000_000_000)  # products overflow int32 and int64 squares
    k = kappa_from_confusion(big, big // 10, big // 10, big)
    assert k == pytest.approx(kappa_from_confusion(10, 1, 1, 10), rel=1e-12)


def test_rates_agree_with_counts():
    rng = np.random.default_rng(2)
    t, f, p = rng.random(500), rng.random(500), rng.uniform(0.01, 0.99, 500)
    tp, fn = p * t, p * (1 - t)
    fp, tn = (1 - p) * f, (1 - p) * (1 - f)
    np.testing.assert_allclose(
        kappa_from_rates(tpr=t, fpr=f, prevalence=p), kappa_from_confusion(tp, fn, fp, tn), rtol=1e-10, atol=1e-14
    )


def test_eq_20_balanced():
    t, f = np.linspace(0, 1, 11), np.linspace(1, 0, 11)
    np.testing.assert_allclose(kappa_from_rates(tpr=t, fpr=f, prevalence=0.5), t - f, atol=1e-15)


def test_tpr_from_kappa_inverts():
    rng = np.random.default_rng(3)
    t, f, p = rng.random(300), rng.random(300), rng.uniform(0.001, 0.999, 300)
    k = kappa_from_rates(tpr=t, fpr=f, prevalence=p)
    np.testing.assert_allclose(tpr_from_kappa(k, f, p), t, atol=1e-10)


def test_scalar_in_scalar_out():
    assert isinstance(kappa_from_confusion(1, 2, 3, 4), float)
    assert isinstance(kappa_from_rates(tpr=0.5, fpr=0.2, prevalence=0.3), float)
    assert isinstance(tpr_from_kappa(0.2, 0.2, 0.3), float)


def test_undefined_kappa_warns_nan():
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        assert np.isnan(kappa_from_confusion(10, 0, 0, 0))


@pytest.mark.parametrize(
    "args, exc, match",
    [
        ((-1, 2, 3, 4), ValueError, "negative"),
        ((0, 0, 0, 0), ValueError, "sums to zero"),
        ((np.nan, 2, 3, 4), ValueError, "NaN"),
        (("a", 2, 3, 4), TypeError, "tp must be a number"),
        (([1, 2], [1, 2, 3], 1, 1), ValueError, "broadcast"),
    ],
)
def test_confusion_bad_input(args, exc, match):
    with pytest.raises(exc, match=match):
        kappa_from_confusion(*args)


@pytest.mark.parametrize(
    "func, args, exc, match",
    [
        (kappa_from_rates, (0.5, 0.2, 0.0), ValueError, "prevalence"),
        (kappa_from_rates, (0.5, 0.2, 1.0), ValueError, "prevalence"),
        (kappa_from_rates, (0.5, 0.2, "x"), TypeError, "prevalence"),
        (kappa_from_rates, (1.5, 0.2, 0.3), ValueError, "tpr must lie in"),
        (kappa_from_rates, (0.5, -0.1, 0.3), ValueError, "fpr must lie in"),
        (kappa_from_rates, (np.nan, 0.1, 0.3), ValueError, "tpr contains NaN"),
        (tpr_from_kappa, (1.5, 0.2, 0.3), ValueError, "kappa must lie"),
        (tpr_from_kappa, (0.5, 0.2, 2.0), ValueError, "prevalence"),
    ],
)
def test_rates_bad_input(func, args, exc, match):
    with pytest.raises(exc, match=match):
        if func is kappa_from_rates:  # keyword-only
            func(**dict(zip(("tpr", "fpr", "prevalence"), args)))
        else:
            func(*args)


# ---------------------------------------------------------------- c x c matrices
from sklearn.metrics import confusion_matrix  # noqa: E402

from auklib import kappa_from_matrix  # noqa: E402


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_matrix_kappa_matches_sklearn(weights):
    rng = np.random.default_rng(4)
    for c in (2, 3, 5):
        y_true = rng.integers(0, c, 300)
        y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, c, 300))
        cm = confusion_matrix(y_true, y_pred, labels=range(c))
        assert kappa_from_matrix(cm, weights=weights) == pytest.approx(
            cohen_kappa_score(y_true, y_pred, weights=weights), abs=1e-12
        )


def test_matrix_kappa_two_classes_equals_binary():
    assert kappa_from_matrix([[5, 2], [3, 90]]) == pytest.approx(kappa_from_confusion(5, 2, 3, 90))


@pytest.mark.parametrize(
    "arg, kwargs, exc, match",
    [
        ([[1, 2, 3]], {}, ValueError, "square"),
        ([[1]], {}, ValueError, "square"),
        ([[1, -1], [0, 2]], {}, ValueError, "non-negative"),
        ([[0, 0], [0, 0]], {}, ValueError, "sums to zero"),
        ([["a", "b"], ["c", "d"]], {}, TypeError, "numeric"),
        ([[1, 2], [3, 4]], {"weights": "cubic"}, ValueError, "weights='cubic'"),
    ],
)
def test_matrix_kappa_bad_input(arg, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        kappa_from_matrix(arg, **kwargs)


def test_matrix_kappa_single_class_nan():
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(kappa_from_matrix([[5, 0], [0, 0]]))
