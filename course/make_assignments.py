"""Write the nbgrader course: one assignment per chapter, from the chapters themselves.

    python course/make_assignments.py [COURSE] [--chapters ch01 ch04 ...]

COURSE (default _build/grading) becomes an nbgrader course directory:
``nbgrader_config.py`` and ``source/<chNN>/<chapter>.ipynb``, the instructor's
version of each assignment, with ``source/<chNN>/data/``, the stored tables of
``chapters/data/`` that the chapter reads (found in its code, not listed by
hand), so that the released notebook runs on its own.  ``nbgrader generate_assignment`` turns a source
into the students' release (``release/<chNN>/``), without solutions and hidden
tests.  Each source notebook is the student notebook of ``make student``
(course/make_student.py: no solutions, no verification cells, plain Markdown)
with, added:

* a first code cell ``STUDENT_ID = "..."`` for the student to fill in;
* after each exercise that has a numerical answer (a self-check), an answer
  cell (nbgrader "autograded answer": the student sets ``answer_<name>``),
  a visible test of the answer's form (1 point) and a hidden test of its
  value (2 points).  The hidden test only records the answer
  (``aukgrade.record``, course/grading/inside/): the notebook is graded in a
  sandbox that cannot see the reference answers, and course/grading/judge.py
  compares the records with them in the grader's process (course/grading/);
* for the exercises with per-student variants (aukbook.variants), a read-only
  cell that prints the student's own numbers; the grader compares with the
  reference computed for the variant of the student being graded (the id the
  submission was collected under).  With ``--roster FILE``
  (``make release ROSTER=FILE``) the course key of that roster
  (``aukbook.variants.roster_key``) is written into these cells, so that no
  two students of the roster share the numbers of an exercise whose design
  separates them; the key is also written to ``COURSE/course_key.txt`` (the
  last release's, for ``course/make_rubric_sheets.py --key``) and
  ``COURSE/course_keys/<chNN>.txt`` (each assignment's, which the grader,
  course/grading/judge.py, reads).  Without a roster the numbers come from the id alone, and students
  of one class share an exercise's numbers now and then;
* after each exercise that asks for a derivation or an interpretation
  (course/course_metrics.py, KIND), a Markdown answer cell graded by hand,
  worth the points of its rubric in chapters/rubrics.md.

The sources hold answers (in their solution regions): they stay in _build/
(not committed, not in either student edition).
"""

import argparse
import ast
import fnmatch
import glob
import os
import re
import shutil
import sys

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course"))
sys.path.insert(1, os.path.join(ROOT, "builders"))     # book_html, for myst_markdown
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
# A hidden test records the answer for the grader, which marks it outside the
# notebook (course/grading/): nothing in the notebook compares or knows a
# reference, and a warning or a student's patch there cannot change a mark.
RECORD = "from aukgrade import record\nrecord({label!r}, {name!r})"

