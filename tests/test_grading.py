"""The assignments made from the chapters, and how the grader marks an answer.

The notebooks are graded in a sandbox (tests/test_grading_sandbox.py); their
hidden test cells only record the answers, and ``course/grading/judge.py``
marks the records in the grader's own process against ``tests/answers/``.
These tests check the assignments' cells, the judge (variants, function
answers, tolerances, a reference that warns), the reading of what a sandbox
wrote, and the data files each release carries.  Grading whole classes:
tests/test_grading_a_class.py.
"""

import glob
import json
import os
import re
import sys
import warnings

import nbformat
import numpy as np
import pytest

from answers.grading import _module, answer, expected
from aukbook.checks import CHECKS
from aukbook.variants import BOOK, VARIANT_LABELS, variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course", "grading"))
import judge  # noqa: E402
import make_assignments  # noqa: E402
import nbgrader_plugins  # noqa: E402


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    """The nbgrader source notebook of every chapter, by assignment id."""
    course = tmp_path_factory.mktemp("sources")
    summary = make_assignments.write_course(str(course))
    paths = {aid: glob.glob(str(course / "source" / aid / "*.ipynb"))[0]
             for aid in summary}
    notebooks = {aid: nbformat.read(path, as_version=4) for aid, path in paths.items()}
    return summary, notebooks, course


def grade_cells(nb):
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells
            if "nbgrader" in c.metadata}


def hidden_test(nb, label):
    source = grade_cells(nb)[f"{label}-value"].source
    found = re.search(r"BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", source, re.S)
    return found.group(1)


def assignment_of(label):
    return "ch%02d" % int(label.split("-")[0][2:])


def test_every_exercise_is_graded(sources):
    from course_metrics import KIND

    summary, notebooks, _ = sources
    rubrics = make_assignments.rubric_points()
    rows = {r["label"]: r for rs in summary.values() for r in rs}
    assert set(rows) == set(KIND)
    for label, row in rows.items():
        cells = grade_cells(notebooks[assignment_of(label)])
        if label in CHECKS:
            assert cells[f"{label}-form"].metadata["nbgrader"]["points"] == judge.FORM_POINTS
            assert cells[f"{label}-value"].metadata["nbgrader"]["points"] == judge.VALUE_POINTS
            assert cells[f"{label}-answer"].metadata["nbgrader"]["solution"]
        if {"derivation", "interpretation"} & set(KIND[label]):
            written = cells[f"{label}-written"].metadata["nbgrader"]
            assert written["points"] == rubrics[label][1] and written["solution"]
        assert (label in CHECKS) or (f"{label}-written" in cells)


def test_hidden_tests_only_record_the_answer(sources):
    """A hidden test holds no reference and compares nothing: it records the
    student's variable, and the grader marks it outside the notebook."""
    _, notebooks, _ = sources
    for aid, nb in notebooks.items():
        for label in (l for l in CHECKS if assignment_of(l) == aid):
            code = hidden_test(nb, label)
            name = make_assignments.answer_name(label)
            assert code == f"from aukgrade import record\nrecord({label!r}, {name!r})\n"
        # no code outside the solution regions imports the reference answers
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            code = re.sub(r"### BEGIN SOLUTION.*?### END SOLUTION", "", cell.source, flags=re.S)
            assert not re.search(r"\banswers\b\.|\bimport answers\b|\bfrom answers\b",
                                 code), cell.source[:200]


def test_model_chapters_select_the_graders_blas_kernels(sources):
    _, notebooks, _ = sources
    for aid, nb in notebooks.items():
        first = next(c for c in nb.cells if c.cell_type == "code")
        assert "STUDENT_ID =" in first.source
        pinned = 'os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")' in first.source
        assert pinned == (aid in make_assignments.BLAS_SENSITIVE), aid


def test_variants_cover_chapters_1_to_10(sources):
    summary, _, _ = sources
    for aid in [f"ch{n:02d}" for n in range(1, 11)]:
        assert any(r["variant"] for r in summary[aid]), f"{aid} has no variant exercise"


@pytest.mark.parametrize("label", VARIANT_LABELS)
def test_variant_reference_generalises_the_book(label):
    """At the book's own numbers, the variant's reference is the book's answer."""
    ref = _module(label).VARIANTS[label](**BOOK[label])
    np.testing.assert_allclose(np.ravel(ref), np.ravel(answer(label).reference()),
                               rtol=0, atol=1e-12)


def test_variants_are_deterministic_and_vary():
    for label in VARIANT_LABELS:
        assert variant(label, "s001") == variant(label, " s001 ")
        assert len({repr(variant(label, f"s{i:03d}")) for i in range(30)}) >= 5, label
    with pytest.raises(ValueError, match="student_id"):
        variant("ch1-ex-fourth", "")
    with pytest.raises(ValueError, match="ch1-ex-counts"):
        variant("ch1-ex-counts", "s001")


def record(label, value):
    return {"label": label, "name": judge.answer_name(label),
            "values": [float(v) for v in np.ravel(value)]}


@pytest.mark.parametrize("label", VARIANT_LABELS)
def test_judge_marks_each_students_own_variant(label):
    """The reference is the graded student's variant: their own answer passes,
    a classmate's (a different variant, more than 2 atol away) fails."""
    me = "s001"
    mine = expected(label, me)
    atol = answer(label).atol
    for i in range(2, 40):
        other = f"s{i:03d}"
        theirs = expected(label, other)
        if np.max(np.abs(np.subtract(theirs, mine))) > 2 * atol:
            break
    else:
        pytest.fail(f"{label}: 38 classmates share s001's answer")
    assert judge.judge(label, record(label, mine), me).points == 3
    assert judge.judge(label, record(label, theirs), me).points == 1     # form only
    assert judge.judge(label, record(label, theirs), other).points == 3
    nudged = np.asarray(mine, dtype=float) + 0.9 * atol
    assert judge.judge(label, record(label, nudged), me).value
    assert not judge.judge(label, record(label, np.asarray(mine) + 2.5 * atol), me).value


