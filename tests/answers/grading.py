"""What the hidden tests of the nbgrader assignments call (instructor material).

``course/make_assignments.py`` writes hidden test cells such as::

    from answers.grading import value_ok
    assert value_ok("ch1-ex-fourth", answer_fourth, STUDENT_ID)

nbgrader strips them from the students' release and puts them back when it
autogrades; the autograding kernel finds this package because the course's
``nbgrader_config.py`` puts ``tests/`` on its PYTHONPATH.  The functions
return True or False and never raise with the expected value, so a
feedback page shows no answer.
"""

import importlib
import os

import numpy as np

from aukbook.variants import VARIANT_LABELS, variant


def _module(label):
    number = int(label.split("-")[0][2:])
    folder = os.path.dirname(os.path.abspath(__file__))
    name = next(f[:-3] for f in sorted(os.listdir(folder))
                if f.startswith(f"ch{number:02d}_") and f.endswith(".py"))
    return importlib.import_module(f"answers.{name}")


def answer(label):
    """The reference Answer of ``label`` (form, tolerance, reference)."""
    return _module(label).ANSWERS[label]


def graded_student_id(student_id=None):
    """The id the grade is for.

    While nbgrader autogrades, the notebook runs in
    ``autograded/<student id>/<assignment>/``: that folder's name is the id the
    submission was collected under, and it wins over whatever the student typed
    into ``STUDENT_ID`` (a student who types a classmate's id gets the
    classmate's numbers, and is marked against their own).
    """
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        return os.path.basename(os.path.dirname(os.getcwd()))
    return student_id


def expected(label, student_id=None):
    """The reference answer of ``label``: the student's variant if it has one."""
    if label in VARIANT_LABELS:
        sid = graded_student_id(student_id)
        return _module(label).VARIANTS[label](**variant(label, sid))
    return answer(label).reference()


def value_ok(label, value, student_id=None):
    """True when ``value`` has the reference's shape and is within its tolerance."""
    ref = np.atleast_1d(np.asarray(expected(label, student_id), dtype=float))
    try:
        got = np.atleast_1d(np.asarray(value, dtype=float))
    except (TypeError, ValueError):
        return False
    if got.shape != ref.shape or not np.all(np.isfinite(got)):
        return False
    return bool(np.all(np.abs(got - ref) <= answer(label).atol * (1 + 1e-9)))


def function_ok(label, function):
    """True when ``function`` agrees with the reference at the self-check's probes
    and at as many fresh random ones (within the tolerance)."""
    spec = answer(label)
    if not callable(function):
        return False
    rng = np.random.default_rng(20261123)
    for _ in range(2 * spec.n_probes):
        args = spec.probe(rng)
        try:
            got = float(function(*args))
        except Exception:                    # a student's function may raise anything
            return False
        if not abs(got - float(spec.reference(*args))) <= spec.atol * (1 + 1e-9):
            return False
    return True
