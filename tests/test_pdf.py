"""The PDF editions (`make pdf`): their build-time pieces, and the built PDFs.

Most tests need no TeX: the static images given to plotly figures, the
LaTeX form of tagged equations, the table layout, the folded code left out,
the book's parts, the print versions of screen-only phrases, the
bibliography's TeX, and the checks of checks/check_pdf.py on made-up input.
Both editions' LaTeX source is written with Sphinx's LaTeX builder alone (no
TeX) and passes check_pdf's source checks, a planted screen-only phrase
found.  The last ones check _build/pdf/book.pdf and _build/pdf/book-student.pdf
(checks/check_pdf.py, and no solution in the student PDF) and are skipped
when a PDF has not been built (`make pdf` is not part of `make test`).
"""

import copy
import glob
import json
import os
import re
import shutil
import sys

import pytest
from docutils import nodes
from docutils.frontend import get_default_settings
from docutils.parsers.rst import Parser
from docutils.utils import new_document

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import build_pdf  # noqa: E402
import check_pdf  # noqa: E402
import pdf_latex  # noqa: E402
from myst_markdown import for_medium  # noqa: E402
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
        "LaTeX Warning: Hyper reference `exercise:ch13-ex-placements' "
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


# -- tables -------------------------------------------------------------------------
def rst_table(text):
    settings = get_default_settings(Parser)
    doc = new_document("<test>", settings)
    Parser().parse(text, doc)
    return next(doc.findall(nodes.table))


RUBRIC = """
.. list-table::
   :header-rows: 1

   * - criterion
     - points
     - full
     - partial
   * - denominator
     - 2
     - the identity stated with every step of the algebra written out so that a reader can follow it, the unit totals used
     - the identity stated without using the unit totals, or with a slip in one of the products
   * - SymPy and kappa
     - 1
     - the difference simplifies to 0; the function passes the self-check
     - one of the two
"""


def spec_widths(spec):
    return [int(a) / int(b) * pdf_latex.LINE_WIDTH
            for a, b in re.findall(r"\\X\{(\d+)\}\{(\d+)\}", spec)]


def test_pdf_table_columns_hold_their_longest_word_and_fill_the_line():
    table = rst_table(RUBRIC)
    spec = pdf_latex.table_spec(table)
    widths = spec_widths(spec)
    assert len(widths) == 4
    # "denominator" (11 letters) and the header "points" fit their columns
    # with the cell padding; the long columns share the rest of the line
    assert widths[0] >= 11 * pdf_latex.SERIF["lower"] + pdf_latex.PADDING
    assert widths[1] >= 6 * pdf_latex.SANS["lower"] + pdf_latex.PADDING
    assert abs(sum(widths) - pdf_latex.LINE_WIDTH) < 1
    assert widths[2] > widths[0] and widths[3] > widths[1]
    # the first column is never hyphenated; every column is ragged right
    columns = spec.split(">{")[1:]
    assert pdf_latex.NO_HYPHENS in columns[0]
    assert all(pdf_latex.NO_HYPHENS not in c for c in columns[1:])
    assert all("\\raggedright" in c for c in columns)


def test_pdf_narrow_table_keeps_its_natural_widths():
    table = rst_table("""
===== =====
a     b
===== =====
1     2
===== =====
""")
    widths = spec_widths(pdf_latex.table_spec(table))
    assert sum(widths) < pdf_latex.LINE_WIDTH / 2


def test_pdf_column_widths_share_what_is_left_by_need():
    widths = pdf_latex.column_widths([50, 30, 40], [60, 30, 1000], total=300)
    assert widths[1] == 30                             # needs nothing more
    assert abs(sum(widths) - 300) < 1e-9
    assert widths[2] > widths[0] > 50


# -- folded code and the book's parts ----------------------------------------------
def cell(tags, *parts):
    node = nodes.container(classes=["cell"] + [f"tag_{t}" for t in tags])
    for part in parts:
        node += nodes.container(classes=[part])
    return node


