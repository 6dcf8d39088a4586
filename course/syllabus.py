"""The course plan (course/syllabus.yml): prerequisites and sample schedules.

    python course/syllabus.py            # check the plan, print the schedules
    python course/syllabus.py --write    # also write them into chapters/course.md

course/syllabus.yml is the one place where what each chapter builds on and
the sample schedules are written down.  This script checks every schedule
against the map (no chapter before what it needs) and against the weekly
load (words and exercises from chapters/data/course_metrics.json), and
renders both for the instructor's course page, chapters/course.md: the
rows of its table of chapters (the measured cells from course_metrics.json
and the prerequisites column), and each schedule between
the markers ``<!-- syllabus: NAME -->`` and ``<!-- /syllabus -->``.
tests/test_syllabus.py fails when the page and the plan disagree.
"""

import argparse
import glob
import json
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course"))  # course_metrics, its neighbour
PLAN = os.path.join(ROOT, "course", "syllabus.yml")
METRICS = os.path.join(ROOT, "chapters", "data", "course_metrics.json")
COURSE_PAGE = os.path.join(ROOT, "chapters", "course.md")
BLOCK = re.compile(r"(<!-- syllabus: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /syllabus -->)", re.S)
# a row of the course page's table of chapters: | chapter | reading | ... | prerequisites |
ROW = re.compile(r"^\| \{doc\}`(?P<doc>ch\d\d_\w+)` \| [\d,]+ words, [^|]*\|.*\| (?P<prereq>[^|]*) \|$",
                 re.M)


def load(path=PLAN):
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def metrics(path=METRICS):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["chapters"]


def number(doc):
    """'ch04_auk' -> 4."""
    return int(re.match(r"ch(\d+)", doc).group(1))


def closure(plan, doc):
    """Every chapter ``doc`` needs, directly or through the chapters it needs."""
    seen, stack = set(), list(plan["chapters"][doc].get("needs", []))
    while stack:
        d = stack.pop()
        if d not in seen:
            seen.add(d)
            stack.extend(plan["chapters"][d].get("needs", []))
    return seen


# The one marker of an advanced section, at the end of its heading (explained once,
# on the landing page).  Plain text after a star, so a screen reader reads it out.
ADVANCED = "★ Advanced"
HEADING = re.compile(r"^(?P<hashes>#{1,6}) (?P<text>.*?)\s*$")


def heading(line):
    """(level, title without the marker, advanced?) of a Markdown heading line,
    or None: '## The paired version ★ Advanced' -> (2, 'The paired version', True)."""
    m = HEADING.match(line)
    if not m:
        return None
    text = m.group("text")
    advanced = text.endswith(ADVANCED)
    if advanced:
        text = text[:-len(ADVANCED)].rstrip()
    return len(m.group("hashes")), text, advanced


def section_numbers(notebook):
    """{section heading: its number in the book, e.g. '6.11'} of a chapter notebook
    (headings without the advanced marker)."""
    return {s["title"]: s["number"] for s in outline(notebook)}


def outline(notebook):
    """The sections of a chapter, in order: dicts with the number ('9.5'), the
    ``title`` (no marker), ``advanced`` (the marker on the section's heading) and
    ``subsections`` [(title, advanced)], subsections of an advanced section
    counting as advanced."""
    with open(notebook, encoding="utf-8") as fh:
        nb = json.load(fh)
    chapter, sections = number(os.path.basename(notebook)), []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            h = heading(line)
            if h and h[0] == 2:
                sections.append({"number": f"{chapter}.{len(sections) + 1}", "title": h[1],
                                 "advanced": h[2], "subsections": []})
            elif h and h[0] == 3 and sections:
                sections[-1]["subsections"].append((h[1], h[2] or sections[-1]["advanced"]))
    return sections


# -- checking a schedule ------------------------------------------------------
def schedule_problems(plan, schedule):
    """What is wrong with one schedule: a chapter read before what it needs, a
    section read before what it builds on (and not skipped), a chapter twice."""
    problems, read = [], []
    for w, week in enumerate(schedule["weeks"], start=1):
        skipped = set(week.get("skip", []))
        for doc in week.get("read", []):
            if doc in read:
                problems.append(f"week {w}: {doc} is read twice")
            entry = plan["chapters"][doc]
            for need in entry.get("needs", []):
                if need not in read:
                    problems.append(f"week {w}: {doc} needs {need}, not read before it")
            for section, needs in (entry.get("sections") or {}).items():
                for need in needs:
                    if need not in read and section not in skipped:
                        problems.append(f"week {w}: {doc}, section {section!r}, needs {need}"
                                        " (read it first or skip the section)")
            read.append(doc)
    return problems


