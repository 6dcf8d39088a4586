"""Coverage of the AUK's analytic interval and size of its paired test, by simulation.

    nice -n 10 python chapters/data/sim_auk_analytic.py              # writes chapters/data/
    nice -n 10 python chapters/data/sim_auk_analytic.py --bootstrap  # also the bootstrap

For each setting, ``reps`` test sets are drawn from a population whose AUK is
known (from the population itself: numerical integration along a fine
binormal ROC, or the exact AUK of the population's level probabilities for
tied and crisp scores; never from a sample), the 95% interval of
``auk_confidence_interval(..., method="analytic")`` is built on each, and
the share of intervals that contain the population AUK is counted.  With
2,000 replications the Monte Carlo standard error of a coverage near 0.95
is sqrt(0.95 x 0.05 / 2000) = 0.0049.  The paired test of
``auk_compare(..., method="analytic")`` is run on two identically
distributed classifiers (one latent score plus independent noise of the
same size), where its rejection rate at 5% is its size.

The test sets of a setting are drawn at once (2-D arrays); the intervals
are computed one test set at a time (each call is O(n log n)).  The
results go to ``chapters/data/auk_analytic_coverage.json``, which chapter 10
reads; ``tests/test_auk_variance.py`` re-runs a small slice and checks that
it agrees with the stored table within Monte Carlo error.
"""

import argparse
import json
import math
import os
import time
import warnings
from pathlib import Path

import numpy as np
from scipy.stats import norm

from auklib import auk_compare, auk_confidence_interval, auk_from_roc

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "chapters" / "data" / "auk_analytic_coverage.json"
LEVEL = 0.95


def _roc_auk(sf_neg, sf_pos, lo, hi, p, m=40001):
    """Population AUK: exact integral along the ROC through m thresholds."""
    c = np.linspace(hi, lo, m)
    f = np.concatenate(([0.0], sf_neg(c), [1.0]))
    t = np.concatenate(([0.0], sf_pos(c), [1.0]))
    return auk_from_roc(f, t, p)


def _bimodal_sf(c):
    return 0.5 * norm.sf(c, -1.0, 0.5) + 0.5 * norm.sf(c, 1.0, 0.5)


def _bimodal_draw(rng, shape):
    mode = rng.random(shape) < 0.5
    return np.where(mode, -1.0, 1.0) + 0.5 * rng.standard_normal(shape)


# Each setting: name, N+, N-, positive and negative score draws, population AUK.
def settings():
    def binormal(name, n_pos, n_neg, d=1.5, sigma=1.0):
        p = n_pos / (n_pos + n_neg)
        truth = _roc_auk(norm.sf, lambda c: norm.sf(c, d, sigma),
                         min(-9, d - 9 * sigma), max(9, d + 9 * sigma), p)
        return dict(
            name=name, n_pos=n_pos, n_neg=n_neg, truth=truth,
            draw_pos=lambda rng, s: rng.normal(d, sigma, s),
            draw_neg=lambda rng, s: rng.normal(0.0, 1.0, s),
        )

    out = [
        binormal("binormal, equal variances", 50, 450),
        binormal("binormal, unequal variances (sd+ = 2)", 50, 450, sigma=2.0),
    ]
    # bimodal negatives, positives N(2, 1)
    p = 50 / 500
    out.append(dict(
        name="bimodal negatives", n_pos=50, n_neg=450,
        truth=_roc_auk(_bimodal_sf, lambda c: norm.sf(c, 2.0, 1.0), -9, 11, p),
        draw_pos=lambda rng, s: rng.normal(2.0, 1.0, s), draw_neg=_bimodal_draw,
    ))
    # ties: binormal scores rounded to the nearest 0.5 (about 10 levels);
    # the population ROC is the polygon through the levels' exact shares
    cuts = np.arange(6.25, -4.0, -0.5)  # level v holds scores in [v - .25, v + .25)
    p = 50 / 500
    out.append(dict(
        name="ties (scores rounded to 0.5)", n_pos=50, n_neg=450,
        truth=auk_from_roc(np.r_[0.0, norm.sf(cuts), 1.0],
                           np.r_[0.0, norm.sf(cuts - 1.5), 1.0], p),
        draw_pos=lambda rng, s: np.round(rng.normal(1.5, 1.0, s) * 2) / 2,
        draw_neg=lambda rng, s: np.round(rng.normal(0.0, 1.0, s) * 2) / 2,
    ))
    # crisp: a hard classifier with TPR 0.8 and FPR 0.2
    out.append(dict(
        name="crisp scores (TPR 0.8, FPR 0.2)", n_pos=50, n_neg=450,
        truth=auk_from_roc([0.0, 0.2, 1.0], [0.0, 0.8, 1.0], p),
        draw_pos=lambda rng, s: (rng.random(s) < 0.8).astype(float),
        draw_neg=lambda rng, s: (rng.random(s) < 0.2).astype(float),
    ))
    out += [
        binormal("p = 0.5, N = 60", 30, 30),
        binormal("p = 0.02, N = 5000", 100, 4900),
        binormal("10 positives (p = 0.1)", 10, 90),
        binormal("20 positives (p = 0.1)", 20, 180),
    ]
    return out


