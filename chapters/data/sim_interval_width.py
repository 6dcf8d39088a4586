"""Coverage and width of the default AUK and AUC intervals, on settings not used to tune them.

    nice -n 15 python chapters/data/sim_interval_width.py           # ~6 min CPU
    nice -n 15 python chapters/data/sim_interval_width.py --part auc  # ~2 min
    nice -n 15 python chapters/data/sim_interval_width.py --role tuning --part auk

Resumable: every finished setting is written at once to
``chapters/data/interval_width_coverage.json``, and a re-run computes only
the settings missing from it (``--fresh`` starts over).  Chapter 10 reads the
table; ``tests/test_interval_width.py`` re-runs a slice and checks the
stored summary.

The goal checked (issue 38): the default 95% intervals of
``auk_confidence_interval`` and ``auc_confidence_interval`` cover at least
0.925 everywhere, are never a point, and, wherever the test set holds 20 or
more positive cases, cover at most 0.975 and are at most 10% wider than the
narrowest method here that covers at least 0.94.

Two sets of settings, ``role``: the *tuning* settings are the ones the
defaults' constants were chosen on (the 17 settings of ``sim_auk_score.py``
and two with tighter positives; candidates compared there on 400 AUK and
1,500 AUC test sets per setting: for the AUK the floor 1/4, the floor 1/2
with and without the union with the analytic interval, and pooled levels;
for the AUC the floors 1/10-1 and the pooled levels with 5-40 degrees of
freedom); the *validation* settings were not looked at while choosing the
AUK's constant and are the ones the chapter and the docstrings report: 5
to 500 positive cases, p = 0.01 to 0.5, population AUCs 0.8 to 0.995 and
perfectly separated populations, binormal scores with the positives'
spread half, equal to or twice the negatives', exponential scores, scores
rounded to a grid and scores on five levels.  (The AUC's pooled variant
was chosen on the tuning settings too; it failed on the validation
settings, and the AUC's default stayed as it was.)

Each population's AUK and AUC come from the population itself (the exact
AUK of the polygon through 40,001 points of its ROC curve, or of its level
shares), never from a sample.  Methods compared, all analytic (no
bootstrap in the grid; ``--bootstrap`` adds the BC bootstrap interval of
``method="bootstrap"`` with 1,000 resamples in the AUK settings named in
``BOOTSTRAP_KEYS``, 600 test sets each):

- AUK: the default (``method="score"``) and the analytic interval
  (``method="analytic"``); ``run_auk(methods=...)`` also builds the
  previous default (floor 1/2, united with the analytic interval);
- AUC: the default (``method="score"``), Newcombe's Method 5
  (``"newcombe"``), DeLong's logit interval (``"delong-logit"``), DeLong's
  Wald interval ``AUC +- z SE`` clipped to [0, 1], and the *pooled*
  variant of the default (``_auc_score_scale(..., model_df=10)``, the
  scale allowed below 1).

The AUK intervals are built from the library's own parts
(``auk_variance._estimate_and_variance`` once per test set, then each
method's limits), so that one influence computation serves all methods;
``tests/test_interval_width.py`` checks that the default so built equals
the public function's.  The AUC intervals are vectorised over test sets.
2,000 test sets per setting, more (in steps of 500) where the default's
coverage needs them for a Monte Carlo standard error of at most 0.005.
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
from scipy.special import ndtri
from scipy.stats import norm, rankdata

from auklib import auk_bounds, auk_from_roc

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "chapters" / "data" / "interval_width_coverage.json"
LEVEL = 0.95
REPS = 2000
TARGET_MCSE = 0.005  # more test sets where 2,000 leave a larger MC SE
AUK_METHODS = ("score", "analytic")  # run_auk(methods=...) can add "previous"
AUC_METHODS = ("score", "newcombe", "delong-logit", "delong-wald", "pooled")
POOLED_DF = 10  # the alternative AUC scale tried, see auklib.uncertainty._AUC_MODEL_DF
GOAL_MIN, GOAL_MAX, GOAL_WIDTH, GOAL_REF = 0.925, 0.975, 1.10, 0.94


# ------------------------------------------------------------------ populations
def _levels_truth(cuts, d, sd, p):
    """AUK and AUC of binormal scores cut into levels at ``cuts`` (decreasing)."""
    f = np.r_[0.0, norm.sf(cuts), 1.0]
    t = np.r_[0.0, norm.sf(cuts, d, sd), 1.0]
    b, a = np.diff(f), np.diff(t)  # level shares, highest level first
    below_b = 1.0 - np.cumsum(b)  # negatives strictly below each level
    auc = float(np.sum(a * (below_b + 0.5 * b)))
    return auk_from_roc(f, t, p), auc


def population(s, p):
    """(draw_pos, draw_neg, population AUK at p, population AUC) of a setting."""
    model = s["model"]
    if model == "perfect":
        return ((lambda rng, n: 1.0 + rng.random(n)), (lambda rng, n: rng.random(n)),
                auk_bounds(p)[1], 1.0)
    if model == "exponential":
        lam = 1.0 / s["auc"] - 1.0
        lf = np.linspace(-80.0, 0.0, 40001)
        truth = auk_from_roc(np.r_[0.0, np.exp(lf)], np.r_[0.0, np.exp(lam * lf)], p)
        return ((lambda rng, n: rng.exponential(1.0 / lam, n)),
                (lambda rng, n: rng.exponential(1.0, n)), truth, s["auc"])
    sd = s["sd_pos"]
    d = math.sqrt(1.0 + sd * sd) * norm.ppf(s["auc"])
    top, bottom = max(9.0, d + 9 * sd), min(-9.0, d - 9 * sd)
    if s.get("step"):
        step = s["step"]
        cuts = np.arange(step * (math.ceil(top / step) + 0.5), bottom - step, -step)
        auk, auc = _levels_truth(cuts, d, sd, p)
        return ((lambda rng, n: np.round(rng.normal(d, sd, n) / step) * step),
                (lambda rng, n: np.round(rng.normal(0.0, 1.0, n) / step) * step),
                auk, auc)
    if s.get("levels"):
        # five levels: cut at the negatives' quantiles 0.5, 0.8, 0.95, 0.99
        cuts = norm.isf([0.01, 0.05, 0.2, 0.5])  # decreasing
        auk, auc = _levels_truth(cuts, d, sd, p)
        inc = cuts[::-1]
        return ((lambda rng, n: np.searchsorted(inc, rng.normal(d, sd, n)).astype(float)),
                (lambda rng, n: np.searchsorted(inc, rng.normal(0.0, 1.0, n)).astype(float)),
                auk, auc)
    c = np.linspace(top, bottom, 40001)
    auk = auk_from_roc(np.r_[0.0, norm.sf(c), 1.0], np.r_[0.0, norm.sf(c, d, sd), 1.0], p)
    return ((lambda rng, n: rng.normal(d, sd, n)), (lambda rng, n: rng.normal(0.0, 1.0, n)),
            auk, s["auc"])


# ------------------------------------------------------------------ settings
def _s(role, model, n_pos, n_neg, auc, sd_pos=1.0, step=None, levels=False):
    s = dict(role=role, model=model, n_pos=n_pos, n_neg=n_neg, auc=auc, sd_pos=sd_pos,
             step=step, levels=levels)
    s["key"] = setting_key(s)
    return s


def setting_key(s):
    if s["model"] == "perfect":
        name = "perfectly separated"
    elif s["model"] == "exponential":
        name = "exponential"
    else:
        name = "binormal" + ("" if s["sd_pos"] == 1 else f", sd+ {s['sd_pos']:g}")
    tie = (f", rounded to {s['step']:g}" if s["step"] else "") + (
        ", five levels" if s["levels"] else "")
    return f"{name}{tie}, {s['n_pos']}/{s['n_neg']}, AUC {s['auc']:g}"


def tuning_settings():
    """The 17 settings of sim_auk_score.py (where the floor 1/2 was first
    chosen), and two with tighter positives, where the AUC's floor was chosen."""
    out = []
    for n_pos, n_neg, aucs in [(10, 490, (0.75, 0.9, 0.99)), (10, 90, (0.75, 0.9)),
                               (20, 180, (0.75, 0.99)), (10, 10, (0.99,)),
                               (20, 20, (0.75, 0.99)), (200, 200, (0.99,))]:
        out += [_s("tuning", "binormal", n_pos, n_neg, a) for a in aucs]
    out += [_s("tuning", "binormal", 20, 180, 0.9, sd_pos=2.0),
            _s("tuning", "exponential", 20, 20, 0.99),
            _s("tuning", "binormal", 50, 450, 0.85, step=0.5),
            _s("tuning", "binormal", 20, 20, 0.99, step=0.5),
            _s("tuning", "perfect", 20, 180, 1.0), _s("tuning", "perfect", 20, 20, 1.0),
            _s("tuning", "binormal", 20, 180, 0.9, sd_pos=0.5),
            _s("tuning", "binormal", 50, 450, 0.98, sd_pos=0.5)]
    return out


