import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import matplotlib

matplotlib.use("Agg")


# The book's scripts live in folders by concern (README.md, "Layout"):
# builders/ (the editions), checks/ (the page and PDF checks), course/ (the
# course kit) and chapters/data/ (the simulations beside the tables they
# write).  They are scripts, not packages: the tests import them by name.
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT_FOLDERS = ("builders", "checks", "course", os.path.join("chapters", "data"))
for _folder in SCRIPT_FOLDERS[:3]:
    sys.path.insert(1, os.path.join(_ROOT, _folder))


def tool(name):
    """A fresh module from the script <folder>/<name>.py of SCRIPT_FOLDERS."""
    import importlib.util

    paths = [os.path.join(_ROOT, folder, f"{name}.py") for folder in SCRIPT_FOLDERS]
    path, = [p for p in paths if os.path.exists(p)]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the student edition, built once per test run --------------------------------
# tests/test_student.py, tests/test_student_html.py and tests/test_rubrics.py all
# look at the student edition (notebooks, zip and HTML book).  Building it takes
# about a minute of CPU, so the first test that needs it builds it, under a file
# lock, into _build/test-student/, and every other test of the same run (on any
# pytest-xdist worker) reuses that build.
import fcntl  # noqa: E402
import hashlib  # noqa: E402
import glob  # noqa: E402
import pathlib  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import types  # noqa: E402
import uuid  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STUDENT = os.path.join(ROOT, "_build", "test-student")
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex


def _instructor_digest():
    paths = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb"))
                   + glob.glob(os.path.join(ROOT, "chapters", "*.md")))
    return {p: hashlib.sha256(open(p, "rb").read()).hexdigest() for p in paths}


def student_edition():
    """Paths of this run's student edition: ``out`` (notebooks), ``html``, ``archive``.

    ``unchanged`` says whether building it left the instructor files as they were.
    Also copied to $AUKBOOK_STUDENT_HTML when set (`make test`), for
    checks/check_html.py.
    """
    base = pathlib.Path(_STUDENT)
    edition = types.SimpleNamespace(out=base / "student", html=base / "html",
                                    archive=base / "student-notebooks.zip")
    os.makedirs(os.path.join(ROOT, "_build"), exist_ok=True)
    with open(os.path.join(ROOT, "_build", ".test-student.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = base / ".run"
        if not (stamp.exists() and stamp.read_text().split("\n", 1)[0] == _RUN):
            shutil.rmtree(base, ignore_errors=True)
            base.mkdir(parents=True)
            before = _instructor_digest()
            proc = subprocess.run(
                [sys.executable, os.path.join(ROOT, "course", "make_student.py"),
                 str(edition.out), "--html", str(edition.html),
                 "--archive", str(edition.archive)], capture_output=True, text=True)
            unchanged = _instructor_digest() == before
            status = "ok" if proc.returncode == 0 else (
                "build failed\n" + proc.stdout[-3000:] + proc.stderr[-3000:])
            stamp.write_text(f"{_RUN}\n{int(unchanged)}\n{status}")
            keep = os.environ.get("AUKBOOK_STUDENT_HTML")
            if keep and proc.returncode == 0:
                keep = os.path.join(ROOT, keep)
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(edition.html, keep)
        _run, unchanged, status = stamp.read_text().split("\n", 2)
    assert status == "ok", status
    edition.unchanged = unchanged == "1"
    return edition
