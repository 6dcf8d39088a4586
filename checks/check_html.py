"""Open the built pages in headless Chromium, offline, and check what a reader gets.

    python checks/check_html.py _build/html [_build/student-html ...] [--screenshots DIR]
                               [--max-mb 2.5] [--no-a11y]

One Chromium, driven over the DevTools protocol on a pipe (checks/browser.py;
needs only Debian's `chromium` and the standard library), with every network
request sent to a dead proxy.  For every page under chapters/, and for the
search page:

* nothing is loaded from the network (static scan of the HTML, and every
  request the browser made is a file:// URL);
* no console error, no uncaught exception, no failed load;
* weight: the page's HTML, scripts and stylesheets add up to at most
  --max-mb (2.5 MB) unless the page draws a plotly figure;
* plotly.js is loaded, deferred, exactly on the pages that have a plotly
  figure, and plotly has drawn every figure (an SVG in each plotly div);
* where the page has math, MathJax has typeset it (<mjx-container>), with no
  MathJax error and no raw TeX delimiters left;
* the search page finds pages for "kappa" from file:// with no error.
* accessibility (WCAG 2.1 A and AA, checks/a11y_allow.txt): axe-core (from
  npm, node_modules/axe-core, installed by the Makefile with `npm ci`) is
  injected into the page and run with the WCAG 2.1 A/AA rules and best
  practices; any critical, serious or moderate violation fails, and so
  does a minor one unless checks/a11y_allow.txt keeps it with a reason;
* every slider of every plotly explorer is reached with Tab and moved with
  an arrow key, and its aria-live readout changes (check_explorers); every
  plotly figure has a text description and sits in no role="img";
* at 390 px wide (a phone, a real 390 px viewport set over the DevTools
  protocol) the page does not scroll sideways, no figure's title or readout
  is cut off, no display equation, inline formula, figure or table has a
  start or end that no scrolling reaches (a numbered equation overflowing to
  the left, an inline formula clipped by its box), no two labels inside a
  plotly figure overlap, no figure is shrunk below
  the width at which its text is 9 px, and every figure or output that
  scrolls sideways says so (_static/scroll-cue.js's cue line before it).
And once per book: _static/mathjax holds at most 3 MB.  Several books (the
instructor and the student edition) are checked in one run, their pages
shared out among --jobs browsers; in the books after the first, colour
contrast (two thirds of the audit's time) and the 390 px layout are
checked on the first page only, every other rule and check on every page.
Exits 1 with a list of failures.
"""

import argparse
import collections
import concurrent.futures
import contextlib
import glob
import json
import os
import re
import sys
import threading
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, BrowserError, chromium  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AXE_JS = os.path.join(ROOT, "node_modules", "axe-core", "axe.min.js")
ALLOW_FILE = os.path.join(ROOT, "checks", "a11y_allow.txt")
# WCAG 2.1 A and AA, plus axe's best practices
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
FAIL_IMPACTS = ("critical", "serious", "moderate")
NARROW = (390, 844)   # a phone (CSS px): a real 390 px viewport, as the DevTools set it

# (a <link rel="canonical"> names the published page's address; nothing loads it)
EXTERNAL = re.compile(r'<(?:script|link(?![^>]*rel="canonical")|img)[^>]+(?:src|href)="(?:https?:)?//[^"]+"',
                      re.I)
CORE_KINDS = ("Document", "Script", "Stylesheet")
MATHJAX_MAX_MB = 3.0

WAIT_MATH = """(() => {
  if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return 'no mathjax';
  const timeout = new Promise(r => setTimeout(() => r('timeout'), 20000));
  return Promise.race([MathJax.startup.promise.then(() => 'done'), timeout]);
})()"""
# After the load event: the web fonts have loaded (or failed), two frames have
# been drawn, and the timers the page's scripts set for right after that
# have run; errors they raise arrive before this promise resolves.
SETTLED = """document.fonts.ready.then(() => new Promise(r => requestAnimationFrame(
  () => requestAnimationFrame(() => setTimeout(() => r(true), 50)))))"""
