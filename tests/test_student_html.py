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


# -- nothing in the student edition points to the answers -----------------------------
def repository_url():
    import yaml

    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)["repository"]["url"]


# What only the instructor's book says: where its source (and with it the
# solutions, rubrics and reference answers) lives, and how to build it.
INSTRUCTOR_PHRASES = ("folded; click to open them", "clone the repository", "clone it",
                      "make book", "make student", "make test", "tests/answers",
                      "Using this book in a course", "Rubric for Exercise")


def test_no_file_names_the_repository(edition):
    """No page has a repository button or link (the theme's button is configured
    from `repository: url:`, which the student edition leaves empty), and no page,
    search index or downloadable notebook names the repository."""
    _html_dir, files = edition
    url = repository_url()
    assert url.startswith("https://")
    where = sorted(name for name, text in files.items() if url in text)
    assert not where, f"the repository URL is in {where}"
    assert not [name for name, text in files.items() if "github.com/executablebooks" in text]


def test_no_instructor_phrase_in_any_file(edition):
    _html_dir, files = edition
    for phrase in INSTRUCTOR_PHRASES:
        where = sorted(name for name, text in files.items() if phrase.lower() in text.lower())
        assert not where, f"{phrase!r} in {where}"


def test_instructor_phrases_are_in_the_instructor_sources():
    # guards the test above: the instructor's intro and course page do say them
    with open(os.path.join(ROOT, "chapters", "intro.ipynb"), encoding="utf-8") as fh:
        intro = " ".join(" ".join("".join(c["source"]) for c in json.load(fh)["cells"]).split())
    with open(os.path.join(ROOT, "chapters", "course.md"), encoding="utf-8") as fh:
        course = fh.read()
    assert "folded; click to open them" in intro and "clone the repository" in intro
    assert "make book" in intro and "{{ repository_url }}" in intro + course
    assert "Using this book in a course" in course and "tests/answers" in course


def test_the_intro_says_where_students_get_the_edition(edition):
    html_dir, _files = edition
    page = normalise(open(html_dir / "chapters" / "intro.html", encoding="utf-8").read())
    assert "How to read and run it" in page and "student-notebooks.zip" in page
    assert "solutions are not part of this edition" in page


def test_every_page_links_to_the_notebooks_and_never_to_the_instructor_pdf(edition):
    html_dir, _files = edition
    pages = glob.glob(str(html_dir / "chapters" / "*.html"))
    assert len(pages) >= 15
    for page in pages:
        text = open(page, encoding="utf-8").read()
        links = re.findall(r'<p class="pdf-edition"><a href="([^"]+)"', text)
        assert any(link.endswith("_static/student-notebooks.zip") for link in links), page
        for link in links:
            assert os.path.isfile(os.path.normpath(os.path.join(os.path.dirname(page), link)))
        assert "book.pdf" not in text, f"{page} links to the instructor's PDF"
    assert not (html_dir / "_static" / "book.pdf").exists()


def test_screen_text_not_print_text(edition):
    """{web} phrases reach the HTML, {print} ones do not (builders/print_web.py)."""
    html_dir, files = edition
    page = files[os.path.join("chapters", "ch05_threshold.html")]
    assert "Move the slider" in page and "hover over a line" in page
    assert "in the HTML edition a slider" not in page
    assert not [name for name, text in files.items()
                if name.endswith(".html") and "its code is in the notebook" in text]
