"""The reference tools' values on a fixed family of data sets.

    cd chapters/data/reference && ../../../.venv/bin/python make_reference.py

Writes, beside this file,

* ``binary.csv`` and ``multiclass.csv``: the data sets, drawn from ``SEED``
  by :func:`binary_datasets` and :func:`multiclass_datasets` (the test suite
  draws them again and checks that the files hold exactly these cases);
* ``reference.json``: what R's pROC, vcd and psych and R's own
  ``mcnemar.test`` and ``binom.test`` (run by ``reference.R`` through
  ``Rscript``), scikit-learn and the PyPI ``hmeasure`` package return
  on them, with the tools' versions, the date and this command.

auklib is not imported here: the file holds the other tools' numbers only,
and ``tests/test_reference_implementations.py`` compares auklib with them.

Every score has at most seven decimals, and the metrics compared depend on the
scores only through their order, so R's and Python's parsing of the CSV give
the same answers; decisions are stored as 0/1 columns, not re-derived.
"""

import csv
import datetime
import importlib.metadata
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261125
COMMAND = "cd chapters/data/reference && ../../../.venv/bin/python make_reference.py"
BINARY_CSV = os.path.join(HERE, "binary.csv")
MULTICLASS_CSV = os.path.join(HERE, "multiclass.csv")
REFERENCE_JSON = os.path.join(HERE, "reference.json")
BINARY_COLUMNS = ["dataset", "y", "score_a", "score_b", "pred_a", "pred_b", "weight"]
N_CLASSES_MAX = 4
MULTICLASS_COLUMNS = ["dataset", "y", "pred"] + [f"p{k}" for k in range(N_CLASSES_MAX)]


def _rng(name):
    """One generator per data set, seeded by its name: adding, removing or
    reordering data sets changes no other."""
    return np.random.default_rng([SEED, zlib.crc32(name.encode("ascii"))])


def _prob(z, decimals=6):
    return np.round(1.0 / (1.0 + np.exp(-z)), decimals)


def _two_scorers(rng, n_pos, n_neg, d=1.2, noise_a=0.5, noise_b=1.2, decimals=6):
    """Two correlated views (a sharper, b noisier) of one binormal latent score."""
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    latent = np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]
    a = _prob(latent + rng.normal(0, noise_a, y.size) - d / 2, decimals)
    b = _prob(latent + rng.normal(0, noise_b, y.size) - d / 2, decimals)
    return y, a, b


# name, description, builder(rng) -> (y, score_a, score_b, pred_a, pred_b, weight)
def _moderate(rng):
    y, a, b = _two_scorers(rng, 60, 140)
    return y, a, b, a >= 0.5, b >= 0.5, None


def _ties(rng):
    y, a, b = _two_scorers(rng, 40, 80, decimals=1)
    return y, a, b, a >= 0.5, b >= 0.5, None


def _three_positives(rng):
    y, a, b = _two_scorers(rng, 3, 30, d=1.5)
    return y, a, b, a >= 0.5, b >= 0.5, None


def _one_percent(rng):
    y, a, b = _two_scorers(rng, 20, 1980, d=2.0, decimals=3)
    return y, a, b, a >= 0.7, b >= 0.7, None


def _crisp(rng):
    y, a, b = _two_scorers(rng, 30, 120, d=2.0)
    a, b = (a >= 0.5).astype(float), (b >= 0.5).astype(float)
    return y, a, b, a, b, None


def _perfect(rng):
    y = np.r_[np.ones(25, dtype=int), np.zeros(75, dtype=int)]
    a = np.round(np.r_[rng.uniform(0.6, 1, 25), rng.uniform(0, 0.4, 75)], 6)
    _, _, b = _two_scorers(rng, 25, 75)
    return y, a, b, a >= 0.5, b >= 0.5, None


def _worse_than_chance(rng):
    y, a, b = _two_scorers(rng, 30, 70, d=0.8)
    a = np.round(1.0 - a, 6)  # reversed: AUC below 1/2
    return y, a, b, a >= 0.5, b >= 0.5, None


def _monotone_transform(rng):
    y, a, _ = _two_scorers(rng, 20, 60)
    b = a / 2  # the same order: equal AUCs and placements, a zero variance
    return y, a, b, a >= 0.5, b >= 0.25, None


def _weighted(rng):
    y, a, b = _two_scorers(rng, 50, 100, decimals=2)
    w = rng.choice([0.5, 1.0, 2.0, 3.25], size=y.size)
    return y, a, b, a >= 0.5, b >= 0.5, w


BINARY = [
    ("moderate", "200 cases, 60 positive, continuous scores", _moderate),
    ("ties", "120 cases, 40 positive, scores rounded to one decimal (ties within "
     "and across the classes)", _ties),
    ("three_positives", "33 cases, 3 positive", _three_positives),
    ("one_percent", "2,000 cases, 20 positive (1% prevalence), scores with three "
     "decimals (some ties)", _one_percent),
    ("crisp", "150 cases, 30 positive, crisp 0/1 scores", _crisp),
    ("perfect", "100 cases, 25 positive; classifier a separates the classes "
     "perfectly", _perfect),
    ("worse_than_chance", "100 cases, 30 positive; classifier a's AUC is below 1/2",
     _worse_than_chance),
    ("monotone_transform", "80 cases, 20 positive; classifier b's scores are "
     "a's halved (the same ranking)", _monotone_transform),
    ("weighted", "150 cases, 50 positive, case weights 0.5-3.25, scores rounded to "
     "two decimals (scikit-learn only: pROC, vcd, psych and hmeasure take no "
     "case weights)", _weighted),
]