PLOTS_DRAWN = ("Array.from(document.querySelectorAll('.plotly-graph-div'))"
               ".every(d => d.querySelector('.main-svg'))")


def local_path(url):
    return urllib.parse.unquote(urllib.parse.urlsplit(url).path)


def weigh(visit):
    """Bytes on disk of everything the page loaded: (HTML+JS+CSS, all)."""
    core = total = 0
    seen = set()
    for url, kind in visit.requests.values():
        key = url.split("?")[0].split("#")[0]
        if key in seen or not key.startswith("file://"):
            continue
        seen.add(key)
        path = local_path(key)
        size = os.path.getsize(path) if os.path.isfile(path) else 0
        total += size
        if kind in CORE_KINDS:
            core += size
    return core, total


# -- accessibility ---------------------------------------------------------------
AXE_RUN = """axe.run(document, {runOnly: {type: 'tag', values: %s}, preload: false,
                        resultTypes: ['violations'], rules: %s})
  .then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => n.target.join(' '))})))"""


def axe_source():
    if not os.path.isfile(AXE_JS):
        raise BrowserError(f"{os.path.relpath(AXE_JS, ROOT)} is missing: run `npm ci` "
                           "(the Makefile's set-up does)")
    with open(AXE_JS, encoding="utf-8") as fh:
        return fh.read()


def load_allow(path=ALLOW_FILE):
    """The minor violations kept on purpose: {rule id: reason}, from 'rule-id: reason' lines."""
    allow = {}
    if os.path.isfile(path):
        for line in open(path, encoding="utf-8"):
            line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
            if line:
                rule, _, reason = line.partition(":")
                if not reason.strip():
                    raise ValueError(f"{path}: {rule.strip()!r} has no reason")
                allow[rule.strip()] = reason.strip()
    return allow


def audit(b, allow, axe_js=None, contrast=True):
    """Run axe-core (WCAG 2.1 A/AA and best practices) on the page shown.

    Returns (problems, violations): a problem for every critical, serious or
    moderate violation and for every minor one not in ``allow``.
    ``contrast=False`` skips the colour-contrast rule, two thirds of the
    audit's time on a page full of math (see page_report).  (preload is
    off: axe would fetch the stylesheets, which file:// forbids; only the
    orientation-lock rule reads them, and the book locks no orientation.)
    """
    if not b.evaluate("typeof axe === 'object'"):
        b.evaluate((axe_js or axe_source()) + "\n;1")
    rules = {} if contrast else {"color-contrast": {"enabled": False}}
    violations = b.evaluate(AXE_RUN % (json.dumps(AXE_TAGS), json.dumps(rules)),
                            await_promise=True)
    problems = []
    for v in violations:
        nodes = v["nodes"]
        where = ", ".join(nodes[:3]) + (f" and {len(nodes) - 3} more" if len(nodes) > 3 else "")
        text = f"{v['id']} ({v['impact']}, {len(nodes)}x): {v['help']} [{where}]"
        if v["impact"] in FAIL_IMPACTS or v["impact"] is None or v["id"] not in allow:
            problems.append("accessibility: " + text)
        v["text"] = text
    return problems, violations


EXPLORERS_READY = ("Array.from(document.querySelectorAll('.plotly-graph-div')).every(d => "
                   "!(d.layout && d.layout.sliders && d.layout.sliders.length) || "
                   "d.getAttribute('data-aukbook-controls'))")
FIGURES = """Array.from(document.querySelectorAll('.plotly-graph-div')).map(d => {
  const box = d.closest('.aukbook-figure'), desc = box && box.querySelector('.aukbook-figure-desc');
  return [d.id, ((d.layout && d.layout.sliders) || []).length,
          desc ? desc.textContent.trim().length : 0, !!d.closest('[role="img"]')]; })"""
SLIDER_STATE = """(() => {
  const s = document.getElementById(%(id)s), gd = document.getElementById(%(fig)s);
  const live = document.getElementById(s.getAttribute('aria-describedby'));
  return {value: +s.value, max: +s.max, valuetext: s.getAttribute('aria-valuetext'),
          readout: live ? live.textContent : null,
          live: live ? live.getAttribute('aria-live') : null,
          active: gd.layout.sliders[%(i)d].active}; })()"""


