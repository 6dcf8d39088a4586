"""Measure what a chapter asks of a student: reading, exercises, run time.

    python course/course_metrics.py [--student DIR] [--no-run]

Writes chapters/data/course_metrics.json with, per chapter:

* ``words``: the words of prose a student reads, counted in the instructor
  notebook's Markdown cells with the solutions removed (the same function
  that writes the student edition, course/make_student.py) plus the figure
  captions (``caption`` in a code cell's ``mystnb.figure`` metadata). Words are
  whitespace-separated tokens after code blocks, display mathematics, MyST
  directive fences and option lines, HTML comments and link targets are
  dropped; inline mathematics counts as one word per ``$...$``.
* ``reading_minutes``: words / READING_RATE. READING_RATE = 200 words per
  minute, the rate for technical text with equations: Brysbaert (2019),
  "How many words do we read per minute?", J. Mem. Lang. 109:104047, puts
  silent reading of English non-fiction at 238 wpm on average; Carver
  (1990), "Reading rate: a review of research and theory", gives about 200 wpm
  for "learning" rather than "rauding" reading. Mathematics slows reading
  further, so 200 wpm is a lower bound on time, not an estimate of study time.
* ``exercises``: the number of exercises by kind (``KIND`` below: each
  exercise's kind read by hand from its text: ``derivation`` asks for a
  proof or a formula, ``computation`` for a number, ``interpretation`` for
  a judgement in words; an exercise that asks for more than one thing has
  every kind it asks for, and ``labels`` lists them).
* ``run_cpu_seconds``: the CPU time (user + system) of the Jupyter kernel
  process and its children, measured with psutil, while nbclient executes
  the student notebook (student/chapters/<chapter>.ipynb, written by
  ``make student``) from top to bottom in a fresh kernel, with
  OMP_NUM_THREADS=1, OPENBLAS_CORETYPE=Haswell and PYTHONHASHSEED=0. CPU time,
  not wall time, because the measuring machine was shared: wall time counts
  the waits for other people's processes, CPU time does not. It includes
  the kernel's start-up (importing numpy, scipy, matplotlib, auklib).
  ``run_wall_seconds`` is recorded too, for reference only.
"""

import argparse
import json
import os
import re
import sys
import time

import nbformat
import psutil
from nbclient import NotebookClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course"))
from make_student import LABEL, without_solutions  # noqa: E402
from myst_markdown import for_medium  # noqa: E402

OUT = os.path.join(ROOT, "chapters", "data", "course_metrics.json")
READING_RATE = 200  # words per minute, technical text (see the docstring)

# Each exercise's kinds, read from its text (see the docstring).
KIND = {
    "ch1-ex-counts": ("derivation", "computation"),
    "ch1-ex-fourth": ("computation", "interpretation"),
    "ch1-ex-random": ("derivation", "computation", "interpretation"),
    "ch2-ex-binormal": ("derivation", "computation"),
    "ch2-ex-pairs": ("computation", "interpretation"),
    "ch2-ex-mix": ("computation", "interpretation"),
    "ch2-ex-flip": ("derivation", "computation", "interpretation"),
    "ch3-ex-corner": ("derivation",),
    "ch3-ex-target": ("computation",),
    "ch3-ex-straight": ("computation", "interpretation"),
    "ch4-ex-crisp": ("computation", "interpretation"),
    "ch4-ex-skew": ("computation", "interpretation"),
    "ch4-ex-shape": ("computation", "interpretation"),
    "ch4-ex-deploy": ("computation", "interpretation"),
    "ch5-ex-pivot": ("computation", "interpretation"),
    "ch5-ex-solve": ("computation",),
    "ch5-ex-deploy": ("computation", "interpretation"),
    "ch6-ex-table": ("computation",),
    "ch6-ex-wrong": ("derivation", "computation"),
    "ch6-ex-weighted": ("computation", "interpretation"),
    "ch7-ex-split": ("computation", "interpretation"),
    "ch7-ex-hull": ("computation", "interpretation"),
    "ch7-ex-interpret": ("interpretation",),
    "ch8-ex-friedman": ("computation", "interpretation"),
    "ch8-ex-null": ("computation",),
    "ch8-ex-threshold": ("computation", "interpretation"),
    "ch9-ex-positives": ("computation",),
    "ch9-ex-misses": ("computation", "interpretation"),
    "ch9-ex-swap": ("computation", "interpretation"),
    "ch10-ex-bc": ("computation", "interpretation"),
    "ch10-ex-paired": ("computation", "interpretation"),
    "ch11-ex-tables": ("computation",),
    "ch11-ex-hand": ("computation",),
    "ch11-ex-report": ("derivation", "computation"),
    "ch11-ex-choose": ("interpretation",),
    "ch12-ex-bins": ("computation", "interpretation"),
    "ch12-ex-start": ("computation",),
    "ch14-ex-brier": ("computation", "interpretation"),
    "ch14-ex-weights": ("derivation", "computation"),
    "ch14-ex-rate": ("computation", "interpretation"),
    "ch13-ex-placements": ("computation", "interpretation"),
    "ch13-ex-kappa": ("computation",),
    "ch13-ex-mcnemar": ("computation", "interpretation"),
    "ch13-ex-folds": ("derivation", "computation"),
    "ch13-ex-cd": ("computation", "interpretation"),
}
KINDS = ("derivation", "computation", "interpretation")

