"""A class graded once per test run: the course, the submissions and the results.

``graded(aid)`` writes the assignment of chapter ``aid`` (course/make_assignments.py
and ``nbgrader generate_assignment``, as ``make release`` does), fills in a
class's submissions (tests/grading_submissions.py: a correct one, a blank one,
hostile ones, and for the sample chapter LMS downloads and junk) and grades
them with course/grading/grade.py (what ``make grade`` runs).  Grading takes
minutes, so it happens once per chapter and test run, under a file lock, in
``_build/test-grading/<aid>/``, and every test of the run (on any pytest-xdist
worker) reads the results.

Which chapters: ``SAMPLE`` in ``make test``; all of them when
AUKBOOK_TEST_COURSE=all (``make test-course``).
"""

import csv
import fcntl
import glob
import json
import os
import shutil
import subprocess
import sys
import time
import types
import uuid
import zipfile

import nbformat

import grading_submissions as subs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course"))
import make_assignments  # noqa: E402

ALL = sorted(os.path.basename(p)[:4] for p in glob.glob(os.path.join(ROOT, "chapters",
                                                                      "ch*.ipynb")))
# make test: chapter 1 with a sample of the attacks and the LMS downloads.
# make test-course: chapter 1 with every attack, every other chapter with the
# attacks of grading_submissions.EVERY_CHAPTER.  What the other chapters add
# is tested more cheaply in make test too: a reference that warns on stderr
# (chapter 13's) by tests/test_grading.py, the data files a release ships by
# tests/test_grading.py and tests/test_self_contained.py; the endless loop,
# memory and fork bombs of the sample are left to tests/test_grading_sandbox.py,
# which also shows that no reference can be found, imported or read from a
# sandbox (they cost a minute of CPU here).
SAMPLE = ("ch01",)
FULL = "ch01"
SAMPLE_ATTACKS = ("import-references", "patch-library", "exit-process", "write-outside",
                  "tamper-cells", "hostile-markup", "forge-status", "negative-count",
                  "overwrite-records", "hang")
# AUKBOOK_TEST_COURSE=all grades every chapter; a comma-separated list of
# chapters (ch04,ch05) grades those, with every chapter's attacks
_COURSE = os.environ.get("AUKBOOK_TEST_COURSE", "")
EVERY = bool(_COURSE)
CHAPTERS = (ALL if _COURSE == "all"
            else [c for c in _COURSE.split(",") if c in ALL] if _COURSE else list(SAMPLE))
# one graded class per test run: make test's streams (test-lib, test-grading)
# share $AUKBOOK_TEST_RUN; pytest-xdist's workers share their run's id
_RUN = (os.environ.get("AUKBOOK_TEST_RUN") or os.environ.get("PYTEST_XDIST_TESTRUNUID")
        or uuid.uuid4().hex)
BASE = os.path.join(ROOT, "_build", "test-grading")

# limits for the tests: an endless loop is stopped after 30 s of CPU, a
# memory bomb at 1.5 GB; the chapters' own cells stay far below both
LIMITS = {"AUKGRADE_CELL_CPU": "30", "AUKGRADE_MEMORY": str(1500 << 20),
          "AUKGRADE_UNPACK_BYTES": str(4 << 20)}

# the LMS downloads of the sample chapter: (roster row, path of the file,
# what the grader must make of it)
LMS_STUDENTS = [
    # student_id, name, lms ids, email, file path below SUBMISSIONS
    ("m001", "Jane Doe", "123456", "jdoe@uni.example",
     "Jane Doe_123456_assignsubmission_file_/{nb} (1)"),
    ("c001", "Ann Lee", "55501", "alee@uni.example",
     "leeann_LATE_55501_998877_{stem}-1.ipynb"),
    ("b001", "Bo Li", "", "bo_li@uni.example",
     "{aid}_bo_li_attempt_2026-10-01-12-00-00_{nb}"),
    ("z001", "Zoe Kim", "", "zkim@uni.example", "z001.zip"),
]


# students who attack the LMS students above from their own uploads: (roster
# row, path below SUBMISSIONS, the victim the file's name claims).  Each file
# is a blank notebook: credited to its victim, it would replace their real
# one and score 0.  None of them may be credited to the victim or graded;
# each uploader's row is flagged.
ATTACKERS = [
    ("m002", "Mal Doer", "777", "mal@uni.example",
     "Mal Doer_777_assignsubmission_file_/"
     "Jane Doe_123456_assignsubmission_file_{stem} (2).ipynb", "m001"),
    ("b002", "Eve Brown", "", "eve_b@uni.example",
     "{aid}_eve_b_attempt_2026-10-02-09-00-00_x_bo_li_attempt_2099-01-01-00-00-00_{nb}",
     "b001"),
    # a Canvas zip of Cal's holding a member named as Ann Lee's Canvas file
    ("c002", "Cal Ruiz", "55502", "cruiz@uni.example",
     "ruizcal_55502_998878_work.zip:leeann_55501_999999_{stem}-9.ipynb", "c001"),
    # a zip named by Quinn's id holding a folder named by Zoe's
    ("z002", "Quinn Fox", "", "qfox@uni.example", "z002.zip:z001/{nb}", "z001"),
]
# an upload of six nested zips (7 KB, 8 GiB unpacked), graded with
# AUKGRADE_UNPACK_BYTES (the bound per upload) at 4 MiB
BOMB = ("q001", "Zip Bomber", "", "zbomb@uni.example", "q001.zip")


