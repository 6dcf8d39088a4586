"""Everything a student wrote is data (course/grading/sanitize.py).

A submission's Markdown, raw cells, outputs and metadata are made inert
before any page shows them: the notebooks stored under ``submitted/`` and
``autograded/``, the formgrader's view of a submission, the feedback page.
These tests put the hostile markup of tests/grading_submissions.py (``MARKUP``,
``DISPLAY_MARKUP``, ``add_markup``: script, event handlers, ``javascript:`` and
``data:`` links, iframe, form, SVG onload, styles that fetch, meta refresh,
base, object/embed, remote images, HTML/JS/SVG outputs, forged metadata)
through the grader's code and open the pages in headless Chromium
(checks/browser.py), where every attack would set ``window.__pwned``, change the
title and send requests to a sentinel HTTP server that counts them.

Fast (``make test``): the sanitizer itself; the formgrader's page rendered by
the formgrader's own code path (nbconvert's HTMLExporter with nbgrader's
``formgrade`` template and the course's nbgrader_config.py) and served from
127.0.0.1 next to a stand-in ``/api/contents/``; the feedback page as
``FeedbackHTMLExporter`` writes it; and the same pages rendered *without* the
sanitizer, where the scripts do run (so the browser check can fail).
With the graded class (tests/grading_class.py; chapter 1 in ``make test``,
every chapter in ``make test-course``): the hostile student's stored
notebooks, its feedback page from ``nbgrader generate_feedback``, and the real
formgrader (``jupyter server`` with nbgrader's extension, logged in with a
token) showing the submission.
"""

import glob
import html
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

import nbformat
import pytest

import grading_class as gc
import grading_submissions as subs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course", "grading"))
sys.path.insert(0, os.path.join(ROOT, "course"))
sys.path.insert(0, os.path.join(ROOT, "checks"))
import make_assignments  # noqa: E402
import sanitize  # noqa: E402

NBGRADER_TEMPLATES = os.path.join(os.path.dirname(__import__("nbgrader").__file__),
                                  "server_extensions", "formgrader", "templates")


# --- the sanitizer ---------------------------------------------------------------------

@pytest.mark.parametrize("markdown, shown", [
    ("<script>alert(1)</script>", "<script>alert(1)</script>"),
    ("<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>"),
    ("<iframe src='/api/contents'></iframe>", "<iframe src='/api/contents'></iframe>"),
    ("<form action=/x><input></form>", "<form action=/x><input></form>"),
    ("<svg onload=alert(1)>", "<svg onload=alert(1)>"),
    ("<style>body{background:url(http://x/y)}</style>", "<style>"),
    ("<meta http-equiv=refresh content='0;url=http://x'>", "<meta http-equiv"),
    ("<base href=http://x/>", "<base href"),
    ("<div\nonclick=alert(1)>x</div>", "<div"),
    ("<!-- hidden -->", "<!-- hidden -->"),
    ("<scr<script>ipt>alert(1)</script>", "ipt>alert(1)"),
])
def test_html_in_markdown_is_shown_as_text(markdown, shown):
    out = sanitize.sanitize_markdown(markdown)
    page = sanitize.render_markdown(out)
    assert sanitize.active_content(page) == []
    assert shown in html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.parametrize("markdown", [
    "[x](javascript:alert(1))", "[x]( JaVaScRiPt:alert(1))", "[x](&#106;avascript:alert(1))",
    "[x](java&#x09;script:alert(1))", "[x](data:text/html,<script>alert(1)</script>)",
    "[x](vbscript:msgbox)", "[x][r]\n\n[r]: javascript:alert(1)",
    "![x](http://127.0.0.1:9/track.png)", "![x](//evil.example/a.png)",
    "![x](/logout)", "![x][r]\n\n[r]: https://evil.example/a.png",
    "$\\href{javascript:alert(1)}{x}$",
])
def test_links_and_images_cannot_run_or_fetch(markdown):
    out = sanitize.sanitize_markdown(markdown)
    page = sanitize.render_markdown(out)
    assert sanitize.active_content(page) == [], (out, page)
    assert "<img" not in page or 'src="data:image/' in page
    assert not re.search(r"href=\"(?!#|https?:)", page), page


