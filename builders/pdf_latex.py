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
* Chapter numbers as in the HTML book: the pages before the first chapter
  (the landing page's sections, notation, glossary, course) and after the
  last (bibliography, API reference) are unnumbered chapters; chapter 1 is
  ch01.
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


def set_widths(table):
    """Column widths in proportion to each column's text (at least 12%)."""
    for tgroup in table.findall(nodes.tgroup):
        specs = [c for c in tgroup.children if isinstance(c, nodes.colspec)]
        if not specs:
            continue
        chars = [0] * len(specs)
        for row in tgroup.findall(nodes.row):
            for k, entry in enumerate(row.children[:len(specs)]):
                chars[k] += len(entry.astext())
        total = sum(chars) or 1
        shares = [max(12, round(100 * c / total)) for c in chars]
        for spec, share in zip(specs, shares):
            spec["colwidth"] = share
    if "colwidths-given" not in table["classes"]:
        table["classes"].append("colwidths-given")
    if "colwidths-auto" in table["classes"]:
        table["classes"].remove("colwidths-auto")


class UnboxTables(SphinxPostTransform):
    default_priority = 190
    builders = ("latex",)

    def run(self, **kwargs):
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
        # a long table breaks across pages only as a longtable (equal column
        # widths); tabulary squeezes the narrow columns and runs off the page
        for table in self.document.findall(nodes.table):
            if len(table.astext()) > LONG_TABLE and "longtable" not in table["classes"]:
                table["classes"].append("longtable")
                set_widths(table)


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


MONO = r"""
\setmainfont{FreeSerif}[Extension=.otf, UprightFont=*, ItalicFont=*Italic,
  BoldFont=*Bold, BoldItalicFont=*BoldItalic]
\setsansfont{FreeSans}[Extension=.otf, UprightFont=*, ItalicFont=*Oblique,
  BoldFont=*Bold, BoldItalicFont=*BoldOblique]
\setmonofont{DejaVu Sans Mono}[Scale=MatchLowercase]
\newfontfamily\booksymbols{DejaVu Sans}[Scale=MatchLowercase]
"""
# symbols that no variant of the text fonts has
PREAMBLE = r"""
\usepackage{newunicodechar}
\newunicodechar{✗}{{\booksymbols ✗}}
\newunicodechar{✓}{{\booksymbols ✓}}
"""


def config_inited(app, config):
    elements = dict(config.latex_elements or {})
    elements.setdefault("figure_align", "H")
    elements.setdefault("fontpkg", MONO)
    elements["preamble"] = elements.get("preamble", "") + PREAMBLE
    # Sphinx's default index tool for xelatex is xindy, which Debian ships
    # apart (xindy package); makeindex comes with every TeX installation
    config.latex_use_xindy = False
    config.latex_elements = elements


def setup(app):
    app.connect("config-inited", config_inited)
    app.add_post_transform(TaggedMath)
    app.add_post_transform(UnboxTables)
    app.add_post_transform(ChapterNumbers)
    app.add_post_transform(ExerciseReferences)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
