"""Check a PDF edition built by builders/build_pdf.py.

    python checks/check_pdf.py                      # _build/pdf/book.pdf
    python checks/check_pdf.py --edition student    # _build/pdf/book-student.pdf
    python checks/check_pdf.py --source [--edition student]   # no TeX: the LaTeX source

``--source`` (run by tests/test_pdf.py in ``make test``) writes the edition's
LaTeX source with Sphinx's LaTeX builder only (builders/build_pdf.py,
latex_source) and checks what can be checked there: screen-only phrases, TeX
printed as text, folded code, the parts and "Contents", and in the student
edition no solution, rubric or link to the repository.  The PDF checks:

* its page count is in a sane range;
* it holds at least as many images as the chapters have figures (every
  output with an image or a plotly figure, in a cell the book shows), counted
  with ``pdfimages -list`` (poppler-utils);
* ``pdftotext`` finds no unresolved reference ("??") and no "[?]" citation;
* the LaTeX log reports no undefined control sequence or reference (nor a
  link to an undefined label, "Hyper reference ... undefined"), and no line
  more than HBOX_TOLERANCE_PT too wide (an overfull \\hbox);
* no text written for the screen reaches paper (WEB_ONLY: "move the slider",
  "hover", "click", "folded", ...; builders/print_web.py gives such phrases
  a print version);
* the contents are headed "Contents" and list the book's parts (the captions
  of _toc.yml), not "START HERE";
* no TeX prints as text: an escaped dollar or backslash command outside code
  in the LaTeX source (``\\$5 \\textbackslash{}times 2\\$`` was the
  bibliography's "$5 \\times 2$");
* the code the HTML folds (cells tagged hide-input or hide-cell) is not printed;
* the student edition holds no solution, rubric, instructor course page or
  link to the repository.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = (80, 1500)
HIDDEN = {"remove-cell", "remove-output"}
FOLDED = {"hide-input", "hide-cell"}
FIGURE_MIMES = ("image/png", "image/jpeg", "image/svg+xml", "application/vnd.plotly.v1+json")
EDITIONS = {
    "instructor": ("book.pdf", "pdf-src"),
    "student": ("book-student.pdf", "pdf-student-src"),
}
# TeX reports every line more than 0.1pt (\hfuzz) too wide.  Up to 1pt
# (0.35 mm) a line's end is indistinguishable from the justified margin (a
# kerned word, a rounded table width); beyond it a reader sees text in the
# margin, so any such line fails.
HBOX_TOLERANCE_PT = 1.0
OVERFULL = re.compile(r"^Overfull \\hbox \((?P<pt>[\d.]+)pt too wide\) (?P<where>.*)$", re.M)
# a page whose content runs into the bottom margin (reported, not failed: the
# one case, a framed code block inside a framed solution, is framed.sty's)
OVERFULL_PAGE = re.compile(r"^Overfull \\vbox \((?P<pt>[\d.]+)pt too high\) (?P<where>.*)$", re.M)
VBOX_REPORTED_PT = 3.0
# Phrases that only make sense on a screen: the PDF shows a still image of an
# explorer's starting state and leaves folded code out.
WEB_ONLY = {
    "slider instruction": re.compile(r"(?i)\bmove (the|a|it|each) slider|\bmove it to\b"),
    "slider as a control": re.compile(r"(?i)\bset by the slider|\bthe (first |second )?slider sets|\bwith sliders? for"),
    "hover": re.compile(r"(?i)\bhover"),
    "click": re.compile(r"(?i)\bclick(ing)? (on|to|here|the)\b"),   # not "a click log"
    "folded": re.compile(r"(?i)\bfolded\b"),
    "open the cell": re.compile(r"(?i)\bopen the cell"),
    "things to try": re.compile(r"(?i)^things to try"),
    "interactive explorer": re.compile(r"(?i)\ban interactive explorer"),
}
# in the student edition: what points to the answers or belongs to instructors
INSTRUCTOR_ONLY = {
    "solution": re.compile(r"Solution to Exercise"),
    "rubric": re.compile(r"Rubric for Exercise|\bRubrics\b"),
    "instructor course page": re.compile(r"Using this book in a course"),
    "reference answers": re.compile(r"tests/answers"),
    "clone the repository": re.compile(r"(?i)clone (it|the repository)|make book"),
}


def stage_of(edition):
    return os.path.join(ROOT, "_build", EDITIONS[edition][1])


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


def _code_lines(root, keep):
    """Lines (30 characters or more, not comments, whitespace collapsed) of the
    code cells for whose tags ``keep`` is true."""
    lines = []
    for path in sorted(glob.glob(os.path.join(root, "chapters", "*.ipynb"))):
        nb = json.load(open(path, encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code" and keep(set(cell.get("metadata", {}).get("tags", []))):
                lines += [" ".join(line.split()) for line in "".join(cell["source"]).splitlines()
                          if len(line.strip()) >= 30 and not line.strip().startswith("#")]
    return lines


def shown_code(root=ROOT):
    """Lines of the code cells every edition shows (no tag hides or folds them)."""
    return _code_lines(root, lambda tags: not tags & (FOLDED | {"remove-input", "remove-cell"}))


def folded_code(root=ROOT):
    """Distinctive lines of the code cells the HTML folds away (tagged hide-input or
    hide-cell): those that no shown cell also has, whole or within a longer line
    ("from auklib import auc_confidence_interval" is the start of a line a
    shown cell prints: finding it proves nothing)."""
    shown = "\n".join(shown_code(root) + prose(root))
    # ... or across lines of it: `xlabel=..., ylabel=...,` folded in one chapter
    # is two lines of a shown cell in another (the check compares whitespace-free)
    flat = " ".join(shown.split())
    return [line for line in _code_lines(root, lambda tags: bool(tags & FOLDED))
            if line not in shown and " ".join(line.split()) not in flat]


def prose(root=ROOT):
    """The Markdown of the chapters and pages, whitespace collapsed and without
    backticks: a line of code quoted there (an exercise gives the student
    edition's reader ``rng = np.random.default_rng(7)``) is not folded code."""
    texts = [open(p, encoding="utf-8").read()
             for p in sorted(glob.glob(os.path.join(root, "chapters", "*.md")))]
    for path in sorted(glob.glob(os.path.join(root, "chapters", "*.ipynb"))):
        nb = json.load(open(path, encoding="utf-8"))
        texts += ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    return [" ".join(t.replace("`", "").split()) for t in texts]


def page_count(pdf):
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def image_count(pdf):
    """Images drawn in the PDF (pdfimages -list rows of type 'image', not masks)."""
    rows = subprocess.run(["pdfimages", "-list", pdf], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]
    return sum(1 for row in rows if row.split()[2] == "image")


def pdf_text(pdf, layout=True):
    return subprocess.run(["pdftotext"] + (["-layout"] if layout else []) + [pdf, "-"],
                          capture_output=True, text=True, check=True).stdout


def unresolved(text):
    return [line.strip() for line in text.splitlines() if "??" in line or "[?]" in line]


def read_log(log):
    text = open(log, encoding="utf-8", errors="replace").read()
    # TeX breaks the log's lines at 79 characters (a long label pushes the
    # "undefined" of its warning onto the next line): join them again
    return re.sub(r"^(.{79})\n", r"\1", text, flags=re.M)


def log_problems(log):
    if not os.path.exists(log):
        return [f"no LaTeX log at {log}"]
    text = read_log(log)
    return [m.group(0) for m in re.finditer(
        r"Undefined control sequence[^\n]*"
        r"|LaTeX Warning: (Reference|Hyper reference|Citation)[^\n]*undefined[^\n]*",
        text)]


def overfull_lines(log):
    """[(points too wide, where)] of every overfull \\hbox in the LaTeX log."""
    if not os.path.exists(log):
        return []
    return [(float(m.group("pt")), m.group("where")) for m in OVERFULL.finditer(read_log(log))]


def web_phrases(text):
    """[(kind, line)] of screen-only phrases in a text (one paragraph per line or not)."""
    found = []
    for line in text.splitlines():
        for kind, pattern in WEB_ONLY.items():
            if pattern.search(line.strip()):
                found.append((kind, line.strip()))
    return found


def literal_tex(tex):
    """Text that TeX will print as TeX: an escaped dollar, or a backslash command
    escaped as \\textbackslash{}, outside the code (Verbatim) blocks."""
    body = re.sub(r"\\begin\{sphinxVerbatim\}.*?\\end\{sphinxVerbatim\}", "", tex, flags=re.S)
    return [body[max(0, m.start() - 60):m.end() + 40].replace("\n", " ")
            for m in re.finditer(r"\\\$|\\textbackslash\{\}[A-Za-z]+", body)]


VERBATIM = re.compile(r"\\begin\{sphinxVerbatim\}.*?\\end\{sphinxVerbatim\}", re.S)
# Pygments' escapes in the LaTeX of code (\PYGZus{} is "_")
PYGZ = {"us": "_", "ob": "{", "cb": "}", "bs": "\\", "at": "@", "lb": "[", "rb": "]",
        "dq": '"', "sq": "'", "hy": "-", "sh": "#", "do": "$", "pc": "%", "am": "&",
        "lt": "<", "gt": ">", "ti": "~", "ca": "^", "cl": ":", "sc": ";", "ob ": "{"}


# Sphinx's escapes of text characters (the braces kept apart from TeX's groups)
TEX_ESCAPES = {"\\sphinxhyphen{}": "-", "\\textasciitilde{}": "~", "\\textbackslash{}": "\\",
               "\\textasciicircum{}": "^", "\\_": "_", "\\#": "#", "\\%": "%", "\\&": "&",
               "\\$": "$", "\\{": "\0", "\\}": "\1"}


def tex_text(tex):
    """The running text of a LaTeX source, roughly as it prints: code blocks,
    comments, commands and braces removed, one paragraph a line."""
    body = VERBATIM.sub("\n\n", tex)
    body = re.sub(r"(?<!\\)%.*", "", body)
    body = re.sub(r"\\(begin|end)\{[^{}]*\}(\{[^{}]*\})?", " ", body)
    body = re.sub(r"\\(label|phantomsection|index|hyperref|sphinxstepscope)\b(\[[^\]]*\])?(\{[^{}]*\})?", " ", body)
    for escaped, char in TEX_ESCAPES.items():
        body = body.replace(escaped, char)
    body = re.sub(r"\\[A-Za-z@]+\*?", "", body)
    body = body.replace("{", "").replace("}", "").replace("~", " ")
    body = body.replace("\0", "{").replace("\1", "}")
    return "\n".join(" ".join(p.split()) for p in re.split(r"\n\s*\n", body) if p.strip())


def tex_code(tex):
    """The code blocks of a LaTeX source as text (Pygments' markup undone), one
    paragraph: what found_lines searches for folded code."""
    out = []
    for block in VERBATIM.findall(tex):
        block = re.sub(r"\\PYGZ([a-z]{2})\{\}", lambda m: PYGZ.get(m.group(1), ""), block)
        block = re.sub(r"\\PYG\{[^{}]*\}", "", block)
        block = re.sub(r"\\(begin|end)\{sphinxVerbatim\}(\[[^\]]*\])?", "", block)
        out.append(block.replace("{", "").replace("}", ""))
    return "\n".join(out)


def folded_inputs(tex):
    """Code inputs of cells tagged hide-input or hide-cell written into the LaTeX
    (Sphinx writes each container's classes as sphinxuseclass environments)."""
    found, stack = [], []
    for m in re.finditer(r"\\(begin|end)\{sphinxuseclass\}(?:\{([^{}]*)\})?", tex):
        if m.group(1) == "begin":
            stack.append(m.group(2))
            if m.group(2) == "cell_input" and {"tag_hide-input", "tag_hide-cell"} & set(stack):
                found.append(tex[m.end():m.end() + 120].replace("\n", " "))
        elif stack:
            stack.pop()
    return found


def check_source(tex, edition="instructor", stage=None):
    """The checks that need no TeX, on the LaTeX source Sphinx writes
    (builders/build_pdf.py, latex_source): screen-only phrases, TeX printed as
    text, folded code, the parts under "Contents", and in the student edition
    no solution, rubric or link to the repository.  Returns the failures."""
    stage = stage or stage_of(edition)
    source = stage if os.path.isdir(os.path.join(stage, "chapters")) else ROOT
    failures = []
    text = tex_text(tex)
    web = web_phrases(text)
    if web:
        failures.append("screen-only text in the LaTeX: "
                        + " | ".join(f"{kind}: {line[:80]}" for kind, line in web[:10]))
    literal = literal_tex(tex)
    if literal:
        failures.append("TeX printed as text: " + " | ".join(literal[:5]))
    folded = folded_inputs(tex)
    if folded:
        failures.append(f"{len(folded)} folded cell input(s) in the LaTeX: " + " | ".join(folded[:5]))
    printed = found_lines(folded_code(source), tex_code(tex) + "\n" + text)
    if printed:
        failures.append(f"{len(printed)} line(s) of folded code in the LaTeX: "
                        + " | ".join(printed[:5]))
    if "\\renewcommand{\\contentsname}{Contents}" not in tex:
        failures.append("the contents are not headed Contents")
    toc = os.path.join(stage, "_toc.yml")
    if os.path.exists(toc):
        with open(toc, encoding="utf-8") as fh:
            parts = [p["caption"] for p in yaml.safe_load(fh).get("parts", []) if p.get("caption")]
        for caption in parts:
            if "\\part{%s}" % caption not in tex:
                failures.append(f"no part {caption!r} in the LaTeX")
    if edition == "student":
        with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
            url = yaml.safe_load(fh)["repository"]["url"]
        flat = " ".join(text.split())
        for kind, pattern in INSTRUCTOR_ONLY.items():
            m = pattern.search(flat)
            if m:
                failures.append(f"student LaTeX: {kind}: ...{flat[max(0, m.start() - 60):m.end() + 60]}...")
        if url in tex:
            failures.append(f"student LaTeX: a link to the repository {url}")
    return failures


def contents_problems(text, stage):
    """The contents are headed "Contents" and name each part of the _toc."""
    pages = text.split("\f")
    front = "\n".join(pages[:8])
    problems = []
    if re.search(r"^\s*START HERE\s*$", front, re.M):
        problems.append("the contents are headed START HERE")
    if not re.search(r"^\s*CONTENTS\s*$", front, re.M | re.I):
        problems.append("no page headed Contents")
    toc = os.path.join(stage, "_toc.yml")
    if os.path.exists(toc):
        with open(toc, encoding="utf-8") as fh:
            parts = [p["caption"] for p in yaml.safe_load(fh).get("parts", []) if p.get("caption")]
        for caption in parts:
            if not re.search(r"^\s*%s\s+\d+\s*$" % re.escape(caption), front, re.M):
                problems.append(f"the contents do not list the part {caption!r}")
    return problems


def found_lines(lines, text):
    """The lines found in the PDF's text, not counting a docstring's example
    (">>> line", in the API reference)."""
    flat = " ".join(text.split())

    def found(line):
        start = flat.find(line)
        while start >= 0:
            if not flat[max(0, start - 4):start] in (">>> ", "... "):
                return True
            start = flat.find(line, start + 1)
        return False

    return [line for line in lines if found(line)]


def check(pdf, log, edition="instructor", stage=None):
    stage = stage or stage_of(edition)
    source = stage if os.path.isdir(os.path.join(stage, "chapters")) else ROOT
    failures = []
    pages = page_count(pdf)
    figures = chapter_figures(source)
    images = image_count(pdf)
    size = os.path.getsize(pdf)
    print(f"{pdf}: {edition} edition, {pages} pages, {size / 1e6:.1f} MB, {images} images; "
          f"the chapters show {sum(figures.values())} figures")
    for name, n in figures.items():
        print(f"  {name}: {n}")
    if not PAGES[0] <= pages <= PAGES[1]:
        failures.append(f"{pages} pages, outside {PAGES}")
    if images < sum(figures.values()):
        failures.append(f"{images} images in the PDF < {sum(figures.values())} figures")
    text = pdf_text(pdf)
    bad = unresolved(text)
    if bad:
        failures.append("unresolved references: " + " | ".join(bad[:10]))
    problems = log_problems(log)
    if problems:
        failures.append("LaTeX log: " + " | ".join(sorted(set(problems))[:10]))
    overfull = overfull_lines(log)
    wide = [(pt, where) for pt, where in overfull if pt > HBOX_TOLERANCE_PT]
    print(f"  overfull lines: {len(overfull)}, of which {len(wide)} more than "
          f"{HBOX_TOLERANCE_PT}pt too wide")
    if os.path.exists(log):
        tall = [(float(m.group("pt")), m.group("where"))
                for m in OVERFULL_PAGE.finditer(read_log(log))
                if float(m.group("pt")) > VBOX_REPORTED_PT]
        for pt, where in tall:
            print(f"  note: a page's content {pt}pt into the bottom margin, {where}")
    if wide:
        failures.append(f"{len(wide)} line(s) more than {HBOX_TOLERANCE_PT}pt too wide: "
                        + " | ".join(f"{pt}pt {where}" for pt, where in wide[:10]))
    web = web_phrases(pdf_text(pdf, layout=False))
    if web:
        failures.append("screen-only text in the PDF: "
                        + " | ".join(f"{kind}: {line[:80]}" for kind, line in web[:10]))
    failures += contents_problems(text, stage)
    tex = os.path.join(os.path.dirname(log), "book.tex")
    if os.path.exists(tex):
        literal = literal_tex(open(tex, encoding="utf-8").read())
        if literal:
            failures.append("TeX printed as text: " + " | ".join(literal[:5]))
    folded = found_lines(folded_code(source), text)
    if folded:
        failures.append(f"{len(folded)} line(s) of folded code printed: " + " | ".join(folded[:5]))
    if edition == "student":
        with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
            url = yaml.safe_load(fh)["repository"]["url"]
        flat = " ".join(text.split())
        for kind, pattern in dict(INSTRUCTOR_ONLY, repository=re.compile(re.escape(url))).items():
            m = pattern.search(flat)
            if m:
                failures.append(f"student PDF: {kind}: ...{flat[max(0, m.start() - 60):m.end() + 60]}...")
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("PDF check OK")
    return 1 if failures else 0


def check_latex_only(edition="instructor"):
    """Write the edition's LaTeX source (no TeX needed) and run check_source on it."""
    sys.path.insert(0, os.path.join(ROOT, "builders"))
    import build_pdf

    tex, log = build_pdf.latex_source(edition)
    if tex is None:
        print(log[-3000:])
        print(f"FAIL: the {edition} edition's LaTeX source was not written")
        return 1
    failures = check_source(open(tex, encoding="utf-8").read(), edition,
                            os.path.dirname(os.path.dirname(os.path.dirname(tex))))
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print(f"{os.path.relpath(tex, ROOT)}: LaTeX source check OK")
    return 1 if failures else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", nargs="?", default=None)
    parser.add_argument("--edition", choices=sorted(EDITIONS), default="instructor")
    parser.add_argument("--source", action="store_true",
                        help="no TeX: write the LaTeX source only and check it")
    args = parser.parse_args(argv)
    if args.source:
        return check_latex_only(args.edition)
    name, folder = EDITIONS[args.edition]
    pdf = args.pdf or os.path.join(ROOT, "_build", "pdf", name)
    log = os.path.join(ROOT, "_build", folder, "_build", "latex", "book.log")
    return check(pdf, log, args.edition)


if __name__ == "__main__":
    sys.exit(main())
