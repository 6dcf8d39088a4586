"""Levels, power and coverage of the comparisons of chapter 13.

    OMP_NUM_THREADS=1 nice -n 10 python chapters/data/sim_comparing.py [part ...]

Parts (all by default): ``delong`` (size and power of DeLong's paired test),
``agreement`` (exact coverage of the kappa and MCC intervals, by
enumerating every table), ``mcnemar`` (size of
McNemar's tests), ``cv`` (size of the t-tests over cross-validation folds)
and ``cd`` (several classifiers' AUKs on eleven separate data sets, for the
critical-difference diagram).  Each part is stored under its name in
``chapters/data/sim_comparing.json``, which chapter 13 reads and re-checks on
a small slice.  Every rate is stored with its number of replications (the
CV part stores counts of rejections), so that its Monte Carlo standard error
sqrt(r (1 - r) / n) can be stated.

The replications call the library's own helpers (vectorised over test
sets where the public function handles one test set at a time); the
chapter's remove-cells check that they agree with the public functions.
"""

import json
import os
import sys
import time

import numpy as np
from scipy.special import ndtr
from scipy.stats import binom, chi2, norm, t as t_dist

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "chapters", "data", "sim_comparing.json")
ALPHA = 0.05

from auklib.compare import _kappa_interval, _mcc_interval  # noqa: E402

# ---------------------------------------------------------------- DeLong
DELONG_DESIGNS = [(10, 90), (20, 180), (50, 450), (30, 30)]
DELONG_REPS = 10000
# (name, AUC of a, AUC of b, sd of b's positives): negatives N(0, 1) for
# both, correlation RHO between the two classifiers' scores in each class
DELONG_MODELS = [
    ("null, same shape", 0.85, 0.85, 1.0),
    ("null, different shapes", 0.85, 0.85, 2.0),
    ("AUC 0.85 against 0.80", 0.85, 0.80, 1.0),
    ("AUC 0.90 against 0.80", 0.90, 0.80, 1.0),
]
RHO = 0.5


def correlated_binormal(rng, reps, n_pos, n_neg, auc_a, auc_b, sd_b, rho=RHO):
    """Scores of two classifiers, arrays (reps, n) for each class.

    Positives ``(Xa, Xb) ~ N((mu_a, mu_b), [[1, r sd_b], [r sd_b, sd_b^2]])``,
    negatives ``N(0, [[1, r], [r, 1]])``; AUC_a = Phi(mu_a / sqrt 2),
    AUC_b = Phi(mu_b / sqrt(1 + sd_b^2)).
    """
    mu_a = np.sqrt(2) * norm.ppf(auc_a)
    mu_b = np.sqrt(1 + sd_b**2) * norm.ppf(auc_b)
    z1 = rng.standard_normal((reps, n_pos))
    z2 = rho * z1 + np.sqrt(1 - rho**2) * rng.standard_normal((reps, n_pos))
    w1 = rng.standard_normal((reps, n_neg))
    w2 = rho * w1 + np.sqrt(1 - rho**2) * rng.standard_normal((reps, n_neg))
    return (mu_a + z1, mu_b + sd_b * z2), (w1, w2)


def delong_batch(pos, neg):
    """DeLong's difference and standard error for each row (test set)."""
    (pa, pb), (na, nb) = pos, neg
    n_pos, n_neg = pa.shape[1], na.shape[1]

    def placements(p, q):
        gap = p[:, :, None] - q[:, None, :]
        k = (gap > 0) + 0.5 * (gap == 0)
        return k.mean(axis=2), k.mean(axis=1)

    v10a, v01a = placements(pa, na)
    v10b, v01b = placements(pb, nb)
    d10, d01 = v10a - v10b, v01a - v01b
    diff = d10.mean(axis=1)
    var = d10.var(axis=1, ddof=1) / n_pos + d01.var(axis=1, ddof=1) / n_neg
    return diff, np.sqrt(var)