def binary_datasets():
    """{name: dict of 1-D arrays y, score_a, score_b, pred_a, pred_b, weight}."""
    out = {}
    for name, _, build in BINARY:
        y, a, b, pa, pb, w = build(_rng(name))
        out[name] = {
            "y": np.asarray(y, dtype=int),
            "score_a": np.asarray(a, dtype=float),
            "score_b": np.asarray(b, dtype=float),
            "pred_a": np.asarray(pa, dtype=int),
            "pred_b": np.asarray(pb, dtype=int),
            "weight": np.ones(len(y)) if w is None else np.asarray(w, dtype=float),
        }
    return out


def _class_probabilities(latent, n_classes, decimals):
    """Rows of class probabilities, rounded, summing to 1 up to rounding."""
    centres = np.arange(n_classes)
    logits = -0.5 * (latent[:, None] - centres[None, :]) ** 2 / 0.6
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p = np.round(p, decimals)
    p[:, -1] = np.round(1.0 - p[:, :-1].sum(axis=1), decimals)
    return np.clip(p, 0.0, 1.0)


def _ordinal(rng, shares, n, noise, decimals):
    y = rng.choice(len(shares), size=n, p=shares)
    latent = y + rng.normal(0, noise, n)
    p = _class_probabilities(latent, len(shares), decimals)
    return y, np.argmax(p, axis=1), p


MULTICLASS = [
    ("ordinal4", "400 cases, 4 ordered classes (shares 0.4, 0.3, 0.2, 0.1), "
     "probabilities with six decimals",
     lambda rng: _ordinal(rng, [0.4, 0.3, 0.2, 0.1], 400, 0.8, 6)),
    ("skewed3", "600 cases, 3 classes (shares 0.85, 0.12, 0.03), probabilities "
     "rounded to one decimal (ties)",
     lambda rng: _ordinal(rng, [0.85, 0.12, 0.03], 600, 0.7, 1)),
]


def multiclass_datasets():
    """{name: dict of y (n,), pred (n,), proba (n, n_classes)}."""
    out = {}
    for name, _, build in MULTICLASS:
        y, pred, p = build(_rng(name))
        out[name] = {"y": y.astype(int), "pred": pred.astype(int), "proba": p}
    return out


def _fmt(v):
    """Shortest round-trip text; integers without a decimal point."""
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return repr(float(v))


def binary_rows(data):
    rows = []
    for name, d in data.items():
        for i in range(d["y"].size):
            rows.append([name] + [_fmt(d[c][i]) for c in BINARY_COLUMNS[1:]])
    return rows


def multiclass_rows(data):
    rows = []
    for name, d in data.items():
        k = d["proba"].shape[1]
        for i in range(d["y"].size):
            p = [_fmt(d["proba"][i, j]) for j in range(k)] + ["NA"] * (N_CLASSES_MAX - k)
            rows.append([name, _fmt(d["y"][i]), _fmt(d["pred"][i])] + p)
    return rows


def _write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


# ------------------------------------------------------------ scikit-learn
def sklearn_binary(d):
    from sklearn import metrics

    y, w = d["y"], d["weight"]
    sw = None if np.all(w == 1) else w
    out = {}
    for c in ("a", "b"):
        s, pred = d[f"score_{c}"], d[f"pred_{c}"]
        fpr, tpr, thr = metrics.roc_curve(y, s, sample_weight=sw, drop_intermediate=False)
        prec, rec, _ = metrics.precision_recall_curve(y, s, sample_weight=sw)
        cut = thr[1:]  # the distinct scores, decreasing
        out[c] = {
            "roc_auc_score": metrics.roc_auc_score(y, s, sample_weight=sw),
            "average_precision_score": metrics.average_precision_score(
                y, s, sample_weight=sw),
            "roc_curve_fpr": fpr.tolist(),
            "roc_curve_tpr": tpr.tolist(),
            "roc_curve_thresholds": [float(t) for t in cut],
            # precision_recall_curve's points, thresholds decreasing (the
            # final point (recall 0, precision 1) dropped)
            "precision_recall_curve_precision": prec[-2::-1].tolist(),
            "precision_recall_curve_recall": rec[-2::-1].tolist(),
            "cohen_kappa_score": metrics.cohen_kappa_score(y, pred, sample_weight=sw),
            "matthews_corrcoef": metrics.matthews_corrcoef(y, pred, sample_weight=sw),
            "cohen_kappa_score_per_threshold": [
                metrics.cohen_kappa_score(y, (s >= t).astype(int), sample_weight=sw)
                for t in cut],
            "matthews_corrcoef_per_threshold": [
                metrics.matthews_corrcoef(y, (s >= t).astype(int), sample_weight=sw)
                for t in cut],
        }
    return out


