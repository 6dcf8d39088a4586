"""Coverage of the AUC and AUK intervals and the level of the post-hoc test.

    nice -n 10 python chapters/data/sim_intervals.py auc      # ~1 min: AUC intervals
    nice -n 10 python chapters/data/sim_intervals.py auk      # bootstrap AUK intervals
    nice -n 10 python chapters/data/sim_intervals.py compare  # paired AUK test level
    nice -n 10 python chapters/data/sim_intervals.py posthoc  # aligned-ranks post-hoc

Each part writes ``chapters/data/sim_<part>.json``, which chapter 10 reads
and ``tests/test_sim_intervals.py`` re-checks on a small slice.  Every
coverage or rejection rate is stored with its count of replications, so
that its Monte Carlo standard error sqrt(r (1 - r) / n) can be stated.

AUC intervals: for each design (positives, negatives), population AUC and
score model, ``REPS_AUC`` test sets are drawn; the intervals of
``auklib.auc_confidence_interval`` are computed with its own helpers,
vectorised over the test sets (the placements of all test sets at once).
"""

import argparse
import json
import os
import sys
import time

import numpy as np
from scipy.stats import norm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "chapters", "data")

from auklib.uncertainty import _newcombe_variance, _score_limits  # noqa: E402

AUC_DESIGNS = [(20, 180), (50, 450), (10, 90), (20, 20)]
AUC_VALUES = [0.75, 0.85, 0.9, 0.95, 0.97, 0.99]
AUC_MODELS = ["binormal", "binormal, unequal variances", "exponential"]
AUC_METHODS = ["delong-logit", "newcombe", "score"]
REPS_AUC = 10000


def draw_scores(rng, model, auc, reps, n_pos, n_neg):
    """(positive, negative) score arrays of shape (reps, n) with the given AUC."""
    if model == "binormal":  # N(d, 1) against N(0, 1): AUC = Phi(d / sqrt 2)
        d = np.sqrt(2) * norm.ppf(auc)
        return rng.normal(d, 1, (reps, n_pos)), rng.normal(0, 1, (reps, n_neg))
    if model == "binormal, unequal variances":  # N(d, 2^2) against N(0, 1)
        d = np.sqrt(5) * norm.ppf(auc)
        return rng.normal(d, 2, (reps, n_pos)), rng.normal(0, 1, (reps, n_neg))
    if model == "exponential":  # Exp(rate l) against Exp(1): AUC = 1 / (1 + l)
        rate = 1 / auc - 1
        return (rng.exponential(1 / rate, (reps, n_pos)),
                rng.exponential(1, (reps, n_neg)))
    raise ValueError(f"unknown model {model!r}")


def auc_intervals(pos, neg, z):
    """Estimates and the three methods' limits for each row (test set)."""
    n_pos, n_neg = pos.shape[1], neg.shape[1]
    gap = pos[:, :, None] - neg[:, None, :]
    beats = (gap > 0) + 0.5 * (gap == 0)
    v, w = beats.mean(axis=2), beats.mean(axis=1)
    auc = v.mean(axis=1)
    var = v.var(axis=1, ddof=1) / n_pos + w.var(axis=1, ddof=1) / n_neg
    out = {}
    inside = (auc > 0) & (auc < 1) & (var > 0)
    a = np.where(inside, auc, 0.5)
    half = z * np.sqrt(var) / (a * (1 - a))
    logit = np.log(a / (1 - a))
    out["delong-logit"] = (
        np.where(inside, 1 / (1 + np.exp(-(logit - half))), auc),
        np.where(inside, 1 / (1 + np.exp(-(logit + half))), auc),
    )
    out["newcombe"] = _score_limits(auc, n_pos, n_neg, z)
    v_n = _newcombe_variance(auc, n_pos, n_neg)
    ok = (var > 0) & (v_n > 0)
    scale = np.where(ok, np.maximum(1.0, var / np.where(ok, v_n, 1.0)), 1.0)
    out["score"] = _score_limits(auc, n_pos, n_neg, z, scale)
    return auc, out


def coverage_auc(model, n_pos, n_neg, auc, reps, seed, batch=250):
    rng = np.random.default_rng(seed)
    z = norm.ppf(0.975)
    counts = {m: {"covered": 0, "above": 0, "below": 0} for m in AUC_METHODS}
    width = {m: 0.0 for m in AUC_METHODS}
    for start in range(0, reps, batch):
        rows = min(batch, reps - start)
        pos, neg = draw_scores(rng, model, auc, rows, n_pos, n_neg)
        _, limits = auc_intervals(pos, neg, z)
        for m, (low, high) in limits.items():
            counts[m]["covered"] += int(np.sum((low <= auc) & (auc <= high)))
            counts[m]["above"] += int(np.sum(auc < low))  # interval too high
            counts[m]["below"] += int(np.sum(auc > high))
            width[m] += float(np.sum(high - low))
    return {m: dict(counts[m], mean_width=width[m] / reps) for m in AUC_METHODS}