def week_load(week, measured):
    """(words, exercises) a week asks for, from the course metrics."""
    docs = week.get("read", [])
    return (sum(measured[d]["words"] for d in docs),
            sum(measured[d]["exercises"] for d in docs))


def load_problems(plan, schedule, measured):
    limit = plan["load"]
    problems = []
    for w, week in enumerate(schedule["weeks"], start=1):
        words, exercises = week_load(week, measured)
        if words > limit["max_words"]:
            problems.append(f"week {w}: {words} words > {limit['max_words']}")
        if exercises > limit["max_exercises"]:
            problems.append(f"week {w}: {exercises} exercises > {limit['max_exercises']}")
    return problems


# -- rendering for chapters/course.md -------------------------------------------
def _chapters(docs, word="chapter"):
    """'{doc}`chapter 4 <ch04_auk>`', '{doc}`chapters 1 <...>` and {doc}`2 <...>`'."""
    docs = sorted(docs, key=number)
    if len(docs) == 1:
        return f"{{doc}}`{word} {number(docs[0])} <{docs[0]}>`"
    links = [f"{{doc}}`{word}s {number(docs[0])} <{docs[0]}>`"] + [
        f"{{doc}}`{number(d)} <{d}>`" for d in docs[1:]]
    return ", ".join(links[:-1]) + " and " + links[-1]


def prerequisites_cell(plan, doc, numbers):
    """The course page's prerequisites cell of one chapter."""
    entry = plan["chapters"][doc]
    parts = []
    if entry.get("needs"):
        parts.append(_chapters(entry["needs"]))
    if entry.get("background"):
        parts.append(entry["background"])
    text = parts[0] if parts else "none"
    if len(parts) == 2:      # "chapter 4, integrals"; "chapter 4; Dask helps ..."
        text += ("; " if parts[1][:1].isupper() else ", ") + parts[1]
    by_need = {}
    for section, needs in (entry.get("sections") or {}).items():
        by_need.setdefault(tuple(sorted(needs, key=number)), []).append(numbers[section])
    for needs, secs in by_need.items():
        secs = sorted(secs, key=lambda s: [int(x) for x in s.split(".")])
        where = f"§{secs[0]}" if len(secs) == 1 else f"§{secs[0]}–{secs[-1].split('.')[1]}"
        text += f"; {where} also {_chapters(needs)}"
    return text


# -- the prerequisites cell of each chapter --------------------------------------
# The cell right after a chapter's title cell, written from the plan (and the
# chapter's own advanced markers) by `python course/syllabus.py --write`;
# tests/test_prerequisites.py parses it back and checks it against the plan.
PREREQUISITES = ":::{admonition} Prerequisites\n:class: prerequisites\n"
# what every chapter assumes (the landing page's promise)
BACKGROUND = "basic probability and some Python"


def _section_list(numbers):
    """['6.11', '6.12', '6.13'] -> '§6.11–6.13'; ['4.6', '4.8'] -> '§4.6, §4.8'."""
    keys = sorted(numbers, key=lambda s: [int(x) for x in s.split(".")])
    runs = []
    for s in keys:
        c, k = (int(x) for x in s.split("."))
        if runs and runs[-1][1] == (c, k - 1):
            runs[-1][1] = (c, k)
        else:
            runs.append([(c, k), (c, k)])
    return ", ".join(f"§{a[0]}.{a[1]}" if a == b else f"§{a[0]}.{a[1]}–{b[0]}.{b[1]}"
                     for a, b in runs)


def chapter_prerequisites(plan, doc, sections):
    """The Markdown of ``doc``'s prerequisites cell; ``sections`` is its outline()."""
    entry = plan["chapters"][doc]
    numbers = {s["title"]: s["number"] for s in sections}
    needs = entry.get("needs") or []
    lines = [PREREQUISITES.rstrip("\n"), ""]
    read = _chapters(needs) if needs else "nothing; the book starts here"
    lines.append(f"- **Read first:** {read}.")
    lines.append("- **Background:** " + (entry.get("background") or BACKGROUND) + ".")
    by_need = {}
    for section, need in (entry.get("sections") or {}).items():
        by_need.setdefault(tuple(sorted(need, key=number)), []).append(numbers[section])
    if by_need:
        lines.append("- **Some sections need more:** " + "; ".join(
            f"{_section_list(secs)} also {'needs' if len(secs) == 1 else 'need'}"
            f" {_chapters(need)}" for need, secs in by_need.items()) + ".")
    advanced = [s["number"] for s in sections if s["advanced"]]
    where = [_section_list(advanced)] if advanced else []
    where += [f"§{s['number']}'s subsection *{t}*" for s in sections if not s["advanced"]
              for t, a in s["subsections"] if a]
    lines.append(f"- **{ADVANCED}:** " + (", ".join(where) + "; skip on a first reading"
                                          if where else "none") + ".")
    return "\n".join(lines) + "\n:::"


