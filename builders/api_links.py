"""Sphinx extension of the book: the API reference of auklib, and links to it.

Loaded through ``sphinx.local_extensions`` in ``_config.yml``.  It

* writes one page per public name of auklib (``auklib.__all__``), and one
  per public name of the optional ``auklib.dask`` (pages ``dask.<name>``), into
  ``chapters/api/generated/`` when Sphinx starts, before the table of
  contents is read (``_toc.yml`` takes them with a glob), and removes the
  pages of names that left ``__all__``.  A page holds ``autofunction``,
  ``autoclass`` or ``autoexception``; the text comes from the docstring,
  read by napoleon (numpydoc sections) with its runnable Examples.  A name
  added to ``__all__`` gets its page without any edit here;
* offers the directive ``auklib-api-summary``: autosummary's table (name and
  first line of the docstring) over the same ``__all__`` (or, given the
  argument ``auklib.dask``, over ``auklib.dask.__all__``), for
  ``chapters/api/index.rst``;
* turns the numbered references of the docstrings (``.. [1] ...``, numpydoc
  style) into an enumerated list, so that the pages need no footnote
  references (docutils warns about unreferenced footnotes);
* links, on every other page, the first inline-code mention of each public
  name (``kappa_curve``, ``auklib.kappa_curve``, ``kappa_curve(y, s)``,
  ``KappaCurveDisplay.from_predictions``, ``auklib.dask.auk_score``) to its
  API page, so that no chapter needs editing.  Code cells are left alone.
"""

import os
import re

from docutils import nodes
from docutils.statemachine import StringList

API_DOC = "chapters/api/index"
GENERATED = "chapters/api/generated"
MODULE = "auklib"
DASK = "dask"  # the optional submodule auklib.dask: pages dask.<name>


def public_names():
    import auklib

    return list(auklib.__all__)


def dask_names():
    """The public names of auklib.dask (none when Dask is not installed)."""
    try:
        import auklib.dask as module
    except ImportError:
        return []
    return list(module.__all__)


def page_names():
    """Every API page: auklib's names, then ``dask.<name>`` for auklib.dask's."""
    return public_names() + [f"{DASK}.{name}" for name in dask_names()]


def _module_and_name(page):
    if page.startswith(DASK + "."):
        return f"{MODULE}.{DASK}", page[len(DASK) + 1:]
    return MODULE, page


def _directive(obj):
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return "autoexception", []
    if isinstance(obj, type) and issubclass(obj, tuple) and hasattr(obj, "_fields"):
        # a namedtuple: its docstring lists the fields; autodoc's own field
        # entries would only say "Alias for field number 0"
        return "autoclass", []
    if isinstance(obj, type):
        return "autoclass", [":members:"]
    return "autofunction", []


def page_text(page):
    """The reST source of the API page of ``auklib.<page>``."""
    import importlib

    module, name = _module_and_name(page)
    directive, options = _directive(getattr(importlib.import_module(module), name))
    lines = [
        f".. This page is written by builders/api_links.py from {module}.__all__;",
        "   edits here are overwritten.",
        "",
        page,
        "=" * len(page),
        "",
        f".. currentmodule:: {module}",
        "",
        f".. {directive}:: {name}",
    ]
    lines += [f"   {opt}" for opt in options]
    return "\n".join(lines) + "\n"


def write_pages(srcdir):
    """Write (only if changed) one page per public name; drop stale pages."""
    folder = os.path.join(srcdir, *GENERATED.split("/"))
    os.makedirs(folder, exist_ok=True)
    names = page_names()
    wanted = {f"{name}.rst" for name in names}
    for entry in os.listdir(folder):
        if entry.endswith(".rst") and entry not in wanted:
            os.remove(os.path.join(folder, entry))
    for name in names:
        path = os.path.join(folder, f"{name}.rst")
        _write_if_changed(path, page_text(name))
    return names


