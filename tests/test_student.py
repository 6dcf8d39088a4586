"""The student notebooks keep the exercises, lose every solution and output, and are plain Markdown."""

import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile

import nbformat
import pytest
import yaml

from aukbook.checks import CHECKS
from conftest import student_edition

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
from make_student import instructor_only  # noqa: E402
from myst_markdown import BookIndex, convert  # noqa: E402

# the pages of the student edition (instructor-only pages such as the rubrics are left out)
PAGES = sorted(p for p in glob.glob(os.path.join(ROOT, "chapters", "*.md"))
               if not instructor_only(p))

# MyST that stock Jupyter shows as raw text
MYST_ONLY = {
    "role": re.compile(r"\{[\w:.-]+\}`"),
    "directive": re.compile(r"^\s*(`{3,}|:{3,})\{", re.M),
    "colon fence": re.compile(r"^\s*:{3,}", re.M),
    "target": re.compile(r"^\s*\([^()\s]+\)=\s*$", re.M),
    "option": re.compile(r"^\s*:(label|class|name|alt|width|align):", re.M),
    "substitution": re.compile(r"\{\{"),
    "labelled math": re.compile(r"\$\$\s*\([\w:.-]+\)"),
    "comment": re.compile(r"^%", re.M),
}


def digest(paths):
    return {p: hashlib.sha256(open(p, "rb").read()).hexdigest() for p in paths}


def solution_code(path):
    """Sources of the code cells that sit inside solutions in the instructor notebook."""
    nb = json.load(open(path))
    inside, found = False, []
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for marker in re.findall(r"\{solution-(start|end)\}", src):
                inside = marker == "start"
        elif inside and src.strip():
            found.append(src)
    return found


def markdown_of(path):
    if path.endswith(".md"):
        return [open(path, encoding="utf-8").read()]
    nb = json.load(open(path))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


@pytest.fixture(scope="module")
def student():
    edition = student_edition()          # built once per run (tests/conftest.py)
    assert edition.unchanged, "make_student modified the instructor files"
    return edition.out


@pytest.fixture(scope="module")
def index():
    return BookIndex.from_book(ROOT, {"repository_url": "https://example.org/repo"})


def test_same_notebooks(student):
    names = sorted(os.listdir(student / "chapters"))
    assert [n for n in names if n.endswith(".ipynb")] == [os.path.basename(p) for p in CHAPTERS]
    assert [n for n in names if n.endswith(".md")] == [os.path.basename(p) for p in PAGES]


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_no_solution_survives(student, path):
    text = open(student / "chapters" / os.path.basename(path)).read()
    nb = json.loads(text)
    for directive in ("{solution-start}", "{solution-end}", "{solution}"):
        assert directive not in text
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        assert "solution" not in tags
        if cell["cell_type"] == "code":
            assert cell["execution_count"] is None
            if "remove-cell" in tags:
                assert cell["outputs"] == [], "a verification cell kept its output"
    sources = ["".join(c["source"]) for c in nb["cells"]]
    for code in solution_code(path):
        assert code not in sources, f"solution code left in {path}:\n{code[:200]}"


def test_solution_code_was_found():
    # guards the test above against finding nothing to look for
    assert sum(len(solution_code(p)) for p in CHAPTERS) >= 10


@pytest.mark.parametrize("path", CHAPTERS + PAGES, ids=os.path.basename)
def test_markdown_is_plain(student, path):
    for text in markdown_of(str(student / "chapters" / os.path.basename(path))):
        for what, pattern in MYST_ONLY.items():
            m = pattern.search(text)
            assert m is None, f"{what} left in {os.path.basename(path)}: {text[max(0, m.start() - 60):m.end() + 60]!r}"


def test_myst_was_there_to_convert():
    # guards the test above: the instructor files do use the syntax it looks for
    found = set()
    for path in CHAPTERS + PAGES:
        for text in markdown_of(path):
            found |= {what for what, pattern in MYST_ONLY.items() if pattern.search(text)}
    assert {"role", "directive", "colon fence", "target", "option"} <= found


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_exercises_and_self_checks_remain(student, path, index):
    original = open(path).read()
    nb = json.load(open(student / "chapters" / os.path.basename(path)))
    text = "\n".join("".join(c["source"]) for c in nb["cells"])
    headings = re.findall(r"^### Exercise (\d+\.\d+|\d+)", text, re.M)
    assert len(headings) == original.count("{exercise}")
    labels = re.findall(r":label: (ch\d+u?-ex-[a-z0-9-]+)", original)
    assert [index.numbers[label] for label in labels] == headings
    for label in labels:
        if label in CHECKS:
            assert f"describe('{label}')" in text


