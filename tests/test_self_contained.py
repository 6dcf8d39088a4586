"""Every page's visible code runs on its own.

The rule (developers' guide): the code a reader can see on a page -- visible
and folded cells -- run in order in a fresh kernel with the ``remove-cell``
and ``remove-input`` cells left out, raises no error.  So no visible cell may
use a name that only a hidden cell defines.  (The run is a fresh IPython shell
forked from a process that has imported the heavy packages: ``page_shell``.)

Solutions are visible too (in dropdowns), but a student's notebook has none,
so the code outside the solutions must not lean on them either.  Each
solution cell therefore runs in a *copy* of the run's namespace: it sees
everything above it, and nothing it defines reaches the cells below.

The same run also executes what the student notebook (course/make_student.py)
adds to the visible code, each piece in a namespace of its own so that the
visible code still cannot lean on it: the hidden cells a student notebook
keeps (with their asserts removed) see the visible names and the names the
earlier kept hidden cells defined, as they do in the student notebook, and
the self-check cells run in a throwaway copy.  So one run per chapter proves
that the visible code runs on its own, that no solution leaks into the code
after it, and that the student notebook's cells run (the visible cells see
less here than in the student notebook, never more).

Visible code also must not import private names (``_name``) from the
libraries: a reader copies what the page shows.
"""

import ast
import glob
import json
import os
import re

import copy
import sys

import nbformat
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from make_student import without_solutions, without_verification  # noqa: E402
from page_shell import run_cells  # noqa: E402

CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
HIDDEN = {"remove-cell", "remove-input"}
MARKER = re.compile(r"\{solution-(start|end)\}")


def visible_cells(path):
    """(source, solution) of the code cells a reader sees, in page order.

    ``solution`` numbers the solution a cell belongs to (0: none), so that the
    cells of one solution can share their names with each other.
    """
    nb = json.load(open(path, encoding="utf-8"))
    inside, number, cells = False, 0, []
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for marker in MARKER.findall(src):
                inside = marker == "start"
                number += inside
            continue
        if cell["cell_type"] != "code" or not src.strip():
            continue
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & HIDDEN:
            continue
        if "solution" in tags and not inside:
            number += 1
            cells.append((src, number))
        else:
            cells.append((src, number if inside else 0))
    return cells


