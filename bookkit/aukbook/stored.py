"""Results too slow to recompute on every run of a page, stored and spot-checked.

A page that repeats an experiment hundreds of times (fitting models on many
splits, say) would take a minute each time the book is tested.  Such a page
computes one row of its table with a function and hands the function and the
list of keys to :func:`stored_rows`, which

* reads the rows from ``data/<name>.json`` (beside the chapter) when that file
  holds exactly these keys, and recomputes ``check`` of them, spread over the
  keys, raising if any differs from what is stored;
* with the environment variable ``AUKBOOK_RECOMPUTE=1`` (which ``make
  notebooks`` sets), or when the file holds other keys, computes every row and
  writes the file;
* when the file is missing (a notebook run away from its ``data/`` folder),
  raises FileNotFoundError saying where the file was looked for: it never
  starts minutes of computation without being asked to.

So every run of the page checks the stored table against a fresh
computation, and the whole table is recomputed whenever the notebooks are
refreshed.
"""

import json
import math
import os
from pathlib import Path

RECOMPUTE = "AUKBOOK_RECOMPUTE"


def _plain(value):
    """A JSON value: numpy scalars become Python numbers and booleans."""
    if hasattr(value, "item") and not isinstance(value, (list, tuple, dict)):
        value = value.item()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _same(a, b, rel_tol):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=rel_tol, abs_tol=rel_tol)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y, rel_tol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], rel_tol) for k in a)
    return a == b


def spread(n, k):
    """``k`` indices spread evenly over ``range(n)``, first and last included."""
    if k <= 0 or n == 0:
        return []
    m = min(k, n)
    if m == 1:
        return [0]
    return sorted({round(i * (n - 1) / (m - 1)) for i in range(m)})


def stored_rows(name, row, keys, *, check=8, folder="data", rel_tol=1e-9):
    """``[row(*key) for key in keys]``, read from ``folder/name.json`` and spot-checked.

    Parameters
    ----------
    name : str
        The file's name without ``.json``.
    row : callable
        ``row(*key)`` returns one row: a dict of numbers, booleans and strings.
    keys : sequence of tuples
        The arguments of each row, in order.
    check : int, default=8
        How many stored rows (spread over the keys, first and last included)
        are recomputed and compared on every call.
    folder : str, default="data"
        Where the file lives, relative to the working directory (a chapter's
        folder when a notebook runs).
    rel_tol : float, default=1e-9
        Largest relative (and absolute) difference allowed between a stored
        and a recomputed number.

    Returns
    -------
    rows : list of dict
        One row per key, in the order of ``keys``.

    Raises
    ------
    RuntimeError
        When a recomputed row differs from the stored one.
    FileNotFoundError
        When ``folder/name.json`` does not exist and ``AUKBOOK_RECOMPUTE=1`` is
        not set.
    """
    keys = [tuple(_plain(list(k))) for k in keys]
    path = Path(folder) / f"{name}.json"
    stored = None
    recompute = os.environ.get(RECOMPUTE) == "1"
    if not path.is_file() and not recompute:
        raise FileNotFoundError(
            f"{path} (the stored table of {len(keys)} rows this page reads) is not in "
            f"{Path(folder).resolve()}: run the notebook from the folder that holds its "
            f"{Path(folder).name}/ folder (an assignment's download has one beside the "
            f"notebook), or set {RECOMPUTE}=1 to compute all {len(keys)} rows afresh "
            "(minutes)")
    if path.is_file() and not recompute:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        if [tuple(k) for k in data["keys"]] == keys:
            stored = data["rows"]
    if stored is None:
        rows = [_plain(row(*key)) for key in keys]
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({"keys": keys, "rows": rows}, fh, indent=0)
            fh.write("\n")
        return rows
    for i in spread(len(keys), check):
        fresh = _plain(row(*keys[i]))
        if not _same(fresh, stored[i], rel_tol):
            raise RuntimeError(
                f"{path} disagrees with a fresh computation of row {keys[i]}: "
                f"stored {stored[i]}, computed {fresh}.  Recompute the table "
                f"with {RECOMPUTE}=1 (make notebooks does)."
            )
    return stored