def test_ordinary_markdown_is_kept_as_written():
    text = ("# My answer\n\nKappa is *chance-corrected*: $\\kappa = (p_o - p_e)/(1 - p_e)$, "
            "with $a<b$ and $\\sum_{i<j} x_i$.\n\n"
            "| TP | FN |\n|---|---|\n| 3 | 1 |\n\n```python\nif x < 3 and y > 2:\n"
            "    print('<b>')\n```\n\n`<b>` is a tag; see [chapter 2](ch02_roc_auc.ipynb), "
            "<https://example.org> and [the paper](https://doi.org/10.1/x).\n\n"
            "- [x] done\n- item\n\n![plot](data:image/png;base64,iVBORw0KGgo=)\n")
    assert sanitize.sanitize_markdown(text) == text


def test_the_kits_own_markdown_passes_unchanged(tmp_path):
    """No Markdown cell of a released assignment is changed by the sanitizer, and no
    locked cell's checksum: sanitizing ``submitted/`` before ``autograde`` never
    makes nbgrader report an untouched locked cell as tampered with (the sample
    chapter in make test, every chapter in make test-course)."""
    from nbgrader.utils import compute_checksum, is_locked
    make_assignments.write_course(str(tmp_path), gc.CHAPTERS)
    checked = 0
    for path in sorted(glob.glob(str(tmp_path / "source" / "*" / "*.ipynb"))):
        nb = nbformat.read(path, as_version=4)
        before = {c.metadata.nbgrader.grade_id: compute_checksum(c) for c in nb.cells
                  if "nbgrader" in c.metadata and is_locked(c)}
        texts = [c.source for c in nb.cells if c.cell_type == "markdown"]
        sanitize.sanitize_notebook(nb)
        after = {c.metadata.nbgrader.grade_id: compute_checksum(c) for c in nb.cells
                 if "nbgrader" in c.metadata and is_locked(c)}
        assert after == before, path
        assert [c.source for c in nb.cells if c.cell_type == "markdown"] == texts, path
        checked += len(texts)
    assert checked > 20


def test_outputs_keep_text_images_and_clean_html_only():
    good_png = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kg"
                "AAAABJRU5ErkJggg==")
    outputs = [
        {"output_type": "display_data", "metadata": {"image/png": {"width": "1 onload=x"}},
         "data": {"text/html": "<table class='dataframe'><tr><td onclick=x>1</td></tr></table>"
                  "<script>alert(1)</script>",
                  "application/javascript": "alert(1)", "image/svg+xml": "<svg onload=x/>",
                  "image/png": 'x" onerror="alert(1)', "text/latex": "$x$",
                  "application/vnd.jupyter.widget-view+json": {"model_id": "x"},
                  "text/plain": "table"}},
        {"output_type": "display_data", "data": {"image/png": good_png},
         "metadata": {"image/png": {"width": 40}}},
        {"output_type": "execute_result", "execution_count": "<script>", "data": {
            "text/markdown": "<img src=x onerror=alert(1)>"}},
        {"output_type": "stream", "name": "<b>", "text": "<script>shown as text</script>"},
        {"output_type": "weird"}, "not a dict"]
    out = sanitize.sanitize_outputs(outputs)
    assert [o["output_type"] for o in out] == ["display_data", "display_data",
                                               "execute_result", "stream"]
    assert set(out[0]["data"]) == {"text/html", "text/plain"}
    assert out[0]["data"]["text/html"] == ('<table class="dataframe"><tbody><tr><td>1</td>'
                                           '</tr></tbody></table>')
    assert out[0]["metadata"] == {}
    assert out[1]["data"]["image/png"] == good_png and out[1]["metadata"] == {
        "image/png": {"width": 40}}
    assert out[2]["execution_count"] is None
    assert sanitize.active_content(sanitize.render_markdown(out[2]["data"]["text/markdown"])) \
        == []
    assert out[3]["name"] == "stdout"


