"""Time the AUK's bootstrap interval and paired comparison in one process.

    python benchmarks/bench_uncertainty.py              # n = 10^5, 2000 resamples
    python benchmarks/bench_uncertainty.py --n 1e4      # quicker

The naive way to bootstrap the AUK calls ``auk_score`` once per replicate
(and per classifier), re-sorting every resample.  auklib sorts once and
draws each replicate as counts over the sorted order.  Goal (issue 11): a
2000-resample interval at n = 10^5 in at most 0.2 of the time of 2000 calls
of ``auk_score(method="exact")`` on the same data; the paired comparison
likewise against 2 x 2000 calls (two classifiers per replicate).
The analytic interval and comparison (``method="analytic"``, the
influence-function standard error) should take at most 1/50 of the time
of the bootstrap ones on the same data.

The reference time is measured on a sample of calls and scaled up; each
timing is the best of ``--repeat`` runs, interleaved, so that a busy machine
slows both sides alike.
"""

import argparse
import time

import numpy as np

from auklib import auk_compare, auk_confidence_interval, auk_score


def timed(func):
    t0 = time.perf_counter()
    func()
    return time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e5)
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=100,
                        help="auk_score calls timed (scaled to --resamples)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, m = int(args.n), args.resamples
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(int)
    a = rng.normal(size=n) + 1.5 * y
    b = a + rng.normal(size=n)

    def calls():
        for _ in range(args.calls):
            auk_score(y, a, method="exact")

    ref, ci, cmp, ci_an, cmp_an = [], [], [], [], []
    for r in range(args.repeat):
        ref.append(timed(calls) * m / args.calls)
        ci.append(timed(lambda: auk_confidence_interval(
            y, a, n_resamples=m, random_state=r, method="bootstrap")))
        cmp.append(timed(lambda: auk_compare(y, a, b, n_resamples=m, random_state=r,
                                             method="bootstrap")))
        ci_an.append(timed(lambda: auk_confidence_interval(y, a, method="analytic")))
        cmp_an.append(timed(lambda: auk_compare(y, a, b, method="analytic")))
    t_ref, t_ci, t_cmp = min(ref), min(ci), min(cmp)
    t_ci_an, t_cmp_an = min(ci_an), min(cmp_an)
    rows = [
        (f"{m} x auk_score(method='exact')", t_ref, 1.0, ""),
        (f"auk_confidence_interval({m} resamples)", t_ci, t_ci / t_ref, "<= 0.2"),
        (f"auk_compare({m} resamples, 2 classifiers)", t_cmp, t_cmp / (2 * t_ref),
         "<= 0.2 (vs 2 x 2000 calls)"),
        ("auk_confidence_interval(method='analytic')", t_ci_an, t_ci_an / t_ci,
         "<= 0.02 (vs the bootstrap interval)"),
        ("auk_compare(method='analytic')", t_cmp_an, t_cmp_an / t_cmp,
         "<= 0.02 (vs the bootstrap comparison)"),
    ]
    print(f"n = {n:,}, 10% positives, best of {args.repeat}")
    print(f"{'':46s} {'seconds':>8s} {'ratio':>7s}  goal")
    for name, t, ratio, goal in rows:
        print(f"{name:46s} {t:8.3f} {ratio:7.3f}  {goal}")


if __name__ == "__main__":
    main()
