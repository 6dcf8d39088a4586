"""The first course can skip every advanced section.

A section is advanced when its heading ends in the marker "★ Advanced"
(course/syllabus.py, ADVANCED), or when it is a subsection of one; an exercise
is advanced when its title ends in the marker (its solution with it).  The
first course (course/syllabus.yml, paths) reads its chapters without the
advanced sections.  A reader who skips them loses nothing the rest uses
exactly when no other section refers, by a MyST cross-reference ({ref},
{numref}, {eq}, [](#label)), to a label (a target, a figure, an equation, an
exercise) that only advanced sections define.
"""

import glob
import json
import os
import re
from collections import defaultdict

import pytest

from conftest import tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
syllabus = tool("syllabus")
PLAN = syllabus.load()
FIRST = PLAN["paths"]["first-course"]
CHAPTERS = sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb")))
# back matter every reader may follow a link into: the corrections of the
# sources, each with its evidence, and the agreement with other tools.  It is
# not a section of the course, so only its labels count (a chapter's one
# sentence about a source links there).
BACK_MATTER = [os.path.join(ROOT, "chapters", name) for name in ("sources.ipynb", "validation.ipynb")]

TARGET = re.compile(r"^[ \t]*\((?P<label>[^()\s]+)\)=[ \t]*$")
OPTION = re.compile(r"^[ \t]*:(?:label|name):[ \t]*(?P<label>\S+)")
MATH = re.compile(r"\$\$[ \t]*\((?P<label>[\w:.-]+)\)")
MATH_OPEN = re.compile(r"^[ \t]*(?:`{3,}|:{3,})\{math\}")
REF = re.compile(r"\{(?:ref|numref|eq)\}`(?:[^`<]*<)?(?P<label>[^`<>]+?)>?`")
LINK = re.compile(r"\]\(#(?P<label>[^)\s]+)\)")
EXERCISE = re.compile(r"^[ \t]*(?:`{3,}|:{3,})\{exercise\}[ \t]*(?P<title>.*)$")
# calculus beyond the book's promise: an integral sign read as an area
# (chapter 2's AUC, eq. (9)) and a curve's slope dt/df are within it;
# differentiating, partial derivatives and expansions are not
CALCULUS = re.compile(r"\\partial|\\frac\{d\^2|derivative|differentiat|Taylor|quotient rule",
                      re.IGNORECASE)


class Place(tuple):
    """(chapter, section number, advanced?) of a definition or a reference."""
    doc = property(lambda self: self[0])
    section = property(lambda self: self[1])
    advanced = property(lambda self: self[2])


def scan(path):
    """([(label, Place)] defined, [(label, Place)] referred to, [(line, Place)]
    using calculus) of a notebook."""
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    doc = os.path.splitext(os.path.basename(path))[0]
    chapter = syllabus.number(doc) if re.match(r"ch\d", doc) else doc
    defined, referred, pending, calculus = [], [], [], []
    k, section, sec_adv, sub_adv, ex_adv = 0, f"{chapter}.0", False, False, False
    for cell in nb["cells"]:
        place = Place((doc, section, sec_adv or sub_adv or ex_adv))
        if cell["cell_type"] == "code":
            name = cell["metadata"].get("mystnb", {}).get("figure", {}).get("name")
            if name:
                defined.append((name, place))
            continue
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            h = syllabus.heading(line)
            if h and h[0] == 2:
                k += 1
                section, sec_adv, sub_adv, ex_adv = f"{chapter}.{k}", h[2], False, False
            elif h and h[0] >= 3:
                sub_adv, ex_adv = h[2], False
            m = EXERCISE.match(line)
            if m:
                ex_adv = m.group("title").rstrip().endswith(syllabus.ADVANCED)
            place = Place((doc, section, sec_adv or sub_adv or ex_adv))
            m = TARGET.match(line)
            if m:
                pending.append(m.group("label"))     # labels the next block
                continue
            if pending and line.strip():
                defined += [(label, place) for label in pending]
                pending = []
            for rx in (OPTION, MATH):
                defined += [(m.group("label"), place) for m in rx.finditer(line)]
            for rx in (REF, LINK):
                referred += [(m.group("label").strip(), place) for m in rx.finditer(line)]
            if CALCULUS.search(line):
                calculus.append((line.strip(), place))
    return defined, referred, calculus


def book():
    definitions, references = defaultdict(list), []
    for path in CHAPTERS:
        defined, referred, _ = scan(path)
        for label, place in defined:
            definitions[label].append(place)
        references += referred
    for path in BACK_MATTER:
        for label, place in scan(path)[0]:
            definitions[label].append(place)
    return definitions, references


DEFINITIONS, REFERENCES = book()
BACK = {os.path.splitext(os.path.basename(p))[0] for p in BACK_MATTER}


def only_advanced(definitions, references):
    """References from a section that is not advanced to a label that only
    advanced sections define."""
    return [(label, place, definitions[label]) for label, place in references
            if not place.advanced and definitions.get(label)
            and all(d.advanced for d in definitions[label])]