def hostile_notebook(sentinel):
    """A notebook with every markup attack of the hostile suite, as a student
    would hand it in: the markup in Markdown cells, a raw cell, stored outputs of
    every kind, forged metadata."""
    nb = nbformat.v4.new_notebook()
    written = nbformat.v4.new_markdown_cell(subs.MARKUP.replace("{sentinel}", sentinel))
    written.metadata["nbgrader"] = {"grade": True, "solution": True, "locked": False,
                                    "grade_id": "ch1-ex-x-written", "points": 2,
                                    "schema_version": 3, "task": False,
                                    # what nbgrader's GetGrades adds for the feedback
                                    "score": 1.0, "comment": "Good: see *eq. 19*."}
    code = nbformat.v4.new_code_cell(subs.DISPLAY_MARKUP.replace("{sentinel}", sentinel))
    nb.cells = [nbformat.v4.new_markdown_cell("# Chapter 1 (the instructor's text)"),
                written, code]
    subs.add_markup(nb, sentinel)
    # what the code cell would display if it ran outside the sandbox
    pwn = subs.PWN.replace("{sentinel}", sentinel)
    code.outputs = [nbformat.v4.new_output("display_data", data={
        "text/html": f"<b>bold</b><script>{pwn}</script>", "application/javascript": pwn,
        "text/plain": "x"})]
    return nb


def test_a_hostile_notebook_is_stored_inert_and_stays_so(tmp_path):
    nb = hostile_notebook(subs.SENTINEL)
    changes = sanitize.sanitize_notebook(nb)
    assert any("raw cell shown as text" in c for c in changes)
    assert [c.cell_type for c in nb.cells].count("raw") == 0
    page = sanitize.render_markdown("\n\n".join(c.source for c in nb.cells
                                                if c.cell_type == "markdown"))
    assert sanitize.active_content(page) == []
    assert "&lt;script&gt;" in page            # shown, as text
    assert nb.metadata == {} and "title" not in nb.metadata
    assert nb.cells[-1].get("attachments") is None     # the SVG attachment is gone
    again = json.loads(json.dumps(nb))
    assert sanitize.sanitize_notebook(nbformat.from_dict(again)) == []   # idempotent
    path = tmp_path / "nb.ipynb"
    nbformat.write(hostile_notebook(subs.SENTINEL), str(path))
    assert sanitize.sanitize_tree(str(tmp_path))
    nbformat.validate(nbformat.read(str(path), as_version=4))


KERNELSPECS = {
    "conda": {"display_name": "Python [conda env:aukbook]", "language": "python",
              "name": "conda-env-aukbook-py"},
    "vscode venv": {"display_name": "Python 3.11 ('aukbook': venv)", "language": "python",
                    "name": "python3"},
    "pyenv": {"display_name": "Python 3.11.4 64-bit ('3.11.4': pyenv)", "language": "python",
              "name": "pyenv-3.11.4"},
    "ipykernel": {"display_name": "Python 3 (ipykernel)", "language": "python",
                  "name": "python3"},
    "conda without display_name": {"language": "python", "name": "conda-env-aukbook-py"},
    "markup": {"display_name": "<img src=x onerror=alert(1)>", "language": "python",
               "name": "python3"},
    "markup in the name": {"display_name": "Python 3", "name": "x\"><script>alert(1)</script>"},
    "escaped markup": {"display_name": "&lt;b&gt; \"x\"", "name": "python3"},
    "not a dict": "python3",
    "missing": None,
}


@pytest.mark.parametrize("kind", sorted(KERNELSPECS))
def test_any_kernelspec_leaves_a_valid_notebook_without_markup(tmp_path, kind):
    """Conda's and VS Code's kernelspecs are honest: they were trimmed to an
    invalid kernelspec (no display_name) and nbgrader refused the notebook
    (0 points). The kernelspec kept is the student's when it is plain text,
    else the course's; the file always validates."""
    ks = KERNELSPECS[kind]
    raw = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "id": "a1", "metadata": {}, "source": "x = 1",
         "outputs": [], "execution_count": None}]}
    if ks is not None:
        raw["metadata"]["kernelspec"] = ks
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(raw))
    sanitize.sanitize_file(str(path))
    nb = nbformat.read(str(path), as_version=4)
    nbformat.validate(nb)
    kept = nb.metadata.get("kernelspec")
    if ks is None:
        assert kept is None
        return
    assert set(kept) >= {"name", "display_name"}
    assert all(isinstance(v, str) and not re.search(r"[<>&\"`]", v)
               for v in kept.values()), kept
    if kind in ("conda", "vscode venv", "pyenv", "ipykernel"):
        assert kept == ks                                  # honest ones are kept
    else:
        assert kept == sanitize.COURSE_KERNELSPEC
    assert sanitize.sanitize_notebook(nb) == []            # idempotent


