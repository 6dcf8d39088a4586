"""Grade a folder of submissions: what ``make grade`` runs.

    python course/grading/grade.py COURSE ASSIGNMENT SUBMISSIONS [--roster CSV] [--force]

1. checks the sandbox first (sandbox.py; as root on Debian it installs
   bubblewrap) and says what it found, within seconds;
2. reads the roster (``--roster``, kept as COURSE/roster.csv) into the gradebook;
3. copies SUBMISSIONS (regular files only) to nbgrader's
   ``downloaded/ASSIGNMENT/archive`` and runs ``nbgrader zip_collect``, which
   unpacks the archives and attributes every file to a student of the roster
   (Moodle, Canvas, Blackboard or plain folders; lms.py);
4. ``nbgrader autograde``: each notebook runs in its own sandbox, the grader
   marks what it recorded (nbgrader_plugins.SandboxedExecute); a submission
   graded before is kept (its hand marks too) unless ``--force`` or its
   collected notebook differs from the one autograded (sha256, kept in
   COURSE/reports/ASSIGNMENT-graded-files.json): then it is graded afresh,
   hand marks kept and flagged;
5. ``nbgrader generate_feedback`` and ``nbgrader export`` (the LMS table
   COURSE/grades.csv);
6. prints the report (and writes it to COURSE/reports/ASSIGNMENT-report.txt):
   files that could not be attributed, superseded copies, tampering, runs that
   need attention, students of the roster without a submission, time taken.

nbgrader's own log goes to COURSE/reports/ASSIGNMENT-nbgrader.log.  The exit
status is 0 when every step ran (whatever the submissions did), 1 when an
nbgrader step failed, 3 when no sandbox can be made on this machine.
"""

import argparse
import csv
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lms  # noqa: E402
import stored  # noqa: E402
import sandbox  # noqa: E402
import sanitize  # noqa: E402


def copy_submissions(src, dest):
    """Regular files and folders of ``src`` into ``dest``; symlinks and the like
    are left out (and listed)."""
    skipped = []
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel = os.path.relpath(dirpath, src)
        for d in list(dirnames):
            if os.path.islink(os.path.join(dirpath, d)):
                dirnames.remove(d)
                skipped.append((os.path.normpath(os.path.join(rel, d)), "a symbolic link"))
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for name in filenames:
            path = os.path.join(dirpath, name)
            if not stat.S_ISREG(os.lstat(path).st_mode):
                skipped.append((os.path.normpath(os.path.join(rel, name)),
                                "not a regular file (a symbolic link?)"))
                continue
            shutil.copyfile(path, os.path.join(dest, rel, name), follow_symlinks=False)
    return skipped


def load_roster(course, roster_path):
    """Copy the roster into the course and its students into the gradebook."""
    target = os.path.join(course, "roster.csv")
    if roster_path:
        if os.path.abspath(roster_path) != os.path.abspath(target):
            shutil.copyfile(roster_path, target)
    roster = lms.Roster.read(target)
    if roster:
        from nbgrader.api import Gradebook
        with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}",
                       "aukbook") as gb:
            for s in roster.students.values():
                first, _, last = s.name.partition(" ")
                gb.update_or_create_student(s.student_id, first_name=first or None,
                                            last_name=last or None, email=s.email or None,
                                            lms_user_id=" ".join(s.lms_ids) or None)
    return roster


def _start(course, args, lease=None):
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    fds = ()
    if lease is not None:           # the sandbox user ids this run holds
        env.update(lease.env())
        fds = tuple(lease.fds)
    return subprocess.Popen([sys.executable, "-m", "nbgrader"] + args, cwd=course, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            pass_fds=fds)


def _relay(proc, log, lock=None, lines=None):
    for line in proc.stdout:
        if lock:
            lock.acquire()
        try:
            log.write(line)
        except ValueError:        # the log was closed: the run was interrupted
            return proc.wait()
        finally:
            if lock:
                lock.release()
        if lines is not None:
            lines.append(line.rstrip("\n"))
        if "[grading]" in line:
            print("  " + sanitize.printable(line.split("[grading]", 1)[1].strip()), flush=True)
    return proc.wait()


def nbgrader(course, args, log):
    log.write(f"\n$ nbgrader {' '.join(args)}\n")
    log.flush()
    return _relay(_start(course, args), log)


