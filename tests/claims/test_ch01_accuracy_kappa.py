"""Chapter 1's general claims, each checked over random tables (a random search
for a counterexample).  One test per claim; the names say the claim."""

import numpy as np

from auklib import kappa_from_confusion

RNG_SEED = 20261123


def random_tables(rng, size):
    """Confusion matrices as shares (TP, FN, FP, TN), Dirichlet(1, 1, 1, 1)."""
    return rng.dirichlet(np.ones(4), size=size).T


def test_ch01_move_tn_to_tp_raises_kappa_iff_p_plus_p_hat_plus_eps_below_1():
    rng = np.random.default_rng(RNG_SEED)
    tp, fn, fp, tn = random_tables(rng, 200_000)
    eps = rng.random(tp.size) * tn  # a move that leaves TN >= 0
    before = kappa_from_confusion(tp, fn, fp, tn)
    after = kappa_from_confusion(tp + eps, fn, fp, tn - eps)
    p, p_hat = tp + fn, tp + fp
    condition = p + p_hat + eps - 1
    clear = np.abs(condition) > 1e-9  # leave out the exact ties
    rises = after - before > 0
    assert np.array_equal(rises[clear], condition[clear] < 0)
    assert rises.any() and (~rises).any()  # both sides of the condition occur


def test_ch01_kappa_at_fixed_errors_peaks_at_p_star():
    rng = np.random.default_rng(RNG_SEED + 1)
    for _ in range(100):
        fn, fp = rng.random(2) * 0.2
        shares = np.linspace(fn, 1 - fp, 100_001)[1:-1]
        kappa = kappa_from_confusion(shares - fn, fn, fp, 1 - shares - fp)
        peak = shares[np.argmax(kappa)]
        assert abs(peak - (1 - fp + fn) / 2) < 2e-5


def test_ch01_kappa_lower_bound_is_minus_one_only_for_balanced_classes():
    rng = np.random.default_rng(RNG_SEED + 2)
    tp, fn, fp, tn = random_tables(rng, 200_000)
    p = tp + fn
    n = 1 - p
    bound = -2 * p * n / (p**2 + n**2)  # the perfectly wrong classifier
    assert np.all(kappa_from_confusion(tp, fn, fp, tn) >= bound - 1e-12)
    # the bound is reached by TP = TN = 0 and is -1 only at p = 1/2
    assert np.allclose(kappa_from_confusion(0 * p, p, n, 0 * p), bound)
    off = np.abs(p - 0.5) > 1e-6
    assert np.all(bound[off] > -1)


def test_ch01_only_the_majority_rule_reaches_the_majority_share():
    rng = np.random.default_rng(RNG_SEED + 3)
    p = rng.random(100_000) * 0.5  # positives in the minority
    q = rng.random(p.size)  # alarm rate of a random classifier
    n = 1 - p
    expected_accuracy = p * q + n * (1 - q)
    keep = (q > 1e-9) & (n - p > 1e-9)
    assert np.all(expected_accuracy[keep] < n[keep])
    assert np.allclose(p * 0 + n * 1, n)  # q = 0 is the majority rule


def test_ch01_random_alarms_have_kappa_zero_for_every_rate():
    rng = np.random.default_rng(RNG_SEED + 4)
    p, q = rng.random((2, 100_000)) * 0.998 + 0.001
    n = 1 - p
    kappa = kappa_from_confusion(p * q, p * (1 - q), n * q, n * (1 - q))
    assert np.max(np.abs(kappa)) < 1e-12


def test_ch01_perfect_classifier_has_kappa_one_for_every_p():
    p = np.random.default_rng(RNG_SEED + 5).random(100_000) * 0.998 + 0.001
    kappa = kappa_from_confusion(p, 0 * p, 0 * p, 1 - p)
    assert np.max(np.abs(kappa - 1)) < 1e-12


def test_ch01_kappa_from_counts_is_unchanged_by_scaling_the_table():
    rng = np.random.default_rng(RNG_SEED + 6)
    counts = rng.integers(0, 1000, size=(4, 50_000)).astype(float)
    counts[:, counts.sum(axis=0) == 0] = 1
    scale = rng.random(counts.shape[1]) * 100 + 0.01
    tp, fn, fp, tn = counts
    den = (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa_counts = 2 * (tp * tn - fn * fp) / den
    defined = np.isfinite(kappa_counts)
    shares = counts / counts.sum(axis=0)
    assert np.allclose(kappa_counts[defined], kappa_from_confusion(*shares)[defined])
    scaled = kappa_from_confusion(*(counts * scale))
    assert np.allclose(scaled[defined], kappa_counts[defined])
