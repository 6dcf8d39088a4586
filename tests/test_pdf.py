"""The PDF edition (`make pdf`): its build-time pieces, and the built PDF.

The first tests need no TeX: the static images given to plotly figures and
the LaTeX form of tagged equations.  The last checks _build/pdf/book.pdf
(page count, one image per figure, no "??") and is skipped when the PDF has
not been built (`make pdf` is not part of `make test`).
"""

import copy
import glob
import json
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import build_pdf  # noqa: E402
import check_pdf  # noqa: E402
from pdf_latex import tagged_display  # noqa: E402

PLOTLY = build_pdf.PLOTLY


def plotly_notebooks():
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))):
        nb = json.load(open(path, encoding="utf-8"))
        if any(PLOTLY in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", [])):
            found.append(path)
    return found


def test_pdf_every_plotly_figure_gets_a_png(tmp_path):
    paths = plotly_notebooks()
    assert paths, "no chapter has a plotly figure: nothing to test"
    path = paths[0]
    staged = tmp_path / os.path.basename(path)
    shutil.copyfile(path, staged)
    before = json.load(open(path, encoding="utf-8"))
    added = build_pdf.add_static_images(str(staged))
    after = json.load(open(staged, encoding="utf-8"))
    outputs = [o for c in after["cells"] for o in c.get("outputs", [])
               if PLOTLY in o.get("data", {})]
    missing = sum("image/png" not in o.get("data", {})
                  for c in before["cells"] for o in c.get("outputs", [])
                  if PLOTLY in o.get("data", {}))
    assert added == missing
    for out in outputs:
        png = out["data"]["image/png"]
        assert png.startswith("iVBORw0KGgo")  # base64 of the PNG signature
        assert "text/html" not in out["data"]  # LaTeX would prefer the HTML
    # the chapter itself is untouched
    assert json.load(open(path, encoding="utf-8")) == before


def test_pdf_typed_arrays_are_decoded():
    spec = {"data": [{"x": {"dtype": "f8", "bdata": "AAAAAAAA8D8AAAAAAAAAQA=="},
                      "y": [3, 4]}]}
    assert build_pdf.decode(copy.deepcopy(spec))["data"][0]["x"] == [1.0, 2.0]


def test_pdf_tag_leaves_the_split():
    out = tagged_display(r"a = TP + TN. \tag{1}", "equation:x:acc")
    assert out.index(r"\end{split}") < out.index(r"\tag{1}") < out.index(r"\label{equation:x:acc}")
    assert out.count(r"\tag") == 1


def test_pdf_log_warnings_broken_across_lines_are_found(tmp_path):
    # TeX breaks its log at 79 characters, inside the word "undefined" here
    log = tmp_path / "book.log"
    lines = [
        "LaTeX Warning: Hyper reference `exercise:ch12-ex-placements' "
        "on page 26 undefin",
        "ed on input line 2118.",
        "",
        "LaTeX Warning: Reference `chapters/ch04_auk:ch4-ex-crisp' "
        "on page 26 undefined ",
        "on input line 1870.",
        "",
        "LaTeX Warning: Hyper reference "
        "`chapters/ch01_accuracy_kappa:ch1-ex-counts' on ",
        "page 25 undefined on input line 1870.",
    ]
    assert [len(line) for line in lines[::3]] == [79, 79, 79]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = check_pdf.log_problems(str(log))
    assert len(found) == 3
    assert all("undefined on input line" in w for w in found)


PDF = os.path.join(ROOT, "_build", "pdf", "book.pdf")


@pytest.mark.skipif(not os.path.exists(PDF) or shutil.which("pdfimages") is None,
                    reason="the PDF is built by `make pdf` (needs TeX and poppler-utils)")
def test_pdf_pages_figures_and_references():
    newest = max(os.path.getmtime(p)
                 for p in glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
    if os.path.getmtime(PDF) < newest:
        pytest.skip("the PDF is older than a chapter: run `make pdf`")
    log = os.path.join(ROOT, "_build", "pdf-src", "_build", "latex", "book.log")
    assert check_pdf.check(PDF, log) == 0
