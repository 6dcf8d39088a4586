"""Sphinx extension for the PDF edition (LaTeX builder only; the HTML is untouched).

* Display equations with a ``\\tag{...}`` (a paper's equation number):
  Sphinx's LaTeX writer wraps every display in ``equation*`` + ``split``,
  where amsmath forbids ``\\tag``.  Such an equation is written out here as
  ``equation*`` + ``split`` (or ``aligned`` for several lines separated by
  blank lines) with the tag, and its label, after the ``split``.
* An admonition that holds a table is set as a heading (a rubric) plus its
  content: a table cannot break across pages, and one taller than the
  space left inside a framed box sends LaTeX into an endless loop of pages.
  A table with much text is set as a longtable (it breaks across pages).
* Tables fit the line: each column is at least as wide as its longest word
  and the rest of the line is shared by what each column needs beyond that;
  cells are ragged right and the first column (the rows' names) is never
  hyphenated (tabulary squeezed the rubrics' first column until
  "denominator" broke, and its "points" header ran into the next column).
* Code the HTML folds away (cells tagged hide-input or hide-cell) is left
  out; the cells' outputs stay, and the text says the code is in the
  notebook ({print} phrases, builders/print_web.py).
* The book's parts (the captions of _toc.yml) are the PDF's parts, the
  contents are headed "Contents" (not the first caption, "START HERE"), and
  the landing page's sections are sections of one chapter, "Introduction".
* Chapter numbers as in the HTML book: the pages before the first chapter
  (the introduction, notation, glossary, course) and after the
  last (bibliography, API reference) are unnumbered chapters; chapter 1 is
  ch01.
* Chapters start on the next page (``openany``): the PDF is read on screen
  or printed one-sided, so no blank pages.
* Figures are not floats (``figure_align = "H"``): a figure inside an
  exercise's solution (an admonition box) cannot float.
* The monospace font is DejaVu Sans Mono (code outputs print symbols such as
  the check marks that FreeMono lacks).
* References to exercises (course.md, rubrics.md, the chapters): the LaTeX
  builder resolves every reference from the master document, so one to an
  exercise on another page carries a ``refuri``, which sphinx-exercise leaves
  alone; Sphinx then writes ``Exercise \\ref{doc:label}``, but the exercise
  has only sphinx-exercise's label ``exercise:label`` (and its number is
  text, not a counter), so every such reference printed "Exercise ??".  Each
  exercise gets the label ``doc:label`` too, and each reference to it becomes
  a plain link with the number Sphinx computed ("Exercise 1.1") as its text.
"""

import re

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

TAG = re.compile(r"\\tag\*?\{([^{}]*)\}")


def tagged_display(text, label):
    tags = TAG.findall(text)
    body = TAG.sub("", text)
    parts = [p.strip() for p in body.split("\n\n") if p.strip()]
    if len(parts) == 1:
        inner = "\\begin{split}%s\\end{split}" % parts[0]
    else:
        inner = "\\begin{aligned}%s\\end{aligned}" % " \\\\\n".join(parts)
    labeldef = "\\label{%s}" % label if label else ""
    return "\\begin{equation*}\n%s\\tag{%s}%s\n\\end{equation*}" % (inner, tags[0], labeldef)


class TaggedMath(SphinxPostTransform):
    default_priority = 200
    builders = ("latex",)

    def run(self, **kwargs):
        for node in self.document.findall(nodes.math_block):
            text = node.astext()
            if node.get("nowrap") or not TAG.search(text):
                continue
            label = None
            if node.get("label"):
                label = f"equation:{node['docname']}:{node['label']}"
            node.children = []
            node += nodes.Text(tagged_display(text, label))
            node["nowrap"] = True
            node["label"] = None


LONG_TABLE = 1500  # characters of text

# -- table layout ---------------------------------------------------------------
# The PDF's text is 6.5 in wide (letter paper, Sphinx's 1 in margins); a table
# column is its text width plus \tabcolsep (6pt) on either side.
LINE_WIDTH = 469.0   # pt
PADDING = 12.0       # pt, 2 * \tabcolsep
SLACK = 3.0          # pt, for the estimate's error
# Widths of 10pt text, per character, rounded up from FreeSerif (body),
# FreeSans (headers) and DejaVu Sans Mono (code): an estimate that errs wide.
SERIF = {"lower": 5.0, "upper": 7.2, "digit": 5.0, "other": 3.6}
SANS = {"lower": 5.6, "upper": 7.2, "digit": 5.6, "other": 3.6}
MONO = 5.6
MATH_BREAK = re.compile(r"\\(?:le|ge|leq|geq|ne|neq|cdot|times|quad|qquad|approx)\b|[=+\-<>,]")