def write_prerequisites(notebook, text):
    """Put ``text`` into the chapter's prerequisites cell, the cell right after the
    title cell (made if missing); the notebook is otherwise written back as is."""
    with open(notebook, encoding="utf-8") as fh:
        raw = fh.read()
    nb = json.loads(raw)
    dump = json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if dump != raw:
        raise ValueError(f"{notebook} is not in nbformat's layout; not rewritten")
    cells = nb["cells"]
    source = text.splitlines(keepends=True)
    if len(cells) > 1 and "".join(cells[1]["source"]).startswith(PREREQUISITES):
        if cells[1]["source"] == source:
            return False
        cells[1]["source"] = source
    else:
        cells.insert(1, {"cell_type": "markdown", "id": "prerequisites", "metadata": {},
                         "source": source})
    with open(notebook, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    return True


def schedule_table(plan, name, measured):
    schedule = plan["schedules"][name]
    rate = 200
    lines = [f"**{schedule['title']}.** {schedule['about']}", "",
             "| week | read | reading | exercises | note |", "|---|---|---|---|---|"]
    for w, week in enumerate(schedule["weeks"], start=1):
        docs = week.get("read", [])
        words, exercises = week_load(week, measured)
        read = ", ".join(f"{{doc}}`{d}`" for d in docs) or "no new chapter"
        reading = f"{round(words, -2):,} words, {round(words / rate)} min" if docs else ""
        note = week.get("note", "")
        if week.get("skip"):
            note = (note + "; " if note else "") + "skip " + ", ".join(week["skip"])
        lines.append(f"| {w} | {read} | {reading} | {exercises or ''} | {note} |")
    return "\n".join(lines) + "\n"


def load_text(plan):
    limit = plan["load"]
    words = limit["max_words"]
    return (f"No week of these schedules asks for more than {words:,} words of reading "
            f"({round(words / 200)} minutes at 200 words per minute, the least a first "
            f"reading takes) or more than {limit['max_exercises']} exercises: about one "
            "heavy chapter or two light ones. The exercises' time was not measured, so "
            "the load counts exercises; in a week of two chapters, assign a selection.\n")


def block(plan, name, measured):
    return load_text(plan) if name == "load" else schedule_table(plan, name, measured)


def render_page(text, plan, measured, numbers):
    """chapters/course.md with the plan's prerequisites and schedules written in."""
    from course_metrics import table_cells

    def row(m):
        doc = m.group("doc")
        cells = (*table_cells(measured[doc]), prerequisites_cell(plan, doc, numbers[doc]))
        return f"| {{doc}}`{doc}` | " + " | ".join(cells) + " |"

    text = ROW.sub(row, text)
    return BLOCK.sub(lambda m: m.group(1) + block(plan, m.group("name"), measured)
                     + m.group(4), text)


def all_section_numbers():
    import glob

    return {os.path.splitext(os.path.basename(p))[0]: section_numbers(p)
            for p in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb")))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="write the table of chapters, the prerequisites and the "
                        "schedules into chapters/course.md")
    args = parser.parse_args(argv)
    plan, measured = load(), metrics()
    problems = []
    for name, schedule in plan["schedules"].items():
        problems += [f"{name}: {p}" for p in schedule_problems(plan, schedule)
                     + load_problems(plan, schedule, measured)]
        print(schedule_table(plan, name, measured))
    for p in problems:
        print("PROBLEM: " + p)
    if args.write and not problems:
        for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb"))):
            doc = os.path.splitext(os.path.basename(path))[0]
            if write_prerequisites(path, chapter_prerequisites(plan, doc, outline(path))):
                print(f"chapters/{doc}.ipynb: prerequisites cell written")
        with open(COURSE_PAGE, encoding="utf-8") as fh:
            text = fh.read()
        new = render_page(text, plan, measured, all_section_numbers())
        with open(COURSE_PAGE, "w", encoding="utf-8") as fh:
            fh.write(new)
        print("chapters/course.md " + ("updated" if new != text else "already up to date"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
