"""Sphinx extension of the book: light pages that work offline.

Loaded through ``sphinx.local_extensions`` in ``_config.yml``.  It

* adds plotly.js (deferred) only to the pages that draw a plotly figure, and
  makes those figures wait for it (their inline ``Plotly.newPlot`` call runs
  on ``DOMContentLoaded``, after the deferred script);
* serves MathJax offline, but only what the pages use: the ``tex-chtml``
  component, its CHTML web fonts and the TeX extensions it may autoload
  (about 2 MB instead of the 24 MB that sphinx-mathjax-offline copies);
* drops the theme's fontawesome.js (1.5 MB of icons as JavaScript): the
  theme's stylesheet already draws the same icons from the Font Awesome web
  fonts;
* removes duplicate ``<script>`` tags.  Sphinx 7.4 registers a body-only
  script added after the builder started twice (once with filename ``None``,
  once with ``''``), so sphinx-thebe's ``const THEBE_JS_URL = ...`` ran twice
  on every page and threw "Identifier 'THEBE_JS_URL' has already been
  declared";
* makes the repository URL, configured once (``repository: url:`` in
  ``_config.yml``), available to the pages as ``{{ repository_url }}``,
  also inside code blocks;
* makes the pages accessible (WCAG 2.1 AA; ``make check-html`` audits every
  page with axe-core): every plotly figure gets a text description from its
  cell's alt text (``mystnb: image: alt:``), as a visually hidden paragraph
  before it, not as a ``role="img"`` wrapper, which would hide the
  explorers' controls from assistive technology; the explorers get
  keyboard controls and a live readout (``aukbook/static/explorers.js``);
  the bibliography's entries become list items of its list (docutils
  writes the deprecated ``doc-biblioentry`` role, which a ``list`` may not
  contain); empty table header cells (the corner of a pandas table) become
  data cells; the primary sidebar becomes a landmark, its expand/collapse
  toggles get a name;
  ``_static/a11y.css`` darkens links on tinted boxes and styles the controls;
* keeps figure text readable on a phone: every static PNG figure gets a
  ``min-width`` at which its 10 pt text is still 9 CSS px (from the PNG's
  own width and dpi), so a two-panel figure on a phone scrolls sideways in
  its box instead of shrinking its axis labels to 5 px; on a wider screen
  (at least 640 px of text column) nothing changes;
* resolves ``{numref}`` links faster: Sphinx 7.4 unpickles the whole
  target page's doctree for every numbered reference, to read the target's
  node type (171 references, 6 s of a 22 s build); the doctrees no longer
  change once they are read, so each one is unpickled once per build;
* registers the pybtex style ``authoryear``: the bibliography is sorted by
  author and year and labelled "Kaymak et al. 2012", matching the
  author-year citations in the text.
"""

import functools
import glob
import importlib.util
import os
import re
import shutil
import struct
from html import unescape

from pybtex.plugin import register_plugin
from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle

PLOTLY_JS = "plotly.min.js"
EXPLORERS_JS = "aukbook-explorers.js"   # from aukbook/static/explorers.js
MATHJAX_COMPONENT = "tex-chtml.js"
MATHJAX_FILES = [
    MATHJAX_COMPONENT,
    "output/chtml/fonts/woff-v2/*.woff",   # the CHTML output's fonts
    "input/tex/extensions/*.js",           # TeX packages autoloaded on first use
]
PLOTLY_CALL = re.compile(
    r"<script(?P<attrs>[^>]*)>(?P<code>\s*window\.PLOTLYENV=.*?Plotly\.newPlot\(.*?)</script>",
    re.S,
)


# -- bibliography -------------------------------------------------------------
def latex_to_text(text):
    """'Garc{\\'i}a' -> 'García' (pybtex keeps the LaTeX of the .bib file)."""
    import codecs

    import latexcodec  # noqa: F401  (registers the "ulatex" codec)

    return re.sub(r"[{}]", "", codecs.decode(text, "ulatex"))


def _last_names(persons):
    return [latex_to_text(" ".join(p.prelast_names + p.last_names)) for p in persons]


