"""The course plan (course/syllabus.yml): prerequisites and sample schedules.

    python course/syllabus.py            # check the plan, print the schedules
    python course/syllabus.py --write    # also write them into chapters/course.md

course/syllabus.yml is the one place where what each chapter builds on and
the sample schedules are written down.  This script checks every schedule
against the map (no chapter before what it needs) and against the weekly
load (words and exercises from chapters/data/course_metrics.json), and
renders both for the instructor's course page, chapters/course.md: the
prerequisites column of its table of chapters, and each schedule between
the markers ``<!-- syllabus: NAME -->`` and ``<!-- /syllabus -->``.
tests/test_syllabus.py fails when the page and the plan disagree.
"""

import argparse
import json
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


def section_numbers(notebook):
    """{section heading: its number in the book, e.g. '6.11'} of a chapter notebook."""
    with open(notebook, encoding="utf-8") as fh:
        nb = json.load(fh)
    chapter, found, k = number(os.path.basename(notebook)), {}, 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            if line.startswith("## "):
                k += 1
                found[line[3:].strip()] = f"{chapter}.{k}"
    return found


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
    def row(m):
        cell = prerequisites_cell(plan, m.group("doc"), numbers[m.group("doc")])
        start, end = m.span("prereq")
        line = m.group(0)
        return line[:start - m.start()] + cell + line[end - m.start():]

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
                        help="write the prerequisites and schedules into chapters/course.md")
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
        with open(COURSE_PAGE, encoding="utf-8") as fh:
            text = fh.read()
        new = render_page(text, plan, measured, all_section_numbers())
        with open(COURSE_PAGE, "w", encoding="utf-8") as fh:
            fh.write(new)
        print("chapters/course.md " + ("updated" if new != text else "already up to date"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