DROP = [
    re.compile(r"^(`{3,}|~{3,})(?!\{).*?^\1[ \t]*$", re.S | re.M),  # code blocks
    re.compile(r"\$\$.*?\$\$", re.S),                       # display maths
    re.compile(r"<!--.*?-->", re.S),                        # comments
    re.compile(r"^[ \t]*(:{3,}|`{3,})\{?[\w-]*\}?.*$", re.M),  # fences, titles kept below
    re.compile(r"^[ \t]*:[\w-]+:.*$", re.M),                # directive options
    re.compile(r"^\([\w-]+\)=[ \t]*$", re.M),               # (label)= targets
]
INLINE_MATH = re.compile(r"\$[^$\n]+\$")
TITLE = re.compile(r"^[ \t]*(?::{3,}|`{3,})\{[\w-]+\}[ \t]*(.*)$", re.M)
ROLE = re.compile(r"\{[\w:-]+\}`([^`<]*?)(?:\s*<[^`]*>)?`")


def prose_words(text):
    """The number of words a reader reads in one Markdown text."""
    text = for_medium(text, "web")                  # what the screen shows, not {print}
    titles = " ".join(TITLE.findall(text))          # a directive's title is read
    for rx in DROP:
        text = rx.sub(" ", text)
    text = ROLE.sub(lambda m: m.group(1) or "ref", text)  # {ref}`(11) <eq-11>` -> (11)
    text = INLINE_MATH.sub(" x ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)               # [text](target) -> [text]
    tokens = [t for t in (text + " " + titles).split() if re.search(r"[\w\d]", t)]
    return len(tokens)


def chapter_text(nb):
    """Markdown a student reads (solutions removed) and the figure captions."""
    student = without_solutions(nb)
    md = [c.source for c in student.cells if c.cell_type == "markdown"]
    captions = []
    for c in nb.cells:
        meta = c.get("metadata", {})
        fig = meta.get("mystnb", meta.get("myst", {})).get("figure", {})
        if c.cell_type == "code" and fig.get("caption"):
            captions.append(fig["caption"])
    return md, captions


def exercise_labels(nb):
    return [m.group(1) for c in nb.cells if c.cell_type == "markdown"
            for m in LABEL.finditer(c.source)]


def cpu_of(proc):
    """User + system CPU seconds of a process and its children (alive or reaped)."""
    total = 0.0
    for p in [proc] + proc.children(recursive=True):
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
        if p is proc:
            total += t.children_user + t.children_system
    return total


def run_notebook(path):
    """Execute a notebook in a fresh kernel; return (kernel CPU s, wall s)."""
    env = {"OMP_NUM_THREADS": "1", "OPENBLAS_CORETYPE": "Haswell", "PYTHONHASHSEED": "0",
           "MPLBACKEND": "Agg"}
    os.environ.update(env)
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(path)}})
    cpu = wall = None
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid
        proc = psutil.Process(pid)
        start_cpu = 0.0   # the kernel's start-up is part of a student's run
        t0 = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        wall = time.perf_counter() - t0
        cpu = cpu_of(proc) - start_cpu
    return cpu, wall


