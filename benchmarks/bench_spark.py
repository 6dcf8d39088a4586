"""Spark's AUC evaluators beside auklib, on the same data (optional; not in make test).

    python benchmarks/bench_spark.py                       # needs pyspark and Java
    python benchmarks/bench_spark.py --spark-python /work/wt/spark-venv/bin/python \\
        --out chapters/data/spark_auc.json                 # the book's run

pyspark is not one of the book's requirements: install it in a separate
environment (``python -m venv spark-venv && spark-venv/bin/pip install
pyspark pandas pyarrow``; Spark needs Java 17 or later) and pass its
interpreter with ``--spark-python``; this script then runs the Spark part in
that interpreter (``--spark-only``) on the same data, generated from the
same seed.  Without pyspark and without ``--spark-python`` it says so and
exits 0.

For each size (``--small`` and ``--n`` rows: 10% positives, binormal with
separation 1.2, probability scores) it prints the exact AUC (scikit-learn,
in memory) and, on ``local[2]``:

* ``pyspark.ml.evaluation.BinaryClassificationEvaluator`` with
  ``numBins=0`` (exact) and with its default ``numBins=1000``;
* ``pyspark.mllib.evaluation.BinaryClassificationMetrics`` built, as its
  documentation shows, from an RDD of ``(score, label)`` tuples;
* the same Scala class built on the JVM DataFrame directly (no Python RDD);

and, on the large size, the time of auklib.dask (a LocalCluster of two
single-threaded workers) and of auklib and scikit-learn in memory.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np


def make_data(n, seed=20261126):
    rng = np.random.default_rng([seed, n])
    y = (rng.random(n) < 0.1).astype(np.int8)
    z = rng.normal(size=n) + 1.2 * y
    s = 1.0 / (1.0 + np.exp(-z))
    return y, s


def spark_part(sizes, seed):
    """The Spark evaluators on each size: a dict per size (run in pyspark's Python)."""
    import pandas as pd
    import pyspark
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.mllib.evaluation import BinaryClassificationMetrics
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("auklib-bench")
             .config("spark.driver.memory", "6g")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    out = {"pyspark": pyspark.__version__, "java": _java_version(), "sizes": []}
    for n in sizes:
        y, s = make_data(n, seed)
        df = spark.createDataFrame(pd.DataFrame({"score": s, "label": y.astype(float)}))
        df = df.repartition(2).cache()
        df.count()
        row = {"rows": n}
        for key, bins in (("ml_numBins0", 0), ("ml_default", None)):
            ev = BinaryClassificationEvaluator(rawPredictionCol="score", labelCol="label",
                                               metricName="areaUnderROC")
            if bins is not None:
                ev = ev.setNumBins(bins)
            t0 = time.perf_counter()
            row[key] = ev.evaluate(df)
            row[key + "_seconds"] = time.perf_counter() - t0
        row["ml_default_numBins"] = BinaryClassificationEvaluator().getNumBins()
        # pyspark.mllib as documented: an RDD of (score, label) tuples
        t0 = time.perf_counter()
        metrics = BinaryClassificationMetrics(df.select("score", "label").rdd.map(tuple))
        row["mllib_rdd"] = metrics.areaUnderROC
        row["mllib_rdd_seconds"] = time.perf_counter() - t0
        # the Scala class the wrapper calls, on the JVM DataFrame itself
        jvm = spark.sparkContext._jvm
        t0 = time.perf_counter()
        jm = jvm.org.apache.spark.mllib.evaluation.BinaryClassificationMetrics(
            df.select("score", "label")._jdf)
        row["mllib_jvm_dataframe"] = jm.areaUnderROC()
        row["mllib_jvm_dataframe_seconds"] = time.perf_counter() - t0
        # the ROC curve the wrapper's metrics build: how many points?
        row["mllib_roc_points"] = int(jm.roc().count())
        row["distinct_scores"] = int(np.unique(s).shape[0])
        df.unpersist()
        out["sizes"].append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    spark.stop()
    return out


def _java_version():
    try:
        out = subprocess.run(["java", "-version"], capture_output=True, text=True)
        return out.stderr.splitlines()[0]
    except (OSError, IndexError):
        return None


def in_memory_and_dask(n, seed, workers=2):
    """Seconds and values of scikit-learn, auklib and auklib.dask on the same data."""
    import dask
    import dask.array as da
    from distributed import Client, LocalCluster
    from sklearn.metrics import roc_auc_score

    import auklib
    import auklib.dask as ad

    y, s = make_data(n, seed)
    row = {"rows": n}
    t0 = time.perf_counter()
    row["sklearn_auc"] = float(roc_auc_score(y, s))
    row["sklearn_auc_seconds"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    row["auklib_auk"] = auklib.auk_score(y, s)
    row["auklib_auk_seconds"] = time.perf_counter() - t0
    chunk = max(1, n // 10)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=50) as cluster, \
            Client(cluster) as client:
        with dask.config.set(scheduler=client.get):
            y_d, s_d = dask.persist(da.from_array(y, chunks=chunk),
                                    da.from_array(s, chunks=chunk))
            for key, func in (("dask_auc", ad.roc_auc_score), ("dask_auk", ad.auk_score)):
                t0 = time.perf_counter()
                row[key] = func(y_d, s_d)
                row[key + "_seconds"] = time.perf_counter() - t0
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7)
    parser.add_argument("--small", type=float, default=20_000)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--spark-python", default=None,
                        help="a Python with pyspark, to run the Spark part in")
    parser.add_argument("--spark-only", action="store_true",
                        help="(internal) run only the Spark part and print JSON")
    parser.add_argument("--out", default=None, help="write the results as JSON here")
    args = parser.parse_args()
    sizes = [int(args.small), int(args.n)]
    if args.spark_only:
        print(json.dumps(spark_part(sizes, args.seed)))
        return
    if args.spark_python:
        done = subprocess.run([args.spark_python, os.path.abspath(__file__), "--spark-only",
                               "--n", str(args.n), "--small", str(args.small),
                               "--seed", str(args.seed)],
                              stdout=subprocess.PIPE, text=True, check=True)
        spark = json.loads(done.stdout.strip().splitlines()[-1])
    else:
        try:
            import pyspark  # noqa: F401
        except ImportError:
            print("bench_spark: pyspark is not installed here; pass --spark-python "
                  "(a Python with pyspark) to run it. Skipped.")
            return
        spark = spark_part(sizes, args.seed)
    from sklearn.metrics import roc_auc_score

    rows = []
    for sp in spark["sizes"]:
        y, s = make_data(sp["rows"], args.seed)
        exact = float(roc_auc_score(y, s))
        row = dict(sp, exact_auc=exact)
        if sp["rows"] == sizes[-1]:
            row.update(in_memory_and_dask(sp["rows"], args.seed))
        rows.append(row)
        print(f"\n{sp['rows']:,} rows ({sp['distinct_scores']:,} distinct scores), "
              f"pyspark {spark['pyspark']}, local[2]:")
        print(f"  exact AUC (scikit-learn)              {exact:.10f}")
        for key, label in (("ml_numBins0", "ml evaluator, numBins=0"),
                           ("ml_default", f"ml evaluator, numBins={sp['ml_default_numBins']}"),
                           ("mllib_rdd", "mllib, RDD of (score, label)"),
                           ("mllib_jvm_dataframe", "mllib Scala class, JVM DataFrame")):
            print(f"  {label:38s} {sp[key]:.10f}  ({sp[key] - exact:+.1e}, "
                  f"{sp[key + '_seconds']:.1f} s)")
        print(f"  points of mllib's ROC curve            {sp['mllib_roc_points']:,}")
        if "dask_auc" in row:
            base = row["sklearn_auc_seconds"]
            print("  time, and ratio to scikit-learn's roc_auc_score in memory:")
            for key, label in (("ml_numBins0", "Spark ml evaluator, numBins=0 (exact)"),
                               ("dask_auc", "auklib.dask.roc_auc_score"),
                               ("dask_auk", "auklib.dask.auk_score"),
                               ("auklib_auk", "auklib.auk_score, in memory"),
                               ("sklearn_auc", "sklearn roc_auc_score, in memory")):
                sec = row[key + "_seconds"]
                print(f"    {label:40s} {sec:8.1f} s  {sec / base:7.1f}x")
    if args.out:
        import dask
        import sklearn

        result = {"date": time.strftime("%Y-%m-%d"), "seed": args.seed,
                  "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                              "numpy": np.__version__, "dask": dask.__version__,
                              "scikit-learn": sklearn.__version__},
                  "spark": {"pyspark": spark["pyspark"], "java": spark["java"],
                            "master": "local[2]"},
                  "runs": rows}
        with open(args.out, "w") as fh:
            json.dump(result, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
