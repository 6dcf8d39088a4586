"""The AUK, the AUC and the kappa curve of data spread over a Dask cluster.

An optional extra (``pip install auklib[dask]``): ``import auklib`` does not
import Dask; ``import auklib.dask`` does.  The functions take dask arrays or
dask DataFrame columns (NumPy arrays and lists are wrapped into one-chunk
dask arrays), build one task graph and compute it with :func:`dask.compute`,
so they run on whatever scheduler is active: a ``distributed.Client`` (a
``LocalCluster`` or any remote cluster) when one exists, otherwise Dask's
local threaded scheduler.  Nothing changes between the two.

The exact scores (:func:`auk_score`, :func:`roc_auc_score`,
:func:`kappa_curve`) are a sample sort:

1. each chunk counts its positives and negatives per distinct score (with
   the counting helper of :mod:`auklib.curves`); the scores keep their dtype
   (int64 and uint64 scores beyond 2**53 stay distinct).  These tables stay
   on the workers (``dask.persist``) while a sample of each comes back;
2. the samples give splitters, and one task per chunk cuts its table into
   score ranges (tied scores always fall in one range);
3. each range merges its pieces in a tree of merges (16 pieces a task), so
   the graph grows linearly in the number of chunks;
4. the ranges' class totals, summed from the top range down (a prefix sum
   over ranges), give each range the ROC vertex its stretch of the path
   starts from, and each range integrates its stretch with the exact segment
   integral of :func:`auklib.auk_score`.

The certified bounds (:func:`auk_score_bounds`) need one pass: a histogram
of each class over score bins, which adds up across chunks.  Within a bin
the order of the samples is unknown, but kappa increases in t at fixed f, so
the path that goes right first is the lowest possible and the one that goes
up first the highest.
"""

import operator
import os
from collections import namedtuple
from numbers import Integral, Real

try:
    import dask
    import dask.array as da
    from dask import delayed
    from dask.base import tokenize
    from dask.delayed import Delayed
    from dask.highlevelgraph import HighLevelGraph
except ModuleNotFoundError as _exc:  # pragma: no cover - tested in a subprocess
    raise ModuleNotFoundError(
        "auklib.dask needs Dask, which is not installed. Install it with "
        'pip install "auklib[dask]" (or pip install "dask[array,dataframe]").',
        name=_exc.name,
    ) from _exc
import numpy as np

from ._validation import (
    UndefinedMetricWarning,
    _as_1d_numeric,
    _binary_labels,
    _scalar_prevalence,
    _warn,
    _warn_majority_positive,
)
from .curves import _binary_clf_counts, _corners, _exact, _exact_segments, _shares
from .kappa import _kappa_pn

__all__ = ["AUKScoreBounds", "ClusterMemoryWarning", "auk_score", "auk_score_bounds", "kappa_curve",
           "roc_auc_score"]

AUKScoreBounds = namedtuple("AUKScoreBounds", ["low", "high", "n_bins"])
AUKScoreBounds.__doc__ = """\
Certified lower and upper bounds on the exact AUK.

Attributes
----------
low, high : float
    ``low <= auklib.auk_score(y_true, y_score) <= high``.
n_bins : int
    The number of score bins the bounds come from (after the refinement
    pass, if any).
"""

_SAMPLES_PER_CHUNK = 256
_EPS = float(np.finfo(float).eps)
_EMPTY = "y_score is empty; at least one sample is needed."  # as auklib says
_FLOAT_INT = 2**53  # float64 holds every integer up to here
_RANGE_ENTRIES = 1 << 20  # distinct scores a range aims at (24 MiB of table)
_MERGE_FANIN = 16  # pieces merged by one task of a range's merge tree
_MAX_RANGES_PER_THREAD = 16
_TABLE_BYTES = 24  # per distinct score of a table: the score and two int64 counts
# per distinct score of a range while it is merged: its pieces, their
# concatenation, the merge order and the merged table
_MERGE_BYTES = 80


class ClusterMemoryWarning(RuntimeWarning):
    """The exact sort will not fit in the workers' memory without spilling.

    A ``RuntimeWarning`` (shown by default; Python hides ``ResourceWarning``
    unless asked).  The message gives the bytes needed and the room there is.
    """


# ------------------------------------------------------------------ inputs


def _dask_frame_kind(x):
    """"Series" or "DataFrame" for a dask DataFrame object, else None."""
    if type(x).__module__.startswith(("dask.dataframe", "dask_expr")):
        return type(x).__name__
    return None


def _is_series(x):
    return _dask_frame_kind(x) == "Series"


def _as_dask_1d(x, name):
    if isinstance(x, da.Array):
        arr = x
    elif _is_series(x):
        return x
    elif _dask_frame_kind(x) is not None:
        raise ValueError(f"{name} must be one column, not a {_dask_frame_kind(x)}.")
    else:
        if x is None:
            raise TypeError(f"{name} is None; pass a dask array or a dask DataFrame column.")
        if isinstance(x, (str, bytes)):
            raise TypeError(f"{name} must be an array, got a string.")
        arr = da.from_array(np.asarray(x), chunks=-1)
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D with one value per sample; got shape {arr.shape}."
        )
    return arr


def _table_dtype(dtype):
    """The dtype the exact sort keeps the scores in: int64, uint64 or float64.

    Integer scores stay integers through the chunk tables, the splitters and
    the merges (above 2**53 float64 would merge distinct scores).
    """
    try:
        kind = np.dtype(dtype).kind
    except TypeError:  # an extension dtype (e.g. pyarrow-backed)
        kind = getattr(dtype, "kind", "O")
    if kind not in "biuf":
        raise TypeError(f"y_score must contain numbers; got dtype {dtype}.")
    return np.dtype({"u": np.uint64, "f": np.float64}.get(kind, np.int64))


def _known_length(arr):
    """The number of samples of a dask array, or None when its chunks are unknown."""
    n = arr.shape[0]
    return None if isinstance(n, float) and np.isnan(n) else int(n)