@pytest.mark.parametrize("label", sorted(CHECKS))
def test_every_reference_is_accepted_even_when_it_warns(label):
    """The reference's own value gets full marks for every exercise of every
    chapter, with every warning turned into an error around the judge: a
    reference computation that warns can no longer fail a correct answer."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if CHECKS[label]["kind"] == "function":
            ref = answer(label).reference
            outputs = [float(ref(*args)) for args in judge.probes(label)]
            entry = {"label": label, "callable": True, "outputs": outputs}
        else:
            entry = record(label, expected(label, "s001"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        verdict = judge.judge(label, entry, "s001")
    assert (verdict.form, verdict.value) == (True, True), verdict


def test_a_reference_that_warns_still_accepts_the_right_answer(monkeypatch, capfd):
    """A reference computation that warns and writes to stderr (as ch13's did
    at the book's numbers, with few positives, before the variants) changes
    no mark and reaches no log: the judge computes it quietly."""
    label = "ch13-ex-placements"
    right = expected(label, "s001")
    grading = judge._answers()
    real = grading.expected

    def noisy(*args, **kwargs):
        warnings.warn("invalid value encountered in divide", RuntimeWarning)
        sys.stderr.write("RuntimeWarning: invalid value encountered in divide\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(grading, "expected", noisy)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        verdict = judge.judge(label, record(label, right), "s001")
    assert (verdict.form, verdict.value) == (True, True), verdict
    assert capfd.readouterr().err == ""


def test_judge_marks_function_answers_at_fresh_inputs():
    from auklib import kappa_from_confusion

    probes = judge.probes("ch1-ex-counts")
    assert len(probes) == 1 + 2 * answer("ch1-ex-counts").n_probes
    right = {"label": "ch1-ex-counts", "callable": True,
             "outputs": [kappa_from_confusion(*a) for a in probes]}
    assert judge.judge("ch1-ex-counts", right, "s001").points == 3
    accuracy = dict(right, outputs=[(a[0] + a[3]) / sum(a) for a in probes])
    assert judge.judge("ch1-ex-counts", accuracy, "s001").points == 1
    # right at the self-check's inputs only (what a student could look up)
    few = dict(right, outputs=right["outputs"][:1] + [0.0] * (len(probes) - 1))
    assert judge.judge("ch1-ex-counts", few, "s001").points == 1
    assert judge.judge("ch1-ex-counts", dict(right, outputs=right["outputs"][:-1]),
                       "s001").points == 1
    raised = dict(right, outputs=[{"error": "ZeroDivisionError"}] * len(probes))
    assert judge.judge("ch1-ex-counts", raised, "s001").points == 0
    not_function = record("ch1-ex-counts", 0.5)
    assert judge.judge("ch1-ex-counts", not_function, "s001").points == 0


def test_judge_explains_without_the_answer():
    ref = expected("ch1-ex-random", "s001")
    for entry in (None, {"label": "ch1-ex-random", "missing": True},
                  record("ch1-ex-random", ref + 0.11), record("ch1-ex-random", [1.0, 2.0]),
                  {"label": "ch1-ex-random", "values": ["nan"]},
                  {"label": "ch1-ex-random", "error": "TypeError: one"}):
        v = judge.judge("ch1-ex-random", entry, "s001", stopped="the kernel died")
        assert v.points <= 1
        text = v.form_message + v.value_message
        assert "answer_random" in text
        assert f"{ref:.3f}" not in text and f"{ref:.2f}" not in text


def test_records_are_read_as_untrusted_data(tmp_path):
    """What a sandbox writes is data: a symlink is not followed, a malformed
    line is skipped, the last record of a label counts, the size is bounded."""
    good = tmp_path / "records.jsonl"
    good.write_text("\n".join([
        json.dumps({"label": "ch1-ex-random", "values": [0.1]}),
        "{not json", "[1, 2]", json.dumps({"no": "label"}),
        json.dumps({"label": "ch1-ex-random", "values": [0.2]})]))
    assert judge.read_records(str(good)) == {
        "ch1-ex-random": {"label": "ch1-ex-random", "values": [0.2]}}
    secret = tmp_path / "secret.py"
    secret.write_text(json.dumps({"label": "ch1-ex-random", "values": [0.3]}))
    link = tmp_path / "link.jsonl"
    link.symlink_to(secret)
    assert judge.read_records(str(link)) == {}
    assert nbgrader_plugins._read_untrusted(str(link), 1 << 20) is None
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"x" * (judge.MAX_RECORDS_BYTES + 10))
    assert judge.read_records(str(big)) == {}
    assert nbgrader_plugins._read_untrusted(str(big), 1000) is None
    os.mkfifo(tmp_path / "fifo")              # would block a plain open()
    assert judge.read_records(str(tmp_path / "fifo")) == {}
    assert nbgrader_plugins._read_untrusted(str(tmp_path / "fifo"), 1000) is None


FORGED_STATUS = [
    b'{"cells": 3, "ran": 3, "stopped": null, "stopped_cell": null, "interrupted": 5}',
    b'{"interrupted": [1, "x"]}', b'{"interrupted": [-1]}', b'{"interrupted": [true]}',
    b'{"stopped": 7}', b'{"stopped": ["a"]}', b'{"stopped_cell": "x"}',
    b'{"stopped_cell": 1e300}', b'{"cells": "many", "ran": -1}', b'[1, 2, 3]', b'"text"',
    b'{"invalid_outputs": "x"}', b'{"invalid_outputs": -1}',
    b'null', b'{not json', b'\xff\xfe', b'{"interrupted": [' + b'1, ' * 20000 + b'1]}',
    b'{"stopped": {"x": 1}, "stopped_cell": [1], "interrupted": {"a": 1}}',
    # a reason of the student's own, in place of the runner's few
    b'{"stopped": "![t](http://127.0.0.1:47999/st.png) =HYPERLINK(\\"x\\")"}',
    b'{"stopped": "the run failed (<img src=x onerror=alert(1)>)"}',
    b'{"stopped": "the kernel died"}']


@pytest.mark.parametrize("raw", FORGED_STATUS)
def test_a_forged_status_file_is_reported_and_never_crashes_the_grader(raw):
    """status.json is written beside the student's code, which can replace it
    (issue 36: one of the wrong type made the grader raise TypeError): every
    field is checked, and a file the runner could not have written is named
    as such; what comes back has the runner's types only."""
    status, problem = nbgrader_plugins._runner_status(raw)
    assert problem, raw
    assert isinstance(status, dict)
    assert isinstance(status.get("interrupted", []), list)
    assert all(isinstance(i, int) and i >= 0 for i in status.get("interrupted", []))
    assert isinstance(status.get("stopped") or "", str)
    assert status.get("stopped") in (None,) + nbgrader_plugins.RUNNER_STOPS
    assert status.get("stopped_cell") is None or isinstance(status["stopped_cell"], int)


def test_the_runners_own_status_file_is_read_as_it_is():
    raw = json.dumps({"cells": 12, "ran": 5,
                      "stopped": "the kernel died (the process exited or was killed)",
                      "stopped_cell": 4, "interrupted": [2, 2, 1],
                      "invalid_outputs": 3}).encode()
    status, problem = nbgrader_plugins._runner_status(raw)
    assert problem == ""
    assert status == {"cells": 12, "ran": 5,
                      "stopped": "the kernel died (the process exited or was killed)",
                      "stopped_cell": 4, "interrupted": [1, 2], "invalid_outputs": 3}
    assert nbgrader_plugins._runner_status(None) == ({}, "no status file")
    for stop in ("kept running after an interrupt", "the run failed (CellExecutionError)"):
        assert nbgrader_plugins._runner_status(json.dumps({"stopped": stop}).encode()) == \
            ({"stopped": stop, "interrupted": []}, "")


@pytest.mark.parametrize("count,kept", [(-100, None), (-1, None), (True, None), ("3", None),
                                        (3.0, None), (1 << 40, None), (None, None), (0, 0),
                                        (7, 7)])
def test_execution_counts_no_kernel_gives_are_dropped(count, kept):
    """A notebook can set its own execution count (get_ipython().execution_count
    = -100): such a count would make the graded notebook invalid and nbgrader
    save no mark at all (issue 36's silent zero)."""
    assert nbgrader_plugins._execution_count(count) == kept


# as nbgrader 0.9 logs it: a record's continuation lines indented by 4
NBGRADER_LOG = """\
[AutogradeApp | INFO] Autograding /c/autograded/s005/ch01/ch01_accuracy_kappa.ipynb
[AutogradeApp | ERROR] Notebook is invalid after preprocessor <grading.nbgrader_plugins.X>
[AutogradeApp | ERROR] There was an error processing assignment: /c/submitted/s005/ch01
[AutogradeApp | ERROR] Traceback (most recent call last):
      File "/x/nbgrader/converters/base.py", line 425, in convert_notebooks
        self.convert_single_notebook(notebook_filename)
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    jsonschema.exceptions.ValidationError: -100 is less than the minimum of 0
    
    During handling of the above exception, another exception occurred:
    
    Traceback (most recent call last):
      File "/x/nbconvert/exporters/exporter.py", line 347, in _validate_preprocessor
    nbformat.validator.NotebookValidationError: -100 is less than the minimum of 0
    
[AutogradeApp | WARNING] Removing failed assignment: /c/autograded/s005/ch01
[AutogradeApp | INFO] Autograding /c/autograded/s006/ch01/ch01_accuracy_kappa.ipynb
[AutogradeApp | ERROR] There was an error processing assignment 'ch01' for student 's005'
[AutogradeApp | ERROR] There was an error processing assignment 'ch01' for student 's009'
[AutogradeApp | ERROR] Please see the the above traceback for details
"""


def test_nbgrader_failures_are_read_per_student_with_their_reason(tmp_path):
    """A submission nbgrader gave up on after its run is named with the error
    (the exception's own line), and its grading report says so, so that
    grades.csv flags it and the printed report names it."""
    import grade

    failed = grade.failures(NBGRADER_LOG.splitlines(), "ch01")
    assert failed == {"s005": "nbformat.validator.NotebookValidationError: -100 is less "
                              "than the minimum of 0", "s009": ""}
    assert grade.failures(NBGRADER_LOG.splitlines(), "ch02") == {}
    course = tmp_path / "course"
    (course / "reports" / "ch01").mkdir(parents=True)
    (course / "reports" / "ch01" / "s005.json").write_text(json.dumps(
        {"student": "s005", "points": 9, "attention": []}))
    grade.note_failures(str(course), "ch01", failed)
    for sid in ("s005", "s009"):
        report = json.loads((course / "reports" / "ch01" / f"{sid}.json").read_text())
        assert report["failed"] is True
        assert "nbgrader could not finish grading" in report["attention"][-1]
    assert "-100" in json.loads((course / "reports" / "ch01" / "s005.json").read_text()
                                )["attention"][-1]


def test_the_table_flags_marks_the_gradebook_did_not_save():
    """grades.csv shows a mark only when its grading report gave the same
    (issue 36: the table said 0 with no flag while the report counted 9)."""
    check = nbgrader_plugins._checked_attention
    assert check({"points": 9, "attention": []}, 9.0) == []
    assert "gradebook holds 0" in check({"points": 9, "attention": []}, 0.0)[0]
    assert "gradebook holds nan" in check({"points": 9, "attention": []}, float("nan"))[0]
    assert check({"points": 9, "attention": ["x"], "failed": True}, 0.0) == ["x"]
    assert check({"attention": "not a list"}, 0.0) == ["the grading report is damaged"]


def test_the_reference_is_timed_again_after_an_hour_or_on_another_machine(tmp_path,
                                                                          monkeypatch):
    """grade.py's timing of the reference solution is used again within the
    hour on the same machine (a STUDENT= regrade right after a class run),
    and measured again when it is older, was made on another machine, or
    the source notebook changed."""
    import types

    import nbformat.v4 as v4

    (tmp_path / "source" / "ch05").mkdir(parents=True)
    source = tmp_path / "source" / "ch05" / NB
    nbformat.write(v4.new_notebook(), str(source))
    runs = []

    def run(*args):
        runs.append(1)
        return (types.SimpleNamespace(ok=True, wall=8.0, cpu=5.0, status="finished"),
                b"", {}, {})

    monkeypatch.setattr(nbgrader_plugins, "_run_notebook", run)
    timed = lambda: nbgrader_plugins.reference_run(str(tmp_path), "ch05",  # noqa: E731
                                                    max_age=3600)
    assert timed()["wall"] == 8.0 and len(runs) == 1
    assert timed()["wall"] == 8.0 and len(runs) == 1                  # within the hour
    path = tmp_path / "reports" / "ch05-reference.json"
    stored = json.loads(path.read_text())
    for change in ({"measured_ts": stored["measured_ts"] - 3601},     # over an hour old
                   {"machine": "another, 64 cores"}, {"measured_ts": None}):
        path.write_text(json.dumps(dict(stored, **change)))
        before = len(runs)
        timed()
        assert len(runs) == before + 1, change
    nbformat.write(v4.new_notebook(cells=[v4.new_code_cell("1")]), str(source))
    timed()
    assert len(runs) == 5                                             # the source changed
    nbgrader_plugins.reference_run(str(tmp_path), "ch05", again=True)
    assert len(runs) == 6


def test_time_limits_follow_the_reference_solution():
    """A submission may take a multiple of what the reference solution took
    in the same sandbox (never more than the configured ceiling); a limit the
    instructor set stays as set."""
    import sandbox

    base = sandbox.Limits()
    fast = nbgrader_plugins.proportionate_limits(base, {"wall": 8.0, "cpu": 5.0})
    assert (fast.wall, fast.cpu, fast.cell_wall, fast.cell_cpu) == (124.0, 60.0, 45.0, 20.0)
    slow = nbgrader_plugins.proportionate_limits(base, {"wall": 40.0, "cpu": 30.0})
    assert (slow.wall, slow.cpu, slow.cell_wall, slow.cell_cpu) == (380.0, 210.0, 160.0, 90.0)
    # a machine three times as busy as when the reference ran: three times the
    # wall-clock time, the same CPU time
    busy = nbgrader_plugins.proportionate_limits(base, {"wall": 8.0, "cpu": 5.0, "load": 1.5},
                                                 load=4.5)
    assert (busy.wall, busy.cpu, busy.cell_wall, busy.cell_cpu) == (372.0, 60.0, 135.0, 20.0)
    calm = nbgrader_plugins.proportionate_limits(base, {"wall": 8.0, "cpu": 5.0, "load": 3},
                                                 load=1.0)
    assert calm.wall == fast.wall
    huge = nbgrader_plugins.proportionate_limits(base, {"wall": 1e4, "cpu": 1e4})
    assert (huge.wall, huge.cpu, huge.cell_wall, huge.cell_cpu) == (
        base.wall, base.cpu, base.cell_wall, base.cell_cpu)
    kept = nbgrader_plugins.proportionate_limits(base, {"wall": 8.0, "cpu": 5.0},
                                                 fixed={"cell_cpu", "wall"})
    assert kept.cell_cpu == base.cell_cpu and kept.wall == base.wall and kept.cpu == 60.0
    assert "reference solution ran in 8.0 s" in nbgrader_plugins.describe_limits(
        fast, {"wall": 8.0, "cpu": 5.0})


def test_students_outputs_keep_text_and_images_only():
    outputs = [
        {"output_type": "display_data",
         "data": {"text/html": "<script>fetch('/formgrader/api')</script>",
                  "application/javascript": "alert(1)", "text/plain": "fig"}},
        {"output_type": "display_data", "data": {"text/html": "<b>only html</b>"}},
        {"output_type": "stream", "name": "stdout", "text": "hello"},
        {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["t"]},
        {"output_type": "weird"}, "not a dict"]
    safe = nbgrader_plugins._safe_outputs(outputs)
    assert [o["output_type"] for o in safe] == ["display_data", "stream", "error"]
    assert set(safe[0]["data"]) == {"text/plain"}


def test_data_files_are_found_in_the_chapters_code():
    """The tables a chapter reads are found in its code (literals, f-strings
    filled from the calls of the function that builds them, stored_rows), and
    every data/ file name a chapter mentions is among them."""
    patterns = make_assignments._patterns_of([
        'json.load(open("data/a.json"))',
        'def load(name):\n    return open(Path("data") / f"sim_{name}.json")',
        'load("auc")\nload(kind)',
        'rows = stored_rows("runs", row, keys)',
        'open(f"data/{prefix}_{n}.json")', "%matplotlib inline\nx = 'b.json'"])
    # load(kind) is not a constant: the f-string stands for every sim_*.json
    assert patterns == {"a.json", "sim_*.json", "runs.json", "*_*.json", "b.json"}
    assert "sim_*.json" not in make_assignments._patterns_of(
        ['def load(name):\n    return open(f"sim_{name}.json")', 'load("auc")'])
    assert "sim_*.json" in make_assignments._patterns_of(
        ['def load(name):\n    return open(f"sim_{name}.json")', 'load(x)'])
    for path in sorted(glob.glob(os.path.join(ROOT, "chapters", "ch*.ipynb"))):
        shipped = make_assignments.data_files(path)
        nb = nbformat.read(path, as_version=4)
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        named = set(re.findall(r"data/(\w+\.json)", code))
        named |= {f"{n}.json" for n in re.findall(r'stored_rows\(\s*"(\w+)"', code)}
        assert named <= set(shipped), (path, named - set(shipped))
        for name in shipped:
            assert os.path.exists(os.path.join(ROOT, "chapters", "data", name))


def test_release_holds_no_solution_hidden_test_or_reference(sources, tmp_path):
    import subprocess

    _, _, course = sources
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ["PATH"])
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", "ch10",
                    "--force"], cwd=course, env=env, check=True, capture_output=True)
    release = course / "release" / "ch10"
    text = nbformat.writes(nbformat.read(next(release.glob("*.ipynb")), 4))
    for needle in ("BEGIN SOLUTION", "HIDDEN TESTS", "answers", "record(", "expected("):
        assert needle not in text, needle
    assert "raise NotImplementedError()" in text
    for label in (l for l in CHECKS if assignment_of(l) == "ch10"):
        for v in np.ravel(expected(label, "s001")):
            assert f"{v:.6f}" not in text
    assert sorted(p.name for p in (release / "data").iterdir()) == \
        make_assignments.data_files(glob.glob(os.path.join(ROOT, "chapters", "ch10*"))[0])


