"""The course plan (course/syllabus.yml): the prerequisite map agrees with the
chapters, every sample schedule respects it and a reasonable weekly load, and
the course page shows what the plan says."""

import copy
import functools
import glob
import os
import re

import nbformat
import pytest

from conftest import tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
syllabus = tool("syllabus")
PLAN = syllabus.load()
MEASURED = syllabus.metrics()
CHAPTERS = sorted(os.path.splitext(os.path.basename(p))[0]
                  for p in glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb")))
DOC_LINK = re.compile(r"\{doc\}`(?:[^`<]*<)?(ch\d\d_\w+)>?`")


@functools.lru_cache(maxsize=None)
def backward_links(doc):
    """[(section heading, earlier chapter)] of every {doc} link from ``doc`` (outside
    its solutions) to an earlier chapter."""
    from make_student import without_solutions

    nb = without_solutions(nbformat.read(os.path.join(ROOT, "chapters", doc + ".ipynb"),
                                         as_version=4))
    links, section = [], None
    for cell in nb.cells:
        if cell.cell_type != "markdown" or cell.source.startswith(syllabus.PREREQUISITES):
            continue        # the prerequisites cell is written from the map itself
        for line in cell.source.splitlines():
            h = syllabus.heading(line)
            if h and h[0] == 2:
                section = h[1]           # the title without the advanced marker
            for target in DOC_LINK.findall(line):
                if syllabus.number(target) < syllabus.number(doc):
                    links.append((section, target))
    return tuple(links)


def test_the_map_names_every_chapter_once():
    assert sorted(PLAN["chapters"]) == CHAPTERS
    for doc, entry in PLAN["chapters"].items():
        for key in ("needs", "mentions"):
            for other in entry.get(key) or []:
                assert other in PLAN["chapters"], f"{doc}: unknown chapter {other}"
                assert syllabus.number(other) < syllabus.number(doc), (
                    f"{doc} {key} {other}, a later chapter")


@pytest.mark.parametrize("doc", CHAPTERS)
def test_every_link_to_an_earlier_chapter_is_in_the_map(doc):
    """The map is what the chapters say they use: each backward link is a need (or
    a need's need), a section's need, or a mention."""
    entry = PLAN["chapters"][doc]
    needed = syllabus.closure(PLAN, doc)
    sections = entry.get("sections") or {}
    mentioned = set(entry.get("mentions") or [])
    for section, target in backward_links(doc):
        assert (target in needed or target in sections.get(section, [])
                or target in mentioned), (
            f"{doc}, section {section!r}, links to {target}: add it to the map "
            "(course/syllabus.yml) as a need, a section's need or a mention")


def test_the_links_were_found():
    # guards the test above against a pattern that finds nothing
    links = {doc: backward_links(doc) for doc in CHAPTERS}
    assert sum(len(v) for v in links.values()) >= 40
    assert ("Rank reversals between AUC and AUK, re-examined", "ch07_rank_reversal") \
        in links["ch10_how_sure"]


@pytest.mark.parametrize("doc", CHAPTERS)
def test_sections_named_in_the_map_exist(doc):
    numbers = syllabus.section_numbers(os.path.join(ROOT, "chapters", doc + ".ipynb"))
    for section in PLAN["chapters"][doc].get("sections") or {}:
        assert section in numbers, f"{doc} has no section {section!r}"


@pytest.mark.parametrize("name", sorted(PLAN["schedules"]))
def test_schedule_never_reads_a_chapter_before_what_it_needs(name):
    assert syllabus.schedule_problems(PLAN, PLAN["schedules"][name]) == []


@pytest.mark.parametrize("name", sorted(PLAN["schedules"]))
def test_schedule_weekly_load_is_within_the_stated_limits(name):
    assert syllabus.load_problems(PLAN, PLAN["schedules"][name], MEASURED) == []


def test_the_load_limits_leave_room_for_the_heaviest_chapter():
    # a limit below one chapter's load would make every schedule impossible
    assert PLAN["load"]["max_words"] >= max(m["words"] for m in MEASURED.values())
    assert PLAN["load"]["max_exercises"] >= max(m["exercises"] for m in MEASURED.values())


def test_the_checks_reject_a_bad_schedule():
    """Guards the two schedule tests: a chapter before its need, a section before
    its need, a chapter twice and an overloaded week are all reported."""
    bad = {"weeks": [{"read": ["ch01_accuracy_kappa", "ch02_roc_auc"]},
                     {"read": ["ch07_rank_reversal"]},                # needs ch04, ch05
                     {"read": ["ch03_roc_to_kappa", "ch04_auk", "ch14_calibration"]},
                     {"read": ["ch02_roc_auc"]}]}
    problems = syllabus.schedule_problems(PLAN, bad)
    assert any("ch07_rank_reversal needs ch04_auk" in p for p in problems)
    assert any("ch07_rank_reversal needs ch05_threshold" in p for p in problems)
    assert any("'Cost curves', needs ch11_peers" in p for p in problems)  # ch14's section
    assert any("read twice" in p for p in problems)
    skipped = copy.deepcopy(bad)
    skipped["weeks"][2]["skip"] = ["Cost curves"]
    assert not any("'Cost curves'" in p for p in syllabus.schedule_problems(PLAN, skipped))
    assert syllabus.load_problems(PLAN, bad, MEASURED)               # week 3: 11,000 words


def test_the_thirteen_week_course_reads_every_chapter():
    read = [d for week in PLAN["schedules"]["thirteen-week"]["weeks"] for d in week["read"]]
    assert sorted(read) == CHAPTERS
    assert len(PLAN["schedules"]["thirteen-week"]["weeks"]) == 13


def test_the_six_week_module_has_six_weeks_of_reading():
    weeks = PLAN["schedules"]["six-week"]["weeks"]
    assert len(weeks) == 6 and all(week["read"] for week in weeks)


def test_the_course_page_shows_the_plan():
    """chapters/course.md is what `python course/syllabus.py --write` makes of the
    plan: its prerequisites column and its schedules."""
    with open(syllabus.COURSE_PAGE, encoding="utf-8") as fh:
        page = fh.read()
    assert syllabus.render_page(page, PLAN, MEASURED, syllabus.all_section_numbers()) == page, (
        "chapters/course.md is out of date: run `python course/syllabus.py --write`")
    shown = {m.group("name") for m in syllabus.BLOCK.finditer(page)}
    assert shown == set(PLAN["schedules"]) | {"load"}
    assert len(syllabus.ROW.findall(page)) == len(CHAPTERS)
