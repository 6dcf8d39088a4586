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
from nbclient import NotebookClient

from aukbook.checks import CHECKS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
PAGES = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.md")))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from myst_markdown import BookIndex, convert  # noqa: E402

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
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("edition") / "student"
    before = digest(CHAPTERS + PAGES)
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_student.py"), str(out)],
                   check=True, capture_output=True)
    assert digest(CHAPTERS + PAGES) == before, "make_student modified the instructor files"
    return out


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
        assert "solution" not in cell.get("metadata", {}).get("tags", [])
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
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
    labels = re.findall(r":label: (ch\d+-ex-[a-z0-9-]+)", original)
    assert [index.numbers[label] for label in labels] == headings
    for label in labels:
        if label in CHECKS:
            assert f"describe('{label}')" in text


def test_every_self_check_has_its_exercise():
    labels = set()
    for path in CHAPTERS:
        labels |= set(re.findall(r":label: (ch\d+-ex-[a-z0-9-]+)", open(path).read()))
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
    assert f"auklib @ git+{url}" in readme and f"aukbook @ git+{url}#subdirectory=bookkit" in readme
    assert (student / "requirements.txt").is_file()
    with zipfile.ZipFile(os.path.join(ROOT, "_build", "student-notebooks.zip")) as zf:
        names = zf.namelist()
    for path in CHAPTERS:
        assert f"student/chapters/{os.path.basename(path)}" in names


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


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_student_notebooks_run(student, path):
    nb = nbformat.read(student / "chapters" / os.path.basename(path), as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(student / "chapters")}}).execute()
