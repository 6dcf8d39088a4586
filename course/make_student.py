"""Write the student edition: the chapters without solutions, for Jupyter and for the browser.

    python course/make_student.py [OUTDIR] [--html HTMLDIR]

OUTDIR (default student/) receives the notebooks for stock Jupyter:

* the solutions are removed: the text and cells from each ``{solution-start}``
  fence to the matching ``{solution-end}`` fence, ``{solution}`` blocks and
  cells tagged ``solution``;
* every output and execution count is cleared;
* the Markdown is plain Markdown: MyST-only syntax, which stock Jupyter shows
  as raw text, is converted (course/myst_markdown.py): exercise boxes become
  headed blocks, citations author-year text from references.bib, cross
  references text or links, admonitions block quotes, ``(label)=`` targets
  go; a figure's caption follows its code cell as text;
* after each exercise that has a self-check, a code cell shows how to call it;
* chapters/*.md pages are converted the same way; README.md says how to run
  the notebooks; _build/student-notebooks.zip holds it all.

With --html, the browsable student edition is built into HTMLDIR (e.g.
_build/student-html) from the same sources as the instructor's book, with
the solutions removed BEFORE Sphinx sees them (so no solution reaches a page,
the search index or a downloadable source) and the stored outputs kept (so
the figures stay).  Its download buttons offer the student notebooks.
The instructor notebooks in chapters/ are never modified.
"""

import argparse
import ast
import fcntl
import glob
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import zipfile

import nbformat
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course"))
from myst_markdown import BookIndex, convert  # noqa: E402

from aukbook.checks import CHECKS, describe  # noqa: E402

START = re.compile(r"```\{solution-start\}[^\n]*\n(?:[^\n]*\n)*?```[ \t]*(\n|$)")
END = re.compile(r"```\{solution-end\}[^\n]*\n```[ \t]*(\n|$)")
BLOCK = re.compile(r"(:{3,}|`{3,})\{solution\}.*?\n\1[ \t]*(\n|$)", re.S)
LABEL = re.compile(r"(?:`{3,}|:{3,})\{exercise\}[^\n]*\n(?:[ \t]*:[^\n]*\n)*?[ \t]*:label:\s*(\S+)")


def strip_markdown(text, in_solution):
    """Remove solution text from one markdown cell; return (text, in_solution)."""
    kept = []
    while text:
        if in_solution:
            m = END.search(text)
            if not m:
                return "".join(kept), True
            text, in_solution = text[m.end():], False
        else:
            m = START.search(text)
            if not m:
                kept.append(text)
                break
            kept.append(text[:m.start()])
            text, in_solution = text[m.end():], True
    return BLOCK.sub("", "".join(kept)), in_solution


def self_check_cell(label):
    return nbformat.v4.new_code_cell(
        "# Self-check: compute your answer, then uncomment the last line and run it.\n"
        "from aukbook.checks import check, describe\n"
        f"print(describe({label!r}))\n"
        f"# check({label!r}, your_answer)"
    )


def self_check_note(label):
    """The HTML edition cannot run code: say how to check, in words."""
    what = describe(label)
    if what.startswith(label + ": "):
        what = what[len(label) + 2:]
    return nbformat.v4.new_markdown_cell(
        f"**Self-check.** In the notebook, `check({label!r}, your_answer)` tells you "
        f"whether your answer is right, without revealing it: {what}"
    )


def without_solutions(nb, keep_outputs=False, check_cell=self_check_cell):
    """The notebook with every solution removed and a self-check after each checked exercise."""
    cells, in_solution = [], False
    for cell in nb.cells:
        if "solution" in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "markdown":
            text, in_solution = strip_markdown(cell.source, in_solution)
            if text.strip():
                cell.source = text.rstrip() + "\n"
                cells.append(cell)
                for label in LABEL.findall(text):
                    if label in CHECKS:
                        cells.append(check_cell(label))
        elif not in_solution:
            if cell.cell_type == "code" and not keep_outputs:
                cell.outputs = []
                cell.execution_count = None
            cells.append(cell)
    if in_solution:
        raise ValueError("a {solution-start} has no matching {solution-end}")
    nb.cells = cells
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"s{i:03d}"
    return nb


