"""Every page's visible code runs on its own.

The rule (developers' guide): the code a reader can see on a page -- visible
and folded cells -- run in order in a fresh kernel with the ``remove-cell``
and ``remove-input`` cells left out, raises no error.  So no visible cell may
use a name that only a hidden cell defines.

Solutions are visible too (in dropdowns), but a student's notebook has none,
so the code outside the solutions must not lean on them either.  Each
solution cell therefore runs in a *copy* of the kernel's namespace: it sees
everything above it, and nothing it defines reaches the cells below.  One
run per chapter proves both halves.

Visible code also must not import private names (``_name``) from the
libraries: a reader copies what the page shows.
"""

import ast
import glob
import json
import os
import re

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_visible_code_runs_on_its_own(path):
    cells = visible_cells(path)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import matplotlib\nmatplotlib.use('Agg')")]
    seen = set()
    for src, sol in cells:
        if sol:
            nb.cells.append(nbformat.v4.new_code_cell(sandboxed(src, sol, sol not in seen)))
            seen.add(sol)
        else:
            nb.cells.append(nbformat.v4.new_code_cell(src))
    client = NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(path)}})
    try:
        client.execute()
    except Exception as exc:  # nbclient's CellExecutionError carries the traceback
        name = type(exc).__name__
        message = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
        last = [line for line in message.splitlines() if line.strip()][-1]
        pytest.fail(f"{os.path.basename(path)}: visible code fails on its own "
                    f"({name}): {last}", pytrace=False)
