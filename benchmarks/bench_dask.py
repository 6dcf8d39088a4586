"""auklib.dask on Parquet files on disk, against single-process auklib.

    python benchmarks/bench_dask.py                    # 10^7 rows, about a minute
    python benchmarks/bench_dask.py --chunk-scaling-only   # time against chunks
    python benchmarks/bench_dask.py --n 1e8 --bounds-n 1e9 \\
        --out chapters/data/dask_bench.json            # the book's run (long)
    python benchmarks/bench_dask.py --partitions-only chapters/data/dask_partitions.json
                                                       # time against partition size

Writes ``--n`` rows (labels int8, probability scores float64, 10% positives,
binormal with separation 1.2 on the logit scale) to Parquet files of
``--rows-per-file`` rows, then on a ``LocalCluster`` of ``--workers``
single-threaded worker processes times

* ``auklib.dask.auk_score`` (exact: a distributed sort of per-score counts),
* ``auklib.dask.auk_score_bounds`` at several ``n_bins`` (one pass each, with
  ``range=(0, 1)``), and with ``refine`` (a second pass),

each on a fresh cluster, recording every worker's peak resident memory
(``ru_maxrss``).  Single-process ``auklib.auk_score`` (read the columns with
pyarrow, then count) runs in a child process, whose peak memory is its own
``ru_maxrss``, when the data fit (``--single-max``).  ``--bounds-n`` adds a
second, larger data set on which only the bounds run, at 4096 bins, unless
its predicted time exceeds ``--budget`` seconds (the exact sort needs
about 24 bytes per distinct score in the workers' memory, which a billion
distinct scores do not fit on a 24 GiB machine).

First it times the exact AUK against the number of chunks (10, 30, 100, 300
and 1,000 chunks of 10 values, on the same cluster): the task graph grows
linearly in the chunks, so the time per chunk must not grow.
"""

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

N_BINS = (256, 4096, 65536)


def _write_file(path, start, rows, seed):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng([seed, start])
    y = (rng.random(rows) < 0.1).astype(np.int8)
    z = rng.normal(size=rows)
    z += 1.2 * y
    s = 1.0 / (1.0 + np.exp(-z))
    del z
    pq.write_table(pa.table({"y": y, "s": s}), path, row_group_size=rows,
                   compression="snappy")
    return rows


def write_data(client, folder, n, rows_per_file, seed=20261123):
    from dask import delayed

    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    tasks = []
    for i, start in enumerate(range(0, n, rows_per_file)):
        rows = min(rows_per_file, n - start)
        path = os.path.join(folder, f"part-{i:05d}.parquet")
        tasks.append(delayed(_write_file)(path, start, rows, seed))
    t0 = time.perf_counter()
    total = sum(client.compute(tasks, sync=True))
    assert total == n
    size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder))
    return time.perf_counter() - t0, size


def _maxrss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_on_cluster(folder, args, func):
    """Run func(ddf) on a fresh LocalCluster: (result, seconds, peak RSS per worker)."""
    import dask
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      memory_limit=args.memory_limit, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        ddf = dd.read_parquet(folder, columns=["y", "s"])
        t0 = time.perf_counter()
        with dask.config.set(scheduler=client.get):
            out = func(ddf)
        seconds = time.perf_counter() - t0
        peaks = sorted(client.run(_maxrss_bytes).values())
    return out, seconds, peaks