def test_archives_unpack_regular_files_inside_the_folder_only(tmp_path):
    """A zip or tar from an LMS download gives its regular files, below the
    target folder; links, device files and paths that climb out are skipped
    and listed, never created."""
    import io
    import stat
    import tarfile
    import zipfile

    with zipfile.ZipFile(tmp_path / "a.zip", "w") as zf:
        zf.writestr("s1/nb.ipynb", "{}")
        zf.writestr("../evil.txt", "x")
        link = zipfile.ZipInfo("link")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
        zf.writestr("folder/", "")
    with tarfile.open(tmp_path / "b.tar.gz", "w:gz") as tf:
        member = tarfile.TarInfo("s2/nb.ipynb")
        member.size = 2
        tf.addfile(member, io.BytesIO(b"{}"))
        for name, kind in (("lnk", tarfile.SYMTYPE), ("/abs.txt", tarfile.REGTYPE)):
            member = tarfile.TarInfo(name)
            member.type, member.linkname = kind, "/etc/passwd"
            tf.addfile(member, io.BytesIO(b""))
    extractor = nbgrader_plugins.SafeExtractor.__new__(nbgrader_plugins.SafeExtractor)
    extractor.skipped = []
    for name in ("a.zip", "b.tar.gz"):
        (tmp_path / ("out-" + name)).mkdir()
        extractor._unpack(str(tmp_path / name), str(tmp_path / ("out-" + name)))
    made = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                  if p.is_file() or p.is_symlink())
    assert made == ["a.zip", "b.tar.gz", "out-a.zip/s1/nb.ipynb", "out-b.tar.gz/s2/nb.ipynb"]
    # reported by their path inside the archive they came in
    assert sorted(n.split("/", 1)[1] for n, _ in extractor.skipped) == \
        ["../evil.txt", "/abs.txt", "link", "lnk"]
    # each with its own reason: a path that climbs out is no "not a regular file"
    why = {n.split("/", 1)[1]: w for n, w in extractor.skipped}
    for name in ("../evil.txt", "/abs.txt"):
        assert why[name].startswith("a path outside the upload"), why
    for name in ("link", "lnk"):
        assert why[name] == "not a regular file", why


def test_a_release_for_a_roster_gives_every_student_numbers_of_their_own(tmp_path):
    """``make release ROSTER=FILE``: the course key of the roster goes into the
    variant cells and COURSE/course_keys/ch01.txt, where the grader reads it
    (a later release of another chapter, without a roster, leaves it); no two
    of the roster's 200 students share the numbers of ch1-ex-fourth, and the
    judge, given the key, accepts each student's own answer and rejects every
    classmate's."""
    from aukbook.variants import roster_key

    ids = [f"{n:07d}" for n in range(4_200_000, 4_200_200)]
    roster = tmp_path / "roster.csv"
    roster.write_text("name,student_id\n" + "".join(f"N {i},{i}\n" for i in ids))
    course = tmp_path / "course"
    assert make_assignments.main([str(course), "--chapters", "ch01",
                                  "--roster", str(roster)]) == 0
    key = roster_key(ids)
    assert (course / "course_key.txt").read_text().strip() == key
    assert make_assignments.main([str(course), "--chapters", "ch02"]) == 0
    assert judge.read_course_key(str(course / "course_keys" / "ch01.txt")) == key
    assert judge.read_course_key(str(course / "course_keys" / "ch02.txt")) is None
    assert judge.read_course_key(str(course / "course_keys" / "ch03.txt")) is None
    nb = nbformat.read(glob.glob(str(course / "source" / "ch01" / "*.ipynb"))[0], 4)
    cells = grade_cells(nb)
    assert f"key={key!r}" in cells["ch1-ex-fourth-variant"].source
    assert key not in hidden_test(nb, "ch1-ex-fourth")      # the hidden test records only
    label = "ch1-ex-fourth"
    answers = {sid: np.ravel(expected(label, sid, key)) for sid in ids}
    table = np.array(list(answers.values()))
    gap = np.max(np.abs(table[:, None, :] - table[None, :, :]), axis=2)
    np.fill_diagonal(gap, np.inf)
    assert gap.min() > 2 * answer(label).atol            # nobody shares an answer
    for sid in ids[::40]:
        assert judge.judge(label, record(label, answers[sid]), sid, key=key).points == 3
        for other in ids[1::40]:
            assert judge.judge(label, record(label, answers[other]), sid, key=key).points == 1
    # without the key the grader would mark against the roster-free variants
    assert any(judge.judge(label, record(label, answers[sid]), sid).points == 1
               for sid in ids[::40])


def test_release_and_grade_read_one_roster_file(tmp_path):
    """One roster for ``make release ROSTER=`` and ``make grade ROSTER=``: a
    CSV with a student_id column (other columns ignored) or one id a line, read
    by one function (grading/lms.py, read_students); a CSV without the column
    is an error, never a list of odd ids."""
    import lms
    from make_rubric_sheets import read_roster

    csv_file = tmp_path / "roster.csv"
    csv_file.write_text("\ufeffname,student_id,lms_id,email\n"
                        "Jane Doe,s001,123456;777,jdoe@uni.example\n"
                        "Bo Li,s002,,\n,,,\nJane Doe,s001,,\n")
    plain = tmp_path / "roster.txt"
    plain.write_text("# class of 2026\ns001\n\n s002 \n")
    for path in (csv_file, plain):
        assert read_roster(str(path)) == ["s001", "s002"]
        assert sorted(lms.Roster.read(str(path)).students) == ["s001", "s002"]
    jane = lms.Roster.read(str(csv_file))
    assert jane.by_lms("777") == "s001" and jane.by_name("Jane Doe") == "s001"
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name\ns001,Jane\n")
    for reader in (read_roster, lms.Roster.read):
        with pytest.raises(ValueError, match="student_id"):
            reader(str(bad))
    empty = tmp_path / "empty.txt"
    empty.write_text("# nobody yet\n")
    with pytest.raises(ValueError, match="no student ids"):
        read_roster(str(empty))


# --- whose is a file: identity from the LMS, never from inside an upload ------------------

def _lms_roster():
    import lms

    return lms.Roster([
        lms.Student("m001", "Jane Doe", ("123456",), "jdoe@uni.example"),
        lms.Student("d001", "Dana Scully", ("102146",), "dscully@uni.example"),
        lms.Student("c001", "Catalina Ruiz", ("55501",), "cruiz@uni.example"),
        lms.Student("c002", "José Núñez", ("55502",), "jnunez@uni.example"),
        lms.Student("s057", "Sam Ott", (), "sott@uni.example"),
        lms.Student("z001", "Zoe Kim", (), "zkim@uni.example"),
        lms.Student("x001", "Mal Doer", ("777", "66601"), "mal_d@uni.example"),
    ])