def _blocks(y_true, y_score, sample_weight=None):
    """Aligned label, score and weight blocks (lists of Delayed; the weights a
    list of None without ``sample_weight``) and the table dtype."""
    y = _as_dask_1d(y_true, "y_true")
    s = _as_dask_1d(y_score, "y_score")
    dtype = _table_dtype(s.dtype)
    if sample_weight is None:
        y, s = _aligned(y, s, "y_true")
        ys, ss = _delayed_blocks(y), _delayed_blocks(s)
        return ys, ss, [None] * len(ss), dtype
    w = _as_dask_1d(sample_weight, "sample_weight")
    if len({_is_series(y), _is_series(s), _is_series(w)}) > 1:  # mixed: all arrays
        y, s, w = (c.to_dask_array(lengths=True) if _is_series(c) else c for c in (y, s, w))
    y, s = _aligned(y, s, "y_true")
    w, s = _aligned(w, s, "sample_weight")
    return _delayed_blocks(y), _delayed_blocks(s), _delayed_blocks(w), dtype


def _delayed_blocks(x):
    return list(x.to_delayed()) if _is_series(x) else list(x.to_delayed().ravel())


def _aligned(y, s, y_name):
    """``y`` (labels or weights) lined up with the scores ``s``, or a named error."""
    if _is_series(y) != _is_series(s):  # a column and an array: both arrays
        if _is_series(y):
            y = y.to_dask_array(lengths=True)
        else:
            s = s.to_dask_array(lengths=True)
    if _is_series(y):
        if y.npartitions != s.npartitions:
            raise ValueError(
                f"{y_name} and y_score must have the same partitions; got "
                f"{y.npartitions} and {s.npartitions} partitions."
            )
        return y, s
    ny, ns = _known_length(y), _known_length(s)
    if (ny is None) != (ns is None):
        name, other = (y_name, "y_score") if ny is None else ("y_score", y_name)
        raise ValueError(
            f"{name} has unknown chunk sizes (NaN in its .chunks, e.g. from a "
            f"dask DataFrame's to_dask_array()) but {other} has known ones, so "
            f"they cannot be lined up. Call {name}.compute_chunk_sizes() first, "
            "or pass both as columns of the same dask DataFrame."
        )
    if ny is not None and ny != ns:
        raise ValueError(
            f"Inputs have different numbers of samples: {y_name} has {ny}, "
            f"y_score has {ns}."
        )
    if ns == 0:
        raise ValueError(_EMPTY)
    if ny is None:
        # both unknown: aligned block by block (each block checks its lengths)
        if y.numblocks != s.numblocks:
            raise ValueError(
                f"{y_name} and y_score have unknown chunk sizes and different "
                f"numbers of chunks ({y.numblocks[0]} and {s.numblocks[0]}); "
                "call compute_chunk_sizes() on both."
            )
    elif y.chunks != s.chunks:
        y = y.rechunk(s.chunks)
    return y, s


def _check_pos_label(pos_label):
    if isinstance(pos_label, (list, tuple, dict, set, np.ndarray)):
        raise TypeError(
            f"pos_label must be a single label, got {type(pos_label).__name__}."
        )


def _chunk_weight(w, n):
    """A chunk's sample weights as float64 (None stays None), checked as auklib does.

    Unlike :func:`auklib.auk_score` they are not rescaled (each chunk would
    be rescaled on its own): weights up to about 1e300 / n are safe.
    """
    if w is None:
        return None
    w = w.to_numpy() if hasattr(w, "to_numpy") else np.asarray(w)
    if w.shape[0] != n:
        raise ValueError(
            "Inputs have different numbers of samples in a partition: "
            f"sample_weight has {w.shape[0]}, y_score has {n}."
        )
    if n == 0:
        return np.zeros(0)
    w = _as_1d_numeric(w, "sample_weight", finite=False).astype(np.float64, copy=False)
    if not np.isfinite(w).all():
        raise ValueError("sample_weight contains NaN or infinite values.")
    if (w < 0).any():
        raise ValueError("sample_weight contains negative values.")
    return w


def _chunk_inputs(y, s, pos_label, w=None):
    """A chunk's labels as booleans, its scores, the set of its labels, and its
    weights (None without ``sample_weight``)."""
    y = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    s = s.to_numpy() if hasattr(s, "to_numpy") else np.asarray(s)
    if y.shape[0] != s.shape[0]:
        raise ValueError(
            "Inputs have different numbers of samples in a partition: y_true "
            f"has {y.shape[0]}, y_score has {s.shape[0]}."
        )
    w = _chunk_weight(w, s.shape[0])
    if s.shape[0] == 0:
        return np.zeros(0, dtype=bool), np.zeros(0), frozenset(), w
    score = _as_1d_numeric(s, "y_score")
    y_pos = _binary_labels(y, pos_label)  # at most two labels, as auklib checks
    if y.dtype.kind in "biuf":
        v = y.view(np.uint8) if y.dtype.kind == "b" else y
        labels = frozenset({v.min().item(), v.max().item()})
    else:
        labels = frozenset(np.unique(y).tolist())
    return y_pos, score, labels, w


def _check_labels(label_sets, pos_label):
    """The union of the chunks' labels: raise as auklib does, or name a missing class."""
    labels = frozenset().union(*label_sets)
    if not labels:  # every chunk is empty
        raise ValueError(_EMPTY)
    numeric = [isinstance(v, Real) for v in labels]
    if any(numeric) and not all(numeric):
        raise TypeError(
            f"y_true mixes label types across the chunks "
            f"({sorted({type(v).__name__ for v in labels})}); use one type for all labels."
        )
    try:
        classes = sorted(labels)
    except TypeError:
        classes = sorted(labels, key=repr)
    if len(labels) > 2:
        raise ValueError(
            f"y_true must be binary (two distinct labels); got {len(labels)} "
            f"classes across the chunks: {classes[:5]}."
        )
    if pos_label is None:
        if set(labels) not in ({0, 1}, {-1, 1}, {0}, {1}, {-1}):
            raise ValueError(
                f"y_true has labels {classes}; without pos_label they must be "
                "{0, 1}, {-1, 1} or bool. Pass pos_label to say which label "
                "is the positive class."
            )
        pos_label = 1
    elif pos_label not in labels and len(labels) == 2:
        raise ValueError(
            f"pos_label={pos_label!r} is not a label of y_true (labels present: "
            f"{classes})."
        )
    return None


def _missing_class(n_pos, n_neg):
    if n_pos == 0 or n_neg == 0:
        return "positive" if n_pos == 0 else "negative"
    return None


def _warn_missing(missing, caller):
    _warn(
        f"Only one class is present in y_true (no {missing} samples), so the "
        f"ROC and kappa curves are undefined; {caller} returns NaN.",
        UndefinedMetricWarning)


