"""The student edition, built once per test run, by whoever asks first.

tests/test_student.py, tests/test_student_html.py and tests/test_rubrics.py
all look at the student edition (notebooks, zip and HTML book).  Building it
takes about 40 s of CPU, so it is built once per test run, under a file lock,
into ``_build/test-student/``, and every later caller of the same run (any
pytest-xdist worker, or ``make test``'s page check of the student edition,
which runs this file as a script beside the tests) reuses that build.

A run is named by $AUKBOOK_TEST_RUN when set (``make test`` sets it for the
tests and the page check alike), else by pytest-xdist's run id; the name is
written into ``_build/test-student/.run`` with whether the build left the
instructor's chapters as they were and how it ended.

    python tests/student_edition.py --html _build/student-html

builds it (or finds this run's build) and copies its HTML book to
``--html``, for checks/check_html.py.
"""

import argparse
import fcntl
import glob
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import types
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = pathlib.Path(ROOT, "_build", "test-student")
LOCK = os.path.join(ROOT, "_build", ".test-student.lock")
RUN = (os.environ.get("AUKBOOK_TEST_RUN") or os.environ.get("PYTEST_XDIST_TESTRUNUID")
       or uuid.uuid4().hex)


def _instructor_digest():
    paths = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))
                   + glob.glob(os.path.join(ROOT, "chapters", "*.md")))
    return {p: hashlib.sha256(open(p, "rb").read()).hexdigest() for p in paths}


def student_edition(keep=None):
    """Paths of this run's student edition: ``out`` (notebooks), ``html``,
    ``archive``; ``unchanged`` says whether building it left the instructor
    files as they were, ``status`` "ok" or why the build failed.  The HTML is
    also copied to ``keep`` (default: $AUKBOOK_STUDENT_HTML) when this call
    builds it."""
    keep = keep if keep is not None else os.environ.get("AUKBOOK_STUDENT_HTML")
    edition = types.SimpleNamespace(out=BASE / "student", html=BASE / "html",
                                    archive=BASE / "student-notebooks.zip")
    os.makedirs(os.path.dirname(LOCK), exist_ok=True)
    with open(LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = BASE / ".run"
        if not (stamp.exists() and stamp.read_text().split("\n", 1)[0] == RUN):
            shutil.rmtree(BASE, ignore_errors=True)
            BASE.mkdir(parents=True)
            before = _instructor_digest()
            proc = subprocess.run(
                [sys.executable, os.path.join(ROOT, "course", "make_student.py"),
                 str(edition.out), "--html", str(edition.html),
                 "--archive", str(edition.archive)], capture_output=True, text=True)
            unchanged = _instructor_digest() == before
            status = "ok" if proc.returncode == 0 else (
                "build failed\n" + proc.stdout[-3000:] + proc.stderr[-3000:])
            stamp.write_text(f"{RUN}\n{int(unchanged)}\n{status}")
            if keep and proc.returncode == 0:
                keep = os.path.join(ROOT, keep)
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(edition.html, keep)
        _run, unchanged, edition.status = stamp.read_text().split("\n", 2)
    edition.unchanged = unchanged == "1"
    return edition


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", required=True,
                        help="where to copy the student HTML book (e.g. _build/student-html)")
    args = parser.parse_args(argv)
    edition = student_edition(keep="")
    if edition.status != "ok":
        print(f"student edition: {edition.status}")
        return 1
    target = os.path.join(ROOT, args.html)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(edition.html, target)
    print(f"student edition of run {RUN}: {os.path.relpath(target, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