def plain_markdown_notebook(nb, index, doc):
    """Convert every Markdown cell to plain Markdown; captions follow their figure's cell."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = convert(cell.source, index, doc).strip("\n").rstrip() + "\n"
            if cell.source.strip():
                cells.append(cell)
            continue
        cells.append(cell)
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        if figure.get("caption"):
            number = index.numbers.get(figure.get("name", ""), "")
            caption = convert(figure["caption"], index, doc).strip()
            cells.append(nbformat.v4.new_markdown_cell(
                f"*Figure {number}: {caption}*" if number else f"*{caption}*"))
    nb.cells = cells
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"s{i:03d}"
    return nb


HIDDEN = ("remove-cell", "remove-input")


def _parse(src):
    """The cell's Python (magics blanked, so line numbers stay); None if it is not Python."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line for line in src.splitlines()]
    try:
        return ast.parse("\n".join(lines)), lines
    except SyntaxError:
        return None, lines


def _defined(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _loaded(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _without_asserts(tree, lines):
    """The source with its top-level ``assert`` statements removed ('' if nothing is left)."""
    drop = set()
    for node in tree.body:
        if isinstance(node, ast.Assert):
            drop |= set(range(node.lineno - 1, node.end_lineno))
    kept = [line for i, line in enumerate(lines) if i not in drop]
    rest = [n for n in tree.body if not isinstance(n, ast.Assert)]
    return "\n".join(kept).strip("\n") + "\n" if rest else ""


def without_verification(nb):
    """Drop the book's verification cells from a student notebook.

    The chapters check every number they state in cells tagged ``remove-cell``
    (the reader never sees them).  A student notebook drops those cells, except
    the few that define a name a later kept cell uses; from those and from the
    ``remove-input`` cells (hidden code whose output the page shows) the
    ``assert`` statements go, and their code is shown collapsed.  The outputs
    of the other cells stay, as the HTML book shows them.
    """
    needed, cells = set(), []
    for cell in reversed(nb.cells):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell.cell_type != "code" or not tags & set(HIDDEN):
            if cell.cell_type == "code":
                tree, _ = _parse(cell.source)
                needed |= _loaded(tree) if tree is not None else set()
            cells.append(cell)
            continue
        tree, lines = _parse(cell.source)
        if tree is None:                      # not plain Python: keep it as it is
            cells.append(cell)
            continue
        if "remove-cell" in tags and not _defined(tree) & needed:
            continue
        source = _without_asserts(tree, lines)
        if not source.strip():
            continue
        cell.source = source
        needed |= _loaded(ast.parse(source))
        if "remove-cell" in tags:
            cell.outputs = []
        cell.metadata.setdefault("jupyter", {})["source_hidden"] = True
        cells.append(cell)
    nb.cells = cells[::-1]
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.execution_count = None
            for out in cell.get("outputs", []):
                if "execution_count" in out:
                    out["execution_count"] = None
    return nb


# What the student notebooks import; the student requirements file pins these
# and everything they need, at the versions of the book's own requirements.txt.
RUNTIME = ("numpy", "scipy", "scikit-learn", "pandas", "matplotlib", "plotly", "sympy",
           "imbalanced-learn", "hmeasure", "threadpoolctl", "ipykernel",
           "Jinja2",                 # pandas needs it for the styled tables
           "distributed")            # chapter 12 (auklib.dask; brings dask)


def runtime_requirements():
    """(pins, python): the runtime closure of RUNTIME as installed here, and the
    lowest Python every pinned version accepts."""
    found, stack = {}, list(RUNTIME)
    while stack:
        name = stack.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in found:
            continue
        dist = importlib.metadata.distribution(name)
        found[key] = dist
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                stack.append(req.name)
    lowest = (3, 0)
    for dist in found.values():
        spec = SpecifierSet(dist.metadata.get("Requires-Python") or "")
        for minor in range(0, 20):
            if (3, minor) >= lowest and f"3.{minor}.0" in spec:
                lowest = (3, minor)
                break
    pins = sorted(f"{d.metadata['Name']}=={d.version}" for d in found.values())
    return pins, lowest


STUDENT_PAGES = os.path.join(ROOT, "course", "student_edition")
# Pages for instructors only: left out of both student editions (and their _toc).
INSTRUCTOR_ONLY = ("rubrics",)


def instructor_only(path):
    return os.path.splitext(os.path.basename(path))[0] in INSTRUCTOR_ONLY


def student_toc(toc):
    """The book's _toc without the instructor-only pages."""
    def keep(entry):
        if not isinstance(entry, dict):
            return True
        name = os.path.basename(str(entry.get("file", "")))
        return name not in INSTRUCTOR_ONLY

    def walk(node):
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(e) for e in node if keep(e)]
        return node

    return walk(toc)


SECTIONS = re.compile(r"^<!--\s*replaces:\s*(?P<heading>#+ .*?)\s*-->[ \t]*\n", re.M)


def section_replacements(doc):
    """{heading line: student text} from course/student_edition/<doc>.sections.md."""
    path = os.path.join(STUDENT_PAGES, doc + ".sections.md")
    if not os.path.isfile(path):
        return {}
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    marks = list(SECTIONS.finditer(text))
    return {m.group("heading"): text[m.end():marks[i + 1].start() if i + 1 < len(marks) else None]
            .strip("\n") + "\n" for i, m in enumerate(marks)}


def student_sections(nb, doc):
    """The notebook with the sections course/student_edition/<doc>.sections.md replaces.

    A section is its heading line and the text after it, up to the next
    heading of the same or a higher level in the same cell (or the cell's
    end).  A heading the notebook does not have is an error: the student
    edition must never keep an instructor's section because it was renamed.
    """
    for heading, replacement in section_replacements(doc).items():
        level = len(heading) - len(heading.lstrip("#"))
        for cell in nb.cells:
            if cell.cell_type != "markdown":
                continue
            lines = cell.source.split("\n")
            if heading not in (line.rstrip() for line in lines):
                continue
            start = [line.rstrip() for line in lines].index(heading)
            end = next((k for k in range(start + 1, len(lines))
                        if re.match(r"#{1,%d} " % level, lines[k])), len(lines))
            rest = "\n".join(lines[end:])
            cell.source = "\n".join(lines[:start]) + "\n" + replacement + (
                "\n" + rest if rest else "")
            break
        else:
            raise ValueError(f"{doc}: no section {heading!r} to replace "
                             f"(course/student_edition/{doc}.sections.md)")
    return nb


def student_page(path):
    """The student edition's version of a page: course/student_edition/<name> if there is one.

    chapters/course.md is written for instructors (it says where the answers
    are); the student edition has its own course page instead.
    """
    own = os.path.join(STUDENT_PAGES, os.path.basename(path))
    return own if os.path.isfile(own) else path


def student_index(index):
    """The book's index with the student versions of pages: a link to the course
    page reads "Working through this book", not the instructor page's title."""
    for path in sorted(glob.glob(os.path.join(STUDENT_PAGES, "*.md"))):
        name = os.path.basename(path)
        doc = os.path.splitext(name)[0]
        if os.path.isfile(os.path.join(ROOT, "chapters", name)):
            index.titles.pop(doc, None)
            index._scan(doc, name, path, None)
    return index


def build_wheels(outdir):
    """Wheels of auklib and aukbook (neither holds an answer) into outdir/wheels.

    Each is built from a copy of its sources, so that two builds at once (the
    test suite's workers) never share setuptools' scratch folders.
    """
    wheels = os.path.join(outdir, "wheels")
    os.makedirs(wheels, exist_ok=True)
    import tempfile

    for source, package in ((ROOT, "auklib"), (os.path.join(ROOT, "bookkit"), "aukbook")):
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, package + "-src")
            os.makedirs(copy)
            for name in ("pyproject.toml", "README.md", "LICENSE"):
                if os.path.isfile(os.path.join(source, name)):
                    shutil.copy(os.path.join(source, name), copy)
            shutil.copytree(os.path.join(source, package), os.path.join(copy, package),
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                            "--no-build-isolation", "--wheel-dir", wheels, copy],
                           check=True, capture_output=True)
    for name in os.listdir(wheels):
        without_links(os.path.join(wheels, name))
    return sorted(os.listdir(wheels))


