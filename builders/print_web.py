"""Sphinx extension: text for the screen and text for print.

A page that talks about its interactive figures ("move the slider", "hover
over a line", "the folded cell") is wrong on paper, where the figure is a
still image of its starting state and folded code is left out.  Two roles
give such a phrase its two versions, side by side in the source:

    {web}`Move the slider: the class share changes`{print}`At p = 0.1, the
    class share changes` ...

* ``{web}`...``` is kept in every edition but the PDF (the HTML books, the
  student notebooks);
* ``{print}`...``` only in the PDF (Sphinx's LaTeX builder).

The content is MyST (maths, references, emphasis), in captions too.  Each
role becomes Sphinx's ``only`` node (``not latex`` / ``latex``), which
Sphinx resolves for the builder at hand, so the other version reaches
neither the page nor the search index.  Block-level text uses Sphinx's own
directive, ```` ```{only} latex ````.  The student notebooks
(course/myst_markdown.py) keep the web version, as does the reading-time
count (course/course_metrics.py); checks/check_pdf.py fails if a web phrase
reaches the PDF.
"""

from sphinx import addnodes

WEB, PRINT = "not latex", "latex"


def _role(expr):
    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        node = addnodes.only(expr=expr)
        try:
            memo = inliner.memo           # docutils' inliner (reStructuredText)
        except Exception:                 # MyST's mock inliner has none and needs none
            memo = None
        children, messages = inliner.parse(text, lineno, memo, node)
        node += children
        return [node], messages

    return role


def setup(app):
    app.add_role("web", _role(WEB))
    app.add_role("print", _role(PRINT))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
