"""The HTML student edition: built from the chapters with every solution removed.

Builds it once (course/make_student.py --html, about 15 s; copied to
$AUKBOOK_STUDENT_HTML when set, as `make test` does, so that
checks/check_html.py can then audit it) and looks through
every file it wrote (pages, search index, downloadable sources) for the text
and code of the instructor notebooks' solutions.
"""

import glob
import html
import json
import os
import re
import sys
import zipfile

import pytest

from conftest import student_edition

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
TEXT_FILES = (".html", ".js", ".ipynb", ".md", ".txt", ".json")


def normalise(text):
    """Visible text of HTML (or any text): tags dropped, entities decoded, spaces collapsed."""
    text = re.sub(r"<[^>]+>", "", text)
    text = html.unescape(text)
    text = text.replace("\\n", " ").replace('\\"', '"')   # JSON-escaped sources
    return " ".join(text.split())


def solution_snippets(path):
    """Distinctive lines of the solutions in one instructor notebook: (code, prose)."""
    nb = json.load(open(path))
    inside, code, prose = False, [], []
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            parts = re.split(r"```\{solution-(start|end)\}[^\n]*\n(?:[^\n]*\n)*?```", src)
            # parts alternates text, marker, text, ...
            segment_inside = inside
            for j, part in enumerate(parts):
                if j % 2 == 1:
                    segment_inside = part == "start"
                    continue
                if segment_inside:
                    for line in part.splitlines():
                        if (len(line) >= 40 and not re.search(r"[`$*{}\[\]|<>:\\_]", line)):
                            prose.append(line.strip())
            inside = segment_inside
        elif inside:
            for line in src.splitlines():
                line = line.strip()
                if len(line) >= 30 and not line.startswith(("#", "import", "from")):
                    code.append(line)
    return code, prose


def outside_solutions():
    """Every line of the chapters outside their solutions (a solution line that is also
    one of these, e.g. `rng = np.random.default_rng(1)`, proves nothing)."""
    import nbformat
    from make_student import without_solutions

    lines, text = set(), []
    for path in CHAPTERS:
        nb = without_solutions(nbformat.read(path, as_version=4), keep_outputs=True)
        for cell in nb.cells:
            lines |= {" ".join(line.split()) for line in cell.source.splitlines()}
            text.append(normalise(cell.source))
    # a solution line quoted inside an exercise's statement is no leak either
    return lines, " ".join(text)


def distinctive_solution_snippets_of(snippets, common):
    lines, text = common
    return [s for s in snippets
            if " ".join(s.split()) not in lines and " ".join(s.split()) not in text]


def distinctive_solution_snippets(path, common):
    code, prose = solution_snippets(path)
    return distinctive_solution_snippets_of(code + prose, common)


@pytest.fixture(scope="module")
def common_lines():
    return outside_solutions()


@pytest.fixture(scope="module")
def edition():
    html_dir = student_edition().html    # built once per run (tests/conftest.py)
    files = {}
    for path in glob.glob(str(html_dir / "**" / "*"), recursive=True):
        if path.endswith(TEXT_FILES) and os.path.isfile(path):
            files[os.path.relpath(path, html_dir)] = normalise(open(path, encoding="utf-8").read())
    return html_dir, files


def test_snippets_were_found(common_lines):
    code = prose = 0
    for path in CHAPTERS:
        c, p = solution_snippets(path)
        code += len(distinctive_solution_snippets_of(c, common_lines))
        prose += len(distinctive_solution_snippets_of(p, common_lines))
    assert code >= 20 and prose >= 20, (code, prose)


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_no_solution_text_or_code_anywhere(edition, path, common_lines):
    _html_dir, files = edition
    for snippet in distinctive_solution_snippets(path, common_lines):
        needle = " ".join(snippet.split())
        where = [name for name, text in files.items() if needle in text]
        assert not where, f"solution of {os.path.basename(path)} found in {where}: {snippet!r}"


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_the_rest_of_the_chapter_is_there(edition, path):
    """Guards the test above: code outside the solutions does appear, found the same way."""
    _html_dir, files = edition
    nb = json.load(open(path))
    page = files.get(os.path.join("chapters", os.path.basename(path).replace(".ipynb", ".html")), "")
    tagged_away = ("remove-input", "remove-cell", "solution")
    shown = [line.strip() for cell in nb["cells"] if cell["cell_type"] == "code"
             and not set(tagged_away) & set(cell.get("metadata", {}).get("tags", []))
             for line in "".join(cell["source"]).splitlines() if len(line.strip()) >= 30]
    inside = set(solution_snippets(path)[0])
    shown = [line for line in shown if line not in inside][:5]
    for line in shown:
        assert " ".join(line.split()) in page, f"{line!r} missing from the student page"


def test_no_solution_markup(edition):
    html_dir, _files = edition
    for page in glob.glob(str(html_dir / "chapters" / "*.html")):
        text = open(page, encoding="utf-8").read()
        assert 'class="solution' not in text and "Solution to" not in text, page


def test_exercises_and_self_checks_shown(edition):
    html_dir, _files = edition
    text = open(html_dir / "chapters" / "ch01_accuracy_kappa.html", encoding="utf-8").read()
    assert text.count('class="exercise admonition"') == 3
    assert "Self-check." in text and "ch1-ex-counts" in text


def test_downloads_are_student_notebooks(edition, tmp_path):
    html_dir, _files = edition
    for path in CHAPTERS:
        source = html_dir / "_sources" / "chapters" / os.path.basename(path)
        student = html_dir.parent / "student" / "chapters" / os.path.basename(path)
        assert source.read_bytes() == student.read_bytes(), f"{source.name} is not the student's"
        nb = json.load(open(source))
        assert not any("remove-cell" in c["metadata"].get("tags", []) and c.get("outputs")
                       for c in nb["cells"] if c["cell_type"] == "code")
        assert "{solution-start}" not in source.read_text()
    with zipfile.ZipFile(html_dir / "student-notebooks.zip") as zf:
        assert "student/README.md" in zf.namelist()
        assert "student/chapters/ch01_accuracy_kappa.ipynb" in zf.namelist()


def test_figures_kept(edition):
    html_dir, _files = edition
    images = glob.glob(str(html_dir / "_images" / "*.png"))
    assert images, "the student edition lost the figures"
    text = open(html_dir / "chapters" / "ch03_roc_to_kappa.html", encoding="utf-8").read()
    assert 'class="plotly-graph-div"' in text
