"""Build the HTML book and fail on any warning.

    python builders/build_book.py [SOURCE_DIR]        (default: the repository)

jupyter-book's own exit status is not enough on its own: it is 0 when a
notebook fails to execute, so this script also scans the log for warnings and
errors and for notebooks stored with error outputs.  course/make_student.py
uses build() for the student edition.
"""

import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stored_errors(source):
    bad = []
    for path in sorted(glob.glob(os.path.join(source, "chapters", "*.ipynb"))):
        nb = json.load(open(path))
        for cell in nb["cells"]:
            if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
                bad.append(path)
                break
    return bad


def build(source=ROOT):
    """Build source/_build/html; return 0 on success, 1 on any warning or error."""
    # An older set-up copied plotly.js into _static/, and jupyter-book puts
    # every script found there on every page: remove that leftover.
    stale = os.path.join(source, "_static", "plotly.min.js")
    if os.path.exists(stale):
        os.remove(stale)
        print(f"removed the leftover {os.path.relpath(stale, source)}")
    bad = stored_errors(source)
    if bad:
        print("Notebooks stored with error outputs:", ", ".join(bad))
        return 1
    jb = os.path.join(os.path.dirname(sys.executable), "jupyter-book")
    cmd = [jb, "build", source, "--builder", "html", "-W", "-n", "--keep-going"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    problems = [line for line in log.splitlines()
                if re.search(r"\b(WARNING|ERROR|CRITICAL)\b|Traceback", line)
                and "Kernel is running over TCP" not in line]
    print(log[-3000:])
    if proc.returncode != 0 or problems:
        print("\nBook build FAILED (exit %d); problems:" % proc.returncode)
        for line in problems[:50]:
            print("  " + line)
        return 1
    print(f"Book build OK: {os.path.relpath(os.path.join(source, '_build', 'html', 'index.html'))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(build(sys.argv[1] if len(sys.argv) > 1 else ROOT))
