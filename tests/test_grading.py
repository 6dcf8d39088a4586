"""Autograding with nbgrader: the assignments made from the chapters grade a
folder of submissions, and each per-student variant is marked on its own numbers.

``test_grade_three_submissions`` runs the instructor's commands (``make
release`` and ``make grade``, i.e. nbgrader generate_assignment, zip_collect,
autograde, generate_feedback and export) on chapter 1 in a temporary course
and asserts the marks of a correct, a partly wrong and a blank submission.
The other tests run the hidden test cells of every chapter's assignment on
the reference answers of one student's variant and of another's.
"""

import csv
import glob
import os
import re
import sqlite3
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from answers.grading import answer, expected, graded_student_id
from aukbook.variants import BOOK, VARIANT_LABELS, variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import make_assignments  # noqa: E402

NOTEBOOK = "ch01_accuracy_kappa.ipynb"
# chapter 1: three exercises with numerical answers (1 + 2 points each) and
# three written answers marked by hand (6 + 4 + 6 points)
AUTO, MANUAL = 9.0, 16.0


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """The nbgrader source notebook of every chapter, by assignment id."""
    course = tmp_path_factory.mktemp("sources")
    summary = make_assignments.write_course(str(course))
    paths = {aid: glob.glob(str(course / "source" / aid / "*.ipynb"))[0]
             for aid in summary}
    notebooks = {aid: nbformat.read(path, as_version=4) for aid, path in paths.items()}
    return summary, notebooks


def grade_cells(nb):
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells
            if "nbgrader" in c.metadata}


def hidden_test(nb, label):
    source = grade_cells(nb)[f"{label}-value"].source
    found = re.search(r"BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", source, re.S)
    return found.group(1)


def assignment_of(label):
    return "ch%02d" % int(label.split("-")[0][2:])


def passes(code, namespace):
    try:
        exec(code, dict(namespace))
    except AssertionError:
        return False
    return True


def test_every_exercise_is_graded(sources):
    from aukbook.checks import CHECKS
    from course_metrics import KIND

    summary, notebooks = sources
    rubrics = make_assignments.rubric_points()
    rows = {r["label"]: r for rs in summary.values() for r in rs}
    assert set(rows) == set(KIND)
    for label, row in rows.items():
        cells = grade_cells(notebooks[assignment_of(label)])
        if label in CHECKS:
            assert cells[f"{label}-form"].metadata["nbgrader"]["points"] == 1
            assert cells[f"{label}-value"].metadata["nbgrader"]["points"] == 2
            assert cells[f"{label}-answer"].metadata["nbgrader"]["solution"]
        if {"derivation", "interpretation"} & set(KIND[label]):
            written = cells[f"{label}-written"].metadata["nbgrader"]
            assert written["points"] == rubrics[label][1] and written["solution"]
        assert (label in CHECKS) or (f"{label}-written" in cells)


def test_model_chapters_select_the_graders_blas_kernels(sources):
    _, notebooks = sources
    for aid, nb in notebooks.items():
        first = next(c for c in nb.cells if c.cell_type == "code")
        assert "STUDENT_ID =" in first.source
        pinned = 'os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")' in first.source
        assert pinned == (aid in make_assignments.BLAS_SENSITIVE), aid


def test_variants_cover_chapters_1_to_10(sources):
    summary, _ = sources
    for aid in [f"ch{n:02d}" for n in range(1, 11)]:
        assert any(r["variant"] for r in summary[aid]), f"{aid} has no variant exercise"


@pytest.mark.parametrize("label", VARIANT_LABELS)
def test_variant_reference_generalises_the_book(label):
    """At the book's own numbers, the variant's reference is the book's answer."""
    from answers.grading import _module

    ref = _module(label).VARIANTS[label](**BOOK[label])
    np.testing.assert_allclose(np.ravel(ref), np.ravel(answer(label).reference()),
                               rtol=0, atol=1e-12)


def test_variants_are_deterministic_and_vary():
    for label in VARIANT_LABELS:
        assert variant(label, "s001") == variant(label, " s001 ")
        assert len({repr(variant(label, f"s{i:03d}")) for i in range(30)}) >= 5, label
    with pytest.raises(ValueError, match="student_id"):
        variant("ch1-ex-fourth", "")
    with pytest.raises(ValueError, match="ch1-ex-counts"):
        variant("ch1-ex-counts", "s001")


@pytest.mark.parametrize("label", VARIANT_LABELS)
def test_hidden_test_marks_each_variant(sources, label):
    """The hidden test accepts a student's own variant's answer and rejects a
    classmate's (a different variant whose answer differs by more than 2 atol)."""
    _, notebooks = sources
    code = hidden_test(notebooks[assignment_of(label)], label)
    name = make_assignments.answer_name(label)
    me = "s001"
    mine = expected(label, me)
    assert passes(code, {name: mine, "STUDENT_ID": me})
    atol = answer(label).atol
    for i in range(2, 40):
        other = f"s{i:03d}"
        theirs = expected(label, other)
        if np.max(np.abs(np.subtract(theirs, mine))) > 2 * atol:
            break
    else:
        pytest.fail(f"{label}: 38 classmates share s001's answer")
    assert not passes(code, {name: theirs, "STUDENT_ID": me})
    assert passes(code, {name: theirs, "STUDENT_ID": other})
    # rounded to the tolerance it still passes; off by 2 atol it fails
    nudged = np.asarray(mine, dtype=float) + 0.9 * atol
    assert passes(code, {name: nudged, "STUDENT_ID": me})
    assert not passes(code, {name: np.asarray(mine, dtype=float) + 2.5 * atol,
                             "STUDENT_ID": me})


