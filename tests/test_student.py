"""The student edition keeps the exercises and loses every solution and output."""

import glob
import hashlib
import json
import os
import re
import subprocess
import sys

import nbformat
import pytest
from nbclient import NotebookClient

from aukbook.checks import CHECKS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))


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


@pytest.fixture(scope="module")
def student(tmp_path_factory):
    out = tmp_path_factory.mktemp("edition") / "student"
    before = digest(CHAPTERS)
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "make_student.py"), str(out)],
                   check=True, capture_output=True)
    assert digest(CHAPTERS) == before, "make_student modified the instructor notebooks"
    return out


def test_same_notebooks(student):
    names = sorted(os.listdir(student / "chapters"))
    assert [n for n in names if n.endswith(".ipynb")] == [os.path.basename(p) for p in CHAPTERS]


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


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_exercises_and_self_checks_remain(student, path):
    original = open(path).read()
    text = open(student / "chapters" / os.path.basename(path)).read()
    assert text.count("{exercise}") == original.count("{exercise}")
    for label in re.findall(r":label: (ch\d+-ex-[a-z-]+)", original):
        if label in CHECKS:
            assert f"describe('{label}')" in text


def test_solution_code_was_found():
    # guards the test above against finding nothing to look for
    assert sum(len(solution_code(p)) for p in CHAPTERS) >= 10


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_student_notebooks_run(student, path):
    nb = nbformat.read(student / "chapters" / os.path.basename(path), as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(student / "chapters")}}).execute()
