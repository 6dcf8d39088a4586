"""Grading a class from LMS downloads, with hostile students among them.

Each chapter's assignment is released and a class's submissions graded with
``course/grading/grade.py`` (``make grade``), once per test run
(tests/grading_class.py): a correct submission, a blank one and hostile ones
(tests/grading_submissions.py) that import, read or print the reference
answers, patch the comparison or numpy/scikit-learn, exit or kill the kernel,
loop for ever, exhaust memory or processes, write outside their folder or
tamper with the locked cells.  For the sample chapter the class also arrives
as Moodle, Canvas and Blackboard downloads, with files nobody can be matched
to.  ``make test`` grades the sample chapters (SAMPLE), ``make test-course``
every chapter.
"""

import csv
import glob
import html
import json
import os
import re
import shutil
import subprocess
import sys

import nbformat
import numpy as np
import pytest

import grading_class
import grading_submissions as subs
from answers.grading import answer, expected
from aukbook.checks import CHECKS
from grading_class import CHAPTERS, FULL, ROOT

sys.path.insert(0, os.path.join(ROOT, "course", "grading"))
import judge  # noqa: E402

_CACHE = {}


def graded(aid):
    if aid not in _CACHE:
        _CACHE[aid] = grading_class.graded(aid)
    return _CACHE[aid]


def autograded(g, sid):
    return float(g.rows[(sid, g.aid)]["autograded"])


def max_auto(g):
    return 3 * len(g.labels)


@pytest.mark.parametrize("aid", CHAPTERS)
def test_make_grade_writes_a_row_for_every_student_of_the_roster(aid):
    """Every student of the roster has a row (those who handed nothing in
    too), every collected student feedback, whatever the others did."""
    g = graded(aid)
    assert g.returncode == 0, g.stdout[-3000:] + g.stderr[-3000:]
    for sid in g.kinds:
        assert (sid, aid) in g.rows, f"{sid} has no row:\n{g.stdout[-3000:]}"
        assert g.rows[(sid, aid)]["status"] in ("graded", "needs manual grading")
        assert os.path.exists(os.path.join(g.course, "feedback", sid, aid)), sid
    with open(os.path.join(g.base, "roster.csv"), newline="") as fh:
        roster = {r["student_id"] for r in csv.DictReader(fh)}
    assert {s for s, _ in g.rows} == roster
    assert {r["assignment"] for r in g.rows.values()} == {aid}


@pytest.mark.parametrize("aid", CHAPTERS)
def test_correct_submission_gets_every_autograded_point(aid):
    g = graded(aid)
    row = g.rows[("s001", aid)]
    assert float(row["autograded"]) == float(row["autograded_max"]) == max_auto(g)
    assert row["needs_attention"] == "no", row["attention_reason"]


