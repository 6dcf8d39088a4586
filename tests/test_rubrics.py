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
    assert "chapters/course" in student and "chapters/ch11_peers" in student


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


# --- the rubrics follow the variants -------------------------------------------------
# A rubric line that names a number of an exercise with per-student variants says
# that it is the book's; each student's rubric sheet (course/make_rubric_sheets.py)
# names the student's own numbers instead, and prints the student's expected
# answers.

import functools  # noqa: E402
import inspect  # noqa: E402

import numpy as np  # noqa: E402

import make_rubric_sheets as sheets  # noqa: E402
from answers.grading import _module, expected  # noqa: E402
from aukbook import variants  # noqa: E402


def _distinctive(text):
    """A value worth looking for: a decimal with two digits, a fraction, a phrase
    or a number of three digits (not a bare 1, 2, 0.5 that any line may hold)."""
    return bool(re.search(r"\d\.\d\d|\d/\d|[a-z] [a-z]|\d{3}", text))


def _mentions(line, value):
    return re.search(r"(?<![\w.])" + re.escape(value) + r"(?![\w]|\.\d)", line) is not None


def varying_book_values(label, distinctive=True):
    """The book's rubric values of ``label`` that some design entry does not share
    (only those worth searching a line for, unless ``distinctive`` is False)."""
    book = sheets.rubric_values(label, variants.BOOK[label])
    others = [sheets.rubric_values(label, p) for p in variants.design(label)[:4]]
    return {name: v for name, v in book.items()
            if (_distinctive(v) or not distinctive) and any(o[name] != v for o in others)}


RUBRIC_VARIANTS = sorted(set(sheets.PHRASES) & set(variants.VARIANT_LABELS))


def test_every_variant_exercise_with_a_rubric_has_phrases(stored):
    blocks = sheets.rubric_blocks()
    assert set(sheets.PHRASES) <= set(blocks) & set(variants.VARIANT_LABELS)
    for label in set(blocks) & set(variants.VARIANT_LABELS):
        if any(_mentions(line, v) for v in varying_book_values(label).values()
               for line in blocks[label][3].splitlines()):
            assert label in sheets.PHRASES, f"{label} names the book's numbers"


@pytest.mark.parametrize("label", RUBRIC_VARIANTS)
def test_rubric_lines_name_the_book_numbers_as_the_book_s(label, stored):
    body = sheets.rubric_blocks()[label][3]
    for phrase in sheets.book_phrases(label):
        assert phrase in body, f"{label}: the page lacks {phrase!r}"
    assert varying_book_values(label, distinctive=False), f"{label}: nothing varies"
    values = varying_book_values(label)
    for line in body.splitlines():
        named = [v for v in values.values() if _mentions(line, v)]
        if named:
            assert "the book's" in line, f"{label}: {named} without 'the book's': {line}"


@pytest.fixture
def stored(monkeypatch):
    """The reference functions that fit models answer from the stored table of
    their designs (tests/test_variants.py recomputes some of its entries), and
    compute the book's numbers once."""
    from test_variants import STORED

    for label, rows in STORED.items():
        module = _module(label)
        original = module.VARIANTS[label]
        signature = inspect.signature(original)
        entries = [tuple(p[n] for n in signature.parameters)
                   for p in variants.design(label)]
        live = functools.lru_cache(maxsize=None)(original)

        def lookup(*args, _sig=signature, _rows=rows, _entries=entries, _live=live,
                   **kwargs):
            bound = _sig.bind(*args, **kwargs)
            bound.apply_defaults()
            params = tuple(bound.arguments.values())
            if params not in _entries:
                return _live(*params)                    # the book's numbers
            row = _rows[_entries.index(params)]
            return row[0] if len(row) == 1 else tuple(row)

        monkeypatch.setitem(module.VARIANTS, label, lookup)
        for attr, value in list(vars(module).items()):
            if value is original:
                monkeypatch.setattr(module, attr, lookup)


def test_rubric_sheets_print_each_student_s_numbers(tmp_path, stored):
    """The sheets of twelve students (two rosters with their keys) print, for every
    exercise with variants, the expected answer rounded as printed, and rubrics
    with the student's numbers: no line names a number of the book's without
    saying so, and none is left marked as the book's."""
    from test_variants import KEYS, ROSTERS

    blocks = sheets.rubric_blocks()
    book_values = {label: varying_book_values(label) for label in RUBRIC_VARIANTS}
    for roster in sorted(ROSTERS):
        ids, key = ROSTERS[roster][::34], KEYS[roster]
        _key, paths = sheets.write_sheets(ids, str(tmp_path / roster), key=key,
                                          log=lambda *a: None)
        assert len(paths) == 2 * len(ids)
        for sid in ids:
            md = (tmp_path / roster / f"{sid}.md").read_text(encoding="utf-8")
            assert (tmp_path / roster / f"{sid}.html").read_text().count("<table>") >= 20
            assert sheets.BOOK_MARK not in md
            sections = re.split(r"^### ", md, flags=re.M)[1:]
            by_label = {re.search(r"\(([\w-]+)\)\n", s).group(1): s for s in sections}
            for label in variants.VARIANT_LABELS:
                section = by_label[label]
                printed = re.search(r"Expected answer \(accepted within [^)]*\): "
                                    r"`\(?([^`)]*)\)?`", section).group(1)
                got = [float(v) for v in printed.split(", ")]
                want = np.round(np.ravel(expected(label, sid, key)), sheets.digits(label))
                np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
                if label not in blocks:
                    continue
                mine = sheets.rubric_values(label, variants.variant(label, sid, key))
                for name, value in book_values.get(label, {}).items():
                    if any(value in m for m in mine.values()):
                        continue                # one of the student's too (or part of one)
                    for line in section.split("\nRubric (", 1)[1].splitlines():
                        assert not _mentions(line, value) or "the book's" in line, (
                            label, sid, value, line)
                for template in sheets.PHRASES.get(label, []):
                    assert sheets.fill(template, mine, book=False) in section