def run_delong(reps=DELONG_REPS, seed=20261123, designs=DELONG_DESIGNS,
               models=DELONG_MODELS, batch=250):
    out = []
    z = norm.ppf(1 - ALPHA / 2)
    for mi, (name, auc_a, auc_b, sd_b) in enumerate(models):
        for di, (n_pos, n_neg) in enumerate(designs):
            rng = np.random.default_rng([seed, mi, di])
            diffs, ses = [], []
            for start in range(0, reps, batch):
                r = min(batch, reps - start)
                d, s = delong_batch(*correlated_binormal(
                    rng, r, n_pos, n_neg, auc_a, auc_b, sd_b))
                diffs.append(d)
                ses.append(s)
            d, s = np.concatenate(diffs), np.concatenate(ses)
            with np.errstate(divide="ignore", invalid="ignore"):
                p = np.where(s > 0, 2 * ndtr(-np.abs(d) / s), np.where(d == 0, 1, 0))
            true = auc_a - auc_b
            out.append(dict(
                model=name, auc_a=auc_a, auc_b=auc_b, sd_b=sd_b, rho=RHO,
                n_pos=n_pos, n_neg=n_neg, reps=reps,
                reject=float(np.mean(p < ALPHA)),
                covers=float(np.mean(np.abs(d - true) <= z * s)),
                sd_difference=float(np.std(d, ddof=1)),
                rms_se=float(np.sqrt(np.mean(s**2))),
                mean_se=float(np.mean(s)),
            ))
            print(out[-1], flush=True)
    return out


# ---------------------------------------------------- kappa and MCC intervals
# Exact coverage: every 2x2 table of N cases is enumerated with its
# multinomial probability (class count N+ ~ Bin(N, p), then TP ~ Bin(N+,
# sensitivity) and FP ~ Bin(N-, 1 - specificity)), so there is no Monte Carlo
# error.  Tables whose class count, TP or FP lies in a binomial tail of
# probability below TAIL are left out; the mass left out is stored (below
# 1e-9 in every design).
AGREE_DESIGNS = [(p, n) for p in (0.5, 0.2, 0.05) for n in (100, 400, 2000)]
AGREE_CLASSIFIERS = ((0.8, 0.9), (0.6, 0.95))  # (sensitivity, specificity)
AGREE_RATES = AGREE_CLASSIFIERS[0]
MIN_CELL = 5  # kappa_confidence_interval / mcc_confidence_interval warn below
TAIL = 1e-13


def cell_probabilities(p, sens, spec):
    return np.array([p * sens, p * (1 - sens), (1 - p) * (1 - spec), (1 - p) * spec])


def kappa_mcc(cells):
    tp, fn, fp, tn = cells
    pe = (tp + fn) * (tp + fp) + (fp + tn) * (fn + tn)
    kappa = (tp + tn - pe) / (1 - pe)
    mcc = (tp * tn - fp * fn) / np.sqrt((tp + fn) * (fp + tn) * (tp + fp) * (fn + tn))
    return kappa, mcc


def agreement_intervals(counts, z):
    """(kappa, low, high) Wald and Fisher-z, (mcc, low, high); NaN where undefined.

    The library's own interval code, on tables of counts (shape (4, ...)),
    vectorised over tables.
    """
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum(axis=0)
    cells = counts / n
    return tuple(np.asarray(r[:3]) for r in (_kappa_interval(cells, n, z, "wald"),
                                             _kappa_interval(cells, n, z, "fisher-z"),
                                             _mcc_interval(cells, n, z)))


def all_tables(n, p, sens, spec, tail=TAIL):
    """Yield (counts (4, m), probabilities (m,)) over the tables of n cases.

    Also yields, last, the probability mass of the tables left out.
    """
    left = 0.0
    n_pos = np.arange(n + 1)
    p_pos = binom.pmf(n_pos, n, p)
    keep = p_pos > tail
    left += float(p_pos[~keep].sum())
    for m in n_pos[keep]:
        k = n - m
        tp, fp = np.arange(m + 1), np.arange(k + 1)
        p_tp, p_fp = binom.pmf(tp, m, sens), binom.pmf(fp, k, 1 - spec)
        kt, kf = p_tp > tail, p_fp > tail
        left += float(p_pos[m] * (1 - p_tp[kt].sum() * p_fp[kf].sum()))
        TP, FP = np.meshgrid(tp[kt], fp[kf], indexing="ij")
        TP, FP = TP.ravel(), FP.ravel()
        yield (np.stack([TP, m - TP, FP, k - FP]).astype(np.float64),
               p_pos[m] * np.outer(p_tp[kt], p_fp[kf]).ravel())
    yield None, left