def batches(students, jobs):
    """``students`` cut into batches for ``jobs`` graders that take the next
    batch as soon as they finish one: about four batches a grader, so that a
    notebook that runs to its time limit holds up only its own batch's
    neighbours while the other graders work through the rest.  Each batch is
    one nbgrader process, about 5 s of CPU to start (nbgrader and the
    reference answers imported) against about 10 s a student, so a batch
    holds at least four students where every grader still gets one."""
    n = len(students)
    size = max(1, -(-n // (4 * jobs)), min(4, -(-n // jobs)))
    return [students[i:i + size] for i in range(0, n, size)]


def autograde(course, aid, force, jobs, log, only=None, again=()):
    """``nbgrader autograde`` in ``jobs`` graders side by side, each with its
    own sandbox user id, leased for this run (sandbox.UidLease): a second
    grader on the machine leases others.  The students are cut into batches
    (``batches``); a grader runs one nbgrader process per batch (the others
    excluded) and then takes the next.  ``only``: these students alone,
    graded afresh (their hand marks kept); ``again``: these students graded
    afresh too (a new file of theirs was collected), the others as nbgrader
    does (a submission autograded before is kept).  Returns the exit status
    and {student: why nbgrader failed on them}."""
    import threading
    submitted = os.path.join(course, "submitted")
    everyone = sorted(s for s in os.listdir(submitted)
                      if os.path.isdir(os.path.join(submitted, s, aid))) \
        if os.path.isdir(submitted) else []
    students = [s for s in everyone if s in only] if only else everyone
    if not students:
        return 0, {}
    jobs = max(1, min(jobs, len(students)))
    fresh = [] if force or only else [s for s in students if s in again]
    todo = [(group, bool(force or only))
            for group in batches([s for s in students if s not in fresh], jobs)] + \
        [(group, True) for group in batches(fresh, jobs)]
    lease = sandbox.UidLease(jobs) if sandbox.needs_uids() else None
    lock = threading.Lock()
    codes, lines, procs = [], [], []

    def grader(slot):
        while True:
            with lock:
                if not todo:
                    return
                group, forced = todo.pop(0)
            others = sorted(set(everyone) - set(group))
            args = ["autograde", aid, f"--SandboxedExecute.slot={slot}"]
            if others:
                args.append("--CourseDirectory.student_id_exclude=" + ",".join(others))
            if forced:
                args.append("--force")
            with lock:
                log.write(f"\n$ nbgrader {' '.join(args[:3])} ({', '.join(group)})\n")
            with lock:
                proc = _start(course, args, lease)
                procs.append(proc)
            code = _relay(proc, log, lock, lines)
            with lock:
                codes.append(code)

    try:
        # daemon threads: an interrupt (Ctrl-C) ends the run at once, the
        # graders' nbgrader processes stopped below, not after a second Ctrl-C
        threads = [threading.Thread(target=grader, args=(slot,), daemon=True)
                   for slot in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    except KeyboardInterrupt:
        # nbgrader, interrupted as Ctrl-C does, removes the half-written
        # output of the submission it was on (so a run again grades it);
        # one that does not end within 30 s is killed
        with lock:
            todo.clear()
            for proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        raise
    finally:
        if lease is not None:
            lease.release()
    return max(codes, default=0), failures(lines, aid)


def failures(lines, aid):
    """{student: the error} for each submission nbgrader gave up on (its log
    lines), e.g. a notebook it found invalid after a step."""
    import re
    failed, current, where = {}, None, None
    for line in lines:
        m = re.search(r"There was an error processing assignment: .*?[/\\]submitted[/\\]"
                      r"([^/\\]+)[/\\]" + re.escape(aid) + r"\s*$", line)
        if m:
            current, where = m.group(1), None
            failed.setdefault(current, "")
            continue
        m = re.search(r"There was an error processing assignment '(.*?)' for student "
                      r"'(.*?)'", line)
        if m and m.group(1) == aid:
            failed.setdefault(m.group(2), "")
            current = None
            continue
        if current is None:
            continue
        if line.startswith("["):
            where = "traceback" if "Traceback" in line else where
            if "Traceback" not in line and where == "traceback":
                current = None
            continue
        # the exception's own line: indented no deeper than the traceback's
        # header (nbgrader's log indents a record's continuation lines by 4;
        # frames and code lie deeper)
        text = line.strip()
        if where == "traceback" and text and len(line) - len(line.lstrip()) <= 4 and \
                not text.startswith(("Traceback", "During handling", "The above exception")):
            failed[current] = text[:300]
    return failed


def graded_files_path(course, aid):
    """{student: {notebook: sha256}} of the submitted notebooks as they were
    when autograded: what tells a new file from the one graded."""
    return os.path.join(course, "reports", f"{aid}-graded-files.json")


def submitted_hashes(course, aid, sid):
    """{notebook path: sha256} of a student's collected notebooks."""
    import hashlib
    folder = os.path.join(course, "submitted", sid, aid)
    out = {}
    for dirpath, _, filenames in os.walk(folder):
        for name in sorted(filenames):
            if name.endswith(".ipynb"):
                path = os.path.join(dirpath, name)
                with open(path, "rb") as fh:
                    out[os.path.relpath(path, folder)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def changed_submissions(course, aid, students):
    """Of ``students`` (collected in this run), those autograded before:
    (changed: their collected notebooks differ from the ones graded, so
    nbgrader, which keeps an autograded submission, would keep a stale mark;
    unknown: graded before this kit recorded what it graded)."""
    record = stored.read(graded_files_path(course, aid))
    changed, unknown = [], []
    for sid in sorted(set(students)):
        if not os.path.isdir(os.path.join(course, "autograded", sid, aid)):
            continue
        if sid not in record:
            unknown.append(sid)
        elif record[sid] != submitted_hashes(course, aid, sid):
            changed.append(sid)
    return changed, unknown


def record_graded(course, aid, graded, failed=()):
    """Remember the notebooks ``graded`` were autograded from (and forget
    those of ``failed``: they are to be graded again)."""
    path = graded_files_path(course, aid)
    record = stored.read(path)
    for sid in graded:
        if os.path.isdir(os.path.join(course, "autograded", sid, aid)):
            record[sid] = submitted_hashes(course, aid, sid)
    for sid in failed:
        record.pop(sid, None)
    stored.write(path, record, sort_keys=True)


def hand_marked(course, aid, students):
    """Those of ``students`` with a mark or comment given by hand in the
    gradebook for ``aid``."""
    from nbgrader.api import Gradebook, MissingEntry
    out = set()
    if not students:
        return out
    try:
        with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}", "aukbook") as gb:
            for sid in students:
                try:
                    sub = gb.find_submission(aid, sid)
                except MissingEntry:
                    continue
                for nb in sub.notebooks:
                    if any(g.manual_score is not None or g.extra_credit for g in nb.grades) \
                            or any(c.manual_comment for c in nb.comments):
                        out.add(sid)
    except Exception as err:         # cannot tell: flag them all rather than none
        print(f"  (the gradebook could not be read for hand marks: {err})", flush=True)
        return set(students)
    return out


def note_attention(course, aid, sid, reason):
    """Add a reason for attention to a student's grading report (once)."""
    path = os.path.join(course, "reports", aid, f"{sid}.json")
    data = stored.read(path)
    attention = [a for a in data.get("attention", []) if isinstance(a, str)]
    if reason not in attention:
        attention.append(reason)
    data.update(student=sid, assignment=aid, attention=attention)
    stored.write(path, data)


def note_collection(course, aid, sid, reason, **lists):
    """Add a reason for attention to what collection found about a student
    (reports/ASSIGNMENT/collect.json for this run's report,
    collect-students.json for grades.csv, which flags the row whether or not
    the student is graded); ``lists``: entries appended to collect.json's
    lists of those names."""
    folder = os.path.join(course, "reports", aid)
    os.makedirs(folder, exist_ok=True)
    for name in ("collect.json", "collect-students.json"):
        path = os.path.join(folder, name)
        data = stored.read(path)
        if name == "collect.json":
            mine = data.setdefault("attention", {}).setdefault(sid, [])
            for key, items in lists.items():
                data[key] = list(data.get(key) or []) + list(items)
        else:
            mine = data.setdefault(sid, {}).setdefault("attention", [])
        if reason not in mine:
            mine.append(reason)
        stored.write(path, data)


def set_aside(course, aid, unusable):
    """Move the submission of each student with a notebook in ``unusable``
    ({path under submitted/: what is wrong}) from submitted/ to
    COURSE/quarantine/ASSIGNMENT/<student>/: it is not graded, and the
    student's row needs attention, with the file and what is wrong.  Returns
    the students set aside."""
    submitted = os.path.join(course, "submitted")
    collected = stored.read(os.path.join(course, "reports", aid, "collect.json")).get(
        "collected", [])
    out = {}
    for path, why in sorted(unusable.items()):
        rel = os.path.relpath(path, submitted).replace(os.sep, "/")
        sid, _, name = rel.partition("/")
        name = name.partition("/")[2]               # below <student>/<assignment>/
        came = next((m.get("path") for m in collected if isinstance(m, dict)
                     and m.get("student_id") == sid and m.get("notebook") == name), None)
        out.setdefault(sid, []).append((came or f"submitted/{rel}", why))
    for sid, files in sorted(out.items()):
        target = os.path.join(course, "quarantine", aid, sid)
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.move(os.path.join(submitted, sid, aid), target)
        for came, why in files:
            note_collection(
                course, aid, sid,
                f"the notebook {came} cannot be graded: {why}; set aside, not graded "
                f"(quarantine/{aid}/{sid}/): ask for a repaired file, or repair it, and "
                f"grade again with STUDENT={sid} (marks shown, if any, are of an earlier "
                "file)",
                quarantined=[[came, why]])
    return sorted(out)


REGRADED_HAND = ("graded again: a new file arrived in this download, and hand marks were "
                 "given to the earlier file; check them")


def unknown_reason(aid, sid):
    return (f"collected again, but graded before this kit recorded which file it graded: "
            f"if the file changed, its mark is the earlier file's; grade it again with "
            f"make grade ASSIGNMENT={aid} SUBMISSIONS=... STUDENT={sid}")


def note_failures(course, aid, failed):
    """Each submission nbgrader gave up on is flagged in its grading report, so
    that grades.csv and the printed report name it (never a silent 0)."""
    for sid, why in failed.items():
        path = os.path.join(course, "reports", aid, f"{sid}.json")
        data = stored.read(path)
        data.update(student=sid, assignment=aid, failed=True)
        attention = [a for a in data.get("attention", []) if isinstance(a, str)]
        attention.append("nbgrader could not finish grading this submission"
                         + (f" ({why})" if why else "")
                         + f"; its marks are not this run's: see reports/{aid}-nbgrader.log"
                         " and grade it again")
        data["attention"] = attention
        stored.write(path, data)


def _n(count, noun):
    return f"{count} {noun}" + ("" if count == 1 else "s")


def summarised(items, mark, noun, few=3):
    """Report lines for (path, why, upload) items: one a line, but one line
    for the items of an upload (else of a folder) with more than ``few``
    (how many, a few of their names, why the first one), so one upload of
    20,000 junk files takes a line, not 20,000."""
    groups = {}
    for path, why, upload in items:
        key = upload or ("/".join(path.split("/")[:2]) if path.count("/") >= 2 else
                         os.path.dirname(path) or path)
        groups.setdefault(key, []).append((path, why))
    lines = []
    for key, group in groups.items():
        if len(group) <= few:
            lines += [f"  {mark} {path}: {why}" for path, why in group]
            continue
        names = ", ".join(p[len(key) + 1:] if p.startswith(key + "/") else p
                          for p, _ in group[:few])
        lines.append(f"  {mark} {key}: {len(group):,} {noun} (e.g. {names}, ...); "
                     f"the first: {group[0][1]}")
    return lines


def _grade_rows(course, aid):
    """grades.csv's rows of this assignment, by student (what the LMS gets)."""
    try:
        with open(os.path.join(course, "grades.csv"), newline="", encoding="utf-8") as fh:
            return {r["student_id"]: r for r in csv.DictReader(fh)
                    if r.get("assignment") == aid}
    except (OSError, KeyError, csv.Error):
        return {}


def _section(lines, heading, rows):
    """A section of the report: a blank line, its heading and its rows (none
    when there are no rows)."""
    if rows:
        lines += ["", heading] + list(rows)


def report(course, aid, roster, skipped, seconds, failed, backend, only=(), again=(),
           unknown=()):
    folder = os.path.join(course, "reports", aid)
    collect = stored.read(os.path.join(folder, "collect.json"))
    runs = {}
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(".json") and name != "collect.json":
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as fh:
                    runs[name[:-5]] = json.load(fh)
            except (OSError, ValueError):
                runs[name[:-5]] = {}
    collected = collect.get("collected", [])
    this_run = {m["student_id"] for m in collected}
    if only:
        this_run &= set(only)
    runs = {s: r for s, r in runs.items() if s in this_run and isinstance(r, dict)}
    rows = _grade_rows(course, aid)
    lines = [f"Grading report: {aid} ({time.strftime('%Y-%m-%d %H:%M')})",
             f"sandbox: {backend}",
             f"roster: {len(roster.students)} students" if roster else
             "roster: none (only folders named by student id can be matched; "
             "give ROSTER=roster.csv)",
             f"files: {len(collected)} collected, {len(collect.get('superseded', []))} "
             f"superseded by a newer copy, "
             + (f"{len(collect['held'])} HELD BACK, " if collect.get("held") else "")
             + f"{len(collect.get('unmatched', []))} NOT MATCHED, "
             f"{len(skipped) + len(collect.get('skipped', []))} skipped"]
    if collect.get("roster_collisions"):
        lines.append("")
        lines.append("ROSTER: students whose names or ids normalise alike (Unicode, case, "
                     "accents):")
        lines += [f"  !! {c}" for c in collect["roster_collisions"]]
    unmatched = collect.get("unmatched", [])
    if unmatched:
        lines.append("")
        lines.append(f"NOT MATCHED ({len(unmatched)}): these files were not graded")
        lines += summarised([(m["path"], m["how"], m.get("upload")) for m in unmatched],
                            "!!", "files")
    claims = collect.get("claims", [])
    _section(lines, f"NAMED FOR ANOTHER STUDENT ({len(claims)}): a file inside one student's "
             "upload whose name claims another student; not graded, never credited to the "
             "student it names, the uploader's row flagged",
             [f"  !! {m['path']}: uploaded by {m['owner']}, names {m['claims']}"
              for m in claims])
    for title, items in (("SKIPPED", skipped + [tuple(x) for x in collect.get("skipped", [])]),):
        if items:
            lines.append("")
            lines.append(f"{title} ({len(items)}):")
            lines += summarised([(p, why, None) for p, why in items], "-", "members")
    quarantined = collect.get("quarantined", [])
    _section(lines, f"SET ASIDE ({len(quarantined)}): notebooks that cannot be repaired "
             f"without guessing, moved to {os.path.join(course, 'quarantine', aid)}/ "
             "and not graded; their students' rows need attention",
             [f"  !! {path}: {why}" for path, why in quarantined])
    _section(lines, "superseded (an older copy of the same student's notebook):",
             [f"  - {m['path']} ({m['student_id']})" for m in collect.get("superseded", [])])
    held = collect.get("held", [])
    _section(lines, f"HELD BACK ({len(held)}): matched to a student by name alone, from an "
             "LMS account their file collected earlier did not come from; not collected, "
             "the earlier file kept (the student is flagged)",
             [f"  !! {m['path']} ({m['student_id']}, LMS account {m.get('lms_id')})"
              for m in held])
    if again:
        lines.append("")
        lines.append(f"graded again ({len(again)}): a new file arrived in this download "
                     "(it differs from the one graded before); hand marks kept, flagged "
                     "where there were any: " + ", ".join(again))
    if unknown:
        lines.append("")
        lines.append(f"NOT CHECKED FOR A NEW FILE ({len(unknown)}): graded before this kit "
                     "recorded which file it graded; if a file changed, grade it again "
                     f"with make grade ASSIGNMENT={aid} SUBMISSIONS=... STUDENT=<id>: "
                     + ", ".join(unknown))
    late = [m for m in collected if m.get("late")]
    if late:
        lines.append("")
        lines.append("late (marked so by the LMS): " + ", ".join(m["student_id"] for m in late))
    flagged = {s: r["tampering"] for s, r in runs.items() if r.get("tampering")}
    if flagged:
        lines.append("")
        lines.append(f"TAMPERING ({_n(len(flagged), 'student')}): locked or graded cells "
                     "were changed; the instructor's versions were restored before grading")
        for s, events in flagged.items():
            lines += [f"  !! {s}: {e}" for e in events]
    # EVERY row of grades.csv that needs attention, with the row's own reason:
    # the report and the table say the same, also after a regrade of one
    # student (STUDENT=) or a second download, which leave the flags of
    # earlier runs in the table (marked so here)
    flagged_collect = {s for s, r in collect.get("attention", {}).items() if r}
    scope = this_run | (set() if only else flagged_collect)
    attention = {s: rows[s]["attention_reason"] or "(no reason given)" for s in sorted(rows)
                 if rows[s].get("needs_attention") == "yes"}
    earlier = {s for s in attention if s not in scope}
    no_row = sorted(s for s in this_run if s not in rows)
    if attention:
        lines.append("")
        lines.append(f"NEEDS ATTENTION ({_n(len(attention), 'student')}): marked from what the "
                     "run recorded, or not at all; look at each before publishing the grades"
                     + (f" ({len(earlier)} flagged by an earlier run, still flagged in "
                        "grades.csv)" if earlier else ""))
        lines += [f"  !! {s}: {why}" + ("  (from an earlier run)" if s in earlier else "")
                  for s, why in attention.items()]
    if no_row and not failed:
        lines.append("")
        lines.append(f"NO ROW IN grades.csv ({len(no_row)}): " + ", ".join(no_row))
    flagged = {s: r for s, r in collect.get("attention", {}).items()
               if r and s not in rows and not only}
    if flagged:
        lines.append("")
        lines.append(f"COLLECTION FLAGS WITHOUT A ROW ({_n(len(flagged), 'student')}): "
                     "not on the roster, so not in the grade table")
        for s, events in sorted(flagged.items()):
            lines += [f"  !! {s}: {e}" for e in events]
    absent = sorted(set(only) - this_run)
    kept = [s for s in absent if os.path.isdir(os.path.join(course, "submitted", s, aid))]
    if kept:
        lines.append("")
        lines.append(f"regraded from the file collected before ({len(kept)}): no new file of "
                     + ", ".join(kept) + " was collected from this submissions folder")
    absent = [s for s in absent if s not in kept]
    if absent:
        lines.append("")
        lines.append(f"NOT REGRADED ({len(absent)}): no submission of "
                     + ", ".join(absent) + " was collected, from this submissions folder "
                     "or before")
    graded = set(runs)
    if roster and not only:
        # a submission collected by an earlier run (another download) is still
        # the student's: it is in submitted/ and the gradebook, and graded
        submitted = os.path.join(course, "submitted")
        before = {s for s in (os.listdir(submitted) if os.path.isdir(submitted) else [])
                  if os.path.isdir(os.path.join(submitted, s, aid))} - this_run
        # a student whose row is flagged (e.g. an upload not unpacked, by this
        # run or an earlier one) is under NEEDS ATTENTION, never a plain
        # "no submission"
        missing = sorted(set(roster.students) - this_run - graded - before - set(attention))
        kept = sorted(before & set(roster.students))
        if kept:
            lines.append("")
            lines.append(f"collected by an earlier run and kept ({len(kept)}): "
                         + ", ".join(kept))
        if missing:
            lines.append("")
            lines.append(f"no submission ({len(missing)}): " + ", ".join(missing))
    if runs:
        # the points grades.csv holds (the gradebook's), not the runs' own count
        pts = [_float(rows.get(s, {}).get("autograded")) for s in runs]
        top = max(_float(rows.get(s, {}).get("autograded_max")) for s in runs)
        top = f"{top:g}"
        times = [r.get("seconds", 0) for r in runs.values()]
        cpu = [r.get("sandbox", {}).get("cpu", 0) or 0 for r in runs.values()]
        lines.append("")
        lines.append(f"autograded: {len(runs)} submissions, mean {sum(pts) / len(pts):.1f} of "
                     f"{top} points; per submission {sum(times) / len(times):.1f} s "
                     f"(sandbox CPU {sum(cpu) / len(cpu):.1f} s)")
    lines.append(f"time: {seconds:.0f} s in all")
    if failed:
        lines.append("")
        lines.append("nbgrader reported errors in: " + ", ".join(failed)
                     + f" (see reports/{aid}-nbgrader.log)")
    lines.append(f"grades: {os.path.join(course, 'grades', aid + '.csv')} (this assignment; "
                 f"Canvas import: {aid}-canvas.csv beside it), "
                 f"{os.path.join(course, 'grades.csv')} (every assignment); feedback: "
                 f"{os.path.join(course, 'feedback')}/<student id>/{aid}/")
    text = sanitize.printable("\n".join(lines)) + "\n"    # file names are the students'
    with open(os.path.join(course, "reports", f"{aid}-report.txt"), "w",
              encoding="utf-8", errors="backslashreplace") as fh:
        fh.write(text)
    return text


def _float(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return 0.0


def default_jobs():
    import psutil
    return max(1, min(os.cpu_count() or 1, psutil.virtual_memory().total // (4 << 30)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course")
    parser.add_argument("assignment")
    parser.add_argument("submissions")
    parser.add_argument("--roster", default="",
                        help="CSV: student_id[, name, lms_id, email], or one id a line "
                             "(the roster of make release ROSTER=)")
    parser.add_argument("--force", action="store_true",
                        help="autograde every submission afresh")
    parser.add_argument("--student", action="append", default=[],
                        help="regrade this student only (repeat, or give a comma-separated "
                             "list): their submission is collected and autograded afresh; "
                             "hand marks and comments given in the formgrader are kept, "
                             "no other student is graded again")
    parser.add_argument("--jobs", type=int, default=0,
                        help="submissions graded at once (default: one per core, at most "
                        "one per 4 GiB of memory)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        backend = sandbox.check(install=True)
    except sandbox.SandboxUnavailable as err:
        print(f"make grade: cannot grade safely on this machine: {err}", file=sys.stderr)
        return 3
    print(f"grading sandbox: {backend}", flush=True)
    course, aid = os.path.abspath(args.course), args.assignment
    if not os.path.isdir(os.path.join(course, "release", aid)):
        print(f"no release of {aid} in {course}: run make release ASSIGNMENT={aid} first",
              file=sys.stderr)
        return 2
    only = sorted({s.strip() for arg in args.student for s in arg.split(",") if s.strip()})
    # one grader per course folder at a time (the gradebook, submitted/,
    # autograded/ are shared); graders of other course folders run side by side
    import fcntl
    guard = open(os.path.join(course, ".grading.lock"), "a+")
    try:
        fcntl.flock(guard, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        guard.seek(0)
        who = guard.read().strip()
        print(f"make grade: another grader is working on {course} ({who or 'running'}); "
              "wait until it has finished, then run make grade again", file=sys.stderr)
        return 4
    guard.seek(0)
    guard.truncate()
    guard.write(f"pid {os.getpid()}, {aid}, since {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
    guard.flush()
    os.makedirs(os.path.join(course, "reports", aid), exist_ok=True)
    for name in ("collect.json",):
        path = os.path.join(course, "reports", aid, name)
        if os.path.exists(path):
            os.remove(path)
    sandbox.cache_dir()
    roster = load_roster(course, args.roster)
    unknown = [s for s in only if roster and s not in roster.students]
    if unknown:
        print(f"make grade: STUDENT {', '.join(unknown)} is not on the roster",
              file=sys.stderr)
        return 2
    downloaded = os.path.join(course, "downloaded", aid)
    shutil.rmtree(downloaded, ignore_errors=True)
    skipped = copy_submissions(args.submissions, os.path.join(downloaded, "archive"))
    failed = []
    with open(os.path.join(course, "reports", f"{aid}-nbgrader.log"), "w",
              encoding="utf-8", errors="backslashreplace") as log:
        jobs = args.jobs or default_jobs()
        steps = [["zip_collect", aid, "--force"],
                 ["autograde", aid],
                 ["generate_feedback", aid, "--force"],
                 ["export", "--to", os.path.join(course, "grades.csv")]]
        if len(only) == 1:
            steps[2].append(f"--student={only[0]}")
        broken = {}
        again, unknown, hand, aside = [], [], set(), []
        try:
            for step in steps:
                print(f"nbgrader {step[0]} ..." + (f" ({jobs} at a time)"
                                                    if step[0] == "autograde" else ""),
                      flush=True)
                began = time.monotonic()
                if step[0] == "autograde":
                    print("  time limits: " + time_limits(course, aid), flush=True)
                    submitted = os.path.join(course, "submitted")
                    pending = {s for s in (os.listdir(submitted) if os.path.isdir(submitted)
                                           else [])
                               if not os.path.isdir(os.path.join(course, "autograded", s,
                                                                 aid))}
                    rc, broken = autograde(course, aid, args.force, jobs, log, only, again)
                    note_failures(course, aid, broken)
                    if only:
                        ran = set(only)
                    elif args.force:
                        ran = set(os.listdir(submitted)) if os.path.isdir(submitted) else set()
                    else:
                        ran = pending | set(again)
                    record_graded(course, aid, sorted(ran - set(broken) - set(aside)),
                                  sorted(set(broken) | set(aside)))
                    for sid in sorted(hand & set(again)):
                        note_attention(course, aid, sid, REGRADED_HAND)
                    for sid in unknown:
                        note_attention(course, aid, sid, unknown_reason(aid, sid))
                    if broken and set(_this_run(course, aid, only)) - set(broken):
                        rc = 0     # failures of single submissions: named in the report and
                        #            grades.csv; the step as such worked for the others
                elif step[0] == "generate_feedback" and len(only) == 1 and not os.path.isdir(
                        os.path.join(course, "autograded", only[0], aid)):
                    rc = 0        # nothing of theirs graded (set aside?): no feedback to make
                    print(f"  (no graded submission of {only[0]}: no feedback made)",
                          flush=True)
                else:
                    rc = nbgrader(course, step, log)
                if step[0] == "zip_collect":
                    # collected into submitted/: what was unpacked goes, whatever happened
                    shutil.rmtree(downloaded, ignore_errors=True)
                    unusable, aside = {}, []
                    try:                   # what a student wrote is data
                        sanitize.sanitize_submitted(course, aid, log, unusable)
                        aside = set_aside(course, aid, unusable)  # one file stops no one
                    except Exception as err:
                        print(f"  (checking the collected notebooks failed: "
                              f"{type(err).__name__}: {err})", flush=True)
                        failed.append("sanitize")
                    if aside:
                        print(f"  set aside, not graded: {', '.join(aside)} (a notebook "
                              "that cannot be repaired; see the report)", flush=True)
                    # a new file of a student graded before: nbgrader would keep the
                    # old mark, so they are graded afresh (hand marks kept, flagged)
                    again, unknown = changed_submissions(
                        course, aid, [s for s in _this_run(course, aid, only)
                                      if s not in aside])
                    hand = hand_marked(course, aid, again)
                print(f"  ({step[0]}: {time.monotonic() - began:.0f} s)", flush=True)
                if rc != 0:
                    failed.append(step[0])
        except KeyboardInterrupt:
            print("\nmake grade: interrupted. This run's grades are incomplete and no report "
                  "was written; run the same make grade again: the submissions whose grading "
                  "had finished are kept (its report asks to check them for a newer file), "
                  "the rest are graded then.", file=sys.stderr, flush=True)
            return 130
        finally:
            shutil.rmtree(downloaded, ignore_errors=True)
    print()
    print(report(course, aid, roster, skipped, time.monotonic() - start, failed, backend,
                 only=only, again=again, unknown=unknown), end="")
    return 1 if failed else 0


# the reference solution is timed again when its last timing on this machine
# is older than this (seconds); the wall-clock limits follow the load anyway
REFERENCE_MAX_AGE = 3600


def time_limits(course, aid):
    """Time the reference solution in the sandbox (once per version of it, and
    again after an hour) and say what each submission may take."""
    root = os.path.dirname(os.path.dirname(HERE))
    for path in (os.path.join(root, "tests"), os.path.join(root, "course")):
        if path not in sys.path:          # the reference answers, as the course's config does
            sys.path.insert(0, path)
    import nbgrader_plugins as plugins
    lease = sandbox.UidLease(1) if sandbox.needs_uids() else None
    old = os.environ.get("AUKGRADE_UIDS")
    try:
        if lease is not None:
            os.environ.update(lease.env())
        reference = plugins.reference_run(course, aid, max_age=REFERENCE_MAX_AGE)
    except Exception as err:          # the default limits apply; say why
        reference = None
        print(f"  (timing the reference solution failed: {type(err).__name__}: {err})")
    finally:
        if lease is not None:
            lease.release()
            if old is None:
                os.environ.pop("AUKGRADE_UIDS", None)
            else:
                os.environ["AUKGRADE_UIDS"] = old
    limits = sandbox.Limits.from_env()
    if reference and os.environ.get("AUKGRADE_PROPORTIONATE", "1") != "0":
        limits = plugins.proportionate_limits(limits, reference,
                                              plugins._limit_names_set({}),
                                              load=plugins.machine_load())
    return plugins.describe_limits(limits, reference)


def _this_run(course, aid, only):
    if only:
        return only
    try:
        with open(os.path.join(course, "reports", aid, "collect.json"), encoding="utf-8") as fh:
            return [m["student_id"] for m in json.load(fh).get("collected", [])]
    except (OSError, ValueError, KeyError, TypeError):
        return []


if __name__ == "__main__":
    raise SystemExit(main())