CONFIG = '''\
# nbgrader configuration of the book's course (written by course/make_assignments.py).
#
# nbgrader releases, collects, keeps the gradebook, serves the formgrader and
# writes feedback; the grader's own parts (course/grading/) run each
# submission in a sandbox that cannot see the repository, mark the recorded
# answers in this process against the reference answers (tests/answers/, on
# this process's path only), attribute LMS downloads to the roster and write
# the LMS grade table.
import os
import sys

c = get_config()  # noqa: F821
_root = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.root = _root
c.CourseDirectory.course_id = "aukbook"
for _path in ({tests!r}, {course!r}):
    if _path not in sys.path:
        sys.path.insert(0, _path)
os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")
os.environ.setdefault("PYTHONHASHSEED", "0")
os.environ.setdefault("OMP_NUM_THREADS", "1")

_nbg = "nbgrader.preprocessors."
_our = "grading.nbgrader_plugins."
c.Autograde.sanitize_preprocessors = [
    _nbg + "ClearOutput", _nbg + "DeduplicateIds", _nbg + "OverwriteKernelspec",
    _our + "ReportedOverwriteCells", _nbg + "CheckCellMetadata"]
c.Autograde.autograde_preprocessors = [
    _our + "SandboxedExecute", "grading.sanitize.SanitizeSubmission", _nbg + "IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor", _nbg + "LimitOutput",
    _nbg + "SaveAutoGrades", _nbg + "AssignLatePenalties", _nbg + "CheckCellMetadata"]
# a deleted graded cell is put back (and reported as tampering)
c.OverwriteCells.add_missing_cells = True
c.ReportedOverwriteCells.release_dir = os.path.join(_root, "release")
c.SandboxedExecute.report_dir = os.path.join(_root, "reports")
# the course keys of `make release ROSTER=` (per-student variants), one per
# assignment (course_keys/<assignment>.txt), read by the grader's process
c.SandboxedExecute.course_key_dir = os.path.join(_root, "course_keys")
# sandbox limits (course/grading/sandbox.py, Limits), e.g. {{"cell_cpu": 60}}
c.SandboxedExecute.limits = {{}}

# zip_collect: LMS downloads (Moodle, Canvas, Blackboard) or folders named by
# student id, attributed through roster.csv (course/grading/lms.py)
c.ZipCollectApp.extractor_plugin = _our + "SafeExtractor"
c.ZipCollectApp.collector_plugin = _our + "LmsCollector"
c.LmsCollector.roster = os.path.join(_root, "roster.csv")

# export: the LMS grade table
c.ExportApp.plugin_class = _our + "LmsGradesExporter"
c.LmsGradesExporter.roster = os.path.join(_root, "roster.csv")
c.LmsGradesExporter.report_dir = os.path.join(_root, "reports")

# everything a student wrote is data (course/grading/sanitize.py): the notebooks
# under submitted/ and autograded/ are stored inert (SanitizeSubmission above;
# grade.py after zip_collect), and every page nbgrader renders from them, the
# formgrader's view of a submission and the feedback, sanitizes again as it
# renders: nbconvert's Markdown and HTML filters are replaced by nh3-cleaning
# ones (nbgrader's formgrade template renders Markdown without nbconvert's
# clean_html, so sanitize_html alone does not reach it), and the notebook is
# made inert before the template sees it
c.HTMLExporter.sanitize_html = True
c.HTMLExporter.filters = {{"markdown2html": "grading.sanitize.markdown2html",
                          "clean_html": "grading.sanitize.clean_html"}}
c.HTMLExporter.preprocessors = ["grading.sanitize.SanitizeSubmission"]
# feedback pages carry a Content-Security-Policy that runs no script and loads
# nothing (default-src 'none'; img-src data:; style-src 'unsafe-inline'), and no
# MathJax from a CDN (math is shown as TeX)
c.GenerateFeedback.exporter_class = "grading.sanitize.FeedbackHTMLExporter"
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


def answer_cells(label, number, key=None):
    """The cells that grade the numerical answer of exercise ``label``
    (``key``: the course key of the roster, or None)."""
    with_key = f", key={key!r}" if key else ""
    spec = CHECKS[label]
    name = answer_name(label)
    cells = []
    if label in VARIANT_LABELS:
        var = "V_" + name[len("answer_"):].upper()
        cells.append(nbformat.v4.new_markdown_cell(
            f"**Your variant of exercise {number}.** In this assignment the exercise "
            "uses numbers of your own instead of the book's: run the next cell "
            "(it reads your `STUDENT_ID`) and use the numbers it prints. The "
            "self-check `check(...)` knows only the book's numbers, so it cannot "
            "check your variant.", metadata=meta(f"{label}-variant-text", locked=True)))
        cells.append(nbformat.v4.new_code_cell(
            "from aukbook.variants import describe_variant, variant\n\n"
            f"print(describe_variant({label!r}, STUDENT_ID{with_key}))\n"
            f"{var} = variant({label!r}, STUDENT_ID{with_key})  # the same numbers, by name",
            metadata=meta(f"{label}-variant", locked=True)))
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
        hidden = RECORD.format(label=label, name=name)
    else:
        n = len(spec["digests"])
        what = f"Set `{name}` to {spec['form']}."
        solution = (f"from answers.grading import expected\n"
                    f"{name} = expected({label!r}, STUDENT_ID{with_key})")
        shape = "a number" if n == 1 else f"{n} numbers"
        form_test = (
            f"_value = np.asarray({name}, dtype=float)\n"
            f"assert _value.size == {n}, \"{name} should be {shape}\"\n"
            "assert np.all(np.isfinite(_value)), \"every number should be finite\"")
        hidden = RECORD.format(label=label, name=name)
    cells.append(nbformat.v4.new_markdown_cell(
        f"**Answer to exercise {number}** ({FORM_POINTS + VALUE_POINTS} points, "
        f"graded automatically). {what}",
        metadata=meta(f"{label}-answer-text", locked=True)))
    cells.append(nbformat.v4.new_code_cell(
        f"# Exercise {number}: compute {name} here (or in cells above this one).\n"
        f"### BEGIN SOLUTION\n{solution}\n### END SOLUTION",
        metadata=meta(f"{label}-answer", solution=True)))
    cells.append(nbformat.v4.new_code_cell(
        f"# Test: the form of {name} ({FORM_POINTS} point). Its value is tested when "
        f"your notebook is graded ({VALUE_POINTS} points).\n"
        f"import numpy as np\n\n{form_test}",
        metadata=meta(f"{label}-form", grade=True, locked=True, points=FORM_POINTS)))
    cells.append(nbformat.v4.new_code_cell(
        f"# Hidden test: the value of {name} ({VALUE_POINTS} points), marked by the "
        "grader.\n"
        f"### BEGIN HIDDEN TESTS\n{hidden}\n### END HIDDEN TESTS",
        metadata=meta(f"{label}-value", grade=True, locked=True, points=VALUE_POINTS)))
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


def assignment_notebook(path, index, rubrics, key=None):
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
                cells += answer_cells(label, number, key)
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


def _patterns_of(cells):
    """File names in ``code``: string literals ending in .json (or .py: a
    chapter may load a simulation script of chapters/data/ to check the
    constants its stored table was made with), f-strings
    ending in .json (``f"sim_{name}.json"`` inside ``def load_sim(name)`` becomes
    the name of each constant ``load_sim("auk")`` call, or ``sim_*.json`` if
    there is none), and the tables of ``stored_rows("name", ...)``."""
    trees = []
    for code in cells:              # each cell on its own: one may not parse
        code = "\n".join(line for line in code.splitlines()
                         if not line.lstrip().startswith(("%", "!")))
        try:
            trees.append(ast.parse(code))
        except SyntaxError:
            pass
    tree = ast.Module(body=[n for t in trees for n in t.body], type_ignores=[])
    calls = {}          # function name -> [constant positional arguments]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            calls.setdefault(name, []).append(
                [a.value if isinstance(a, ast.Constant) else None for a in node.args])
    out = set()
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)
             for v in node.values}        # the pieces of an f-string are not names
    templates = {}      # id(JoinedStr) -> the function whose parameters it uses
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            params = [a.arg for a in fn.args.args]
            for node in ast.walk(fn):
                if isinstance(node, ast.JoinedStr):
                    templates[id(node)] = (fn.name, params)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.endswith((".json", ".py")) and id(node) not in parts:
            out.add(os.path.basename(node.value))
        elif isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "*"
                           for v in node.values)
            if not text.endswith(".json"):
                continue
            fn, params = templates.get(id(node), (None, []))
            names = [getattr(v.value, "id", None) for v in node.values
                     if isinstance(v, ast.FormattedValue)]
            filled = []
            if fn and names and all(n in params for n in names):
                for args in calls.get(fn, []):
                    try:
                        values = {n: args[params.index(n)] for n in names}
                    except IndexError:
                        filled = []
                        break
                    if any(not isinstance(v, str) for v in values.values()):
                        filled = []
                        break
                    filled.append("".join(
                        v.value if isinstance(v, ast.Constant) else values[v.value.id]
                        for v in node.values))
            out |= {os.path.basename(f) for f in filled} or {os.path.basename(text)}
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(
                node.func, "attr", None)) == "stored_rows" and node.args and \
                isinstance(node.args[0], ast.Constant):
            out.add(f"{node.args[0].value}.json")
    return out


def data_files(path):
    """The stored tables of chapters/data/ that the chapter ``path`` reads."""
    nb = nbformat.read(path, as_version=4)
    patterns = _patterns_of([c.source for c in nb.cells if c.cell_type == "code"])
    folder = os.path.join(os.path.dirname(path), "data")
    tables = sorted(os.path.basename(p) for ext in ("*.json", "*.py")
                    for p in glob.glob(os.path.join(folder, ext)))
    return sorted({t for t in tables for pat in patterns if fnmatch.fnmatchcase(t, pat)})


def assignment_id(path):
    return os.path.basename(path)[:4]          # ch01_accuracy_kappa.ipynb -> ch01


DATA = {}      # assignment id -> the data files written beside it


def write_course(course, chapters=None, key=None):
    course = os.path.abspath(course)
    os.makedirs(course, exist_ok=True)
    with open(os.path.join(course, "course_key.txt"), "w", encoding="utf-8") as fh:
        fh.write((key or "none") + "\n")
    with open(os.path.join(course, "nbgrader_config.py"), "w", encoding="utf-8") as fh:
        fh.write(CONFIG.format(tests=os.path.join(ROOT, "tests"),
                               course=os.path.join(ROOT, "course")))
    index = BookIndex.from_book(ROOT, {"repository_url": repository_url()})
    rubrics = rubric_points()
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb"))):
        aid = assignment_id(path)
        if chapters and aid not in chapters:
            continue
        nb, summary = assignment_notebook(path, index, rubrics, key)
        # the key this assignment was released with, for the grader: a later
        # release of another chapter (another roster, or none) leaves it alone
        os.makedirs(os.path.join(course, "course_keys"), exist_ok=True)
        with open(os.path.join(course, "course_keys", f"{aid}.txt"), "w",
                  encoding="utf-8") as fh:
            fh.write((key or "none") + "\n")
        target = os.path.join(course, "source", aid)
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        nbformat.write(nb, os.path.join(target, os.path.basename(path)))
        tables = data_files(path)
        if tables:
            os.makedirs(os.path.join(target, "data"))
            for name in tables:
                shutil.copyfile(os.path.join(ROOT, "chapters", "data", name),
                                os.path.join(target, "data", name))
        out[aid] = summary
        DATA[aid] = tables
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course", nargs="?",
                        default=os.path.join(ROOT, "_build", "grading"))
    parser.add_argument("--chapters", nargs="*", default=None,
                        help="assignment ids to write (ch01 ...); default: all")
    parser.add_argument("--roster", default=None,
                        help="the class roster (one id a line, or a CSV with a "
                             "student_id column): its course key goes into the "
                             "variants and hidden tests")
    args = parser.parse_args(argv)
    key = None
    if args.roster:
        from make_rubric_sheets import read_roster
        from aukbook.variants import roster_key
        key = roster_key(read_roster(args.roster))
        print(f"course key of {args.roster}: {key}")
    written = write_course(args.course, args.chapters, key)
    for aid, rows in written.items():
        auto = sum(r["auto"] for r in rows)
        manual = sum(r["manual"] for r in rows)
        variants = [r["label"] for r in rows if r["variant"]]
        print(f"{aid}: {len(rows)} exercises, {auto} points autograded, "
              f"{manual:g} marked by hand; variants: {', '.join(variants) or 'none'}; "
              f"data: {', '.join(DATA.get(aid, [])) or 'none'}")
    print(f"nbgrader sources written to {os.path.abspath(args.course)}/source/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