def test_every_self_check_has_its_exercise():
    labels = set()
    for path in CHAPTERS:
        labels |= set(re.findall(r":label: (ch\d+u?-ex-[a-z0-9-]+)", open(path).read()))
    assert set(CHECKS) <= labels, f"self-checks without an exercise: {set(CHECKS) - labels}"


def _first_author_and_year(key):
    from pybtex.database import parse_file
    entry = parse_file(os.path.join(ROOT, "references.bib")).entries[key]
    persons = entry.persons.get("author", [])
    last = persons[0].last_names[-1] if persons else entry.fields["title"].split()[0]
    return re.sub(r"[{}\\'\"`]", "", last), entry.fields.get("year", "n.d.")


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_citations_are_author_year(student, path):
    from make_student import without_solutions

    kept = without_solutions(nbformat.read(path, as_version=4))   # MyST, solutions gone
    original = "\n".join(c.source for c in kept.cells if c.cell_type == "markdown")
    text = "\n".join(markdown_of(str(student / "chapters" / os.path.basename(path))))
    for role, keys in re.findall(r"\{(cite:[pt])\}`([^`]+)`", original):
        for key in keys.split(","):
            last, year = _first_author_and_year(key.strip())
            last = last[:-1] if not last[-1].isalpha() else last
            if role == "cite:t":
                pattern = rf"{re.escape(last[:4])}[^()]*\({year}\)"
            else:
                pattern = rf"\([^()]*{re.escape(last[:4])}[^()]*, {year}[^()]*\)"
            assert re.search(pattern, text), f"{{{role}}}`{key}` not rendered as author-year"


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_figure_captions_follow_their_cell(student, path):
    from make_student import without_solutions

    instructor = without_solutions(nbformat.read(path, as_version=4))   # solution figures go
    captions = [c.metadata["mystnb"]["figure"]["caption"] for c in instructor.cells
                if c.cell_type == "code" and c.metadata.get("mystnb", {}).get("figure", {}).get("caption")]
    nb = nbformat.read(student / "chapters" / os.path.basename(path), as_version=4)
    shown = [c.source for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("*Figure ")]
    assert len(shown) == len(captions)


def test_readme_and_zip(student):
    with open(os.path.join(ROOT, "_config.yml")) as fh:
        url = yaml.safe_load(fh)["repository"]["url"]
    readme = (student / "README.md").read_text()
    # everything installs from the zip's own files plus the package registry
    assert url not in readme and "git+" not in readme
    assert "pip install -r requirements.txt" in readme and "wheels/*.whl" in readme
    wheels = sorted(os.listdir(student / "wheels"))
    assert [w.split("-")[0] for w in wheels] == ["aukbook", "auklib"]
    with zipfile.ZipFile(student.parent / "student-notebooks.zip") as zf:
        names = zf.namelist()
    for path in CHAPTERS:
        assert f"student/chapters/{os.path.basename(path)}" in names
    for wheel in wheels:
        assert f"student/wheels/{wheel}" in names


