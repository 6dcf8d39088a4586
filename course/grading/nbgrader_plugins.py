"""The grader's parts that plug into nbgrader (named in the course's nbgrader_config.py).

nbgrader stays the tool: it releases assignments, collects submissions,
keeps the gradebook, lets the instructor mark by hand (formgrader), writes
feedback and exports grades.  These classes replace four of its steps:

* :class:`SandboxedExecute` replaces nbgrader's ``Execute`` preprocessor in
  ``nbgrader autograde``: the notebook runs in a sandbox (``sandbox.py``), its
  hidden test cells only record the student's answers, and the marks are
  decided here, in the grader's process (``judge.py``), then written into the
  autograded cells' outputs that nbgrader's ``SaveAutoGrades`` turns into the
  gradebook's scores.  A run that crashes, hangs or runs out of memory ends
  that student's run only.
* :class:`ReportedOverwriteCells` replaces ``OverwriteCells``: it restores the
  instructor's version of every locked cell as before, says nothing when a
  hidden-test cell arrives as it was released (nbgrader's "checksum has
  changed" warning, logged for every ordinary submission), and reports loudly
  every real change to a locked or graded cell.
* :class:`SafeExtractor` and :class:`LmsCollector` replace ``zip_collect``'s
  plugins: archives are unpacked with regular files only (no links, no paths
  outside, bounded size), and each file is attributed to a student of the
  roster from the naming of Moodle, Canvas or Blackboard downloads (``lms.py``).
* :class:`LmsGradesExporter` is ``nbgrader export``'s plugin: one row per
  student and graded assignment, ready for an LMS.
"""

import csv
import dataclasses
import datetime
import errno
import json
import math
import os
import re
import shutil
import stat
import tarfile
import tempfile
import time
import zipfile

import nbformat
from nbformat.notebooknode import NotebookNode
from traitlets import Dict, Int, Unicode

from nbgrader import utils
from nbgrader.plugins import ExportPlugin, ExtractorPlugin, FileNameCollectorPlugin
from nbgrader.preprocessors import NbGraderPreprocessor, OverwriteCells

try:                                     # imported by nbgrader as grading.nbgrader_plugins
    from . import judge, lms, sandbox, sanitize, stored
except ImportError:                      # or as a script's neighbour
    import judge
    import lms
    import sandbox
    import sanitize
    import stored

from aukbook.checks import CHECKS

MAX_NOTEBOOK_BYTES = 64 << 20     # an executed notebook read back from the sandbox
# a submitted file larger than a notebook may be is not collected: reading,
# sanitizing and rendering it would hold up the class (a 200 MB notebook
# added 13 minutes to a run).  A quarter of the sandbox's output bound
# (sandbox.Limits.out_size), so that a notebook collected has room for its
# outputs when it runs (a 64 MiB - 4 KiB notebook was collected and then
# stopped for writing more than allowed: the fifth instructor's F3)
MAX_SUBMITTED_BYTES = 16 << 20
_TOO_LARGE = (f"larger than {MAX_SUBMITTED_BYTES >> 20} MiB, more than a notebook may be: "
              "not collected")
SAFE_MIME = ("text/plain", "image/png", "image/jpeg")
ATTENTION = "needs attention"


def report_path(report_dir, assignment, student):
    return os.path.join(report_dir, assignment, f"{student}.json")


# Tampering found while sanitizing, handed to the execute step of the same
# notebook (both run in one nbgrader process, one notebook after the other).
_TAMPERING = {}


def _key(resources):
    info = resources["nbgrader"]
    return info["assignment"], info["student"], info["notebook"]


class ReportedOverwriteCells(OverwriteCells):
    """nbgrader's OverwriteCells, quiet for ordinary answers, loud for tampering."""

    release_dir = Unicode("", help="the course's release/ folder").tag(config=True)

    def preprocess(self, nb, resources):
        self._events = []
        self._released = self._released_cells(resources)
        info = resources["nbgrader"]
        from nbgrader.api import Gradebook
        with Gradebook(info["db_url"]) as gb:
            known = {c.name for c in gb.find_notebook(info["notebook"],
                                                      info["assignment"]).source_cells}
        for cell in nb.cells:
            md = cell.metadata.get("nbgrader")
            if md is None:
                continue
            gid = md.get("grade_id") if isinstance(md, dict) else None
            if gid not in known:
                # nbgrader itself fails on some of these (a graded cell without a
                # known id): the metadata goes, the cell stays as the student's
                del cell.metadata["nbgrader"]
                self._tamper(str(gid), "a cell the assignment does not have claims to be "
                             "graded; its nbgrader metadata was removed")
        ids = {c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells}
        nb, resources = super().preprocess(nb, resources)
        for c in nb.cells:
            md = c.metadata.get("nbgrader", {})
            if md.get("grade_id") and md["grade_id"] not in ids and md.get("grade"):
                self._tamper(md["grade_id"], "the cell was deleted; nbgrader put it back")
        if self._events:
            for event in self._events:
                self.log.error("TAMPERING %s/%s: %s", resources["nbgrader"]["student"],
                               resources["nbgrader"]["assignment"], event)
        _TAMPERING[_key(resources)] = list(self._events)
        return nb, resources

    def _released_cells(self, resources):
        info = resources["nbgrader"]
        path = os.path.join(self.release_dir, info["assignment"], info["notebook"] + ".ipynb")
        try:
            release = nbformat.read(path, as_version=4)
        except (OSError, ValueError):
            return {}
        return {c.metadata["nbgrader"]["grade_id"]: c.source for c in release.cells
                if c.metadata.get("nbgrader", {}).get("grade_id")}

    def _tamper(self, grade_id, what):
        self._events.append(f"cell {grade_id}: {what}")

    def preprocess_cell(self, cell, resources, cell_index):
        self._current = (cell.metadata.get("nbgrader", {}).get("grade_id"), cell.source)
        return super().preprocess_cell(cell, resources, cell_index)

    def report_change(self, name, attr, old, new):
        if attr == "checksum":
            released = self._released.get(name)
            submitted = self._current[1] if self._current[0] == name else None
            if released is not None and submitted is not None and \
                    submitted.strip() == released.strip():
                # a hidden-test cell as released: the release has no hidden tests,
                # so its checksum always differs from the source's
                self.log.debug("cell %s as released (hidden tests restored)", name)
                return
            self._tamper(name, "a locked cell was edited; the instructor's version "
                         "was restored")
            return
        self._tamper(name, f"its {attr} was changed from {old} to {new}; restored")


def _read_untrusted(path, limit):
    """Bytes of a regular file the sandbox wrote (no symlink followed), or None."""
    try:
        # no symlink followed; a FIFO must not block the grader
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        data = fh.read(limit + 1)
    return None if len(data) > limit else data


def _safe_outputs(outputs):
    """A student's outputs, shown to the student and the instructor: text and
    bitmaps only (no HTML or script that would run in the formgrader)."""
    out = []
    for o in outputs if isinstance(outputs, list) else []:
        if not isinstance(o, dict):
            continue
        kind = o.get("output_type")
        if kind == "stream" and isinstance(o.get("text"), str):
            out.append(nbformat.v4.new_output("stream", name="stdout" if o.get("name") != "stderr"
                                              else "stderr", text=o["text"][:200_000]))
        elif kind in ("display_data", "execute_result") and isinstance(o.get("data"), dict):
            data = {k: v for k, v in o["data"].items() if k in SAFE_MIME and isinstance(v, str)}
            if not data:
                continue
            if kind == "execute_result":
                out.append(nbformat.v4.new_output("execute_result", data=data,
                                                  execution_count=None))
            else:
                out.append(nbformat.v4.new_output("display_data", data=data))
        elif kind == "error":
            tb = o.get("traceback")
            out.append(nbformat.v4.new_output(
                "error", ename=str(o.get("ename", ""))[:200], evalue=str(o.get("evalue", ""))[:2000],
                traceback=[str(t)[:2000] for t in tb[:60]] if isinstance(tb, list) else []))
    return out