def roster_rows(students):
    rows = [{"student_id": s, "name": "", "lms_id": "", "email": ""} for s in students]
    rows += [{"student_id": sid, "name": name, "lms_id": lms, "email": email}
             for sid, name, lms, email, _ in LMS_STUDENTS]
    rows += [{"student_id": sid, "name": name, "lms_id": lms, "email": email}
             for sid, name, lms, email, *_ in ATTACKERS + [BOMB]]
    rows.append({"student_id": "n001", "name": "Nobody Submitted", "lms_id": "424242",
                 "email": "nobody@uni.example"})
    return rows


def _submissions(aid, course, release, folder):
    """Write the class's submissions; returns {student: honest points} and
    {student: kind}."""
    nb_name = os.path.basename(release)
    rel = nbformat.read(release, as_version=4)
    labels = subs.labels_of(rel)
    honest, kinds = {}, {}

    def put(sid, nb, kind, honest_kind, path=None):
        dest = os.path.join(folder, path or os.path.join(sid, nb_name))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        nbformat.write(nb, dest)
        honest[sid] = subs.honest_points(honest_kind, labels)
        kinds[sid] = kind

    correct = subs.fill(rel, "s001")
    # saved from a conda environment in JupyterLab: an honest kernelspec the
    # sanitizer once trimmed to an invalid one (nbgrader refused it: 0 points)
    correct.metadata["kernelspec"] = {"display_name": "Python [conda env:aukbook]",
                                      "language": "python", "name": "conda-env-aukbook-py"}
    put("s001", correct, "correct", "full")
    put("s002", subs.fill(rel, "s002", blank=True), "blank", "form")
    honest["s002"] = 0
    attacks = list(subs.HOSTILE) if aid == FULL else list(subs.EVERY_CHAPTER)
    if not EVERY:
        attacks = list(SAMPLE_ATTACKS) if aid == FULL else []
    for i, kind in enumerate(attacks, 10):
        sid = f"h{i:02d}"
        nb = subs.hostile(rel, sid, kind, course=course, aid=aid,
                          notebook=nb_name, other="s001")
        put(sid, nb, kind, subs.HOSTILE[kind][1])
    if aid == FULL:
        stem = nb_name[:-len(".ipynb")]
        for sid, _, _, _, path in LMS_STUDENTS:
            path = path.format(nb=nb_name, stem=stem, aid=aid)
            nb = subs.fill(rel, sid)
            if path.endswith(".zip"):
                tmp = os.path.join(folder, "..", "zip-" + sid)
                os.makedirs(tmp, exist_ok=True)
                nbformat.write(nb, os.path.join(tmp, nb_name))
                with zipfile.ZipFile(os.path.join(folder, path), "w") as zf:
                    zf.write(os.path.join(tmp, nb_name), nb_name)
                honest[sid], kinds[sid] = subs.honest_points("full", labels), "zip"
            else:
                put(sid, nb, "lms", "full", path if path.endswith(".ipynb")
                    else path + ".ipynb")
        # an older copy of Jane Doe's notebook (superseded by " (1)"), blank
        put("m001", subs.fill(rel, "m001", blank=True), "lms", "full",
            f"Jane Doe_123456_assignsubmission_file_/{nb_name}")
        honest["m001"] = subs.honest_points("full", labels)
        for sid, _, _, _, path, victim in ATTACKERS:
            path = path.format(nb=nb_name, stem=stem, aid=aid)
            nb = subs.fill(rel, victim, blank=True)
            if ":" in path:                       # a member of the attacker's zip
                archive, member = path.split(":")
                with zipfile.ZipFile(os.path.join(folder, archive), "w") as zf:
                    zf.writestr(member, nbformat.writes(nb))
            else:
                dest = os.path.join(folder, path)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                nbformat.write(nb, dest)
        subs.nested_zip_bomb(os.path.join(folder, BOMB[-1]))
        # files no one can be matched to
        junk = {"Unknown Person_999999_assignsubmission_file_/" + nb_name:
                subs.fill(rel, "x001"),
                "loose_" + nb_name: subs.fill(rel, "x002")}
        for path, nb in junk.items():
            dest = os.path.join(folder, path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            nbformat.write(nb, dest)
        # a link to an instructor file, planted in the download
        os.makedirs(os.path.join(folder, "s003"), exist_ok=True)
        os.symlink(os.path.join(course, "source", aid, nb_name),
                   os.path.join(folder, "s003", nb_name))
    return honest, kinds, labels


def _build(aid, base):
    course = os.path.join(base, "course")
    folder = os.path.join(base, "submissions")
    os.makedirs(folder)
    make_assignments.write_course(course, [aid])
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", aid, "--force"],
                   cwd=course, env=env, check=True, capture_output=True)
    release, = glob.glob(os.path.join(course, "release", aid, "*.ipynb"))
    honest, kinds, labels = _submissions(aid, course, release, folder)
    roster = os.path.join(base, "roster.csv")
    plain = [s for s, k in kinds.items() if k not in ("lms", "zip")]
    with open(roster, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["student_id", "name", "lms_id", "email"])
        writer.writeheader()
        writer.writerows(roster_rows(plain) if aid == FULL else
                         [{"student_id": s, "name": "", "lms_id": "", "email": ""}
                          for s in plain])
    # every grader leases its sandbox user ids from the same default range
    # (no AUKGRADE_UID_BASE of its own): graders side by side must not collide
    env.update(LIMITS)
    second = _start_second_grader(aid, base, env) if aid == FULL else None
    start = time.monotonic()
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "course", "grading", "grade.py"),
                           course, aid, folder, "--roster", roster, "--jobs", "2"],
                          env=env, capture_output=True, text=True)
    seconds = time.monotonic() - start
    result = {"returncode": proc.returncode, "stdout": proc.stdout,
              "stderr": proc.stderr[-20000:], "honest": honest, "kinds": kinds,
              "labels": labels, "seconds": seconds}
    if second is not None:
        out, err = second.communicate()
        result["second"] = {"returncode": second.returncode, "stdout": out,
                            "stderr": err[-20000:], "course": os.path.join(base, "second",
                                                                           "course")}
    with open(os.path.join(base, "result.json"), "w") as fh:
        json.dump(result, fh)