def _write_if_changed(path, text):
    """Write ``text`` to ``path`` unless it already holds it (Sphinx then
    keeps the page's cached build)."""
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            old = fh.read()
    if old != text:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def _on_config_inited(app, config):
    write_pages(app.srcdir)
    write_helpers_page(app.srcdir)


# -- the summary table -----------------------------------------------------------
def _summary_directive():
    from sphinx.ext.autosummary import Autosummary

    class AukApiSummary(Autosummary):
        """autosummary over ``auklib.__all__`` (or ``auklib.dask.__all__`` with the
        argument ``auklib.dask``); the page sets the matching ``currentmodule``."""

        has_content = False
        required_arguments = 0
        optional_arguments = 1

        def get_items(self, names):
            # autosummary cuts the summary at the first ". " ("..., eq." of
            # "eq. (21)"): show the docstring's whole summary line instead
            return [(name, sig, summary_line(real_name) or summary, real_name)
                    for name, sig, summary, real_name in super().get_items(names)]

        def run(self):
            dask = self.arguments[:1] == [f"{MODULE}.{DASK}"]
            self.content = StringList(
                dask_names() if dask else list(public_names()),
                source=f"{MODULE}.{DASK}.__all__" if dask else "auklib.__all__",
            )
            return super().run()

    return AukApiSummary


def summary_line(real_name):
    """The first paragraph of the docstring of ``real_name`` ('auklib.auk_score'),
    on one line: the summary line of a numpydoc docstring, whole."""
    import importlib
    import inspect

    module, _, name = real_name.rpartition(".")
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        return ""
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


# -- the book's helpers: aukbook -------------------------------------------------
HELPERS_DOC = "chapters/api/aukbook"


def book_helpers(chapters):
    """{module: [names]} that the chapters' code cells import from ``aukbook``
    (``from aukbook.plotting import binormal_roc``), in the order of the modules'
    names and of the names within a module."""
    import ast
    import glob
    import json

    found = {}
    for path in sorted(glob.glob(os.path.join(chapters, "*.ipynb"))):
        with open(path, encoding="utf-8") as fh:
            cells = json.load(fh)["cells"]
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "\n".join(line for line in "".join(cell["source"]).splitlines()
                               if not line.lstrip().startswith(("%", "!")))
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if (isinstance(node, ast.ImportFrom) and node.module
                        and node.module.split(".")[0] == "aukbook"):
                    found.setdefault(node.module, set()).update(a.name for a in node.names)
    return {module: sorted(found[module]) for module in sorted(found)}


# helpers no chapter imports but the documented ones refer to (:func:`describe`)
HELPERS_ALSO = {"aukbook.checks": ["describe"], "aukbook.plotting": ["described_figure_html"]}


def _helper_lines(name, obj):
    if isinstance(obj, type):
        return [f".. autoclass:: {name}", "   :members:"]
    if callable(obj):
        return [f".. autofunction:: {name}"]
    # a constant: autodata would show the docstring of its type (dict's, list's)
    return [f".. py:data:: {name}", "",
            f"   A constant of the module (a ``{type(obj).__name__}``); its value is in"
            " the module's source."]


def helpers_text(helpers):
    """The reST of the reference page of the ``aukbook`` helpers."""
    import importlib

    title = "The book's helpers: aukbook"
    lines = [
        ".. This page is written by builders/api_links.py from the chapters' imports;",
        "   edits here are overwritten.",
        "",
        title,
        "=" * len(title),
        "",
        "``aukbook`` (``bookkit/aukbook/``) holds what the chapters share besides the",
        "metrics: the case studies' data sets and models, the figures, the stored",
        "simulation results and the exercises' self-checks.  It is installed with the",
        "book and ships with the student notebooks, but it is not part of ``auklib``:",
        "its functions serve the book and may change with it.  This page lists every",
        "name a chapter imports from it, module by module, with its docstring.",
        "",
    ]
    for module, names in helpers.items():
        lines += [module, "-" * len(module), ""]
        mod = importlib.import_module(module)
        first = " ".join((mod.__doc__ or "").split("\n\n", 1)[0].split())
        if first:
            lines += [first, ""]
        lines += [f".. currentmodule:: {module}", ""]
        for name in sorted(set(names) | set(HELPERS_ALSO.get(module, []))):
            lines += _helper_lines(name, getattr(mod, name)) + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def write_helpers_page(srcdir):
    path = os.path.join(srcdir, *HELPERS_DOC.split("/")) + ".rst"
    text = helpers_text(book_helpers(os.path.join(srcdir, "chapters")))
    _write_if_changed(path, text)
    return text