def sandboxed(src, number, first):
    """A cell that runs ``src`` in solution ``number``'s copy of the namespace.

    The copy is taken when the solution's first cell runs.
    """
    name = f"__solution_{number}"
    start = f"{name} = dict(globals())\n" if first else ""
    return (start +
            f"exec(compile(get_ipython().transform_cell({src!r}), '<solution>', 'exec'),"
            f" {name})\n")


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_visible_code_imports_no_private_names(path):
    for src, _ in visible_cells(path):
        code = "\n".join(line for line in src.splitlines()
                         if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and node.module:
                root = node.module.split(".")[0]
                if root in {"auklib", "aukbook"}:
                    private = [a.name for a in node.names if a.name.startswith("_")]
                    assert not private, f"{os.path.basename(path)} imports {private}"
                    assert not any(part.startswith("_") for part in node.module.split(".")), \
                        f"{os.path.basename(path)} imports from private {node.module}"


# In the shell: the namespace of the hidden cells a student notebook keeps,
# and the runners of a hidden cell and of a throwaway cell.
SHELL_SETUP = """\
import matplotlib
matplotlib.use('Agg')
__student_hidden = {}


def __run_hidden(src):
    ns = dict(globals())
    ns.update(__student_hidden)
    before = dict(ns)
    exec(compile(get_ipython().transform_cell(src), '<hidden>', 'exec'), ns)
    __student_hidden.update({k: v for k, v in ns.items()
                             if k not in before or before[k] is not v})


def __run_apart(src):
    exec(compile(get_ipython().transform_cell(src), '<self-check>', 'exec'), dict(globals()))
"""


def student_additions(path):
    """What the student notebook runs besides the visible code, by instructor cell.

    ``{index of an instructor code cell: its student source}`` for the hidden
    cells the student notebook keeps, and ``{index of the cell before it:
    [sources]}`` for the self-check cells it adds.
    """
    nb = nbformat.read(path, as_version=4)
    for i, cell in enumerate(nb.cells):
        cell.metadata["aukbook_index"] = i
    student = without_verification(without_solutions(copy.deepcopy(nb)))
    hidden, checks, last = {}, {}, -1
    for cell in student.cells:
        i = cell.metadata.get("aukbook_index")
        if i is None:
            checks.setdefault(last, []).append(cell.source)
            continue
        last = i
        tags = set(cell.metadata.get("tags", []))
        if cell.cell_type == "code" and tags & HIDDEN:
            hidden[i] = cell.source
    return nb, hidden, checks


def page_run(path):
    """The notebook of one chapter's combined run (see the module's docstring)."""
    nb, hidden, checks = student_additions(path)
    visible = iter(visible_cells(path))
    cells = [nbformat.v4.new_code_cell(SHELL_SETUP)]
    seen = set()
    for i, cell in enumerate(nb.cells):
        tags = set(cell.metadata.get("tags", []))
        if cell.cell_type == "code" and cell.source.strip():
            if tags & HIDDEN:
                if i in hidden:
                    cells.append(nbformat.v4.new_code_cell(f"__run_hidden({hidden[i]!r})"))
            else:
                src, sol = next(visible)
                assert src == cell.source
                if sol:
                    cells.append(nbformat.v4.new_code_cell(sandboxed(src, sol, sol not in seen)))
                    seen.add(sol)
                else:
                    cells.append(nbformat.v4.new_code_cell(src))
        for src in checks.get(i, []):
            cells.append(nbformat.v4.new_code_cell(f"__run_apart({src!r})"))
    assert next(visible, None) is None
    run = nbformat.v4.new_notebook()
    run.cells = cells
    return run, hidden, checks


def test_page_run_holds_the_student_additions():
    # guards the combined run below against running nothing of the student's
    kept = checks = 0
    for path in CHAPTERS:
        run, hidden, extra = page_run(path)
        kept += len(hidden)
        checks += sum(map(len, extra.values()))
        sources = "\n".join(c.source for c in run.cells)
        for src in hidden.values():
            assert repr(src) in sources
    assert kept >= 50 and checks >= 20


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_visible_code_and_student_notebook_run_on_their_own(path):
    nb, _, _ = page_run(path)
    failed = run_cells([cell.source for cell in nb.cells], os.path.dirname(path))
    if failed:
        k, name, printed = failed
        last = [line for line in printed.splitlines() if line.strip()][-1:] or [""]
        pytest.fail(f"{os.path.basename(path)}: visible code or student cells fail "
                    f"(run cell {k}, {name}): {last[0]}\n{printed}", pytrace=False)


def test_page_shell_reports_the_failing_cell_in_an_empty_namespace():
    # the shell runs magics and display, starts with no names (numpy is
    # preloaded in its server, not imported into the page's namespace), and
    # reports the first failing cell, before or during execution
    assert run_cells(["%time x = 1", "display(x)", "import numpy as np; np.ones(2)"],
                     ROOT) is None
    k, name, printed = run_cells(["x = 1", "np.ones(x)", "x = 2"], ROOT)
    assert (k, name) == (1, "NameError") and "'np' is not defined" in printed
    assert run_cells(["x = 1", "def f(:"], ROOT)[:2] == (1, "SyntaxError")
    assert run_cells(["import os", "assert os.getcwd() == '/'"], "/") is None
    assert run_cells(["import os; os._exit(3)"], ROOT)[1:] == (
        "ChildProcessError", "the shell's process ended with exit code 3")
    assert run_cells(["import time; time.sleep(5)"], ROOT, timeout=0.5)[1] == "TimeoutError"


# -- line length -----------------------------------------------------------------
# The code a reader sees keeps its lines within 88 characters (black's default),
# so that no reader scrolls a code block sideways: the "long lines" count of the
# page check reading_surface.py, read from the notebooks.  Folded (hide-input,
# hide-cell) cells are shown and count; visible_cells leaves out the rest.
LIMIT = 88


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_visible_code_lines_fit_88_characters(path):
    found = [line for source, _ in visible_cells(path) for line in source.splitlines()
             if len(line) > LIMIT]
    listing = "\n".join(f"({len(line)} chars) {line}" for line in found)
    assert not found, (f"{os.path.relpath(path, ROOT)}: visible code lines longer "
                       f"than {LIMIT} characters:\n{listing}")