def run_auc():
    rows = []
    for i, model in enumerate(AUC_MODELS):
        for j, (n_pos, n_neg) in enumerate(AUC_DESIGNS):
            for k, auc in enumerate(AUC_VALUES):
                seed = 1000 * i + 100 * j + k
                res = coverage_auc(model, n_pos, n_neg, auc, REPS_AUC, seed)
                for m, r in res.items():
                    rows.append(dict(model=model, positives=n_pos, negatives=n_neg,
                                     auc=auc, method=m, reps=REPS_AUC, seed=seed, **r))
                print(model, n_pos, n_neg, auc,
                      {m: r["covered"] / REPS_AUC for m, r in res.items()}, flush=True)
    return {"reps": REPS_AUC, "level": 0.95, "rows": rows}


# ----------------------------------------------------------------- AUK intervals
AUK_DESIGNS = [(10, 90), (20, 180), (50, 450)]
AUK_D = 1.5  # equal-variance binormal separation (population AUC 0.856)
REPS_AUK = 3200
RESAMPLES_AUK = 1000


def auk_jackknife(curve, n_pos, n_neg, p):
    """Leave-one-out AUKs of one test set: positives first, then negatives.

    The class share stays at the test set's (the AUK estimated is the one
    at that share), as in the stratified bootstrap.
    """
    all_pos, all_neg = np.arange(n_pos), np.arange(n_neg)
    out = []
    for n, k in ((n_pos, "pos"), (n_neg, "neg")):
        keep = ~np.eye(n, dtype=bool)
        drop = np.broadcast_to(np.arange(n), (n, n))[keep].reshape(n, n - 1)
        if k == "pos":
            pos_d, neg_d = drop, np.broadcast_to(all_neg, (n, n_neg))
        else:
            pos_d, neg_d = np.broadcast_to(all_pos, (n, n_pos)), drop
        out.append(curve.auk(np.ascontiguousarray(pos_d), np.ascontiguousarray(neg_d),
                             None, None, np.full(n, p)))
    return out


def bca_acceleration(jack):
    """Acceleration from the jackknife, per class (Davison & Hinkley 1997, 3.2)."""
    num = den = 0.0
    for theta in jack:
        n = theta.size
        infl = (n - 1) * (theta.mean() - theta)  # empirical influence values
        num += np.sum(infl**3) / n**3
        den += np.sum(infl**2) / n**2
    return num / (6 * den**1.5) if den > 0 else 0.0


def auk_limits(est, reps, jack, z):
    """Percentile, BC and BCa limits from one test set's replicates."""
    from scipy.special import ndtr, ndtri

    m = reps.size
    share = (np.count_nonzero(reps < est) + 0.5 * np.count_nonzero(reps == est)) / m
    z0 = ndtri(min(max(share, 0.5 / m), 1 - 0.5 / m))
    a = bca_acceleration(jack)
    levels = {
        "percentile": (ndtr(-z), ndtr(z)),
        "BC": (ndtr(2 * z0 - z), ndtr(2 * z0 + z)),
        "BCa": tuple(ndtr(z0 + (z0 + q) / (1 - a * (z0 + q))) for q in (-z, z)),
    }
    return {k: np.quantile(reps, lv) for k, lv in levels.items()}


def coverage_auk(n_pos, n_neg, reps, seed):
    from aukbook.plotting import binormal_auk
    from auklib.uncertainty import _Curve, _replicates

    rng = np.random.default_rng(seed)
    p = n_pos / (n_pos + n_neg)
    truth = binormal_auk(AUK_D, p)
    z = norm.ppf(0.975)
    methods = ["percentile", "BC", "BCa"]
    counts = {m: {"covered": 0, "above": 0, "below": 0} for m in methods}
    for r in range(reps):
        pos, neg = rng.normal(AUK_D, 1, n_pos), rng.normal(0, 1, n_neg)
        curve = _Curve(pos, neg)
        est, boot = _replicates([curve], None, None, RESAMPLES_AUK, rng)
        jack = auk_jackknife(curve, n_pos, n_neg, p)
        for m, (low, high) in auk_limits(est[0], boot[0], jack, z).items():
            counts[m]["covered"] += int(low <= truth <= high)
            counts[m]["above"] += int(truth < low)
            counts[m]["below"] += int(truth > high)
    return truth, counts


def run_auk():
    rows = []
    for j, (n_pos, n_neg) in enumerate(AUK_DESIGNS):
        truth, counts = coverage_auk(n_pos, n_neg, REPS_AUK, seed=499 + j)
        for m, c in counts.items():
            rows.append(dict(positives=n_pos, negatives=n_neg, d=AUK_D, truth=truth,
                             method=m, reps=REPS_AUK, seed=499 + j, **c))
        print(n_pos, n_neg, {m: c["covered"] / REPS_AUK for m, c in counts.items()},
              flush=True)
    return {"reps": REPS_AUK, "n_resamples": RESAMPLES_AUK, "level": 0.95,
            "rows": rows}


# ---------------------------------------------------- paired AUK test (auk_compare)
COMPARE_DESIGNS = [(10, 90), (20, 180), (50, 450)]
REPS_COMPARE = 3200
RESAMPLES_COMPARE = 500