def test_other_metadata_the_sanitizer_rewrites_stays_valid(tmp_path):
    """Old notebooks (format 4.4: no cell ids), a full language_info, duplicate
    or missing cell ids, keys a cell type does not allow, a forged nbformat_minor
    and negative execution counts: the sanitized file validates."""
    def cell(kind, **extra):
        c = {"cell_type": kind, "metadata": {}, "source": "text"}
        if kind == "code":
            c.update(outputs=[], execution_count=None)
        c.update(extra)
        return c
    notebooks = {
        "format 4.4": {"nbformat_minor": 4, "cells": [cell("code"), cell("markdown")]},
        "format 4.2": {"nbformat_minor": 2, "cells": [cell("markdown")]},
        "minor 99": {"nbformat_minor": 99, "cells": [cell("code", id="a")]},
        "language_info": {"nbformat_minor": 5, "metadata": {"language_info": {
            "name": "python", "version": "3.11.4", "mimetype": "text/x-python",
            "codemirror_mode": {"name": "ipython", "version": 3},
            "pygments_lexer": "ipython3", "file_extension": ".py"}},
            "cells": [cell("code", id="a")]},
        "duplicate ids": {"nbformat_minor": 5, "cells": [cell("code", id="x"),
                                                         cell("markdown", id="x"),
                                                         cell("code", id="bad id!")]},
        "attachments on code": {"nbformat_minor": 5, "cells": [
            cell("code", id="a", attachments={"a.png": {"image/png": "iVBORw0KGgo="}},
                 extra="x"),
            cell("markdown", id="b", attachments={"a.png": {"image/png": "iVBORw0KGgo="}}),
            cell("raw", id="c", attachments={"a.png": {"image/png": "iVBORw0KGgo="}})]},
        "negative count": {"nbformat_minor": 5, "cells": [
            cell("code", id="a", execution_count=-100)]},
        "extra top-level key": {"nbformat_minor": 5, "cells": [cell("code", id="a")],
                                "worksheets": []},
    }
    for name, parts in notebooks.items():
        raw = {"nbformat": 4, "metadata": {}, **parts}
        path = tmp_path / f"{name}.ipynb"
        path.write_text(json.dumps(raw))
        sanitize.sanitize_file(str(path))
        nb = nbformat.read(str(path), as_version=4)
        nbformat.validate(nb)
        ids = [c.id for c in nb.cells]
        assert len(set(ids)) == len(ids) == len(raw["cells"]), name
        if name == "language_info":
            assert nb.metadata.language_info == {"name": "python"}


# --- the pages ----------------------------------------------------------------------------

def course_config(course):
    """The configuration nbgrader reads in the course folder (make_assignments.CONFIG)."""
    from traitlets.config.loader import PyFileConfigLoader
    os.makedirs(course, exist_ok=True)
    path = os.path.join(course, "nbgrader_config.py")
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(make_assignments.CONFIG.format(tests=os.path.join(ROOT, "tests"),
                                                    course=os.path.join(ROOT, "course")))
    return PyFileConfigLoader("nbgrader_config.py", path=course).load_config()