def test_no_section_a_first_reading_keeps_refers_into_an_advanced_one():
    problems = only_advanced(DEFINITIONS, REFERENCES)
    assert not problems, "\n".join(
        f"{p.doc} §{p.section} refers to {label!r}, defined only in advanced "
        f"§{', §'.join(d.section for d in defs)}: say it in the text or move the definition"
        for label, p, defs in problems)


def test_the_first_course_refers_only_to_what_it_reads():
    """A first-course section's references lead to labels the first course
    defines (in a chapter it reads, in a section it does not skip)."""
    problems = []
    for label, place in REFERENCES:
        if place.doc in FIRST and not place.advanced:
            if not any((d.doc in FIRST or d.doc in BACK) and not d.advanced
                       for d in DEFINITIONS.get(label, [])):
                problems.append(f"{place.doc} §{place.section}: {label!r}")
    assert not problems, problems


def test_every_reference_resolves_to_one_definition():
    labels = [label for label, _ in REFERENCES]
    assert not [l for l in labels if l not in DEFINITIONS]
    assert not [(label, defs) for label, defs in DEFINITIONS.items() if len(defs) > 1]


def test_the_scan_finds_what_the_chapters_hold():
    # guards the tests above against patterns that find nothing
    assert len(DEFINITIONS) >= 100 and len(REFERENCES) >= 100
    assert any(p.advanced for defs in DEFINITIONS.values() for p in defs)
    assert ("eq-20", Place(("ch05_threshold", "5.2", False))) in REFERENCES
    # ... and from the advanced subsection at the end of the same section
    assert ("eq-19", Place(("ch05_threshold", "5.2", True))) in REFERENCES
    assert DEFINITIONS["ch4-chord"] == [Place(("ch04_auk", "4.8", True))]
    # an exercise marked advanced, with its solution
    assert DEFINITIONS["ch13-ex-folds"][0].advanced


def test_the_check_catches_a_reference_into_an_advanced_section(tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": [
            "# A chapter\n", "## Overview\n", "See {numref}`fig-x` and {ref}`sec-y`.\n"]},
        {"cell_type": "markdown", "metadata": {}, "source": [
            "(sec-y)=\n", f"## Deep {syllabus.ADVANCED}\n", "Text.\n"]},
        {"cell_type": "code", "metadata": {"mystnb": {"figure": {"name": "fig-x"}}},
         "source": [], "outputs": []},
        {"cell_type": "markdown", "metadata": {}, "source": [
            "## Exercises\n", f":::{{exercise}} Hard {syllabus.ADVANCED}\n",
            ":label: ex-z\n", "See {numref}`fig-x`.\n", ":::\n",
            ":::{exercise} Easy\n", ":label: ex-w\n", "Recall [](#sec-y).\n", ":::\n"]}]}
    path = tmp_path / "ch99_test.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    defined, referred, _ = scan(str(path))
    definitions = defaultdict(list)
    for label, place in defined:
        definitions[label].append(place)
    found = [(label, p.section) for label, p, _ in only_advanced(definitions, referred)]
    assert found == [("fig-x", "99.1"), ("sec-y", "99.1"), ("sec-y", "99.3")]


def test_the_first_course_reads_each_chapter_after_what_it_needs():
    for i, doc in enumerate(FIRST):
        for need in PLAN["chapters"][doc].get("needs", []):
            assert need in FIRST[:i], f"{doc} needs {need}"
        outline = {s["title"]: s for s in syllabus.outline(os.path.join(
            ROOT, "chapters", doc + ".ipynb"))}
        for title, needs in (PLAN["chapters"][doc].get("sections") or {}).items():
            if not outline[title]["advanced"]:
                assert set(needs) <= set(FIRST[:i]), f"{doc}, {title!r} needs {needs}"


def test_the_first_course_needs_no_more_than_the_promise():
    """Basic probability and some Python (with the algebra of fractions): the
    derivations that need calculus (the maximum AUK's integral in chapter 4, the
    quotient rule behind eq. (26) in chapter 5) sit in subsections marked
    advanced, so no first-course chapter asks for integrals or derivatives."""
    allowed = {None, "basic probability", "some algebra"}
    for doc in FIRST:
        assert PLAN["chapters"][doc].get("background") in allowed, doc


def test_the_first_course_differentiates_nothing():
    """What the first course reads of its chapters uses no derivatives,
    partial derivatives or series: those derivations are advanced (the
    landing page promises basic probability and some Python)."""
    problems = [f"{place.doc} §{place.section}: {line}"
                for path in CHAPTERS for line, place in scan(path)[2]
                if place.doc in FIRST and not place.advanced]
    assert not problems, "\n".join(problems)