@pytest.mark.parametrize("aid", CHAPTERS)
def test_released_notebook_runs_on_its_own(aid):
    """The correct submission ran in a sandbox holding only the release (and the
    data files it ships): no cell raised, in well under the time limits."""
    g = graded(aid)
    release = os.path.join(g.course, "release", aid)
    tables = sorted(os.path.basename(p) for p in glob.glob(os.path.join(release, "data", "*")))
    chapter, = glob.glob(os.path.join(ROOT, "chapters", f"{aid}_*.ipynb"))
    assert tables == grading_class.make_assignments.data_files(chapter)
    report = g.reports["s001"]
    assert report["sandbox"]["status"] == "finished" and not report["attention"], report
    nb_path, = glob.glob(os.path.join(g.course, "autograded", "s001", aid, "*.ipynb"))
    nb = nbformat.read(nb_path, as_version=4)
    errors = [(c.source[:80], o.get("ename"), o.get("evalue", "")[:200])
              for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors, errors
    assert report["sandbox"]["cpu"] < 120, report["sandbox"]


@pytest.mark.parametrize("aid", CHAPTERS)
def test_blank_submission_gets_nothing(aid):
    row = graded(aid).rows[("s002", aid)]
    assert float(row["autograded"]) == 0 and float(row["total"]) == 0
    assert row["needs_manual_grading"] == "no"      # empty written answers score 0
    assert row["status"] == "graded"


AT_MOST = {"write-outside", "overwrite-records"}


@pytest.mark.parametrize("aid", CHAPTERS)
def test_hostile_submissions_get_no_more_than_they_earned(aid):
    g = graded(aid)
    hostile = {s: k for s, k in g.kinds.items() if k in subs.HOSTILE}
    if not hostile:
        pytest.skip(f"{aid} is graded with hostile submissions by make test-course")
    wrong = {}
    for sid, kind in hostile.items():
        got, honest = autograded(g, sid), g.honest[sid]
        if got > honest or (kind not in AT_MOST and got != honest):
            wrong[kind] = (got, honest)
    assert not wrong, f"(autograded, earned honestly) by attack: {wrong}"


@pytest.mark.parametrize("aid", CHAPTERS)
def test_writing_outside_its_folder_changes_no_file_of_the_grader(aid):
    """The submission that writes into the reference answers, the library, the
    gradebook, the course's configuration, another student's notebook and
    the system changed none of them (its sandbox has none of them, or only
    read-only), and that other student is graded in full."""
    g = graded(aid)
    if "write-outside" not in g.kinds.values():
        pytest.skip(f"{aid} is graded without this attack")
    nb_name = os.path.basename(glob.glob(os.path.join(g.course, "release", aid,
                                                      "*.ipynb"))[0])
    targets = [os.path.join(ROOT, "tests", "answers", "grading.py"),
               os.path.join(ROOT, "auklib", "__init__.py"),
               os.path.join(ROOT, "bookkit", "aukbook", "checks", "__init__.py"),
               os.path.join(g.course, "gradebook.db"),
               os.path.join(g.course, "nbgrader_config.py"),
               os.path.join(g.course, "submitted", "s001", aid, nb_name)]
    for path in targets:
        with open(path, "rb") as fh:
            assert b"PWNED = True" not in fh.read(), path
    for path in ("/work/pwned", "/root/pwned", "/etc/pwned"):
        assert not os.path.exists(path), path
    assert autograded(g, "s001") == max_auto(g)


STOPS = {"exit-process": "kernel died", "kill-parent": "ended abnormally",
         "infinite-loop": "kept running", "memory-bomb": "memory",
         "fork-bomb": ("processes", "memory"), "hang": "kept running",
         "forge-status": "status file", "negative-count": "invalid execution count",
         "overwrite-records": "file of recorded answers"}


@pytest.mark.parametrize("aid", CHAPTERS)
def test_runs_that_stop_are_flagged_for_attention(aid):
    """Every run that stopped, or left behind what its runner could not have
    written, is flagged with its reason, in grades.csv and in the printed
    report alike (and the ordinary submissions are not)."""
    g = graded(aid)
    for sid, kind in g.kinds.items():
        row = g.rows[(sid, aid)]
        if kind in STOPS:
            assert row["needs_attention"] == "yes", (kind, row)
            words = STOPS[kind] if isinstance(STOPS[kind], tuple) else (STOPS[kind],)
            assert any(w in row["attention_reason"] for w in words), (kind, row)
            assert sid in g.stdout.split("NEEDS ATTENTION")[1], kind
        elif kind in ("correct", "blank", "lms", "zip", "sys-exit"):
            assert row["needs_attention"] == "no", (kind, row)


def _reference_strings(aid, sid, labels):
    """Every reference value of the assignment for this student, as printed."""
    values = []
    for label in labels:
        if CHECKS[label]["kind"] == "function":
            ref = answer(label).reference
            with judge.quietly():
                values += [float(ref(*args)) for args in judge.probes(label)]
        else:
            values += list(np.ravel(expected(label, sid)).astype(float))
    out = set()
    for v in values:
        if not np.isfinite(v):
            continue
        forms = {repr(v), str(v)} | {f"{v:.{n}g}" for n in range(4, 17)} \
            | {f"{v:.{n}f}" for n in range(3, 10)}
        for s in forms:
            digits = s.lstrip("-").replace(".", "").lstrip("0").rstrip("0")
            if len(digits) >= 4 and "e" not in s:
                out.add(s)
    return out


def _page_text(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


@pytest.mark.parametrize("aid", CHAPTERS)
def test_no_feedback_shows_a_reference_value(aid):
    """Every feedback page is searched for every reference value of its
    student's assignment (variants included; for a function answer, the
    reference's value at every test input), in every usual format, after the
    student's own answer cells are taken out (a correct student wrote them)."""
    g = graded(aid)
    leaks = {}
    for page in glob.glob(os.path.join(g.course, "feedback", "*", aid, "*.html")):
        sid = page.split(os.sep)[-3]
        text = _page_text(page)
        nb_path, = glob.glob(os.path.join(g.course, "autograded", sid, aid, "*.ipynb"))
        for cell in nbformat.read(nb_path, as_version=4).cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id", "").endswith("-answer"):
                text = text.replace(cell.source, " ")
        needles = sorted(_reference_strings(aid, sid, g.labels), key=len, reverse=True)
        pattern = re.compile(r"(?<![\d.])(" + "|".join(map(re.escape, needles)) + r")(?!\d)")
        found = sorted(set(pattern.findall(text))) if needles else []
        for needle in ("ANSWERS = {", "Answer(", "BEGIN SOLUTION", "reference=",
                       "def expected(", "VARIANTS"):
            if needle in text:
                found.append(needle)
        if found:
            leaks[sid] = found[:5]
    assert not leaks, leaks


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_tampering_is_undone_and_reported_loudly():
    g = graded(FULL)
    tamper = next(s for s, k in g.kinds.items() if k == "tamper-cells")
    row = g.rows[(tamper, FULL)]
    assert int(row["tampering"]) >= 3 and row["needs_attention"] == "yes"
    section = g.stdout.split("TAMPERING")[1].split("\n\n")[0]
    assert tamper in section and "deleted" in section and "points" in section
    # ordinary submissions: no tampering, and none of nbgrader's checksum noise
    assert [s for s in section.split() if s.rstrip(":") in g.kinds and s.rstrip(":") != tamper
            ] == []
    assert "checksum" not in g.stdout.lower()
    assert g.reports["s001"]["tampering"] == []


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_lms_downloads_are_matched_through_the_roster():
    """Moodle (folder, browser copy " (1)"), Canvas (late, resubmission "-1"),
    Blackboard (username with an underscore, time stamp) and a zip named by the
    id: each is graded under its roster id (its variant), so a correct notebook
    gets every point; what matches no one is reported and not graded."""
    g = graded(FULL)
    for sid in ("m001", "c001", "b001", "z001"):
        assert autograded(g, sid) == max_auto(g), (sid, g.rows[(sid, FULL)])
    assert g.rows[("c001", FULL)]["late"] == "yes"
    assert g.rows[("m001", FULL)]["name"] == "Jane Doe"
    assert not any("assignsubmission" in s or "_attempt_" in s for s, _ in g.rows)
    report = g.stdout
    unmatched = report.split("NOT MATCHED (")[1].split("\n\n")[0]
    assert "Unknown Person_999999_assignsubmission_file_" in unmatched
    assert "loose_" in unmatched
    assert "s003" in report.split("SKIPPED")[1].split("\n\n")[0]      # the symlink
    assert "Jane Doe_123456_assignsubmission_file_/" in report.split("\nsuperseded")[1]
    assert "n001" in report.split("no submission")[1].split("\n")[0]
    with open(os.path.join(g.course, "reports", f"{FULL}-report.txt")) as fh:
        assert fh.read() in report


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_grade_table_flags_hand_marking_and_totals_what_is_marked(tmp_path):
    g = graded(FULL)
    row = g.rows[("s001", FULL)]
    assert set(row) == set(csv.DictReader(open(os.path.join(g.course, "grades.csv")))
                           .fieldnames)
    assert row["status"] == "needs manual grading"
    assert row["needs_manual_grading"] == "yes" and int(row["manual_parts_pending"]) == 3
    assert float(row["manual"]) == 0 and float(row["total"]) == float(row["autograded"])
    assert float(row["max_score"]) == float(row["autograded_max"]) + float(row["manual_max"])
    # a student of the roster who handed nothing in: a row, no marks (not 0)
    missing = g.rows[("n001", FULL)]
    assert missing["status"] == "not submitted" and missing["name"] == "Nobody Submitted"
    assert missing["autograded"] == missing["manual"] == missing["total"] == ""
    assert missing["max_score"] == row["max_score"]
    # mark the written answers by hand, add an assignment nobody has handed in,
    # export again: the marks count, the flag goes, every student gets a row
    # "not submitted" for the new assignment
    course = tmp_path / "course"
    shutil.copytree(g.course, course, symlinks=True)
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        sub = gb.find_submission(FULL, "s001")
        marked = 0.0
        for nb in sub.notebooks:
            for grade in nb.grades:
                if grade.cell.cell_type == "markdown":
                    grade.manual_score = grade.max_score - 1
                    marked += grade.max_score - 1
        gb.db.commit()
        gb.add_assignment("ch02")
    config = (course / "nbgrader_config.py").read_text().replace(g.course, str(course))
    (course / "nbgrader_config.py").write_text(config)
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ["PATH"])
    subprocess.run([sys.executable, "-m", "nbgrader", "export", "--to", "again.csv"],
                   cwd=course, env=env, check=True, capture_output=True)
    rows = {(r["student_id"], r["assignment"]): r
            for r in csv.DictReader(open(course / "again.csv"))}
    assert {a for _, a in rows} == {FULL, "ch02"}
    assert {s for s, a in rows if a == "ch02"} == {s for s, _ in g.rows}
    assert {r["status"] for (_, a), r in rows.items() if a == "ch02"} == {"not submitted"}
    again = rows[("s001", FULL)]
    assert again["status"] == "graded"
    assert again["needs_manual_grading"] == "no" and float(again["manual"]) == marked
    assert float(again["total"]) == float(again["autograded"]) + marked


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_grading_again_keeps_every_grade(tmp_path):
    """make grade a second time (nothing forced) with a second download that
    holds only part of the class (late submissions, say): every submission
    is kept as graded, the crashed ones too, the table is written again, the
    flags of the first run stay, the report names every flagged row of the
    table (the first run's too, marked so: issue 36, F3), and lists as "no
    submission" only the unflagged students who have none from either run (a
    student flagged at collection, e.g. for a zip bomb, stays flagged)."""
    g = graded(FULL)
    course = tmp_path / "course"
    shutil.copytree(g.course, course, symlinks=True)
    config = (course / "nbgrader_config.py").read_text().replace(g.course, str(course))
    (course / "nbgrader_config.py").write_text(config)
    again = tmp_path / "second-download"
    for name in ("s001", "Jane Doe_123456_assignsubmission_file_"):
        shutil.copytree(os.path.join(g.base, "submissions", name), again / name)
    env = dict(os.environ, **grading_class.LIMITS)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "course", "grading", "grade.py"),
                           str(course), FULL, str(again), "--jobs", "2"],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = {(r["student_id"], r["assignment"]): r
            for r in csv.DictReader(open(course / "grades.csv"))}
    assert {k: (r["autograded"], r["needs_attention"]) for k, r in rows.items()} == \
        {k: (r["autograded"], r["needs_attention"]) for k, r in g.rows.items()}
    assert "of 9 autograded points" not in proc.stdout       # nothing ran again
    none = {s for (s, _), r in g.rows.items() if r["status"] == "not submitted"
            and r["needs_attention"] == "no"}
    assert "n001" in none
    for sid in ("q001", "m002"):           # the zip bomb, an attacker: flagged, not "none"
        assert rows[(sid, FULL)]["status"] == "not submitted", sid
        assert rows[(sid, FULL)]["needs_attention"] == "yes", sid
    listed = proc.stdout.split("no submission (")[1].split("\n")[0].split(": ")[1]
    assert set(listed.split(", ")) == none, proc.stdout
    section = proc.stdout.split("NEEDS ATTENTION")[1].split("\n\n")[0]
    for (sid, _), r in rows.items():
        if r["needs_attention"] == "yes":
            assert f"!! {sid}: {r['attention_reason']}" in section, sid
    assert grading_class.BOMB[0] in section and "(from an earlier run)" in section
    kept = proc.stdout.split("collected by an earlier run and kept (")[1].split("\n")[0]
    assert "s002" in kept and "c001" in kept and "s001" not in kept


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_no_student_is_credited_with_a_file_named_for_them_in_anothers_upload():
    """Moodle, Blackboard, Canvas and plain-zip uploads holding a blank
    notebook named for another student (grading_class.ATTACKERS): the
    victims keep their own notebooks, every point and no flag; each file is
    reported with its uploader, whose row is flagged; nothing is graded for
    the attacker."""
    g = graded(FULL)
    section = g.stdout.split("NAMED FOR ANOTHER STUDENT (")[1].split("\n\n")[0]
    for sid, _, _, _, path, victim in grading_class.ATTACKERS:
        row = g.rows[(victim, FULL)]
        assert autograded(g, victim) == max_auto(g), (victim, row)
        assert row["needs_attention"] == "no", row
        mine = g.rows[(sid, FULL)]
        assert mine["status"] == "not submitted" and mine["needs_attention"] == "yes", mine
        assert "named for another student" in mine["attention_reason"], mine
        assert f"uploaded by {sid}, names {victim}" in section, section
        assert not os.path.exists(os.path.join(g.course, "submitted", sid))


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_a_zip_of_zips_is_not_unpacked_and_nothing_unpacked_is_left():
    """The 7 KB upload of six nested zips (8 GiB unpacked): reported and its
    uploader flagged; the class is graded; what collection unpacked
    (downloaded/<assignment>) is gone after the run."""
    g = graded(FULL)
    sid = grading_class.BOMB[0]
    row = g.rows[(sid, FULL)]
    assert row["status"] == "not submitted" and row["needs_attention"] == "yes", row
    assert f"{sid}.zip" in row["attention_reason"], row
    assert "not unpacked" in row["attention_reason"], row
    assert f"{sid}.zip: not unpacked" in g.stdout.split("SKIPPED")[1].split("\n\n")[0]
    assert not os.path.exists(os.path.join(g.course, "downloaded", FULL))
    assert autograded(g, "s001") == max_auto(g)


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_each_assignment_gets_a_grade_file_and_a_canvas_import():
    """grades/<assignment>.csv holds the assignment's rows of grades.csv
    (points, maximum, flags, reason); grades/<assignment>-canvas.csv is
    Canvas's gradebook import with a final mark only."""
    g = graded(FULL)
    table = {r["student_id"]: r for r in csv.DictReader(
        open(os.path.join(g.course, "grades", f"{FULL}.csv"), newline=""))}
    assert set(table) == {s for s, _ in g.rows}
    for sid, r in table.items():
        full = g.rows[(sid, FULL)]
        assert (r["points"], r["max_points"], r["needs_attention"], r["reason"]) == \
            (full["total"], full["max_score"], full["needs_attention"],
             full["attention_reason"])
    canvas = list(csv.reader(open(os.path.join(g.course, "grades", f"{FULL}-canvas.csv"),
                                  newline="")))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", FULL]
    marks = {r[2]: r[5] for r in canvas[2:]}
    assert set(marks) == set(table)
    for sid, mark in marks.items():
        final = table[sid]["status"] == "graded" and table[sid]["needs_attention"] == "no"
        assert mark == (table[sid]["points"] if final else ""), (sid, mark)
    ann = next(r for r in canvas[2:] if r[2] == "c001")
    assert ann[:2] == ["Lee, Ann", "55501"]           # the Canvas user id of her download