# the second grader: another course folder on the same machine, graded at the
# same time as the class (issue 36: two graders killed each other's
# sandboxes); t001 and t002 hand in correct notebooks; for t003 a step of
# nbgrader after the run fails (tests/grading_failing_step.py)
SECOND = ("t001", "t002", "t003")


def _start_second_grader(aid, base, env):
    top = os.path.join(base, "second")
    course, folder = os.path.join(top, "course"), os.path.join(top, "submissions")
    make_assignments.write_course(course, [aid])
    with open(os.path.join(course, "nbgrader_config.py"), "a") as fh:
        fh.write("\n# the tests' failing step (tests/grading_failing_step.py)\n"
                 "_steps = list(c.Autograde.autograde_preprocessors)\n"
                 "c.Autograde.autograde_preprocessors = "
                 "_steps[:1] + ['grading_failing_step.FailAfterRun'] + _steps[1:]\n")
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", aid, "--force"],
                   cwd=course, env=env, check=True, capture_output=True)
    release, = glob.glob(os.path.join(course, "release", aid, "*.ipynb"))
    rel = nbformat.read(release, as_version=4)
    for sid in SECOND:
        dest = os.path.join(folder, sid, os.path.basename(release))
        os.makedirs(os.path.dirname(dest))
        nbformat.write(subs.fill(rel, sid), dest)
    with open(os.path.join(top, "roster.txt"), "w") as fh:
        fh.write("\n".join(SECOND) + "\n")
    return subprocess.Popen([sys.executable, os.path.join(ROOT, "course", "grading", "grade.py"),
                             course, aid, folder, "--roster", os.path.join(top, "roster.txt"),
                             "--jobs", "2"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def graded(aid):
    """The graded class of chapter ``aid`` (built once per test run)."""
    base = os.path.join(BASE, aid)
    os.makedirs(BASE, exist_ok=True)
    with open(os.path.join(BASE, f".{aid}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = os.path.join(base, ".run")
        # AUKBOOK_TEST_GRADING_REUSE=1 reuses the last build (while writing tests)
        reuse = os.environ.get("AUKBOOK_TEST_GRADING_REUSE") == "1" and os.path.exists(stamp)
        if not reuse and not (os.path.exists(stamp) and open(stamp).read() == _RUN):
            shutil.rmtree(base, ignore_errors=True)
            os.makedirs(base)
            _build(aid, base)
            with open(stamp, "w") as fh:
                fh.write(_RUN)
    with open(os.path.join(base, "result.json")) as fh:
        result = json.load(fh)
    course = os.path.join(base, "course")
    rows = {}
    if os.path.exists(os.path.join(course, "grades.csv")):
        with open(os.path.join(course, "grades.csv"), newline="") as fh:
            rows = {(r["student_id"], r["assignment"]): r for r in csv.DictReader(fh)}
    reports = {}
    for path in glob.glob(os.path.join(course, "reports", aid, "*.json")):
        with open(path) as fh:
            reports[os.path.basename(path)[:-5]] = json.load(fh)
    return types.SimpleNamespace(course=course, aid=aid, base=base, rows=rows,
                                 reports=reports, **result)
