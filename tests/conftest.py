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


# --- the student edition, built once per test run (tests/student_edition.py) ------
def student_edition():
    """Paths of this run's student edition: ``out`` (notebooks), ``html``, ``archive``.

    ``unchanged`` says whether building it left the instructor files as they were.
    Also copied to $AUKBOOK_STUDENT_HTML when set, for checks/check_html.py.
    """
    from student_edition import student_edition as built

    edition = built()
    assert edition.status == "ok", edition.status
    return edition
