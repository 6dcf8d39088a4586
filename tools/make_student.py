"""Write the student edition: the chapters without solutions, for Jupyter and for the browser.

    python tools/make_student.py [OUTDIR] [--html HTMLDIR]

OUTDIR (default student/) receives the notebooks for stock Jupyter:

* the solutions are removed: the text and cells from each ``{solution-start}``
  fence to the matching ``{solution-end}`` fence, ``{solution}`` blocks and
  cells tagged ``solution``;
* every output and execution count is cleared;
* the Markdown is plain Markdown: MyST-only syntax, which stock Jupyter shows
  as raw text, is converted (tools/myst_markdown.py): exercise boxes become
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
import glob
import os
import re
import shutil
import subprocess
import sys
import zipfile

import nbformat
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
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


README = """\
# Kappa, AUC and the AUK: student edition

The chapter notebooks without solutions or outputs, in plain Markdown that any
Jupyter shows as it is meant to look. The book itself, with its figures, is
online (the student edition of the HTML book has no solutions either).

## Run the notebooks

You need Python 3.10 or newer. In this folder:

```sh
python -m venv .venv
. .venv/bin/activate                 # Windows: .venv\\Scripts\\activate
pip install -r requirements.txt      # numpy, scikit-learn, plotly, ... (exact versions)
pip install "auklib @ git+{url}" "aukbook @ git+{url}#subdirectory=bookkit"
pip install jupyterlab
jupyter lab chapters/
```

`auklib` is the library the chapters use; `aukbook` holds the book's figures
and the self-checks. Run each notebook from the top (Run > Run All Cells).

## Self-checks

Each exercise with a self-check is followed by a cell that shows how to call
`aukbook.checks.check`. It says whether your answer is right and gives a hint
if not, without revealing the answer. An answer within the stated tolerance
(`atol`) of the reference is accepted; one `2 * atol` or more away is rejected.
"""


def repository_url():
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)["repository"]["url"]


def write_notebook_edition(outdir, index):
    out_chapters = os.path.join(outdir, "chapters")
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(out_chapters)
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))):
        doc = os.path.splitext(os.path.basename(path))[0]
        nb = without_solutions(nbformat.read(path, as_version=4))
        nb = plain_markdown_notebook(nb, index, doc)
        nbformat.write(nb, os.path.join(out_chapters, os.path.basename(path)))
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*.md"))):
        doc = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as fh:
            text = convert(fh.read(), index, doc)
        with open(os.path.join(out_chapters, os.path.basename(path)), "w", encoding="utf-8") as fh:
            fh.write(text)
    with open(os.path.join(outdir, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(README.format(url=index.substitutions.get("repository_url", "")))
    shutil.copy(os.path.join(ROOT, "requirements.txt"), outdir)
    os.makedirs(os.path.join(ROOT, "_build"), exist_ok=True)
    archive = os.path.join(ROOT, "_build", "student-notebooks.zip")
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
    """Build the book from solution-free copies of the chapters into htmldir."""
    stage = os.path.join(ROOT, "_build", "student-src")
    os.makedirs(stage, exist_ok=True)
    for entry in os.listdir(stage):             # keep the doctree cache in stage/_build
        if entry != "_build":
            full = os.path.join(stage, entry)
            shutil.rmtree(full) if os.path.isdir(full) else os.remove(full)
    for name in ("_toc.yml", "references.bib"):
        shutil.copy(os.path.join(ROOT, name), stage)
    for folder in ("_static", "_templates"):
        if os.path.isdir(os.path.join(ROOT, folder)):
            shutil.copytree(os.path.join(ROOT, folder), os.path.join(stage, folder))
    os.makedirs(os.path.join(stage, "tools"))
    shutil.copy(os.path.join(ROOT, "tools", "book_html.py"), os.path.join(stage, "tools"))
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        config = yaml.safe_load(fh)
    config["title"] += " (student edition)"
    config.setdefault("html", {})["announcement"] = (
        "Student edition: the exercises without their solutions.")
    with open(os.path.join(stage, "_config.yml"), "w", encoding="utf-8") as fh:
        yaml.safe_dump(config, fh, sort_keys=False, allow_unicode=True)
    os.makedirs(os.path.join(stage, "chapters"))
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*"))):
        target = os.path.join(stage, "chapters", os.path.basename(path))
        if path.endswith(".ipynb"):
            nb = without_solutions(nbformat.read(path, as_version=4), keep_outputs=True,
                                   check_cell=self_check_note)
            nbformat.write(nb, target)
        elif os.path.isdir(path):                # e.g. images next to the chapters
            shutil.copytree(path, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        else:
            shutil.copy(path, target)

    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from build_book import build

    if build(stage) != 0:
        raise SystemExit("student HTML edition: build failed")
    if os.path.isdir(htmldir):
        shutil.rmtree(htmldir)
    shutil.copytree(os.path.join(stage, "_build", "html"), htmldir)
    # The download buttons offer the sources: make them the student notebooks.
    sources = os.path.join(htmldir, "_sources", "chapters")
    for path in glob.glob(os.path.join(notebooks_dir, "chapters", "*")):
        if os.path.isdir(sources):
            shutil.copy(path, sources)
    shutil.copy(archive, os.path.join(htmldir, "student-notebooks.zip"))
    print(f"student HTML edition written to {htmldir}/index.html")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", default=os.path.join(ROOT, "student"))
    parser.add_argument("--html", metavar="HTMLDIR", default=None,
                        help="also build the student HTML edition into HTMLDIR")
    args = parser.parse_args(argv)
    index = BookIndex.from_book(ROOT, {"repository_url": repository_url()})
    archive = write_notebook_edition(os.path.abspath(args.outdir), index)
    if args.html:
        build_html_edition(os.path.abspath(args.html), os.path.abspath(args.outdir), archive)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
