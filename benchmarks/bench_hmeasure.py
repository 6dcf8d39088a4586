"""Time auklib.h_measure against the hmeasure package, in one process.

    python benchmarks/bench_hmeasure.py            # n = 10^6
    python benchmarks/bench_hmeasure.py --n 1e5    # quicker

Each timing is the best of ``--repeat`` runs on the same arrays (scores in
[0, 1], which the package requires, 10% positives, no ties).  The printed
difference is the largest absolute difference between the two H values over
the data sets timed.
"""

import argparse
import time

import numpy as np
from hmeasure import h_score

from auklib import h_measure


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


if __name__ == "__main__":
    main()
