"""Build the book as one PDF: _build/pdf/book.pdf, or the student edition's.

    python builders/build_pdf.py                      # _build/pdf/book.pdf
    python builders/build_pdf.py --edition student    # _build/pdf/book-student.pdf

The instructor's PDF is the whole book (solutions, rubrics, the course page).
The student PDF is made from the student edition's pages
(course/make_student.py, stage_student_book): no solution, no rubric, the
student course page and intro, nothing that points to the answers.

Sphinx's LaTeX builder (through ``jupyter-book build --builder pdflatex``,
engine and options under ``latex:`` in _config.yml) and latexmk from the TeX
distribution (builders/install_tex.sh installs Debian's packages).

The chapters' plotly figures are HTML, which LaTeX cannot show.  The build
works on a copy of the book in _build/pdf-src (or _build/pdf-student-src;
the chapter notebooks are
neither re-executed nor touched): every output that carries plotly JSON but
no static image gets an ``image/png`` drawn with matplotlib from that JSON
(the figure's starting state, :func:`aukbook.preview.plotly_to_matplotlib`),
and the LaTeX builder takes the PNG.

The instructor's PDF is also copied to _build/html/_static/book.pdf when the
HTML book exists (builders/pdf_link.py links every HTML page to it; the
student HTML edition links to the student PDF when it exists at the time of
`make student`).  checks/check_pdf.py then checks it.
"""

import argparse
import base64
import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "_build", "pdf")
# edition: (staging folder, PDF written)
EDITIONS = {
    "instructor": (os.path.join(ROOT, "_build", "pdf-src"), os.path.join(OUT, "book.pdf")),
    "student": (os.path.join(ROOT, "_build", "pdf-student-src"),
                os.path.join(OUT, "book-student.pdf")),
}
STAGE = EDITIONS["instructor"][0]
PLOTLY = "application/vnd.plotly.v1+json"
# what the staging copy needs to build the book
COPY = ["_config.yml", "_toc.yml", "references.bib", "chapters", "builders"]


def decode(node):
    """Plotly JSON with its typed arrays ({"dtype", "bdata"}) made lists again."""
    import numpy as np

    if isinstance(node, dict):
        if "bdata" in node and "dtype" in node:
            arr = np.frombuffer(base64.b64decode(node["bdata"]), dtype=node["dtype"])
            if "shape" in node:
                shape = node["shape"]
                if isinstance(shape, str):
                    shape = [int(k) for k in shape.split(",")]
                arr = arr.reshape(shape)
            return arr.tolist()
        return {k: decode(v) for k, v in node.items()}
    if isinstance(node, list):
        return [decode(v) for v in node]
    return node


def static_image(spec):
    """PNG (base64) of a plotly figure's starting state, from its JSON."""
    import plotly.graph_objects as go

    from aukbook.preview import plotly_to_matplotlib

    fig = go.Figure(decode(spec))
    buf = io.BytesIO()
    plotly_to_matplotlib(fig).savefig(buf, format="png", dpi=150)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def add_static_images(path):
    """Give every plotly output of the notebook at ``path`` a PNG; return how many."""
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    added = 0
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if PLOTLY in data and "image/png" not in data:
                data["image/png"] = static_image(data[PLOTLY])
                added += 1
            if PLOTLY in data:
                # the LaTeX builder would pick text/html before image/png
                data.pop("text/html", None)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(nb, fh, indent=1, ensure_ascii=False)
    return added