def author_year_label(entry):
    """'Cohen 1960', 'Hand and Till 2001', 'Kaymak et al. 2012'; title if no author."""
    persons = entry.persons.get("author") or entry.persons.get("editor") or []
    names = _last_names(persons)
    if not names:
        who = entry.fields.get("title", entry.key).split(":")[0]
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    who = latex_to_text(who).replace("--", "–")
    return f"{who} {entry.fields.get('year', 'n.d.')}"


class AuthorYearLabelStyle(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        seen = {}
        labels = [author_year_label(e) for e in sorted_entries]
        for label in labels:
            seen[label] = seen.get(label, 0) + 1
        suffix = {}
        for label in labels:
            if seen[label] > 1:         # Hand 2009a, Hand 2009b
                suffix[label] = suffix.get(label, 0) + 1
                yield label + "abcdefghijklmnopqrstuvwxyz"[suffix[label] - 1]
            else:
                yield label


class AuthorYearStyle(PlainStyle):
    default_label_style = "authoryear"
    default_sorting_style = "author_year_title"


register_plugin("pybtex.style.labels", "authoryear", AuthorYearLabelStyle)
register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)


# -- repository URL -------------------------------------------------------------
def repository_url(config):
    return (config.html_theme_options or {}).get("repository_url", "")


def substitute_repository(app, docname, source):
    url = repository_url(app.config)
    if url:
        source[0] = re.sub(r"\{\{\s*repository_url\s*\}\}", url, source[0])


# -- scripts --------------------------------------------------------------------
def _key(js):
    return (js.filename or "", js.priority, tuple(sorted(js.attributes.items())))


def page_context(app, pagename, templatename, context, doctree):
    body = readable_figures(accessible_body(context.get("body", "")), app)
    context["body"] = body
    if 'class="plotly-graph-div"' in body:
        app.add_js_file(PLOTLY_JS, loading_method="defer")
        app.add_js_file(EXPLORERS_JS, loading_method="defer")   # runs after plotly.js
        # plotly.js is deferred: run each figure's inline call once it has loaded
        context["body"] = PLOTLY_CALL.sub(
            lambda m: (f"<script{m.group('attrs')}>document.addEventListener("
                       f"'DOMContentLoaded', function () {{{m.group('code')}}});</script>"),
            body,
        )
    scripts = context.get("script_files")
    if isinstance(scripts, list):
        seen, unique = set(), []
        for js in scripts:
            if _key(js) not in seen:
                seen.add(_key(js))
                unique.append(js)
        scripts[:] = unique


# -- accessibility --------------------------------------------------------------
# what aukbook.plotting.PlotlyFigure(alt=...) wrote before it stopped using role="img"
IMG_WRAPPER = re.compile(
    r'^\s*<div role="img" aria-label="[^"]*">\s*<p id="[^"]*" style="[^"]*">(?P<text>.*?)</p>'
    r'(?P<inner>.*)</div>\s*$', re.S)
PLOTLY_ID = re.compile(r'<div id="(?P<id>[^"]+)" class="plotly-graph-div"')
# an empty header cell, also docutils' <th class="head"><p></p></th>
EMPTY_TH = re.compile(r"<th(?P<attrs>(?:\s[^>]*)?)>(?:\s|&nbsp;|&#160;|<p>\s*</p>)*</th>")


def describe_figure(html, alt=None):
    """A plotly figure's HTML with its text description before it, visible to
    screen readers only; the figure and its controls stay as they are.

    ``html`` is a plotly output, bare or inside the ``role="img"`` wrapper
    that aukbook's PlotlyFigure wrote before (its text is kept when there is
    no ``alt``).  Returns it unchanged when it already has a description
    (PlotlyFigure's output now) or when there is no text at all.
    """
    from aukbook.plotting import described_figure_html

    if 'class="aukbook-figure"' in html:
        return html
    m = IMG_WRAPPER.match(html)
    if m:
        html, alt = m.group("inner"), alt or unescape(m.group("text"))
    if not alt:
        return html
    div = PLOTLY_ID.search(html)
    return described_figure_html(html, div.group("id") if div else "figure", alt)


