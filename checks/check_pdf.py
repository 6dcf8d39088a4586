"""Check the PDF edition built by builders/build_pdf.py.

    python checks/check_pdf.py [PDF]         (default: _build/pdf/book.pdf)

* its page count is in a sane range;
* it holds at least as many images as the chapters have figures (every
  output with an image or a plotly figure, in a cell the book shows), counted
  with ``pdfimages -list`` (poppler-utils);
* ``pdftotext`` finds no unresolved reference ("??") and no "[?]" citation;
* the LaTeX log reports no undefined control sequence or reference (nor a
  link to an undefined label, "Hyper reference ... undefined").
"""

import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = (80, 1500)
HIDDEN = {"remove-cell", "remove-output"}
FIGURE_MIMES = ("image/png", "image/jpeg", "image/svg+xml", "application/vnd.plotly.v1+json")


def chapter_figures(root=ROOT):
    """{notebook name: number of figure outputs the book shows}."""
    counts = {}
    for path in sorted(glob.glob(os.path.join(root, "chapters", "*.ipynb"))):
        nb = json.load(open(path, encoding="utf-8"))
        n = 0
        for cell in nb["cells"]:
            if HIDDEN & set(cell.get("metadata", {}).get("tags", [])):
                continue
            for out in cell.get("outputs", []):
                if any(m in out.get("data", {}) for m in FIGURE_MIMES):
                    n += 1
        counts[os.path.basename(path)] = n
    return counts


def page_count(pdf):
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def image_count(pdf):
    """Images drawn in the PDF (pdfimages -list rows of type 'image', not masks)."""
    rows = subprocess.run(["pdfimages", "-list", pdf], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]
    return sum(1 for row in rows if row.split()[2] == "image")


def unresolved(pdf):
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True,
                          check=True).stdout
    return [line.strip() for line in text.splitlines() if "??" in line or "[?]" in line]


def log_problems(log):
    if not os.path.exists(log):
        return [f"no LaTeX log at {log}"]
    text = open(log, encoding="utf-8", errors="replace").read()
    # TeX breaks the log's lines at 79 characters (a long label pushes the
    # "undefined" of its warning onto the next line): join them again
    text = re.sub(r"^(.{79})\n", r"\1", text, flags=re.M)
    return [m.group(0) for m in re.finditer(
        r"Undefined control sequence[^\n]*"
        r"|LaTeX Warning: (Reference|Hyper reference|Citation)[^\n]*undefined[^\n]*",
        text)]


def check(pdf, log):
    failures = []
    pages = page_count(pdf)
    figures = chapter_figures()
    images = image_count(pdf)
    print(f"{pdf}: {pages} pages, {images} images; the chapters show "
          f"{sum(figures.values())} figures")
    for name, n in figures.items():
        print(f"  {name}: {n}")
    if not PAGES[0] <= pages <= PAGES[1]:
        failures.append(f"{pages} pages, outside {PAGES}")
    if images < sum(figures.values()):
        failures.append(f"{images} images in the PDF < {sum(figures.values())} figures")
    bad = unresolved(pdf)
    if bad:
        failures.append("unresolved references: " + " | ".join(bad[:10]))
    problems = log_problems(log)
    if problems:
        failures.append("LaTeX log: " + " | ".join(sorted(set(problems))[:10]))
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("PDF check OK")
    return 1 if failures else 0


if __name__ == "__main__":
    pdf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "_build", "pdf", "book.pdf")
    log = os.path.join(ROOT, "_build", "pdf-src", "_build", "latex", "book.log")
    raise SystemExit(check(pdf, log))