def test_every_path_reads_chapters_the_book_has():
    docs = {os.path.splitext(os.path.basename(p))[0] for p in CHAPTERS}
    for name, path in PLAN["paths"].items():
        assert set(path) <= docs and path == sorted(path), name


# -- the landing page shows the paths ------------------------------------------------
def landing_paths():
    """{path name: its text} of the landing page's "Reading paths" section."""
    with open(os.path.join(ROOT, "chapters", "intro.ipynb"), encoding="utf-8") as fh:
        text = "\n".join("".join(c["source"]) for c in json.load(fh)["cells"]
                         if c["cell_type"] == "markdown")
    section = text.split("## Reading paths\n", 1)[1].split("\n## ", 1)[0]
    starts = {"first-course": "**A first course**",
              "practitioner": "**A practitioner's path",
              "statistician": "**A statistician's path"}
    order = sorted(starts, key=lambda k: section.index(starts[k]))
    found = {}
    for i, name in enumerate(order):
        end = section.index(starts[order[i + 1]]) if i + 1 < len(order) else None
        found[name] = section[section.index(starts[name]):end]
    return section, found


def test_the_landing_page_shows_each_path_with_the_plans_chapters():
    _, paths = landing_paths()
    assert set(paths) == set(PLAN["paths"])
    for name, text in paths.items():
        linked = re.findall(r"\{doc\}`(ch\d\d_\w+)`", text)
        assert linked == PLAN["paths"][name], name


def test_the_landing_page_names_sections_by_their_numbers_and_titles():
    """Every '§N.M *Title*' on the landing page is that section's title, and every
    bare §N.M exists: a renumbered chapter cannot leave a stale path."""
    section, _ = landing_paths()
    titles = {}
    for path in CHAPTERS:
        for s in syllabus.outline(path):
            titles[s["number"]] = s["title"]
    named = re.findall(r"§(\d+\.\d+) \*([^*]+)\*", section)
    assert len(named) >= 20
    for number, title in named:
        assert titles.get(number) == title, f"§{number} is {titles.get(number)!r}, not {title!r}"
    for a, b in re.findall(r"§(\d+\.\d+)(?:-(\d+\.\d+))?", section):
        assert a in titles and (not b or b in titles), (a, b)


def test_the_landing_page_explains_the_advanced_marker():
    section, _ = landing_paths()
    assert f"**{syllabus.ADVANCED}**" in section


def heading_slug(title):
    """MyST's default slug of a heading (myst_heading_anchors in _config.yml):
    made from the heading's text without its inline maths, lower case, spaces
    to hyphens, anything but word characters and hyphens dropped (the ★ of
    the marker too)."""
    title = re.sub(r"\$[^$]*\$", "", title.strip())
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def test_the_landing_page_links_every_section_it_names():
    """A reading path's '§N.M *Title*' is a link to that section's heading,
    [§N.M *Title*](chNN_name.ipynb#slug): a reader clicks through to it."""
    section, _ = landing_paths()
    headings = {}
    for path in CHAPTERS:
        doc = os.path.splitext(os.path.basename(path))[0]
        k = 0
        with open(path, encoding="utf-8") as fh:
            cells = json.load(fh)["cells"]
        for cell in cells:
            if cell["cell_type"] != "markdown":
                continue
            for line in "".join(cell["source"]).splitlines():
                h = syllabus.heading(line)
                if h and h[0] == 2:
                    k += 1
                    text = re.match(r"^#+ (.*?)\s*$", line).group(1)
                    headings[f"{syllabus.number(doc)}.{k}"] = (doc, heading_slug(text))
    named = re.findall(r"§(\d+\.\d+) \*[^*]+\*", section)
    linked = re.findall(r"\[§(\d+\.\d+) \*[^*]+\*\]\((ch\d\d_\w+)\.ipynb#([\w-]+)\)", section)
    assert len(named) >= 20 and len(linked) == len(named), "a section named without a link"
    for number, doc, slug in linked:
        assert headings[number] == (doc, slug), (number, doc, slug)


def test_heading_slug_is_mysts():
    """The slug above is the one MyST computes for each section heading of the
    chapters (its parser and compute_unique_slug, inline maths included)."""
    from markdown_it.tree import SyntaxTreeNode
    from myst_parser.config.main import MdParserConfig
    from myst_parser.mdit_to_docutils.base import DocutilsRenderer, compute_unique_slug
    from myst_parser.parsers.mdit import create_md_parser

    md = create_md_parser(MdParserConfig(enable_extensions={"dollarmath"}), DocutilsRenderer)
    titles = [line for path in CHAPTERS
              for cell in json.load(open(path, encoding="utf-8"))["cells"]
              if cell["cell_type"] == "markdown"
              for line in "".join(cell["source"]).splitlines() if line.startswith("## ")]
    assert len(titles) > 100 and any("$" in t for t in titles)
    for line in titles:
        heading = SyntaxTreeNode(md.parse(line)).children[0]
        assert compute_unique_slug(heading, set()) == heading_slug(line[3:]), line
