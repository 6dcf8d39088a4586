"""The HTML student edition: built from the chapters with every solution removed.

Builds it once (tools/make_student.py --html, about 15 s; copied to
$AUKBOOK_STUDENT_HTML when set, as `make test` does, so that
tools/check_html.py can then audit it) and looks through
every file it wrote (pages, search index, downloadable sources) for the text
and code of the instructor notebooks' solutions.
"""

import fcntl
import glob
import html
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

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
    sys.path.insert(0, os.path.join(ROOT, "tools"))
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
def edition(tmp_path_factory):
    base = tmp_path_factory.mktemp("student-html")
    out, html_dir = base / "student", base / "html"
    # one build at a time: pytest-xdist workers share _build/student-src (and
    # $AUKBOOK_STUDENT_HTML)
    os.makedirs(os.path.join(ROOT, "_build"), exist_ok=True)
    with open(os.path.join(ROOT, "_build", ".student-html.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_student.py"),
                               str(out), "--html", str(html_dir),
                               "--archive", str(base / "student-notebooks.zip")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        keep = os.environ.get("AUKBOOK_STUDENT_HTML")   # `make test`: for check_html.py
        if keep:
            keep = os.path.join(ROOT, keep)
            shutil.rmtree(keep, ignore_errors=True)
            shutil.copytree(html_dir, keep)
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