def describe_plotly_figures(app, doctree, docname):
    """Give every plotly output the alt text of its notebook cell (a plotly
    figure is not an <img>, so myst-nb drops ``mystnb: image: alt:``)."""
    from docutils import nodes

    for raw in list(doctree.findall(nodes.raw)):
        text = raw.astext()
        if "plotly-graph-div" not in text or "html" not in raw.get("format", ""):
            continue
        cell, alt = raw.parent, None
        while cell is not None and "cell_metadata" not in cell.attributes:
            cell = cell.parent
        if cell is not None:
            alt = (cell["cell_metadata"].get("mystnb", {}).get("image", {}) or {}).get("alt")
        new = describe_figure(text, alt)
        if new != text:
            raw.replace_self(nodes.raw(new, new, format=raw["format"], classes=raw["classes"]))


def accessible_body(body):
    """The fixes to a page's body that axe-core asks for (see the module docstring)."""
    body = body.replace('role="doc-biblioentry"', 'role="listitem"')
    return EMPTY_TH.sub(lambda m: f"<td{m.group('attrs')}></td>", body)


# the sidebar's expand/collapse toggle of an entry with sub-pages is an icon only
TOC_TOGGLE = '<summary><span class="toctree-toggle" role="presentation">'
TOC_TOGGLE_NAMED = ('<summary aria-label="Show or hide the pages under this entry">'
                    '<span class="toctree-toggle" role="presentation">')
SIDEBAR = '<div id="pst-primary-sidebar" class="bd-sidebar-primary bd-sidebar">'
SIDEBAR_LANDMARK = ('<div id="pst-primary-sidebar" class="bd-sidebar-primary bd-sidebar" '
                    'role="complementary" aria-label="Book contents">')


# -- figures on a phone ----------------------------------------------------------
FIGURE_TEXT_PT = 10      # matplotlib's default font size, in points
MIN_TEXT_PX = 9          # the smallest figure text a reader should get, CSS px
PNG_IMG = re.compile(r'<img (?P<attrs>[^>]*?)src="(?P<src>[^"]*?_images/(?P<name>[^"/]+\.png))"')


def png_size_dpi(path):
    """(width in pixels, dpi or None) from a PNG's header and pHYs chunk."""
    with open(path, "rb") as fh:
        data = fh.read(1 << 16)
    width = struct.unpack(">I", data[16:20])[0]
    i = 8
    while i + 8 <= len(data):
        size, kind = struct.unpack(">I", data[i:i + 4])[0], data[i + 4:i + 8]
        if kind == b"pHYs":
            ppx, _, unit = struct.unpack(">IIB", data[i + 8:i + 17])
            return width, (ppx * 0.0254 if unit == 1 else None)
        if kind == b"IDAT":
            break
        i += 12 + size
    return width, None


def readable_width(path):
    """The width (CSS px) below which the figure's 10 pt text drops under 9 px."""
    width, dpi = png_size_dpi(path)
    if not dpi:
        return None
    return round(width * MIN_TEXT_PX / (FIGURE_TEXT_PT * dpi / 72))


def readable_figures(body, app=None):
    """Each PNG figure of ``body`` with a ``min-width`` (see the module docstring)."""
    if not getattr(getattr(app, "builder", None), "images", None):
        return body
    source = {dest: src for src, dest in app.builder.images.items()}

    def add(m):
        src = source.get(m.group("name"))
        path = src and os.path.join(app.srcdir, src)
        if not path or not os.path.exists(path) or "style=" in m.group("attrs"):
            return m.group(0)
        width = readable_width(path)
        if not width:
            return m.group(0)
        return f'<img {m.group("attrs")}style="min-width: {width}px" src="{m.group("src")}"'

    return PNG_IMG.sub(add, body)


# -- MathJax --------------------------------------------------------------------
def mathjax_source():
    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("book_html: the package sphinx-mathjax-offline is not installed")
    return os.path.join(list(spec.submodule_search_locations)[0], "static", "mathjax")