def test_pdf_folded_code_is_left_out_and_its_output_kept():
    doc = new_document("<test>", get_default_settings(Parser))
    folded = cell(["hide-input"], "cell_input", "cell_output")
    whole = cell(["hide-cell"], "cell_input", "cell_output")
    shown = cell([], "cell_input", "cell_output")
    only_code = cell(["hide-cell"], "cell_input")
    for c in (folded, whole, shown, only_code):
        doc += c
    assert pdf_latex.drop_folded_code(doc) == 3
    assert [k["classes"] for k in folded.children] == [["cell_output"]]
    assert [k["classes"] for k in whole.children] == [["cell_output"]]
    assert len(shown.children) == 2
    assert only_code not in doc.children                # nothing left to print


def test_pdf_parts_and_the_introduction():
    from sphinx import addnodes

    doc = new_document("<test>", get_default_settings(Parser))
    top = nodes.section()
    top += nodes.title("Book", "Book")
    top += nodes.paragraph("", "An executable book.")
    for name in ("Try it first", "Chapter map"):
        sec = nodes.section()
        sec += nodes.title(name, name)
        top += sec
    wrapper = nodes.compound(classes=["toctree-wrapper"])
    for name in ("notation", "glossary", "ch01", "bibliography"):
        wrapper += addnodes.start_of_file(docname=name)
    top += wrapper
    doc += top
    pdf_latex.add_parts(doc, {"notation": "Start here", "ch01": "Chapters",
                              "bibliography": "Back matter"})
    raws = [n.astext() for n in wrapper.children if isinstance(n, nodes.raw)]
    assert len(raws) == 3 and all("secnumdepth}{-2}\\part{" in r for r in raws)
    assert "\\part{Start here}" in raws[0]
    assert [c["docname"] for c in wrapper.children if isinstance(c, addnodes.start_of_file)] \
        == ["notation", "glossary", "ch01", "bibliography"]
    intro = top.children[1]
    assert intro.children[0].astext() == pdf_latex.INTRODUCTION
    assert [c.children[0].astext() for c in intro.children[2:]] == ["Try it first", "Chapter map"]
    assert top.children[2] is wrapper


# -- screen-only phrases --------------------------------------------------------------
def book_texts(medium):
    """(where, text) of every Markdown cell, figure caption and page of the book,
    as ``medium`` shows it (builders/print_web.py)."""
    out = []
    pages = glob.glob(os.path.join(ROOT, "chapters", "*.md")) + glob.glob(
        os.path.join(ROOT, "course", "student_edition", "*.md"))
    for path in sorted(pages):
        out.append((os.path.relpath(path, ROOT), for_medium(open(path, encoding="utf-8").read(), medium)))
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))):
        with open(path, encoding="utf-8") as fh:
            cells = json.load(fh)["cells"]
        for k, c in enumerate(cells):
            where = f"{os.path.basename(path)} cell {k}"
            if c["cell_type"] == "markdown":
                out.append((where, for_medium("".join(c["source"]), medium)))
            caption = c.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("caption")
            if caption:
                out.append((where + " caption", for_medium(caption, medium)))
    return out


def test_pdf_no_screen_only_phrase_reaches_print():
    """Every phrase about sliders, hovering, clicking or folded cells has a print
    version ({web}`...`{print}`...`): none is left in what the PDF prints."""
    found = []
    for where, text in book_texts("print"):
        # a paragraph per line, as the PDF's text is searched (check_pdf)
        flat = "\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text))
        found += [(where, kind, line[:100]) for kind, line in check_pdf.web_phrases(flat)]
    assert not found, found


def test_screen_phrases_were_there_to_replace():
    # guards the test above: the screen edition does say these things
    kinds = set()
    for _where, text in book_texts("web"):
        flat = "\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", text))
        kinds |= {kind for kind, _line in check_pdf.web_phrases(flat)}
    # (no page asks the reader to hover any more: a phone cannot)
    assert {"slider instruction", "folded", "open the cell"} <= kinds


def test_medium_roles_keep_one_version():
    text = "Before {web}``In {numref}`fig-x` move the slider``{print}`At $p = 0.1$` after."
    assert for_medium(text, "web") == "Before In {numref}`fig-x` move the slider after."
    assert for_medium(text, "print") == "Before At $p = 0.1$ after."


