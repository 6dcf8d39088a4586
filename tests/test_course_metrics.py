"""The course page (chapters/course.md) against what course/course_metrics.py measured.

* the table's reading and run times agree with chapters/data/course_metrics.json
  as the page rounds them;
* the stored word and exercise counts still describe the chapters (words within
  10%, exercises exactly), so the JSON is re-measured when the chapters change;
* every exercise of the book is mapped to at least one learning objective,
  every exercise label the page names exists, and each chapter has 3-5
  objectives, each with at least one exercise.
"""

import json
import os
import re
import sys

import nbformat
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import course_metrics  # noqa: E402

COURSE = open(os.path.join(ROOT, "chapters", "course.md"), encoding="utf-8").read()
with open(course_metrics.OUT, encoding="utf-8") as fh:
    METRICS = json.load(fh)
CHAPTERS = sorted(f[:-6] for f in os.listdir(os.path.join(ROOT, "chapters"))
                  if re.match(r"ch\d\d_.*\.ipynb$", f))
ROW = re.compile(r"^\| \{doc\}`(ch\d\d_\w+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|", re.M)
REF = re.compile(r"\{ref\}`(?:[^`<]*<)?([\w-]+)>?`")


def chapter_labels():
    labels = {}
    for doc in CHAPTERS:
        nb = nbformat.read(os.path.join(ROOT, "chapters", doc + ".ipynb"), as_version=4)
        labels[doc] = course_metrics.exercise_labels(nb)
    return labels


def objectives_section():
    start = COURSE.index("## Learning objectives")
    end = COURSE.index("\n## ", start + 5)
    return COURSE[start:end]


def test_the_table_has_every_chapter_once():
    assert sorted(m.group(1) for m in ROW.finditer(COURSE)) == CHAPTERS
    assert sorted(METRICS["chapters"]) == CHAPTERS


@pytest.mark.parametrize("doc", CHAPTERS)
def test_stated_times_agree_with_the_measurements(doc):
    row = {m.group(1): m.groups()[1:] for m in ROW.finditer(COURSE)}[doc]
    entry = METRICS["chapters"][doc]
    assert tuple(c.strip() for c in row) == course_metrics.table_cells(entry)
    # the rounding the page uses, from the raw numbers
    minutes = int(re.search(r"(\d+) min", row[0]).group(1))
    assert abs(minutes - entry["words"] / METRICS["reading_rate_wpm"]) <= 0.5 + 0.05
    seconds = int(re.search(r"(\d+) s", row[1]).group(1))
    assert abs(seconds - entry["run_cpu_seconds"]) <= 0.5


def test_page_states_the_reading_rate_and_the_cpu_time():
    assert f"{METRICS['reading_rate_wpm']} words per minute" in COURSE
    assert "CPU time" in COURSE and "OMP_NUM_THREADS=1" in COURSE


@pytest.mark.parametrize("doc", CHAPTERS)
def test_stored_counts_still_describe_the_chapter(doc):
    now = course_metrics.measure(None, run=False, only=[doc])[doc]
    stored = METRICS["chapters"][doc]
    assert now["labels"] == stored["labels"], "re-run course/course_metrics.py"
    assert now["exercises_by_kind"] == stored["exercises_by_kind"]
    assert abs(now["words"] - stored["words"]) <= 0.1 * stored["words"], (
        f"{doc}: {now['words']} words now, {stored['words']} measured: "
        "re-run course/course_metrics.py and update the table in chapters/course.md")


def test_prose_words_skips_code_maths_and_options():
    text = ("Kappa is $\\kappa$ here.\n\n$$ a = b + c $$\n\n```python\nx = 1\n```\n\n"
            ":::{note} A title\n:class: dropdown\nSee {ref}`(11) <eq-11>`.\n:::\n")
    # Kappa is x here . A title See (11)  -> 'Kappa','is','x','here.','See','(11)','A','title'
    assert course_metrics.prose_words(text) == 8


def test_every_exercise_is_mapped_to_an_objective():
    named = set(REF.findall(objectives_section()))
    labels = chapter_labels()
    every = {lab for labs in labels.values() for lab in labs}
    assert every, "no exercise labels found in the chapters"
    assert every - named == set(), "exercises assessed by no objective"
    assert named - every == set(), "objectives name exercises that do not exist"


@pytest.mark.parametrize("doc", CHAPTERS)
def test_each_chapter_has_three_to_five_objectives(doc):
    section = objectives_section()
    start = section.index(f"### {{doc}}`{doc}`")
    nxt = section.find("\n### ", start + 5)
    block = section[start:nxt if nxt > 0 else None]
    items = re.split(r"\n\d+\. ", "\n" + block.split("\n", 1)[1])[1:]
    assert 3 <= len(items) <= 5, f"{doc}: {len(items)} objectives"
    own = set(chapter_labels()[doc])
    for item in items:
        assert REF.search(item), f"{doc}: objective without an exercise: {item[:60]!r}"
    assert own <= set(REF.findall(block)), f"{doc}: an exercise of the chapter is unmapped"