def validation_settings():
    v = "validation"
    return [
        # small samples
        _s(v, "binormal", 5, 495, 0.9), _s(v, "binormal", 5, 45, 0.8),
        _s(v, "binormal", 10, 990, 0.95), _s(v, "binormal", 20, 80, 0.8),
        # extreme prevalence
        _s(v, "binormal", 20, 1980, 0.9), _s(v, "binormal", 50, 4950, 0.95),
        _s(v, "binormal", 100, 100, 0.9), _s(v, "binormal", 40, 360, 0.8),
        # ties
        _s(v, "binormal", 30, 270, 0.9, step=0.25), _s(v, "binormal", 50, 950, 0.95, step=1.0),
        _s(v, "binormal", 40, 360, 0.85, levels=True),
        _s(v, "binormal", 20, 20, 0.9, levels=True),
        # unequal variances, both ways
        _s(v, "binormal", 30, 270, 0.9, sd_pos=0.5), _s(v, "binormal", 100, 900, 0.98, sd_pos=0.5),
        _s(v, "binormal", 20, 480, 0.95, sd_pos=0.5), _s(v, "binormal", 40, 360, 0.9, sd_pos=2.0),
        _s(v, "binormal", 100, 900, 0.98, sd_pos=2.0), _s(v, "exponential", 50, 450, 0.95),
        # high separation, up to a perfect ranking
        _s(v, "binormal", 500, 4500, 0.99), _s(v, "binormal", 50, 950, 0.99),
        _s(v, "binormal", 30, 70, 0.995), _s(v, "binormal", 5, 495, 0.99),
        _s(v, "binormal", 100, 900, 0.995),
        _s(v, "perfect", 5, 495, 1.0), _s(v, "perfect", 50, 450, 1.0),
    ]