def without_links(wheel):
    """Drop the package's links and long description from a wheel's METADATA.

    The description is the repository's README and the links lead to the
    repository, which holds the answers: the student edition names it nowhere
    (`pip show` would).  RECORD gets the new file's hash and size.
    """
    import base64
    import hashlib

    with zipfile.ZipFile(wheel) as zf:
        files = {info.filename: zf.read(info.filename) for info in zf.infolist()}
    meta = next(n for n in files if n.endswith(".dist-info/METADATA"))
    head = files[meta].decode("utf-8").split("\n\n", 1)[0]
    drop = ("Home-page:", "Project-URL:", "Download-URL:", "Description-Content-Type:")
    files[meta] = ("\n".join(line for line in head.splitlines()
                             if not line.startswith(drop)) + "\n").encode("utf-8")
    digest = base64.urlsafe_b64encode(hashlib.sha256(files[meta]).digest()).rstrip(b"=")
    record = next(n for n in files if n.endswith(".dist-info/RECORD"))
    files[record] = "".join(
        f"{meta},sha256={digest.decode()},{len(files[meta])}\n" if line.startswith(meta + ",")
        else line + "\n" for line in files[record].decode("utf-8").splitlines()).encode("utf-8")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)


README = """\
# Kappa, AUC and the AUK: student edition

The chapter notebooks without their solutions, in plain Markdown that any
Jupyter shows as it is meant to look, with the outputs the book shows (run
each notebook to make them your own). Everything needed is in this folder:
the library `auklib` and the book's helpers `aukbook` come as wheels in
`wheels/`, and `requirements.txt` pins what they and the notebooks use.

## Run the notebooks

You need Python {python} or newer (the book is tested with {tested}). In this folder:

```sh
python -m venv .venv
. .venv/bin/activate                 # Windows: .venv\\Scripts\\activate
pip install -r requirements.txt      # numpy, scikit-learn, plotly, ... (exact versions)
pip install --no-deps wheels/*.whl   # auklib and aukbook
pip install jupyterlab               # or any Jupyter you like
jupyter lab chapters/
```

Run each notebook from the top (Run > Run All Cells). Cells whose code is
collapsed draw a figure or a table of the book; you may open and read them.

## Self-checks

Each exercise with a self-check is followed by a cell that shows how to call
`aukbook.checks.check`. It says whether your answer is right and gives a hint
if not, without revealing the answer. An answer within the stated tolerance
(`atol`) of the reference is accepted; one `2 * atol` or more away is rejected.
A self-check is feedback for you: it proves nothing to anyone else, and your
marks come from your instructor's grading, not from it.
"""


