"""Marks from recorded answers, decided in the grader's own process.

The sandboxed notebook only records what the student's variables hold
(``inside/aukgrade.py``); this module compares those records with the
reference answers (``answers.grading`` in ``tests/answers/``, which no
sandbox can see) and says, for each exercise, whether the answer has the
right form (1 point) and the right value (2 points).  The messages it returns
go into the student's feedback: they say what was wrong, never the expected
value.
"""

import contextlib
import dataclasses
import io
import json
import math
import os
import stat
import warnings

import numpy as np

from aukbook.checks import CHECKS

FORM_POINTS = 1       # the visible test: the answer has the right form
VALUE_POINTS = 2      # the hidden test: the answer is right (the student's variant)
PROBE_SEED = 20261123
MAX_RECORDS_BYTES = 8 << 20


def answer_name(label):
    return "answer_" + label.split("-ex-", 1)[1].replace("-", "_")


def _answers():
    from answers import grading           # tests/ is on the grader's path, never a sandbox's
    return grading


@contextlib.contextmanager
def quietly():
    """A reference computation may warn (ch13's few positives); nothing of it
    reaches a log, a notebook or a mark."""
    with warnings.catch_warnings(), np.errstate(all="ignore"), \
            contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def probes(label):
    """The inputs at which a function answer is evaluated: the self-check's first
    probe, then 2 n_probes random ones (fixed seed: the same for every run)."""
    spec = _answers().answer(label)
    rng = np.random.default_rng(PROBE_SEED)
    first = [float(v) for v in CHECKS[label]["probes"][0]]
    with quietly():
        rest = [[float(v) for v in spec.probe(rng)] for _ in range(2 * spec.n_probes)]
    return [first] + rest


def probes_file(labels):
    """The probes of every function answer among ``labels``, as JSON text."""
    return json.dumps({label: probes(label) for label in labels
                       if CHECKS[label]["kind"] == "function"})


def read_records(path, damage=None):
    """The last record of each label in ``path`` (a file the sandbox wrote).

    The file is untrusted: it is opened without following a symlink, must be a
    regular file of at most 8 MiB, and a malformed line is skipped.  What was
    wrong with it (a file that is not a regular one, more than 8 MiB, lines
    that are no record) is appended to the list ``damage`` when given: the
    hidden tests only ever write whole records, so damage means the notebook
    wrote to the file itself, and its marks must not pass unseen.
    """
    damage = [] if damage is None else damage
    try:
        # no symlink followed; a FIFO must not block the grader
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return {}
    except OSError as err:
        damage.append(f"it cannot be opened ({err.strerror or err})")
        return {}
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):      # a folder, a FIFO, a device
            damage.append("it is not a regular file")
            return {}
        with os.fdopen(fd, "rb") as fh:
            fd = None
            data = fh.read(MAX_RECORDS_BYTES + 1)
    except OSError as err:
        damage.append(f"it cannot be read ({err.strerror or err})")
        return {}
    finally:
        if fd is not None:
            os.close(fd)
    if len(data) > MAX_RECORDS_BYTES:
        damage.append(f"it holds more than {MAX_RECORDS_BYTES >> 20} MiB; the rest was not read")
        data = data[:MAX_RECORDS_BYTES]
    out, bad = {}, 0
    for line in data.decode("utf-8", "replace").splitlines():
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            bad += 1
            continue
        if isinstance(entry, dict) and isinstance(entry.get("label"), str):
            out[entry["label"]] = entry
        else:
            bad += 1
    if bad:
        damage.append(f"{bad} line(s) of it are no record")
    return out


def _number(x):
    """A float from a recorded number, or None."""
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, str) and x in ("nan", "inf", "-inf"):
        return float(x)
    return None


@dataclasses.dataclass
class Verdict:
    label: str
    form: bool
    value: bool
    form_message: str
    value_message: str

    @property
    def points(self):
        return FORM_POINTS * self.form + VALUE_POINTS * self.value


def _missing_message(name, entry, stopped):
    if entry is None:
        why = (f" (the notebook stopped before this test: {stopped})" if stopped else
               " (the test did not run)")
        return f"no answer was recorded for {name}{why}"
    if entry.get("missing"):
        return f"{name} is not defined when the test runs"
    return f"{name} could not be read as numbers ({str(entry.get('error', ''))[:120]})"


def read_course_key(path):
    """The course key an assignment was released with (``make release
    ROSTER=`` writes it to ``COURSE/course_keys/<assignment>.txt``), or None
    (no file, or ``none``: released without a roster): read here, in
    the grader's process, never from the sandbox (which has no environment)
    or from the student's notebook (which the student can edit)."""
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        key = fh.read().strip()
    return None if key.lower() in ("", "none") else key


def judge(label, entry, student_id, stopped=None, key=None):
    """The verdict on ``label`` from its record ``entry`` (None: nothing recorded);
    ``key``: the course key of the roster (:func:`read_course_key`), or None."""
    spec = CHECKS[label]
    name = answer_name(label)
    ref_answer = _answers().answer(label)
    tol = ref_answer.atol * (1 + 1e-9)
    if spec["kind"] == "function":
        form_rule = f"{name} should be a function returning a finite number"
        if not entry or not entry.get("callable") or not isinstance(entry.get("outputs"), list):
            msg = (_missing_message(name, entry, stopped) if not entry or entry.get("missing")
                   or "error" in entry else f"{name} is not a function")
            return Verdict(label, False, False, f"{form_rule}: {msg}", msg)
        got = [_number(v) for v in entry["outputs"]]
        inputs = probes(label)
        form = bool(got) and got[0] is not None and math.isfinite(got[0])
        value = len(got) == len(inputs)
        if value:
            with quietly():
                for args, g in zip(inputs, got):
                    want = float(ref_answer.reference(*args))
                    if g is None or not math.isfinite(g) or not abs(g - want) <= tol:
                        value = False
                        break
        n_bad = "" if value else " at one or more of the test inputs"
        return Verdict(label, form,
                       value,
                       "" if form else f"{form_rule}: its first test input gave no finite number",
                       f"{name} agrees with the expected function at {len(inputs)} test inputs"
                       if value else f"{name} is not within the tolerance ({ref_answer.atol:g})"
                       f"{n_bad}")
    n = len(spec["digests"])
    shape = "a number" if n == 1 else f"{n} numbers"
    form_rule = f"{name} should be {shape}, every number finite"
    if not entry or "values" not in entry or not isinstance(entry["values"], list):
        msg = _missing_message(name, entry, stopped)
        return Verdict(label, False, False, f"{form_rule}: {msg}", msg)
    got = [_number(v) for v in entry["values"]]
    form = len(got) == n and all(g is not None and math.isfinite(g) for g in got)
    if not form:
        return Verdict(label, False, False,
                       f"{form_rule}: got {len(got)} value(s)"
                       + ("" if all(g is not None and math.isfinite(g) for g in got)
                          else ", not all finite"),
                       f"{name} does not have the right form, so its value was not compared")
    with quietly():
        want = np.ravel(np.asarray(_answers().expected(label, student_id, key), dtype=float))
    value = want.shape == (n,) and bool(np.all(np.abs(np.asarray(got) - want) <= tol))
    return Verdict(label, True, value, "",
                   f"{name} is within the tolerance ({ref_answer.atol:g}) of the expected answer"
                   if value else
                   f"{name} is not within the tolerance ({ref_answer.atol:g}) of the expected "
                   "answer" + (" for your variant (your numbers come from your student id)"
                               if label in _variant_labels() else ""))


def _variant_labels():
    from aukbook.variants import VARIANT_LABELS
    return VARIANT_LABELS
