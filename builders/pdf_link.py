"""Sphinx extension: link every HTML page to the PDF edition.

`make pdf` writes _build/pdf/book.pdf (builders/build_pdf.py).  When that file
exists at the time of the HTML build, this extension copies it to the HTML
output as _static/book.pdf and puts a "PDF edition" link at the foot of every
page's text; without it the pages carry no link, so no link is ever broken.
"""

import os
import shutil

PDF = os.path.join("_build", "pdf", "book.pdf")


def _pdf_path(app):
    return os.path.join(app.srcdir, PDF)


def page_context(app, pagename, templatename, context, doctree):
    if app.builder.format != "html" or not os.path.exists(_pdf_path(app)):
        return
    if "body" not in context:
        return
    href = context["pathto"]("_static/book.pdf", 1)
    context["body"] += (f'<p class="pdf-edition"><a href="{href}" download>'
                        "Download the whole book as a PDF</a></p>")


def copy_pdf(app, exc):
    if exc is not None or app.builder.format != "html" or not os.path.exists(_pdf_path(app)):
        return
    dest = os.path.join(app.outdir, "_static")
    os.makedirs(dest, exist_ok=True)
    shutil.copyfile(_pdf_path(app), os.path.join(dest, "book.pdf"))


def setup(app):
    app.connect("html-page-context", page_context)
    app.connect("build-finished", copy_pdf)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