def formgrade_page(nb_path, config, base_url=""):
    """The formgrader's page of one submission, made as nbgrader's
    SubmissionHandler makes it: an HTMLExporter with the formgrader's
    configuration (the course's, plus the ``formgrade`` template)."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config import Config
    cfg = Config(config)
    cfg.HTMLExporter.template_name = "formgrade"
    cfg.HTMLExporter.extra_template_basedirs = [NBGRADER_TEMPLATES]
    resources = {"assignment_id": "ch01", "notebook_id": "ch01_accuracy_kappa",
                 "submission_id": "abc", "index": 0, "total": 1, "base_url": base_url,
                 "student": "h99", "last_name": "", "first_name": "",
                 "notebook_path": "autograded/h99/ch01/ch01_accuracy_kappa.ipynb"}
    page, _ = HTMLExporter(config=cfg).from_filename(nb_path, resources=resources)
    return page


def feedback_page(nb_path, config, exporter=None):
    """The feedback page of one notebook, made as nbgrader's GenerateFeedback
    makes it (its template settings; the exporter class the course configures)."""
    from nbconvert.exporters import HTMLExporter
    from traitlets.config import Config
    cfg = Config(config)
    cfg.HTMLExporter.template_name = "feedback"
    cfg.HTMLExporter.extra_template_basedirs = [NBGRADER_TEMPLATES]
    cfg.HTMLExporter.extra_template_paths = [os.path.join(
        os.path.dirname(NBGRADER_TEMPLATES), "static", "node_modules", "bootstrap", "dist",
        "css")]
    cls = exporter or sanitize.FeedbackHTMLExporter
    resources = {"nbgrader": {"notebook": "ch01_accuracy_kappa", "score": 1, "max_score": 2,
                              "late_penalty": 0}}
    page, _ = cls(config=cfg).from_filename(nb_path, resources=resources)
    return page


class Sentinel:
    """An HTTP server on 127.0.0.1 that counts what reaches it: the attacks'
    requests (any path), and, when it stands in for the Jupyter server,
    ``/api/contents/`` and the pages it serves."""

    def __init__(self, port=0, pages=None, count=lambda path: True):
        hits, lock = [], threading.Lock()
        pages = pages or {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def _any(self):
                path = urllib.parse.urlsplit(self.path).path
                if path in pages:
                    body = pages[path].encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                else:
                    if count(path):
                        with lock:
                            hits.append(f"{self.command} {self.path}"[:200])
                    body = b"{}" if path.startswith("/api/") else b""
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = _any

            def log_message(self, *args):
                pass

        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.hits = hits
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def open_browser():
    """checks/browser.py's Chromium, with loopback reachable (the dead proxy still
    takes every other request, and the DevTools log records it)."""
    import browser
    if browser.chromium() is None:
        pytest.skip("Chromium is not installed (setup/system_packages.sh installs it)")
    saved = list(browser.FLAGS)
    browser.FLAGS[:] = [f for f in saved if f != "--proxy-bypass-list=<-loopback>"]
    try:
        return browser.Browser()
    finally:
        browser.FLAGS[:] = saved


def look(b, url, sentinels, settle=1.0):
    """Open ``url``; what the student's markup did there."""
    start = time.monotonic()
    visit = b.visit(url, settle=settle)
    loaded = time.monotonic() - start
    for el in ("input", "details", "img"):                # give every handler its chance
        b.evaluate("document.querySelectorAll('EL').forEach(e => { try { e.focus(); "
                   "e.dispatchEvent(new Event('mouseover')); e.dispatchEvent(new Event('load'));"
                   " } catch (err) {} }), 1".replace("EL", el))
    b.pump(0.5)
    return {
        "pwned": b.evaluate("window.__pwned || 0"),
        "title": b.evaluate("document.title"),
        "sentinel_hits": [h for s in sentinels for h in s.hits],
        "requests": sorted({u for u, _ in visit.requests.values()}),
        "scripts_in_notebook": b.evaluate(
            "document.querySelectorAll('#notebook-container script, #notebook script').length"),
        "handlers_in_notebook": b.evaluate(
            "[...document.querySelectorAll('#notebook-container *, #notebook *')].filter("
            "e => [...e.attributes].some(a => a.name.startsWith('on'))).length"),
        "active_elements": b.evaluate(
            "document.querySelectorAll('#notebook-container :is(iframe, form, object, embed, "
            "svg, style, meta, base, link, video, audio), #notebook :is(iframe, form, object, "
            "embed, svg, meta, base, video, audio)').length"),
        "javascript_links": b.evaluate(
            "[...document.querySelectorAll('a[href]')].filter(a => !/^(https?:|mailto:|#|"
            + "$)/i.test(a.getAttribute('href')) && /^\\s*[a-z][a-z0-9+.-]*:/i.test("
            "a.getAttribute('href'))).length"),
        "csp": b.evaluate("(document.querySelector('meta[http-equiv=\"Content-Security-"
                          "Policy\"]') || {}).content || ''"),
        "text": b.evaluate("document.body ? document.body.innerText.slice(0, 100000) : ''"),
        "seconds": round(loaded, 1),
    }