# -- TeX that prints as text ---------------------------------------------------------
def test_pdf_literal_tex_is_found_outside_code_only():
    tex = "\n".join([
        r"Ethem Alpaydın. Combined \$5 \textbackslash{}times 2\$ cv F test",
        r"\begin{sphinxVerbatim}[commandchars=\\\{\}]",
        r"\PYG{n}{label} \PYG{o}{=} \PYG{l+s+sa}{r}\textbackslash{}kappa \$",
        r"\end{sphinxVerbatim}",
        r"Accuracy is \(a = TP + TN\).",
    ])
    found = check_pdf.literal_tex(tex)
    assert len(found) == 3 and all("Alpaydın" in f for f in found)   # \$, \textbackslash{}times, \$


def test_bibliography_prints_no_tex():
    """pybtex renders a .bib field's text as it is: maths in $...$ or a TeX command
    other than an accent would print literally (the book printed "$5 \\times 2$")."""
    from pybtex.database import parse_file
    from pybtex.richtext import Text

    data = parse_file(os.path.join(ROOT, "references.bib"))
    fields = [(key, field, value) for key, entry in data.entries.items()
              for field, value in entry.fields.items()]
    # one call for all fields: each call decodes with latexcodec, 0.1 s or more
    shown = Text.from_latex("\n§§\n".join(v for _, _, v in fields)).render_as("text").split("§§")
    assert len(shown) == len(fields) > 100
    for (key, field, _value), text in zip(fields, shown):
        assert "$" not in text and not re.search(r"\\[A-Za-z]", text), (key, field, text)
    assert "Combined 5×2 cv F test" in " ".join(shown)


# -- the checks of checks/check_pdf.py, on made-up input ------------------------------
def test_pdf_overfull_lines_are_read_from_the_log(tmp_path):
    log = tmp_path / "book.log"
    log.write_text("\n".join([
        r"Overfull \hbox (11.25pt too wide) in paragraph at lines 2863--2863",
        r"[]\TU/FreeSans(0)/m/n/10 points|",
        "",
        r"Overfull \hbox (0.71178pt too wide) in paragraph at lines 3921--3921",
        r"Overfull \vbox (1.37791pt too high) detected at line 6541",
    ]) + "\n", encoding="utf-8")
    found = check_pdf.overfull_lines(str(log))
    assert [pt for pt, _ in found] == [11.25, 0.71178]
    assert [pt for pt, _ in found if pt > check_pdf.HBOX_TOLERANCE_PT] == [11.25]


def test_pdf_contents_must_be_headed_contents_and_list_the_parts(tmp_path):
    (tmp_path / "_toc.yml").write_text(
        "parts:\n  - caption: Start here\n  - caption: Chapters\n", encoding="utf-8")
    old = "title\f\n   START HERE\n\nTry it first   3\n"
    new = "title\f\n   CONTENTS\n\nIntroduction   1\nStart here    4\n  Notation   5\nChapters   30\n"
    assert len(check_pdf.contents_problems(old, str(tmp_path))) == 4
    assert check_pdf.contents_problems(new, str(tmp_path)) == []


# -- the built PDFs ---------------------------------------------------------------------
PDFS = {edition: os.path.join(ROOT, "_build", "pdf", name)
        for edition, (name, _stage) in check_pdf.EDITIONS.items()}


def built(edition):
    pdf = PDFS[edition]
    if not os.path.exists(pdf) or shutil.which("pdfimages") is None:
        pytest.skip("the PDF is built by `make pdf` (needs TeX and poppler-utils)")
    newest = max(os.path.getmtime(p)
                 for p in glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))
                 + glob.glob(os.path.join(ROOT, "chapters", "*.md")))
    if os.path.getmtime(pdf) < newest:
        pytest.skip("the PDF is older than a chapter: run `make pdf`")
    return pdf


@pytest.mark.parametrize("edition", sorted(PDFS))
def test_pdf_pages_figures_references_lines_and_print_text(edition):
    pdf = built(edition)
    log = os.path.join(ROOT, "_build", check_pdf.EDITIONS[edition][1], "_build", "latex", "book.log")
    assert check_pdf.check(pdf, log, edition) == 0


@pytest.mark.parametrize("edition", sorted(PDFS))
def test_pdf_shows_code_but_not_folded_code(edition):
    """Guards the folded-code check: the PDF's text does hold the code every
    edition shows, searched the same way."""
    text = check_pdf.pdf_text(built(edition))
    stage = check_pdf.stage_of(edition)
    shown = check_pdf.shown_code(stage)
    assert len(check_pdf.found_lines(shown, text)) >= len(shown) // 2
    assert check_pdf.found_lines(check_pdf.folded_code(stage), text) == []