def check_explorers(b, ready_timeout=10):
    """Every slider of every plotly explorer works from the keyboard.

    For each slider: Tab from the element before it lands on it; an arrow key
    moves it; its aria-valuetext, the figure's slider state and the text of
    its aria-live readout change.  Every plotly figure needs a text
    description, and none may sit inside role="img" (which would hide its
    controls from assistive technology).  Returns (problems, sliders tested).
    """
    problems, tested = [], 0
    if not b.visit_wait(EXPLORERS_READY, timeout=ready_timeout):
        return ["the explorers got no keyboard controls (aukbook-explorers.js)"], 0
    for fig, n_sliders, desc_len, in_img in b.evaluate(FIGURES):
        if desc_len < 20:
            problems.append(f"figure {fig}: no text description (alt text of its cell)")
        if in_img:
            problems.append(f"figure {fig}: inside role=img, which hides its controls")
        for i in range(n_sliders):
            sid = f"{fig}-slider-{i}"
            start = b.evaluate(f"""(() => {{ const s = document.getElementById({json.dumps(sid)});
                if (!s) return false;
                const t = document.createElement('button'); t.id = 'kbd-start';
                t.textContent = 'start'; s.before(t); t.focus();
                return document.activeElement === t; }})()""")
            if not start:
                problems.append(f"figure {fig}: no keyboard control for slider {i}")
                continue
            b.press("Tab")
            focused = b.evaluate("document.activeElement.id")
            b.evaluate("document.getElementById('kbd-start').remove(), 1")
            if focused != sid:
                problems.append(f"figure {fig}: Tab does not reach slider {i} (focus on {focused!r})")
                continue
            q = {"id": json.dumps(sid), "fig": json.dumps(fig), "i": i}
            before = b.evaluate(SLIDER_STATE % q)
            if before["live"] not in ("polite", "assertive"):
                problems.append(f"figure {fig}: slider {i} has no aria-live readout")
            b.press("ArrowRight" if before["value"] < before["max"] else "ArrowLeft")
            b.visit_wait(f"document.getElementById({json.dumps(sid)}).getAttribute('aria-describedby')"
                         f" && document.getElementById(document.getElementById({json.dumps(sid)})"
                         f".getAttribute('aria-describedby')).textContent !== "
                         f"{json.dumps(before['readout'])}", timeout=5)
            after = b.evaluate(SLIDER_STATE % q)
            tested += 1
            if after["value"] == before["value"]:
                problems.append(f"figure {fig}: the arrow key did not move slider {i}")
            elif after["active"] != after["value"]:
                problems.append(f"figure {fig}: slider {i} moved but the figure did not follow")
            if after["valuetext"] == before["valuetext"]:
                problems.append(f"figure {fig}: slider {i}'s aria-valuetext did not change")
            if not after["readout"] or after["readout"] == before["readout"]:
                problems.append(f"figure {fig}: slider {i} moved but the readout did not change "
                                f"({before['readout']!r})")
    return problems, tested


CUT_TEXT = """Array.from(document.querySelectorAll('.plotly-graph-div')).filter(gd => {
  const w = gd.getBoundingClientRect();
  return Array.from(gd.querySelectorAll('.gtitle, .textpoint text, .annotation-text')).some(t => {
    const r = t.getBoundingClientRect();
    return r.width > 0 && (r.left < w.left - 1 || r.right > w.right + 1); }); }).map(gd => gd.id)"""


# At a phone's width: in-plot labels of a plotly figure (annotations, text
# points) that overlap one another ("0.60.40.3" for four iso-kappa labels).
OVERLAP_TEXT = """Array.from(document.querySelectorAll('.plotly-graph-div')).flatMap(gd => {
  const boxes = Array.from(gd.querySelectorAll('.annotation-text, .textpoint text'))
    .map(t => [t.textContent, t.getBoundingClientRect()]).filter(([s, r]) => s.trim() && r.width > 0);
  const out = [];
  boxes.forEach(([s, a], i) => boxes.slice(i + 1).forEach(([u, b]) => {
    const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (dx > 1 && dy > 1) out.push(`${gd.id}: "${s}" and "${u}"`); }));
  return out; })"""