def run_agreement(designs=AGREE_DESIGNS, classifiers=AGREE_CLASSIFIERS):
    """Exact coverage of the 95% kappa and MCC intervals, by enumeration."""
    out = []
    z = norm.ppf(1 - ALPHA / 2)
    for sens, spec in classifiers:
        for p, n in designs:
            true_k, true_m = kappa_mcc(cell_probabilities(p, sens, spec))
            acc = {key: 0.0 for key in (
                "kappa", "kappa_z", "mcc", "kappa_def", "mcc_def", "quiet",
                "kappa_quiet", "kappa_z_quiet", "mcc_quiet", "mcc_def_quiet")}
            tables = 0
            for counts, prob in all_tables(n, p, sens, spec):
                if counts is None:
                    left = prob
                    break
                tables += prob.shape[0]
                (k, kl, kh), (_, zl, zh), (mc, ml, mh) = agreement_intervals(counts, z)
                kd, md = ~np.isnan(k), ~np.isnan(mc)
                quiet = counts.min(axis=0) >= MIN_CELL
                hits = {"kappa": kd & (kl <= true_k) & (true_k <= kh),
                        "kappa_z": kd & (zl <= true_k) & (true_k <= zh),
                        "mcc": md & (ml <= true_m) & (true_m <= mh)}
                acc["kappa_def"] += prob[kd].sum()
                acc["mcc_def"] += prob[md].sum()
                acc["quiet"] += prob[quiet].sum()
                acc["mcc_def_quiet"] += prob[quiet & md].sum()
                for key, hit in hits.items():
                    acc[key] += prob[hit].sum()
                    acc[f"{key}_quiet"] += prob[hit & quiet].sum()
            row = dict(prevalence=p, n=n, sensitivity=sens, specificity=spec,
                       kappa=float(true_k), mcc=float(true_m), tables=int(tables),
                       omitted=float(left),
                       kappa_defined=float(acc["kappa_def"]),
                       mcc_defined=float(acc["mcc_def"]),
                       kappa_coverage=float(acc["kappa"] / acc["kappa_def"]),
                       kappa_z_coverage=float(acc["kappa_z"] / acc["kappa_def"]),
                       mcc_coverage=float(acc["mcc"] / acc["mcc_def"]),
                       min_expected_cell=float(n * cell_probabilities(p, sens, spec).min()),
                       no_warning=float(acc["quiet"]))
            if acc["quiet"] > 0:
                row.update(
                    kappa_coverage_no_warning=float(acc["kappa_quiet"] / acc["quiet"]),
                    kappa_z_coverage_no_warning=float(acc["kappa_z_quiet"] / acc["quiet"]),
                    mcc_coverage_no_warning=float(acc["mcc_quiet"] / acc["mcc_def_quiet"]))
            out.append(row)
            print(row, flush=True)
    return out


# ------------------------------------------------------------------ McNemar
MCNEMAR_DESIGNS = [(n, q) for n in (50, 200, 1000) for q in (0.03, 0.1)]
MCNEMAR_REPS = 20000


def mcnemar_p(a_only, b_only):
    """Exact and continuity-corrected P values, vectorised (as mcnemar_test)."""
    m = a_only + b_only
    k = np.minimum(a_only, b_only)
    with np.errstate(invalid="ignore", divide="ignore"):
        exact = np.where(m > 0, np.minimum(1.0, 2 * binom.cdf(k, m, 0.5)), 1.0)
        exact = np.where((m > 0) & (a_only == b_only), 1.0, exact)
        stat = np.maximum(np.abs(a_only - b_only) - 1, 0) ** 2 / np.where(m > 0, m, 1)
        corrected = np.where(m > 0, chi2.sf(stat, 1), 1.0)
    return exact, corrected


def run_mcnemar(reps=MCNEMAR_REPS, seed=1947, designs=MCNEMAR_DESIGNS):
    """Equal error rates: each classifier alone right on a share q of cases."""
    out = []
    for di, (n, q) in enumerate(designs):
        rng = np.random.default_rng([seed, di])
        counts = rng.multinomial(n, [q, q, 1 - 2 * q], size=reps)
        exact, corrected = mcnemar_p(counts[:, 0], counts[:, 1])
        row = dict(n=n, discordant_share=q, reps=reps,
                   exact=float(np.mean(exact < ALPHA)),
                   chi2=float(np.mean(corrected < ALPHA)))
        out.append(row)
        print(row, flush=True)
    return out


# --------------------------------------------------- t-tests over CV folds
CV_DESIGNS = [100, 300]
CV_REPS = 10000
CV_PREVALENCE = 0.3
CV_SHIFT = 0.5  # class mean shift in each of the four features
FEATURES_A, FEATURES_B = [0, 1], [2, 3]