def _seed(key, role, batch):
    return [zlib.crc32(f"{role}: {key}".encode()), batch]


# ------------------------------------------------------------------ AUC intervals
def auc_parts(pos, neg):
    """AUC and DeLong's two variance terms of each row (test set), ties counting 1/2."""
    n_pos, n_neg = pos.shape[1], neg.shape[1]
    both = np.concatenate((pos, neg), axis=1)
    ranks = rankdata(both, axis=1)
    v = (ranks[:, :n_pos] - rankdata(pos, axis=1)) / n_neg  # placements of positives
    w = 1.0 - (ranks[:, n_pos:] - rankdata(neg, axis=1)) / n_pos
    var_pos = v.var(axis=1, ddof=1) / n_pos if n_pos > 1 else np.zeros(v.shape[0])
    var_neg = w.var(axis=1, ddof=1) / n_neg if n_neg > 1 else np.zeros(w.shape[0])
    return v.mean(axis=1), var_pos, var_neg


def auc_limits(auc, var_pos, var_neg, n_pos, n_neg, z):
    """Each AUC method's (low, high), vectorised over test sets."""
    from auklib.uncertainty import _auc_score_scale, _score_limits

    out = {}
    var = var_pos + var_neg
    se = np.sqrt(var)
    inside = (auc > 0) & (auc < 1) & (var > 0)
    a = np.where(inside, auc, 0.5)
    half = z * se / (a * (1 - a))
    logit = np.log(a / (1 - a))
    out["delong-logit"] = (np.where(inside, 1 / (1 + np.exp(-(logit - half))), auc),
                           np.where(inside, 1 / (1 + np.exp(-(logit + half))), auc))
    out["delong-wald"] = (np.clip(auc - z * se, 0, 1), np.clip(auc + z * se, 0, 1))
    out["newcombe"] = _score_limits(auc, n_pos, n_neg, z)
    out["pooled"] = _score_limits(
        auc, n_pos, n_neg, z,
        _auc_score_scale(auc, var_pos, var_neg, n_pos, n_neg, model_df=POOLED_DF))
    out["score"] = _score_limits(
        auc, n_pos, n_neg, z, _auc_score_scale(auc, var_pos, var_neg, n_pos, n_neg))
    return out