# At a phone's width: display equations, figures and tables whose start or end
# no scrolling can bring into view.  For each, walk up its clipping ancestors
# (overflow-x not visible), scroll each to both ends, and measure what stays
# outside; last, the page itself.  Figures given a readable min-width by the
# build (builders/book_html.py) must not be shrunk below it.
CUT_OFF = r"""(() => {
  const clip = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
                        if (getComputedStyle(a).overflowX !== 'visible') return a; return null; };
  function unreachable(el) {
    let lost = [0, 0];
    for (let e = el, a = clip(el); ; e = a, a = clip(a)) {
      const scrolls = a && ['auto', 'scroll'].includes(getComputedStyle(a).overflowX);
      const keep = a ? a.scrollLeft : 0;
      if (scrolls) a.scrollLeft = -1e9;
      const l0 = a ? a.getBoundingClientRect().left : 0, left = e.getBoundingClientRect().left;
      if (scrolls) a.scrollLeft = 1e9;
      const r1 = a ? a.getBoundingClientRect().right : document.documentElement.clientWidth;
      const right = e.getBoundingClientRect().right;
      if (a) a.scrollLeft = keep;
      lost = [Math.max(lost[0], l0 - left), Math.max(lost[1], right - r1)];
      if (!a) return lost;
    }
  }
  const near = e => '#' + ((e.closest('[id]') || {}).id || '');
  const out = [], kinds = [
    ['display equation', 'mjx-container[display="true"]', c => c.querySelector('mjx-math') || c],
    ['inline formula', '.bd-article mjx-container:not([display="true"])', c => c.querySelector('mjx-math') || c],
    ['figure', '.bd-article img', e => e],
    ['table', '.bd-article table', e => e]];
  for (const [kind, selector, part] of kinds) {
    document.querySelectorAll(selector).forEach((e, i) => {
      if (!e.getBoundingClientRect().width) return;
      const [start, end] = unreachable(part(e));
      if (start > 1 || end > 1)
        out.push(`${kind} ${i + 1} (in ${near(e)}): ` + [start > 1 ? `${Math.round(start)} px of its start` : '',
          end > 1 ? `${Math.round(end)} px of its end` : ''].filter(Boolean).join(' and ') + ' cannot be reached');
      // an inline formula wider than the screen hides its end unless the
      // reader thinks of swiping the formula itself: it must fit (or be displayed)
      if (kind === 'inline formula') {
        const box = e.closest('span.math') || e.parentElement;
        const w = part(e).getBoundingClientRect().width;
        if (w > box.getBoundingClientRect().width + 2)
          out.push(`inline formula ${i + 1} (in ${near(e)}) is ${Math.round(w)} px wide, wider than ` +
                   `the screen: display it or break it (${(e.getAttribute('aria-label') || '').slice(0, 60)})`);
      }
      const min = kind === 'figure' && parseFloat(e.style.minWidth);
      if (min && e.getBoundingClientRect().width < min - 1)
        out.push(`figure ${i + 1} (in ${near(e)}) is shrunk to ${Math.round(e.getBoundingClientRect().width)} px, ` +
                 `below the ${min} px at which its text is readable`);
    });
  }
  // a box that scrolls sideways says so (_static/scroll-cue.js)
  if (window.aukbookScrollCue) window.aukbookScrollCue();
  // anything that scrolls sideways (code aside, which scrolls as code does
  // everywhere; inline formulas, checked above) sits in a box with the cue
  const cued = e => {
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const hint = (a.tagName.toLowerCase() === 'mjx-container' ? a.parentElement : a).previousElementSibling;
      if (hint && hint.classList.contains('aukbook-scroll-hint')) return true;
    }
    return false;
  };
  document.querySelectorAll('.bd-article *').forEach(box => {
    if (!['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) return;
    if (box.scrollWidth <= box.clientWidth + 4 || !box.getBoundingClientRect().width) return;
    if (box.closest('.cell_input, div[class*="highlight"], span.math')) return;
    if (!cued(box))
      out.push(`a ${box.tagName.toLowerCase()}.${(box.className || '').toString().split(' ')[0]} ` +
               `(in ${near(box)}) scrolls sideways with no cue`);
  });
  return out;
})()"""


