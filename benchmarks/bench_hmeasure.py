"""Time auklib.h_measure and auklib.metric_curve against the alternatives.

    python benchmarks/bench_hmeasure.py            # n = 10^6 for the H-measure
    python benchmarks/bench_hmeasure.py --n 1e5    # quicker

Part 1: h_measure against the hmeasure package (0.1.6), in one process, on
scores in [0, 1] (which the package requires), 10% positives.  The printed
difference is the largest absolute difference between the two H values.

Part 2: metric_curve against sklearn.metrics.metric_at_thresholds, which
calls the scikit-learn metric once per threshold, at ``--curve-n`` samples
(2000 by default, all scores distinct).

Each timing is the best of ``--repeat`` runs on the same arrays.
"""

import argparse
import time

import numpy as np
from hmeasure import h_score
from sklearn.metrics import (
    cohen_kappa_score,
    f1_score,
    matthews_corrcoef,
    metric_at_thresholds,
)

from auklib import h_measure, metric_curve


def best_of(func, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--curve-n", type=int, default=2000)
    args = parser.parse_args()
    n = int(args.n)

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(np.int64)
    rows, worst = [], 0.0
    for label, s in (
        ("separation 1", 1 / (1 + np.exp(-(rng.normal(size=n) + y)))),
        ("separation 3", 1 / (1 + np.exp(-(rng.normal(size=n) + 3 * y)))),
        ("3 decimals (ties)", np.round(rng.random(n) * 0.6 + 0.4 * y, 3)),
    ):
        worst = max(worst, abs(h_measure(y, s) - h_score(y, s)))
        t_pkg = best_of(lambda: h_score(y, s), args.repeat)
        t_auk = best_of(lambda: h_measure(y, s), args.repeat)
        rows.append((label, t_auk, t_pkg))

    print(f"h_measure vs hmeasure.h_score, n = {n:,}, 10% positives")
    print(f"{'scores':<20}{'auklib (s)':>12}{'package (s)':>13}{'ratio':>8}")
    for label, t_auk, t_pkg in rows:
        print(f"{label:<20}{t_auk:>12.4f}{t_pkg:>13.4f}{t_auk / t_pkg:>8.2f}")
    print(f"largest |difference| of H: {worst:.1e}")

    m = args.curve_n
    y = (rng.random(m) < 0.1).astype(np.int64)
    s = rng.normal(size=m) + y
    print()
    print(f"metric_curve vs metric_at_thresholds, n = {m:,} ({m:,} thresholds)")
    print(
        f"{'metric':<10}{'auklib (ms)':>13}{'sklearn (ms)':>14}"
        f"{'speed-up':>10}{'max |diff|':>12}"
    )
    for name, func in (
        ("kappa", cohen_kappa_score),
        ("mcc", matthews_corrcoef),
        ("f1", f1_score),
    ):
        diff = np.max(
            np.abs(metric_curve(y, s, name)[0] - metric_at_thresholds(y, s, func)[0])
        )
        t_sk = best_of(lambda: metric_at_thresholds(y, s, func), 1)
        t_auk = best_of(lambda: metric_curve(y, s, name), args.repeat * 10)
        print(
            f"{name:<10}{t_auk * 1e3:>13.3f}{t_sk * 1e3:>14.1f}"
            f"{t_sk / t_auk:>10.0f}{diff:>12.1e}"
        )


if __name__ == "__main__":
    main()