def test_student_requirements_are_the_runtime_only(student):
    pins = [line for line in (student / "requirements.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    book = {line.split("==")[0].lower(): line
            for line in open(os.path.join(ROOT, "requirements.txt")).read().splitlines()
            if "==" in line}
    for pin in pins:                    # the book's own versions, nothing looser
        assert book[pin.split("==")[0].lower()].lower() == pin.lower(), pin
    names = {pin.split("==")[0].lower() for pin in pins}
    assert {"numpy", "scikit-learn", "plotly", "matplotlib", "ipykernel"} <= names
    build_and_test = {"jupyter-book", "sphinx", "nbval", "hypothesis", "coverage", "pytest",
                      "myst-nb", "pydata-sphinx-theme"}
    assert not names & build_and_test, names & build_and_test


def test_readme_states_the_python_the_pins_need(student):
    from packaging.specifiers import SpecifierSet
    import importlib.metadata

    readme = (student / "README.md").read_text()
    stated = re.search(r"Python (3\.\d+) or newer", readme).group(1)
    pins = [line.split("==")[0] for line in (student / "requirements.txt").read_text().splitlines()
            if "==" in line]
    needs = [SpecifierSet(importlib.metadata.metadata(n).get("Requires-Python") or "")
             for n in pins]
    assert all(f"{stated}.0" in spec for spec in needs), "a pin refuses the stated Python"
    before = f"3.{int(stated.split('.')[1]) - 1}.0"
    assert not all(before in spec for spec in needs), "an older Python would do too"


def ANSWER_VALUES():
    """(label, value) of every numerical reference answer with digits worth hiding."""
    import importlib
    from fractions import Fraction

    import numpy as np

    folder = os.path.join(ROOT, "tests", "answers")
    for module in sorted(f[:-3] for f in os.listdir(folder) if f.startswith("ch")):
        answers = importlib.import_module(f"answers.{module}").ANSWERS
        for label, answer in answers.items():
            if answer.kind != "values":
                continue
            for value in np.atleast_1d(np.asarray(answer.reference(), dtype=float)):
                simple = Fraction(float(value)).limit_denominator(20)
                if abs(value) < 10 and abs(value - simple) > 1e-9:  # 1/3 leaks nothing
                    yield label, float(value)


def _readable(name, text):
    """What a student reads of a file: for a notebook, its sources and text outputs
    (a figure's data arrays hold thousands of numbers, any of which may share
    four digits with an answer by chance)."""
    if not name.endswith(".ipynb"):
        return text
    parts = []
    for cell in json.loads(text)["cells"]:
        parts.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
            parts.append("".join(out.get("data", {}).get("text/markdown", "")))
    return "\n".join(parts)


def _zip_text(archive):
    """Every file of the student zip as text, wheels unpacked."""
    import io

    texts = {}
    with zipfile.ZipFile(archive) as zf:
        for name in zf.namelist():
            data = zf.read(name)
            if name.endswith(".whl"):
                with zipfile.ZipFile(io.BytesIO(data)) as wheel:
                    for inner in wheel.namelist():
                        texts[f"{name}!{inner}"] = wheel.read(inner).decode("utf-8", "replace")
            else:
                texts[name] = data.decode("utf-8", "replace")
    return texts


def test_zip_holds_no_solution_answer_or_instructor_page(student):
    texts = _zip_text(student.parent / "student-notebooks.zip")
    assert len(texts) > 20
    instructor_course = open(os.path.join(ROOT, "chapters", "course.md")).read()
    marker = "# Using this book in a course"
    assert marker in instructor_course            # guards the search below
    solutions = [code for path in CHAPTERS for code in solution_code(path)]
    for name, text in texts.items():
        assert "tests/answers" not in text and "answers/" not in text, name
        assert marker not in text, f"{name} holds the instructor's course page"
        for code in solutions:
            assert code not in text, f"{name} holds solution code {code[:80]!r}"
    for label, value in ANSWER_VALUES():
        digits = f"{value:.4f}"
        # the number as printed, not the first digits of a longer one in a figure's data
        standalone = re.compile(rf"(?<![\d.]){re.escape(digits)}(?!\d)")
        leaks = [name for name, text in texts.items()
                 if standalone.search(_readable(name, text))]
        assert not leaks, f"{label}'s answer {digits} is in {leaks}"


# -- the converter on the MyST the chapters may use ---------------------------
def test_convert_directives_and_roles(index):
    src = "\n".join([
        "(sec-x)=",
        "## A section",
        "% a comment",
        ":::{admonition} Notes on the sources",
        ":class: dropdown",
        "The source says {cite:t}`cohen1960`; see {cite:p}`handtill2001,hand2009`.",
        ":::",
        "```{note}",
        "Mind {doc}`ch04_auk` and {doc}`the notation <notation>`.",
        "```",
        "$$ a = b $$ (eq-new)",
        "As {eq}`eq-new` and {ref}`(19) <eq-19>` show, {math}`x^2`.",
        "```python",
        "print('{cite:p}`kept` in code')",
        "```",
        "{numref}`Figure %s <fig-zz>` and {abbr}`AUC (area under the curve)`.",
    ])
    index.numbers.setdefault("eq-new", "9.1")
    index.numbers["fig-zz"] = "4.2"
    out = convert(src, index, "ch03_roc_to_kappa")
    assert "(sec-x)=" not in out and "% a comment" not in out
    assert "> **Notes on the sources**" in out
    assert "> The source says Cohen (1960); see (Hand and Till, 2001; Hand, 2009)." in out
    assert "> **Note**" in out
    assert "[The AUK and its relation to the AUC](ch04_auk.ipynb)" in out
    assert "the notation" in out
    assert r"$$ a = b \tag{9.1} $$" in out
    assert "As (9.1) and (19) show, $x^2$." in out
    assert "print('{cite:p}`kept` in code')" in out           # code is left alone
    assert "Figure 4.2 and AUC (area under the curve)." in out
    assert not MYST_ONLY["role"].search(out.replace("{cite:p}`kept`", ""))


def test_convert_exercise_and_nested_fences(index):
    src = "\n".join([
        "::::{exercise} Nested",
        ":label: ch1-ex-counts",
        "Outer text.",
        ":::{hint}",
        "Inner hint.",
        ":::",
        "::::",
    ])
    out = convert(src, index, "ch01_accuracy_kappa")
    assert "### Exercise 1.1 (Nested)" in out
    assert "> **Hint**" in out and "> Inner hint." in out
    assert "Outer text." in out and ":" not in out.replace("Exercise 1.1", "")


# That every student notebook's cells run is checked by the same run (a fresh
# IPython shell per chapter) that checks each page's visible code
# (tests/test_self_contained.py), which
# also runs the hidden cells and self-checks a student notebook adds;
# `make check-student-install` runs the student notebooks themselves, in a
# fresh environment made from the zip.


def test_wheels_install_and_hold_the_self_checks(student, tmp_path):
    """The zip's wheels are complete packages: installed on their own, aukbook's
    self-checks load and run (the book's environment provides numpy etc.)."""
    target = tmp_path / "site"
    wheels = sorted(str(p) for p in (student / "wheels").glob("*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-index", "--target", str(target)] + wheels, check=True)
    code = ("import auklib, aukbook.checks as c; "
            "assert auklib.__file__.startswith(%r) and c.__file__.startswith(%r); "
            "print(len(c.CHECKS)); print(c.check('ch3-ex-target', 0.2))" % (str(target), str(target)))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(target)), cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert int(run.stdout.split()[0]) == len(CHECKS)
    assert "not yet" in run.stdout


