"""Write the nbgrader course: one assignment per chapter, from the chapters themselves.

    python course/make_assignments.py [COURSE] [--chapters ch01 ch04 ...]

COURSE (default _build/grading) becomes an nbgrader course directory:
``nbgrader_config.py`` and ``source/<chNN>/<chapter>.ipynb``, the instructor's
version of each assignment.  ``nbgrader generate_assignment`` turns a source
into the students' release (``release/<chNN>/``), without solutions and hidden
tests.  Each source notebook is the student notebook of ``make student``
(course/make_student.py: no solutions, no verification cells, plain Markdown)
with, added:

* a first code cell ``STUDENT_ID = "..."`` for the student to fill in;
* after each exercise that has a numerical answer (a self-check), an answer
  cell (nbgrader "autograded answer": the student sets ``answer_<name>``),
  a visible test of the answer's form (1 point) and a hidden test of its
  value (2 points): within the exercise's tolerance of the reference answer
  in tests/answers/ (answers.grading);
* for the exercises with per-student variants (aukbook.variants), a read-only
  cell that prints the student's own numbers; the hidden test compares with
  the reference computed for the variant of the student being graded;
* after each exercise that asks for a derivation or an interpretation
  (course/course_metrics.py, KIND), a Markdown answer cell graded by hand,
  worth the points of its rubric in chapters/rubrics.md.

The sources hold answers (in their hidden tests and solution regions):
they stay in _build/ (not committed, not in either student edition).
"""

import argparse
import glob
import os
import re
import shutil
import sys

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course"))
from course_metrics import KIND  # noqa: E402
from make_student import (LABEL, plain_markdown_notebook, repository_url,  # noqa: E402
                          without_solutions, without_verification)
from myst_markdown import BookIndex  # noqa: E402

from aukbook.checks import CHECKS  # noqa: E402
from aukbook.variants import VARIANT_LABELS  # noqa: E402

FORM_POINTS = 1     # the visible test: the answer has the right form
VALUE_POINTS = 2    # the hidden test: the answer is right (the student's variant)
RUBRIC_HEAD = re.compile(r"^### (.+) — ([a-z ]+), (\d+(?:\.\d+)?) points\n\n"
                         r"Rubric for \{ref\}`([\w-]+)`\.$", re.M)
PLACEHOLDER_ID = "your-student-id"

CONFIG = '''\
# nbgrader configuration of the book's course (written by course/make_assignments.py).
import os

c = get_config()  # noqa: F821
c.CourseDirectory.root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.course_id = "aukbook"
# The hidden tests import answers.grading from the book's tests/ folder: the
# autograding kernel inherits this PYTHONPATH (the students' release has no
# hidden test and needs nothing of the kind).
os.environ["PYTHONPATH"] = os.pathsep.join(
    [{tests!r}] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")
os.environ.setdefault("PYTHONHASHSEED", "0")
os.environ.setdefault("OMP_NUM_THREADS", "1")
# A chapter runs in well under a minute; a student's endless loop must not
# hold the grading up for long.
c.Execute.timeout = 300
# zip_collect: SUBMISSIONS/<student id>/<chapter>.ipynb (or <student id>.zip
# holding <chapter>.ipynb) are copied to downloaded/<assignment>/archive/ and
# collected by the folder name.
c.ZipCollectApp.collector_plugin = "nbgrader.plugins.FileNameCollectorPlugin"
c.FileNameCollectorPlugin.named_regexp = (
    r".*/extracted/(?P<student_id>[^/]+)/(?:[^/]+/)*"
    r"(?P<file_id>ch\\d\\d_[\\w]+\\.ipynb)$")
'''


def meta(grade_id, *, solution=False, grade=False, locked=False, points=0):
    md = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
          "solution": solution, "task": False}
    if grade:
        md["points"] = points
    return {"nbgrader": md}


def rubric_points():
    with open(os.path.join(ROOT, "chapters", "rubrics.md"), encoding="utf-8") as fh:
        text = fh.read()
    return {m.group(4): (m.group(1), float(m.group(3)))
            for m in RUBRIC_HEAD.finditer(text)}


def answer_name(label):
    return "answer_" + label.split("-ex-", 1)[1].replace("-", "_")