def cv_data(rng, n):
    """Two-class data; features 0-1 and 2-3 are alike, so the two learners
    (nearest class mean on features 0-1, and on 2-3) have the same expected
    error for every training-set size: the null hypothesis holds exactly."""
    y = rng.random(n) < CV_PREVALENCE
    X = rng.standard_normal((n, 4)) + CV_SHIFT * y[:, None]
    return X, y


def fold_errors(X, y, train, feats):
    """Test error of the nearest-class-mean learner for each row of ``train``
    (a boolean matrix: one training set per row; the test set is the rest)."""
    Xf = X[:, feats]
    tp, tn = train & y, train & ~y
    mean_pos = (tp @ Xf) / tp.sum(axis=1, keepdims=True)
    mean_neg = (tn @ Xf) / tn.sum(axis=1, keepdims=True)
    d_pos = ((Xf[None, :, :] - mean_pos[:, None, :]) ** 2).sum(axis=2)
    d_neg = ((Xf[None, :, :] - mean_neg[:, None, :]) ** 2).sum(axis=2)
    wrong = (d_pos < d_neg) != y[None, :]
    test = ~train
    return (wrong & test).sum(axis=1) / test.sum(axis=1)


def kfold_masks(rng, n, k):
    fold = np.empty(n, dtype=int)
    fold[rng.permutation(n)] = np.arange(n) % k
    return fold[None, :] != np.arange(k)[:, None]


def t_p(mean, var, df):
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / np.sqrt(var)
    if not np.isfinite(t):
        return 1.0 if mean == 0 else 0.0
    return float(2 * t_dist.sf(abs(t), df))