NB = "ch05_threshold.ipynb"
BB = "ch05_threshold_{user}_attempt_{ts}_{name}"
# (what the attacker uploads, as the download shows it; whom it may be credited
# to; whom its inner name claims).  Each victim also has a real upload below.
IMPERSONATIONS = [
    # Moodle: a file inside Mal's folder named as Dana's flat Moodle file
    ("Mal Doer_777_assignsubmission_file_/"
     "Dana Scully_102146_assignsubmission_file_ch05_threshold (2).ipynb", "d001"),
    # Moodle: a folder of that name inside Mal's zip inside Mal's folder
    ("Mal Doer_777_assignsubmission_file_/work/Dana Scully_102146_assignsubmission_file_/"
     + NB, "d001"),
    # Blackboard: the student names their file so that the whole name holds a
    # second "_<username>_attempt_<later time stamp>_" (the LMS's prefix is the
    # first one: what follows is the student's file name)
    (BB.format(user="mal_d", ts="2026-10-02-09-00-00",
               name="x_s057_attempt_2099-01-01-00-00-00_" + NB), "s057"),
    # Blackboard: the same inside a zip the student uploaded
    (BB.format(user="mal_d", ts="2026-10-02-09-00-00", name="work") + "/"
     + BB.format(user="s057", ts="2099-01-01-00-00-00", name=NB), "s057"),
    # Canvas: a member of Mal's uploaded zip named as Catalina's Canvas file,
    # inside Canvas's own download zip (a container)
    ("submissions/doermal_66601_900_work/ruizcatalina_55501_901_ch05_threshold-9.ipynb",
     "c001"),
    # Canvas: Mal's file name after Canvas's prefix is a Moodle name of Dana
    ("doermal_66601_900_Dana Scully_102146_assignsubmission_file_" + NB, "d001"),
    # plain folders: Mal's folder holding a folder named by Zoe's id
    ("x001/z001/" + NB, "z001"),
    # a zip named by Mal's id holding Zoe's LMS name
    ("x001/Zoe Kim_424242_assignsubmission_file_/" + NB, "z001"),
]
REAL = {"d001": "Dana Scully_102146_assignsubmission_file_/" + NB,
        "s057": BB.format(user="s057", ts="2026-10-01-12-00-00", name=NB),
        "c001": "submissions/ruizcatalina_55501_800_" + NB,
        "z001": "z001/" + NB}


@pytest.mark.parametrize("attack,victim", IMPERSONATIONS)
def test_a_file_is_credited_to_its_uploader_never_to_a_student_it_names(attack, victim):
    """Each LMS layout (Moodle, Blackboard, Canvas, plain folders, zips of
    them): a file inside one student's upload whose name claims another
    student is reported (``claims``, with its uploader) and credited to no
    one; the victim's own notebook is the one graded, whatever time stamp or
    copy number the impostor's name carries."""
    import lms

    roster = _lms_roster()
    bad = lms.match_file(attack, roster, {NB})
    if bad.ambiguous:          # a name two LMSs' patterns give to two students (F6)
        assert bad.student_id is None and set(bad.ambiguous) == {victim, "x001"}, bad
        assert "not credited to anyone" in bad.how
    else:
        assert bad.student_id is None and bad.claims == victim and bad.owner == "x001", bad
        assert "never credited" in bad.how
    real = lms.match_file(REAL[victim], roster, {NB})
    assert (real.student_id, real.notebook, real.owner) == (victim, NB, victim), real
    best, superseded = lms.choose([bad, real])
    assert {k: m.path for k, m in best.items()} == {(victim, NB): REAL[victim]}
    assert superseded == []


def test_a_students_own_copies_are_chosen_within_their_own_uploads():
    """Two candidates of one student: the LMS's time stamp, then its file id,
    then the copy number decide; a name of their own LMS prefix inside their
    own upload is theirs."""
    import lms

    roster = _lms_roster()
    paths = ["Jane Doe_123456_assignsubmission_file_/" + NB,
             "Jane Doe_123456_assignsubmission_file_/ch05_threshold (1).ipynb",
             "Jane Doe_123456_assignsubmission_file_/Jane Doe_123456_assignsubmission_file_"
             + NB,
             BB.format(user="s057", ts="2026-10-01-12-00-00", name="ch05_threshold (5).ipynb"),
             BB.format(user="s057", ts="2026-10-02-12-00-00", name=NB),
             "ruizcatalina_55501_901_ch05_threshold-3.ipynb",
             "ruizcatalina_55501_902_" + NB]
    matches = [lms.match_file(p, roster, {NB}) for p in paths]
    assert [m.student_id for m in matches] == ["m001"] * 3 + ["s057"] * 2 + ["c001"] * 2
    best, superseded = lms.choose(matches)
    assert best[("m001", NB)].path == paths[1]
    assert best[("s057", NB)].path == paths[4]          # the later attempt, not "(5)"
    assert best[("c001", NB)].path == paths[6]          # Canvas's later file id, not "-3"
    assert len(superseded) == 4


def test_uploads_are_found_at_the_top_or_inside_a_bulk_download_only():
    """An upload's name is read at the top of the submissions or one level
    down (inside Canvas's or Moodle's download zip); a loose file or a
    folder of no student is reported with the reason."""
    import lms

    roster = _lms_roster()
    assert lms.match_file("downloads/x001/" + NB, roster, {NB}).student_id == "x001"
    assert lms.match_file("downloads/more/x001/" + NB, roster, {NB}).student_id is None
    loose = lms.match_file("loose_" + NB, roster, {NB})
    assert loose.student_id is None and "outside any student's folder" in loose.how
    unknown = lms.match_file("Unknown Person_999_assignsubmission_file_/" + NB, roster, {NB})
    assert unknown.student_id is None and "no student of the roster" in unknown.how
    assert lms.uploader("doermal_66601_900_work.zip", roster) == "x001"
    assert lms.uploader("submissions/z001.zip/inner.zip", roster) == "z001"


def test_canvas_logins_with_letters_of_any_alphabet_are_matched():
    """Canvas keeps letters of any alphabet in its login names: composed
    (NFC) or decomposed (NFD, as a Mac zips them), upper or lower case, with
    Canvas's ``_late`` or ``_LATE``; a name that matches nobody exactly is
    tried without accents when one student alone has it; roster entries that
    normalise alike are reported and never matched by name."""
    import unicodedata

    import lms

    # matched by name: the roster gives José Núñez no LMS id (one that it
    # gives decides, test_a_same_name_upload_with_another_lms_id_...)
    roster = lms.Roster([lms.Student("c002", "José Núñez", (), "jnunez@uni.example"),
                         *[s for s in _lms_roster().students.values() if s.student_id != "c002"]])
    for login in ("núñezjosé", unicodedata.normalize("NFD", "núñezjosé"), "NÚÑEZJOSÉ",
                  "nunezjose"):
        for late in ("", "_late", "_LATE"):
            m = lms.match_file(f"{login}{late}_99999_1_{NB}", roster, {NB})
            assert m.student_id == "c002", (login, late, m.how)
            assert m.late == bool(late)
    assert roster.collisions == []
    twins = lms.Roster([lms.Student("a1", "José Müller", ()),
                        lms.Student("a2", "Jose Muller", ("2",)),
                        lms.Student("a3", "Ǆemal Ødegård", ())])
    assert any("a1, a2" in c and "without accents" in c for c in twins.collisions)
    assert twins.by_name("José Müller") == "a1" and twins.by_name("Jose Muller") == "a2"
    assert twins.by_name("Jose Müller") is None             # either of them: nobody
    assert lms.match_file(f"mullerjose_2_5_{NB}", twins, {NB}).student_id == "a2"
    assert lms.match_file(f"müllerjosé_9_5_{NB}", twins, {NB}).student_id == "a1"
    assert lms.match_file(f"ødegårdǆemal_9_5_{NB}", twins, {NB}).student_id == "a3"
    assert lms.match_file(f"ødegårddžemal_9_5_{NB}", twins, {NB}).student_id == "a3"  # NFKC


@pytest.mark.parametrize("real,impostor", [
    ("John Smith_100009_assignsubmission_file_/" + NB,
     "John Smith_999999_assignsubmission_file_/" + NB),
    ("smithjohn_100009_509_" + NB, "smithjohn_777777_9999_" + NB),
])
def test_a_same_name_upload_with_another_lms_id_is_never_credited(real, impostor):
    """A roster row with an LMS id: an upload with the same name but another
    LMS id (Moodle participant, Canvas user) is not theirs -- reported with
    the student it is named like, credited to no one, so it can neither
    replace their own file (whatever its time stamp or file id) nor be graded
    for them; only a row without LMS id is matched by name."""
    import lms

    roster = lms.Roster([lms.Student("s009", "John Smith", ("100009",)),
                         lms.Student("s010", "Ann Bo", ())])
    bad = lms.match_file(impostor, roster, {NB})
    assert bad.student_id is None and bad.owner is None and bad.named_like == "s009", bad
    assert "named like s009, but LMS id" in bad.how and "is not theirs" in bad.how
    good = lms.match_file(real, roster, {NB})
    best, superseded = lms.choose([good, bad])
    assert {k: m.path for k, m in best.items()} == {("s009", NB): real}
    assert superseded == []
    # inside another student's upload, such a name is a claim on s009
    inside = lms.match_file("s010/" + impostor.replace("/", "_"), roster, {NB})
    assert inside.student_id is None and inside.claims == "s009", inside
    # no LMS id on the roster: the name decides
    assert lms.match_file(f"boann_5_5_{NB}", roster, {NB}).student_id == "s010"


def test_a_moodle_full_name_holding_another_participants_suffix_takes_nothing_of_theirs():
    """A Moodle participant (100077) who names themselves
    "Smith_100010_assignsubmission_file_" makes Moodle write their folder as
    "Jane Smith_100010_assignsubmission_file__100077_assignsubmission_file_"
    (second instructor's attack A: it replaced Jane's file, unflagged).  A
    folder's suffix is its end, Moodle's: the upload is 100077's.  A flat file
    with two suffixes cannot be told apart: credited to no one, and the
    student it names is flagged."""
    import lms

    roster = lms.Roster([lms.Student("s010", "Jane Smith", ("100010",)),
                         lms.Student("s077", "Mal Doer", ("100077",))])
    real = f"Jane Smith_100010_assignsubmission_file_/{NB}"
    forged = f"Jane Smith_100010_assignsubmission_file__100077_assignsubmission_file_/{NB}"
    mine, theirs = lms.match_file(real, roster, {NB}), lms.match_file(forged, roster, {NB})
    assert mine.student_id == "s010" and theirs.owner == theirs.student_id == "s077", theirs
    best, superseded = lms.choose([mine, theirs])
    assert best[("s010", NB)].path == real and best[("s077", NB)].path == forged
    assert superseded == []
    flat = lms.match_file(forged.replace("/", ""), roster, {NB})
    assert flat.student_id is None and flat.owner is None and flat.named_like == "s010", flat
    assert "more than one Moodle participant" in flat.how
    # not on the roster at all: still never Jane's
    other = lms.Roster([lms.Student("s010", "Jane Smith", ("100010",))])
    assert lms.match_file(forged, other, {NB}).student_id is None


