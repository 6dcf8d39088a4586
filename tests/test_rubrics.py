"""chapters/rubrics.md: a rubric for every derivation and interpretation
exercise, and a page the student editions leave out.

The kinds of each exercise are recorded in course/course_metrics.py (KIND).
The last test builds both student editions (notebooks, zip and HTML) and
proves that the rubrics reach none of their files nor their table of contents.
"""

import glob
import io
import os
import re
import sys
import zipfile

import nbformat
import pytest
import yaml

from conftest import student_edition

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import course_metrics  # noqa: E402
from make_student import student_toc  # noqa: E402

PAGE = os.path.join(ROOT, "chapters", "rubrics.md")
RUBRICS = open(PAGE, encoding="utf-8").read()
# "### <the exercise's title> — <kinds>, <n> points", then "Rubric for {ref}`<label>`."
HEAD = re.compile(r"^### (.+) — ([a-z ]+), (\d+(?:\.\d+)?) points\n\n"
                  r"Rubric for \{ref\}`([\w-]+)`\.$", re.M)
# Sentences of the page that a student file must not hold.
MARKERS = ["This page is for instructors", "What a full answer contains is the reference"]


def rubric_blocks():
    heads = list(HEAD.finditer(RUBRICS))
    return {m.group(4): (m, RUBRICS[m.end():heads[i + 1].start() if i + 1 < len(heads)
                                    else len(RUBRICS)])
            for i, m in enumerate(heads)}


def exercise_titles():
    titles = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb"))):
        for cell in nbformat.read(path, as_version=4).cells:
            for m in re.finditer(r"\{exercise\}[ \t]*([^\n]*)\n[ \t]*:label: (\S+)", cell.source):
                titles[m.group(2)] = m.group(1).strip()
    return titles


def all_labels():
    labels = []
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb"))):
        labels += course_metrics.exercise_labels(nbformat.read(path, as_version=4))
    return labels


def test_every_derivation_and_interpretation_exercise_has_a_rubric():
    labels = all_labels()
    assert set(labels) == set(course_metrics.KIND), "KIND is out of date"
    wanted = {lab for lab in labels
              if {"derivation", "interpretation"} & set(course_metrics.KIND[lab])}
    blocks = rubric_blocks()
    assert len(blocks) == len(HEAD.findall(RUBRICS)), "an exercise has two rubrics"
    assert wanted - set(blocks) == set(), "exercises without a rubric"
    assert set(blocks) - set(labels) == set(), "rubrics for exercises that do not exist"


@pytest.mark.parametrize("label", sorted(rubric_blocks()))
def test_rubric_kinds_and_points_add_up(label):
    head, body = rubric_blocks()[label]
    assert head.group(1) == exercise_titles()[label], f"{label}: the heading is not its title"
    kinds = set(head.group(2).replace(" and ", " ").split())
    assert kinds <= set(course_metrics.KIND[label]), f"{label}: {kinds}"
    assert kinds & {"derivation", "interpretation"}
    rows = re.findall(r"^\| [^|]+ \| (\d+(?:\.\d+)?) \| ([^|]+) \|([^|]*)\|$", body, re.M)
    assert len(rows) >= 2, f"{label}: a rubric needs criteria"
    assert sum(float(points) for points, _full, _partial in rows) == float(head.group(3))
    assert all(full.strip() for _points, full, _partial in rows)
    assert re.search(r"^No credit: \S", body, re.M), f"{label}: no no-credit answer"


def test_rubrics_are_in_the_book_and_not_in_the_student_toc():
    with open(os.path.join(ROOT, "_toc.yml"), encoding="utf-8") as fh:
        toc = yaml.safe_load(fh)
    assert "chapters/rubrics" in yaml.safe_dump(toc)
    student = yaml.safe_dump(student_toc(toc))
    assert "rubrics" not in student
    assert "chapters/course" in student and "chapters/ch10_peers" in student


def _zip_names_and_text(archive):
    names, texts = [], []
    with zipfile.ZipFile(archive) as zf:
        for name in zf.namelist():
            names.append(name)
            data = zf.read(name)
            if name.endswith(".whl"):
                with zipfile.ZipFile(io.BytesIO(data)) as wheel:
                    names += wheel.namelist()
                    texts += [wheel.read(n).decode("utf-8", "replace")
                              for n in wheel.namelist()]
            else:
                texts.append(data.decode("utf-8", "replace"))
    return names, texts


def test_student_editions_leave_out_the_rubrics():
    for marker in MARKERS:
        assert marker in RUBRICS                     # guards the searches below
    edition = student_edition()          # built once per run (tests/conftest.py)
    html_dir, archive = edition.html, edition.archive
    names, texts = _zip_names_and_text(archive)
    assert any(n.endswith("ch01_accuracy_kappa.ipynb") for n in names)
    assert not [n for n in names if "rubric" in n.lower()]
    html_files = [p for p in glob.glob(str(html_dir / "**" / "*"), recursive=True)
                  if os.path.isfile(p)]
    assert any(p.endswith("ch01_accuracy_kappa.html") for p in html_files)
    assert not [p for p in html_files if "rubric" in os.path.basename(p).lower()]
    for path in html_files:
        if path.endswith((".html", ".js", ".json", ".txt", ".md", ".ipynb")):
            texts.append(open(path, encoding="utf-8", errors="replace").read())
    for text in texts:
        assert "rubrics.html" not in text and "chapters/rubrics" not in text
        for marker in MARKERS:
            assert marker not in text
