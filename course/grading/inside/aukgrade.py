"""Runs inside the grading sandbox: the hidden test cells record answers.

A hidden test cell of an assignment is one line::

    from aukgrade import record; record("ch1-ex-fourth", "answer_fourth")

It writes what the student's variable holds, as data, to
``$AUKGRADE_OUT/records.jsonl``: the numbers of a value answer, or, for a
function answer, what the function returns at each probe input the grader
listed in ``$AUKGRADE_PROBES``.  It compares nothing and knows no reference
answer: the grader compares the records with the references in its own
process.  It never raises and prints nothing (a hidden cell's output is
replaced by the grader's verdict anyway).
"""

import json
import math
import os
import sys

MAX_VALUES = 10_000


def _numbers(value):
    """A flat list of floats, or raise."""
    import numpy as np
    arr = np.asarray(value, dtype=float)
    if arr.size > MAX_VALUES:
        raise ValueError(f"{arr.size} numbers (at most {MAX_VALUES})")
    return [float(v) for v in arr.ravel()]


def _clean(x):
    return x if math.isfinite(x) else repr(x)     # JSON has no inf or nan


def _probes(label):
    try:
        with open(os.environ["AUKGRADE_PROBES"], encoding="utf-8") as fh:
            return json.load(fh).get(label, [])
    except Exception:
        return []


def _describe(err):
    return f"{type(err).__name__}: {err}"[:300]


def record(label, name):
    """Record the student's ``name`` (a variable of the notebook) for exercise ``label``."""
    entry = {"label": label, "name": name}
    try:
        namespace = sys._getframe(1).f_globals
        if name not in namespace:
            entry["missing"] = True
        else:
            value = namespace[name]
            if callable(value):
                outputs = []
                for args in _probes(label):
                    try:
                        got = value(*args)
                        outputs.append(_clean(float(got)))
                    except BaseException as err:      # noqa: B902 (the student's function)
                        if isinstance(err, KeyboardInterrupt):
                            raise
                        outputs.append({"error": _describe(err)})
                entry["callable"] = True
                entry["outputs"] = outputs
            else:
                entry["values"] = [_clean(v) for v in _numbers(value)]
    except KeyboardInterrupt:
        raise
    except BaseException as err:     # noqa: B902
        entry["error"] = _describe(err)
    try:
        line = json.dumps(entry, default=str)
        with open(os.path.join(os.environ.get("AUKGRADE_OUT", "."), "records.jsonl"),
                  "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
    except Exception:
        pass
