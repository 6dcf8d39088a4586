"""Open the built pages in headless Chromium, offline, and check what a reader gets.

    python tools/check_html.py _build/html [--screenshots DIR] [--max-mb 2.5]

One Chromium, driven over the DevTools protocol on a pipe (tools/browser.py;
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
And once for the book: _static/mathjax holds at most 3 MB.
Exits 1 with a list of failures.
"""

import argparse
import glob
import os
import re
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, BrowserError, chromium  # noqa: E402

EXTERNAL = re.compile(r'<(?:script|link|img)[^>]+(?:src|href)="(?:https?:)?//[^"]+"', re.I)
CORE_KINDS = ("Document", "Script", "Stylesheet")
MATHJAX_MAX_MB = 3.0

WAIT_MATH = """(() => {
  if (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) return 'no mathjax';
  const timeout = new Promise(r => setTimeout(() => r('timeout'), 20000));
  return Promise.race([MathJax.startup.promise.then(() => 'done'), timeout]);
})()"""
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


def check_page(b, path, max_mb, shots):
    problems = []
    html = open(path, encoding="utf-8").read()
    for m in EXTERNAL.finditer(html):
        problems.append(f"loads from the network: {m.group(0)[:120]}")
    has_math = 'class="math' in html or "\\(" in html or "\\[" in html
    has_plotly = 'class="plotly-graph-div"' in html
    visit = b.visit("file://" + os.path.abspath(path), settle=0.2)
    if has_math:
        state = b.evaluate(WAIT_MATH, await_promise=True)
        if state != "done":
            problems.append(f"MathJax did not finish ({state})")
    if has_plotly:   # plotly.js is deferred: defined by the load event, or never
        b.visit_wait(f"typeof Plotly === 'undefined' || {PLOTS_DRAWN}", timeout=20)
    b.pump(0.3)                       # late errors (fonts, deferred scripts)
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


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("html_dir")
    parser.add_argument("--screenshots", default=None)
    parser.add_argument("--max-mb", type=float, default=2.5,
                        help="largest HTML+JS+CSS of a page without a plotly figure")
    args = parser.parse_args(argv)
    if chromium() is None:
        print("check-html: Chromium not found; install Debian's `chromium` package.")
        return 1
    pages = sorted(glob.glob(os.path.join(args.html_dir, "chapters", "*.html")))
    if not pages:
        print(f"check-html: no pages under {args.html_dir}/chapters; run `make book` first.")
        return 1
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    failed = False
    try:
        with Browser() as b:
            for page in pages:
                problems, s = check_page(b, page, args.max_mb, args.screenshots)
                status = "ok" if not problems else "FAIL"
                print(f"{status:4s} {os.path.relpath(page, args.html_dir):38s} "
                      f"{s['core_mb']:5.2f} MB (all {s['all_mb']:5.2f})  math: {s['math']:4d}  "
                      f"plots: {s['plots']:2d}  plotly.js: {'yes' if s['plotly_js'] else 'no'}")
                for p in problems:
                    print(f"     - {p}")
                failed |= bool(problems)
            problems, n = check_search(b, args.html_dir)
            print(f"{'ok' if not problems else 'FAIL':4s} search.html?q=kappa: {n} results")
            for p in problems:
                print(f"     - {p}")
            failed |= bool(problems)
    except BrowserError as exc:
        print(f"check-html: {exc}")
        return 1
    mj = mathjax_size(args.html_dir)
    ok = 0 < mj <= MATHJAX_MAX_MB * 1e6
    print(f"{'ok' if ok else 'FAIL':4s} _static/mathjax: {mj / 1e6:.2f} MB (at most {MATHJAX_MAX_MB} MB)")
    failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
