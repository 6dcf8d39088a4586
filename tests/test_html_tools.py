"""The book's Sphinx extension (builders/book_html.py) and the HTML checker (checks/check_html.py).

The checker is tested on small hand-made pages, each with one fault it must
report, in the same headless Chromium that `make check-html` uses.
"""

import os
import re
import sys

import pytest
import yaml
from pybtex.database import Entry, Person

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import book_html  # noqa: E402
from browser import chromium  # noqa: E402


def entry(authors, year="2001", title="A title"):
    e = Entry("article", fields={"title": title, **({"year": year} if year else {})})
    for a in authors:
        e.add_person(Person(a), "author")
    return e


@pytest.mark.parametrize("authors, expected", [
    (["Cohen, Jacob"], "Cohen 2001"),
    (["Hand, David J.", "Till, Robert J."], "Hand and Till 2001"),
    (["Kaymak, Uzay", "Ben-David, Arie", "Potharst, Rob"], "Kaymak et al. 2001"),
    (["Garc{\\'i}a, Salvador", "Herrera, F.", "Luengo, J."], "García et al. 2001"),
])
def test_author_year_label(authors, expected):
    assert book_html.author_year_label(entry(authors)) == expected


def test_label_without_author_or_year():
    assert book_html.author_year_label(entry([], year=None, title="{AUK} -- a post: sub")) \
        == "AUK – a post n.d."


def test_equal_labels_get_letters():
    style = book_html.AuthorYearLabelStyle()
    labels = list(style.format_labels([entry(["Hand, D."]), entry(["Hand, D."]),
                                       entry(["Cohen, J."])]))
    assert labels == ["Hand 2001a", "Hand 2001b", "Cohen 2001"]


class FakeApp:
    def __init__(self, context):
        self.context = context

    def add_js_file(self, filename, loading_method=None, **kw):
        from sphinx.builders.html._assets import _JavaScript
        if loading_method:
            kw[loading_method] = loading_method
        self.context["script_files"].append(_JavaScript("_static/" + filename, **kw))


def test_page_context_adds_deferred_plotly_and_removes_duplicates():
    from sphinx.builders.html._assets import _JavaScript
    body = ('<div id="f" class="plotly-graph-div"></div><script type="text/javascript">'
            ' window.PLOTLYENV=window.PLOTLYENV || {}; if (document.getElementById("f")) '
            '{ Plotly.newPlot("f", [], {}) };</script>')
    scripts = [_JavaScript(None, body="const A = 1", priority=500),
               _JavaScript("", body="const A = 1", priority=500),
               _JavaScript("_static/x.js", priority=500)]
    context = {"body": body, "script_files": scripts}
    book_html.page_context(FakeApp(context), "p", "page.html", context, None)
    names = [(js.filename, js.attributes.get("body")) for js in context["script_files"]]
    assert names.count((None, "const A = 1")) + names.count(("", "const A = 1")) == 1
    plotly = [js for js in context["script_files"] if (js.filename or "").endswith("plotly.min.js")]
    assert len(plotly) == 1 and plotly[0].attributes.get("defer") == "defer"
    assert "document.addEventListener('DOMContentLoaded', function () {" in context["body"]
    assert context["body"].count("Plotly.newPlot") == 1


def test_page_without_plotly_gets_no_plotly():
    context = {"body": "<p>no figure</p>", "script_files": []}
    book_html.page_context(FakeApp(context), "p", "page.html", context, None)
    assert context["script_files"] == [] and context["body"] == "<p>no figure</p>"


def test_repository_configured_once():
    with open(os.path.join(ROOT, "_config.yml")) as fh:
        config = yaml.safe_load(fh)
    url = config["repository"]["url"]
    assert url.startswith("https://github.com/") and config["html"]["use_repository_button"]
    course = open(os.path.join(ROOT, "chapters", "course.md")).read()
    assert "{{ repository_url }}" in course and url not in course
    assert url in open(os.path.join(ROOT, "README.md")).read()


# -- the checker on pages with one fault each ---------------------------------------
needs_chromium = pytest.mark.skipif(chromium() is None, reason="Debian's chromium is not installed")