# -- numbered references ---------------------------------------------------------
REFERENCE = re.compile(r"^(\s*)\.\. \[(\d+)\] (.*)$")


def _on_process_docstring(app, what, name, obj, options, lines):
    """``.. [1] text`` -> ``1. text`` (the continuation lines already align)."""
    for i, line in enumerate(lines):
        m = REFERENCE.match(line)
        if m:
            indent, number, text = m.groups()
            lines[i] = f"{indent}{number}. {text}"
            # the continuation of ``.. [1] `` is indented 3 spaces, as ``1. `` needs
            width = len(number) + 2
            j = i + 1
            while j < len(lines) and lines[j].startswith(indent + "   ") and lines[j].strip():
                lines[j] = indent + " " * width + lines[j][len(indent) + 3:]
                j += 1


# -- links from the chapters -------------------------------------------------------
MENTION = re.compile(
    r"^(?:auklib\.)?(?P<name>[A-Za-z_]\w*)(?P<attr>\.[A-Za-z_]\w*)?(?:\(.*\))?$", re.S
)


def _on_doctree_resolved(app, doctree, docname):
    if docname in (API_DOC, HELPERS_DOC) or docname.startswith(GENERATED + "/"):
        return
    if app.builder.format != "html":
        return
    names = set(public_names())
    dask = set(dask_names())
    env = app.builder.env
    linked = set()
    for literal in list(doctree.findall(nodes.literal)):
        if isinstance(literal.parent, (nodes.reference, nodes.literal_block)):
            continue
        if any(isinstance(a, (nodes.reference, nodes.title, nodes.literal_block))
               for a in _ancestors(literal)):
            continue
        m = MENTION.match(literal.astext().strip())
        if not m:
            continue
        name, attr = m.group("name"), m.group("attr") or ""
        if name == DASK and attr[1:] in dask:  # auklib.dask.<name>
            name, attr = f"{DASK}{attr}", ""
        elif name not in names and name in dask and not attr:
            # a name only auklib.dask has; written bare, a name scikit-learn's
            # metrics share (roc_auc_score) means scikit-learn's
            if name in _sklearn_metric_names():
                continue
            name = f"{DASK}.{name}"
        elif name not in names:
            continue
        target = f"{GENERATED}/{name}"
        if name in linked or target not in env.all_docs:
            continue
        anchor = f"{MODULE}.{name}{attr}"
        uri = app.builder.get_relative_uri(docname, target) + "#" + anchor
        ref = nodes.reference("", "", internal=True, refuri=uri,
                              reftitle=f"API reference: {MODULE}.{name}")
        ref["classes"].append("api-link")
        literal.replace_self(ref)
        ref.append(literal)
        linked.add(name)


def _sklearn_metric_names():
    """Public names of sklearn.metrics (empty without scikit-learn)."""
    try:
        import sklearn.metrics
    except ImportError:
        return set()
    return set(getattr(sklearn.metrics, "__all__", dir(sklearn.metrics)))


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.autosummary")
    app.setup_extension("sphinx.ext.napoleon")
    # before sphinx_external_toc (priority 900) reads _toc.yml and its globs
    app.connect("config-inited", _on_config_inited, priority=100)
    app.connect("autodoc-process-docstring", _on_process_docstring, priority=600)
    app.connect("doctree-resolved", _on_doctree_resolved)
    app.add_directive("auklib-api-summary", _summary_directive())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