def _check_int(value, name, low):
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}.")
    if value < low:
        raise ValueError(f"{name} must be at least {low}; got {value}.")
    return int(value)


# ------------------------------------------------- the exact sample sort


def _empty_table(dtype):
    return np.zeros(0, dtype), np.zeros(0, np.int64), np.zeros(0, np.int64)


def _within_float(score):
    """True when float64 holds every integer score exactly (|s| <= 2**53)."""
    return int(score.min()) >= -_FLOAT_INT and int(score.max()) <= _FLOAT_INT


def _chunk_table(y, s, pos_label, dtype, w=None):
    """(scores ascending, positives, negatives per score, labels) of a chunk.

    The scores keep ``dtype``: int64 or uint64 scores beyond 2**53 are
    counted on their own distinct values, not on their float64 roundings.
    The counts are int64, or float64 sums of the weights with ``w``.
    """
    y_pos, score, labels, w = _chunk_inputs(y, s, pos_label, w)
    if score.shape[0] == 0:
        return _empty_table(dtype) + (labels,)
    if dtype.kind != "f":
        if score.dtype.kind not in "biu":
            raise TypeError(
                f"y_score is declared as {dtype} but a chunk holds {score.dtype} values."
            )
        score = score.astype(dtype, copy=False)
        if not _within_float(score):
            values, inverse = np.unique(score, return_inverse=True)
            k = values.shape[0]
            if w is None:
                total = np.bincount(inverse, minlength=k)
                pos = np.bincount(inverse[y_pos], minlength=k)
                return values, pos.astype(np.int64), (total - pos).astype(np.int64), labels
            pos = np.bincount(inverse[y_pos], weights=w[y_pos], minlength=k)
            neg = np.bincount(inverse[~y_pos], weights=w[~y_pos], minlength=k)
            return values, pos, neg, labels
    fps, tps, thr = _binary_clf_counts(y_pos, score, w)
    # counts per distinct score, turned to increasing score order
    count = np.int64 if w is None else np.float64
    pos = np.diff(tps)[::-1].astype(count)
    neg = np.diff(fps)[::-1].astype(count)
    values = thr[:0:-1].astype(dtype)  # exact: floats, or integers within 2**53
    return values, pos, neg, labels


def _chunk_sample(table):
    """Scores at evenly spaced ranks of the chunk, each with the weight it stands
    for; the chunk's labels, class totals and number of distinct scores."""
    values, pos, neg, labels = table
    # weighted tables are split by their distinct scores (what the ranges
    # hold in memory), unweighted ones by their samples, as before
    mass = np.ones(values.shape[0]) if pos.dtype.kind == "f" else pos + neg
    n = mass.sum().item()
    if n == 0:
        return values[:0], np.zeros(0), labels, 0, 0, 0
    k = min(_SAMPLES_PER_CHUNK, values.shape[0])
    ranks = (np.arange(k) + 0.5) * (n / k)
    at = np.searchsorted(np.cumsum(mass), ranks, side="right")
    at = np.minimum(at, values.shape[0] - 1)
    return (values[at], np.full(k, n / k), labels, pos.sum().item(), neg.sum().item(),
            int(values.shape[0]))


def _summary(pos_label, samples):
    """Check the labels of all chunks; gather the samples and the sizes."""
    _check_labels([smp[2] for smp in samples], pos_label)
    return (np.concatenate([smp[0] for smp in samples]),
            np.concatenate([smp[1] for smp in samples]),
            sum(smp[3] for smp in samples), sum(smp[4] for smp in samples),
            sum(smp[5] for smp in samples), max(smp[5] for smp in samples),
            frozenset().union(*(smp[2] for smp in samples)))


def _splitters(values, weights, n_ranges):
    """R - 1 scores that cut the sample into R parts of about equal weight."""
    if values.shape[0] == 0 or n_ranges == 1:
        return values[:0]
    order = np.argsort(values, kind="stable")
    values, cum = values[order], np.cumsum(weights[order])
    targets = cum[-1] * np.arange(1, n_ranges) / n_ranges
    at = np.minimum(np.searchsorted(cum, targets), values.shape[0] - 1)
    return np.unique(values[at])


