"""The code a reader sees on a page fits 88 characters a line.

Every code cell the HTML page shows -- all code cells except those tagged
``remove-cell`` or ``remove-input``; ``hide-input`` and ``hide-cell`` cells are
shown folded and count -- keeps its lines within 88 characters (black's
default), so that no reader has to scroll a code block sideways.  This is the
"long lines" count of the page check ``reading_surface.py``, read from the
notebooks instead of the built HTML.
"""

import glob
import json
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
HIDDEN = {"remove-cell", "remove-input"}
LIMIT = 88


def long_visible_lines(path):
    """(cell id, line number, line) of each visible code line over LIMIT."""
    nb = json.load(open(path, encoding="utf-8"))
    found = []
    for index, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        if HIDDEN & set(cell.get("metadata", {}).get("tags", [])):
            continue
        cell_id = cell.get("id", f"cell {index}")
        for number, line in enumerate("".join(cell["source"]).splitlines(), 1):
            if len(line) > LIMIT:
                found.append((cell_id, number, line))
    return found


def test_chapters_are_found():
    assert CHAPTERS, "no chapters/*.ipynb found"


@pytest.mark.parametrize("path", CHAPTERS, ids=os.path.basename)
def test_visible_code_lines_fit_88_characters(path):
    found = long_visible_lines(path)
    name = os.path.relpath(path, ROOT)
    listing = "\n".join(
        f"{name} cell {cell_id} line {number} ({len(line)} chars): {line}"
        for cell_id, number, line in found
    )
    assert not found, f"visible code lines longer than {LIMIT} characters:\n{listing}"