def test_zip_never_names_the_repository(student):
    """The student notebooks (the intro in particular, which tells the
    instructor's readers to clone the repository) point to nothing beyond the zip."""
    with open(os.path.join(ROOT, "_config.yml")) as fh:
        url = yaml.safe_load(fh)["repository"]["url"]
    texts = _zip_text(student.parent / "student-notebooks.zip")
    assert not [name for name, text in texts.items() if url in text]
    intro = "\n".join(markdown_of(str(student / "chapters" / "intro.ipynb")))
    assert "How to read and run it" in intro and "clone" not in intro
    assert "folded; click to open them" not in intro


def test_student_sections_replace_the_instructor_ones():
    from make_student import section_replacements, student_sections

    nb = nbformat.read(os.path.join(ROOT, "chapters", "intro.ipynb"), as_version=4)
    replaced = section_replacements("intro")
    assert replaced, "course/student_edition/intro.sections.md has no section"
    text = "\n".join(c.source for c in student_sections(nb, "intro").cells
                     if c.cell_type == "markdown")
    for heading in replaced:
        assert heading not in text
    assert "## How to read and run it" in text and "## Sources" in text   # the next section stays
    renamed = nbformat.read(os.path.join(ROOT, "chapters", "intro.ipynb"), as_version=4)
    for c in renamed.cells:
        c.source = c.source.replace("## How to read, run and teach with it", "## Renamed")
    with pytest.raises(ValueError, match="no section"):
        student_sections(renamed, "intro")


def test_convert_keeps_the_screen_version(index):
    src = "\n".join([
        "{web}``In {numref}`fig-ch3-explorer` move the slider.``{print}`The figure shows $p = 0.1$.`",
        "```{only} latex",
        "Printed only.",
        "```",
        "```{only} html",
        "On screen only.",
        "```",
    ])
    out = convert(src, index, "ch03_roc_to_kappa")
    assert f"In {index.numref('fig-ch3-explorer')} move the slider." in out
    assert "p = 0.1" not in out and "Printed only." not in out
    assert "On screen only." in out