# the book's pages name the device's width as their layout width (a phone
# without it lays a page out 980 px wide and shrinks it); the 390 px check
# emulates a phone
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">{head}</head>
<body><p>A page.</p>{body}</body></html>"""


@pytest.fixture(scope="module")
def browser():
    if chromium() is None:
        pytest.skip("Debian's chromium is not installed")
    from browser import Browser
    with Browser() as b:
        yield b


def page(tmp_path, name, head="", body=""):
    (tmp_path / "chapters").mkdir(exist_ok=True)
    path = tmp_path / "chapters" / name
    path.write_text(PAGE.format(head=head, body=body))
    return str(path)


@needs_chromium
def test_checker_passes_a_clean_page(browser, tmp_path):
    from check_html import check_page
    problems, stats = check_page(browser, page(tmp_path, "ok.html"), 2.5, None)
    assert problems == [] and stats["core_mb"] < 0.01


@needs_chromium
def test_checker_reports_console_errors(browser, tmp_path):
    from check_html import check_page
    twice = "<script>const THEBE_JS_URL = 1;</script><script>const THEBE_JS_URL = 1;</script>"
    problems, _ = check_page(browser, page(tmp_path, "dup.html", head=twice), 2.5, None)
    assert any("THEBE_JS_URL" in p and "already been declared" in p for p in problems)
    logged = "<script>console.error('broken widget')</script>"
    problems, _ = check_page(browser, page(tmp_path, "log.html", body=logged), 2.5, None)
    assert any("broken widget" in p for p in problems)
    # errors raised after the load event, by a timer or a web font that fails,
    # arrive before the check stops listening
    late = ("<script>addEventListener('load', () => setTimeout(() => {"
            " throw new Error('late failure'); }, 0));</script>")
    problems, _ = check_page(browser, page(tmp_path, "late.html", body=late), 2.5, None)
    assert any("late failure" in p for p in problems), problems
    font = ("<style>@font-face { font-family: Gone; src: url(gone.woff2); }"
            " p { font-family: Gone; }</style><p>Text in a missing font.</p>")
    problems, _ = check_page(browser, page(tmp_path, "font.html", body=font), 2.5, None)
    assert any("gone.woff2" in p for p in problems), problems


@needs_chromium
def test_checker_reports_missing_files_and_network(browser, tmp_path):
    from check_html import check_page
    head = '<script src="../_static/missing.js"></script>'
    problems, _ = check_page(browser, page(tmp_path, "missing.html", head=head), 2.5, None)
    assert any("missing.js" in p for p in problems)
    head = '<script src="https://unpkg.com/thebe@0.8.2/lib/index.js"></script>'
    problems, _ = check_page(browser, page(tmp_path, "net.html", head=head), 2.5, None)
    assert any("network" in p for p in problems)


@needs_chromium
def test_checker_reports_weight_and_plotly_where_not_drawn(browser, tmp_path):
    from check_html import check_page
    static = tmp_path / "_static"
    static.mkdir()
    (static / "plotly.min.js").write_text("var Plotly = {};\n" + "//" + "x" * 300_000 + "\n")
    head = '<script defer src="../_static/plotly.min.js"></script>'
    problems, stats = check_page(browser, page(tmp_path, "heavy.html", head=head), 0.2, None)
    assert any("loads plotly.js but draws no plotly figure" in p for p in problems)
    assert any("weighs 0.30 MB" in p for p in problems)
    assert stats["plotly_js"]
    body = '<div id="f" class="plotly-graph-div"></div>'
    problems, _ = check_page(browser, page(tmp_path, "undrawn.html", body=body), 2.5, None)
    assert "has a plotly figure but does not load plotly.js" in problems
    assert any("not drawn" in p for p in problems)


# -- accessibility: the build-time fixes ----------------------------------------------
OLD_WRAPPER = ('<div role="img" aria-label="Two curves"><p id="f-alt" style="position:absolute;">'
               'Two curves &amp; a slider</p><div>  <div id="f" class="plotly-graph-div" '
               'style="height:100%"></div></div></div>')


def test_describe_figure_replaces_the_role_img_wrapper():
    html = book_html.describe_figure(OLD_WRAPPER)
    assert 'role="img"' not in html and html.startswith('<div class="aukbook-figure">')
    assert '<p id="f-desc" class="aukbook-figure-desc"' in html
    assert "Interactive figure. Two curves &amp; a slider</p><div>" in html
    assert book_html.describe_figure(html) == html           # already described
    assert "the cell's text" in book_html.describe_figure(OLD_WRAPPER, "the cell's text")


def test_describe_figure_uses_the_cells_alt_text():
    bare = '<div>  <div id="g" class="plotly-graph-div"></div></div>'
    assert book_html.describe_figure(bare) == bare            # nothing to say
    html = book_html.describe_figure(bare, "A <b>plot</b>")
    assert 'id="g-desc"' in html and "A &lt;b&gt;plot&lt;/b&gt;" in html and bare in html


def test_accessible_body():
    body = ('<div role="list" class="citation-list"><div class="citation" role="doc-biblioentry">'
            '</div></div><table><thead><tr><th></th><th class="blank level0" >&nbsp;</th>'
            '<th class="head"><p></p></th><th>a</th><th class="head"><p>b</p></th></tr></thead>')
    out = book_html.accessible_body(body)
    assert 'role="listitem"' in out and "doc-biblioentry" not in out
    assert len(re.findall(r"<th[ >]", out)) == 2 and "<th>a</th>" in out and "<p>b</p></th>" in out
    assert '<td></td><td class="blank level0" ></td><td class="head"></td>' in out


# -- accessibility: the audit, the explorers' keyboard test, the 390 px check -------
needs_axe = pytest.mark.skipif(not os.path.isfile(os.path.join(ROOT, "node_modules", "axe-core",
                                                               "axe.min.js")),
                               reason="axe-core is not installed (npm ci)")


def full_page(tmp_path, name, body):
    path = tmp_path / name
    path.write_text('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
                    f'<title>t</title></head><body>{body}</body></html>')
    return "file://" + str(path)


@needs_chromium
@needs_axe
def test_audit_passes_a_clean_page_and_reports_violations(browser, tmp_path):
    from check_html import audit, load_allow
    browser.visit(full_page(tmp_path, "clean.html", "<main><h1>Title</h1><p>Text.</p></main>"))
    problems, violations = audit(browser, load_allow())
    assert problems == [] and violations == []
    bad = ('<main><h1>Title</h1><div role="img" aria-label="a figure"><button>move</button></div>'
           '<p style="color:#176de8;background:#ecf3ff">(11)</p></main>')
    browser.visit(full_page(tmp_path, "bad.html", bad))
    problems, violations = audit(browser, {})
    rules = {v["id"]: v["impact"] for v in violations}
    assert rules.get("nested-interactive") == "serious"
    assert rules.get("color-contrast") == "serious"
    assert any("nested-interactive" in p for p in problems)
    minor = ('<main><h1>T</h1><table><tr><th></th><th>a</th></tr><tr><td>1</td><td>2</td></tr>'
             '</table></main>')
    browser.visit(full_page(tmp_path, "minor.html", minor))
    problems, violations = audit(browser, {})
    assert [v["impact"] for v in violations] == ["minor"] and problems     # not kept: fails
    problems, _ = audit(browser, {"empty-table-header": "a reason"})
    assert problems == []                                                  # kept, with a reason


def explorer_page(tmp_path, name, fig, alt="Two panels and sliders.", script=True):
    import aukbook
    import plotly

    from aukbook.plotting import PlotlyFigure

    static = tmp_path / "_static"
    static.mkdir(exist_ok=True)
    for src, dest in ((os.path.join(os.path.dirname(plotly.__file__), "package_data",
                                    "plotly.min.js"), "plotly.min.js"),
                      (os.path.join(os.path.dirname(aukbook.__file__), "static", "explorers.js"),
                       book_html.EXPLORERS_JS)):
        if not (static / dest).exists():
            (static / dest).write_bytes(open(src, "rb").read())
    head = '<script src="../_static/plotly.min.js"></script>'
    if script:
        head += f'<script src="../_static/{book_html.EXPLORERS_JS}"></script>'
    body = PlotlyFigure(fig, "fig", alt=alt)._repr_mimebundle_()["text/html"]
    return "file://" + page(tmp_path, name, head=head, body=body)


@needs_chromium
def test_every_explorer_slider_works_from_the_keyboard(browser, tmp_path):
    from aukbook.plotting import iso_kappa_explorer, roc_kappa_explorer
    from check_html import check_explorers
    figures = {
        "two.html": roc_kappa_explorer([0.5, 0.1], separations=[1.0, 2.0], readout=True,
                                       n_points=21),            # readout as plot text
        "title.html": roc_kappa_explorer([0.5, 0.2, 0.1], n_points=21),   # readout in the title
        "iso.html": iso_kappa_explorer([0.5, 0.1], n_points=21),
    }
    for name, fig in figures.items():
        browser.visit(explorer_page(tmp_path, name, fig))
        problems, tested = check_explorers(browser)
        assert problems == [] and tested == len(fig.layout.sliders), (name, problems)
        # the readout is text in an aria-live region, and says what the plot says
        live = browser.evaluate("document.getElementById('fig-readout').textContent")
        assert "AUC" in live or "kappa" in live, live


@needs_chromium
def test_keyboard_check_fails_without_the_controls(browser, tmp_path):
    from aukbook.plotting import roc_kappa_explorer
    from check_html import check_explorers
    fig = roc_kappa_explorer([0.5, 0.1], n_points=21)
    browser.visit(explorer_page(tmp_path, "plain.html", fig, script=False))
    problems, tested = check_explorers(browser, ready_timeout=2)   # they never come
    assert tested == 0 and any("no keyboard controls" in p for p in problems)
    browser.visit(explorer_page(tmp_path, "nodesc.html", fig, alt=None))
    problems, tested = check_explorers(browser)
    assert tested == 1 and any("no text description" in p for p in problems)


@needs_chromium
def test_narrow_check_reports_sideways_scrolling(browser, tmp_path):
    from check_html import check_narrow
    browser.visit("file://" + page(tmp_path, "fits.html", body="<p>Short text.</p>"))
    assert check_narrow(browser, "fits.html", None) == []
    browser.visit("file://" + page(tmp_path, "wide.html", body='<div style="width:900px">x</div>'))
    problems = check_narrow(browser, "wide.html", None)
    assert any("scrolls sideways" in p for p in problems)
    # without plotly there is nothing to wait for: reading the layout forces it
    assert any("scrolls sideways" in p for p in check_narrow(browser, "wide.html", None, redraw=0))
    assert browser.width == 1300                       # the viewport is restored


# The theme's layout of a numbered (\tag) display equation, as MathJax and
# pydata-sphinx-theme write it: div.math lays out from the right and clips,
# and MathJax gives the equation's box a min-width of its full width.
THEME_MATH = """<style>
div.math { display: flex; flex-direction: row-reverse; overflow: hidden; max-width: 100%; }
div.math mjx-container { flex-grow: 1; overflow: auto; }
mjx-container[width="full"] { display: flex; }
mjx-math { display: block; width: 640px; height: 20px; background: #ccc; }
</style>"""
TAGGED = ('<div class="math"><mjx-container display="true" width="full" '
          'style="min-width: 640px"><mjx-math>x</mjx-math></mjx-container></div>')


@needs_chromium
def test_narrow_check_reports_a_numbered_equation_whose_start_cannot_be_reached(
        browser, tmp_path):
    from check_html import NARROW, check_narrow
    assert NARROW[0] == 390
    browser.visit("file://" + page(tmp_path, "eq.html", head=THEME_MATH, body=TAGGED))
    problems = check_narrow(browser, "eq.html", None, redraw=0)
    assert any("display equation 1" in p and "of its start cannot be reached" in p
               for p in problems), problems
    # the book's stylesheet lets the equation start at the column's edge and scroll
    fix = open(os.path.join(ROOT, "_static", "a11y.css"), encoding="utf-8").read()
    browser.visit("file://" + page(tmp_path, "eq-fixed.html",
                                   head=THEME_MATH + f"<style>{fix}</style>", body=TAGGED))
    assert check_narrow(browser, "eq-fixed.html", None, redraw=0) == []


@needs_chromium
def test_narrow_check_reports_a_figure_shrunk_below_readable_text(browser, tmp_path):
    from check_html import check_narrow
    img = ('<div class="bd-article"><figure><img style="min-width: 640px" '
           'src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="1000" height="10">'
           '</figure></div>')
    browser.visit("file://" + page(tmp_path, "fig.html",
                                   head="<style>img { max-width: 100% !important; "
                                        "min-width: 0 !important; }</style>", body=img))
    problems = check_narrow(browser, "fig.html", None, redraw=0)
    assert any("below the 640 px" in p for p in problems), problems
    fix = open(os.path.join(ROOT, "_static", "a11y.css"), encoding="utf-8").read()
    browser.visit("file://" + page(tmp_path, "fig-scrolls.html", head=f"<style>{fix}</style>",
                                   body=img))
    # kept readable, the figure scrolls sideways: without the cue that is a problem
    assert [p for p in check_narrow(browser, "fig-scrolls.html", None, redraw=0)
            if "scrolls sideways with no cue" in p], "a scrolling figure without a cue passed"
    cue = open(os.path.join(ROOT, "_static", "scroll-cue.js"), encoding="utf-8").read()
    browser.visit("file://" + page(tmp_path, "fig-ok.html",
                                   head=f"<style>{fix}</style><script>{cue}</script>",
                                   body=img))
    assert check_narrow(browser, "fig-ok.html", None, redraw=0) == []
    assert browser.evaluate("document.querySelectorAll('.aukbook-scroll-hint').length") == 1


def test_readable_width_keeps_ten_point_text_at_nine_pixels(tmp_path):
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(10, 4), dpi=100)
    fig.savefig(tmp_path / "f.png", dpi=100)
    plt.close(fig)
    width, dpi = book_html.png_size_dpi(tmp_path / "f.png")
    assert width == 1000 and abs(dpi - 100) < 0.01
    # 10 pt at 100 dpi is 13.9 px; 9 px needs 9/13.9 of the 1000 px
    assert book_html.readable_width(tmp_path / "f.png") == round(1000 * 9 / (10 * 100 / 72))


INLINE = ('<div class="bd-article"><p>so that <span class="math"><mjx-container>'
          '<mjx-math style="display:inline-block; width:{w}px; height:10px">x</mjx-math>'
          '</mjx-container></span> holds.</p></div>')


@needs_chromium
def test_narrow_check_reports_an_inline_formula_wider_than_a_phone_even_when_folded(
        browser, tmp_path):
    """An inline formula wider than the screen hides its end (issue 37's
    reader could not see "= 0.505"): it must fit, on the page and inside a
    folded part opened as a reader opens it; one that fits passes."""
    from check_html import check_narrow
    fix = open(os.path.join(ROOT, "_static", "a11y.css"), encoding="utf-8").read()
    # the theme's inline formula: a box no wider than the column
    head = f"<style>span.math {{ display: inline-block; max-width: 100%; }}{fix}</style>"
    browser.visit("file://" + page(tmp_path, "in-ok.html", head=head, body=INLINE.format(w=200)))
    assert check_narrow(browser, "in-ok.html", None, redraw=0) == []
    browser.visit("file://" + page(tmp_path, "in-wide.html", head=head,
                                   body=INLINE.format(w=500)))
    problems = check_narrow(browser, "in-wide.html", None, redraw=0)
    assert any("inline formula 1" in p and "wider than the screen" in p for p in problems), problems
    # a solution as sphinx-togglebutton folds it: hidden until its button is pressed
    toggle = ("<style>.toggle-hidden > :not(.admonition-title) { display: none; }</style>"
              "<script>function flip(b) { b.closest('.toggle').classList.toggle('toggle-hidden'); }"
              "</script>")
    folded = ('<div class="bd-article"><div class="solution admonition toggle toggle-hidden">'
              '<p class="admonition-title">Solution <button class="toggle-button" '
              'onclick="flip(this)">show</button></p>' + INLINE.format(w=500) + '</div></div>')
    browser.visit("file://" + page(tmp_path, "in-folded.html", head=head + toggle, body=folded))
    problems = check_narrow(browser, "in-folded.html", None, redraw=0)
    assert any("with the folded parts open" in p and "inline formula" in p for p in problems), \
        problems
    assert browser.evaluate("document.querySelector('.toggle').classList.contains('toggle-hidden')")


@needs_chromium
def test_printed_results_wrap_on_a_phone_instead_of_scrolling(browser, tmp_path):
    from check_html import check_narrow
    fix = open(os.path.join(ROOT, "_static", "a11y.css"), encoding="utf-8").read()
    out = ('<div class="bd-article"><div class="cell_output"><div class="output stream">'
           '<pre>' + "AUK 0.189, 95% interval [0.159, 0.210], standard error 0.013 " * 3
           + '</pre></div></div></div>')
    theme = "<style>pre { overflow-x: auto; }</style>"     # the theme's code and output boxes
    browser.visit("file://" + page(tmp_path, "out.html", head=theme, body=out))
    assert any("scrolls sideways with no cue" in p
               for p in check_narrow(browser, "out.html", None, redraw=0))
    browser.visit("file://" + page(tmp_path, "out-wraps.html",
                                   head=theme + f"<style>{fix}</style>", body=out))
    assert check_narrow(browser, "out-wraps.html", None, redraw=0) == []