def coverage(setting, reps, seed, method="analytic", n_resamples=1000):
    """Coverage, mean width, mean SE and SD of the estimates over reps test sets."""
    rng = np.random.default_rng(seed)
    n_pos, n_neg, truth = setting["n_pos"], setting["n_neg"], setting["truth"]
    pos = setting["draw_pos"](rng, (reps, n_pos))
    neg = setting["draw_neg"](rng, (reps, n_neg))
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    lows, highs, ests, ses = (np.empty(reps) for _ in range(4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the few-cases warning of the bootstrap
        for r in range(reps):
            ci = auk_confidence_interval(
                y, np.r_[pos[r], neg[r]], confidence_level=LEVEL, method=method,
                n_resamples=n_resamples, random_state=r,
            )
            ests[r], lows[r], highs[r], ses[r] = ci
    hit = (lows <= truth) & (truth <= highs)
    cov = float(hit.mean())
    # the plain Wald interval estimate +- z SE, for comparison
    wald = float(np.mean(np.abs(ests - truth) <= norm.ppf(0.5 + LEVEL / 2) * ses))
    return dict(
        setting=setting["name"], method=method, n_pos=n_pos, n_neg=n_neg,
        auk=float(truth), reps=reps, coverage=cov,
        mc_se=math.sqrt(cov * (1 - cov) / reps),
        below=float(np.mean(highs < truth)), above=float(np.mean(lows > truth)),
        mean_width=float(np.mean(highs - lows)), mean_se=float(np.mean(ses)),
        sd_estimate=float(np.std(ests, ddof=1)),
        bias=float(np.mean(ests) - truth), wald_coverage=wald,
    )


def paired_size(n_pos, n_neg, reps, seed, noise=0.7, d=1.5):
    """Rejection rate at 5% of the analytic paired test under the null."""
    rng = np.random.default_rng(seed)
    latent = np.concatenate(
        (rng.normal(d, 1.0, (reps, n_pos)), rng.normal(0.0, 1.0, (reps, n_neg))), axis=1
    )
    a = latent + rng.normal(0.0, noise, latent.shape)
    b = latent + rng.normal(0.0, noise, latent.shape)
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the few-cases warning
        pv = np.array([
            auk_compare(y, a[r], b[r], method="analytic").p_value for r in range(reps)
        ])
    rate = float(np.mean(pv < 0.05))
    return dict(n_pos=n_pos, n_neg=n_neg, reps=reps, size=rate, noise=noise,
                correlation=1.0 / (1.0 + noise**2), mc_se=math.sqrt(0.05 * 0.95 / reps))


NOISES = (0.25, 0.5, 0.7, 1.0, 2.0)


def paired_by_noise(reps):
    """The paired test's size as the two classifiers' correlation changes.

    Within a class the latent score has variance 1, so the two classifiers'
    scores correlate 1 / (1 + noise^2) within each class.
    """
    return [paired_size(n_pos, n_neg, reps, seed=3000 + 10 * j + k, noise=noise)
            for j, (n_pos, n_neg) in enumerate(((10, 90), (50, 450)))
            for k, noise in enumerate(NOISES)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--bootstrap", action="store_true",
                        help="also the bootstrap BC interval (1,000 resamples)")
    parser.add_argument("--boot-reps", type=int, default=2000)
    parser.add_argument("--paired-noise-only", action="store_true",
                        help="only (re)compute the paired test's size by noise level "
                             "and store it beside the existing results")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if args.paired_noise_only:
        stored = json.loads(OUT.read_text())
        stored["paired_by_noise"] = paired_by_noise(args.reps)
        for row in stored["paired_by_noise"]:
            print(f"N+ = {row['n_pos']:3d} noise {row['noise']:.2f} "
                  f"(r = {row['correlation']:.2f}): {row['size']:.4f}", flush=True)
        OUT.write_text(json.dumps(stored, indent=1) + "\n")
        print(f"wrote {OUT}")
        return
    rows, boot, paired = [], [], []
    for i, s in enumerate(settings()):
        t0 = time.perf_counter()
        rows.append(coverage(s, args.reps, seed=1000 + i))
        print(f"{s['name']:40s} {rows[-1]['coverage']:.4f} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
        if args.bootstrap:
            t0 = time.perf_counter()
            boot.append(coverage(s, args.boot_reps, seed=1000 + i, method="bootstrap"))
            print(f"{'  bootstrap':40s} {boot[-1]['coverage']:.4f} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    for j, (n_pos, n_neg) in enumerate(((10, 90), (20, 180), (50, 450), (100, 4900))):
        paired.append(paired_size(n_pos, n_neg, args.reps, seed=2000 + j))
        print(f"paired size N+ = {n_pos}: {paired[-1]['size']:.4f}", flush=True)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(
        dict(confidence_level=LEVEL, analytic=rows, bootstrap=boot, paired_null=paired),
        indent=1,
    ) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