def config_inited(app, config):
    config.mathjax_path = "mathjax/" + MATHJAX_COMPONENT


def copy_mathjax(app, exc):
    if exc is not None or app.builder.format != "html":
        return
    src = mathjax_source()
    dest = os.path.join(app.outdir, "_static", "mathjax")
    shutil.rmtree(dest, ignore_errors=True)
    for pattern in MATHJAX_FILES:
        matches = glob.glob(os.path.join(src, pattern))
        if not matches:
            raise RuntimeError(f"book_html: no MathJax file matches {pattern} in {src}")
        for path in matches:
            target = os.path.join(dest, os.path.relpath(path, src))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(path, target)


def copy_plotly(app):
    """Put plotly.js into the output's _static, from the installed plotly package.

    Not in the source _static/: jupyter-book adds every .js file found there
    to every page.
    """
    if app.builder.format != "html":
        return
    import plotly

    src = os.path.join(os.path.dirname(plotly.__file__), "package_data", PLOTLY_JS)
    os.makedirs(os.path.join(app.outdir, "_static"), exist_ok=True)
    shutil.copyfile(src, os.path.join(app.outdir, "_static", PLOTLY_JS))
    import aukbook

    src = os.path.join(os.path.dirname(aukbook.__file__), "static", "explorers.js")
    shutil.copyfile(src, os.path.join(app.outdir, "_static", EXPLORERS_JS))


FONTAWESOME_TAG = re.compile(r'[ \t]*<script[^>]*src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>\n?')


def drop_fontawesome_js(app, exc):
    """Remove the theme's fontawesome.js from every page (a template tag, not a
    registered script, so html-page-context cannot see it) and from _static;
    make the primary sidebar (a template's plain div) a landmark and name
    its icon-only expand/collapse toggles."""
    if exc is not None or app.builder.format != "html":
        return
    for root, _dirs, files in os.walk(app.outdir):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                new = (FONTAWESOME_TAG.sub("", text).replace(SIDEBAR, SIDEBAR_LANDMARK)
                       .replace(TOC_TOGGLE, TOC_TOGGLE_NAMED))
                if new != text:
                    with open(path, "w", encoding="utf-8") as fh:
                        fh.write(new)
    for path in glob.glob(os.path.join(app.outdir, "_static", "scripts", "fontawesome.js*")):
        os.remove(path)


_NUMREF_DOCTREES = {}     # docname -> doctree, for numref targets; one build


def clear_numref_doctrees(app, env):
    # env-updated: every page has been read; the doctrees are final from here
    _NUMREF_DOCTREES.clear()


def numref_with_cached_doctrees(resolve):
    """Wrap StandardDomain._resolve_numref_xref to unpickle each target page once.

    The resolver only reads the target node (its type and ids) from the
    doctree it loads, so sharing one loaded copy changes nothing it returns.
    """
    if getattr(resolve, "aukbook_cached", False):
        return resolve

    @functools.wraps(resolve)
    def wrapper(self, env, *args, **kwargs):
        load = env.get_doctree

        def get_doctree(docname):
            if docname not in _NUMREF_DOCTREES:
                _NUMREF_DOCTREES[docname] = load(docname)
            return _NUMREF_DOCTREES[docname]

        env.get_doctree = get_doctree
        try:
            return resolve(self, env, *args, **kwargs)
        finally:
            del env.get_doctree

    wrapper.aukbook_cached = True
    return wrapper


def setup(app):
    from sphinx.domains.std import StandardDomain

    StandardDomain._resolve_numref_xref = numref_with_cached_doctrees(
        StandardDomain._resolve_numref_xref)
    app.connect("env-updated", clear_numref_doctrees)
    app.connect("builder-inited", copy_plotly)
    app.connect("config-inited", config_inited)
    app.connect("source-read", substitute_repository)
    app.connect("doctree-resolved", describe_plotly_figures)
    app.connect("html-page-context", page_context, priority=900)
    app.connect("build-finished", copy_mathjax)
    app.connect("build-finished", drop_fontawesome_js)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