def test_files_of_two_lms_accounts_matched_by_name_flag_the_student():
    """A roster without LMS ids matches by name: two Moodle participants both
    called John Smith (100009 and 999999) both match s009; the newer file is
    taken and the student is flagged with both accounts, never silently."""
    import lms

    roster = lms.Roster([lms.Student("s009", "John Smith", ())])
    a = lms.match_file(f"John Smith_100009_assignsubmission_file_/{NB}", roster, {NB})
    b = lms.match_file(f"John Smith_999999_assignsubmission_file_/{NB}", roster, {NB})
    assert a.student_id == b.student_id == "s009"
    best, superseded = lms.choose([a, b])
    assert lms.two_accounts(best, superseded) == {"s009": ["100009", "999999"]}
    # one account, two copies: nothing to flag
    c = lms.match_file(f"John Smith_100009_assignsubmission_file_/{NB[:-6]} (1).ipynb",
                       roster, {NB})
    assert lms.two_accounts(*lms.choose([a, c])) == {}


# --- archives inside archives --------------------------------------------------------------

def _extractor(**limits):
    extractor = nbgrader_plugins.SafeExtractor.__new__(nbgrader_plugins.SafeExtractor)
    for k, v in limits.items():
        setattr(extractor, k, v)
    extractor.parent = None
    return extractor


def test_a_nested_archive_bomb_is_stopped_while_unpacking(tmp_path, monkeypatch):
    """A 7 KB upload of six nested zips (8 GiB unpacked): every byte is
    charged to the upload before it is written, so no more than its bound is
    ever on disk; the upload is removed again and reported, its neighbour
    unpacked, and the scratch folder of the nested archives is gone."""
    import zipfile

    from grading_submissions import nested_zip_bomb

    for name in ("UNPACK_BYTES", "UNPACK_DOWNLOAD_BYTES", "UNPACK_FILES", "UNPACK_DEPTH"):
        monkeypatch.delenv(f"AUKGRADE_{name}", raising=False)
    archive, out = tmp_path / "archive", tmp_path / "extracted"
    archive.mkdir()
    out.mkdir()
    unbounded = nested_zip_bomb(archive / "q001.zip")
    assert unbounded == 8 << 30 and (archive / "q001.zip").stat().st_size < 8 << 10
    with zipfile.ZipFile(archive / "s001.zip", "w") as zf:
        zf.writestr(NB, "{}")
    bound = 2 << 20
    extractor = _extractor(max_upload_bytes=bound, max_depth=10)
    on_disk, peak = [0], [0]
    copy = nbgrader_plugins.SafeExtractor._copy

    def counted(opener, target, budget):
        before = on_disk[0]
        try:
            copy(opener, target, budget)
        finally:
            on_disk[0] = before + os.path.getsize(target)
            peak[0] = max(peak[0], on_disk[0])
    monkeypatch.setattr(nbgrader_plugins.SafeExtractor, "_copy", staticmethod(counted))
    monkeypatch.setattr(nbgrader_plugins, "_append_collect_notes", lambda app, notes: None)
    extractor.extract(str(archive), str(out))
    assert bound // 2 < peak[0] <= bound, peak             # never more than the bound
    files = [p for p in out.rglob("*") if p.is_file()]
    assert [str(p.relative_to(out)) for p in files] == [f"s001/{NB}"]
    (why,) = [w for p, w in extractor.skipped if p == "q001.zip"]
    assert f"more than {bound:,} bytes" in why
    assert sorted(p.name for p in tmp_path.iterdir()) == ["archive", "extracted"]


def test_archives_are_unpacked_at_most_three_deep_and_files_are_counted(tmp_path, monkeypatch):
    """An upload holding an archive inside three archives is not unpacked
    at all (and reported once); inside a bulk download, only that upload
    goes.  The number of files is bounded across nested archives too."""
    import zipfile

    from grading_submissions import nested_zip_bomb

    monkeypatch.setattr(nbgrader_plugins, "_append_collect_notes", lambda app, notes: None)
    archive, out = tmp_path / "archive", tmp_path / "extracted"
    archive.mkdir()
    out.mkdir()
    nested_zip_bomb(tmp_path / "deep.zip", levels=5, copies=2, size=1000)
    with zipfile.ZipFile(archive / "download.zip", "w") as zf:   # a bulk download
        zf.write(tmp_path / "deep.zip", "q001.zip")
        zf.writestr(f"s001/{NB}", "{}")
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id\ns001\nq001\n")
    extractor = _extractor(max_upload_bytes=64 << 20)
    monkeypatch.setattr(extractor, "_roster", lambda: nbgrader_plugins.lms.Roster.read(
        str(roster)))
    extractor.extract(str(archive), str(out))
    assert [(p, "inside 3 archives" in w) for p, w in extractor.skipped] == \
        [("download.zip/q001.zip", True)], extractor.skipped
    assert [str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()] == \
        [f"download/s001/{NB}"]
    with zipfile.ZipFile(archive / "many.zip", "w") as zf:
        for i in range(50):
            zf.writestr(f"f{i}.txt", "x")
    (archive / "download.zip").unlink()
    extractor = _extractor(max_files=20)
    extractor.extract(str(archive), str(out))
    assert any("more than 20 files" in w for p, w in extractor.skipped if p == "many.zip")
    assert not (out / "many").exists() or not any((out / "many").iterdir())


def _bulk(path, uploads):
    """A bulk download zip: {first-level name: number of small files}, in order."""
    import zipfile

    with zipfile.ZipFile(path, "w") as zf:
        for upload, n in uploads.items():
            zf.writestr(f"{upload}/{NB}", "{}")
            for i in range(n - 1):
                zf.writestr(f"{upload}/junk/{i}.txt", "x")


def test_one_upload_in_a_bulk_download_loses_only_itself(tmp_path, monkeypatch):
    """Inside a bulk download every upload (a first-level folder or file of
    it) has its own bound, checked before the bulk's: an upload over it is
    removed alone; an upload that takes the bulk over the bulk's bound is
    removed (what it wrote no longer counts) and the rest of the class is
    unpacked.  The bulk's bound on files is ten times an upload's."""
    import lms

    monkeypatch.setattr(nbgrader_plugins, "_append_collect_notes", lambda app, notes: None)
    for name in ("UNPACK_FILES", "UNPACK_DOWNLOAD_FILES"):
        monkeypatch.delenv(f"AUKGRADE_{name}", raising=False)
    assert nbgrader_plugins.MAX_DOWNLOAD_FILES >= 10 * nbgrader_plugins.MAX_ARCHIVE_FILES
    big = "John Smith_100009_assignsubmission_file_"
    roster = lms.Roster([lms.Student("s009", "John Smith", ("100009",)),
                         *[lms.Student(f"s00{i}") for i in (1, 2, 3)]])
    for bulk_files, uploads, why in [
            (200, {"s001": 6, big: 25, "s002": 6}, "more than 20 files"),
            (30, {"s001": 6, "s002": 6, big: 19, "s003": 6}, "took it over its bound")]:
        archive, out = tmp_path / f"archive{bulk_files}", tmp_path / f"out{bulk_files}"
        archive.mkdir()
        out.mkdir()
        _bulk(archive / "download.zip", uploads)
        extractor = _extractor(max_files=20, max_download_files=bulk_files)
        monkeypatch.setattr(extractor, "_roster", lambda: roster)
        extractor.extract(str(archive), str(out))
        kept = {p.relative_to(out / "download").parts[0] for p in out.rglob("*.ipynb")}
        assert kept == set(uploads) - {big}, (kept, extractor.skipped)
        assert not any(p.is_file() for p in (out / "download" / big).rglob("*"))
        (reason,) = [w for p, w in extractor.skipped if p == f"download.zip/{big}"]
        assert why in reason, reason
        assert lms.uploader(f"download.zip/{big}", roster) == "s009"   # flagged


def test_a_broken_member_of_a_bulk_download_loses_only_its_upload(tmp_path, monkeypatch):
    """A member that cannot be read (bad CRC) removes its upload alone."""
    import lms

    monkeypatch.setattr(nbgrader_plugins, "_append_collect_notes", lambda app, notes: None)
    archive, out = tmp_path / "archive", tmp_path / "out"
    archive.mkdir()
    out.mkdir()
    _bulk(archive / "download.zip", {"s001": 2, "s002": 2, "s003": 2})
    data = (archive / "download.zip").read_bytes()
    # s001's junk file (stored, not compressed): its data byte changed, a bad CRC
    (archive / "download.zip").write_bytes(data.replace(b"s001/junk/0.txtx",
                                                        b"s001/junk/0.txty", 1))
    extractor = _extractor()
    monkeypatch.setattr(extractor, "_roster", lambda: lms.Roster(
        [lms.Student(f"s00{i}") for i in (1, 2, 3)]))
    extractor.extract(str(archive), str(out))
    kept = {p.relative_to(out / "download").parts[0] for p in out.rglob("*.ipynb")}
    assert kept == {"s002", "s003"}, extractor.skipped
    assert [p for p, w in extractor.skipped if "cannot be unpacked" in w] == \
        ["download.zip/s001"]


def test_a_name_too_long_or_twice_in_an_upload_is_skipped_and_said(tmp_path, monkeypatch):
    """A member whose name the file system refuses (255 bytes a name) is
    skipped and reported, the rest of its upload unpacked; two members of
    one name: the later is kept, and it is reported."""
    import zipfile

    monkeypatch.setattr(nbgrader_plugins, "_append_collect_notes", lambda app, notes: None)
    archive, out = tmp_path / "archive", tmp_path / "out"
    archive.mkdir()
    out.mkdir()
    with zipfile.ZipFile(archive / "s001.zip", "w") as zf:
        zf.writestr("x" * 300 + ".txt", "long")
        zf.writestr(NB, "first")
        zf.writestr("data.csv", "a,b")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # zipfile: "Duplicate name"
            zf.writestr(NB, "second")
    extractor = _extractor()
    extractor.extract(str(archive), str(out))
    assert (out / "s001" / NB).read_text() == "second"
    assert (out / "s001" / "data.csv").exists()
    why = dict(extractor.skipped)
    assert "refuses its name" in why["s001.zip/" + "x" * 200]
    assert "second member of this name" in why[f"s001.zip/{NB}"]


class _App:
    """What LmsCollector._plan reads of nbgrader's zip_collect app."""

    def __init__(self, root):
        import types

        self.extracted_directory = str(root / "extracted")
        self.coursedir = types.SimpleNamespace(
            root=str(root), assignment_id="ch05", release_directory="release",
            format_path=lambda d, s, a: str(root / d / a))

    def _format_collect_path(self, path):
        return path


def _plan(tmp_path, roster, files, notes=None):
    """Collect ``files`` (paths below the extracted folder) for ``roster``
    (CSV text); returns collect.json and collect-students.json."""
    import nbformat.v4 as v4

    (tmp_path / "release" / "ch05").mkdir(parents=True)
    nbformat.write(v4.new_notebook(), str(tmp_path / "release" / "ch05" / NB))
    for path in files:
        (tmp_path / "extracted" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "extracted" / path).write_text("{}")
    (tmp_path / "roster.csv").write_text(roster)
    if notes:
        (tmp_path / "reports" / "ch05").mkdir(parents=True)
        (tmp_path / "reports" / "ch05" / "collect.json").write_text(json.dumps(notes))
    return _collect(tmp_path)