def _verdict_output(ok, message):
    if ok:
        return [nbformat.v4.new_output("stream", name="stdout", text=f"✓ {message}\n")]
    return [nbformat.v4.new_output("error", ename="AssertionError", evalue=message,
                                   traceback=[f"AssertionError: {message}"])]


def _stage_inputs(src, inbox, limit=256 << 20):
    """Copy the submission's folder (regular files only, no notebooks) into inbox."""
    total = 0
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel = os.path.relpath(dirpath, src)
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode) or name.endswith(".ipynb"):
                continue
            total += st.st_size
            if total > limit:
                return
            dest = os.path.join(inbox, rel, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(path, dest, follow_symlinks=False)


# the reasons inside/runner.py gives for a run that stopped early
RUNNER_STOPS = ("kept running after an interrupt",
                "the kernel died (the process exited or was killed)")


def _runner_status(raw):
    """``status.json`` as the runner writes it, or ({}, why not).  The file is
    written beside the student's code, which can replace it with anything:
    every field is checked for type and range before it is used."""
    if raw is None:
        return {}, "no status file"
    try:
        data = json.loads(raw)
    except ValueError:
        return {}, "not JSON"
    if not isinstance(data, dict):
        return {}, f"a JSON {type(data).__name__}, not an object"
    out, bad = {}, []

    def count(x):
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 1_000_000

    for name in ("cells", "ran", "invalid_outputs"):
        if name in data and not count(data[name]):
            bad.append(name)
        elif name in data:
            out[name] = data[name]
    stopped = data.get("stopped")
    # only what the runner writes (inside/runner.py): a student's own text
    # never becomes the reason in grades.csv and the report
    if stopped is not None and not (isinstance(stopped, str) and (
            stopped in RUNNER_STOPS or re.fullmatch(r"the run failed \(\w{1,60}\)", stopped))):
        bad.append("stopped")
    elif stopped:
        out["stopped"] = stopped
    where = data.get("stopped_cell")
    if where is not None and not count(where):
        bad.append("stopped_cell")
    elif where is not None:
        out["stopped_cell"] = where
    interrupted = data.get("interrupted", [])
    if not isinstance(interrupted, list) or len(interrupted) > 10_000 or \
            not all(count(i) for i in interrupted):
        bad.append("interrupted")
    else:
        out["interrupted"] = sorted(set(interrupted))
    return out, ("unexpected " + ", ".join(bad)) if bad else ""


def _execution_count(count):
    """A kernel's execution count, or None: a count the notebook set itself
    (negative, not a number) would make the notebook invalid."""
    return count if isinstance(count, int) and not isinstance(count, bool) and \
        0 <= count < 1 << 31 else None


# --- time limits in proportion to the reference solution --------------------------------
#
# The defaults of sandbox.Limits (a notebook 900 s, a cell 600 s) are the
# ceiling.  Before grading an assignment the grader runs its reference
# solution (the instructor's source notebook) once in the same sandbox, and
# each submission then gets a multiple of that run: a notebook that hangs
# frees its grading slot within a minute or two instead of fifteen.  A limit
# set by the instructor (c.SandboxedExecute.limits or AUKGRADE_<NAME>) wins.

REFERENCE_VERSION = 1


def machine_load():
    """Runnable processes per core over the last minute, at least 1."""
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        return 1.0


def proportionate_limits(limits, reference, fixed=(), load=None):
    """``limits`` with the time limits scaled to the reference run (``{"wall":
    s, "cpu": s, "load": l}``), never above ``limits``; names in ``fixed``
    stay.  Wall-clock limits grow with the machine's load (``load``, now)
    over the load the reference ran under: a busy machine slows every
    notebook, CPU time is what the notebook itself used."""
    wall, cpu = float(reference["wall"]), float(reference["cpu"])
    busier = 1.0 if load is None else max(1.0, load / max(1.0, float(
        reference.get("load") or 1.0)))
    scaled = {"wall": max(120.0, 60 + 8 * wall) * busier, "cpu": max(60.0, 30 + 6 * cpu),
              "cell_wall": max(45.0, 4 * wall) * busier, "cell_cpu": max(20.0, 3 * cpu)}
    out = dataclasses.replace(limits)
    for name, value in scaled.items():
        if name not in fixed:
            setattr(out, name, round(min(getattr(limits, name), value), 1))
    return out


def describe_limits(limits, reference=None):
    basis = (f" (the reference solution ran in {reference['wall']:.1f} s, "
             f"{reference['cpu']:.1f} s CPU)") if reference else ""
    return (f"a notebook {limits.wall:.0f} s ({limits.cpu:.0f} s CPU), a cell "
            f"{limits.cell_wall:.0f} s ({limits.cell_cpu:.0f} s CPU){basis}")


def reference_path(report_dir, aid):
    return os.path.join(report_dir, f"{aid}-reference.json")


def _machine():
    import platform
    return f"{platform.node()}, {os.cpu_count()} cores"


def reference_run(course, aid, report_dir=None, slot=0, log=None, again=False, max_age=None):
    """How long the assignment's reference solution (``source/<aid>``) runs in
    the sandbox: ``{"wall", "cpu", "load", ...}``, kept in
    reports/<aid>-reference.json and measured again when the source notebook
    changed, or ``again``, or the measurement is older than ``max_age``
    seconds or was made on another machine (``grade.py`` times it at the
    start of a run unless it was timed on this machine within the hour: the
    wall-clock limits follow the machine's load at each run anyway), or
    None when it did not run cleanly (then the default limits apply)."""
    import fcntl
    import hashlib
    report_dir = report_dir or os.path.join(course, "reports")
    source = os.path.join(course, "source", aid)
    try:
        name = sorted(n for n in os.listdir(source) if n.endswith(".ipynb"))[0]
        with open(os.path.join(source, name), "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
    except (OSError, IndexError):
        return None
    path = reference_path(report_dir, aid)
    os.makedirs(report_dir, exist_ok=True)
    with open(path + ".lock", "a") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)       # one process measures, the others wait
        cached = stored.read(path)
        try:
            age = time.time() - float(cached.get("measured_ts"))
        except (TypeError, ValueError):
            age = math.inf
        fresh = max_age is None or (cached.get("machine") == _machine()
                                    and -60 <= age <= max_age)
        if cached.get("source") == digest and cached.get("version") == REFERENCE_VERSION \
                and not again and fresh:
            return cached if cached.get("ok") else None
        nb = nbformat.read(os.path.join(source, name), as_version=4)
        labels = [c.metadata["nbgrader"]["grade_id"][:-len("-value")] for c in nb.cells
                  if c.metadata.get("nbgrader", {}).get("grade_id", "").endswith("-value")]
        job_root = tempfile.mkdtemp(prefix=f"aukgrade-{aid}-reference-")
        load = machine_load()
        try:
            outcome, _, runner, records = _run_notebook(
                nb, name[:-len(".ipynb")], source, [l for l in labels if l in CHECKS],
                sandbox.Limits.from_env(), slot, job_root)
        finally:
            shutil.rmtree(job_root, ignore_errors=True)
        ok = outcome.ok and not runner.get("stopped") and not runner.get("interrupted")
        result = {"version": REFERENCE_VERSION, "source": digest, "notebook": name,
                  "ok": ok, "wall": round(outcome.wall, 2), "cpu": round(outcome.cpu, 2),
                  "load": round(max(load, machine_load()), 2),
                  "status": outcome.status, "recorded": sorted(records),
                  "measured_at": datetime.datetime.now().isoformat(timespec="seconds"),
                  "measured_ts": round(time.time(), 1), "machine": _machine()}
        stored.write(path, result)
        if log is not None and not ok:
            log.warning("the reference solution of %s did not run cleanly in the sandbox "
                        "(%s); the default time limits apply", aid, outcome.status)
        return result if ok else None


def _run_notebook(nb, name, folder, labels, limits, slot, job_root):
    """Run notebook ``nb`` (with the other files of ``folder``) in a sandbox;
    returns the outcome, the executed notebook's bytes, the run's status
    (validated) with "problem" set when it was not as the runner writes it,
    and the records."""
    inbox, outbox = os.path.join(job_root, "in"), os.path.join(job_root, "out")
    os.makedirs(inbox)
    os.makedirs(outbox)
    _stage_inputs(folder, inbox)
    nbformat.write(nb, os.path.join(inbox, name + ".ipynb"))
    with open(os.path.join(inbox, "probes.json"), "w", encoding="utf-8") as fh:
        fh.write(judge.probes_file(labels))
    for dirpath, dirnames, filenames in os.walk(job_root):
        os.chmod(dirpath, 0o755)
        for f in filenames:
            os.chmod(os.path.join(dirpath, f), 0o644)
    os.chmod(job_root, 0o711)
    outcome = sandbox.run(sandbox.Job(inbox, outbox, name + ".ipynb"), limits,
                          slot=slot, log_path=os.path.join(job_root, "log"))
    data = _read_untrusted(os.path.join(outbox, "executed.ipynb"), MAX_NOTEBOOK_BYTES)
    damage = []
    records = judge.read_records(os.path.join(outbox, "records.jsonl"), damage)
    runner, problem = _runner_status(_read_untrusted(os.path.join(outbox, "status.json"),
                                                     1 << 16))
    if problem and problem != "no status file":
        runner["problem"] = problem
    if damage:
        runner["records_damage"] = damage
    return outcome, data, runner, records


def _limit_names_set(config_limits):
    """The limits the instructor chose (config or AUKGRADE_<NAME>): kept as set."""
    names = set(config_limits)
    for field in dataclasses.fields(sandbox.Limits):
        if os.environ.get("AUKGRADE_" + field.name.upper()):
            names.add(field.name)
    return names


class SandboxedExecute(NbGraderPreprocessor):
    """Run the notebook in a sandbox; mark the answers it recorded, outside it.

    Whatever the run leaves behind (the executed notebook, its status, the
    records) is untrusted: it is read with limits, checked for type and
    shape, and anything wrong with it is reported ("needs attention"), never
    a crash of the grader and never a silent zero."""

    report_dir = Unicode("", help="where each submission's grading report goes").tag(config=True)
    limits = Dict({}, help="overrides of sandbox.Limits, e.g. {'cell_cpu': 60}").tag(config=True)
    slot = Int(0, help="which of the grader's leased sandbox user ids to use").tag(config=True)
    course_key_dir = Unicode("", help="the folder of each assignment's course key "
                             "(course_keys/<assignment>.txt), read here, in the "
                             "grader's process").tag(config=True)

    def _limits(self, aid):
        limits = sandbox.Limits.from_env()
        for k, v in self.limits.items():
            setattr(limits, k, v)
        reference = None
        if self.report_dir and os.environ.get("AUKGRADE_PROPORTIONATE", "1") != "0":
            course = os.path.dirname(os.path.abspath(self.report_dir))
            try:
                reference = reference_run(course, aid, self.report_dir, self.slot, self.log)
            except sandbox.SandboxUnavailable:
                raise
            except Exception:
                self.log.exception("timing the reference solution of %s failed", aid)
                reference = None
        if reference:
            load = machine_load()
            limits = proportionate_limits(limits, reference, _limit_names_set(self.limits),
                                          load=load)
            reference = dict(reference, busier=round(max(1.0, load / max(1.0, float(
                reference.get("load") or 1.0))), 3))
        return limits, reference

    def preprocess(self, nb, resources):
        aid, sid, name = _key(resources)
        started = time.monotonic()
        labels = [c.metadata["nbgrader"]["grade_id"][:-len("-value")] for c in nb.cells
                  if c.metadata.get("nbgrader", {}).get("grade_id", "").endswith("-value")
                  and c.metadata["nbgrader"]["grade_id"][:-len("-value")] in CHECKS]
        report = {"student": sid, "assignment": aid, "notebook": name,
                  "graded_at": datetime.datetime.now().isoformat(timespec="seconds"),
                  "tampering": _TAMPERING.pop((aid, sid, name), []), "attention": []}
        executed, records, runner = None, {}, {}
        if self.report_dir:          # the course folder: no sandbox may read it
            course = os.path.dirname(os.path.abspath(self.report_dir))
            if course not in sandbox.SECRETS:
                sandbox.SECRETS.append(course)
        limits, reference = self._limits(aid)
        report["limits"] = {k: getattr(limits, k) for k in
                            ("wall", "cpu", "cell_wall", "cell_cpu")}
        if reference:
            report["limits"]["reference"] = {k: reference.get(k) for k in
                                             ("wall", "cpu", "load", "busier")}
        job_root = tempfile.mkdtemp(prefix=f"aukgrade-{aid}-")
        try:
            outcome, data, runner, records = _run_notebook(
                nb, name, resources.get("metadata", {}).get("path", "."), labels, limits,
                self.slot, job_root)
            report["sandbox"] = {k: getattr(outcome, k) for k in
                                 ("status", "returncode", "wall", "cpu", "peak_memory",
                                  "peak_processes", "uid")}
            if data:
                try:
                    executed = nbformat.reads(data.decode("utf-8", "replace"), as_version=4)
                except Exception:
                    executed = None
        except sandbox.SandboxUnavailable:
            raise
        except Exception as err:                   # the grader's own failure: say so
            self.log.exception("grading %s/%s failed", sid, aid)
            report["attention"].append(f"the grader failed: {type(err).__name__}: {err}")
            report.setdefault("sandbox", {"status": "grader error"})
        finally:
            shutil.rmtree(job_root, ignore_errors=True)
        try:
            return self._mark(nb, resources, report, labels, executed, records, runner,
                              limits, reference, started)
        except Exception as err:
            # whatever went wrong reading this run, the student gets a row that
            # says so, and the other students are graded
            self.log.exception("marking %s/%s failed", sid, aid)
            report["attention"].append(
                f"the grader could not mark this run ({type(err).__name__}: "
                f"{str(err)[:200]}); its answers score 0 until it is graded again")
            for cell in nb.cells:
                if cell.cell_type == "code":
                    cell.outputs, cell.execution_count = [], None
                    gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
                    if gid.endswith(("-form", "-value")):
                        cell.outputs = _verdict_output(False, "not marked: the grader "
                                                       "failed on this run")
            report["verdicts"], report["points"] = {}, 0
            report["max_points"] = len(labels) * (judge.FORM_POINTS + judge.VALUE_POINTS)
            report["seconds"] = round(time.monotonic() - started, 2)
            self._finish(nb, report, None)
            return nb, resources

    def _mark(self, nb, resources, report, labels, executed, records, runner, limits,
              reference, started):
        aid, sid, name = _key(resources)
        status = report["sandbox"]["status"]
        basis = (f"; {describe_limits(limits, reference)}" if reference else "")
        stopped = None
        if status != "finished":
            stopped = {"memory": "it used more memory than allowed",
                       "processes": "it started more processes than allowed",
                       "cpu time": f"it used more CPU time than allowed "
                                   f"({limits.cpu:.0f} s{basis})",
                       "time": f"it ran longer than allowed ({limits.wall:.0f} s{basis})",
                       "disk": "it wrote more than allowed",
                       "open files": "it held more open files or memory mappings than "
                                     "the grader can account for",
                       "crashed": "its run ended abnormally (the kernel's parent was killed?)",
                       }.get(status, status)
            report["attention"].append(f"stopped: {stopped}")
        elif runner.get("stopped"):
            stopped = runner["stopped"]
            where = runner.get("stopped_cell")
            if where is not None and where < len(nb.cells):
                first = (nb.cells[where].source.strip().splitlines() or [""])[0][:60]
                # the student's line, as plain printable text without backticks
                first = sanitize.printable(first).replace("`", "'")
                stopped = f"{stopped}, in the cell that begins `{first}`"
            if "interrupt" in stopped:
                stopped += (f" (a cell may run {limits.cell_wall:.0f} s, "
                            f"{limits.cell_cpu:.0f} s of CPU{basis})")
            report["attention"].append(f"stopped: {stopped}")
        if runner.get("interrupted"):
            report["attention"].append(
                f"{len(runner['interrupted'])} cell(s) interrupted after the time limit "
                f"({limits.cell_wall:.0f} s, {limits.cell_cpu:.0f} s of CPU)")
        if runner.get("invalid_outputs"):
            report["attention"].append(
                f"the kernel sent {runner['invalid_outputs']} invalid execution count(s) or "
                "output(s) (set by the notebook itself?); they were dropped and the run went on")
        if runner.get("problem"):
            report["attention"].append(
                f"the run's status file was not as the grader's runner writes it "
                f"({runner['problem']}: written by the notebook?); it was ignored")
        if (not records and labels and report["sandbox"].get("status") == "finished"
                and executed is not None and not runner.get("stopped")
                and not runner.get("records_damage")):
            # every hidden test writes a record when it runs, even of an
            # answer left blank: a run to the end with none lost them
            runner["records_damage"] = ["it is missing or empty although the notebook "
                                        "ran to its end"]
        if runner.get("records_damage"):
            report["attention"].append(
                "the file of recorded answers was not as the hidden tests write it ("
                + "; ".join(runner["records_damage"]) + ": written by the notebook?); "
                "answers missing from it got no marks")
        if executed is None:
            report["attention"].append("no executed notebook came back from the sandbox")

        verdicts = {}
        key = judge.read_course_key(
            os.path.join(self.course_key_dir, f"{aid}.txt") if self.course_key_dir else "")
        for label in labels:
            with judge.quietly():
                verdicts[label] = judge.judge(label, records.get(label), sid, stopped, key)
        report["verdicts"] = {k: {"form": v.form, "value": v.value, "points": v.points}
                              for k, v in verdicts.items()}

        ran = executed.cells if executed is not None and isinstance(
            getattr(executed, "cells", None), list) else []
        bad_counts = 0
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
            label = gid.rsplit("-", 1)[0]
            if gid.endswith("-form") and label in verdicts:
                v = verdicts[label]
                cell.outputs = _verdict_output(v.form, v.form_message or (
                    f"{judge.answer_name(label)} has the right form "
                    f"({judge.FORM_POINTS} point)"))
                cell.execution_count = None
                continue
            if gid.endswith("-value") and label in verdicts:
                v = verdicts[label]
                cell.outputs = _verdict_output(
                    v.value, v.value_message + (f" ({judge.VALUE_POINTS} points)" if v.value
                                                else ""))
                cell.execution_count = None
                continue
            twin = ran[i] if i < len(ran) else None
            if isinstance(twin, dict) and twin.get("cell_type") == "code" and \
                    twin.get("source") == cell.source:
                cell.outputs = _safe_outputs(twin.get("outputs"))
                count = twin.get("execution_count")
                cell.execution_count = _execution_count(count)
                bad_counts += count is not None and cell.execution_count is None
            else:
                cell.outputs = []
                cell.execution_count = None
        if bad_counts:
            report["attention"].append(
                f"{bad_counts} cell(s) came back with an invalid execution count (set by the "
                "notebook itself?); the counts were dropped")
        report["points"] = sum(v.points for v in verdicts.values())
        report["max_points"] = len(verdicts) * (judge.FORM_POINTS + judge.VALUE_POINTS)
        report["seconds"] = round(time.monotonic() - started, 2)
        self._finish(nb, report, stopped)
        return nb, resources

    def _finish(self, nb, report, stopped):
        """The grading note at the top, a valid notebook, the report on disk."""
        aid, sid = report["assignment"], report["student"]
        try:
            nbformat.validate(nb)
        except Exception as err:          # what came back cannot be shown: keep the marks
            report["attention"].append(f"the graded notebook was invalid "
                                       f"({str(err).splitlines()[0][:160]}); the student's "
                                       "outputs were dropped")
            for cell in nb.cells:
                gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
                if cell.cell_type == "code" and not gid.endswith(("-form", "-value")):
                    cell.outputs, cell.execution_count = [], None
        if report["attention"] or report["tampering"]:
            note = ["**Grading note.**"]
            note += [f"- {a}" for a in report["attention"]]
            note += [f"- changed locked cell: {t}" for t in report["tampering"]]
            if stopped:
                note.append("\nAnswers recorded before the notebook stopped were marked; "
                            "the others score 0.")
            nb.cells.insert(0, nbformat.v4.new_markdown_cell("\n".join(note)))
        if self.report_dir:
            stored.write(report_path(self.report_dir, aid, sid), report)
        flag = f"; {ATTENTION}: {'; '.join(report['attention'])}" if report["attention"] else ""
        self.log.info("[grading] %s %s: %g of %g autograded points (%s, %.1f s)%s", sid, aid,
                      report["points"], report["max_points"],
                      report.get("sandbox", {}).get("status"), report["seconds"], flag)


# --- collection ----------------------------------------------------------------------

MAX_ARCHIVE_BYTES = 512 << 20      # one upload: an archive with every archive nested in it
MAX_DOWNLOAD_BYTES = 4 << 30       # a bulk download (a top-level archive that is no upload)
MAX_ARCHIVE_FILES = 20_000         # members of one upload, nested included
MAX_DOWNLOAD_FILES = 200_000       # members of one bulk download, nested included
MAX_ARCHIVE_DEPTH = 3              # archives inside archives: download, upload, one more
ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar")
# a member whose name this file system refuses: that member alone is skipped
BAD_NAME = {errno.ENAMETOOLONG, errno.EINVAL, errno.EILSEQ}


class TooLarge(ValueError):
    """An upload that would unpack to more bytes or files than allowed."""

    def __init__(self, budget, what):
        super().__init__(what)
        self.budget = budget


class _Budget:
    """What one archive may still write, nested archives included: every byte
    and file is charged to it and to the archives it came in, before it is
    written.  Bounds of None: bounded by the archives around it only (an
    archive nested in an upload)."""

    def __init__(self, max_bytes, max_files, parent=None, download=False):
        self.max_bytes, self.max_files, self.parent = max_bytes, max_files, parent
        self.download = download
        self.bytes = self.files = 0
        self.written = []

    def chain(self):
        budget, out = self, []
        while budget is not None:
            out.append(budget)
            budget = budget.parent
        return out

    def upload(self):
        """The budget of the student's upload this archive is part of."""
        return next(b for b in self.chain() if b.parent is None or b.parent.download)

    def charge(self, nbytes=0, files=0, path=None):
        chain = self.chain()
        for budget in chain:
            budget.bytes += nbytes
            budget.files += files
            if path:
                budget.written.append(path)
        # the innermost bound first: an upload over its own bound is that
        # upload's fault, never the bulk download's around it
        for budget in chain:
            if budget.max_bytes is not None and budget.bytes > budget.max_bytes:
                raise TooLarge(budget, f"more than {budget.max_bytes:,} bytes when unpacked "
                               "(nested archives included)")
            if budget.max_files is not None and budget.files > budget.max_files:
                raise TooLarge(budget, f"more than {budget.max_files:,} files when unpacked "
                               "(nested archives included)")

    def remove_written(self):
        """Remove what this archive wrote and give its bytes and files back to
        the archives around it (what is gone no longer counts)."""
        for path in reversed(self.written):
            try:
                os.remove(path)
            except OSError:
                pass
        gone = set(self.written)
        for budget in self.chain()[1:]:
            budget.bytes -= self.bytes
            budget.files -= self.files
            budget.written = [p for p in budget.written if p not in gone]
        self.bytes = self.files = 0
        self.written = []


def _is_archive(name):
    return name.lower().endswith(ARCHIVES)


def _archive_stem(name):
    return name[:-len(".tar.gz")] if name.lower().endswith(".tar.gz") else \
        os.path.splitext(name)[0]


def _env_int(name, default):
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        return default


def _member_parts(name):
    return [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]


class SafeExtractor(ExtractorPlugin):
    """Unpacks the downloaded archives: regular files only, inside the target.
    Archives inside archives (a student's zip inside the LMS's download) are
    unpacked too, at most ``max_depth`` archives deep.  Every byte and file is
    charged, before it is written, to the upload it belongs to and to the
    bulk download around it: one upload (an archive of a student with all its
    nested archives, or inside a bulk download one first-level folder or
    file of it) writes at most ``max_upload_bytes`` and ``max_files`` files,
    a bulk download (a top-level archive whose name is no student's upload)
    at most ``max_download_bytes`` and ``max_download_files``.  An upload
    over its bound, or the one that takes its bulk download over the bulk's
    bound, is removed again, whatever of it was written, and reported
    (``skipped`` in reports/<assignment>/collect.json, and its uploader's
    row flagged); the rest of the class is unpacked.  A bulk download that
    cannot be read (to its end) is reported under ``broken_downloads``: every
    student of the roster without a collected file is then flagged.  A member
    whose name the file system refuses (too long) is skipped and reported,
    the rest of its upload kept.  Nested archives wait in a scratch folder
    beside the extracted folder, removed at the end, also on failure.  The
    bounds: config (``c.SafeExtractor.max_upload_bytes`` ...) or
    ``AUKGRADE_UNPACK_BYTES``, ``AUKGRADE_UNPACK_DOWNLOAD_BYTES``,
    ``AUKGRADE_UNPACK_FILES``, ``AUKGRADE_UNPACK_DOWNLOAD_FILES``,
    ``AUKGRADE_UNPACK_DEPTH`` in the environment."""

    max_upload_bytes = Int(MAX_ARCHIVE_BYTES, help="bytes one upload may unpack to, "
                           "nested archives included").tag(config=True)
    max_download_bytes = Int(MAX_DOWNLOAD_BYTES, help="bytes a bulk download may unpack "
                             "to, nested archives included").tag(config=True)
    max_files = Int(MAX_ARCHIVE_FILES, help="files one upload may unpack to").tag(config=True)
    max_download_files = Int(MAX_DOWNLOAD_FILES, help="files a bulk download may unpack to"
                             ).tag(config=True)
    max_depth = Int(MAX_ARCHIVE_DEPTH, help="archives inside archives unpacked").tag(
        config=True)

    def _limits(self):
        """(upload bytes, download bytes, upload files, depth, download files)"""
        return (_env_int("AUKGRADE_UNPACK_BYTES", self.max_upload_bytes),
                _env_int("AUKGRADE_UNPACK_DOWNLOAD_BYTES", self.max_download_bytes),
                _env_int("AUKGRADE_UNPACK_FILES", self.max_files),
                _env_int("AUKGRADE_UNPACK_DEPTH", self.max_depth),
                _env_int("AUKGRADE_UNPACK_DOWNLOAD_FILES", self.max_download_files))

    def _roster(self):
        collector = getattr(self.parent, "collector_plugin_inst", None)
        try:
            return lms.Roster.read(getattr(collector, "roster", ""))
        except (OSError, ValueError):
            return lms.Roster()

    def extract(self, archive_path, extracted_path):
        self.skipped, self.broken = [], []
        roster = self._roster()
        upload_bytes, download_bytes, files, _, download_files = self._limits()
        self._scratch = tempfile.mkdtemp(prefix=".unpack-", dir=os.path.dirname(
            os.path.abspath(extracted_path)))
        try:
            for dirpath, dirnames, filenames in os.walk(archive_path, followlinks=False):
                rel = os.path.relpath(dirpath, archive_path)
                for d in sorted(dirnames):
                    if os.path.islink(os.path.join(dirpath, d)):
                        dirnames.remove(d)
                        self.skipped.append((os.path.normpath(os.path.join(rel, d)),
                                             "a symbolic link"))
                for name in sorted(filenames):
                    path = os.path.join(dirpath, name)
                    shown = os.path.normpath(os.path.join(rel, name))
                    target_dir = os.path.normpath(os.path.join(extracted_path, rel))
                    if not stat.S_ISREG(os.lstat(path).st_mode):
                        self.skipped.append((shown, "not a regular file"))
                        continue
                    if not _is_archive(name):
                        if os.lstat(path).st_size > MAX_SUBMITTED_BYTES:
                            self.skipped.append((shown, _TOO_LARGE))
                            continue
                        os.makedirs(target_dir, exist_ok=True)
                        shutil.copyfile(path, os.path.join(target_dir, name),
                                        follow_symlinks=False)
                        continue
                    download = rel == "." and lms._upload(name, False, roster, True) is None
                    budget = (_Budget(download_bytes, download_files, download=True)
                              if download else _Budget(upload_bytes, files))
                    self._unpack_checked(path, os.path.join(target_dir, _archive_stem(name)),
                                         budget, 1, shown)
        finally:
            shutil.rmtree(self._scratch, ignore_errors=True)
        notes = {"skipped": self.skipped} if self.skipped else {}
        if self.broken:
            notes["broken_downloads"] = self.broken
        if notes:
            _append_collect_notes(self.parent, notes)

    def _unpack_checked(self, path, dest, budget, depth, shown):
        """Unpack one archive; over its bound or broken, remove what it wrote
        and report it (an ancestor's bound: let that archive's caller do so).
        A bulk download that breaks half way keeps the uploads unpacked before
        and is reported as broken (its students are flagged)."""
        try:
            self._unpack(path, dest, budget, depth, shown)
        except TooLarge as err:
            if err.budget is not budget and budget.parent is not None:
                raise
            budget.remove_written()
            self.skipped.append((shown, f"not unpacked: {err}"))
        except Exception as err:
            why = f"{type(err).__name__}: {err}"
            if budget.download:
                self.skipped.append((shown, f"cannot be unpacked (to its end): {why}"))
                getattr(self, "broken", []).append((shown, why))
                return
            budget.remove_written()
            self.skipped.append((shown, f"cannot be unpacked: {why}"))

    def _unpack(self, path, dest, budget=None, depth=1, shown=None):
        upload_bytes, _, files, max_depth, _ = self._limits()
        if budget is None:
            budget = _Budget(upload_bytes, files)
        shown = shown or os.path.basename(path)

        def safe(name):
            parts = _member_parts(name)
            if not parts or ".." in parts or name.startswith("/"):
                return None
            return os.path.join(dest, *parts)

        with (zipfile.ZipFile(path) if zipfile.is_zipfile(path) else tarfile.open(path)) as ar:
            if isinstance(ar, zipfile.ZipFile):
                members = ((i.filename, (i.external_attr >> 16) & 0o170000 in (0, stat.S_IFREG)
                            and not i.is_dir(), i.is_dir(), lambda i=i: ar.open(i))
                           for i in ar.infolist())
            else:                                  # read lazily, member by member
                members = ((m.name, m.isreg(), m.isdir(), lambda m=m: ar.extractfile(m))
                           for m in ar)
            units, dropped, where, seen = {}, {}, {}, {}
            for name, regular, is_dir, opener in members:
                if not budget.download:
                    self._member(name, regular, is_dir, opener, safe(name), budget, depth,
                                 shown, seen)
                    continue
                # a bulk download: each first-level folder or file is an upload
                # with a budget of its own inside the bulk's
                parts = _member_parts(name)
                key = parts[0] if parts else ""
                if key in dropped:
                    dropped[key] += 1
                    continue
                unit = units.setdefault(key, _Budget(upload_bytes, files, parent=budget))
                try:
                    self._member(name, regular, is_dir, opener, safe(name), unit, depth,
                                 shown, seen)
                except TooLarge as err:
                    unit.remove_written()
                    dropped[key] = 0
                    where[key] = len(self.skipped)
                    self.skipped.append((
                        f"{shown}/{key}", f"not unpacked: {err}" if err.budget is not budget
                        else f"not unpacked: the bulk download would hold {err}; this upload "
                        "took it over its bound and was removed, the rest of the class "
                        "unpacked"))
                except Exception as err:       # a broken member: that upload alone goes
                    unit.remove_written()
                    dropped[key] = 0
                    where[key] = len(self.skipped)
                    self.skipped.append((f"{shown}/{key}", "cannot be unpacked: "
                                         f"{type(err).__name__}: {err}; the rest of the "
                                         "class unpacked"))
            for key, more in dropped.items():
                if more:
                    path, why = self.skipped[where[key]]
                    self.skipped[where[key]] = (path, f"{why} ({more:,} more members of it "
                                                "not read)")

    def _member(self, name, regular, is_dir, opener, target, budget, depth, shown, seen):
        """Write one member of an archive (or unpack it, if it is an archive)."""
        _, _, files, max_depth, _ = self._limits()
        budget.charge(files=1)
        if not regular or target is None:
            if not is_dir:
                self.skipped.append((f"{shown}/{name}", "a path outside the upload "
                                     "(absolute, or with '..'): not unpacked"
                                     if regular else "not a regular file"))
            return
        if _is_archive(name) and depth >= max_depth:
            # the whole upload goes: archives this deep are no homework
            raise TooLarge(budget.upload(), f"it holds archives inside {depth} "
                           f"archives ({shown}/{name})")
        if target in seen:
            # two members of one name: the later one is written (as unpacking
            # tools do), and it is said
            self.skipped.append((f"{shown}/{name}", "a second member of this name in the "
                                 "archive: the later one is kept"))
        seen[target] = True
        try:
            if _is_archive(name):
                fd, tmp = tempfile.mkstemp(dir=getattr(self, "_scratch", None))
                os.close(fd)
                try:
                    self._copy(opener, tmp, budget)
                    child = _Budget(None, None, parent=budget)
                    self._unpack_checked(tmp, os.path.join(os.path.dirname(target),
                                                           _archive_stem(
                                                               os.path.basename(target))),
                                         child, depth + 1, f"{shown}/{name}")
                finally:
                    os.remove(tmp)
                return
            os.makedirs(os.path.dirname(target), exist_ok=True)
            budget.charge(path=target)
            self._copy(opener, target, budget)
        except OSError as err:
            if err.errno not in BAD_NAME:
                raise
            self.skipped.append((f"{shown}/{name[:200]}", "not unpacked: this file system "
                                 f"refuses its name ({os.strerror(err.errno)}); the rest of "
                                 "the upload is unpacked"))

    @staticmethod
    def _copy(opener, target, budget):
        """Copy a member, charging each chunk to the budget before it is written."""
        with opener() as src, open(target, "wb") as out:
            while True:
                chunk = src.read(1 << 20)
                if not chunk:
                    break
                budget.charge(len(chunk))
                out.write(chunk)


def _collect_notes_path(app):
    return os.path.join(app.coursedir.root, "reports", app.coursedir.assignment_id,
                        "collect.json")


def _students_notes_path(course_root, aid):
    return os.path.join(course_root, "reports", aid, "collect-students.json")


def _append_collect_notes(app, notes):
    path = _collect_notes_path(app)
    old = stored.read(path)
    for k, v in notes.items():
        old[k] = (old.get(k) or []) + list(v) if isinstance(v, list) else v
    stored.write(path, old)


def _notebook_of(path, released_ids):
    """The released notebook a renamed file is, from the grade ids it holds."""
    try:
        if os.path.getsize(path) > MAX_SUBMITTED_BYTES:
            return None
        with open(path, encoding="utf-8") as fh:
            nb = json.load(fh)
        ids = {c.get("metadata", {}).get("nbgrader", {}).get("grade_id")
               for c in nb.get("cells", [])}
    except (OSError, ValueError, AttributeError):
        return None
    best = max(released_ids.items(), key=lambda kv: len(kv[1] & ids), default=None)
    return best[0] if best and len(best[1] & ids) >= max(1, len(best[1]) // 2) else None


class LmsCollector(FileNameCollectorPlugin):
    """Attributes each extracted file to a student of the roster (lms.py)."""

    roster = Unicode("", help="the roster CSV (student_id, name, lms_id, email)").tag(config=True)

    def _plan(self):
        app = self.parent
        root = app._format_collect_path(app.extracted_directory)
        release = app.coursedir.format_path(app.coursedir.release_directory, ".",
                                            app.coursedir.assignment_id)
        released = {}
        for nb_path in utils.find_all_notebooks(release):
            nb = nbformat.read(os.path.join(release, nb_path), as_version=4)
            released[nb_path] = {c.metadata.get("nbgrader", {}).get("grade_id")
                                 for c in nb.cells} - {None}
        roster = lms.Roster.read(self.roster)
        matches = []
        for dirpath, _, filenames in os.walk(root):
            for name in filenames:
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                m = lms.match_file(rel, roster, set(released))
                if m.student_id is None and m.claims is None and name.endswith(".ipynb"):
                    found = _notebook_of(os.path.join(root, rel), released)
                    who = m.candidate_id
                    if found and who:
                        m.student_id, m.notebook = who, found
                        m.how = m.how.split(":")[0] + f" (renamed notebook, recognised as {found})"
                matches.append(m)
        # a file unpacked from an archive that is larger than a notebook may be
        large = [m for m in matches if os.path.getsize(os.path.join(root, m.path))
                 > MAX_SUBMITTED_BYTES]
        if large:
            matches = [m for m in matches if m not in large]
            _append_collect_notes(app, {"skipped": [(m.path, _TOO_LARGE) for m in large]})
        best, superseded = lms.choose(matches)
        attention = {}
        # a file credited by a name alone, from an LMS account (a roster row
        # without lms_id: anyone of that name may have sent it) never
        # replaces a file collected for that student by an earlier run unless
        # it came from the same LMS account as that one; it is flagged when
        # the roster gives LMS ids for others (a roster of names only matches
        # every student so, as the instructor chose: course/grading/README.md)
        earlier = stored.read(_students_notes_path(app.coursedir.root,
                                                   app.coursedir.assignment_id))
        held = []
        with_ids = any(st.lms_ids for st in roster.students.values())
        for key, m in list(best.items()):
            if not (m.lms_id and m.by_name):
                continue
            before = earlier.get(m.student_id) or {}
            if before.get("files") and m.lms_id not in (before.get("lms_ids") or []):
                del best[key]
                held.append(m)
                attention.setdefault(m.student_id, []).append(
                    f"{m.path} came from LMS account {m.lms_id}, matched to them by name "
                    "alone, but their file collected earlier did not: not collected, the "
                    "earlier file kept; check whose it is (give the roster their lms_id "
                    "to have it graded)")
            elif with_ids:    # a roster of LMS ids that lacks theirs: say so each time
                attention.setdefault(m.student_id, []).append(
                    f"{m.path} came from LMS account {m.lms_id}, matched to them by name "
                    "alone (the roster has no lms_id for them): check that it is theirs, "
                    "and give the roster their lms_id")
        superseded += held
        self._chosen = {os.path.join(root, m.path): m for m in best.values()}
        claims = [m for m in matches if m.claims]
        unmatched = [m for m in matches if m.student_id is None and m.claims is None and not (
            m.path.endswith(".txt") and "_attempt_" in m.path)]
        for m in claims:
            where = (f"their file {m.path}" if m.upload == m.path else
                     f"their upload {m.upload} holds {m.path[len(m.upload) + 1:]}, which")
            attention.setdefault(m.owner, []).append(
                f"{where} is named for another student ({m.claims}): not graded, not "
                f"credited to {m.claims}")
        # an upload named like a student of the roster, whose LMS id is not
        # theirs: never credited; the student is flagged (an impostor, or a
        # wrong lms_id in the roster that keeps their own file from them)
        for upload in sorted({m.upload for m in unmatched if m.named_like}):
            like = next(m.named_like for m in unmatched if m.upload == upload)
            attention.setdefault(like, []).append(
                f"{upload} is named like them, but its LMS id is not theirs on the roster: "
                "not graded, not credited to them (someone else's upload, or a wrong "
                "lms_id in the roster)")
        # matched by name from two LMS accounts (a roster row without LMS
        # ids): one of them may be an impostor's; the newer was taken, flagged
        two = lms.two_accounts(best, superseded)
        for sid, ids in sorted(two.items()):
            chosen = [m.path for m in best.values() if m.student_id == sid]
            attention.setdefault(sid, []).append(
                f"files from {len(ids)} LMS accounts ({', '.join(ids)}) match them by name; "
                f"graded: {', '.join(chosen) or 'none'}: check that it is theirs, and give "
                "the roster their lms_id")
        # files by more than one route, one of them a name alone (a plain
        # folder s017/ and a Moodle account of the same full name): the one
        # that came by their id was graded, flagged
        for sid, routes in sorted(lms.mixed_routes(best, superseded).items()):
            if sid in two:
                continue
            chosen = [m for m in best.values() if m.student_id == sid]
            attention.setdefault(sid, []).append(
                f"files from more than one account or route ({'; '.join(routes)}): check "
                "which is theirs; graded: " + ", ".join(m.path for m in chosen)
                + " (one that came by their id before one matched by name alone)")
        # a name two LMSs' patterns give to different students: credited to
        # no one; every student it may name is flagged
        for m in unmatched:
            for sid in m.ambiguous:
                attention.setdefault(sid, []).append(
                    f"{m.upload or m.path} may be theirs or another's (the name reads "
                    "differently by the patterns of different LMSs): not graded, not "
                    "credited to anyone; check whose it is")
        notes_path = _collect_notes_path(app)
        skipped = broken = []
        if os.path.exists(notes_path):
            with open(notes_path, encoding="utf-8") as fh:
                notes = json.load(fh)
            skipped, broken = notes.get("skipped", []), notes.get("broken_downloads", [])
        for path, why in skipped:
            owner = lms.uploader(path, roster)
            if owner and f"{path}: {why}" not in attention.get(owner, []):
                attention.setdefault(owner, []).append(f"{path}: {why}")
        # a bulk download that could not be read to its end: whoever has no
        # file collected may have one in it (never a silent "not submitted")
        collected = {m.student_id for m in best.values()}
        # a file not collected (NOT MATCHED or SKIPPED) whose path names a
        # student with nothing collected (e.g. a Moodle download zipped again
        # inside another zip: its folders are two levels down, where no upload
        # is looked for): that student is flagged, never a silent "not submitted"
        maybe = {}
        for path, why, known in [(m.path, m.how, {m.named_like, *m.ambiguous})
                                 for m in unmatched] + \
                [(p, w, {lms.uploader(p, roster)}) for p, w in skipped]:
            for sid in lms.named_students(path, roster) - collected - known:
                maybe.setdefault(sid, []).append((path, why))
        for sid, files in sorted(maybe.items()):
            path, why = files[0]
            attention.setdefault(sid, []).append(
                f"a file that may be theirs was not collected: {path}: {why}"
                + (f" (and {len(files) - 1} more such files: see the report's NOT MATCHED "
                   "and SKIPPED)" if len(files) > 1 else ""))
        for path, why in broken:
            for sid in sorted(set(roster.students) - collected):
                attention.setdefault(sid, []).append(
                    f"the bulk download {path} could not be unpacked to its end ({why}): "
                    "no file of theirs was collected; their submission may be in it")
        # a container (a folder or archive around uploads that is no student)
        # holding a single upload may be a student missing from the roster
        containers = {}
        for m in matches:
            if m.upload and "/" in m.upload:
                containers.setdefault(m.upload.split("/")[0], {})[m.upload] = m.owner
        for folder, uploads in containers.items():
            if len(uploads) == 1:
                (upload, owner), = uploads.items()
                if owner:
                    attention.setdefault(owner, []).append(
                        f"{upload} came in {folder!r}, which is no student of the roster "
                        "and holds no other upload: if it is the LMS's download of this one "
                        "submission, nothing is wrong; check that it is not the upload of a "
                        "student missing from the roster")
        _append_collect_notes(app, {
            "roster": self.roster or "", "roster_students": len(roster.students),
            "roster_collisions": roster.collisions,
            "containers": {k: len(v) for k, v in containers.items()},
            "collected": [vars(m) for m in best.values()],
            "superseded": [vars(m) for m in superseded if m not in held],
            "held": [vars(m) for m in held],
            "claims": [vars(m) for m in claims],
            "unmatched": [vars(m) for m in unmatched],
            "attention": attention})
        # per student, kept across runs: a later run that collects nothing of a
        # student leaves what the earlier one found
        students = stored.read(_students_notes_path(app.coursedir.root,
                                                   app.coursedir.assignment_id))
        touched = {m.student_id for m in best.values()} | set(attention)
        for sid in touched:
            mine = [m for m in best.values() if m.student_id == sid]
            before = students.get(sid) or {}
            if not mine and before.get("files"):     # nothing new: what was collected stays
                students[sid] = dict(before, attention=attention.get(sid, []))
                continue
            students[sid] = {"late": any(m.late for m in mine),
                             "files": sorted(m.path for m in mine),
                             "lms_ids": sorted({m.lms_id for m in mine if m.lms_id}),
                             "canvas_id": next((m.canvas_id for m in mine if m.canvas_id),
                                               None),
                             "attention": attention.get(sid, [])}
        stored.write(_students_notes_path(app.coursedir.root, app.coursedir.assignment_id),
                      students)
        return self._chosen

    def collect(self, submitted_file):
        chosen = getattr(self, "_chosen", None)
        if chosen is None:
            chosen = self._plan()
        m = chosen.get(submitted_file)
        if m is None:
            self.log.debug("not collected: %s", submitted_file)
            return None
        info = {"student_id": m.student_id, "file_id": m.notebook}
        if m.timestamp:
            info["timestamp"] = m.timestamp
        return info


# --- the grade table -------------------------------------------------------------------

COLUMNS = ["student_id", "name", "email", "lms_id", "assignment", "status", "autograded",
           "autograded_max", "manual", "manual_max", "total", "max_score",
           "needs_manual_grading", "manual_parts_pending", "needs_attention",
           "attention_reason", "tampering", "late", "timestamp"]
# status: "graded" (every part has a mark), "needs manual grading" (written
# parts not yet marked by hand: total counts only what is marked, never a
# silent 0 for them), "not submitted" (no marks at all: the mark columns are
# empty, not 0, so an LMS import does not record a zero by mistake)
GRADED, NEEDS_MANUAL, NOT_SUBMITTED = "graded", "needs manual grading", "not submitted"


class LmsGradesExporter(ExportPlugin):
    """One row per student and assignment: every student of the gradebook (the
    roster) for every assignment of it, submitted or not, with autograded,
    manual and total marks, the maximum, a status and flags for parts still to
    mark by hand and for submissions that need the instructor's attention."""

    roster = Unicode("", help="the roster CSV").tag(config=True)
    report_dir = Unicode("", help="the grading reports' folder").tag(config=True)
    canvas_assignment_ids = Dict({}, help="Canvas's id of each assignment, e.g. "
                                 "{'ch05': '123456'}: the Canvas export's column is then "
                                 "'ch05 (123456)', which Canvas matches to that assignment "
                                 "(a name alone makes a new assignment)").tag(config=True)

    def export(self, gradebook):
        dest = self.to or "grades.csv"
        roster = lms.Roster.read(self.roster)
        students = sorted(gradebook.students, key=lambda s: s.id)
        rows = []
        for assignment in sorted(gradebook.assignments, key=lambda a: a.name):
            if self.assignment and assignment.name not in self.assignment:
                continue
            notes = self._collect_notes(assignment.name)
            submissions = {s.student.id: s for s in assignment.submissions}
            for student in students:
                if self.student and student.id not in self.student:
                    continue
                submission = submissions.get(student.id)
                row = (self._row(assignment, submission, student, roster, notes)
                       if submission is not None
                       else self._missing_row(assignment, student, roster))
                _add_attention(row, notes.get(student.id, {}).get("attention", []))
                row["_canvas_id"] = notes.get(student.id, {}).get("canvas_id") or ""
                rows.append(row)
        with open(dest, "w", newline="", encoding="utf-8",
                  errors="backslashreplace") as fh:
            writer = csv.DictWriter(fh, fieldnames=COLUMNS, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
        self.log.info("wrote %d rows to %s", len(rows), dest)
        folder = os.path.join(os.path.dirname(os.path.abspath(dest)), "grades")
        for aid in sorted({r["assignment"] for r in rows}):
            mine = [r for r in rows if r["assignment"] == aid]
            write_assignment_grades(mine, os.path.join(folder, f"{aid}.csv"))
            write_canvas_grades(mine, os.path.join(folder, f"{aid}-canvas.csv"),
                                self.canvas_assignment_ids.get(aid))
            self.log.info("wrote %s and %s", os.path.join(folder, f"{aid}.csv"),
                          os.path.join(folder, f"{aid}-canvas.csv"))

    @staticmethod
    def _who(student, roster):
        info = roster.students.get(student.id)
        return {
            "student_id": student.id,
            "name": info.name if info else " ".join(
                x for x in (student.first_name, student.last_name) if x),
            "email": info.email if info else (student.email or ""),
            "lms_id": " ".join(info.lms_ids) if info else (student.lms_user_id or ""),
        }

    def _missing_row(self, assignment, student, roster):
        auto_max = manual_max = 0.0
        for nb in assignment.notebooks:
            for cell in nb.grade_cells:
                if cell.cell_type == "markdown":
                    manual_max += float(cell.max_score or 0)
                else:
                    auto_max += float(cell.max_score or 0)
        row = dict.fromkeys(COLUMNS, "")
        row.update(self._who(student, roster), assignment=assignment.name,
                   status=NOT_SUBMITTED, autograded_max=_fmt(auto_max),
                   manual_max=_fmt(manual_max), max_score=_fmt(auto_max + manual_max),
                   needs_manual_grading="no", manual_parts_pending=0, needs_attention="no",
                   tampering=0, late="no")
        return row

    def _collect_notes(self, aid):
        """What collection found, per student (kept across runs); from an
        older course, the last run's collect.json."""
        notes = stored.read(_students_notes_path(os.path.dirname(self.report_dir), aid)) \
            if self.report_dir else {}
        if not notes:
            last = stored.read(os.path.join(self.report_dir, aid, "collect.json"))
            notes = {m["student_id"]: {"late": m.get("late")}
                     for m in last.get("collected", []) if isinstance(m, dict)}
        return notes

    def _row(self, assignment, submission, student, roster, notes):
        auto = auto_max = manual = manual_max = saved = 0.0
        pending = 0
        for nb in submission.notebooks:
            for grade in nb.grades:
                max_score = float(grade.max_score or 0)
                if grade.cell.cell_type != "markdown":
                    saved += grade.auto_score if grade.auto_score is not None else float("nan")
                if grade.cell.cell_type == "markdown":
                    manual_max += max_score
                    if grade.manual_score is not None:
                        manual += grade.manual_score + (grade.extra_credit or 0)
                    elif grade.needs_manual_grade:
                        pending += 1
                    else:
                        manual += grade.auto_score or 0.0    # left blank: 0 without marking
                else:
                    auto_max += max_score
                    if grade.manual_score is not None:      # the instructor overrode it
                        auto += grade.manual_score + (grade.extra_credit or 0)
                    else:
                        auto += (grade.auto_score or 0.0) + (grade.extra_credit or 0)
        report = {}
        try:
            with open(report_path(self.report_dir, assignment.name, student.id),
                      encoding="utf-8") as fh:
                report = json.load(fh)
        except (OSError, ValueError):
            report = {"attention": ["no grading report: the submission was not autograded "
                                    "(unreadable notebook?)"]}
        attention = _checked_attention(report, saved)
        return {
            **self._who(student, roster),
            "assignment": assignment.name,
            "status": NEEDS_MANUAL if pending else GRADED,
            "autograded": _fmt(auto), "autograded_max": _fmt(auto_max),
            "manual": _fmt(manual), "manual_max": _fmt(manual_max),
            "total": _fmt(auto + manual), "max_score": _fmt(auto_max + manual_max),
            "needs_manual_grading": "yes" if pending else "no",
            "manual_parts_pending": pending,
            "needs_attention": "yes" if attention or report.get("tampering") else "no",
            "attention_reason": "; ".join(attention + [f"tampering: {t}" for t in
                                                       report.get("tampering", [])]),
            "tampering": len(report.get("tampering", [])),
            "late": "yes" if (submission.total_seconds_late or 0) > 0 or
            notes.get(student.id, {}).get("late") else "no",
            "timestamp": submission.timestamp.isoformat() if submission.timestamp else "",
        }


def _checked_attention(report, saved):
    """The report's reasons for attention, and one more when the gradebook does
    not hold the marks the grader gave (nbgrader failed after the run): the
    table never shows a mark its grading report does not."""
    attention = report.get("attention", []) if isinstance(report, dict) else []
    attention = [str(a) for a in attention] if isinstance(attention, list) else \
        ["the grading report is damaged"]
    points = report.get("points") if isinstance(report, dict) else None
    if isinstance(points, (int, float)) and not report.get("failed") and \
            not abs(saved - points) < 1e-9:
        attention.append(f"the gradebook holds {_fmt(saved)} autograded points, the grader "
                         f"gave {_fmt(points)}: nbgrader did not save this run's marks "
                         "(see the nbgrader log); grade this student again")
    return attention


def _fmt(x):
    return f"{x:g}"


def _add_attention(row, reasons):
    """Collection's findings about a student (a file naming another student,
    an upload too large to unpack) flag their row, submitted or not."""
    reasons = [r for r in reasons if r not in row["attention_reason"]]
    if reasons:
        row["needs_attention"] = "yes"
        row["attention_reason"] = "; ".join(
            [x for x in [row["attention_reason"]] if x] + [f"collection: {r}" for r in reasons])


# The per-assignment file (grades/<assignment>.csv): one row per student of
# the roster, ready for an LMS's grade import; points are empty (not 0) for
# a student who handed nothing in.
ASSIGNMENT_COLUMNS = ["student_id", "name", "lms_id", "email", "status", "points",
                      "max_points", "needs_manual_grading", "needs_attention", "reason",
                      "late"]


def write_assignment_grades(rows, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8",
              errors="backslashreplace") as fh:
        writer = csv.DictWriter(fh, fieldnames=ASSIGNMENT_COLUMNS)
        writer.writeheader()
        for r in rows:
            writer.writerow({
                "student_id": r["student_id"], "name": r["name"], "lms_id": r["lms_id"],
                "email": r["email"], "status": r["status"], "points": r["total"],
                "max_points": r["max_score"],
                "needs_manual_grading": r["needs_manual_grading"],
                "needs_attention": r["needs_attention"], "reason": r["attention_reason"],
                "late": r["late"]})


CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def _sortable(name):
    """Canvas's "Last, First" form of a name."""
    parts = name.split()
    return f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) >= 2 else name


def write_canvas_grades(rows, path, canvas_assignment_id=None):
    """Canvas's gradebook import (Grades > Import): Student, ID (the Canvas
    user id, when a Canvas download showed it), SIS User ID (the roster's
    student id), SIS Login ID, Section, then the assignment's column, with
    its points possible in the second row.  Only a final grade is filled in:
    a student whose submission needs hand marking or attention, or who
    handed nothing in, has an empty cell (Canvas leaves it as it is), so an
    import never records a partial mark or a zero by mistake."""
    aid = rows[0]["assignment"] if rows else ""
    column = f"{aid} ({canvas_assignment_id})" if canvas_assignment_id else aid
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8",
              errors="backslashreplace") as fh:
        writer = csv.writer(fh)
        writer.writerow(CANVAS_COLUMNS + [column])
        top = max((r["max_score"] for r in rows), key=lambda x: float(x or 0), default="")
        writer.writerow(["    Points Possible", "", "", "", "", top])
        for r in rows:
            final = r["status"] == GRADED and r["needs_attention"] == "no"
            writer.writerow([_sortable(r["name"]) if r["name"] else r["student_id"],
                             r.get("_canvas_id", ""), r["student_id"], "", "",
                             r["total"] if final else ""])