def repository_url():
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)["repository"]["url"]


def write_notebook_edition(outdir, index, archive=None):
    out_chapters = os.path.join(outdir, "chapters")
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(out_chapters)
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))):
        doc = os.path.splitext(os.path.basename(path))[0]
        nb = without_solutions(nbformat.read(path, as_version=4), keep_outputs=True)
        nb = student_sections(nb, doc)
        nb = without_verification(nb)
        nb = plain_markdown_notebook(nb, index, doc)
        nbformat.write(nb, os.path.join(out_chapters, os.path.basename(path)))
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*.md"))):
        if instructor_only(path):
            continue
        doc = os.path.splitext(os.path.basename(path))[0]
        with open(student_page(path), encoding="utf-8") as fh:
            text = convert(fh.read(), index, doc)
        with open(os.path.join(out_chapters, os.path.basename(path)), "w", encoding="utf-8") as fh:
            fh.write(text)
    data = os.path.join(ROOT, "chapters", "data")      # what the notebooks read
    if os.path.isdir(data):
        shutil.copytree(data, os.path.join(out_chapters, "data"),
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    pins, python = runtime_requirements()
    with open(os.path.join(outdir, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(README.format(python="%d.%d" % python, tested=sys.version.split()[0]))
    with open(os.path.join(outdir, "requirements.txt"), "w", encoding="utf-8") as fh:
        fh.write("# What the student notebooks need to run, at the versions the book uses.\n")
        fh.write("\n".join(pins) + "\n")
    build_wheels(outdir)
    archive = archive or os.path.join(ROOT, "_build", "student-notebooks.zip")
    os.makedirs(os.path.dirname(archive), exist_ok=True)
    name = "student"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        for root, _dirs, files in os.walk(outdir):
            for f in sorted(files):
                full = os.path.join(root, f)
                zf.write(full, os.path.join(name, os.path.relpath(full, outdir)))
    print(f"student edition written to {outdir}/ ({len(os.listdir(out_chapters))} files) "
          f"and {archive}")
    return archive


def build_html_edition(htmldir, notebooks_dir, archive):
    """Build the book from solution-free copies of the chapters into htmldir.

    The staging folder (and its doctree cache) is shared by every build from
    this checkout, so a lock makes concurrent builds (parallel test workers)
    take turns.
    """
    os.makedirs(os.path.join(ROOT, "_build"), exist_ok=True)
    with open(os.path.join(ROOT, "_build", "student-src.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _build_html_edition(htmldir, notebooks_dir, archive)


# the book's local Sphinx extensions the student edition loads (_config.yml)
HTML_EXTENSIONS = ("book_html.py", "api_links.py", "pdf_link.py", "print_web.py")
STUDENT_PDF = os.path.join(ROOT, "_build", "pdf", "book-student.pdf")


def student_config(downloads=()):
    """The book's _config.yml for the student edition.

    No repository: the instructor's repository holds the solutions, the
    rubrics and the reference answers, so no page of the student edition
    links to it (no repository button, ``{{ repository_url }}`` empty).
    ``downloads`` are the [path, link text] pairs every HTML page links to
    (builders/pdf_link.py): the student PDF and the notebooks' zip.
    """
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        config = yaml.safe_load(fh)
    config["title"] += " (student edition)"
    html = config.setdefault("html", {})
    html["announcement"] = "Student edition: the exercises without their solutions."
    for button in ("use_repository_button", "use_edit_page_button", "use_issues_button"):
        html[button] = False
    # jupyter-book's default repository is its own; an empty one is none at all
    config["repository"] = {"url": ""}
    config["sphinx"].setdefault("config", {})["edition_downloads"] = [list(d) for d in downloads]
    return config


def stage_student_book(stage, downloads=(), extensions=HTML_EXTENSIONS):
    """Write the student edition's sources into ``stage`` (its _build/ cache kept).

    The book's chapters without their solutions (figures and outputs kept),
    the student versions of pages (course/student_edition/), the _toc
    without the instructor-only pages, and the student _config.yml.  The HTML
    edition (below) and the student PDF (builders/build_pdf.py) are built
    from it.
    """
    os.makedirs(stage, exist_ok=True)
    for entry in os.listdir(stage):             # keep the doctree cache in stage/_build
        if entry != "_build":
            full = os.path.join(stage, entry)
            shutil.rmtree(full) if os.path.isdir(full) else os.remove(full)
    shutil.copy(os.path.join(ROOT, "references.bib"), stage)
    with open(os.path.join(ROOT, "_toc.yml"), encoding="utf-8") as fh:
        toc = student_toc(yaml.safe_load(fh))
    with open(os.path.join(stage, "_toc.yml"), "w", encoding="utf-8") as fh:
        yaml.safe_dump(toc, fh, sort_keys=False, allow_unicode=True)
    for folder in ("_static", "_templates"):
        if os.path.isdir(os.path.join(ROOT, folder)):
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(stage, folder))
    os.makedirs(os.path.join(stage, "builders"))
    for ext in extensions:                      # the local Sphinx extensions
        shutil.copy(os.path.join(ROOT, "builders", ext), os.path.join(stage, "builders"))
    with open(os.path.join(stage, "_config.yml"), "w", encoding="utf-8") as fh:
        yaml.safe_dump(student_config(downloads), fh, sort_keys=False, allow_unicode=True)
    os.makedirs(os.path.join(stage, "chapters"))
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*"))):
        target = os.path.join(stage, "chapters", os.path.basename(path))
        if instructor_only(path):
            continue
        if path.endswith(".ipynb"):
            nb = without_solutions(nbformat.read(path, as_version=4), keep_outputs=True,
                                   check_cell=self_check_note)
            nb = student_sections(nb, os.path.splitext(os.path.basename(path))[0])
            nbformat.write(nb, target)
        elif os.path.isdir(path):                # e.g. images next to the chapters
            shutil.copytree(path, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        else:
            shutil.copy(student_page(path), target)


def _build_html_edition(htmldir, notebooks_dir, archive):
    stage = os.path.join(ROOT, "_build", "student-src")
    # every page links to the student PDF (when `make pdf-student` has made
    # it) and to the notebooks' zip; never to the instructor's PDF
    stage_student_book(stage, downloads=[
        (STUDENT_PDF, "Download this edition as a PDF"),
        (archive, "Download the notebooks (student-notebooks.zip)")])

    sys.path.insert(0, os.path.join(ROOT, "builders"))
    from build_book import build

    # Keep the doctree cache but not old pages: a page left out of the edition
    # (or removed from the book) must not survive from an earlier build.
    shutil.rmtree(os.path.join(stage, "_build", "html"), ignore_errors=True)
    if build(stage) != 0:
        raise SystemExit("student HTML edition: build failed")
    if os.path.isdir(htmldir):
        shutil.rmtree(htmldir)
    shutil.copytree(os.path.join(stage, "_build", "html"), htmldir)
    # The download buttons offer the sources: make them the student notebooks.
    sources = os.path.join(htmldir, "_sources", "chapters")
    for path in glob.glob(os.path.join(notebooks_dir, "chapters", "*")):
        if os.path.isdir(sources) and os.path.isfile(path):   # not chapters/data/
            shutil.copy(path, sources)
    shutil.copy(archive, os.path.join(htmldir, "student-notebooks.zip"))
    print(f"student HTML edition written to {htmldir}/index.html")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "student"))
    parser.add_argument("--archive", default=None,
                        help="where to write the zip (default _build/student-notebooks.zip)")
    parser.add_argument("--html", metavar="HTMLDIR", default=None,
                        help="also build the student HTML edition into HTMLDIR")
    args = parser.parse_args(argv)
    index = student_index(BookIndex.from_book(ROOT, {"repository_url": repository_url()}))
    archive = write_notebook_edition(os.path.abspath(args.outdir), index,
                                     args.archive and os.path.abspath(args.archive))
    if args.html:
        build_html_edition(os.path.abspath(args.html), os.path.abspath(args.outdir), archive)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