def report(name, seen):
    """One line of the browser test's output (pytest -s prints it; -rA too)."""
    keep = {k: v for k, v in seen.items() if k != "text"}
    keep["requests"] = [u for u in seen["requests"] if not u.startswith("data:")]
    print(f"\n[browser] {name}: " + json.dumps(keep))


def assert_inert(seen, own_origin=None):
    assert seen["pwned"] == 0, seen
    assert seen["title"] != "PWNED"
    assert seen["sentinel_hits"] == [], seen["sentinel_hits"]
    assert seen["scripts_in_notebook"] == 0 and seen["handlers_in_notebook"] == 0
    assert seen["active_elements"] == 0 and seen["javascript_links"] == 0
    # the Jupyter server's API (/api/contents/...; the formgrader's own page asks
    # /formgrader/api/ for its grades and comments) and the sentinel
    assert not [u for u in seen["requests"] if re.match(r"[a-z]+://[^/]*/api/", u)
                or "47913" in u or "exfiltrate" in u]
    if own_origin is not None:       # nothing but the kit's own page and its static files
        stray = [u for u in seen["requests"] if not (
            u.startswith("data:") or u.startswith(own_origin)
            or u.startswith("https://cdnjs.cloudflare.com/ajax/libs/mathjax/"))]
        assert stray == [], stray


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """A hostile notebook as the formgrader and the feedback would show it,
    stored raw (as before sanitize.py) and stored sanitized."""
    tmp = tmp_path_factory.mktemp("pages")
    sentinel = Sentinel()
    raw = hostile_notebook(sentinel.url)
    nbformat.write(raw, str(tmp / "raw.ipynb"))
    clean = hostile_notebook(sentinel.url)
    sanitize.sanitize_notebook(clean)
    nbformat.write(clean, str(tmp / "clean.ipynb"))
    config = course_config(str(tmp / "course"))
    from traitlets.config import Config
    out = {"sentinel": sentinel, "tmp": tmp}
    for name in ("raw", "clean"):
        out[f"formgrade-{name}"] = formgrade_page(str(tmp / f"{name}.ipynb"), config)
        out[f"feedback-{name}"] = feedback_page(str(tmp / f"{name}.ipynb"), config)
    # the control: nbgrader's own settings before this kit sanitized anything
    # (c.HTMLExporter.sanitize_html = True, nbgrader's exporters)
    bare = Config({"HTMLExporter": {"sanitize_html": True}})
    from nbconvert.exporters import HTMLExporter
    out["formgrade-unprotected"] = formgrade_page(str(tmp / "raw.ipynb"), bare)
    out["feedback-unprotected"] = feedback_page(str(tmp / "raw.ipynb"), bare,
                                                exporter=HTMLExporter)
    yield out
    sentinel.close()


def test_pages_hold_no_active_markup_of_the_student(pages):
    """Static check of the pages: no script, handler or fetching URL carries the
    student's payload (the formgrader's own scripts stay)."""
    for name in ("formgrade-raw", "formgrade-clean", "feedback-raw", "feedback-clean"):
        page = pages[name]
        scripts = re.findall(r"<script\b[^>]*>(.*?)</script", page, re.S | re.I)
        assert not [s for s in scripts if "__pwned" in s], name
        for m in re.finditer(r"<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:=(?:\"[^\"]*\"|'[^']*'|"
                             r"[^\s>]+))?)*)\s*/?>", page):
            attrs = html.unescape(m.group(2))
            assert "__pwned" not in attrs, (name, m.group(0)[:200])
            # a plain link to the sentinel is followed only when clicked; no other
            # attribute may name it (a source, an action, a style)
            if m.group(1).lower() != "a":
                assert pages["sentinel"].url not in attrs, (name, m.group(0)[:200])
    assert "&lt;script&gt;" in pages["formgrade-clean"]
    # without this kit's sanitizing, nbgrader's pages do carry the attacks
    assert "<script>window.__pwned" in pages["formgrade-unprotected"]
    assert "<script>window.__pwned" in pages["feedback-unprotected"]