def answer_cells(label, number):
    """The cells that grade the numerical answer of exercise ``label``."""
    spec = CHECKS[label]
    name = answer_name(label)
    cells = []
    key = label
    if label in VARIANT_LABELS:
        var = "V_" + name[len("answer_"):].upper()
        cells.append(nbformat.v4.new_markdown_cell(
            f"**Your variant of exercise {number}.** In this assignment the exercise "
            "uses numbers of your own instead of the book's: run the next cell "
            "(it reads your `STUDENT_ID`) and use the numbers it prints. The "
            "self-check `check(...)` knows only the book's numbers, so it cannot "
            "check your variant.", metadata=meta(f"{key}-variant-text", locked=True)))
        cells.append(nbformat.v4.new_code_cell(
            "from aukbook.variants import describe_variant, variant\n\n"
            f"print(describe_variant({label!r}, STUDENT_ID))\n"
            f"{var} = variant({label!r}, STUDENT_ID)  # the same numbers, by name",
            metadata=meta(f"{key}-variant", locked=True)))
    if spec["kind"] == "function":
        what = (f"Set `{name}` to your function: {spec['form']} "
                f"(for example `{name} = kappa` after `def kappa(...)`).")
        solution = (f"from answers.grading import answer\n"
                    f"{name} = answer({label!r}).reference")
        args = tuple(spec["probes"][0])
        form_test = (
            f"assert callable({name}), \"{name} should be a function\"\n"
            f"_value = float({name}(*{args!r}))\n"
            "assert np.isfinite(_value), "
            "\"the function should return a finite number\"")
        hidden = (f"from answers.grading import function_ok\n"
                  f"assert function_ok({label!r}, {name})")
    else:
        n = len(spec["digests"])
        what = f"Set `{name}` to {spec['form']}."
        solution = (f"from answers.grading import expected\n"
                    f"{name} = expected({label!r}, STUDENT_ID)")
        shape = "a number" if n == 1 else f"{n} numbers"
        form_test = (
            f"_value = np.asarray({name}, dtype=float)\n"
            f"assert _value.size == {n}, \"{name} should be {shape}\"\n"
            "assert np.all(np.isfinite(_value)), \"every number should be finite\"")
        hidden = (f"from answers.grading import value_ok\n"
                  f"assert value_ok({label!r}, {name}, globals().get('STUDENT_ID'))")
    cells.append(nbformat.v4.new_markdown_cell(
        f"**Answer to exercise {number}** ({FORM_POINTS + VALUE_POINTS} points, "
        f"graded automatically). {what}",
        metadata=meta(f"{key}-answer-text", locked=True)))
    cells.append(nbformat.v4.new_code_cell(
        f"# Exercise {number}: compute {name} here (or in cells above this one).\n"
        f"### BEGIN SOLUTION\n{solution}\n### END SOLUTION",
        metadata=meta(f"{key}-answer", solution=True)))
    cells.append(nbformat.v4.new_code_cell(
        f"# Test: the form of {name} ({FORM_POINTS} point). Its value is tested when "
        f"your notebook is graded ({VALUE_POINTS} points).\n"
        f"import numpy as np\n\n{form_test}",
        metadata=meta(f"{key}-form", grade=True, locked=True, points=FORM_POINTS)))
    cells.append(nbformat.v4.new_code_cell(
        f"# Hidden test: the value of {name} ({VALUE_POINTS} points).\n"
        f"### BEGIN HIDDEN TESTS\n{hidden}\n### END HIDDEN TESTS",
        metadata=meta(f"{key}-value", grade=True, locked=True, points=VALUE_POINTS)))
    return cells


def written_cells(label, number, rubric):
    title, points = rubric
    kinds = [k for k in KIND[label] if k != "computation"]
    points = int(points) if float(points).is_integer() else points
    return [
        nbformat.v4.new_markdown_cell(
            f"**Written answer to exercise {number}** ({' and '.join(kinds)}, {points} "
            "points, marked by hand). Write your answer in the next cell (Markdown, "
            "with $\\LaTeX$ for formulas); add code cells above it for any "
            "computation it uses.",
            metadata=meta(f"{label}-written-text", locked=True)),
        nbformat.v4.new_markdown_cell(
            "### BEGIN SOLUTION\n"
            f"Marked by hand against the rubric \"{title}\" in the instructor's "
            f"rubrics page (chapters/rubrics.md, {points} points).\n"
            "### END SOLUTION",
            metadata=meta(f"{label}-written", solution=True, grade=True,
                          points=points)),
    ]


