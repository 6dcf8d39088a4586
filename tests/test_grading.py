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
    """A reference computation that warns and writes to stderr (as ch12's did
    at the book's numbers, with few positives, before the variants) changes
    no mark and reaches no log: the judge computes it quietly."""
    label = "ch12-ex-placements"
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
    b'{"stopped": {"x": 1}, "stopped_cell": [1], "interrupted": {"a": 1}}']


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
    assert status.get("stopped_cell") is None or isinstance(status["stopped_cell"], int)


def test_the_runners_own_status_file_is_read_as_it_is():
    raw = json.dumps({"cells": 12, "ran": 5, "stopped": "the kernel died (...)",
                      "stopped_cell": 4, "interrupted": [2, 2, 1],
                      "invalid_outputs": 3}).encode()
    status, problem = nbgrader_plugins._runner_status(raw)
    assert problem == ""
    assert status == {"cells": 12, "ran": 5, "stopped": "the kernel died (...)",
                      "stopped_cell": 4, "interrupted": [1, 2], "invalid_outputs": 3}
    assert nbgrader_plugins._runner_status(None) == ({}, "no status file")


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
    subprocess.run([sys.executable, "-m", "nbgrader", "generate_assignment", "ch09",
                    "--force"], cwd=course, env=env, check=True, capture_output=True)
    release = course / "release" / "ch09"
    text = nbformat.writes(nbformat.read(next(release.glob("*.ipynb")), 4))
    for needle in ("BEGIN SOLUTION", "HIDDEN TESTS", "answers", "record(", "expected("):
        assert needle not in text, needle
    assert "raise NotImplementedError()" in text
    for label in (l for l in CHECKS if assignment_of(l) == "ch09"):
        for v in np.ravel(expected(label, "s001")):
            assert f"{v:.6f}" not in text
    assert sorted(p.name for p in (release / "data").iterdir()) == \
        make_assignments.data_files(glob.glob(os.path.join(ROOT, "chapters", "ch09*"))[0])


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
    assert sorted(n for n, _ in extractor.skipped) == ["../evil.txt", "/abs.txt", "link", "lnk"]


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