def test_feedback_page_runs_no_script_and_loads_nothing(pages):
    page = pages["feedback-clean"]
    head = page[page.index("<head"):page.index("</head>")]
    assert head.split(">", 1)[1].lstrip().startswith(
        '<meta http-equiv="Content-Security-Policy"')
    assert "default-src 'none'" in head and "script-src" not in head
    assert not re.search(r"<script\b", page, re.I)


def test_no_student_script_runs_in_the_browser(pages):
    """Headless Chromium opens (a) the formgrader's page of the hostile
    submission, served from 127.0.0.1 next to a stand-in ``/api/contents/``, and
    (b) its feedback page from file://, each as the kit makes it now, and the
    same pages made without the kit's sanitizing (the control, where the
    attacks must show, or this test could not fail)."""
    tmp, sentinel = pages["tmp"], pages["sentinel"]
    server = Sentinel(pages={"/formgrader/submissions/clean/": pages["formgrade-clean"],
                             "/formgrader/submissions/raw/": pages["formgrade-raw"],
                             "/formgrader/submissions/unprotected/":
                             pages["formgrade-unprotected"]},
                    count=lambda path: not path.startswith(("/formgrader/static/",
                                                            "/favicon.ico")))
    results = {}
    try:
        with open_browser() as b:
            for name in ("clean", "raw", "unprotected"):
                sentinel.hits.clear()
                server.hits.clear()
                seen = look(b, f"{server.url}/formgrader/submissions/{name}/",
                            [sentinel, server])
                results[f"formgrader page, notebook stored {name}"] = seen
                path = tmp / f"feedback-{name}.html"
                path.write_text(pages[f"feedback-{name}"], encoding="utf-8")
                sentinel.hits.clear()
                server.hits.clear()
                results[f"feedback page, notebook stored {name}"] = look(
                    b, path.as_uri(), [sentinel, server])
    finally:
        server.close()
    for name, seen in results.items():
        report(name, seen)
    for name in ("clean", "raw"):
        seen = results[f"formgrader page, notebook stored {name}"]
        assert_inert(seen, own_origin=server.url)
        assert "<script>window.__pwned" in seen["text"]       # the student's text, shown
        seen = results[f"feedback page, notebook stored {name}"]
        assert_inert(seen, own_origin="file://")   # its stylesheet's fonts, on this disk
        assert seen["csp"].startswith("default-src 'none'")
        assert (tmp / f"feedback-{name}.html").as_uri() in seen["requests"]
    for page in ("formgrader", "feedback"):
        # there the student's script read /api/contents/ and sent it on (then the
        # meta refresh took the page away: window.__pwned went with it)
        control = results[f"{page} page, notebook stored unprotected"]
        assert [h for h in control["sentinel_hits"] if "/exfiltrate" in h or
                "/api/contents/" in h], control
        assert len(control["sentinel_hits"]) >= 10, control


# --- the graded class: what make grade stored, and the real formgrader ----------------------

def _markup_student(aid):
    g = gc.graded(aid)
    sids = [s for s, k in g.kinds.items() if k == "hostile-markup"]
    if not sids:
        pytest.skip(f"no hostile-markup submission in {aid}'s class")
    return g, sids[0]