def test_collection_flags_the_students_its_failures_touch(tmp_path):
    """No silent "not submitted": an upload named like a student but with
    another LMS id flags that student; an upload removed while unpacking
    flags its uploader; a bulk download that could not be read to its end
    flags every student of the roster with no file collected."""
    roster = ("student_id,name,lms_id\ns009,John Smith,100009\ns010,Ann Bo,100010\n"
              "s011,Al Ng,100011\n")
    collect, students = _plan(
        tmp_path, roster,
        ["John Smith_100009_assignsubmission_file_/" + NB,
         "John Smith_999999_assignsubmission_file_/" + NB],
        {"skipped": [["download.zip/Ann Bo_100010_assignsubmission_file_",
                      "not unpacked: more than 20,000 files"]],
         "broken_downloads": [["other.zip", "BadZipFile: truncated"]]})
    assert [m["path"] for m in collect["collected"]] == \
        ["John Smith_100009_assignsubmission_file_/" + NB]
    assert [m["named_like"] for m in collect["unmatched"]] == ["s009"]
    assert "is named like them" in " ".join(students["s009"]["attention"])
    assert "more than 20,000 files" in " ".join(students["s010"]["attention"])
    for sid in ("s010", "s011"):
        assert "could not be unpacked to its end" in " ".join(students[sid]["attention"])
    assert not any("could not be unpacked" in a for a in students["s009"]["attention"])


def test_the_report_sums_up_an_upload_of_many_unmatched_files(tmp_path):
    """NOT MATCHED and SKIPPED take a line per upload with more than a few
    files (count and a few names), not a line per file."""
    import grade
    import lms

    folder = tmp_path / "reports" / "ch05"
    folder.mkdir(parents=True)
    junk = "Nobody_1_assignsubmission_file_"
    unmatched = [{"path": f"{junk}/f{i}.txt", "how": "no student of the roster matches",
                  "upload": junk} for i in range(20_000)]
    unmatched.append({"path": "loose.ipynb", "how": "a loose file", "upload": None})
    skipped = [[f"s001.zip/link{i}", "not a regular file"] for i in range(500)]
    (folder / "collect.json").write_text(json.dumps({"unmatched": unmatched,
                                                     "skipped": skipped}))
    text = grade.report(str(tmp_path), "ch05", lms.Roster(), [], 1.0, [], "test")
    assert len(text.splitlines()) < 40, text
    assert f"!! {junk}: 20,000 files (e.g. f0.txt, f1.txt, f2.txt, ...)" in text
    assert "!! loose.ipynb: a loose file" in text
    assert "- s001.zip/link0" not in text and "500 members" in text


def test_a_new_file_of_a_graded_student_is_graded_again(tmp_path, monkeypatch):
    """nbgrader keeps an autograded submission, so a changed file in a second
    download would be collected but keep its old mark: grade.py compares the
    collected notebook with the one autograded (sha256, recorded when it was
    graded), grades the changed ones afresh (nbgrader --force for them alone,
    hand marks kept) and flags those with hand marks; a submission graded
    before anything was recorded is flagged with the command to regrade it."""
    import grade

    course = tmp_path
    for sid in ("s001", "s002", "s003"):
        (course / "submitted" / sid / "ch05").mkdir(parents=True)
        (course / "submitted" / sid / "ch05" / NB).write_text("{} " + sid)
        (course / "autograded" / sid / "ch05").mkdir(parents=True)
    grade.record_graded(str(course), "ch05", ["s001", "s002"])
    assert grade.changed_submissions(str(course), "ch05", ["s001", "s002", "s003"]) == \
        ([], ["s003"])
    (course / "submitted" / "s002" / "ch05" / NB).write_text("{} new")
    assert grade.changed_submissions(str(course), "ch05", ["s001", "s002"]) == (["s002"], [])
    # autograde: the changed student in a batch of its own, with --force
    runs = []
    monkeypatch.setattr(grade, "_start", lambda c, args, lease=None: args)
    monkeypatch.setattr(grade, "_relay", lambda args, *a: runs.append(args) or 0)
    monkeypatch.setattr(grade.sandbox, "needs_uids", lambda: False)
    grade.autograde(str(course), "ch05", False, 1, open(os.devnull, "w"), again=["s002"])
    (run,) = [a for a in runs if "--force" in a]
    assert "--CourseDirectory.student_id_exclude=s001,s003" in run
    assert all("s002" in a[-1] for a in runs if a is not run), runs   # excluded there
    # graded: recorded, so the next download with the same file grades nothing
    grade.record_graded(str(course), "ch05", ["s002"])
    assert grade.changed_submissions(str(course), "ch05", ["s001", "s002"]) == ([], [])
    grade.note_attention(str(course), "ch05", "s002", grade.REGRADED_HAND)
    grade.note_attention(str(course), "ch05", "s002", grade.REGRADED_HAND)
    saved = json.loads((course / "reports" / "ch05" / "s002.json").read_text())
    assert saved["attention"] == [grade.REGRADED_HAND]
    (course / "reports" / "ch05" / "collect.json").write_text(json.dumps({}))
    text = grade.report(str(course), "ch05", grade.lms.Roster(), [], 1.0, [], "test",
                        again=["s002"], unknown=["s003"])
    assert "graded again (1): a new file arrived in this download" in text
    assert "NOT CHECKED FOR A NEW FILE (1)" in text and "STUDENT=<id>: s003" in text


def test_an_interrupt_stops_grading_at_once_and_stops_the_graders(tmp_path, monkeypatch,
                                                                  capsys):
    """Ctrl-C while nbgrader autogrades: autograde() stops every grader process
    it started and raises at once (no second Ctrl-C, nothing left running),
    and main() says the run is incomplete and exits 130."""
    import signal
    import subprocess
    import threading
    import time

    import grade

    for sid in ("s001", "s002", "s003", "s004"):
        (tmp_path / "submitted" / sid / "ch05").mkdir(parents=True)
    started = []

    def start(course, args, lease=None):      # a grader that would run for a minute
        proc = subprocess.Popen([sys.executable, "-c", "import time; print('x', flush=True); "
                                 "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
        started.append(proc)
        return proc

    monkeypatch.setattr(grade, "_start", start)
    monkeypatch.setattr(grade.sandbox, "needs_uids", lambda: False)
    # Ctrl-C as a terminal delivers it (a pytest-xdist worker ignores SIGINT)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        began = time.monotonic()
        with open(tmp_path / "log", "w") as log, pytest.raises(KeyboardInterrupt):
            grade.autograde(str(tmp_path), "ch05", False, 2, log)
        assert time.monotonic() - began < 15
        assert len(started) == 2 and all(p.poll() is not None for p in started)
        # main: what an interrupted run tells the instructor
        monkeypatch.setattr(grade.sandbox, "check", lambda install: "test")
        monkeypatch.setattr(grade, "copy_submissions", lambda src, dest: [])
        monkeypatch.setattr(grade, "nbgrader",
                            lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
        (tmp_path / "release" / "ch05").mkdir(parents=True)
        assert grade.main([str(tmp_path), "ch05", str(tmp_path / "none")]) == 130
        assert "interrupted" in capsys.readouterr().err
    finally:
        signal.signal(signal.SIGINT, old)
        for p in started:
            p.kill()


def test_hand_marks_on_a_submission_are_found(tmp_path, monkeypatch):
    """grade.hand_marked: a mark or comment given in the formgrader."""
    from nbgrader.api import Gradebook

    import grade

    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep
                       + os.environ["PATH"])                  # nbgrader runs alembic

    with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}", "aukbook") as gb, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")      # SQLAlchemy on nbgrader's add_submission
        gb.add_assignment("ch05")
        gb.add_notebook("nb", "ch05")
        gb.add_grade_cell("q1", "nb", "ch05", max_score=2, cell_type="markdown")
        gb.add_solution_cell("q1", "nb", "ch05")
        for sid in ("s001", "s002"):
            gb.add_student(sid)
            gb.add_submission("ch05", sid)
        gb.find_grade("q1", "nb", "ch05", "s002").manual_score = 1
        gb.db.commit()
    assert grade.hand_marked(str(tmp_path), "ch05", ["s001", "s002", "s009"]) == {"s002"}


# --- grade files for the LMS ---------------------------------------------------------------

def test_grade_files_per_assignment_and_for_canvas(tmp_path):
    """grades/<assignment>.csv: a row per student with points, maximum,
    flags and reason; grades/<assignment>-canvas.csv: Canvas's import
    columns, points possible, and a mark only where the grade is final (not
    for a submission that needs hand marking or attention, not a 0 for a
    student who handed nothing in)."""
    import csv

    base = dict.fromkeys(nbgrader_plugins.COLUMNS, "")
    rows = [dict(base, student_id="s001", name="Jane van Doe", assignment="ch05",
                 status="graded", total="9", max_score="12", needs_attention="no",
                 needs_manual_grading="no", _canvas_id="55501"),
            dict(base, student_id="s002", name="Bo Li", assignment="ch05",
                 status="needs manual grading", total="6", max_score="12",
                 needs_attention="no", needs_manual_grading="yes"),
            dict(base, student_id="s003", name="Al Crash", assignment="ch05",
                 status="graded", total="0", max_score="12", needs_attention="yes",
                 attention_reason="stopped: crashed", needs_manual_grading="no"),
            dict(base, student_id="s004", name="", assignment="ch05",
                 status="not submitted", total="", max_score="12", needs_attention="no",
                 needs_manual_grading="no")]
    nbgrader_plugins.write_assignment_grades(rows, str(tmp_path / "ch05.csv"))
    nbgrader_plugins.write_canvas_grades(rows, str(tmp_path / "ch05-canvas.csv"), "4321")
    table = list(csv.DictReader(open(tmp_path / "ch05.csv")))
    assert [r["points"] for r in table] == ["9", "6", "0", ""]
    assert table[2]["needs_attention"] == "yes" and table[2]["reason"] == "stopped: crashed"
    assert set(table[0]) == set(nbgrader_plugins.ASSIGNMENT_COLUMNS)
    canvas = list(csv.reader(open(tmp_path / "ch05-canvas.csv")))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                         "ch05 (4321)"]
    assert canvas[1][0].strip() == "Points Possible" and canvas[1][-1] == "12"
    assert canvas[2] == ["Doe, Jane van", "55501", "s001", "", "", "9"]
    assert [r[-1] for r in canvas[3:]] == ["", "", ""]


@pytest.mark.parametrize("n,jobs", [(1, 2), (3, 2), (15, 2), (16, 2), (200, 2), (61, 4), (7, 1),
                                    (16, 8), (60, 8), (9, 2)])