def _chars_width(text, metrics):
    width = 0.0
    for ch in text:
        kind = ("lower" if ch.islower() else "upper" if ch.isupper()
                else "digit" if ch.isdigit() else "other")
        width += metrics[kind]
    return width


def _math_pieces(src):
    """Widths of the pieces of inline maths between the places TeX may break it."""
    pieces = MATH_BREAK.split(src)
    out = []
    for piece in pieces:
        piece = re.sub(r"\\[A-Za-z]+", "x", piece)      # \hat, \kappa: one glyph at most
        piece = re.sub(r"[{}_^\s]", "", piece)
        out.append(len(piece) * SERIF["lower"] * 1.1)
    return out


def cell_widths(entry, header=False):
    """(longest unbreakable piece, whole text on one line) of a table cell, in pt."""
    metrics = SANS if header else SERIF
    longest = line = 0.0
    for node in entry.findall(lambda n: isinstance(n, (nodes.Text, nodes.math))):
        if isinstance(node, nodes.Text) and any(isinstance(a, nodes.math) for a in _ancestors(node)):
            continue                                  # counted with its math node
        if isinstance(node, nodes.math):
            pieces = _math_pieces(node.astext())
            longest = max([longest] + pieces)
            line += sum(pieces) + 2 * metrics["other"] * (len(pieces) - 1)
            continue
        literal = any(isinstance(a, nodes.literal) for a in _ancestors(node))
        for word in str(node).split():
            w = len(word) * MONO if literal else _chars_width(word, metrics)
            longest = max(longest, w)
            line += w + metrics["other"]
    return longest, line


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def column_widths(mins, naturals, total=LINE_WIDTH):
    """Widths (pt) for columns that need at least ``mins`` and at most ``naturals``.

    Each column gets its minimum (its longest unbreakable word), and the rest
    of the line is shared in proportion to what each column needs beyond it;
    a table whose columns all fit on one line is set at its natural widths.
    """
    if sum(naturals) <= total:
        return list(naturals)
    if sum(mins) >= total:
        return list(mins)
    need = [n - m for m, n in zip(mins, naturals)]
    rest = total - sum(mins)
    return [m + rest * d / sum(need) for m, d in zip(mins, need)]


NO_HYPHENS = r"\hyphenpenalty=10000\exhyphenpenalty=10000"


def table_spec(table):
    """A LaTeX column spec that fits ``table`` in the line, or None (no columns found).

    Every column is ragged right and at least as wide as its longest word (so
    nothing sticks out into the margin); the first column, which names the
    rows, is never hyphenated.
    """
    for tgroup in table.findall(nodes.tgroup):
        ncols = int(tgroup.get("cols", 0))
        if not ncols:
            return None
        mins, naturals = [0.0] * ncols, [0.0] * ncols
        for part in tgroup.children:
            if not isinstance(part, (nodes.thead, nodes.tbody)):
                continue
            for row in part.findall(nodes.row):
                k = 0
                for entry in row.children:
                    if k >= ncols:
                        break
                    span = 1 + int(entry.get("morecols", 0))
                    longest, line = cell_widths(entry, header=isinstance(part, nodes.thead))
                    if span == 1:
                        mins[k] = max(mins[k], longest + PADDING + SLACK)
                        naturals[k] = max(naturals[k], line + PADDING + SLACK)
                    k += span
        naturals = [max(m, n) for m, n in zip(mins, naturals)]
        widths = column_widths(mins, naturals)
        cols = []
        for k, w in enumerate(widths):
            prefix = r"\raggedright\arraybackslash" + (NO_HYPHENS if k == 0 else "")
            cols.append(r">{%s}\X{%d}{%d}" % (prefix, round(w * 10), round(LINE_WIDTH * 10)))
        return "".join(cols)
    return None