def sklearn_multiclass(d):
    from sklearn import metrics

    y, pred, p = d["y"], d["pred"], d["proba"]
    return {
        "roc_auc_score_ovo": metrics.roc_auc_score(y, p, multi_class="ovo"),
        "cohen_kappa_score": metrics.cohen_kappa_score(y, pred),
        "cohen_kappa_score_linear": metrics.cohen_kappa_score(y, pred, weights="linear"),
        "cohen_kappa_score_quadratic": metrics.cohen_kappa_score(
            y, pred, weights="quadratic"),
    }


def hmeasure_binary(d):
    from hmeasure import h_score

    return {c: {"h_score": h_score(d["y"], d[f"score_{c}"]),
                "h_score_severity_1": h_score(d["y"], d[f"score_{c}"], severity_ratio=1.0)}
            for c in ("a", "b")}


# ---------------------------------------------------------------------- R
def run_r():
    """Run reference.R on the stored CSVs; its long table as nested dicts."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r_values.csv")
        subprocess.run(
            ["Rscript", "--vanilla", os.path.join(HERE, "reference.R"),
             BINARY_CSV, MULTICLASS_CSV, out],
            check=True)
        values, versions = {}, {}
        with open(out, newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                if row["kind"] == "version":
                    versions[row["tool"]] = row["value"]
                    continue
                v = None if row["value"] in ("NA", "NaN") else float(row["value"])
                node = values.setdefault(row["kind"], {}).setdefault(row["dataset"], {})
                node = node.setdefault(row["tool"], {})
                if row["scorer"]:
                    node = node.setdefault(row["scorer"], {})
                node.setdefault(row["quantity"], []).append(v)
    # one-element lists are scalars
    def flatten(node):
        if isinstance(node, dict):
            return {k: flatten(v) for k, v in node.items()}
        return node[0] if len(node) == 1 else node
    return flatten(values), versions


def _finite(node):
    """JSON has no NaN: a non-finite float becomes None (none is expected)."""
    if isinstance(node, dict):
        return {k: _finite(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_finite(v) for v in node]
    if isinstance(node, float) and not math.isfinite(node):
        return None
    return node


def main():
    binary, multi = binary_datasets(), multiclass_datasets()
    _write_csv(BINARY_CSV, BINARY_COLUMNS, binary_rows(binary))
    _write_csv(MULTICLASS_CSV, MULTICLASS_COLUMNS, multiclass_rows(multi))
    # the CSVs hold shortest round-trip decimals: reading them back gives
    # these arrays exactly (tests/test_reference_implementations.py checks it)
    r_values, r_versions = run_r()
    ref = {
        "about": "Values of R's pROC, vcd, psych and stats, scikit-learn and the PyPI "
                 "hmeasure package on the data sets of binary.csv and "
                 "multiclass.csv; tests/test_reference_implementations.py "
                 "compares auklib with them.",
        "generated": datetime.date.today().isoformat(),
        "command": COMMAND,
        "seed": SEED,
        "installed": "R and its packages from Debian 12 (apt-get install r-base-core "
                     "r-cran-proc r-cran-vcd r-cran-psych); scikit-learn and "
                     "hmeasure from the book's requirements.txt",
        "tools": {
            **r_versions,
            "scikit-learn": importlib.metadata.version("scikit-learn"),
            "hmeasure (PyPI)": importlib.metadata.version("hmeasure"),
            "Python": platform.python_version(),
            "numpy": importlib.metadata.version("numpy"),
            "scipy": importlib.metadata.version("scipy"),
        },
        "binary": {},
        "multiclass": {},
    }
    for name, description, _ in BINARY:
        d = binary[name]
        entry = {"description": description,
                 "n_pos": int(d["y"].sum()), "n_neg": int((1 - d["y"]).sum()),
                 "scikit-learn": sklearn_binary(d)}
        if np.all(d["weight"] == 1):  # R's tools and hmeasure take no weights
            entry["hmeasure"] = hmeasure_binary(d)
            entry.update(r_values["binary"][name])
        ref["binary"][name] = entry
    for name, description, _ in MULTICLASS:
        d = multi[name]
        entry = {"description": description, "n": int(d["y"].size),
                 "n_classes": int(d["proba"].shape[1]),
                 "scikit-learn": sklearn_multiclass(d)}
        entry.update(r_values["multiclass"][name])
        ref["multiclass"][name] = entry
    text = json.dumps(_finite(ref), indent=1, allow_nan=False)
    # a list of numbers on one line: the file stays readable and small
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]",
                  lambda m: "[" + " ".join(m.group(1).split()) + "]", text)
    with open(REFERENCE_JSON, "w", encoding="utf-8") as fh:
        fh.write(text + "\n")
    print(f"wrote {os.path.relpath(REFERENCE_JSON)} "
          f"({', '.join(f'{k} {v}' for k, v in ref['tools'].items())})")


if __name__ == "__main__":
    sys.exit(main())