@pytest.mark.parametrize("aid", CHAPTERS)
def test_grading_time_per_student(aid, record_property):
    """What grading one submission costs (reported by make grade)."""
    g = graded(aid)
    runs = [r for s, r in g.reports.items() if g.kinds.get(s) in ("correct", "lms", "zip")]
    cpu = [r["sandbox"]["cpu"] for r in runs]
    wall = [r["seconds"] for r in runs]
    record_property("sandbox_cpu_s", round(sum(cpu) / len(cpu), 1))
    record_property("seconds", round(sum(wall) / len(wall), 1))
    print(f"{aid}: {len(runs)} ordinary submissions, sandbox CPU {sum(cpu) / len(cpu):.1f} s, "
          f"{sum(wall) / len(wall):.1f} s each; whole make grade {g.seconds:.0f} s for "
          f"{len(g.kinds)} students")
    assert max(cpu) < 120


def test_a_roster_release_is_graded_on_each_students_own_numbers(tmp_path):
    """End to end with a roster: release chapter 1 with ROSTER (what ``make
    release ROSTER=`` runs), grade with the same file (``make grade ROSTER=``):
    a correct notebook of a student whose numbers differ from the book's and
    from the roster-free ones gets every autograded point, and a classmate who
    hands in that notebook under their own id gets fewer (the grader reads the
    assignment's course key in its own process, even after a later release of
    another chapter without a roster)."""
    from aukbook.variants import BOOK, VARIANT_LABELS, roster_key, variant

    course, folder = tmp_path / "course", tmp_path / "submissions"
    roster = tmp_path / "roster.txt"                 # one id a line: the plainest roster
    ids = ["r001", "r002", "r003", "r004"]
    roster.write_text("\n".join(ids) + "\n")
    key = roster_key(ids)
    assert grading_class.make_assignments.main(
        [str(course), "--chapters", FULL, "--roster", str(roster)]) == 0
    # another chapter released later without a roster leaves chapter 1's key
    assert grading_class.make_assignments.main([str(course), "--chapters", "ch02"]) == 0
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", FULL, "--force"],
                   cwd=course, env=env, check=True, capture_output=True)
    release, = glob.glob(str(course / "release" / FULL / "*.ipynb"))
    rel = nbformat.read(release, as_version=4)
    labels = subs.labels_of(rel)
    mine = [l for l in labels if l in VARIANT_LABELS]
    assert mine and all(variant(l, "r001", key) != BOOK[l] for l in mine)
    assert any(variant(l, "r001", key) != variant(l, "r001") for l in mine)
    honest = subs.fill(rel, "r001", key=key)
    copied = subs.fill(rel, "r001", key=key)          # r002 hands in r001's notebook
    for cell in copied.cells:
        cell.source = cell.source.replace('STUDENT_ID = "r001"', 'STUDENT_ID = "r002"')
    name = os.path.basename(release)
    for sid, nb in (("r001", honest), ("r002", copied)):
        os.makedirs(folder / sid)
        nbformat.write(nb, str(folder / sid / name))
    env.update(grading_class.LIMITS)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "course", "grading", "grade.py"),
                           str(course), FULL, str(folder), "--roster", str(roster),
                           "--jobs", "2"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = {r["student_id"]: r for r in csv.DictReader(open(course / "grades.csv"))}
    assert set(rows) == set(ids)
    full = 3 * len(labels)
    assert float(rows["r001"]["autograded"]) == full, rows["r001"]
    # the copy keeps the function answers and the form points only
    assert float(rows["r002"]["autograded"]) < full - 2 * (len(mine) - 1), rows["r002"]


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_every_flag_of_grades_csv_is_named_in_the_printed_report():
    """grades.csv and the printed report agree: every row of this run that
    needs attention is named in the report with the same reason, and the
    report's mean is the table's."""
    g = graded(FULL)
    section = g.stdout.split("NEEDS ATTENTION")[1].split("\n\n")[0]
    flagged = {s: r for (s, a), r in g.rows.items() if r["needs_attention"] == "yes"}
    assert flagged
    for sid, row in flagged.items():
        assert f"!! {sid}: {row['attention_reason']}" in section, sid
    named = re.findall(r"!! (\S+):", section)
    assert set(named) == set(flagged)
    graded_rows = [float(r["autograded"]) for (s, _), r in g.rows.items() if s in g.reports]
    mean = re.search(r"autograded: (\d+) submissions, mean ([\d.]+) of", g.stdout)
    assert int(mean.group(1)) == len(graded_rows)
    assert float(mean.group(2)) == round(sum(graded_rows) / len(graded_rows), 1)


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_a_hanging_notebook_frees_its_slot_in_proportion_to_the_reference():
    """The reference solution is timed once in the sandbox, and each
    submission may take a multiple of it: a notebook that hangs (sleeping,
    swallowing the interrupt) is stopped at its cell's wall-clock limit, a
    fraction of the 900 s it held a slot for before, with the limit and its
    basis in the reason."""
    g = graded(FULL)
    with open(os.path.join(g.course, "reports", f"{FULL}-reference.json")) as fh:
        reference = json.load(fh)
    assert reference["ok"], reference
    assert "time limits: a notebook" in g.stdout and "reference solution ran in" in g.stdout
    sid = next(s for s, k in g.kinds.items() if k == "hang")
    report = g.reports[sid]
    limits = report["limits"]
    basis = limits["reference"]
    # 4 times the reference's wall time (at least 45 s), times how much busier
    # the machine was than when the reference ran, at most the 600 s ceiling
    assert limits["cell_wall"] == pytest.approx(
        min(600.0, max(45.0, 4 * basis["wall"]) * basis["busier"]), abs=0.1)
    # stopped 5 s after the cell's limit, plus the start-up before the cell
    # (at most a whole reference run, on the machine as busy as it was)
    startup = basis["wall"] * basis["busier"]
    assert report["sandbox"]["wall"] < limits["cell_wall"] + startup + 30, report["sandbox"]
    reason = g.rows[(sid, FULL)]["attention_reason"]
    assert "kept running" in reason and "reference solution ran in" in reason, reason
    assert f"a cell may run {limits['cell_wall']:.0f} s" in reason


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_two_graders_on_one_machine_do_not_interfere():
    """A second course folder graded at the same time as the class, with the
    same default user id range: its correct notebooks get every point (issue
    36: 0/9, "crashed", exit 137), and so do the class's; a step of nbgrader
    that fails for one of its students after the run (t003) gives that
    student a flagged row with the reason, named in the report, and the
    others are graded."""
    g = graded(FULL)
    second = g.second
    assert second["returncode"] == 0, second["stdout"][-3000:] + second["stderr"][-3000:]
    with open(os.path.join(second["course"], "grades.csv"), newline="") as fh:
        rows = {r["student_id"]: r for r in csv.DictReader(fh)}
    for sid in ("t001", "t002"):
        assert float(rows[sid]["autograded"]) == max_auto(g), rows[sid]
        assert rows[sid]["needs_attention"] == "no", rows[sid]
    assert autograded(g, "s001") == max_auto(g)
    failed = rows["t003"]
    assert failed["needs_attention"] == "yes"
    assert "nbgrader could not finish grading" in failed["attention_reason"]
    assert "simulated by the tests" in failed["attention_reason"]
    assert "t003" in second["stdout"].split("NEEDS ATTENTION")[1].split("\n\n")[0]
    # the two graders' runs overlapped in time, each under its own user ids
    import datetime

    def spans(folder):
        out = []
        for path in glob.glob(os.path.join(folder, "reports", FULL, "*.json")):
            with open(path) as fh:
                r = json.load(fh)
            if "seconds" in r and "graded_at" in r:
                begin = datetime.datetime.fromisoformat(r["graded_at"]).timestamp()
                out.append((begin, begin + r["seconds"], r["sandbox"].get("uid")))
        return out
    mine, theirs = spans(g.course), spans(second["course"])
    overlapping = [(a, b) for a in mine for b in theirs if a[0] < b[1] and b[0] < a[1]]
    assert overlapping, (mine, theirs)
    if os.geteuid() == 0:
        assert all(a[2] != b[2] for a, b in overlapping), overlapping


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_a_second_grader_on_the_same_course_is_refused(tmp_path):
    import fcntl

    g = graded(FULL)
    with open(os.path.join(g.course, ".grading.lock"), "a+") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "course", "grading",
                                                            "grade.py"),
                               g.course, FULL, os.path.join(g.base, "submissions")],
                              capture_output=True, text=True)
    assert proc.returncode == 4
    assert "another grader is working on" in proc.stderr