class UnboxTables(SphinxPostTransform):
    default_priority = 190
    builders = ("latex",)

    def run(self, **kwargs):
        from sphinx import addnodes

        for node in list(self.document.findall(nodes.Admonition)):
            if not any(True for _ in node.findall(nodes.table)):
                continue
            title = [c for c in node.children if isinstance(c, nodes.title)]
            body = [c for c in node.children if not isinstance(c, nodes.title)]
            new = []
            if title:
                new.append(nodes.rubric("", "", *title[0].children))
            new.extend(body)
            node.replace_self(new)
        for table in list(self.document.findall(nodes.table)):
            # a long table breaks across pages only as a longtable
            if len(table.astext()) > LONG_TABLE and "longtable" not in table["classes"]:
                table["classes"].append("longtable")
            # column widths from the text (tabulary squeezes narrow columns
            # until their words hyphenate or run into the margin)
            spec = table_spec(table)
            if spec and not isinstance(table.previous_sibling(), addnodes.tabular_col_spec):
                table.parent.insert(table.parent.index(table),
                                    addnodes.tabular_col_spec(spec=spec))


class ExerciseReferences(SphinxPostTransform):
    # after Sphinx resolves the references (10) and sphinx-exercise rewrites
    # the ones that carry a refid (22)
    default_priority = 23
    builders = ("latex",)

    def run(self, **kwargs):
        from sphinx import addnodes
        from sphinx_exercise.nodes import is_exercise_node

        registry = getattr(self.env, "sphinx_exercise_registry", None)
        if not registry:
            return
        # Sphinx's name for each exercise, the target of plain links to it (the
        # solutions' titles); it stays when UnboxTables below drops the
        # exercise's box, and with it sphinx-exercise's label
        for node in list(self.document.findall(is_exercise_node)):
            label = node.get("label")
            docname = registry.get(label, {}).get("docname")
            if label and docname:
                name = f"{docname}:{label}"
                text = "\\phantomsection\\label{\\detokenize{%s}}\n" % name
                node.parent.insert(node.parent.index(node),
                                   nodes.raw("", text, format="latex"))
        # "Exercise \ref{...}" would print the section's number: a plain link
        # to that label, its text the number Sphinx computed ("Exercise 8.1")
        for node in list(self.document.findall(addnodes.number_reference)):
            refuri = node.get("refuri", "")
            if node.get("refid") or not refuri.startswith("%") or "#" not in refuri:
                continue
            target = registry.get(refuri.split("#", 1)[1], {}).get("node")
            if target is None or not is_exercise_node(target):
                continue
            text = node.astext()
            node.replace_self(nodes.reference(
                "", "", nodes.inline(text, text), refuri=refuri, internal=True))


FOLDED = {"tag_hide-input", "tag_hide-cell"}


def drop_folded_code(document):
    """Remove the input of every notebook cell tagged hide-input or hide-cell
    (myst-nb's classes ``tag_hide-input``, ``tag_hide-cell``); return how many."""
    dropped = 0
    for cell in list(document.findall(nodes.container)):
        classes = set(cell.get("classes", []))
        if "cell" not in classes or not FOLDED & classes:
            continue
        for child in list(cell.children):
            if isinstance(child, nodes.container) and "cell_input" in child.get("classes", []):
                cell.remove(child)
                dropped += 1
        if not cell.children:
            cell.parent.remove(cell)
    return dropped


class FoldedCode(SphinxPostTransform):
    """Leave out the code that the HTML folds away (cells tagged hide-input or
    hide-cell); their outputs (figures, tables, check results) stay.

    On paper a folded cell prints in full: 1.5 pages of plotting code before
    a figure.  The text says where such code is ("its code is in the
    notebook", a {print} phrase, builders/print_web.py).
    """
    default_priority = 189
    builders = ("latex",)

    def run(self, **kwargs):
        drop_folded_code(self.document)


INTRODUCTION = "Introduction"


def part_heading(caption):
    """LaTeX for an unnumbered part (a part is numbered unless secnumdepth < -1)."""
    return ("\\edef\\auksecnumdepth{\\the\\value{secnumdepth}}"
            "\\setcounter{secnumdepth}{-2}\\part{%s}"
            "\\setcounter{secnumdepth}{\\auksecnumdepth}\n" % _latex_text(caption))


def add_parts(document, captions):
    """Put each part's heading before its first page: ``captions`` maps the
    first document of each part to the part's caption."""
    from sphinx import addnodes

    files = list(document.findall(addnodes.start_of_file))
    for sof in files:
        caption = captions.get(sof["docname"])
        if caption is not None and sof.parent is not None:
            sof.parent.insert(sof.parent.index(sof),
                              nodes.raw("", part_heading(caption), format="latex"))
    # the landing page: its text and sections, up to the first included page
    top = next((c for c in document.children if isinstance(c, nodes.section)), None)
    if top is None or not files:
        return
    body = []
    for child in top.children[1:]:                  # after the page's title
        if any(True for _ in child.findall(addnodes.start_of_file)):
            break
        body.append(child)
    if not any(isinstance(c, nodes.section) for c in body):
        return
    intro = nodes.section(ids=["pdf-introduction"], names=[])
    intro += nodes.title(INTRODUCTION, INTRODUCTION)
    top.insert(top.index(body[0]), intro)
    for child in body:
        top.remove(child)
        intro += child