def single_process(folder):
    """Time auklib.auk_score in a child process; return its dict."""
    code = f"""
import json, os, resource, time
import numpy as np, pyarrow.parquet as pq
import auklib
t0 = time.perf_counter()
tab = pq.read_table({folder!r}, columns=["y", "s"])
y = tab.column("y").to_numpy(); s = tab.column("s").to_numpy()
del tab
t1 = time.perf_counter()
auk = auklib.auk_score(y, s)
t2 = time.perf_counter()
print(json.dumps({{"auk": auk, "read_s": t1 - t0, "auk_s": t2 - t1,
  "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_size(n, args, exact, single, n_bins_list=N_BINS, refine=True):
    import auklib.dask as ad
    from distributed import Client, LocalCluster

    folder = os.path.join(args.data_dir, f"n{n}")
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      memory_limit=args.memory_limit, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        write_s, size = write_data(client, folder, n, args.rows_per_file)
    row = {"rows": n, "files": -(-n // args.rows_per_file), "parquet_bytes": size,
           "write_s": write_s}
    print(f"n = {n:.0e}: wrote {size / 2**30:.2f} GiB in {write_s:.1f} s", flush=True)
    if exact:
        auk, sec, peaks = run_on_cluster(folder, args, lambda d: ad.auk_score(d.y, d.s))
        row["exact"] = {"auk": auk, "seconds": sec, "peak_rss_bytes_per_worker": peaks}
        print(f"  exact AUK {auk:.12f}: {sec:.1f} s, peak RSS per worker "
              f"{[round(p / 2**30, 2) for p in peaks]} GiB", flush=True)
    row["bounds"] = []
    for n_bins in n_bins_list:
        b, sec, peaks = run_on_cluster(
            folder, args,
            lambda d, k=n_bins: ad.auk_score_bounds(d.y, d.s, n_bins=k, range=(0, 1)))
        row["bounds"].append({"n_bins": n_bins, "low": b.low, "high": b.high,
                              "seconds": sec, "peak_rss_bytes_per_worker": peaks})
        print(f"  bounds n_bins={n_bins}: [{b.low:.9f}, {b.high:.9f}] width "
              f"{b.high - b.low:.2e}, {sec:.1f} s, peak "
              f"{[round(p / 2**30, 2) for p in peaks]} GiB", flush=True)
    if refine:
        b, sec, peaks = run_on_cluster(
            folder, args,
            lambda d: ad.auk_score_bounds(d.y, d.s, n_bins=1024, range=(0, 1), refine=8))
        row["refined"] = {"n_bins": 1024, "refine": 8, "bins_after": b.n_bins,
                          "low": b.low, "high": b.high, "seconds": sec,
                          "peak_rss_bytes_per_worker": peaks}
        print(f"  bounds n_bins=1024 refine=8: width {b.high - b.low:.2e}, {sec:.1f} s",
              flush=True)
    if single:
        row["single_process"] = single_process(folder)
        sp = row["single_process"]
        print(f"  single process: read {sp['read_s']:.1f} s, auk_score "
              f"{sp['auk_s']:.1f} s, peak RSS {sp['peak_rss_bytes'] / 2**30:.2f} GiB, "
              f"AUK {sp['auk']:.12f}", flush=True)
        if exact:
            row["exact_minus_single"] = row["exact"]["auk"] - sp["auk"]
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return row


CHUNK_COUNTS = (10, 30, 100, 300, 1000)


def chunk_scaling(args, chunk_len=10):
    """Seconds of auklib.dask.auk_score against the number of chunks."""
    import dask
    import dask.array as da
    from distributed import Client, LocalCluster

    import auklib
    import auklib.dask as ad

    rows = []
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      memory_limit=args.memory_limit, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        with dask.config.set(scheduler=client.get):
            for n_chunks in (10,) + CHUNK_COUNTS:  # the first run warms up
                rng = np.random.default_rng(n_chunks)
                n = n_chunks * chunk_len
                y = rng.random(n) < 0.3
                y[:2] = [False, True]
                s = rng.normal(size=n) + y
                y_d = da.from_array(y, chunks=chunk_len)
                s_d = da.from_array(s, chunks=chunk_len)
                t0 = time.perf_counter()
                got = ad.auk_score(y_d, s_d)
                sec = time.perf_counter() - t0
                assert abs(got - auklib.auk_score(y, s)) < 1e-12
                # dask's own overhead on the same chunks: a tree-reduction sum
                t0 = time.perf_counter()
                dask.compute(y_d.sum(), s_d.sum())
                sum_sec = time.perf_counter() - t0
                rows.append({"chunks": n_chunks, "rows": n, "seconds": sec,
                             "dask_sum_seconds": sum_sec})
    rows = rows[1:]
    print(f"exact AUK against the number of chunks ({chunk_len} values each, "
          f"{args.workers} workers; dask's own sum of the same chunks for scale):",
          flush=True)
    print("  chunks   seconds   ms per chunk   x time at 10 chunks   dask sum (s)   "
          "AUK / sum", flush=True)
    for r in rows:
        print(f"  {r['chunks']:6d} {r['seconds']:9.2f} {1e3 * r['seconds'] / r['chunks']:14.1f}"
              f" {r['seconds'] / rows[0]['seconds']:21.1f} {r['dask_sum_seconds']:14.2f}"
              f" {r['seconds'] / r['dask_sum_seconds']:11.1f}", flush=True)
    return rows


def _spilled_bytes(dask_worker):
    metrics = getattr(dask_worker.data, "cumulative_metrics", {})
    return int(metrics.get(("disk-write", "bytes"), 0))


def memory_run(n, memory_limit, workers=2, chunk=1_000_000, seed=7):
    """The exact AUK of n continuous scores generated on a fresh LocalCluster.

    Returns seconds, each worker's peak RSS and bytes spilled to disk, the
    need auklib.dask predicts, and whether it warned (ClusterMemoryWarning).
    """
    import warnings

    import dask
    import dask.array as da
    from distributed import Client, LocalCluster

    import auklib.dask as ad

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      memory_limit=memory_limit, dashboard_address=None,
                      silence_logs=50) as cluster, Client(cluster) as client:
        with dask.config.set(scheduler=client.get):
            rng = da.random.default_rng(seed)
            y = rng.random(n, chunks=chunk) < 0.1
            s = rng.normal(size=n, chunks=chunk) + 1.2 * y
            y, s = dask.persist(y, s)  # the data sit on the workers first
            client.run(lambda: None)
            base = client.run(_maxrss_bytes)
            t0 = time.perf_counter()
            # what the memory check decided (warnings.catch_warnings is not
            # thread-safe, and distributed's threads use it: record the call)
            decided = []
            check = ad._warn_memory

            def spy(*a, **k):
                decided.append(check(*a, **k))
                return decided[-1]

            ad._warn_memory = spy
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ad.ClusterMemoryWarning)
                    auk = ad.auk_score(y, s)
            finally:
                ad._warn_memory = check
            seconds = time.perf_counter() - t0
            peaks = client.run(_maxrss_bytes)
            spilled = client.run(_spilled_bytes)
            threads, info, _ = ad._cluster()
    warned = [d for d in decided if d is not None]
    others = []
    need = ad._memory_need(n, ad._choose_n_ranges(n, threads, info), threads)
    row = {"rows": n, "workers": workers, "memory_limit": memory_limit, "auk": auk,
           "seconds": seconds, "data_rss_bytes_per_worker": sorted(base.values()),
           "peak_rss_bytes_per_worker": sorted(peaks.values()),
           "spilled_bytes_per_worker": sorted(spilled.values()),
           "predicted_need_bytes": need, "warned": warned, "other_warnings": others}
    print(f"memory: {n:.0e} rows, {workers} workers of {memory_limit}: {seconds:.1f} s, "
          f"peak RSS {[round(p / 2**30, 2) for p in row['peak_rss_bytes_per_worker']]} GiB"
          f", spilled {[round(p / 2**30, 2) for p in row['spilled_bytes_per_worker']]} GiB,"
          f" predicted need {need / 2**30:.2f} GiB, warned: {bool(warned)} {others}", flush=True)
    return row


PARTITION_COUNTS = (3, 10, 30, 100, 300)


def partition_run(n=10**7, counts=PARTITION_COUNTS, workers=2, memory_limit="4GiB",
                  repeat=2, seed=5):
    """Seconds of the exact AUK of the same n rows cut into each number of partitions.

    The data (10% positives, continuous scores, every score distinct) are
    generated on a fresh LocalCluster and persisted on the workers, then
    rechunked to each partition count and persisted again, so that only the
    sort is timed; the best of ``repeat`` runs.  Dask's own sum of the same
    chunks is timed beside it, for scale.
    """
    import dask
    import dask.array as da
    from distributed import Client, LocalCluster

    import auklib.dask as ad

    rows = []
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      memory_limit=memory_limit, dashboard_address=None,
                      silence_logs=50) as cluster, Client(cluster) as client:
        with dask.config.set(scheduler=client.get):
            rng = da.random.default_rng(seed)
            y = rng.random(n, chunks=n // counts[0] + 1) < 0.1
            s = rng.normal(size=n, chunks=n // counts[0] + 1) + 1.2 * y
            y, s = dask.persist(y, s)
            auks = []
            for k in counts:
                chunk = -(-n // k)
                yk, sk = dask.persist(y.rechunk(chunk), s.rechunk(chunk))
                dask.compute(yk.sum(), sk.sum())  # in place before the clock starts
                times, sums = [], []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    auks.append(ad.auk_score(yk, sk))
                    times.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    dask.compute(yk.sum(), sk.sum())
                    sums.append(time.perf_counter() - t0)
                rows.append({"partitions": k, "rows_per_partition": chunk,
                             "seconds": min(times), "dask_sum_seconds": min(sums)})
                print(f"partitions {k:4d} ({chunk:,} rows each): exact AUK "
                      f"{min(times):.1f} s, dask sum {min(sums):.2f} s", flush=True)
            del y, s
    assert max(auks) - min(auks) < 1e-12, auks
    return {"rows": n, "workers": workers, "threads_per_worker": 1,
            "memory_limit": memory_limit, "repeat": repeat, "auk": auks[0], "runs": rows}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7, help="rows (exact and bounds)")
    parser.add_argument("--bounds-n", type=float, default=0,
                        help="rows of a second data set, bounds only (0: none)")
    parser.add_argument("--rows-per-file", type=int, default=5_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="9GiB")
    parser.add_argument("--budget", type=float, default=900,
                        help="skip the --bounds-n run if predicted to take longer (s)")
    parser.add_argument("--single-max", type=float, default=2e8,
                        help="largest n run single-process (in memory)")
    parser.add_argument("--data-dir", default="/tmp/auklib_dask_bench")
    parser.add_argument("--keep", action="store_true", help="keep the Parquet files")
    parser.add_argument("--out", default=None, help="write the results as JSON here")
    parser.add_argument("--chunk-scaling-only", action="store_true",
                        help="only time the exact AUK against the number of chunks")
    parser.add_argument("--memory-only", default=None, metavar="JSON",
                        help="only measure the exact sort's memory on 1e7 rows (ample "
                             "and tight worker limits) and write the results here")
    parser.add_argument("--partitions-only", default=None, metavar="JSON",
                        help="only time the exact AUK of 1e7 rows against the number "
                             "of partitions and write the results here")
    args = parser.parse_args()
    import dask
    import distributed

    if args.partitions_only:
        result = partition_run()
        result = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                              "dask": dask.__version__,
                              "distributed": distributed.__version__,
                              "numpy": np.__version__},
                  "load_average": os.getloadavg(),  # when it finished: was it shared?
                  "date": time.strftime("%Y-%m-%d"), **result}
        with open(args.partitions_only, "w") as fh:
            json.dump(result, fh, indent=1)
            fh.write("\n")
        return

    if args.memory_only:
        runs = [memory_run(10**7, limit) for limit in ("3GiB", "768MiB")]
        with open(args.memory_only, "w") as fh:
            json.dump({"machine": {"cpus": os.cpu_count(),
                                   "python": platform.python_version(),
                                   "dask": dask.__version__,
                                   "distributed": distributed.__version__,
                                   "numpy": np.__version__},
                       "date": time.strftime("%Y-%m-%d"), "runs": runs}, fh, indent=1)
            fh.write("\n")
        return
    scaling = chunk_scaling(args)
    if args.chunk_scaling_only:
        return
    rows = [bench_size(int(args.n), args, exact=True, single=args.n <= args.single_max)]
    skipped = None
    if args.bounds_n:
        n2 = int(args.bounds_n)
        # predicted time of the larger run: writing plus one pass, scaled by rows
        first = rows[0]
        one_pass = [b["seconds"] for b in first["bounds"] if b["n_bins"] == 4096][0]
        predicted = (first["write_s"] + one_pass) * n2 / first["rows"]
        if predicted > args.budget:
            skipped = (f"{n2:.0e} rows skipped: predicted {predicted / 60:.0f} min "
                       f"(writing and one pass, scaled from {first['rows']:.0e} rows) "
                       f"> the budget of {args.budget / 60:.0f} min")
            print(skipped, flush=True)
        else:
            rows.append(bench_size(n2, args, exact=False, single=n2 <= args.single_max,
                                   n_bins_list=(4096,), refine=False))
    result = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "dask": dask.__version__, "distributed": distributed.__version__,
                    "numpy": np.__version__},
        "cluster": {"workers": args.workers, "threads_per_worker": 1,
                    "memory_limit": args.memory_limit, "rows_per_file": args.rows_per_file},
        "runs": rows,
        "skipped": skipped,
        "chunk_scaling": scaling,
    }
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(result, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