# The folded parts of a page (hidden code: <details>; solutions: the
# admonitions sphinx-togglebutton folds, opened by their button), opened and
# closed again around the second look of the 390 px check.
OPEN_FOLDED = r"""(() => {
  let n = 0;
  document.querySelectorAll('.bd-article details:not([open])').forEach(d => {
    d.open = true; d.dataset.aukbookOpened = '1'; n++; });
  document.querySelectorAll('.bd-article .toggle.toggle-hidden').forEach(e => {
    const btn = e.querySelector('button.toggle-button');
    if (btn) { btn.click(); e.dataset.aukbookOpened = '1'; n++; } });
  return n;
})()"""
CLOSE_FOLDED = r"""(() => {
  document.querySelectorAll('.bd-article [data-aukbook-opened]').forEach(e => {
    if (e.tagName.toLowerCase() === 'details') e.open = false;
    else { const btn = e.querySelector('button.toggle-button'); if (btn) btn.click(); }
    delete e.dataset.aukbookOpened; });
  return 1;
})()"""


def check_narrow(b, path, shots, redraw=0.6, leave=False):
    """At a phone's width the page does not scroll sideways and no figure text is cut off.

    ``redraw``: seconds to let plotly redraw its responsive figures after the
    resize (0 for a page without plotly: reading the layout forces it).
    ``leave``: the caller is done with the page; it is left for a blank one
    before the wide viewport comes back (laying out a long page of math
    again at 1300 px costs as much as the phone's layout did).
    """
    problems = []
    width, height = b.width, b.height
    b.set_viewport(*NARROW, mobile=True, scale=2)
    if redraw:
        b.pump(redraw)
    scroll = b.evaluate("document.documentElement.scrollWidth")
    if scroll > NARROW[0]:
        problems.append(f"at {NARROW[0]} px wide the page scrolls sideways ({scroll} px)")
    cut = b.evaluate(CUT_TEXT)
    if cut:
        problems.append(f"at {NARROW[0]} px wide, text of figure(s) {', '.join(cut)} is cut off")
    overlap = b.evaluate(OVERLAP_TEXT)
    if overlap:
        problems.append(f"at {NARROW[0]} px wide, labels overlap in a figure: {'; '.join(overlap[:5])}")
    problems += [f"at {NARROW[0]} px wide, {p}" for p in b.evaluate(CUT_OFF)]
    # the folded solutions and code, opened as a reader opens them: inside the
    # dropdown's box a formula has less room than the closed page measures
    opened = b.evaluate(OPEN_FOLDED)
    if opened:
        b.pump(0.2)
        seen = set(problems)
        problems += [q for q in (f"at {NARROW[0]} px wide, with the folded parts open, {p}"
                                 for p in b.evaluate(CUT_OFF)) if q.replace(
                                     ", with the folded parts open", "") not in seen]
        b.evaluate(CLOSE_FOLDED)
    if shots:
        name = os.path.splitext(os.path.basename(path))[0] + f"-{NARROW[0]}.png"
        b.screenshot(os.path.join(shots, name))
    if leave:
        b.visit("about:blank", settle=0)
    b.set_viewport(width, height)
    return problems