def _split(table, splitters, n_ranges):
    """Cut a chunk's table into the score ranges: range b holds sp[b-1] < s <= sp[b].

    One task per chunk returns all its pieces (views of the table)."""
    values, pos, neg, _ = table
    cuts = np.searchsorted(values, splitters, side="right")
    bounds = np.concatenate(([0], cuts, [values.shape[0]]))
    pieces = [(values[a:b], pos[a:b], neg[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    pieces += [_empty_table(values.dtype)] * (n_ranges - len(pieces))
    return tuple(pieces)


def _merge(pieces):
    """Merge sorted tables of one range: distinct scores ascending with their counts."""
    if len(pieces) == 1:
        return pieces[0]
    values = np.concatenate([pc[0] for pc in pieces])
    pos = np.concatenate([pc[1] for pc in pieces])
    neg = np.concatenate([pc[2] for pc in pieces])
    if values.shape[0] == 0:
        return values, pos, neg
    # the pieces are sorted runs: a stable sort (timsort) merges them fast
    order = np.argsort(values, kind="stable")
    values, pos, neg = values[order], pos[order], neg[order]
    del order
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    if starts.shape[0] < values.shape[0]:
        values = values[starts]
        pos = np.add.reduceat(pos, starts)
        neg = np.add.reduceat(neg, starts)
    return values, pos, neg


def _range_totals(rng):
    return rng[1].sum().item(), rng[2].sum().item()


def _offsets(totals):
    """Each range's starting ROC vertex (F, T): the counts of all ranges above it."""
    start = [None] * len(totals)
    fp = tp = 0
    for b in range(len(totals) - 1, -1, -1):  # the highest scores first
        start[b] = (fp, tp)
        tp += totals[b][0]
        fp += totals[b][1]
    return start


def _range_path(rng, start, b):
    """The range's ROC vertices as counts, from the vertex it starts at."""
    fp0, tp0 = start[b]
    pos, neg = rng[1][::-1], rng[2][::-1]  # from the highest score down
    count = np.float64 if pos.dtype.kind == "f" else np.int64  # weighted or not
    fps = np.empty(pos.shape[0] + 1, dtype=count)
    tps = np.empty(pos.shape[0] + 1, dtype=count)
    fps[0], tps[0] = fp0, tp0
    np.cumsum(neg, out=fps[1:])
    np.cumsum(pos, out=tps[1:])
    fps[1:] += fp0
    tps[1:] += tp0
    return fps, tps


def _range_auk(rng, start, b, n_pos, n_neg, prevalence=None):
    fps, tps = _range_path(rng, start, b)
    if fps.shape[0] < 2 or _missing_class(n_pos, n_neg):
        return 0.0
    n_pos, n_neg = float(n_pos), float(n_neg)
    p, n = _shares(n_pos, n_neg) if prevalence is None else (prevalence, 1.0 - prevalence)
    idx = _corners(fps, tps)
    fps, tps = fps[idx], tps[idx]
    return _exact(fps / n_neg, tps / n_pos, p, n, (n_pos - tps) / n_pos,
                  (n_neg - fps) / n_neg)


def _range_auc(rng, start, b, n_pos, n_neg, prevalence=None):  # the AUC needs no p
    fps, tps = _range_path(rng, start, b)
    if fps.shape[0] < 2 or _missing_class(n_pos, n_neg):
        return 0.0
    # trapezoids of the ROC path, in counts: sum dF (T_i + T_i+1) / 2
    dfp = np.diff(fps).astype(np.float64)
    return float(np.dot(dfp, tps[1:] + tps[:-1].astype(np.float64))) / (
        2.0 * float(n_pos) * float(n_neg))


def _range_kappa(rng, start, b, n_pos, n_neg, first):
    """fpr, kappa and thresholds of the range's vertices (the start vertex too
    for the highest range, which starts at the empty prediction)."""
    fps, tps = _range_path(rng, start, b)
    values = rng[0][::-1].astype(np.float64)  # as auklib.kappa_curve returns them
    if not first:
        fps, tps = fps[1:], tps[1:]
    else:
        values = np.concatenate(([np.inf], values))
    if _missing_class(n_pos, n_neg):
        nan = np.full(fps.shape, np.nan)
        return np.stack([nan, nan, values])
    n_pos, n_neg = float(n_pos), float(n_neg)
    p, n = _shares(n_pos, n_neg)
    fpr, tpr = fps / n_neg, tps / n_pos
    kappa = _kappa_pn(tpr, fpr, (n_pos - tps) / n_pos, (n_neg - fps) / n_neg, p, n)
    return np.stack([fpr, kappa, values])


def _sum_parts(parts):
    return float(np.sum(parts))


def _concat_curve(parts):
    return np.concatenate(parts, axis=1)


# -- the cluster: threads and memory, for the number of ranges and the warning


def _active_client():
    """The distributed Client the current scheduler belongs to, or None."""
    client = getattr(dask.base.get_scheduler(), "__self__", None)
    return client if hasattr(client, "scheduler_info") else None


def _process_memory():
    """The resident memory of this process (run on each worker)."""
    try:
        import psutil
    except ImportError:
        return 0
    return int(psutil.Process().memory_info().rss)


def _cluster():
    """(threads, workers, distributed): per worker its threads, its memory limit
    in bytes (None: none; on one machine, the memory available now) and the
    memory its process uses now."""
    client = _active_client()
    if client is not None:
        try:
            info = client.scheduler_info(n_workers=-1)
        except TypeError:  # an older distributed
            info = client.scheduler_info()
        try:  # each worker's process memory now (the heartbeat's figure lags)
            used = client.run(_process_memory)
        except Exception:  # noqa: BLE001 - fall back on the scheduler's metrics
            used = {}
        workers = [(int(w.get("nthreads", 1)), w.get("memory_limit") or None,
                    int(used.get(addr) or w.get("metrics", {}).get("memory", 0)))
                   for addr, w in info.get("workers", {}).items()]
        if workers:
            return sum(w[0] for w in workers), workers, True
        return 1, [], True
    scheduler = dask.base.get_scheduler()
    if scheduler is dask.local.get_sync:
        threads = 1
    else:
        threads = dask.config.get("num_workers", None) or os.cpu_count() or 1
    try:
        import psutil

        memory = int(psutil.virtual_memory().available)
    except ImportError:
        memory = None
    return threads, [(threads, memory, 0)], False


def _choose_n_ranges(n_entries, threads, workers):
    """Ranges of about 2**20 distinct scores, at least one per thread (when the
    data fill them), enough that one merge fits in a quarter of a thread's
    share of its worker's memory, and at most 16 per thread: the number
    depends on the data and the cluster, never on the number of chunks."""
    r = -(-n_entries // _RANGE_ENTRIES)
    r = max(r, min(threads, -(-n_entries // (_RANGE_ENTRIES // 4))))
    per_thread = [w[1] / w[0] for w in workers if w[1]]
    if per_thread:
        r = max(r, -(-_MERGE_BYTES * n_entries // int(min(per_thread) / 4)))
    return int(max(1, min(r, _MAX_RANGES_PER_THREAD * threads)))


def _memory_need(n_entries, n_ranges, threads):
    """Bytes the sort holds at its peak: the chunks' tables, the merged ranges,
    and the merges at work (one range per thread)."""
    merging = min(threads, n_ranges) * -(-n_entries // n_ranges)
    return 2 * _TABLE_BYTES * n_entries + (_MERGE_BYTES - _TABLE_BYTES) * merging


def _warn_memory(n_entries, n_ranges, cluster, caller):
    """Warn (ClusterMemoryWarning) when the sort's peak will not fit in the
    room the workers had before it started: on a distributed cluster, its
    memory target (the share of the limit where spilling starts) less what
    each worker's process used; on one machine, the memory available."""
    threads, workers, distributed = cluster
    need = _memory_need(n_entries, n_ranges, threads)
    limits = [w[1] for w in workers if w[1]]
    if not limits or len(limits) < len(workers):
        return None
    GiB = 2**30
    if distributed:
        frac = dask.config.get("distributed.worker.memory.target", 0.6) or \
            dask.config.get("distributed.worker.memory.spill", 0.7) or 1.0
        room = sum(max(0.0, frac * w[1] - w[2]) for w in workers)
        where = (f"the {len(workers)} workers had {room / GiB:.2f} GiB of room before "
                 f"spilling to disk (distributed.worker.memory.target = {frac:g} of "
                 f"their limits, {sum(limits) / GiB:.1f} GiB in all, less the "
                 f"{sum(w[2] for w in workers) / GiB:.2f} GiB their processes used)")
    else:
        room = limits[0]
        where = f"this machine had {room / GiB:.2f} GiB available"
    if need <= room:
        return None
    _warn(
        f"{caller}: the exact sort of {n_entries:,} distinct scores (summed over the "
        f"chunks) in {n_ranges} score ranges needs about {need / GiB:.2f} GiB at its "
        f"peak ({_TABLE_BYTES} bytes per distinct score for the chunks' tables, "
        f"{_TABLE_BYTES} again for the merged ranges, and {_MERGE_BYTES} per score of "
        f"each range being merged), but {where}. Expect heavy spilling and a slow run; "
        "add workers or memory, or bound the AUK in one pass with auk_score_bounds.",
        ClusterMemoryWarning)
    return need


# -- the graph


def _graph(name, layer, dependencies):
    return HighLevelGraph.from_collections(name, layer, dependencies=dependencies)


def _exact_ranges(y_true, y_score, pos_label, n_ranges, caller, sample_weight=None,
                  asymmetric=False):
    """Count per chunk (persisted), then build the sort's graph.

    Returns (layer, dependencies, range keys, offsets key, n_pos, n_neg): the
    caller adds the tasks that integrate each range and computes.  The graph
    has O(chunks x ranges) tasks, and the default number of ranges depends on
    the data size and the cluster, not on the number of chunks.
    """
    _check_pos_label(pos_label)
    if n_ranges is not None:
        n_ranges = _check_int(n_ranges, "n_ranges", 1)
    ys, ss, ws, dtype = _blocks(y_true, y_score, sample_weight)
    n_chunks = len(ss)
    cluster = _cluster()  # the workers' memory before the sort
    # phase 1: the chunks' tables stay on the workers; the samples come back
    tables = [delayed(_chunk_table, pure=True)(y, s, pos_label, dtype, w)
              for y, s, w in zip(ys, ss, ws)]
    samples = [delayed(_chunk_sample, pure=True)(t) for t in tables]
    summary = delayed(_summary, pure=True)(pos_label, samples)
    *tables, summary = dask.persist(*tables, summary)
    values, weights, n_pos, n_neg, n_entries, _, labels = summary.compute()
    if n_pos + n_neg == 0:
        raise ValueError(_EMPTY if sample_weight is None
                         else "sample_weight is zero for every sample.")
    if asymmetric and pos_label is None:
        _warn_default_majority_labels(labels, n_pos, n_neg, caller)
    if n_ranges is None:
        n_ranges = _choose_n_ranges(n_entries, cluster[0], cluster[1])
    _warn_memory(n_entries, n_ranges, cluster, caller)
    splitters = _splitters(values, weights, n_ranges)
    del values, weights
    # phase 2: split each chunk once, merge each range in a tree, prefix sums
    token = tokenize([t.key for t in tables], splitters, n_ranges)
    pname, gname, mname = f"auk-split-{token}", f"auk-piece-{token}", f"auk-merge-{token}"
    tot_name, off_name = f"auk-totals-{token}", f"auk-offsets-{token}"
    layer = {}
    for i in range(n_chunks):
        layer[(pname, i)] = (_split, tables[i].key, splitters, n_ranges)
    range_keys = []
    for b in range(n_ranges):
        keys = [(gname, b, i) for i in range(n_chunks)]
        for i in range(n_chunks):
            layer[keys[i]] = (operator.getitem, (pname, i), b)
        depth = 0
        while depth == 0 or len(keys) > 1:
            groups = [keys[j:j + _MERGE_FANIN] for j in range(0, len(keys), _MERGE_FANIN)]
            keys = [(mname, b, depth, g) for g in range(len(groups))]
            for key, group in zip(keys, groups):
                layer[key] = (_merge, list(group))
            depth += 1
        range_keys.append(keys[0])
        layer[(tot_name, b)] = (_range_totals, keys[0])
    layer[off_name] = (_offsets, [(tot_name, b) for b in range(n_ranges)])
    return layer, tables, range_keys, off_name, n_pos, n_neg, token


def _warn_default_majority_labels(labels, n_pos, n_neg, caller):
    """The majority-class warning of auklib's metrics, from the chunks' label set."""
    if n_pos > n_neg > 0:
        other = -1 if -1 in labels else 0
        _warn_majority_positive(n_pos, n_neg, caller, 1, other, "pos_label=None means 1")


def _score(func, caller, y_true, y_score, pos_label, n_ranges, sample_weight=None,
           prevalence=None):
    if prevalence is not None:
        prevalence = _scalar_prevalence(prevalence)
    layer, deps, ranges, off, n_pos, n_neg, token = _exact_ranges(
        y_true, y_score, pos_label, n_ranges, caller, sample_weight,
        asymmetric=func is _range_auk)
    name = f"auk-{caller}-{token}"
    for b, key in enumerate(ranges):
        layer[(name, b)] = (func, key, off, b, n_pos, n_neg, prevalence)
    layer[name] = (_sum_parts, [(name, b) for b in range(len(ranges))])
    value = dask.compute(Delayed(name, _graph(name, layer, deps)))[0]
    missing = _missing_class(n_pos, n_neg)
    if missing:
        _warn_missing(missing, caller)
        return float("nan")
    return value


def auk_score(y_true, y_score, *, pos_label=None, sample_weight=None, prevalence=None,
              n_ranges=None):
    """Exact area under the kappa curve (AUK) of data in dask collections.

    Equal, up to the order of the floating-point sums (about 1e-15), to
    :func:`auklib.auk_score` with ``method="exact"`` on the same data held
    in memory.

    Parameters
    ----------
    y_true : dask array, dask DataFrame column or array-like of shape (n_samples,)
        True binary labels: {0, 1}, {-1, 1} or bool, or any two labels with
        ``pos_label`` given.  A column must have the same partitions as
        ``y_score``; an array is rechunked to the chunks of ``y_score``.
    y_score : dask array, dask DataFrame column or array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight : dask array, dask DataFrame column or array-like of shape \
(n_samples,), default=None
        Non-negative sample weights, as in :func:`auklib.auk_score`; lined
        up with ``y_score`` as ``y_true`` is.  Weights up to about
        ``1e300 / n_samples`` (they are not rescaled chunk by chunk).
    prevalence : float, default=None
        The share p of positives at which to evaluate kappa, strictly
        between 0 and 1, as in :func:`auklib.auk_score`; None uses the
        (weighted) share in ``y_true``.
    n_ranges : int, default=None
        The number of score ranges of the distributed sort (the ranges are
        merged and integrated in parallel).  None chooses it from the data
        and the cluster, never from the number of chunks: ranges of about
        2**20 distinct scores, at least one per thread when the data fill
        them, enough that one merge fits in a quarter of a thread's share of
        its worker's memory limit, at most 16 per thread.

    Returns
    -------
    auk : float
        The exact AUK; NaN with a warning when ``y_true`` has a single class.

    See Also
    --------
    auklib.auk_score : The same on arrays in memory.
    auk_score_bounds : Certified bounds from one pass and a histogram.

    Notes
    -----
    Each chunk counts its classes per distinct score; splitters taken from a
    sample of every chunk cut the counts into score ranges, each range is
    merged on one worker, and a prefix sum of the ranges' class totals (from
    the highest range down) gives the ROC vertex where each range's stretch
    of the path begins.  Each range then adds the exact integral of kappa
    along its segments.  With ``sample_weight`` the counts are the sums of
    the weights (float64, the same 8 bytes as the int64 counts).

    **Memory.**  A chunk's table holds 24 bytes per distinct score of the
    chunk (the score and two int64 counts); counting it needs about 40
    bytes per row of the chunk while it sorts.  The tables stay on the
    workers until the ranges are merged, and the merged ranges hold 24
    bytes per distinct score again; a range being merged needs about 80
    bytes per distinct score (its pieces, their concatenation, the merge
    order and the result).  So the cluster must hold about::

        48 bytes x (distinct scores summed over the chunks)
          + 56 bytes x (distinct scores of the ranges merging at once)

    e.g. 4.8 GB plus the merges for 10**8 distinct scores.  When this
    exceeds the room the workers have before they spill to disk (their
    ``distributed.worker.memory.target`` share of the memory limit, less
    what their processes already use), a :class:`ClusterMemoryWarning`
    says so with the numbers, before the ranges are built.

    **Where it spills.**  With Dask's default target of 0.6, a cluster
    whose workers' memory limits add up to M bytes starts to spill at
    about ``0.6 M / 48`` distinct scores (less what the workers already
    hold, and less the merges): about 13 million distinct scores per GiB of
    workers' memory, so 10**8 distinct float scores (10**8 rows of
    continuous scores) need about 8 GiB of workers in all; on 2 workers of
    4 GB (4.8 GB of room) they spill about 2.5 GiB, slowly but with the
    right result.  Fewer distinct scores need less: scores rounded to 3
    decimals, or probabilities in float32, make far fewer table rows (the
    memory follows the distinct scores per chunk, not the rows).  Chunk
    size matters little to memory but much to time (chapter 12 measures
    it): the sort's graph has one task per chunk and range.  The bounds
    (:func:`auk_score_bounds`) need a few MB whatever the data size.

    **Progress.**  The work is two or three ``dask.compute`` calls.  On
    Dask's local schedulers, wrap the call in
    ``with dask.diagnostics.ProgressBar():`` to see a bar per phase; on a
    ``distributed`` cluster, watch the dashboard (``client.dashboard_link``):
    its task stream and progress panes show the tables, merges and
    integrals as they run.

    References
    ----------
    .. [1] U. Kaymak, A. Ben-David and R. Potharst, "The AUK: a simple
       alternative to the AUC", Engineering Applications of Artificial
       Intelligence 25(5), 1082-1089, 2012.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> import auklib
    >>> import auklib.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(10_000) < 0.1
    >>> s = rng.normal(size=10_000) + y
    >>> y_d, s_d = da.from_array(y, chunks=2_500), da.from_array(s, chunks=2_500)
    >>> a = auklib.dask.auk_score(y_d, s_d)
    >>> round(a, 6)
    0.125682
    >>> abs(a - auklib.auk_score(y, s)) < 1e-12
    True
    """
    return _score(_range_auk, "auk_score", y_true, y_score, pos_label, n_ranges,
                  sample_weight, prevalence)


def roc_auc_score(y_true, y_score, *, pos_label=None, sample_weight=None, n_ranges=None):
    """Exact area under the ROC curve (AUC) of data in dask collections.

    The same sample sort as :func:`auk_score`; ties count one half, as in
    ``sklearn.metrics.roc_auc_score``.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_ranges
        As in :func:`auk_score` (``sample_weight`` as in scikit-learn's
        ``roc_auc_score``).

    Returns
    -------
    auc : float
        NaN with a warning when ``y_true`` has a single class.

    Examples
    --------
    >>> import dask.array as da
    >>> from auklib.dask import roc_auc_score
    >>> y = da.from_array([0, 0, 1, 1, 0, 1], chunks=2)
    >>> s = da.from_array([0.1, 0.4, 0.35, 0.8, 0.4, 0.4], chunks=2)
    >>> round(roc_auc_score(y, s), 12)  # 6 of 9 pairs ordered, 2 tied
    0.666666666667
    """
    return _score(_range_auc, "roc_auc_score", y_true, y_score, pos_label, n_ranges,
                  sample_weight)


def kappa_curve(y_true, y_score, *, pos_label=None, sample_weight=None, n_ranges=None):
    """Cohen's kappa against the false positive rate, one point per threshold.

    The same points as :func:`auklib.kappa_curve` on the data in memory,
    built by the sample sort of :func:`auk_score` and returned as NumPy
    arrays (one point per distinct score, so they must fit in memory).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_ranges
        As in :func:`auk_score` (and :func:`auklib.kappa_curve`).

    Returns
    -------
    fpr, kappa, thresholds : ndarray of shape (n_thresholds + 1,)
        As :func:`auklib.kappa_curve`: increasing false positive rates,
        kappa at each threshold, and decreasing thresholds from +inf.

    Examples
    --------
    >>> import dask.array as da
    >>> from auklib.dask import kappa_curve
    >>> fpr, kappa, thr = kappa_curve(da.from_array([0, 0, 1, 1], chunks=2),
    ...                               da.from_array([0.1, 0.4, 0.35, 0.8], chunks=2))
    >>> fpr
    array([0. , 0. , 0.5, 0.5, 1. ])
    >>> kappa
    array([0. , 0.5, 0. , 0.5, 0. ])
    """
    layer, deps, ranges, off, n_pos, n_neg, token = _exact_ranges(
        y_true, y_score, pos_label, n_ranges, "kappa_curve", sample_weight,
        asymmetric=True)
    name = f"auk-kappa_curve-{token}"
    top = len(ranges) - 1
    for b in range(top, -1, -1):
        layer[(name, b)] = (_range_kappa, ranges[b], off, b, n_pos, n_neg, b == top)
    layer[name] = (_concat_curve, [(name, b) for b in range(top, -1, -1)])
    curve = dask.compute(Delayed(name, _graph(name, layer, deps)))[0]
    missing = _missing_class(n_pos, n_neg)
    if missing:
        _warn_missing(missing, "kappa_curve")
    return curve[0], curve[1], curve[2]


# ------------------------------------------------------ certified bounds


def _check_range(value):
    if value is None:
        return None
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise TypeError("range must be None or a pair (low, high) of numbers.") from None
    for v in (lo, hi):
        if isinstance(v, bool) or not isinstance(v, Real) or not np.isfinite(v):
            raise ValueError(f"range must hold two finite numbers; got {value!r}.")
    if not lo < hi:
        raise ValueError(f"range must have low < high; got {value!r}.")
    return float(lo), float(hi)


def _bin_coordinate(score, lo, hi, n_bins):
    """x = (s - lo) / (hi - lo) n_bins: non-decreasing in s, bin = floor(x).

    Every step rounds monotonically, so the order of the scores is kept
    (which is all the bounds need).  When hi - lo overflows (scores near
    +-1.8e308) the scores and the ends are halved first; a width in
    subnormal numbers is divided by, never inverted.
    """
    if not hi > lo:
        return np.zeros(score.shape[0])
    width = hi - lo
    if np.isfinite(width):
        x = np.subtract(score, lo, dtype=np.float64)
    else:
        x = np.multiply(score, 0.5, dtype=np.float64)
        x -= 0.5 * lo
        width = 0.5 * hi - 0.5 * lo
    x /= width
    x *= n_bins
    return x


def _chunk_minmax(y, s, pos_label, w=None):
    y_pos, score, labels, _ = _chunk_inputs(y, s, pos_label, w)
    if score.shape[0] == 0:
        return np.inf, -np.inf, labels
    return float(score.min()), float(score.max()), labels


def _chunk_hist(y, s, pos_label, lo, hi, n_bins, w=None):
    """Per-class counts (weights) over the bins (one pass), and the chunk's labels."""
    y_pos, score, labels, w = _chunk_inputs(y, s, pos_label, w)
    if score.shape[0] == 0:
        z = np.zeros(n_bins, np.int64)
        return z, z, labels
    if score.min() < lo or score.max() > hi:
        raise ValueError(
            f"y_score has values outside range=({lo!r}, {hi!r}): from "
            f"{score.min()!r} to {score.max()!r}."
        )
    x = _bin_coordinate(score, lo, hi, n_bins)
    idx = np.minimum(x.astype(np.int64), n_bins - 1)
    if w is not None:
        return (np.bincount(idx[y_pos], weights=w[y_pos], minlength=n_bins),
                np.bincount(idx[~y_pos], weights=w[~y_pos], minlength=n_bins), labels)
    pos = np.bincount(idx[y_pos], minlength=n_bins)
    tot = np.bincount(idx, minlength=n_bins)
    return pos, tot - pos, labels


def _chunk_subhist(y, s, pos_label, lo, hi, n_bins, chosen, n_sub, w=None):
    """Per-class counts over n_sub sub-bins of each chosen bin (the second pass)."""
    y_pos, score, _, w = _chunk_inputs(y, s, pos_label, w)
    k = chosen.shape[0]
    if score.shape[0] == 0:
        z = np.zeros(k * n_sub, np.int64)
        return z, z
    x = _bin_coordinate(score, lo, hi, n_bins)
    idx = np.minimum(x.astype(np.int64), n_bins - 1)
    slot = np.searchsorted(chosen, idx)
    slot = np.minimum(slot, k - 1)
    keep = chosen[slot] == idx
    x, idx, slot, yk = x[keep], idx[keep], slot[keep], y_pos[keep]
    # the place within the bin, cut in n_sub: again non-decreasing in the score
    sub = np.minimum(((x - idx) * n_sub).astype(np.int64), n_sub - 1)
    sub = np.maximum(sub, 0)
    cell = slot * n_sub + sub
    if w is not None:
        wk = w[keep]
        return (np.bincount(cell[yk], weights=wk[yk], minlength=k * n_sub),
                np.bincount(cell[~yk], weights=wk[~yk], minlength=k * n_sub))
    pos = np.bincount(cell[yk], minlength=k * n_sub)
    tot = np.bincount(cell, minlength=k * n_sub)
    return pos, tot - pos


def _sum_hists(*hists):
    pos = np.sum([h[0] for h in hists], axis=0)
    neg = np.sum([h[1] for h in hists], axis=0)
    labels = [h[2] for h in hists] if len(hists[0]) > 2 else []
    return pos, neg, labels


def _bound_terms(pos, neg, prevalence=None):
    """Per-bin lower and upper integrals of kappa, bins from the highest score.

    Bin j runs from vertex (F[j-1], T[j-1]) to (F[j], T[j]).  Only horizontal
    moves have width: the lower path crosses the bin at height T[j-1], the
    upper path at T[j].  Each is one segment of the exact segment integral.
    """
    n_pos, n_neg = float(pos.sum()), float(neg.sum())
    p, n = _shares(n_pos, n_neg) if prevalence is None else (prevalence, 1.0 - prevalence)
    tps = np.concatenate(([0], np.cumsum(pos)))
    fps = np.concatenate(([0], np.cumsum(neg)))
    f0, w = fps[:-1] / n_neg, neg / n_neg
    tnr0 = (n_neg - fps[:-1]) / n_neg
    k = pos.shape[0]
    pk, nk = np.full((k, 1), p), np.full((k, 1), n)
    out = []
    for t in (tps[:-1], tps[1:]):
        out.append(_exact_segments(f0[:, None], (t / n_pos)[:, None], w[:, None],
                                   np.zeros((k, 1)), ((n_pos - t) / n_pos)[:, None],
                                   tnr0[:, None], pk, nk))
    return out[0], out[1]


def _certify(low_terms, high_terms):
    """Sum the terms; widen by a rounding allowance (each term is at most its
    width in size, and its rounding a few ulps of that)."""
    k = low_terms.shape[0]
    pad = 64.0 * _EPS * (k + 16)
    return float(np.sum(low_terms)) - pad, float(np.sum(high_terms)) + pad


def auk_score_bounds(y_true, y_score, *, n_bins=1000, range=None, refine=0,
                     pos_label=None, sample_weight=None, prevalence=None):
    """Certified lower and upper bounds on the exact AUK, from one pass.

    Each chunk counts its positives and negatives in ``n_bins`` equal bins
    of the score range; the counts add up across chunks, so the whole pass is
    a sum of small histograms.  The ROC path passes through the vertex of
    every bin boundary, and inside a bin it is some monotone path between
    two known corners.  Kappa increases in t at fixed f, so the path that
    crosses the bin at its lower height (right first) has the smallest
    integral and the one that crosses at its upper height (up first) the
    largest.  The bins that hold only one class add the same to both.

    Parameters
    ----------
    y_true, y_score : dask array, dask DataFrame column or array-like
        As in :func:`auk_score`.
    n_bins : int, default=1000
        The number of equal-width score bins.
    range : (float, float), default=None
        The score range ``(low, high)`` that the bins cut; every score must
        lie in it (e.g. ``(0, 1)`` for probabilities).  None means the
        smallest and largest score, found in a first pass over the data.
    refine : int, default=0
        In a second pass, split the ``refine`` bins that add most to the
        width of the bounds into ``n_bins`` sub-bins each.
    pos_label : int, float, bool or str, default=None
        The positive label.  None means 1 (or True).
    sample_weight, prevalence
        As in :func:`auk_score`: the bounds are then on
        ``auklib.auk_score(y_true, y_score, sample_weight=...,
        prevalence=...)``.

    Returns
    -------
    bounds : AUKScoreBounds
        ``(low, high, n_bins)``; ``low <= auklib.auk_score(y_true, y_score)
        <= high``.  The sums are widened by a rounding allowance of
        ``64 eps (n_bins + 16)`` (about 1.5e-11 for 1000 bins).  NaN bounds
        with a warning when ``y_true`` has a single class.

    See Also
    --------
    auk_score : The exact AUK (a distributed sort).

    Notes
    -----
    With ``F_j, T_j`` the counts of negatives and positives in the bins above
    and including bin j (from the highest scores), the bounds are::

        low  = sum_j integral from F_{j-1} to F_j of kappa(f, T_{j-1}) df
        high = sum_j integral from F_{j-1} to F_j of kappa(f, T_j) df

    in rates, each a horizontal segment integrated exactly as in
    :func:`auklib.auk_score`.  Only the scores' order matters to the proof,
    so the float rounding of the bin edges cannot break it.

    Examples
    --------
    >>> import dask.array as da
    >>> import numpy as np
    >>> import auklib
    >>> from auklib.dask import auk_score_bounds
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(10_000) < 0.1
    >>> s = 1 / (1 + np.exp(-(rng.normal(size=10_000) + y)))
    >>> b = auk_score_bounds(da.from_array(y, chunks=2_500),
    ...                      da.from_array(s, chunks=2_500), n_bins=100, range=(0, 1))
    >>> bool(b.low <= auklib.auk_score(y, s) <= b.high)
    True
    >>> round(b.high - b.low, 4)
    0.0063
    """
    _check_pos_label(pos_label)
    n_bins = _check_int(n_bins, "n_bins", 1)
    refine = _check_int(refine, "refine", 0)
    rng = _check_range(range)
    if prevalence is not None:
        prevalence = _scalar_prevalence(prevalence)
    ys, ss, ws, _ = _blocks(y_true, y_score, sample_weight)
    if rng is None:
        mm = [delayed(_chunk_minmax, pure=True)(y, s, pos_label, w)
              for y, s, w in zip(ys, ss, ws)]
        mm = dask.compute(*mm)
        _check_labels([m[2] for m in mm], pos_label)
        lo, hi = min(m[0] for m in mm), max(m[1] for m in mm)
        if lo > hi:  # no chunk holds a score
            raise ValueError(_EMPTY)
    else:
        lo, hi = rng
    hists = [delayed(_chunk_hist, pure=True)(y, s, pos_label, lo, hi, n_bins, w)
             for y, s, w in zip(ys, ss, ws)]
    pos, neg, label_sets = dask.compute(delayed(_sum_hists)(*hists))[0]
    _check_labels(label_sets, pos_label)
    if pos.sum() + neg.sum() == 0:
        raise ValueError(_EMPTY if sample_weight is None
                         else "sample_weight is zero for every sample.")
    missing = _missing_class(pos.sum().item(), neg.sum().item())
    if missing:
        _warn_missing(missing, "auk_score_bounds")
        return AUKScoreBounds(float("nan"), float("nan"), n_bins)
    if pos_label is None:
        _warn_default_majority_labels(frozenset().union(*label_sets), pos.sum().item(),
                                      neg.sum().item(), "auk_score_bounds")
    count = np.float64 if sample_weight is not None else np.int64
    # the highest scores first
    pos, neg = pos[::-1].astype(count), neg[::-1].astype(count)
    n_used = n_bins
    if refine > 0 and hi > lo:
        low_t, high_t = _bound_terms(pos, neg, prevalence)
        width = high_t - low_t
        k = min(refine, n_bins)
        top = np.argsort(width, kind="stable")[::-1][:k]
        top = top[width[top] > 0]
        if top.shape[0]:
            chosen = np.sort(n_bins - 1 - top)  # back to bin numbers, increasing
            subs = [delayed(_chunk_subhist, pure=True)(y, s, pos_label, lo, hi, n_bins,
                                                       chosen, n_bins, w)
                    for y, s, w in zip(ys, ss, ws)]
            spos, sneg, _ = dask.compute(delayed(_sum_hists)(*subs))[0]
            # rebuild the partition in increasing score order, then flip
            apos, aneg = pos[::-1], neg[::-1]
            parts_p, parts_n, last = [], [], 0
            for i, b in enumerate(chosen):
                parts_p += [apos[last:b], spos[i * n_bins:(i + 1) * n_bins]]
                parts_n += [aneg[last:b], sneg[i * n_bins:(i + 1) * n_bins]]
                last = b + 1
            parts_p.append(apos[last:])
            parts_n.append(aneg[last:])
            pos = np.concatenate(parts_p)[::-1].astype(count)
            neg = np.concatenate(parts_n)[::-1].astype(count)
            n_used = pos.shape[0]
    low_t, high_t = _bound_terms(pos, neg, prevalence)
    low, high = _certify(low_t, high_t)
    return AUKScoreBounds(low, high, n_used)
