"""Open the built pages in headless Chromium, offline, and check what renders.

    python tools/check_html.py _build/html [--screenshots DIR]

For every chapter page:
* no script, stylesheet or font is loaded from the network (static scan);
* Chromium, with every network request sent to a dead proxy, renders the
  page; where the page has math, MathJax has turned it into <mjx-container>
  elements with no errors, and no raw TeX delimiters are left;
* where the page has a plotly figure, plotly has drawn its SVG.
Exits 1 with a list of failures.  Needs Debian's `chromium` package.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-quic", "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
]
EXTERNAL = re.compile(r'<(?:script|link|img)[^>]+(?:src|href)="(?:https?:)?//[^"]+"', re.I)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def render(browser, url, profile, extra):
    cmd = [browser, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=20000", *extra, url]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    return proc.stdout


def check_page(browser, path, shots):
    problems = []
    html = open(path, encoding="utf-8").read()
    for m in EXTERNAL.finditer(html):
        problems.append(f"loads from the network: {m.group(0)[:120]}")
    has_math = 'class="math' in html or "\\(" in html or "\\[" in html
    has_plotly = "plotly-graph-div" in html
    url = "file://" + os.path.abspath(path)
    with tempfile.TemporaryDirectory() as profile:
        dom = render(browser, url, profile, ["--dump-dom"])
        if shots:
            name = os.path.splitext(os.path.basename(path))[0] + ".png"
            render(browser, url, profile, [f"--screenshot={os.path.join(shots, name)}",
                                           "--window-size=1200,1600"])
    if not dom.strip():
        return problems + ["Chromium returned no DOM"], 0, 0
    n_math = dom.count("<mjx-container")
    if has_math and n_math == 0:
        problems.append("math present but not rendered (no mjx-container)")
    if "<mjx-merror" in dom or "Math input error" in dom:
        problems.append("MathJax reported an error")
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", dom, flags=re.S)
    body = re.sub(r"<mjx-container.*?</mjx-container>", "", body, flags=re.S)
    if re.search(r"\$\$|\\\(|\\\[|\\frac", body):
        problems.append("raw TeX left in the page")
    n_plots = dom.count('class="main-svg"')
    if has_plotly and n_plots == 0:
        problems.append("plotly figure present but not drawn (no main-svg)")
    return problems, n_math, n_plots


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("html_dir")
    parser.add_argument("--screenshots", default=None)
    args = parser.parse_args()
    browser = chromium()
    if browser is None:
        print("check-html: Chromium not found; install Debian's `chromium` package.")
        return 1
    pages = sorted(glob.glob(os.path.join(args.html_dir, "chapters", "*.html")))
    if not pages:
        print(f"check-html: no pages under {args.html_dir}/chapters; run `make book` first.")
        return 1
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    failed = False
    for page in pages:
        problems, n_math, n_plots = check_page(browser, page, args.screenshots)
        status = "ok" if not problems else "FAIL"
        print(f"{status:4s} {os.path.relpath(page, args.html_dir):45s} math: {n_math:4d}  plots: {n_plots}")
        for p in problems:
            print(f"     - {p}")
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