def check_page(b, path, max_mb, shots, a11y=None):
    """Check one page; with ``a11y`` ({"allow": ..., "axe_js": ...}) also audit its
    accessibility (axe-core, the explorers' keyboard use, a 390 px viewport)."""
    problems = []
    html = open(path, encoding="utf-8").read()
    for m in EXTERNAL.finditer(html):
        problems.append(f"loads from the network: {m.group(0)[:120]}")
    has_math = 'class="math' in html or "\\(" in html or "\\[" in html
    has_plotly = 'class="plotly-graph-div"' in html
    visit = b.visit("file://" + os.path.abspath(path), settle=0)
    if has_math:
        state = b.evaluate(WAIT_MATH, await_promise=True)
        if state != "done":
            problems.append(f"MathJax did not finish ({state})")
    if has_plotly:   # plotly.js is deferred: defined by the load event, or never
        b.visit_wait(f"typeof Plotly === 'undefined' || {PLOTS_DRAWN}", timeout=20)
    b.evaluate(SETTLED, await_promise=True)   # late errors (fonts, timers)
    dom = b.evaluate("document.documentElement.outerHTML")
    stats = {"math": dom.count("<mjx-container"), "plots": dom.count('class="main-svg"')}

    problems += [f"console: {e}" for e in dict.fromkeys(visit.errors)]
    problems += [f"failed to load: {u} ({err})" for u, err in visit.failed]
    remote = [u for u, _ in visit.requests.values() if not u.startswith(("file:", "data:", "blob:"))]
    problems += [f"requested from the network: {u}" for u in dict.fromkeys(remote)]

    core, total = weigh(visit)
    stats["core_mb"], stats["all_mb"] = core / 1e6, total / 1e6
    if not has_plotly and core > max_mb * 1e6:
        problems.append(f"weighs {core / 1e6:.2f} MB (HTML+JS+CSS) > {max_mb} MB")

    loads_plotly = any("plotly" in os.path.basename(local_path(u))
                       for u in visit.urls(("Script",)))
    stats["plotly_js"] = loads_plotly
    if loads_plotly and not has_plotly:
        problems.append("loads plotly.js but draws no plotly figure")
    if has_plotly:
        if not loads_plotly:
            problems.append("has a plotly figure but does not load plotly.js")
        if not re.search(r'<script[^>]*\bdefer\b[^>]*src="[^"]*plotly[^"]*\.js', html):
            problems.append("plotly.js is not loaded with defer")
        if not b.evaluate(PLOTS_DRAWN):
            problems.append("a plotly figure was not drawn (no main-svg)")

    if has_math and stats["math"] == 0:
        problems.append("math present but not rendered (no mjx-container)")
    if "<mjx-merror" in dom or "Math input error" in dom:
        problems.append("MathJax reported an error")
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", dom, flags=re.S)
    body = re.sub(r"<mjx-container.*?</mjx-container>", "", body, flags=re.S)
    if re.search(r"\$\$|\\\(|\\\[|\\frac", body):
        problems.append("raw TeX left in the page")

    if shots:
        name = os.path.splitext(os.path.basename(path))[0] + ".png"
        b.screenshot(os.path.join(shots, name))
    if a11y is not None:
        found, stats["violations"] = audit(b, a11y["allow"], a11y.get("axe_js"),
                                           contrast=a11y.get("contrast", True))
        problems += found
        if has_plotly:
            found, stats["sliders"] = check_explorers(b)
            problems += found
        if a11y.get("narrow", True):
            problems += check_narrow(b, path, shots, redraw=0.6 if has_plotly else 0,
                                     leave=True)
    return problems, stats


def check_search(b, html_dir, query="kappa"):
    page = os.path.join(html_dir, "search.html")
    if not os.path.isfile(page):
        return ["no search.html"], 0
    visit = b.visit("file://" + os.path.abspath(page) + "?q=" + query, settle=0.2)
    count_js = "document.querySelectorAll('#search-results li').length"
    b.visit_wait("document.querySelector('#search-results') && "
                 "/Search finished|found/.test(document.querySelector('#search-results').innerText)",
                 timeout=20)
    b.pump(1.0)                       # summaries are fetched after the list appears
    n = b.evaluate(count_js)
    problems = [f"console: {e}" for e in dict.fromkeys(visit.errors)]
    problems += [f"failed to load: {u} ({err})" for u, err in visit.failed]
    if not n:
        problems.append(f"search for {query!r} found nothing")
    return problems, n


