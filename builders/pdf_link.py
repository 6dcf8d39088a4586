"""Sphinx extension: link every HTML page to the edition's downloads (the PDF).

`make pdf` writes _build/pdf/book.pdf (builders/build_pdf.py).  When that file
exists at the time of the HTML build, this extension copies it to the HTML
output as _static/book.pdf and puts a "PDF edition" link at the foot of every
page's text; without it the pages carry no link, so no link is ever broken.

What is offered is the config value ``edition_downloads``, a list of
``[path, link text]`` pairs (a relative path is taken from the source
folder); by default the instructor's PDF.  The student edition
(course/make_student.py) offers its own PDF, _build/pdf/book-student.pdf,
and the student notebooks' zip instead, never the instructor's PDF.
"""

import os
import shutil

PDF = os.path.join("_build", "pdf", "book.pdf")
DEFAULT = [[PDF, "Download the whole book as a PDF"]]


def _downloads(app):
    """[(absolute path, link text)] of the configured files that exist."""
    found = []
    for path, text in app.config.edition_downloads:
        full = path if os.path.isabs(path) else os.path.join(app.srcdir, path)
        if os.path.exists(full):
            found.append((full, text))
    return found


def page_context(app, pagename, templatename, context, doctree):
    if app.builder.format != "html" or "body" not in context:
        return
    for path, text in _downloads(app):
        href = context["pathto"]("_static/" + os.path.basename(path), 1)
        context["body"] += (f'<p class="pdf-edition"><a href="{href}" download>'
                            f"{text}</a></p>")


def copy_downloads(app, exc):
    if exc is not None or app.builder.format != "html":
        return
    for path, _text in _downloads(app):
        dest = os.path.join(app.outdir, "_static")
        os.makedirs(dest, exist_ok=True)
        shutil.copyfile(path, os.path.join(dest, os.path.basename(path)))


def setup(app):
    app.add_config_value("edition_downloads", DEFAULT, "html")
    app.connect("html-page-context", page_context)
    app.connect("build-finished", copy_downloads)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
