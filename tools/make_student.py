"""Write the student edition: chapter notebooks without solutions or outputs.

    python tools/make_student.py [OUTDIR]        (default: student/)

For every notebook in chapters/:
* the text and cells from each ```{solution-start}``` fence to the matching
  ```{solution-end}``` fence are removed, and so are ``{solution}`` blocks
  and cells tagged ``solution``;
* every output and execution count is cleared;
* after each exercise that has a self-check, a cell shows how to call it.
The instructor notebooks in chapters/ are not modified.
"""

import glob
import os
import re
import shutil
import sys

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from aukbook.checks import CHECKS  # noqa: E402

START = re.compile(r"```\{solution-start\}[^\n]*\n(?:[^\n]*\n)*?```[ \t]*(\n|$)")
END = re.compile(r"```\{solution-end\}[^\n]*\n```[ \t]*(\n|$)")
BLOCK = re.compile(r"(:{3,}|`{3,})\{solution\}.*?\n\1[ \t]*(\n|$)", re.S)
LABEL = re.compile(r":::\{exercise\}[^\n]*\n(?::[^\n]*\n)*?:label:\s*(\S+)")


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


def student_notebook(nb):
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
                        cells.append(self_check_cell(label))
        elif not in_solution:
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
            cells.append(cell)
    if in_solution:
        raise ValueError("a {solution-start} has no matching {solution-end}")
    nb.cells = cells
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"s{i:03d}"
    return nb


def main(outdir):
    out_chapters = os.path.join(outdir, "chapters")
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(out_chapters)
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))):
        nb = student_notebook(nbformat.read(path, as_version=4))
        nbformat.write(nb, os.path.join(out_chapters, os.path.basename(path)))
    for extra in glob.glob(os.path.join(ROOT, "chapters", "*.md")):
        shutil.copy(extra, out_chapters)
    with open(os.path.join(outdir, "README.md"), "w") as fh:
        fh.write(
            "# Kappa, AUC and the AUK: student edition\n\n"
            "The chapter notebooks without solutions or outputs. Run them with a\n"
            "Python that has `auklib` installed (from the book's repository:\n"
            "`pip install -r requirements.txt && pip install -e .`).\n\n"
            "Each exercise with a self-check is followed by a cell that shows how\n"
            "to call `aukbook.checks.check`; it tells you whether your answer is\n"
            "right and gives a hint if not, without revealing the answer.\n"
        )
    print(f"student edition written to {outdir}/ ({len(os.listdir(out_chapters))} files)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "student"))