def test_student_pdf_holds_no_solution():
    """No solution's text or code reaches the student PDF, found as
    tests/test_student_html.py finds them in the student HTML."""
    from test_student_html import (CHAPTERS, distinctive_solution_snippets, normalise,
                                   outside_solutions)

    text = normalise(check_pdf.pdf_text(built("student"), layout=False))
    common = outside_solutions()
    searched = 0
    for path in CHAPTERS:
        for snippet in distinctive_solution_snippets(path, common):
            searched += 1
            assert " ".join(snippet.split()) not in text, (os.path.basename(path), snippet)
    assert searched >= 40
    instructor = normalise(check_pdf.pdf_text(built("instructor"), layout=False))
    assert "Solution to Exercise" in instructor and "Solution to Exercise" not in text


# -- the LaTeX source of both editions, checked without TeX (make test) -------------------
PLANTED = "A planted line: hover over it."


def plant_screen_phrases(stage):
    """A screen-only phrase in a staged page, and a {web}/{print} pair beside it."""
    page = os.path.join(stage, "chapters", "notation.md")
    with open(page, "a", encoding="utf-8") as fh:
        fh.write(f"\n\n{PLANTED}\n\n"
                 "{web}`Plantedweb: hover over the line.`{print}`Plantedprint: the line.`\n")


@pytest.mark.parametrize("edition", sorted(check_pdf.EDITIONS))
def test_pdf_latex_source_has_no_screen_text_tex_or_folded_code(edition):
    """Sphinx's LaTeX builder only (no TeX): the edition's book.tex passes the
    source checks of checks/check_pdf.py, except for the one screen-only phrase
    planted in a staged page, which the check must find; the planted {web}
    phrase gives way to its {print} version."""
    tex_path, log = build_pdf.latex_source(edition, plant=plant_screen_phrases)
    assert tex_path is not None, log[-3000:]
    tex = open(tex_path, encoding="utf-8").read()
    stage = os.path.dirname(os.path.dirname(os.path.dirname(tex_path)))
    failures = check_pdf.check_source(tex, edition, stage)
    assert len(failures) == 1 and failures[0].startswith("screen-only text"), failures
    assert PLANTED in failures[0] and failures[0].count("hover:") == 1, failures
    text = check_pdf.tex_text(tex)
    assert "Plantedprint: the line." in text and "Plantedweb" not in text
    # the checks searched the book: its code is in the source, its parts are
    assert len(check_pdf.found_lines(check_pdf.shown_code(stage), check_pdf.tex_code(tex))) \
        >= len(check_pdf.shown_code(stage)) // 2


def test_pdf_source_checks_find_folded_code_and_instructor_pages():
    tex = "\n".join([
        r"\renewcommand{\contentsname}{Contents}",
        r"\begin{sphinxuseclass}{cell}\begin{sphinxuseclass}{tag_hide-input}",
        r"\begin{sphinxuseclass}{cell_input}",
        r"\begin{sphinxVerbatim}[commandchars=\\\{\}]",
        r"\PYG{n}{fig}\PYG{p}{,} \PYG{n}{ax} \PYG{o}{=} \PYG{n}{plt}\PYG{o}{.}\PYG{n}{subplots}\PYG{p}{(}\PYG{p}{)}",
        r"\end{sphinxVerbatim}",
        r"\end{sphinxuseclass}\end{sphinxuseclass}\end{sphinxuseclass}",
        r"\begin{sphinxuseclass}{cell}\begin{sphinxuseclass}{cell_input}",
        r"\end{sphinxuseclass}\end{sphinxuseclass}",
        "",
        r"\sphinxstylestrong{Solution to Exercise 1.1} The answer.",
    ])
    assert len(check_pdf.folded_inputs(tex)) == 1
    assert "fig, ax = plt.subplots()" in check_pdf.tex_code(tex)
    student = check_pdf.check_source(tex, "student", str(ROOT))
    assert any("folded cell input" in f for f in student)
    assert any("student LaTeX: solution" in f for f in student)
    assert not any("solution" in f for f in check_pdf.check_source(tex, "instructor", str(ROOT)))