def test_hidden_tests_of_fixed_and_function_answers(sources):
    _, notebooks = sources
    ok = hidden_test(notebooks["ch01"], "ch1-ex-counts")
    from auklib import kappa_from_confusion

    assert passes(ok, {"answer_counts": kappa_from_confusion})
    def accuracy(tp, fn, fp, tn):
        return (tp + tn) / (tp + fn + fp + tn)

    assert not passes(ok, {"answer_counts": accuracy})
    assert not passes(ok, {"answer_counts": 0.5})
    fixed = hidden_test(notebooks["ch01"], "ch1-ex-random")
    assert passes(fixed, {"answer_random": expected("ch1-ex-random")})
    assert not passes(fixed, {"answer_random": expected("ch1-ex-random") + 0.11})
    assert not passes(fixed, {"answer_random": "one"})
    assert not passes(fixed, {"answer_random": (1.0, 1.0)})


def test_the_grader_uses_the_collected_id(tmp_path, monkeypatch):
    folder = tmp_path / "autograded" / "s042" / "ch01"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    assert graded_student_id("s001") == "s001"
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert graded_student_id("s001") == "s042"


def submission(release, student_id, *, wrong=(), blank=False):
    """A filled-in copy of the released notebook.

    The answers are literal numbers (what a student's code would produce);
    ``wrong`` lists labels answered with a classmate's variant instead.
    """
    nb = nbformat.from_dict(release)
    if blank:
        return nb
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if cell.source.startswith("STUDENT_ID ="):
            cell.source = f'STUDENT_ID = "{student_id}"'
        elif gid == "ch1-ex-counts-answer":
            cell.source = ("def kappa(tp, fn, fp, tn):\n"
                           "    n = tp + fn + fp + tn\n"
                           "    p, q = (tp + fn) / n, (tp + fp) / n\n"
                           "    denominator = q * (1 - p) + p * (1 - q)\n"
                           "    return 2 * (tp * tn - fn * fp) / n**2 / denominator\n"
                           "answer_counts = kappa")
        elif gid.endswith("-answer"):
            label = gid[:-len("-answer")]
            sid = "s901" if label in wrong else student_id
            value = np.ravel(expected(label, sid)).tolist()
            cell.source = f"{make_assignments.answer_name(label)} = {value!r}"
        elif gid.endswith("-written"):
            cell.source = "My derivation: ..."
    return nb


def test_grade_three_submissions(tmp_path):
    """make release + make grade on chapter 1: full, partial and zero marks."""
    course, folder = tmp_path / "course", tmp_path / "submissions"
    env = dict(os.environ, OMP_NUM_THREADS="1")
    make = ["make", "-s", "-C", ROOT, f"COURSE={course}", "ASSIGNMENT=ch01"]
    subprocess.run(make + ["release"], check=True, capture_output=True, env=env)
    release = nbformat.read(course / "release" / "ch01" / NOTEBOOK, 4)
    text = nbformat.writes(release)
    # the release holds no solution, hidden test or reference answer
    for needle in ("BEGIN SOLUTION", "HIDDEN TESTS", "answers", "value_ok",
                   "expected("):
        assert needle not in text, needle
    assert f"{float(expected('ch1-ex-random')):.4f}" not in text
    assert "raise NotImplementedError()" in text

    assert np.max(np.abs(np.subtract(expected("ch1-ex-fourth", "s901"),
                                     expected("ch1-ex-fourth", "s002")))) > 1e-3
    for sid, nb in {"s001": submission(release, "s001"),
                    "s002": submission(release, "s002", wrong=("ch1-ex-fourth",)),
                    "s003": submission(release, "s003", blank=True)}.items():
        (folder / sid).mkdir(parents=True)
        nbformat.write(nb, folder / sid / NOTEBOOK)
    run = subprocess.run(make + [f"SUBMISSIONS={folder}", "grade"], capture_output=True,
                         text=True, env=env)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]

    with open(course / "grades.csv", newline="") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    marks = {sid: float(r["score"]) for sid, r in rows.items()}
    assert {float(r["max_score"]) for r in rows.values()} == {AUTO + MANUAL}
    # correct: every autograded point; partly wrong: a classmate's variant for
    # exercise 1.2 keeps its form point and loses its 2 value points; blank: 0
    assert marks == {"s001": AUTO, "s002": AUTO - 2, "s003": 0.0}

    db = sqlite3.connect(course / "gradebook.db")
    pending = dict(db.execute(
        "SELECT student.id, SUM(grade.needs_manual_grade) FROM grade "
        "JOIN submitted_notebook ON grade.notebook_id = submitted_notebook.id "
        "JOIN submitted_assignment "
        "ON submitted_notebook.assignment_id = submitted_assignment.id "
        "JOIN student ON submitted_assignment.student_id = student.id "
        "GROUP BY student.id"))
    db.close()
    # the written answers wait for the instructor; the blank ones score 0 without
    assert pending == {"s001": 3, "s002": 3, "s003": 0}
    for sid in marks:
        page = course / "feedback" / sid / "ch01" / NOTEBOOK.replace(".ipynb", ".html")
        assert page.is_file(), page