class BookParts(SphinxPostTransform):
    """The book's parts (the captions of _toc.yml) as the PDF's parts.

    Sphinx's LaTeX builder drops the toctree captions and names the table of
    contents after the first one ("START HERE").  Here each caption becomes an
    unnumbered ``\\part`` before its first page, and the landing page's own
    sections (Try it first, Chapter map, ...), which would otherwise be
    chapters of their own, become sections of one unnumbered chapter,
    "Introduction", before the first part.  The contents are named
    "Contents" (PREAMBLE).
    """
    default_priority = 196
    builders = ("latex",)

    def run(self, **kwargs):
        from sphinx import addnodes

        captions = {}
        for toctree in self.env.get_doctree(self.config.root_doc).findall(addnodes.toctree):
            if toctree.get("caption") and toctree.get("includefiles"):
                captions[str(toctree["includefiles"][0])] = toctree["caption"]
        add_parts(self.document, captions)


def _latex_text(text):
    from sphinx.util.texescape import escape

    return escape(text)


FIRST_CHAPTER = "chapters/ch01_accuracy_kappa"
# the documents of the toc's "Back matter" part: numbering stops at the first
BACK_MATTER = ("chapters/validation", "chapters/bibliography")


class ChapterNumbers(SphinxPostTransform):
    default_priority = 195
    builders = ("latex",)

    def run(self, **kwargs):
        from sphinx import addnodes

        def raw(text):
            return nodes.raw("", text, format="latex")

        files = {n["docname"]: n for n in self.document.findall(addnodes.start_of_file)}
        if FIRST_CHAPTER not in files:
            return
        self.document.insert(0, raw("\\setcounter{secnumdepth}{-1}\n"))
        files[FIRST_CHAPTER].insert(
            0, raw("\\setcounter{secnumdepth}{2}\\setcounter{chapter}{0}\n"))
        back = [name for name in files if name in BACK_MATTER]  # in page order
        if back:
            files[back[0]].insert(0, raw("\\setcounter{secnumdepth}{-1}\n"))


FONTS = r"""
\setmainfont{FreeSerif}[Extension=.otf, UprightFont=*, ItalicFont=*Italic,
  BoldFont=*Bold, BoldItalicFont=*BoldItalic]
\setsansfont{FreeSans}[Extension=.otf, UprightFont=*, ItalicFont=*Oblique,
  BoldFont=*Bold, BoldItalicFont=*BoldOblique]
\setmonofont{DejaVu Sans Mono}[Scale=MatchLowercase]
\newfontfamily\booksymbols{DejaVu Sans}[Scale=MatchLowercase]
"""
# symbols that no variant of the text fonts has
PREAMBLE = r"""
% the contents are the book's contents, not its first part ("Start here")
\addto\captionsenglish{\renewcommand{\contentsname}{Contents}}
% a line may stretch its spaces a little further before TeX lets a word
% stick out into the margin (long inline code such as TunedThresholdClassifierCV)
\setlength{\emergencystretch}{3em}
\usepackage{newunicodechar}
\newunicodechar{✗}{{\booksymbols ✗}}
\newunicodechar{✓}{{\booksymbols ✓}}
"""


def config_inited(app, config):
    elements = dict(config.latex_elements or {})
    elements.setdefault("figure_align", "H")
    elements.setdefault("fontpkg", FONTS)
    # chapters start on the next page, not the next right-hand one: the PDF
    # is read on screen or printed one-sided (no blank pages)
    elements.setdefault("extraclassoptions", "openany,oneside")
    elements["preamble"] = elements.get("preamble", "") + PREAMBLE
    # Sphinx's default index tool for xelatex is xindy, which Debian ships
    # apart (xindy package); makeindex comes with every TeX installation
    config.latex_use_xindy = False
    config.latex_elements = elements


def setup(app):
    app.connect("config-inited", config_inited)
    app.add_post_transform(TaggedMath)
    app.add_post_transform(FoldedCode)
    app.add_post_transform(UnboxTables)
    app.add_post_transform(BookParts)
    app.add_post_transform(ChapterNumbers)
    app.add_post_transform(ExerciseReferences)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