@pytest.mark.skipif(gc.FULL not in gc.CHAPTERS, reason="the sample chapter is graded")
def test_make_grade_stores_the_hostile_markup_inert():
    """The hostile-markup student of the graded class: its notebooks under
    submitted/ and autograded/ hold no active markup (rendered as the formgrader
    renders Markdown), its answers earn their points, and its feedback page
    carries the CSP, no script and the student's markup as text."""
    g, sid = _markup_student(gc.FULL)
    assert float(g.rows[(sid, g.aid)]["autograded"]) == subs.honest_points("full", g.labels)
    for stage in ("submitted", "autograded"):
        path, = glob.glob(os.path.join(g.course, stage, sid, g.aid, "*.ipynb"))
        nb = nbformat.read(path, as_version=4)
        assert "raw" not in {c.cell_type for c in nb.cells}, stage
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                assert sanitize.active_content(sanitize.render_markdown(cell.source)) == [], \
                    (stage, cell.source[:200])
            for o in cell.get("outputs", []):
                assert set(o.get("data", {})) <= {"text/plain", "text/html", "text/markdown",
                                                  "image/png", "image/jpeg", "image/gif"}
                assert sanitize.active_content(o.get("data", {}).get("text/html", "")) == []
        assert set(nb.metadata) <= {"kernelspec", "language_info"}
        assert sanitize.sanitize_notebook(nb) == [], stage      # nothing left to do
    page, = glob.glob(os.path.join(g.course, "feedback", sid, g.aid, "*.html"))
    text = open(page, encoding="utf-8").read()
    assert '<meta http-equiv="Content-Security-Policy" content="default-src' in text
    assert not re.search(r"<script\b", text, re.I)
    assert "&lt;script&gt;window.__pwned" in text


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(gc.FULL not in gc.CHAPTERS, reason="the sample chapter is graded")
def test_the_logged_in_formgrader_runs_no_student_script(tmp_path):
    """The instructor's view: ``jupyter server`` with nbgrader's formgrader in the
    graded course, logged in with a token, opens the hostile submission and its
    feedback page in headless Chromium.  The session could read the course (the
    test's own fetch of /api/contents/ from the page gets 200) but no script of
    the student's runs and no request of theirs leaves the page."""
    g, sid = _markup_student(gc.FULL)
    try:
        sentinel = Sentinel(port=int(subs.SENTINEL.rsplit(":", 1)[1]))
    except OSError:                   # the port is taken: the DevTools log still sees all
        sentinel = None
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{os.path.join(g.course, 'gradebook.db')}") as gb:
        nb_name = os.path.basename(glob.glob(os.path.join(
            g.course, "autograded", sid, g.aid, "*.ipynb"))[0])[:-len(".ipynb")]
        submission = gb.find_submission_notebook(nb_name, g.aid, sid).id
    port, token = _free_port(), os.urandom(16).hex()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTER_DATA_DIR=str(tmp_path / "data"),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "server", "--no-browser", "--ServerApp.ip=127.0.0.1",
         f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={g.course}"]
        + (["--allow-root"] if os.geteuid() == 0 else []),
        cwd=g.course, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 240        # a loaded machine imports slowly
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.time() > deadline or server.poll() is not None:
                    raise AssertionError(open(tmp_path / "server.log").read()[-3000:])
                time.sleep(0.5)
        hunters = [sentinel] if sentinel else []
        with open_browser() as b:
            # log in as the instructor does: the token once, then the session's cookie
            b.visit(f"{base}/formgrader?token={token}", settle=0.5)
            seen = look(b, f"{base}/formgrader/submissions/{submission}/", hunters, settle=2)
            seen["session_can_read_contents"] = b.evaluate(
                "fetch('/api/contents/').then(r => r.status)", await_promise=True)
            page, = glob.glob(os.path.join(g.course, "feedback", sid, g.aid, "*.html"))
            feedback = look(b, "file://" + page, hunters)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        if sentinel:
            sentinel.close()
    report("real formgrader (jupyter server + nbgrader, logged in), graded submission", seen)
    report("feedback page written by make grade", feedback)
    assert seen["session_can_read_contents"] == 200     # what a script there could do
    assert "window.__pwned" in seen["text"]              # the student's markup, as text
    assert_inert(seen, own_origin=base)
    assert [u for u in seen["requests"] if u.startswith(f"{base}/formgrader/submissions/")]
    assert_inert(feedback, own_origin="file://")
    assert feedback["csp"].startswith("default-src 'none'")


def test_reports_show_control_characters_as_escapes():
    """A file name or a forged status can hold terminal escape sequences
    (clear the screen, retitle the window, hide a line) or bidirectional
    overrides; the printed report and its file show them as escapes."""
    name = "Jane\x1b]0;pwned\x07\x1b[2J\x1b[1A ok\u202egnp.ipynb\r"
    shown = sanitize.printable(f"  !! {name}: not matched\nnext line\tand a tab")
    assert shown == ("  !! Jane\\x1b]0;pwned\\x07\\x1b[2J\\x1b[1A ok\\u202egnp.ipynb\\x0d: "
                     "not matched\nnext line\tand a tab")


def test_rubric_sheets_run_no_script():
    import make_rubric_sheets
    page = make_rubric_sheets.to_html("# Sheet\n\n<script>alert(1)</script>", "Rubric sheet: s1")
    head = page[:page.index("<title>")]
    assert "Content-Security-Policy" in head and "default-src 'none'" in head