def mathjax_size(html_dir):
    total = 0
    for root, _dirs, files in os.walk(os.path.join(html_dir, "_static", "mathjax")):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total


def edition_pages(html_dir):
    """The pages of one built book that are checked: every chapter page and the index."""
    pages = sorted(glob.glob(os.path.join(html_dir, "chapters", "**", "*.html"), recursive=True))
    return pages + [p for p in [os.path.join(html_dir, "genindex.html")] if os.path.isfile(p)]


def shots_dir(args, html_dir):
    """Where a book's screenshots go (None without --screenshots)."""
    return args.screenshots and os.path.join(args.screenshots, os.path.basename(
        os.path.normpath(html_dir)))


def page_report(b, html_dir, page, k, args, a11y, summary, first_book):
    """Check the k-th page of a book; return (failed, report lines)."""
    shots = shots_dir(args, html_dir)
    # After the first book, colour contrast and the 390 px layout are checked
    # on one page only: a later book (the student edition) has the same
    # stylesheets and the same pages less their solutions; what it adds (its
    # announcement bar) is on every page.  The other rules and checks run on
    # every page of every book.
    contrast = first_book or k == 0
    page_a11y = a11y and dict(a11y, contrast=contrast, narrow=contrast)
    problems, s = check_page(b, page, args.max_mb, shots, page_a11y)
    status = "ok" if not problems else "FAIL"
    lines = [f"{status:4s} {os.path.relpath(page, html_dir):38s} "
             f"{s['core_mb']:5.2f} MB (all {s['all_mb']:5.2f})  math: {s['math']:4d}  "
             f"plots: {s['plots']:2d}  plotly.js: {'yes' if s['plotly_js'] else 'no'}"
             + (f"  keyboard-tested sliders: {s['sliders']}" if s.get("sliders") else "")
             + ("" if a11y is None or contrast
                else "  (contrast and 390 px checked on the first page)")]
    lines += [f"     - {p}" for p in problems]
    summary.add(html_dir, page, s.get("violations", []))
    return bool(problems), lines


def book_report(b, html_dir, a11y, summary, first_book):
    """The checks made once per book: search, and the size of MathJax."""
    problems, n = check_search(b, html_dir)
    if a11y is not None:
        found, violations = audit(b, a11y["allow"], a11y.get("axe_js"), contrast=first_book)
        problems += found
        summary.add(html_dir, os.path.join(html_dir, "search.html"), violations)
    lines = [f"{'ok' if not problems else 'FAIL':4s} search.html?q=kappa: {n} results"]
    lines += [f"     - {p}" for p in problems]
    mj = mathjax_size(html_dir)
    ok = 0 < mj <= MATHJAX_MAX_MB * 1e6
    lines.append(f"{'ok' if ok else 'FAIL':4s} _static/mathjax: {mj / 1e6:.2f} MB "
                 f"(at most {MATHJAX_MAX_MB} MB)")
    return bool(problems) or not ok, lines


