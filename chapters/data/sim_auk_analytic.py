"""Coverage of the AUK's intervals and level of its paired tests, by simulation.

    nice -n 10 python chapters/data/sim_auk_analytic.py coverage   # ~1-2 h CPU
    nice -n 10 python chapters/data/sim_auk_analytic.py paired     # ~30 min CPU
    nice -n 10 python chapters/data/sim_auk_analytic.py            # both

Resumable: every finished setting is written to
``chapters/data/auk_interval_coverage.json`` at once, and a re-run computes
only the settings missing from it (``--fresh`` starts over).  Chapter 9
reads the table; ``tests/test_auk_variance.py`` re-runs a small slice of it
and checks that the slice agrees within Monte Carlo error.

**Coverage.**  For each setting (score model, N+ positive and N- negative
cases, population AUC, ties) test sets are drawn from a population whose
AUK is known from the population itself, never from a sample: the exact
AUK of the polygon through 40,001 points of the population's ROC curve
(binormal, exponential), or of the population's level shares (tied and
crisp scores), or the upper bound ``auk_bounds(p)[1]`` (a population
ranked perfectly).  On each test set the public
``auk_confidence_interval`` builds the 95% interval of each method, and
the script counts the intervals that contain the population AUK, lie
above it, lie below it, and have no width (``low == high``).  Test sets
are added 2,500 at a time until every method's coverage ``c`` has a Monte
Carlo standard error ``sqrt(c (1 - c) / R)`` of at most 0.005 (at most
12,500 test sets; all settings reached it).  The bootstrap methods (BC and
BCa, 1,000 replicates) are run on a subset of the settings.

**Paired tests.**  Two classifiers are two noisy views of one latent
binormal score, ``latent + N(0, s^2)`` each with the same s (their
population AUKs are equal: the null) or the second noisier (power).  The
latent separation is set so that each view's population AUC is 0.85, 0.95
or 0.99; within a class the two views correlate ``1 / (1 + s^2)``.  The
rejection rate of ``auk_compare``'s 5% test is counted over 2,000 test
sets (Monte Carlo standard error 0.0049 at a rate of 0.05), with and
without ties (views rounded to a grid of 0.5 latent standard deviations).
"""

import argparse
import json
import math
import os
import time
import warnings
import zlib
from pathlib import Path

import numpy as np
from scipy.stats import norm

from auklib import auk_bounds, auk_compare, auk_confidence_interval, auk_from_roc

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "chapters" / "data" / "auk_interval_coverage.json"
LEVEL = 0.95
BATCH = 2500
MAX_REPS = 12500
TARGET_MCSE = 0.005
RESAMPLES = 1000
ANALYTIC = ("score", "analytic")
BOOTSTRAP = ("bootstrap", "bca")

BINORMAL_DESIGNS = [(10, 490), (20, 980), (100, 4900),  # p = 0.02
                    (10, 90), (20, 180), (50, 450), (200, 1800),  # p = 0.1
                    (10, 10), (20, 20), (50, 50), (200, 200)]  # p = 0.5
AUCS = [0.75, 0.85, 0.9, 0.95, 0.98, 0.99]
OTHER_DESIGNS = [(10, 90), (20, 180), (20, 20), (100, 4900)]
OTHER_AUCS = [0.75, 0.9, 0.99]
TIE_DESIGNS = [(20, 180), (50, 450), (20, 20)]
TIE_AUCS = [0.85, 0.95, 0.99]
BOOT_ROWS = {("binormal", 10, 90, 0.85), ("binormal", 10, 90, 0.99),
             ("binormal", 20, 180, 0.85), ("binormal", 20, 180, 0.95),
             ("binormal", 20, 180, 0.99), ("binormal", 20, 20, 0.85),
             ("binormal", 20, 20, 0.99), ("binormal", 50, 450, 0.85),
             ("binormal", 50, 450, 0.99)}


# ------------------------------------------------------------------ populations
def _roc_auk(sf_neg, sf_pos, hi, lo, p, m=40001):
    """Population AUK: exact integral along the ROC through m thresholds."""
    c = np.linspace(hi, lo, m)
    return auk_from_roc(np.r_[0.0, sf_neg(c), 1.0], np.r_[0.0, sf_pos(c), 1.0], p)