def run_auc(s, reps, batch_no):
    n_pos, n_neg = s["n_pos"], s["n_neg"]
    draw_pos, draw_neg, _, truth = population(s, n_pos / (n_pos + n_neg))
    rng = np.random.default_rng(_seed(s["key"], "auc", batch_no))
    z = float(ndtri(0.5 + LEVEL / 2))
    count = {m: dict(covered=0, above=0, below=0, points=0, width=0.0) for m in AUC_METHODS}
    chunk = max(1, min(500, 2_000_000 // (n_pos + n_neg)))
    for start in range(0, reps, chunk):
        rows = min(chunk, reps - start)
        pos, neg = draw_pos(rng, (rows, n_pos)), draw_neg(rng, (rows, n_neg))
        auc, var_pos, var_neg = auc_parts(pos, neg)
        for m, (low, high) in auc_limits(auc, var_pos, var_neg, n_pos, n_neg, z).items():
            _tally(count[m], low, high, truth)
    return truth, count


# ------------------------------------------------------------------ AUK intervals
def auk_limits(parts, level=LEVEL, methods=("score", "analytic", "previous")):
    """Each AUK method's (low, high) from one test set's influence parts."""
    from auklib.auk_variance import _score_from_parts

    build = {"score": lambda: _score_from_parts(parts, level)[1:3],
             "analytic": lambda: _analytic_auk(parts, level),
             "previous": lambda: _previous_auk(parts, level)}
    return {m: build[m]() for m in methods}


def _analytic_auk(parts, level):
    """``method="analytic"``'s limits (the point where its standard error is 0)."""
    from auklib.auk_variance import _logit_limits, _quantile, _satterthwaite_df

    c, v_pos, v_neg, n_pos, n_neg, _, _ = parts
    se, est = math.sqrt(v_pos + v_neg), c.estimate
    lo, hi = auk_bounds(c.p)
    if se == 0 or not lo < est < hi:
        return est, est
    q = _quantile(level, _satterthwaite_df(v_pos, v_neg, n_pos, n_neg))
    return _logit_limits(est, se, q, lo, hi)


def _previous_auk(parts, level):
    """The default up to this version: floor 1/2, united with the analytic interval."""
    from auklib.auk_variance import (_logit_limits, _model_variance, _quantile,
                                     _satterthwaite_df, _score_limits)

    c, v_pos, v_neg, n_pos, n_neg, e_pos, e_neg = parts
    v_hat, est = v_pos + v_neg, c.estimate
    v_model = float(_model_variance(est, c.p, e_pos, e_neg))
    q = _quantile(level, _satterthwaite_df(v_pos, v_neg, n_pos, n_neg))
    ratio = v_hat / v_model if v_model > 0 else 0.0
    low, high = _score_limits(est, q * q * max(ratio, 0.5), 1.0, c.p, e_pos, e_neg)
    lo, hi = auk_bounds(c.p)
    if v_hat > 0 and lo < est < hi:
        a_low, a_high = _logit_limits(est, math.sqrt(v_hat), q, lo, hi)
        low, high = max(min(low, a_low), lo), min(max(high, a_high), hi)
    return min(low, est), max(high, est)


def run_auk(s, reps, batch_no, methods=AUK_METHODS):
    from auklib.auk_variance import _estimate_and_variance

    n_pos, n_neg = s["n_pos"], s["n_neg"]
    draw_pos, draw_neg, truth, _ = population(s, n_pos / (n_pos + n_neg))
    rng = np.random.default_rng(_seed(s["key"], "auk", batch_no))
    pos, neg = draw_pos(rng, (reps, n_pos)), draw_neg(rng, (reps, n_neg))
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    lim = {m: (np.empty(reps), np.empty(reps)) for m in methods}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # few cases of a class
        for r in range(reps):
            parts = _estimate_and_variance(y, np.r_[pos[r], neg[r]], None, None, "sim")
            for m, (lo, hi) in auk_limits(parts, methods=methods).items():
                lim[m][0][r], lim[m][1][r] = lo, hi
    count = {m: dict(covered=0, above=0, below=0, points=0, width=0.0) for m in methods}
    for m in methods:
        _tally(count[m], *lim[m], truth)
    return truth, count


def run_auk_bootstrap(s, reps, n_resamples=1000):
    from auklib import auk_confidence_interval

    n_pos, n_neg = s["n_pos"], s["n_neg"]
    draw_pos, draw_neg, truth, _ = population(s, n_pos / (n_pos + n_neg))
    rng = np.random.default_rng(_seed(s["key"], "bootstrap", 0))
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    low, high = np.empty(reps), np.empty(reps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r in range(reps):
            ci = auk_confidence_interval(
                y, np.r_[draw_pos(rng, n_pos), draw_neg(rng, n_neg)], method="bootstrap",
                n_resamples=n_resamples, random_state=r)
            low[r], high[r] = ci.low, ci.high
    count = dict(covered=0, above=0, below=0, points=0, width=0.0)
    _tally(count, low, high, truth)
    return count


def _tally(c, low, high, truth):
    low, high = np.asarray(low), np.asarray(high)
    c["covered"] += int(np.sum((low <= truth) & (truth <= high)))
    c["above"] += int(np.sum(low > truth))  # the interval too high
    c["below"] += int(np.sum(high < truth))
    c["points"] += int(np.sum(low == high))
    c["width"] += float(np.sum(high - low))


# ------------------------------------------------------------------ summary
def mcse(covered, reps):
    c = covered / reps
    return math.sqrt(c * (1 - c) / reps)


def summarise(row, methods):
    """Coverage, MC SE, and width against the narrowest method covering >= 0.94.

    The upper goals (at most 0.975, at most 10% wider than the narrowest
    method covering at least 0.94) apply with 20 or more positive cases and
    a population not separated perfectly (there every interval that reaches
    the upper bound covers).
    """
    reps = row["reps"]
    cov = {m: row[m]["covered"] / reps for m in methods if m in row}
    width = {m: row[m]["width"] / reps for m in methods if m in row}
    ok = [m for m in cov if cov[m] >= GOAL_REF]
    ref = min(ok, key=lambda m: width[m]) if ok else None
    out = dict(coverage=cov["score"], mc_se=mcse(row["score"]["covered"], reps),
               mean_width=width["score"], reference=ref,
               width_ratio=(width["score"] / width[ref]) if ref and width[ref] > 0 else None,
               points=row["score"]["points"])
    upper = row["n_pos"] >= 20 and row["model"] != "perfect"
    out["upper_goals_apply"] = upper
    out["meets_goal"] = bool(
        cov["score"] >= GOAL_MIN - 2 * out["mc_se"] and out["points"] == 0
        and (not upper or (cov["score"] <= GOAL_MAX + 2 * out["mc_se"]
                           # no method covers 0.94: no width to compare with
                           and (out["width_ratio"] is None
                                or out["width_ratio"] <= GOAL_WIDTH))))
    return out


def run_setting(s, part, bootstrap=False):
    run = run_auk if part == "auk" else run_auc
    methods = AUK_METHODS if part == "auk" else AUC_METHODS
    truth, count = run(s, REPS, 0)
    reps = REPS
    cov = count["score"]["covered"] / reps
    need = math.ceil(cov * (1 - cov) / TARGET_MCSE**2 / 500) * 500
    if need > reps and cov < 1:  # top up to a Monte Carlo SE of at most 0.005
        _, more = run(s, need - reps, 1)
        for m in methods:
            for k in count[m]:
                count[m][k] += more[m][k]
        reps = need
    row = {k: s[k] for k in ("key", "role", "model", "n_pos", "n_neg", "auc", "sd_pos",
                             "step", "levels")}
    row.update(part=part, p=s["n_pos"] / (s["n_pos"] + s["n_neg"]), truth=float(truth),
               reps=reps)
    for m in methods:
        row[m] = count[m]
    if bootstrap and part == "auk" and s["key"] in BOOTSTRAP_KEYS:
        row["bootstrap"] = dict(run_auk_bootstrap(s, BOOTSTRAP_REPS), reps=BOOTSTRAP_REPS)
    row["summary"] = summarise(row, methods)
    return row


BOOTSTRAP_KEYS = ("binormal, 500/4500, AUC 0.99", "binormal, sd+ 0.5, 30/270, AUC 0.9")
BOOTSTRAP_REPS = 600


# ------------------------------------------------------------------ driver
def _load(fresh, out):
    if fresh or not out.exists():
        return dict(confidence_level=LEVEL, goal=dict(
            min_coverage=GOAL_MIN, max_coverage=GOAL_MAX, max_width_ratio=GOAL_WIDTH,
            reference_coverage=GOAL_REF, min_positives_for_max=20), rows=[])
    return json.loads(out.read_text())


def _save(data, out):
    for row in data["rows"]:  # the summaries always follow the current goal
        methods = AUK_METHODS if row["part"] == "auk" else AUC_METHODS
        row["summary"] = summarise(row, methods)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fresh", action="store_true", help="discard stored rows")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file")
    parser.add_argument("--part", choices=("auk", "auc", "both"), default="both")
    parser.add_argument("--role", choices=("tuning", "validation", "both"),
                        default="validation")
    parser.add_argument("--bootstrap", action="store_true",
                        help="add the bootstrap in BOOTSTRAP_KEYS' AUK settings")
    parser.add_argument("--only", default=None, help="run only settings whose key has this")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    data = _load(args.fresh, args.out)
    settings = {"tuning": tuning_settings(), "validation": validation_settings(),
                "both": tuning_settings() + validation_settings()}[args.role]
    parts = ("auc", "auk") if args.part == "both" else (args.part,)
    for part in parts:
        for s in settings:
            if args.only and args.only not in s["key"]:
                continue
            if any(r["key"] == s["key"] and r["part"] == part and r["role"] == s["role"]
                   for r in data["rows"]):
                continue
            t0 = time.perf_counter()
            row = run_setting(s, part, args.bootstrap)
            data["rows"].append(row)
            _save(data, args.out)
            sm = row["summary"]
            others = " ".join(f"{m} {row[m]['covered'] / row['reps']:.3f}/"
                              f"{row[m]['width'] / row['reps']:.4f}"
                              for m in (AUK_METHODS if part == "auk" else AUC_METHODS)[1:])
            print(f"{part} {s['role'][:3]} {s['key']:45s} {sm['coverage']:.3f}"
                  f"+-{sm['mc_se']:.3f} w {sm['mean_width']:.4f} x{sm['width_ratio'] or 0:.2f}"
                  f" ({sm['reference']}) {'ok' if sm['meets_goal'] else 'MISS'} | {others}"
                  f" ({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