def cv_tests(rng, X, y):
    """P values of each way of comparing the two learners on one data set."""
    n = y.shape[0]
    p = {}

    def diffs(train):
        return (fold_errors(X, y, train, FEATURES_A)
                - fold_errors(X, y, train, FEATURES_B))

    # one 10-fold cross-validation: naive paired t-test (df 9)
    d = diffs(kfold_masks(rng, n, 10))
    p["10-fold, naive t"] = t_p(d.mean(), d.var(ddof=1) / 10, 9)
    p["10-fold, corrected t"] = t_p(d.mean(), d.var(ddof=1) * (1 / 10 + 1 / 9), 9)
    # 10 x 10-fold: naive (df 99) and corrected (Bouckaert & Frank 2004)
    d = np.concatenate([diffs(kfold_masks(rng, n, 10)) for _ in range(10)])
    p["10x10-fold, naive t"] = t_p(d.mean(), d.var(ddof=1) / 100, 99)
    p["10x10-fold, corrected t"] = t_p(
        d.mean(), d.var(ddof=1) * (1 / 100 + 1 / 9), 99)
    # 15 random 2/3 - 1/3 splits: resampled t, naive and Nadeau-Bengio
    n_test = n // 3
    J = 15
    train = np.ones((J, n), dtype=bool)
    for j in range(J):
        train[j, rng.permutation(n)[:n_test]] = False
    d = diffs(train)
    p["15 resamples, naive t"] = t_p(d.mean(), d.var(ddof=1) / J, J - 1)
    p["15 resamples, corrected t"] = t_p(
        d.mean(), d.var(ddof=1) * (1 / J + n_test / (n - n_test)), J - 1)
    # 5x2cv: Dietterich's t (5 df) and Alpaydin's combined F (10, 5 df)
    dd = np.empty((5, 2))
    for i in range(5):
        half = kfold_masks(rng, n, 2)
        dd[i] = diffs(half)
    s2 = ((dd - dd.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    p["5x2cv t"] = t_p(dd[0, 0], s2.mean(), 5)
    f = (dd**2).sum() / (2 * s2.sum()) if s2.sum() > 0 else np.inf
    p["5x2cv F"] = float(1 - __import__("scipy").stats.f.cdf(f, 10, 5))
    return p


def run_cv(reps=CV_REPS, seed=2003, designs=CV_DESIGNS):
    out = []
    for di, n in enumerate(designs):
        rng = np.random.default_rng([seed, di])
        rejects = {}
        for _ in range(reps):
            X, y = cv_data(rng, n)
            for key, pv in cv_tests(rng, X, y).items():
                rejects.setdefault(key, []).append(pv < ALPHA)
        # counts, not shares: reject[k] / reps is the rejection rate
        row = dict(n=n, reps=reps, prevalence=CV_PREVALENCE,
                   reject={k: int(np.sum(v)) for k, v in rejects.items()})
        out.append(row)
        print(row, flush=True)
    return out


# ------------------------------------------------- critical-difference data
# Eleven separate data sets, so that the blocks of Friedman's test are
# independent: four real ones bundled with scikit-learn (one task each) and
# seven synthetic ones, each drawn with its own seed, skew and signal.
CD_SYNTHETIC = [(0.1, 2), (0.1, 4), (0.2, 2), (0.2, 4), (0.3, 3), (0.05, 3),
                (0.15, 5)]  # (positive share, informative features) of 6


def cd_tasks():
    """Eleven separate binary tasks with weak features, all offline.

    Malignant against benign breast tumours on the four weak features of the
    rank-reversal case study (37% positives); eights against the other digits
    on the four quadrant means of the skewed-digits case study (10%); wine
    cultivar 3 against the others on the first four measurements (27%);
    virginica against the other irises on the two sepal measurements (33%);
    and seven ``make_classification`` sets of 400 cases with their own seeds,
    skews (5-30% positives) and numbers of informative features.
    """
    from sklearn.datasets import (load_breast_cancer, load_digits, load_iris,
                                  load_wine, make_classification)

    from aukbook.case_studies import CASE_STUDY_FEATURES

    tasks = []
    Xb, yb = load_breast_cancer(return_X_y=True)
    tasks.append(("breast cancer", Xb[:, CASE_STUDY_FEATURES], (yb == 0).astype(int)))
    X_all, digit = load_digits(return_X_y=True)
    quadrants = X_all.reshape(-1, 2, 4, 2, 4).mean(axis=(2, 4)).reshape(-1, 4)
    tasks.append(("digits (8 or not)", quadrants, (digit == 8).astype(int)))
    Xw, yw = load_wine(return_X_y=True)
    tasks.append(("wine (cultivar 3 or not)", Xw[:, :4], (yw == 2).astype(int)))
    Xi, yi = load_iris(return_X_y=True)
    tasks.append(("iris (virginica or not)", Xi[:, :2], (yi == 2).astype(int)))
    for i, (share, informative) in enumerate(CD_SYNTHETIC):
        X, y = make_classification(
            n_samples=400, n_features=6, n_informative=informative,
            n_redundant=0, weights=[1 - share], flip_y=0.05, class_sep=0.8,
            random_state=100 + i)
        tasks.append((f"synthetic {i + 1}", X, y))
    return tasks


def cd_models():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    return {
        "logistic regression": make_pipeline(StandardScaler(),
                                             LogisticRegression(max_iter=2000)),
        "LDA": LinearDiscriminantAnalysis(),
        "naive Bayes": GaussianNB(),
        "15-NN": make_pipeline(StandardScaler(), KNeighborsClassifier(15)),
        "tree (depth 3)": DecisionTreeClassifier(max_depth=3, random_state=0),
    }


def cd_row(X, y, seed=0):
    """Mean 5-fold cross-validated AUK of each model on one task."""
    from sklearn.model_selection import StratifiedKFold

    from auklib import auk_score

    row = {}
    for name, model in cd_models().items():
        aucs = []
        for tr, te in StratifiedKFold(5, shuffle=True, random_state=seed).split(X, y):
            model.fit(X[tr], y[tr])
            aucs.append(auk_score(y[te], model.predict_proba(X[te])[:, 1]))
        row[name] = round(float(np.mean(aucs)), 6)
    return row


def run_cd():
    out = []
    for name, X, y in cd_tasks():
        row = dict(task=name, positive_share=round(float(y.mean()), 4),
                   auk=cd_row(X, y))
        out.append(row)
        print(row, flush=True)
    return out


PARTS = {"delong": run_delong, "agreement": run_agreement, "mcnemar": run_mcnemar,
         "cv": run_cv, "cd": run_cd}


def main(parts):
    data = {}
    if os.path.exists(DATA):
        with open(DATA, encoding="utf-8") as fh:
            data = json.load(fh)
    for part in parts:
        start = time.time()
        data[part] = PARTS[part]()
        data.setdefault("seconds", {})[part] = round(time.time() - start, 1)
        with open(DATA, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
            fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:] or list(PARTS))