def population(model, auc, p, step=None):
    """(draw_pos, draw_neg, population AUK) of a score model at a population AUC.

    ``binormal``: N(d, 1) against N(0, 1), AUC = Phi(d / sqrt 2);
    ``unequal variances``: N(d, 2^2) against N(0, 1), AUC = Phi(d / sqrt 5);
    ``exponential``: Exp(rate l) against Exp(1), AUC = 1 / (1 + l), the
    ROC curve t = f^l; ``perfect``: U(1, 2) against U(0, 1).  With ``step``
    the binormal scores are rounded to multiples of step, and the population
    is the one of the rounded scores (its AUK from the levels' exact shares).
    """
    if model == "perfect":
        return ((lambda rng, s: 1.0 + rng.random(s)), (lambda rng, s: rng.random(s)),
                auk_bounds(p)[1])
    if model == "exponential":
        lam = 1.0 / auc - 1.0
        lf = np.linspace(-80.0, 0.0, 40001)  # log f, up to f = t = 1
        truth = auk_from_roc(np.r_[0.0, np.exp(lf)], np.r_[0.0, np.exp(lam * lf)], p)
        return ((lambda rng, s: rng.exponential(1.0 / lam, s)),
                (lambda rng, s: rng.exponential(1.0, s)), truth)
    sd = {"binormal": 1.0, "unequal variances": 2.0}[model]
    d = math.sqrt(1.0 + sd * sd) * norm.ppf(auc)
    if step is None:
        truth = _roc_auk(norm.sf, lambda c: norm.sf(c, d, sd),
                         max(9.0, d + 9 * sd), min(-9.0, d - 9 * sd), p)
        return ((lambda rng, s: rng.normal(d, sd, s)),
                (lambda rng, s: rng.normal(0.0, 1.0, s)), truth)
    # level v holds the scores in [v - step/2, v + step/2): cut points, high to low
    top = step * (math.ceil((d + 10 * sd) / step) + 0.5)
    cuts = np.arange(top, -10.0 - step, -step)
    truth = auk_from_roc(np.r_[0.0, norm.sf(cuts), 1.0],
                         np.r_[0.0, norm.sf(cuts, d, sd), 1.0], p)
    return ((lambda rng, s: np.round(rng.normal(d, sd, s) / step) * step),
            (lambda rng, s: np.round(rng.normal(0.0, 1.0, s) / step) * step), truth)


def crisp_population(p, tpr=0.8, fpr=0.2):
    """A hard classifier: scores 0/1 with the given rates."""
    return ((lambda rng, s: (rng.random(s) < tpr).astype(float)),
            (lambda rng, s: (rng.random(s) < fpr).astype(float)),
            auk_from_roc([0.0, fpr, 1.0], [0.0, tpr, 1.0], p))


def coverage_settings():
    out = []
    for n_pos, n_neg in BINORMAL_DESIGNS:
        for auc in AUCS:
            out.append(dict(model="binormal", n_pos=n_pos, n_neg=n_neg, auc=auc, step=None))
    for model in ("unequal variances", "exponential"):
        for n_pos, n_neg in OTHER_DESIGNS:
            for auc in OTHER_AUCS:
                out.append(dict(model=model, n_pos=n_pos, n_neg=n_neg, auc=auc, step=None))
    for step in (0.5, 1.0):
        for n_pos, n_neg in TIE_DESIGNS:
            for auc in TIE_AUCS:
                out.append(dict(model="binormal", n_pos=n_pos, n_neg=n_neg, auc=auc,
                                step=step))
    for n_pos, n_neg in ((20, 180), (50, 450)):
        out.append(dict(model="crisp", n_pos=n_pos, n_neg=n_neg, auc=0.8, step=None))
    for n_pos, n_neg in ((10, 490), (20, 180), (20, 20), (200, 200)):
        out.append(dict(model="perfect", n_pos=n_pos, n_neg=n_neg, auc=1.0, step=None))
    for s in out:
        s["key"] = setting_key(s)
        s["bootstrap"] = (s["model"], s["n_pos"], s["n_neg"], s["auc"]) in BOOT_ROWS \
            and s["step"] is None
    return out


