"""Every chapter states its prerequisites in one cell right after its title, in
one format, and what the cell says agrees with the course plan
(course/syllabus.yml) and with the chapter's own advanced markers."""

import glob
import json
import os
import re

import pytest

from conftest import tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
syllabus = tool("syllabus")
PLAN = syllabus.load()
CHAPTERS = sorted(os.path.splitext(os.path.basename(p))[0]
                  for p in glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb")))
DOC = re.compile(r"\{doc\}`(?:[^`<]*<)?(ch\d\d_\w+)>?`")
ITEM = re.compile(r"^- \*\*(?P<key>[^*]+):\*\* (?P<value>.*)$", re.M)
RANGE = re.compile(r"§(\d+)\.(\d+)(?:–(\d+)\.(\d+))?")


def path(doc):
    return os.path.join(ROOT, "chapters", doc + ".ipynb")


def cells(doc):
    with open(path(doc), encoding="utf-8") as fh:
        return json.load(fh)["cells"]


def sections(text):
    """'§6.6–6.8, §6.11' -> ['6.6', '6.7', '6.8', '6.11']."""
    found = []
    for m in RANGE.finditer(text):
        c, a = int(m.group(1)), int(m.group(2))
        b = int(m.group(4)) if m.group(3) else a
        found += [f"{c}.{k}" for k in range(a, b + 1)]
    return found


def parse(text):
    """{key: value} of a prerequisites cell, checking its frame."""
    assert text.startswith(syllabus.PREREQUISITES) and text.rstrip().endswith(":::"), text[:80]
    items = {m.group("key"): m.group("value") for m in ITEM.finditer(text)}
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(bullets) == len(items), f"a line of the cell is not '- **Key:** value': {text}"
    return items


def stated(doc):
    """What a chapter's prerequisites cell says, as data: the chapters to read
    first, the background, {section number: extra chapters} and the advanced
    sections (numbers; a section with an advanced subsection is listed by number)."""
    items = parse("".join(cells(doc)[1]["source"]))
    assert set(items) <= {"Read first", "Background", "Some sections need more",
                          syllabus.ADVANCED}, items
    extra = {}
    for clause in items.get("Some sections need more", "").split(";"):
        if clause.strip():
            secs, _, need = clause.partition(" also ")
            for s in sections(secs):
                extra[s] = set(DOC.findall(need))
    advanced = items[syllabus.ADVANCED]
    return {"needs": set(DOC.findall(items["Read first"])),
            "background": items["Background"].rstrip("."),
            "sections": extra,
            "advanced": set(sections(advanced)),
            "nothing advanced": advanced == "none."}


def planned(doc):
    """The same, from the plan and the chapter's headings."""
    entry = PLAN["chapters"][doc]
    outline = syllabus.outline(path(doc))
    numbers = {s["title"]: s["number"] for s in outline}
    extra = {}
    for title, need in (entry.get("sections") or {}).items():
        extra[numbers[title]] = set(need)
    advanced = {s["number"] for s in outline
                if s["advanced"] or any(a for _, a in s["subsections"])}
    return {"needs": set(entry.get("needs") or []),
            "background": entry.get("background") or syllabus.BACKGROUND,
            "sections": extra,
            "advanced": advanced,
            "nothing advanced": not advanced}


@pytest.mark.parametrize("doc", CHAPTERS)
def test_the_cell_after_the_title_states_the_prerequisites(doc):
    first, second = cells(doc)[:2]
    assert "".join(first["source"]).startswith("# "), "the first cell holds the title"
    assert second["cell_type"] == "markdown"
    assert "".join(second["source"]).startswith(syllabus.PREREQUISITES), (
        f"{doc}: no prerequisites cell after the title; run `python course/syllabus.py --write`")
    # one such cell per chapter
    assert sum("".join(c["source"]).startswith(syllabus.PREREQUISITES)
               for c in cells(doc)) == 1


@pytest.mark.parametrize("doc", CHAPTERS)
def test_stated_prerequisites_agree_with_the_plan(doc):
    assert stated(doc) == planned(doc), (
        f"{doc}: the prerequisites cell and course/syllabus.yml disagree; "
        "run `python course/syllabus.py --write`")


@pytest.mark.parametrize("doc", CHAPTERS)
def test_the_cell_is_what_the_plan_writes(doc):
    text = syllabus.chapter_prerequisites(PLAN, doc, syllabus.outline(path(doc)))
    assert "".join(cells(doc)[1]["source"]) == text


def test_the_comparison_notices_a_wrong_cell():
    """Guards the agreement test: a cell that names another chapter, forgets a
    section's need or an advanced section is parsed into something else."""
    doc = "ch10_how_sure"
    good = "".join(cells(doc)[1]["source"])
    assert stated(doc)["advanced"] >= {"10.4", "10.5", "10.8"}
    assert stated(doc)["sections"] == {"10.7": {"ch07_rank_reversal"},
                                       "10.8": {"ch08_metrics_imbalance"}}
    for bad in (good.replace("4 <ch04_auk>", "3 <ch03_roc_to_kappa>"),
                good.replace("§10.5, ", ""),
                good.replace("ch07_rank_reversal", "ch06_multiclass")):
        assert bad != good
        items = parse(bad)
        assert (set(DOC.findall(items["Read first"])) != planned(doc)["needs"]
                or set(sections(items[syllabus.ADVANCED])) != planned(doc)["advanced"]
                or "ch06_multiclass" in items["Some sections need more"])


def test_the_plan_knows_every_chapter():
    assert sorted(PLAN["chapters"]) == CHAPTERS