def run_compare():
    """Level and power of auk_compare: two noisy views of one latent score.

    a = latent + N(0, 0.5^2); b = latent + N(0, 0.5^2) (null: equal
    population AUKs) or N(0, 1.5^2) (power).  The latent score is binormal
    with d = 1.5, as in chapter 10.
    """
    import warnings

    from auklib import auk_compare

    out = {"reps": REPS_COMPARE, "n_resamples": RESAMPLES_COMPARE, "alpha": 0.05,
           "rows": []}
    for j, (n_pos, n_neg) in enumerate(COMPARE_DESIGNS):
        for noise_b, name in ((0.5, "null"), (1.5, "power")):
            seed = 900 + 10 * j + (noise_b > 1)
            rng = np.random.default_rng(seed)
            hits = 0
            y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                for _ in range(REPS_COMPARE):
                    latent = np.r_[rng.normal(AUK_D, 1, n_pos), rng.normal(0, 1, n_neg)]
                    a = latent + rng.normal(0, 0.5, latent.size)
                    b = latent + rng.normal(0, noise_b, latent.size)
                    res = auk_compare(y, a, b, n_resamples=RESAMPLES_COMPARE,
                                      random_state=rng, method="bootstrap")
                    hits += res.p_value < 0.05
            out["rows"].append(dict(positives=n_pos, negatives=n_neg, case=name,
                                    noise_b=noise_b, seed=seed, rejected=int(hits)))
            print(n_pos, n_neg, name, hits / REPS_COMPARE, flush=True)
    return out


# ----------------------------------------------------------- post-hoc test level
POSTHOC_B, POSTHOC_K = 10, 6
REPS_POSTHOC = 4000


def aligned_raw_p(scores):
    """Unadjusted two-sided P-values of all pairs, from the docstring's formula.

    Written out here (not auklib's private code): aligned values = scores
    minus their row mean, ranked jointly; Var(R_j - R_l) = 2 sum_i S_i / (k-1)
    for the rank totals.
    """
    from scipy.stats import rankdata

    b, k = scores.shape
    ranks = rankdata(scores - scores.mean(axis=1, keepdims=True)).reshape(b, k)
    ss = np.sum((ranks - ranks.mean(axis=1, keepdims=True)) ** 2)
    tot = ranks.sum(axis=0)
    sd = np.sqrt(2 * ss / (k - 1))
    return {(i, j): 2 * norm.sf(abs(tot[i] - tot[j]) / sd)
            for i in range(k) for j in range(i + 1, k)}


def posthoc_table(rng, partial):
    """b x k scores: data-set effects plus classifier noise.

    Complete null: all k classifiers alike (noise sd 0.02).  Partial null:
    classifiers 0-3 precise (sd 0.002) with distinct means 0.80-0.86, and
    classifiers 4 and 5 identical and noisy (mean 0.83, sd 0.05).
    """
    effect = rng.normal(0, 0.05, (POSTHOC_B, 1))
    if not partial:
        return 0.8 + effect + rng.normal(0, 0.02, (POSTHOC_B, POSTHOC_K))
    means = np.array([0.80, 0.82, 0.84, 0.86, 0.83, 0.83])
    sds = np.array([0.002] * 4 + [0.05] * 2)
    return means + effect + sds * rng.normal(size=(POSTHOC_B, POSTHOC_K))


def run_posthoc():
    from auklib import aligned_ranks_posthoc

    out = {"b": POSTHOC_B, "k": POSTHOC_K, "reps": REPS_POSTHOC, "alpha": 0.05}
    cases = (("complete null", False, 71), ("partial null", True, 72))
    for name, partial, seed in cases:
        rng = np.random.default_rng(seed)
        raw_pair = holm_pair = fwer = 0
        for _ in range(REPS_POSTHOC):
            s = posthoc_table(rng, partial)
            raw = aligned_raw_p(s)
            adj = aligned_ranks_posthoc(s).p_adjusted
            pair = (4, 5)  # a pair that is null in both designs
            raw_pair += raw[pair] < 0.05
            holm_pair += adj[pair] < 0.05
            null_pairs = list(raw) if not partial else [pair]
            fwer += any(adj[i, j] < 0.05 for i, j in null_pairs)
        out[name] = {"raw_pair": int(raw_pair), "holm_pair": int(holm_pair),
                     "holm_familywise": int(fwer)}
        print(name, out[name], flush=True)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=["auc", "auk", "compare", "posthoc"])
    args = parser.parse_args(argv)
    t0 = time.time()
    result = {"auc": run_auc, "auk": run_auk, "compare": run_compare,
              "posthoc": run_posthoc}[args.part]()
    result["seconds"] = round(time.time() - t0)
    os.makedirs(DATA, exist_ok=True)
    path = os.path.join(DATA, f"sim_{args.part}.json")
    with open(path, "w") as fh:
        json.dump(result, fh, indent=1)
        fh.write("\n")
    print("wrote", path, "in", result["seconds"], "s")


if __name__ == "__main__":
    sys.exit(main())
