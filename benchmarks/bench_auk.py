"""Time auklib against scikit-learn in one process and print the ratios.

    python benchmarks/bench_auk.py            # n = 10^7, takes about a minute
    python benchmarks/bench_auk.py --n 1e6    # quicker

Each timing is the best of ``--repeat`` runs on the same arrays (float64
scores, 10% positives).  Targets (issue: auklib): auk_score <= 0.8x
roc_auc_score, exact <= 1.5x trapezoid, kappa_curve <= 1.0x
roc_curve(drop_intermediate=False), and >= 1000x faster than a
per-threshold Python loop at n = 3000.
"""

import argparse
import time

import numpy as np
from sklearn.metrics import roc_auc_score, roc_curve

from auklib import auk_score, kappa_curve


def best_of(func, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    return min(times)


def loop_auk(labels, scores):
    """AUK the way a per-threshold loop computes it (the blog post's approach,
    written here from its description): for every distinct score, classify
    every sample in Python, count the table, compute kappa, then sum
    trapezoids.  O(n * thresholds)."""
    labels = list(labels)
    scores = list(scores)
    total = len(labels)
    pts = []
    for thr in sorted(set(scores)):
        tp = fp = tn = fn = 0
        for lab, sc in zip(labels, scores):
            pred = 1 if sc >= thr else 0
            if pred == 1 and lab == 1:
                tp += 1
            elif pred == 1:
                fp += 1
            elif lab == 1:
                fn += 1
            else:
                tn += 1
        tp, fp, tn, fn = tp / total, fp / total, tn / total, fn / total
        p, p_hat = tp + fn, tp + fp
        pc = p * p_hat + (1 - p) * (1 - p_hat)
        pts.append((fp / (fp + tn), (tp + tn - pc) / (1 - pc)))
    pts.append((0.0, 0.0))
    pts.sort()
    return sum((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in zip(pts, pts[1:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--loop-n", type=int, default=3000)
    args = parser.parse_args()
    n = int(args.n)

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = rng.normal(size=n) + y

    rows = []
    t_sk_auc = best_of(lambda: roc_auc_score(y, s), args.repeat)
    t_trap = best_of(lambda: auk_score(y, s), args.repeat)
    t_exact = best_of(lambda: auk_score(y, s, method="exact"), args.repeat)
    t_sk_roc = best_of(lambda: roc_curve(y, s, drop_intermediate=False), args.repeat)
    t_curve = best_of(lambda: kappa_curve(y, s), args.repeat)
    rows.append(("auk_score / roc_auc_score", t_trap, t_sk_auc, 0.8))
    rows.append(("auk_score(exact) / auk_score", t_exact, t_trap, 1.5))
    rows.append(("kappa_curve / roc_curve(drop_intermediate=False)", t_curve, t_sk_roc, 1.0))

    m = args.loop_n
    ys, ss = y[:m], s[:m]
    t_loop = best_of(lambda: loop_auk(ys, ss), 1)
    t_small = best_of(lambda: auk_score(ys, ss), 20)
    assert abs(loop_auk(ys, ss) - auk_score(ys, ss)) < 1e-9

    print(f"n = {n:,} float64 scores, {y.mean():.1%} positives; best of {args.repeat}")
    print(f"{'comparison':52s} {'auklib s':>9s} {'ref s':>9s} {'ratio':>7s} {'target':>8s}  ok")
    ok_all = True
    for name, a, b, target in rows:
        ratio = a / b
        ok = ratio <= target
        ok_all &= ok
        print(f"{name:52s} {a:9.3f} {b:9.3f} {ratio:7.3f} {'<= ' + str(target):>8s}  {'yes' if ok else 'NO'}")
    speedup = t_loop / t_small
    ok = speedup >= 1000
    ok_all &= ok
    print(f"{'python loop / auk_score at n = ' + str(m):52s} {t_small:9.5f} {t_loop:9.3f} "
          f"{speedup:7.0f}x {'>= 1000x':>8s}  {'yes' if ok else 'NO'}")
    return 0 if ok_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
