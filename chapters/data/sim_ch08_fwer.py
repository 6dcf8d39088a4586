"""Family-wise error rates of four aligned-rank post-hoc tests (chapter 8).

Tables are drawn under the complete null hypothesis (a data-set effect, a noise
level that differs between data sets, no classifier effect), and for each of
four post-hoc procedures we count how often Holm's step-down method declares
at least one pair different at the 5% level.  The results, with their Monte
Carlo standard errors, go to ``chapters/data/ch08_fwer.json``, which the
chapter reads; ``tests/claims/test_ch08_fwer.py`` re-runs a small slice.

Run (about ten minutes on one core)::

    nice -n 10 .venv/bin/python chapters/data/sim_ch08_fwer.py
"""

import json
import pathlib
import sys

import numpy as np
from scipy.stats import norm, rankdata

from auklib import aligned_ranks_posthoc

DESIGNS = [(3, 6), (10, 5), (30, 4)]
REPS = 10_000
SEED = 0
OUT = pathlib.Path(__file__).resolve().parent / "ch08_fwer.json"
METHODS = ["García et al.", "Dunn form", "exact variance", "permutation"]


def aligned_ranks(s):
    """Ranks 1..kb of the aligned values (each row minus its mean)."""
    aligned = s - s.mean(axis=1, keepdims=True)
    return rankdata(aligned.ravel()).reshape(s.shape)


def holm(raw):
    """Holm's step-down adjusted p-values."""
    raw = np.asarray(raw, dtype=float)
    order = np.argsort(raw, kind="stable")
    m = len(raw)
    steps = np.minimum(1.0, (m - np.arange(m)) * raw[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(steps)
    return adjusted


def null_tables(b, k, reps, seed):
    rng = np.random.default_rng(seed)
    effect = 3.0 * rng.normal(size=(reps, b, 1))
    noise = rng.uniform(0.5, 2.0, size=(reps, b, 1))
    return effect + noise * rng.normal(size=(reps, b, k))


def rejections(b, k, reps, seed):
    """(reps, 4) booleans: does each method find any pair at FWER 0.05?"""
    pairs = np.triu_indices(k, 1)
    out = np.zeros((reps, len(METHODS)), bool)
    for r, s in enumerate(null_tables(b, k, reps, seed)):
        m = aligned_ranks(s).mean(axis=0)
        gaps = np.abs(m[:, None] - m[None, :])[pairs]
        for c, se in enumerate(
            (np.sqrt(k * (b + 1) / 6), np.sqrt(k * (k * b + 1) / 6))
        ):
            out[r, c] = holm(2 * norm.sf(gaps / se)).min() <= 0.05
        out[r, 2] = aligned_ranks_posthoc(s).p_adjusted.min() <= 0.05
        out[r, 3] = (
            aligned_ranks_posthoc(
                s, method="permutation", n_permutations=999, random_state=r
            ).p_adjusted.min()
            <= 0.05
        )
    return out


def main(reps=REPS):
    result = {"reps": reps, "seed": SEED, "methods": METHODS, "designs": []}
    for b, k in DESIGNS:
        hits = rejections(b, k, reps, SEED)
        rate = hits.mean(axis=0)
        result["designs"].append(
            {
                "b": b,
                "k": k,
                "fwer": dict(zip(METHODS, rate.round(5).tolist())),
                "mc_se": dict(
                    zip(METHODS, np.sqrt(rate * (1 - rate) / reps).round(5).tolist())
                ),
            }
        )
        print(b, k, dict(zip(METHODS, rate.round(4))), flush=True)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else REPS)