def check_books(html_dirs, args, a11y, summary, browsers):
    """Check every page of every book, the pages shared out among ``browsers``.

    A page spends most of its time either computing in its browser or
    waiting (for plotly to redraw, for the page to settle), so several browsers
    working through one queue of pages keep the processors busy.  Returns
    (failed, report lines per book, in page order).
    """
    tasks = []            # (book, slot, function of a browser)

    def first(i):         # the book whose every page gets the contrast and 390 px checks
        return i == 0 and not getattr(args, "styles_checked", False)

    for i, html_dir in enumerate(html_dirs):
        pages = edition_pages(html_dir)
        if not pages:
            tasks.append((i, 0, lambda b, d=html_dir: (True, [
                f"check-html: no pages under {d}/chapters; run `make book` first."])))
            continue
        if args.screenshots:
            os.makedirs(shots_dir(args, html_dir), exist_ok=True)
        for k, page in enumerate(pages):
            tasks.append((i, k, lambda b, d=html_dir, p=page, k=k, f=first(i):
                          page_report(b, d, p, k, args, a11y, summary, f)))
        tasks.append((i, len(pages), lambda b, d=html_dir, f=first(i):
                      book_report(b, d, a11y, summary, f)))
    # the heaviest pages first (the size of a page's HTML, figures and
    # explorers included, stands for its cost; the first book's count twice,
    # as they also get the contrast and 390 px checks), so that no long page starts
    # last while the other browsers have nothing left to do
    def cost(task):
        book, slot, _ = task
        pages = edition_pages(html_dirs[book]) if os.path.isdir(html_dirs[book]) else []
        # the first book's pages also get the contrast and 390 px checks
        return (2 if first(book) else 1) * (os.path.getsize(pages[slot])
                                           if slot < len(pages) else 0)

    tasks.sort(key=cost, reverse=True)
    queue, lock, results = list(reversed(tasks)), threading.Lock(), {}

    def work(b):
        while True:
            with lock:
                if not queue:
                    return
                book, slot, job = queue.pop()
            results[book, slot] = job(b)

    with concurrent.futures.ThreadPoolExecutor(len(browsers)) as pool:
        for done in [pool.submit(work, b) for b in browsers]:
            done.result()
    reports = [[f"== {d}"] for d in html_dirs]
    failed = False
    for (book, _slot), (bad, lines) in sorted(results.items()):
        reports[book] += lines
        failed |= bad
    return failed, reports


class Summary:
    """The accessibility audit's totals over every page of every edition."""

    def __init__(self, allow):
        self.allow = allow
        self.pages = 0
        self.by_impact = collections.Counter()      # impact -> nodes
        self.by_rule = collections.Counter()        # (impact, rule) -> nodes
        self.lock = threading.Lock()

    def add(self, html_dir, page, violations):
        with self.lock:                 # the editions are checked in parallel
            self.pages += 1
            for v in violations:
                self.by_impact[v["impact"]] += len(v["nodes"])
                self.by_rule[(v["impact"], v["id"])] += len(v["nodes"])

    def print(self):
        print(f"accessibility audit (axe-core, {', '.join(AXE_TAGS)}) over {self.pages} pages: "
              + ", ".join(f"{k} {self.by_impact.get(k, 0)}"
                          for k in ("critical", "serious", "moderate", "minor")))
        for (impact, rule), n in sorted(self.by_rule.items()):
            reason = self.allow.get(rule) if impact == "minor" else None
            print(f"     {impact:9s} {rule:28s} {n:4d} elements"
                  + (f"  kept: {reason}" if reason else ""))


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("html_dirs", nargs="+", metavar="html_dir",
                        help="built books to check, e.g. _build/html _build/student-html")
    parser.add_argument("--screenshots", default=None,
                        help="write a screenshot of every page (and one at 390 px wide) here")
    parser.add_argument("--max-mb", type=float, default=2.5,
                        help="largest HTML+JS+CSS of a page without a plotly figure")
    parser.add_argument("--jobs", type=int, default=3,
                        help="browsers working side by side through the pages (default 3)")
    parser.add_argument("--styles-checked", action="store_true",
                        help="the editions given share the stylesheets of one checked in full "
                             "(make test checks _build/html so): colour contrast and the "
                             "390 px layout on the first page of each only")
    parser.add_argument("--no-a11y", action="store_true",
                        help="skip the accessibility audit (axe-core, keyboard, 390 px)")
    args = parser.parse_args(argv)
    if chromium() is None:
        print("check-html: Chromium not found; install Debian's `chromium` package.")
        return 1
    failed = False
    try:
        a11y = None if args.no_a11y else {"allow": load_allow(), "axe_js": axe_source()}
        summary = Summary(a11y["allow"] if a11y else {})
        with contextlib.ExitStack() as stack:
            browsers = [stack.enter_context(Browser()) for _ in range(max(1, args.jobs))]
            failed, reports = check_books(args.html_dirs, args, a11y, summary, browsers)
        for lines in reports:
            print("\n".join(lines), flush=True)
    except BrowserError as exc:
        print(f"check-html: {exc}")
        return 1
    if a11y is not None:
        summary.print()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