def measure(student_dir, run=True, only=None):
    chapters = {}
    names = sorted(f for f in os.listdir(os.path.join(ROOT, "chapters"))
                   if re.match(r"ch\d\d_.*\.ipynb$", f))
    for name in names:
        doc = name[:-6]
        if only and doc not in only:
            continue
        nb = nbformat.read(os.path.join(ROOT, "chapters", name), as_version=4)
        md, captions = chapter_text(nb)
        words_md = sum(prose_words(t) for t in md)
        words_cap = sum(prose_words(t) for t in captions)
        labels = exercise_labels(nb)
        unknown = [lab for lab in labels if lab not in KIND]
        if unknown:
            raise SystemExit(f"{doc}: exercises without a kind in KIND: {unknown}")
        kinds = {k: sum(k in KIND[lab] for lab in labels) for k in KINDS}
        entry = {
            "words": words_md + words_cap,
            "words_markdown": words_md,
            "words_captions": words_cap,
            "reading_minutes": round((words_md + words_cap) / READING_RATE, 1),
            "exercises": len(labels),
            "exercises_by_kind": kinds,
            "labels": {lab: list(KIND[lab]) for lab in labels},
        }
        if run:
            cpu, wall = run_notebook(os.path.join(student_dir, "chapters", name))
            entry["run_cpu_seconds"] = round(cpu, 1)
            entry["run_wall_seconds"] = round(wall, 1)
            print(f"{doc}: {entry['words']} words, cpu {cpu:.1f} s, wall {wall:.1f} s",
                  flush=True)
        chapters[doc] = entry
    return chapters


def half_up(x):
    return int(x + 0.5)


def table_cells(entry):
    """The measured cells of one row of the table in chapters/course.md."""
    by = entry["exercises_by_kind"]
    return (f"{half_up(entry['words'] / 100) * 100:,} words, "
            f"{half_up(entry['reading_minutes'])} min",
            f"{half_up(entry['run_cpu_seconds'])} s",
            f"{entry['exercises']} ({by['derivation']} / {by['computation']} / "
            f"{by['interpretation']})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--student", default=os.path.join(ROOT, "student"),
                        help="the notebook edition written by `make student`")
    parser.add_argument("--no-run", action="store_true",
                        help="count words and exercises only; keep stored run times")
    parser.add_argument("--table", action="store_true",
                        help="print the measured cells of the course page's table and stop")
    parser.add_argument("--only", nargs="*", help="chapters to measure (e.g. ch01_accuracy_kappa)")
    args = parser.parse_args(argv)
    if args.table:
        with open(OUT, encoding="utf-8") as fh:
            for doc, entry in json.load(fh)["chapters"].items():
                print(f"| {{doc}}`{doc}` | " + " | ".join(table_cells(entry)) + " |")
        return
    old = {}
    if os.path.exists(OUT):
        with open(OUT, encoding="utf-8") as fh:
            old = json.load(fh)["chapters"]
    chapters = measure(args.student, run=not args.no_run, only=args.only)
    for doc, entry in chapters.items():
        for key in ("run_cpu_seconds", "run_wall_seconds"):
            if key not in entry and key in old.get(doc, {}):
                entry[key] = old[doc][key]
    merged = {**old, **chapters}
    out = {
        "reading_rate_wpm": READING_RATE,
        "how": ("words: Markdown cells of the chapter without solutions plus figure "
                "captions; run time: CPU seconds (user+system) of the kernel process "
                "executing the student notebook with nbclient, OMP_NUM_THREADS=1, "
                "OPENBLAS_CORETYPE=Haswell, on a shared 2-core machine"),
        "machine": {"python": sys.version.split()[0], "cpus": os.cpu_count()},
        "chapters": dict(sorted(merged.items())),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
