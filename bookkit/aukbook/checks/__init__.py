"""Self-checks for the book's exercises.

A student computes an answer and calls :func:`check`::

    >>> from aukbook.checks import check
    >>> check("ch3-ex-target", 0.2)
    ✗ ch3-ex-target: not yet. Hint: solve eq. (19) for t at the given f and p (or use tpr_from_kappa); kappa at your t should be exactly 0.5.

The message says whether the answer is right and gives a hint, never the
answer itself.  The installed package does not hold the reference answers
either: for each expected number r it stores only a slow salted hash of the
integer ``floor(r / atol)``.  An answer g is accepted when
``floor(g / atol)`` is within one of that integer, which means:

* every answer within ``atol`` of the reference passes;
* every answer ``2 * atol`` or more away fails;
* in between, the grid decides.

The reference answers are instructor material and are not part of this
package; the book's build turns them into the hashed files
``aukbook/checks/<chapter>.json``, and a test keeps the two in step.

A hash can be searched: trying grid cells one after another recovers the
number it hides.  So a self-check knows only the book's numbers, never a
graded answer: in a graded assignment every exercise with a numerical
answer uses numbers of the student's own (``aukbook.variants``), no student's
answer lies within four tolerances of the book's, and a search of these
files recovers only the book's answers, which the book's solutions print
anyway.  The two exercises whose answer is a formula are graded at random
inputs that no check here uses.
"""

import hashlib
import json
import math
import os
from dataclasses import dataclass

import numpy as np

__all__ = ["check", "describe", "tolerance", "CHECKS", "CheckResult"]

_HERE = os.path.dirname(__file__)
_SALT = b"aukbook-self-check-v1"
_ITERATIONS = 4000


def _digest(label, index, cell):
    """Slow salted hash of one grid cell ``floor(value / atol)``."""
    key = f"{label}|{index}|{cell}".encode()
    return hashlib.pbkdf2_hmac("sha256", key, _SALT, _ITERATIONS).hex()[:32]


def _cell(value, atol):
    return int(math.floor(value / atol))


def _load():
    checks = {}
    for name in sorted(os.listdir(_HERE)):
        if name.endswith(".json"):
            with open(os.path.join(_HERE, name), encoding="utf-8") as fh:
                for label, spec in json.load(fh).items():
                    if label in checks:
                        raise RuntimeError(f"self-check {label!r} is defined twice")
                    checks[label] = spec
    return checks


#: Every self-check, by exercise label: form, hint, tolerance and hashes.
CHECKS = _load()


@dataclass(frozen=True)
class CheckResult:
    """Outcome of a self-check: ``passed`` and a message for the student."""

    exercise: str
    passed: bool
    message: str

    def __bool__(self):
        return self.passed

    def __repr__(self):
        return self.message


def _lookup(exercise):
    if exercise not in CHECKS:
        raise ValueError(
            f"No self-check is called {exercise!r}; "
            f"available: {', '.join(sorted(CHECKS))}."
        )
    return CHECKS[exercise]


def tolerance(exercise):
    """The absolute tolerance of ``exercise``'s self-check (a float)."""
    return float(_lookup(exercise)["atol"])


def describe(exercise):
    """What form the answer to ``exercise`` takes, and its tolerance."""
    spec = _lookup(exercise)
    return (f"{exercise}: pass {spec['form']}. Each number is accepted within "
            f"{spec['atol']:g} of the reference, for the book's numbers (with numbers "
            "of your own, check your code on the book's numbers first).")


def _as_values(x):
    if isinstance(x, (str, bytes)) or x is None:
        raise TypeError
    arr = np.atleast_1d(np.asarray(x, dtype=np.float64))
    if arr.ndim != 1:
        raise TypeError
    return arr


def _matches(label, index, value, atol, digest):
    if not math.isfinite(value):
        return False
    cell = _cell(value, atol)
    return any(_digest(label, index, c) == digest for c in (cell, cell - 1, cell + 1))


def check(exercise, answer):
    """Check an answer to one of the book's exercises.

    Parameters
    ----------
    exercise : str
        The exercise label shown in the book, e.g. ``"ch3-ex-target"``.
    answer : number, tuple of numbers, or function
        See :func:`describe` for the form each exercise expects.

    Returns
    -------
    result : CheckResult
        Truthy when correct; its text says "correct" or gives a hint.  The
        expected value is never shown.

    Examples
    --------
    >>> from aukbook.checks import check
    >>> bool(check("ch5-ex-pivot", (-1/3, -4.5, 1.75)))
    True
    """
    spec = _lookup(exercise)
    atol = float(spec["atol"])
    ok = CheckResult(exercise, True, f"✓ {exercise}: correct.")
    bad = CheckResult(exercise, False, f"✗ {exercise}: not yet. Hint: {spec['hint']}")
    if spec["kind"] == "function":
        if not callable(answer):
            return CheckResult(exercise, False, f"✗ {exercise}: expected {spec['form']}, "
                                                f"got {type(answer).__name__}.")
        for i, (args, digest) in enumerate(zip(spec["probes"], spec["digests"])):
            try:
                got = float(answer(*args))
            except Exception as exc:  # the student's code failed
                return CheckResult(exercise, False, f"✗ {exercise}: your function raised "
                                                    f"{type(exc).__name__}: {exc}")
            if not _matches(exercise, i, got, atol, digest):
                return bad
        return ok
    try:
        got = _as_values(answer)
    except (TypeError, ValueError):
        return CheckResult(exercise, False,
                           f"✗ {exercise}: expected {spec['form']}, got {answer!r:.40}.")
    n = len(spec["digests"])
    if got.size != n:
        return CheckResult(exercise, False,
                           f"✗ {exercise}: expected {spec['form']} ({n} number"
                           f"{'s' if n > 1 else ''}), got {got.size}.")
    if all(_matches(exercise, i, float(g), atol, d)
           for i, (g, d) in enumerate(zip(got, spec["digests"]))):
        return ok
    return bad
