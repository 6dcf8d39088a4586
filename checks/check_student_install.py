"""Install the student zip in a fresh virtual environment and run every notebook.

    python checks/check_student_install.py [_build/student-notebooks.zip]

What a student does, from the zip's own files plus the package registry and
nothing of the book's repository: unpack, ``python -m venv``, ``pip install
-r requirements.txt``, ``pip install --no-deps wheels/*.whl``; then every
chapter notebook runs from top to bottom in that environment (nbclient is
installed there to drive them).  Takes a few minutes (the downloads), so it
is not part of ``make test``; ``make check-student-install`` runs it.
"""

import glob
import os
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

RUN = """
import sys, time, nbformat
from nbclient import NotebookClient
path = sys.argv[1]
nb = nbformat.read(path, as_version=4)
t0 = time.perf_counter()
NotebookClient(nb, timeout=600, kernel_name="python3",
               resources={"metadata": {"path": sys.argv[2]}}).execute()
print(f"{path.rsplit('/', 1)[-1]}: ran in {time.perf_counter() - t0:.1f} s")
"""


def main(archive):
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
        student = os.path.join(tmp, "student")
        venv = os.path.join(tmp, "venv")
        py = os.path.join(venv, "bin", "python")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        pip = [py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run(pip + ["-r", "requirements.txt"], cwd=student, check=True)
        subprocess.run(pip + ["--no-deps"] + sorted(glob.glob(os.path.join(student, "wheels", "*.whl"))),
                       cwd=student, check=True)
        subprocess.run(pip + ["nbclient"], cwd=student, check=True)
        print(f"installed in {time.perf_counter() - t0:.0f} s")
        chapters = os.path.join(student, "chapters")
        env = dict(os.environ, PATH=os.path.join(venv, "bin") + os.pathsep + os.environ["PATH"])
        failed = []
        for path in sorted(glob.glob(os.path.join(chapters, "*.ipynb"))):
            run = subprocess.run([py, "-c", RUN, path, chapters], env=env,
                                 capture_output=True, text=True)
            print(run.stdout.strip() or f"{os.path.basename(path)}: FAILED\n{run.stderr[-2000:]}")
            if run.returncode:
                failed.append(os.path.basename(path))
        if failed:
            print("failed:", ", ".join(failed))
            return 1
        print("every student notebook runs in a fresh environment made from the zip")
        return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1
                          else os.path.join(ROOT, "_build", "student-notebooks.zip")))