def stage(edition="instructor", folder=None):
    folder = folder or EDITIONS[edition][0]
    if edition == "student":
        sys.path.insert(0, os.path.join(ROOT, "course"))
        from make_student import HTML_EXTENSIONS, stage_student_book

        stage_student_book(folder, extensions=HTML_EXTENSIONS + ("pdf_latex.py",))
    else:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name in COPY:
            src = os.path.join(ROOT, name)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(folder, name),
                                ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
            else:
                shutil.copy2(src, os.path.join(folder, name))
    # the LaTeX-only extension (builders/pdf_latex.py) joins the staged config
    # only, so the HTML builds never load it
    with open(os.path.join(folder, "_config.yml"), encoding="utf-8") as fh:
        config = yaml.safe_load(fh)
    config["sphinx"].setdefault("local_extensions", {})["pdf_latex"] = "builders/"
    with open(os.path.join(folder, "_config.yml"), "w", encoding="utf-8") as fh:
        yaml.safe_dump(config, fh, sort_keys=False, allow_unicode=True)
    added = 0
    for path in sorted(glob.glob(os.path.join(folder, "chapters", "*.ipynb"))):
        added += add_static_images(path)
    print(f"staged the {edition} edition in {os.path.relpath(folder, ROOT)}; "
          f"{added} plotly figure(s) given a static image")


def latex_source(edition="instructor", plant=None):
    """Stage the edition and write its LaTeX source only (Sphinx's LaTeX
    builder, no TeX run): _build/pdf-src-tex/_build/latex/book.tex (or
    _build/pdf-student-src-tex/...), for the checks
    that need no TeX (checks/check_pdf.py, check_source; tests/test_pdf.py).

    ``plant`` (a function of the staging folder) may change the staged pages
    first: the tests plant a screen-only phrase the check must find.
    Returns the path of book.tex (None if the build failed) and the log.
    """
    folder = EDITIONS[edition][0] + "-tex"     # the PDF's own build stays as it is
    stage(edition, folder)
    if plant is not None:
        plant(folder)
    shutil.rmtree(os.path.join(folder, "_build", "latex"), ignore_errors=True)
    jb = os.path.join(os.path.dirname(sys.executable), "jupyter-book")
    proc = subprocess.run([jb, "build", folder, "--builder", "latex", "--keep-going"],
                          capture_output=True, text=True)
    tex = os.path.join(folder, "_build", "latex", "book.tex")
    log = proc.stdout + proc.stderr
    return (tex if proc.returncode == 0 and os.path.exists(tex) else None), log


def build(edition="instructor"):
    if shutil.which("latexmk") is None:
        print("latexmk not found: run builders/install_tex.sh (as root) first")
        return 1
    folder, target = EDITIONS[edition]
    stage(edition)
    # no PDF from an earlier build may pass for this one
    shutil.rmtree(os.path.join(folder, "_build", "latex"), ignore_errors=True)
    jb = os.path.join(os.path.dirname(sys.executable), "jupyter-book")
    cmd = [jb, "build", folder, "--builder", "pdflatex", "--keep-going"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    name = "pdf-build.log" if edition == "instructor" else f"pdf-{edition}-build.log"
    with open(os.path.join(ROOT, "_build", name), "w") as fh:
        fh.write(log)
    pdfs = glob.glob(os.path.join(folder, "_build", "latex", "*.pdf"))
    problems = [line for line in log.splitlines()
                if re.search(r"\b(WARNING|ERROR|CRITICAL)\b|Traceback", line)
                and "Kernel is running over TCP" not in line]
    print(log[-2000:])
    if proc.returncode != 0 or len(pdfs) != 1:
        print(f"PDF build FAILED (exit {proc.returncode}); see _build/{name}")
        for line in problems[:50]:
            print("  " + line)
        return 1
    if problems:
        print("PDF build warnings:")
        for line in problems[:50]:
            print("  " + line)
    os.makedirs(OUT, exist_ok=True)
    shutil.copyfile(pdfs[0], target)
    html_static = os.path.join(ROOT, "_build", "html", "_static")
    if edition == "instructor" and os.path.isdir(html_static):
        shutil.copyfile(target, os.path.join(html_static, "book.pdf"))
    print(f"PDF: {os.path.relpath(target, ROOT)}")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", choices=sorted(EDITIONS), default="instructor")
    return build(parser.parse_args(argv).edition)


if __name__ == "__main__":
    raise SystemExit(main())
