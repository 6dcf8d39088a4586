"""The reference values the grader compares a submission with (instructor material).

``course/grading/judge.py`` calls ``expected(label, student_id, key)`` and
``answer(label)`` in the grader's own process, never in a student's notebook:
the notebooks are graded in a sandbox that cannot see this folder (see
``course/grading/README.md``).  ``expected`` gives the reference for the
student's own numbers when the exercise has per-student variants
(``aukbook.variants`` draws them from the id the submission was collected
under; ``VARIANTS`` of the chapter's module computes the answer).
"""

import importlib
import os
import re

from aukbook.variants import VARIANT_LABELS, variant


def _module(label):
    """The answers module of ``label``'s chapter: among the modules of its
    chapter number, the one whose ANSWERS hold the label."""
    number = int(re.match(r"ch(\d+)", label).group(1))
    folder = os.path.dirname(os.path.abspath(__file__))
    names = [f[:-3] for f in sorted(os.listdir(folder))
             if f.startswith(f"ch{number:02d}_") and f.endswith(".py")]
    modules = [importlib.import_module(f"answers.{name}") for name in names]
    return next((m for m in modules if label in m.ANSWERS), modules[0])


def answer(label):
    """The reference Answer of ``label`` (form, tolerance, reference)."""
    return _module(label).ANSWERS[label]


def expected(label, student_id=None, key=None):
    """The reference answer of ``label``: the student's variant if it has one.

    ``key`` is the course key the assignment was released with
    (``aukbook.variants.roster_key``, read by the grader from
    ``_build/grading/course_key.txt``); without it, the roster-free variant.
    """
    if label in VARIANT_LABELS:
        return _module(label).VARIANTS[label](**variant(label, student_id, key))
    return answer(label).reference()