def setting_key(s):
    tie = "" if s["step"] is None else f", scores rounded to {s['step']:g}"
    return f"{s['model']}, {s['n_pos']}/{s['n_neg']}, AUC {s['auc']:g}{tie}"


def _seed(key, batch):
    return [zlib.crc32(key.encode()), batch]


def _draws(s, p):
    if s["model"] == "crisp":
        return crisp_population(p)
    return population(s["model"], s["auc"], p, s["step"])


def run_batch(s, methods, reps, batch):
    """Counts of one batch of test sets, per method."""
    n_pos, n_neg = s["n_pos"], s["n_neg"]
    p = n_pos / (n_pos + n_neg)
    draw_pos, draw_neg, truth = _draws(s, p)
    rng = np.random.default_rng(_seed(s["key"], batch))
    pos, neg = draw_pos(rng, (reps, n_pos)), draw_neg(rng, (reps, n_neg))
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    count = {m: dict(covered=0, above=0, below=0, points=0, width=0.0) for m in methods}
    est, se = np.empty(reps), np.empty(reps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few cases; point intervals (counted)
        for r in range(reps):
            scores = np.r_[pos[r], neg[r]]
            for m in methods:
                ci = auk_confidence_interval(
                    y, scores, confidence_level=LEVEL, method=m,
                    n_resamples=RESAMPLES, random_state=[batch, r])
                c = count[m]
                c["covered"] += bool(ci.low <= truth <= ci.high)
                c["above"] += bool(ci.low > truth)  # the interval too high
                c["below"] += bool(ci.high < truth)
                c["points"] += bool(ci.low == ci.high)
                c["width"] += ci.high - ci.low
                if m == "score":
                    est[r], se[r] = ci.estimate, ci.standard_error
    return truth, count, est, se


def mcse(covered, reps):
    c = covered / reps
    return math.sqrt(c * (1 - c) / reps)


def run_setting(s):
    methods = ANALYTIC + (BOOTSTRAP if s["bootstrap"] else ())
    total = {m: dict(covered=0, above=0, below=0, points=0, width=0.0) for m in methods}
    ests, ses, reps, batch = [], [], 0, 0
    while True:
        truth, count, est, se = run_batch(s, methods, BATCH, batch)
        for m in methods:
            for k in total[m]:
                total[m][k] += count[m][k]
        ests.append(est)
        ses.append(se)
        reps += BATCH
        batch += 1
        worst = max(mcse(total[m]["covered"], reps) for m in methods)
        if worst <= TARGET_MCSE or reps >= MAX_REPS:
            break
    est, se = np.concatenate(ests), np.concatenate(ses)
    row = {k: s[k] for k in ("key", "model", "n_pos", "n_neg", "auc", "step")}
    row.update(p=s["n_pos"] / (s["n_pos"] + s["n_neg"]), truth=float(truth), reps=reps,
               n_resamples=RESAMPLES if s["bootstrap"] else None,
               sd_estimate=float(np.std(est, ddof=1)), mean_se=float(np.mean(se)),
               bias=float(np.mean(est) - truth))
    for m in methods:
        c = total[m]
        row[m] = dict(covered=c["covered"], above=c["above"], below=c["below"],
                      points=c["points"], mean_width=c["width"] / reps)
    return row


# ------------------------------------------------------------------ paired tests
PAIRED_DESIGNS = [(10, 90), (20, 180), (50, 450), (20, 20), (100, 4900)]
PAIRED_AUCS = [0.85, 0.95, 0.99]
PAIRED_NOISE = [0.7, 0.25]
PAIRED_REPS = 2000
PAIRED_RESAMPLES = 500
PAIRED_BOOT = {(10, 90, 0.85, 0.7), (20, 180, 0.85, 0.7), (50, 450, 0.85, 0.7),
               (20, 180, 0.99, 0.7), (20, 20, 0.99, 0.7)}


def paired_settings():
    out = []
    for n_pos, n_neg in PAIRED_DESIGNS:
        for auc in PAIRED_AUCS:
            for noise in PAIRED_NOISE:
                out.append(dict(case="null", n_pos=n_pos, n_neg=n_neg, auc=auc,
                                noise=noise, noise_b=noise, step=None))
    for n_pos, n_neg in ((20, 180), (50, 450), (20, 20)):
        for auc in (0.85, 0.99):
            out.append(dict(case="null", n_pos=n_pos, n_neg=n_neg, auc=auc, noise=0.7,
                            noise_b=0.7, step=0.5))
    for n_pos, n_neg in ((10, 90), (20, 180), (50, 450)):
        out.append(dict(case="power", n_pos=n_pos, n_neg=n_neg, auc=0.85, noise=0.5,
                        noise_b=1.5, step=None))
    for s in out:
        tie = "" if s["step"] is None else f", rounded to {s['step']:g}"
        s["key"] = (f"{s['case']}, {s['n_pos']}/{s['n_neg']}, AUC {s['auc']:g}, "
                    f"noise {s['noise']:g}/{s['noise_b']:g}{tie}")
        s["bootstrap"] = (s["case"] == "power" or s["step"] is None and (
            s["n_pos"], s["n_neg"], s["auc"], s["noise"]) in PAIRED_BOOT)
    return out


def run_paired(s, reps=PAIRED_REPS, batch=0):
    """Rejections at 5% of the analytic (and bootstrap) paired tests."""
    n_pos, n_neg, noise = s["n_pos"], s["n_neg"], s["noise"]
    # each view's population AUC: Phi(d / sqrt(2 (1 + noise^2))) for the first
    d = math.sqrt(2 * (1 + noise**2)) * norm.ppf(s["auc"])
    rng = np.random.default_rng(_seed(s["key"], batch))
    latent = np.concatenate((rng.normal(d, 1.0, (reps, n_pos)),
                             rng.normal(0.0, 1.0, (reps, n_neg))), axis=1)
    a = latent + rng.normal(0.0, noise, latent.shape)
    b = latent + rng.normal(0.0, s["noise_b"], latent.shape)
    if s["step"] is not None:
        unit = s["step"] * math.sqrt(1 + noise**2)
        a, b = np.round(a / unit) * unit, np.round(b / unit) * unit
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    methods = ("analytic", "bootstrap") if s["bootstrap"] else ("analytic",)
    hits = {m: 0 for m in methods}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the few-cases warning
        for r in range(reps):
            for m in methods:
                res = auk_compare(y, a[r], b[r], method=m, n_resamples=PAIRED_RESAMPLES,
                                  random_state=[batch, r])
                hits[m] += bool(res.p_value < 0.05)
    row = {k: s[k] for k in ("key", "case", "n_pos", "n_neg", "auc", "noise", "noise_b",
                             "step")}
    row.update(reps=reps, correlation=1 / (1 + noise**2),
               n_resamples=PAIRED_RESAMPLES if s["bootstrap"] else None,
               rejected={m: hits[m] for m in methods})
    return row


# ------------------------------------------------------------------ driver
def _load(fresh):
    if fresh or not OUT.exists():
        return dict(confidence_level=LEVEL, coverage=[], paired=[])
    return json.loads(OUT.read_text())


def _save(data):
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, OUT)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", choices=["coverage", "paired"],
                        default=["coverage", "paired"])
    parser.add_argument("--fresh", action="store_true", help="discard stored rows")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    data = _load(args.fresh)
    jobs = []
    if "coverage" in args.parts:
        jobs += [("coverage", s, run_setting) for s in coverage_settings()]
    if "paired" in args.parts:
        jobs += [("paired", s, run_paired) for s in paired_settings()]
    for part, s, run in jobs:
        if any(r["key"] == s["key"] for r in data[part]):
            continue
        t0 = time.perf_counter()
        row = run(s)
        data[part].append(row)
        _save(data)
        if part == "coverage":
            summary = {m: round(row[m]["covered"] / row["reps"], 4)
                       for m in ANALYTIC + BOOTSTRAP if m in row}
        else:
            summary = {m: round(v / row["reps"], 4) for m, v in row["rejected"].items()}
        print(f"{s['key']:55s} {summary} ({row['reps']} sets, "
              f"{time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
