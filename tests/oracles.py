"""Slow, obviously-correct reference implementations used only by the tests."""

import mpmath as mp
import numpy as np


def make_scores(n, p, seed, n_levels=None):
    """Binary labels (both classes present) and binormal scores, optionally
    rounded to ``n_levels`` steps per unit (ties)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < p).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + 1.2 * y
    if n_levels is not None:
        s = np.round(s * n_levels) / n_levels
    return y, s


def unit_shift_scores(n, p, seed, decimals=None):
    """Binary labels (both classes present) and scores N(0, 1) + label, optionally
    rounded to ``decimals`` places (ties)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < p).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + y
    return y, (s if decimals is None else np.round(s, decimals))


def labels_from_counts(tp, fn, fp, tn):
    """Label vectors whose confusion matrix is (tp, fn, fp, tn) in counts."""
    counts = [int(round(v)) for v in (tp, fn, fp, tn)]
    return np.repeat([1, 1, 0, 0], counts), np.repeat([1, 0, 1, 0], counts)


def brute_force_kappa_curve(y, s, w=None):
    """O(n^2): for each threshold, classify every sample and apply eqs. (11)-(12)."""
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    total = w.sum()
    p = w[y].sum() / total
    n = 1 - p
    fpr, kap = [0.0], [0.0]
    for thr in sorted(set(s.tolist()), reverse=True):
        pred = s >= thr
        tp = w[pred & y].sum() / total
        fp = w[pred & ~y].sum() / total
        tn = w[~pred & ~y].sum() / total
        p_hat = tp + fp
        pc = p * p_hat + n * (1 - p_hat)
        kap.append((tp + tn - pc) / (1 - pc))
        fpr.append(fp / n)
    return np.array(fpr), np.array(kap)


def brute_force_auk(y, s, w=None):
    fpr, kap = brute_force_kappa_curve(y, s, w)
    return float(sum((fpr[i + 1] - fpr[i]) * (kap[i + 1] + kap[i]) / 2 for i in range(len(fpr) - 1)))


def mp_exact_auk(fpr, tpr, p, dps=40):
    """Integral of eq. (19) along the straight ROC segments, by mpmath quadrature."""
    with mp.workdps(dps):
        p = mp.mpf(p)
        n = 1 - p
        q = 1 - 2 * p
        total = mp.mpf(0)
        for i in range(len(fpr) - 1):
            f0, f1 = mp.mpf(fpr[i]), mp.mpf(fpr[i + 1])
            t0, t1 = mp.mpf(tpr[i]), mp.mpf(tpr[i + 1])
            if f1 == f0:
                continue

            def kappa(f, f0=f0, f1=f1, t0=t0, t1=t1):
                t = t0 + (t1 - t0) * (f - f0) / (f1 - f0)
                return 2 * p * n * (t - f) / (p + q * f + p * q * (t - f))

            total += mp.quad(kappa, [f0, f1])
        return total
