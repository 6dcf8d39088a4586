"""Does the prior-shift correction restore calibration?  A simulation.

    OMP_NUM_THREADS=1 nice -n 10 python chapters/data/sim_calibration.py   # ~3 min

Writes ``chapters/data/sim_calibration.json``, which chapter 14 reads and
``tests/claims/test_ch14_sim_calibration.py`` re-checks on its first
replications.

Population: two standard normal features; the true probability of a
positive is ``p(x) = expit(a + 1.2 x1 + 0.8 x2 + g x1^2)``, ``a`` chosen so
that 7% of the population is positive.  Setting "well specified" has
``g = 0`` (a logistic regression on (x1, x2) can fit p exactly); setting
"misspecified" has ``g = 0.6`` and the same linear logistic regression,
which cannot.

Each replication draws a training set of ``N_TRAIN`` cases and fits a
logistic regression (scikit-learn, default penalty) four ways: on the data
as drawn, on down-sampled data (all positives, as many negatives), on SMOTE
data (positives synthesised up to the negatives' count), and with balanced
class weights.  The three changed models are scored as trained and after
eq. (C) with beta = n_+ / n_- of the training set.  Every model is scored on
one fixed test set of ``N_TEST`` cases per setting, against the true p(x):

* ``bias``: mean forecast minus mean true probability (calibration in the
  large);
* ``rmse``: root mean squared difference between forecast and true
  probability.

Each summary is the mean over ``REPS`` replications with its Monte Carlo
standard error sd / sqrt(REPS).  The first ``KEEP`` replications' values are
stored as they are, for the test's re-run.
"""

import argparse
import json
import os
import time
import warnings

import numpy as np
from imblearn.over_sampling import SMOTE
from scipy.optimize import brentq
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "chapters", "data", "sim_calibration.json")

SETTINGS = {"well specified": 0.0, "misspecified": 0.6}
PREVALENCE = 0.07
N_TRAIN = 2000
N_TEST = 50_000
REPS = 2000
KEEP = 5
SEED = 20261123
VERSIONS = ["raw", "down-sampled", "down-sampled, corrected", "SMOTE",
            "SMOTE, corrected", "class weights", "class weights, corrected"]


def logit_of(x, g, a):
    return a + 1.2 * x[:, 0] + 0.8 * x[:, 1] + g * x[:, 0] ** 2


def intercept_for(g):
    """The intercept a that makes the population's share of positives 7%
    (by quadrature over a fixed large normal sample)."""
    x = np.random.default_rng(0).normal(size=(400_000, 2))
    return brentq(lambda a: expit(logit_of(x, g, a)).mean() - PREVALENCE, -20, 5)


def prior_shift(q, beta):
    return beta * q / (beta * q + 1 - q)


def one_replication(rng, g, a, x_test, p_test):
    x = rng.normal(size=(N_TRAIN, 2))
    y = (rng.uniform(size=N_TRAIN) < expit(logit_of(x, g, a))).astype(int)
    n_pos, n_neg = int(y.sum()), int((1 - y).sum())
    beta = n_pos / n_neg
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    keep = np.r_[pos, rng.choice(neg, n_pos, replace=False)]
    x_sm, y_sm = SMOTE(random_state=int(rng.integers(2**31))).fit_resample(x, y)
    fits = {
        "raw": LogisticRegression().fit(x, y),
        "down-sampled": LogisticRegression().fit(x[keep], y[keep]),
        "SMOTE": LogisticRegression().fit(x_sm, y_sm),
        "class weights": LogisticRegression(class_weight="balanced").fit(x, y),
    }
    out = {}
    for name, model in fits.items():
        q = model.predict_proba(x_test)[:, 1]
        versions = {name: q}
        if name != "raw":
            versions[f"{name}, corrected"] = prior_shift(q, beta)
        for v, qv in versions.items():
            out[v] = (float(qv.mean() - p_test.mean()),
                      float(np.sqrt(np.mean((qv - p_test) ** 2))))
    return out


def run(reps=REPS, keep=KEEP):
    result = {"settings": {}, "reps": reps, "n_train": N_TRAIN, "n_test": N_TEST,
              "prevalence": PREVALENCE, "seed": SEED}
    for k, (setting, g) in enumerate(SETTINGS.items()):
        a = intercept_for(g)
        rng_test = np.random.default_rng([SEED, k, 0])
        x_test = rng_test.normal(size=(N_TEST, 2))
        p_test = expit(logit_of(x_test, g, a))
        rng = np.random.default_rng([SEED, k, 1])
        rows = [one_replication(rng, g, a, x_test, p_test) for _ in range(reps)]
        summary = {}
        for v in VERSIONS:
            vals = np.array([r[v] for r in rows])  # (reps, 2): bias, rmse
            summary[v] = {
                "bias": float(vals[:, 0].mean()),
                "bias_mcse": float(vals[:, 0].std(ddof=1) / np.sqrt(reps)),
                "rmse": float(vals[:, 1].mean()),
                "rmse_mcse": float(vals[:, 1].std(ddof=1) / np.sqrt(reps)),
            }
        result["settings"][setting] = {
            "g": g, "intercept": a, "test_prevalence": float(p_test.mean()),
            "summary": summary,
            "first_replications": [{v: list(r[v]) for v in VERSIONS}
                                   for r in rows[:keep]],
        }
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=REPS)
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=FutureWarning)
    t0 = time.perf_counter()
    result = run(args.reps)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1)
        fh.write("\n")
    print(f"wrote {OUT} in {result['seconds']} s")


if __name__ == "__main__":
    main()