@pytest.mark.skipif(FULL not in CHAPTERS, reason="the sample chapter is graded")
def test_regrading_one_student_keeps_hand_marks_and_grades_no_one_else(tmp_path):
    """make grade STUDENT=s001 (grade.py --student): s001 is autograded
    afresh; the marks and comments given by hand in the formgrader to s001
    and to everyone else are kept, and no other student is run again."""
    from nbgrader.api import Gradebook

    g = graded(FULL)
    course = tmp_path / "course"
    shutil.copytree(g.course, course, symlinks=True)
    config = (course / "nbgrader_config.py").read_text().replace(g.course, str(course))
    (course / "nbgrader_config.py").write_text(config)
    hand = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for sid in ("s001", "s002"):
            for nb in gb.find_submission(FULL, sid).notebooks:
                for grade in nb.grades:
                    if grade.cell.cell_type == "markdown":
                        grade.manual_score = grade.max_score - 1
                        hand[sid, grade.name] = grade.manual_score
                for comment in nb.comments:
                    comment.manual_comment = f"hand comment for {sid} on {comment.name}"
        gb.db.commit()
    reports = course / "reports" / FULL
    before = {p.name: p.read_bytes() for p in reports.glob("*.json") if p.name != "collect.json"}
    autograded_before = {p: p.stat().st_mtime_ns
                         for p in (course / "autograded").glob("*/*/*.ipynb")}
    env = dict(os.environ, **grading_class.LIMITS)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "course", "grading", "grade.py"),
                           str(course), FULL, os.path.join(g.base, "submissions"),
                           "--student", "s001", "--jobs", "2"],
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ran = re.findall(r"^  (\S+) " + FULL + r": [\d.]+ of", proc.stdout, re.M)
    assert ran == ["s001"], proc.stdout
    after = {p.name: p.read_bytes() for p in reports.glob("*.json") if p.name != "collect.json"}
    assert {n for n in after if after[n] != before.get(n)} == {"s001.json"}
    changed = {p.parts[-3] for p, t in autograded_before.items() if p.stat().st_mtime_ns != t}
    assert changed == {"s001"}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for sid in ("s001", "s002"):
            for nb in gb.find_submission(FULL, sid).notebooks:
                for grade in nb.grades:
                    if grade.cell.cell_type == "markdown":
                        assert grade.manual_score == hand[sid, grade.name], (sid, grade.name)
                for comment in nb.comments:
                    assert comment.manual_comment == \
                        f"hand comment for {sid} on {comment.name}"
    rows = {(r["student_id"], r["assignment"]): r
            for r in csv.DictReader(open(course / "grades.csv"))}
    row = rows[("s001", FULL)]
    assert float(row["autograded"]) == max_auto(g) and row["status"] == "graded", row
    assert float(row["manual"]) == sum(v for (s, _), v in hand.items() if s == "s001")
    assert "no submission" not in proc.stdout
    assert (course / "feedback" / "s001" / FULL).is_dir()
    # an id that is not on the roster is refused before anything runs
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "course", "grading", "grade.py"),
                           str(course), FULL, os.path.join(g.base, "submissions"),
                           "--student", "nobody"], env=env, capture_output=True, text=True)
    assert proc.returncode == 2 and "not on the roster" in proc.stderr