# Chapters whose fitted models (neural network, SMOTE) round differently with
# OpenBLAS's AVX-512 and AVX2 kernels (see the Makefile): their assignments
# select the AVX2 kernels, as the grader does (nbgrader_config.py), before
# numpy is first imported, so that a student's numbers on an x86-64 machine
# are the grader's.
BLAS_SENSITIVE = ("ch07", "ch08")
PIN_KERNELS = (
    "import os\nimport platform\n\n"
    "# the BLAS kernels the grader uses (the fitted networks depend on them)\n"
    "if platform.machine().lower() in (\"x86_64\", \"amd64\"):\n"
    "    os.environ.setdefault(\"OPENBLAS_CORETYPE\", \"Haswell\")\n")


def student_id_cells(aid=""):
    pin = PIN_KERNELS + "\n" if aid in BLAS_SENSITIVE else ""
    return [
        nbformat.v4.new_markdown_cell(
            "**Before you start:** put your student id, exactly as your instructor "
            "gave it, in the next cell and run it first. Some exercises use numbers "
            "of your own, drawn from it; you are graded on the numbers of the id "
            "your submission is collected under.",
            metadata=meta("student-id-text", locked=True)),
        nbformat.v4.new_code_cell(
            pin + f'STUDENT_ID = "{PLACEHOLDER_ID}"  # your student id'),
    ]


def assignment_notebook(path, index, rubrics):
    """The nbgrader source notebook of one chapter; returns (notebook, summary)."""
    doc = os.path.splitext(os.path.basename(path))[0]
    nb = without_solutions(nbformat.read(path, as_version=4), keep_outputs=False,
                           check_cell=lambda label: nbformat.v4.new_raw_cell("drop"))
    nb.cells = [c for c in nb.cells
                if not (c.cell_type == "raw" and c.source == "drop")]
    nb = without_verification(nb)
    cells, summary = [], []
    for cell in nb.cells:
        cells.append(cell)
        if cell.cell_type != "markdown":
            continue
        for label in LABEL.findall(cell.source):
            number = index.numbers.get(label, label)
            row = {"label": label, "number": number, "auto": 0, "manual": 0,
                   "variant": label in VARIANT_LABELS}
            if label in CHECKS:
                cells += answer_cells(label, number)
                row["auto"] = FORM_POINTS + VALUE_POINTS
            if label in rubrics:
                cells += written_cells(label, number, rubrics[label])
                row["manual"] = rubrics[label][1]
            summary.append(row)
    # the student id first: after the title, before any code
    first = next(i for i, c in enumerate(cells) if c.cell_type == "code")
    cells[first:first] = student_id_cells(os.path.basename(path)[:4])
    nb.cells = cells
    nb = plain_markdown_notebook(nb, index, doc)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb, summary


def assignment_id(path):
    return os.path.basename(path)[:4]          # ch01_accuracy_kappa.ipynb -> ch01


def write_course(course, chapters=None):
    course = os.path.abspath(course)
    os.makedirs(course, exist_ok=True)
    with open(os.path.join(course, "nbgrader_config.py"), "w", encoding="utf-8") as fh:
        fh.write(CONFIG.format(tests=os.path.join(ROOT, "tests")))
    index = BookIndex.from_book(ROOT, {"repository_url": repository_url()})
    rubrics = rubric_points()
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb"))):
        aid = assignment_id(path)
        if chapters and aid not in chapters:
            continue
        nb, summary = assignment_notebook(path, index, rubrics)
        target = os.path.join(course, "source", aid)
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        nbformat.write(nb, os.path.join(target, os.path.basename(path)))
        out[aid] = summary
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course", nargs="?",
                        default=os.path.join(ROOT, "_build", "grading"))
    parser.add_argument("--chapters", nargs="*", default=None,
                        help="assignment ids to write (ch01 ...); default: all")
    args = parser.parse_args(argv)
    written = write_course(args.course, args.chapters)
    for aid, rows in written.items():
        auto = sum(r["auto"] for r in rows)
        manual = sum(r["manual"] for r in rows)
        variants = [r["label"] for r in rows if r["variant"]]
        print(f"{aid}: {len(rows)} exercises, {auto} points autograded, "
              f"{manual:g} marked by hand; variants: {', '.join(variants) or 'none'}")
    print(f"nbgrader sources written to {os.path.abspath(args.course)}/source/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