def test_graders_take_small_batches_so_a_slow_notebook_holds_up_few(n, jobs):
    """make grade's graders take the next batch of students when they finish
    one (grade.batches): every student once, in order, in about four batches
    per grader (so one notebook that runs to its time limit delays at most a
    batch's worth of classmates on its grader while the others go on), each
    of at least four students (a batch costs a process start) unless that
    would leave a grader without a batch."""
    import grade

    students = [f"s{i:03d}" for i in range(n)]
    cut = grade.batches(students, jobs)
    assert [s for b in cut for s in b] == students
    assert all(b for b in cut)
    assert len(cut) >= min(n, jobs)                      # no grader left idle
    assert len(cut) <= 4 * jobs                          # at most four batches a grader
    assert all(len(b) >= min(4, -(-n // jobs)) for b in cut[:-1])   # a start pays off
    assert len(cut) >= 4 * jobs - 1 or len(cut[0]) <= 4  # small classes: small batches


# --- issue 36: an independent instructor's failures ------------------------------------

def _malformed(kind):
    """A submitted notebook with one defect of the format (as JSON)."""
    import nbformat.v4 as v4

    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("my answer"),
        v4.new_code_cell("print(1)", outputs=[v4.new_output("stream", text="1\n")])])
    data = json.loads(nbformat.writes(nb))
    cell, output = data["cells"][1], data["cells"][1]["outputs"][0]
    {"no cell_type": lambda: data["cells"][0].pop("cell_type"),
     "no outputs": lambda: cell.pop("outputs"),
     "no output_type": lambda: output.pop("output_type"),
     "no stream text": lambda: output.pop("text")}[kind]()
    return json.dumps(data)


MALFORMED = ["no cell_type", "no outputs", "no output_type", "no stream text"]


def test_one_students_malformed_notebook_never_stops_the_class(tmp_path):
    """A cell without cell_type, a code cell without outputs, an output
    without output_type, a stream without text (issue 36, F1: an
    AttributeError that stopped grading for everyone, and every later run):
    what can be repaired without changing a grade is (outputs [], text ""),
    and the notebook is valid; a cell without cell_type cannot be guessed:
    that submission is set aside (quarantine/, not graded) and its student's
    row flagged with the file and what is wrong; the others are graded."""
    import grade
    import sanitize

    course = tmp_path / "course"
    students = {f"s00{i}": kind for i, kind in enumerate(MALFORMED, 1)}
    students["s009"] = None
    collected = []
    for sid, kind in students.items():
        folder = course / "submitted" / sid / "ch05"
        folder.mkdir(parents=True)
        (folder / NB).write_text(_malformed(kind) if kind else nbformat.writes(
            nbformat.v4.new_notebook()))
        collected.append({"student_id": sid, "notebook": NB, "path": f"{sid}/upload/{NB}"})
    (course / "reports" / "ch05").mkdir(parents=True)
    (course / "reports" / "ch05" / "collect.json").write_text(
        json.dumps({"collected": collected}))
    unusable = {}
    sanitize.sanitize_submitted(str(course), "ch05", None, unusable)
    assert grade.set_aside(str(course), "ch05", unusable) == ["s001"]
    for sid in ("s002", "s003", "s004", "s009"):
        nb = nbformat.read(str(course / "submitted" / sid / "ch05" / NB), as_version=4)
        nbformat.validate(nb)
    assert not (course / "submitted" / "s001" / "ch05").exists()
    assert (course / "quarantine" / "ch05" / "s001" / NB).exists()
    notes = json.loads((course / "reports" / "ch05" / "collect-students.json").read_text())
    reason, = notes["s001"]["attention"]
    assert f"s001/upload/{NB}" in reason and "no cell_type" in reason and "STUDENT=s001" in reason
    assert set(notes) == {"s001"}
    collect = json.loads((course / "reports" / "ch05" / "collect.json").read_text())
    assert collect["quarantined"] == [[f"s001/upload/{NB}", unusable[
        str(course / "submitted" / "s001" / "ch05" / NB)]]]
    # whatever else one file makes the sanitizer raise stops that file alone
    bad = tmp_path / "other"
    bad.mkdir()
    (bad / "a.ipynb").write_text(_malformed("no outputs"))
    import unittest.mock
    with unittest.mock.patch.object(sanitize, "sanitize_notebook",
                                    side_effect=RecursionError("deep")):
        found = {}
        assert sanitize.sanitize_tree(str(bad), found) == {}
    assert "RecursionError: deep" in found[str(bad / "a.ipynb")]


@pytest.mark.parametrize("kind", MALFORMED)
def test_the_sanitizer_repairs_what_no_grade_depends_on(tmp_path, kind):
    """sanitize_file (issue 36, F1): each defect is either repaired into a
    valid notebook, or (a cell without cell_type) raises NotebookUnusable
    and leaves the file as it was."""
    import sanitize

    path = tmp_path / NB
    path.write_text(_malformed(kind))
    if kind == "no cell_type":
        before = path.read_text()
        with pytest.raises(sanitize.NotebookUnusable, match="no cell_type"):
            sanitize.sanitize_file(str(path))
        assert path.read_text() == before
        return
    changes = sanitize.sanitize_file(str(path))
    assert changes, kind
    nb = nbformat.read(str(path), as_version=4)
    nbformat.validate(nb)
    assert nb.cells[0].source == "my answer" and nb.cells[1].source == "print(1)"


def test_a_file_name_that_is_not_utf8_reaches_the_report_escaped(tmp_path):
    """A tar member or file whose name is not UTF-8 (Python reads its bytes
    as lone surrogates) killed the report (issue 36, F2): it is shown as
    visible escaped text, in the printed report and its file, and the grade
    tables take it too."""
    import grade
    import lms

    latin = "caf\xe9 notes.txt".encode("latin-1").decode("utf-8", "surrogateescape")
    folder = tmp_path / "reports" / "ch05"
    folder.mkdir(parents=True)
    (folder / "collect.json").write_text(json.dumps({
        "unmatched": [{"path": f"s001.tar/{latin}", "how": "a loose file", "upload": None}],
        "skipped": [[f"bad\udcff\udcfe name.ipynb", "not a regular file"]]}))
    text = grade.report(str(tmp_path), "ch05", lms.Roster(), [], 1.0, [], "test")
    assert "s001.tar/caf\\xe9 notes.txt: a loose file" in text
    assert "bad\\xff\\xfe name.ipynb" in text
    text.encode("utf-8")                                 # printable anywhere
    assert (tmp_path / "reports" / "ch05-report.txt").read_text(encoding="utf-8") == text
    row = dict.fromkeys(nbgrader_plugins.COLUMNS, "")
    row.update(student_id="s001", assignment="ch05", attention_reason=f"{latin}: skipped")
    nbgrader_plugins.write_assignment_grades([row], str(tmp_path / "g.csv"))
    assert "caf\\udce9" in (tmp_path / "g.csv").read_text(encoding="utf-8")


def test_the_report_names_every_flagged_row_also_after_a_regrade(tmp_path):
    """After STUDENT= or a second download, grades.csv keeps the flags of
    earlier runs: the report's NEEDS ATTENTION names every flagged row, with
    its reason, the earlier ones marked so (issue 36, F3); a student flagged
    at collection by an earlier run (a zip bomb) is no plain "no submission"."""
    import csv

    import grade
    import lms

    folder = tmp_path / "reports" / "ch05"
    folder.mkdir(parents=True)
    (folder / "collect.json").write_text(json.dumps({
        "collected": [{"student_id": "s001", "path": f"s001/{NB}", "notebook": NB}]}))
    rows = [("s001", "graded", "no", ""),
            ("s002", "not submitted", "yes", "collection: s002.zip: not unpacked: bomb"),
            ("s003", "graded", "yes", "stopped: cell 4 kept running"),
            ("s004", "not submitted", "no", "")]
    with open(tmp_path / "grades.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=nbgrader_plugins.COLUMNS, restval="")
        writer.writeheader()
        for sid, status, flag, why in rows:
            writer.writerow({"student_id": sid, "assignment": "ch05", "status": status,
                             "needs_attention": flag, "attention_reason": why})
    roster = lms.Roster([lms.Student(s) for s, *_ in rows])
    for only in (["s001"], []):
        text = grade.report(str(tmp_path), "ch05", roster, [], 1.0, [], "test", only=only)
        section = text.split("NEEDS ATTENTION")[1].split("\n\n")[0]
        for sid, _, flag, why in rows:
            assert (f"!! {sid}: {why}  (from an earlier run)" in section) == (flag == "yes")
        if not only:
            assert "no submission (1): s004" in text, text
        assert text == (tmp_path / "reports" / "ch05-report.txt").read_text()


def test_a_bulk_download_zipped_in_another_flags_the_students_it_names(tmp_path):
    """all_downloads.zip holding moodle_ch05.zip (issue 36, F4): the uploads
    are two levels down, where none is looked for, so nothing is collected;
    each student whose name or id a file not collected names is flagged
    with the file and why, never a silent "not submitted"; a student it
    does not name is not."""
    roster = ("student_id,name,lms_id\ns001,Jane Doe,100001\ns002,Ann Bo,\n"
              "s003,Al Ng,100003\n")
    collect, students = _plan(
        tmp_path, roster,
        ["all_downloads/moodle_ch05/Jane Doe_100001_assignsubmission_file_/" + NB,
         "all_downloads/plain/s002/" + NB],
        {"skipped": [["all_downloads.zip/moodle_ch05.zip/Al Ng_100003_assignsubmission_"
                      "file_/x.tar", "a path outside the upload"]]})
    assert collect["collected"] == []
    for sid, path in (("s001", "Jane Doe_100001"), ("s002", "plain/s002"),
                      ("s003", "Al Ng_100003")):
        reason = " ".join(students[sid]["attention"])
        assert "a file that may be theirs was not collected" in reason and path in reason
    collect, students = _plan(tmp_path / "b", roster, ["s001/" + NB, "loose.txt"])
    assert set(students) == {"s001"} and students["s001"]["attention"] == []


def test_an_impostor_matched_by_name_never_supersedes_a_folder_named_by_id(tmp_path):
    """s017 (no lms_id on the roster) hands in a plain folder s017/; a Moodle
    account not on the roster with the same full name sends "(9)" (issue 36,
    F5): the file that came by the student's id is graded, and the student
    is flagged: files came by more than one route."""
    import lms

    roster = "student_id,name,lms_id\ns017,John Smith,\n"
    impostor = "John Smith_200001_assignsubmission_file_/ch05_threshold (9).ipynb"
    collect, students = _plan(tmp_path, roster, ["s017/" + NB, impostor])
    assert [m["path"] for m in collect["collected"]] == ["s017/" + NB]
    assert [m["path"] for m in collect["superseded"]] == [impostor]
    reason = " ".join(students["s017"]["attention"])
    assert "more than one account or route" in reason and "LMS account 200001" in reason
    # one route, two copies: nothing to flag
    plain = lms.Roster([lms.Student("s017", "John Smith")])
    copies = [lms.match_file(p, plain, {NB}) for p in
              ("s017/" + NB, "s017/ch05_threshold (1).ipynb")]
    assert lms.mixed_routes(*lms.choose(copies)) == {}


@pytest.mark.parametrize("name,victim", [
    ("Carter_100001_100010_200005_assignsubmission_file_", "s001"),    # reads as Canvas
    ("ch05_s002_attempt_2026-10-01-12-00-00_200006_assignsubmission_file_", "s002"),  # Bb
])
def test_a_name_two_lmss_read_as_different_students_is_credited_to_no_one(
        tmp_path, name, victim):
    """A Moodle full name that reads as a Canvas or Blackboard prefix (issue
    36, F6): the patterns of two LMSs give the upload to different students
    (or to one and to no one), so it is credited to no one, reported, and
    the students it names are flagged."""
    import lms

    roster = lms.Roster([lms.Student("s001", "Amy Carter", ("100001",)),
                         lms.Student("s002", "Bo Li", ("100002",))])
    m = lms.match_file(f"{name}/{NB}", roster, {NB})
    assert m.student_id is None and m.ambiguous == [victim], m
    assert "not credited to anyone" in m.how
    assert lms.match_file(name + NB, roster, {NB}).student_id is None     # flat too
    collect, students = _plan(tmp_path, "student_id,name,lms_id\ns001,Amy Carter,100001\n"
                              "s002,Bo Li,100002\n", [f"{name}/{NB}"])
    assert collect["collected"] == [] and collect["unmatched"][0]["ambiguous"] == [victim]
    assert "may be theirs or another's" in " ".join(students[victim]["attention"])


def _plan_again(tmp_path, files):
    """A later run of the collector in the course of ``_plan``: a new download
    holding ``files``; returns collect.json and collect-students.json."""
    import shutil

    shutil.rmtree(tmp_path / "extracted")
    (tmp_path / "reports" / "ch05" / "collect.json").unlink()
    for path in files:
        (tmp_path / "extracted" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "extracted" / path).write_text("{}")
    return _collect(tmp_path)


def _collect(tmp_path):
    """LmsCollector._plan over what is in tmp_path/extracted."""

    class Collector(nbgrader_plugins.LmsCollector):
        parent = property(lambda self: getattr(self, "app", None))

    collector = Collector(roster=str(tmp_path / "roster.csv"))
    collector.app = _App(tmp_path)
    collector._plan()
    read = lambda name: json.loads((tmp_path / "reports" / "ch05" / name).read_text())  # noqa
    return read("collect.json"), read("collect-students.json")


def test_a_file_matched_by_name_alone_never_replaces_one_collected_earlier(tmp_path):
    """s017 (no lms_id on the roster) hands in a plain folder s017/ and is
    graded; a later download brings a file from a Moodle account not on the
    roster with the same full name (issue 36, the fourth instructor's
    failure 1): it is not collected, the earlier file stays, s017 is
    flagged.  A resubmission from the account that sent the earlier file is
    collected; another account's is held again."""
    roster = "student_id,name,lms_id\ns001,Ann Bo,100001\ns017,John Smith,\n"
    collect, students = _plan(tmp_path, roster, ["s017/" + NB])
    assert [m["path"] for m in collect["collected"]] == ["s017/" + NB]
    assert students["s017"]["attention"] == []
    impostor = "John Smith_200001_assignsubmission_file_/" + NB
    collect, students = _plan_again(tmp_path, [impostor])
    assert collect["collected"] == []
    assert students["s017"]["files"] == ["s017/" + NB]             # the earlier file stays
    reason = " ".join(students["s017"]["attention"])
    assert "LMS account 200001" in reason and "earlier file kept" in reason, reason
    assert "s017" in json.dumps(collect["attention"])
    # the report says it was held back, not that it is an older copy
    assert [m["path"] for m in collect["held"]] == [impostor] and collect["superseded"] == []
    import grade
    text = grade.report(str(tmp_path), "ch05", grade.lms.Roster.read(str(tmp_path / "roster.csv")),
                        [], 1.0, [], "test")
    assert "1 HELD BACK" in text and "HELD BACK (1): matched" in text, text
    assert f"!! {impostor} (s017, LMS account 200001)" in text, text
    assert "superseded (an older copy" not in text
    # STUDENT=s017 with that download: graded again from the file collected
    # before, which the report says (not "NOT REGRADED")
    roster_ = grade.lms.Roster.read(str(tmp_path / "roster.csv"))
    text = grade.report(str(tmp_path), "ch05", roster_, [], 1.0, [], "test", only=["s017"])
    assert "NOT REGRADED (1): no submission of s017" in text, text
    (tmp_path / "submitted" / "s017" / "ch05").mkdir(parents=True)
    text = grade.report(str(tmp_path), "ch05", roster_, [], 1.0, [], "test", only=["s017"])
    assert "regraded from the file collected before (1)" in text and "NOT REGRADED" not in text


def test_a_file_matched_by_name_alone_is_flagged_where_the_roster_has_lms_ids(tmp_path):
    """Alone in a download, a file from a Moodle account matched by name to a
    student whose roster row has no lms_id (while others have one) is
    collected and the student flagged; the same account's next file is
    collected again, another account's is held."""
    roster = "student_id,name,lms_id\ns001,Ann Bo,100001\ns017,John Smith,\n"
    first = "John Smith_200001_assignsubmission_file_/" + NB
    collect, students = _plan(tmp_path, roster, [first])
    assert [m["path"] for m in collect["collected"]] == [first]
    assert "matched to them by name alone" in " ".join(students["s017"]["attention"])
    again = "John Smith_200001_assignsubmission_file_/ch05_threshold (1).ipynb"
    collect, students = _plan_again(tmp_path, [again])
    assert [m["path"] for m in collect["collected"]] == [again]
    other = "John Smith_200009_assignsubmission_file_/" + NB
    collect, students = _plan_again(tmp_path, [other])
    assert collect["collected"] == [] and students["s017"]["files"] == [again]
    # a roster of names only: every match is by name, as the instructor chose
    names = tmp_path / "names"
    names.mkdir()
    collect, students = _plan(names, "student_id,name,lms_id\ns017,John Smith,\n", [first])
    assert [m["path"] for m in collect["collected"]] == [first]
    assert students["s017"]["attention"] == []


def test_a_records_file_the_notebook_wrote_over_is_flagged():
    """A notebook that writes its own records.jsonl (issue 36, the fourth
    instructor's failure 2: 9 MiB of "x", 0 points, "finished", no flag):
    what is wrong with the file is reported, so the mark is not a silent 0;
    the hidden tests' own records read with no damage."""
    import tempfile

    import judge

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "records.jsonl")
        good = json.dumps({"label": "ch5-ex-a", "values": [0.5]})
        with open(path, "w") as fh:
            fh.write(good + "\n")
        damage = []
        assert set(judge.read_records(path, damage)) == {"ch5-ex-a"} and damage == []
        for text, said in (("x" * (9 << 20), "more than 8 MiB"),
                           (good + "\nnot json\n[1, 2]\n", "2 line(s) of it are no record")):
            with open(path, "w") as fh:
                fh.write(text)
            damage = []
            judge.read_records(path, damage)
            assert any(said in d for d in damage), damage
        os.remove(path)
        damage = []
        assert judge.read_records(path, damage) == {} and damage == []     # no answers at all
        os.mkfifo(path)
        judge.read_records(path, damage)
        assert damage == ["it is not a regular file"]
        os.remove(path)
        os.mkdir(path)                  # a folder in its place: said, never a crash
        damage = []
        assert judge.read_records(path, damage) == {}
        assert damage == ["it is not a regular file"]


def test_a_file_larger_than_a_notebook_may_be_is_not_collected(tmp_path, monkeypatch):
    """A 200 MB notebook added 13 minutes to a class's run (issue 36, the
    fourth instructor's failure 3): a file larger than MAX_SUBMITTED_BYTES,
    plain or unpacked from an archive, is not collected, said in SKIPPED,
    and its uploader flagged.  The bound leaves a notebook collected room for
    its outputs in the sandbox (a 64 MiB - 4 KiB notebook was collected and
    then stopped for its output: the fifth instructor's F3)."""
    assert 4 * nbgrader_plugins.MAX_SUBMITTED_BYTES <= \
        nbgrader_plugins.sandbox.Limits().out_size <= nbgrader_plugins.MAX_NOTEBOOK_BYTES
    import zipfile

    monkeypatch.setattr(nbgrader_plugins, "MAX_SUBMITTED_BYTES", 1000)
    subs, out = tmp_path / "subs", tmp_path / "extracted"
    for sid, text in (("s001", "x" * 2000), ("s002", "{}")):
        (subs / sid).mkdir(parents=True)
        (subs / sid / NB).write_text(text)
    with zipfile.ZipFile(subs / "s003.zip", "w") as zf:
        zf.writestr(NB, "y" * 3000)
    roster = "student_id\ns001\ns002\ns003\n"
    (tmp_path / "roster.csv").write_text(roster)
    extractor = _extractor()
    monkeypatch.setattr(extractor, "_roster", lambda: nbgrader_plugins.lms.Roster.read(
        str(tmp_path / "roster.csv")))
    notes = []
    monkeypatch.setattr(nbgrader_plugins, "_append_collect_notes",
                        lambda app, n: notes.append(n))
    extractor.extract(str(subs), str(out))
    assert dict(extractor.skipped) == {"s001/" + NB: nbgrader_plugins._TOO_LARGE}
    assert not (out / "s001" / NB).exists() and (out / "s003" / NB).exists()
    monkeypatch.undo()
    monkeypatch.setattr(nbgrader_plugins, "MAX_SUBMITTED_BYTES", 1000)
    (tmp_path / "reports" / "ch05").mkdir(parents=True)
    (tmp_path / "reports" / "ch05" / "collect.json").write_text(json.dumps(notes[0]))
    (tmp_path / "release" / "ch05").mkdir(parents=True)
    import nbformat.v4 as v4
    nbformat.write(v4.new_notebook(), str(tmp_path / "release" / "ch05" / NB))
    collect, students = _collect(tmp_path)
    assert [m["path"] for m in collect["collected"]] == ["s002/" + NB]
    assert {"s001/" + NB, "s003/" + NB} <= {p for p, _ in collect["skipped"]}
    for sid in ("s001", "s003"):
        assert any("larger than" in a for a in students[sid]["attention"]), students
