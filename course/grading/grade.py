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
   graded before is kept (its hand marks too) unless ``--force``;
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
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lms  # noqa: E402
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


def _start(course, args):
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
               + os.environ.get("PATH", ""))
    return subprocess.Popen([sys.executable, "-m", "nbgrader"] + args, cwd=course, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _relay(proc, log, lock=None):
    for line in proc.stdout:
        if lock:
            lock.acquire()
        log.write(line)
        if "[grading]" in line:
            print("  " + sanitize.printable(line.split("[grading]", 1)[1].strip()), flush=True)
        if lock:
            lock.release()
    return proc.wait()


def nbgrader(course, args, log):
    log.write(f"\n$ nbgrader {' '.join(args)}\n")
    log.flush()
    return _relay(_start(course, args), log)


def autograde(course, aid, force, jobs, log):
    """``nbgrader autograde`` in ``jobs`` processes, each with its share of the
    students (the others excluded) and its own sandbox user id."""
    import threading
    submitted = os.path.join(course, "submitted")
    students = sorted(s for s in os.listdir(submitted)
                      if os.path.isdir(os.path.join(submitted, s, aid))) \
        if os.path.isdir(submitted) else []
    jobs = max(1, min(jobs, len(students)))
    groups = [students[i::jobs] for i in range(jobs)]
    lock = threading.Lock()
    procs = []
    for slot, group in enumerate(groups):
        others = sorted(set(students) - set(group))
        args = ["autograde", aid, f"--SandboxedExecute.slot={slot}"]
        if others:
            args.append("--CourseDirectory.student_id_exclude=" + ",".join(others))
        if force:
            args.append("--force")
        log.write(f"\n$ nbgrader {' '.join(args[:3])} ({len(group)} students)\n")
        procs.append(_start(course, args))
    threads = [threading.Thread(target=_relay, args=(p, log, lock)) for p in procs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return max((p.returncode for p in procs), default=0)


def _n(count, noun):
    return f"{count} {noun}" + ("" if count == 1 else "s")


def report(course, aid, roster, skipped, seconds, failed, backend):
    folder = os.path.join(course, "reports", aid)
    collect = {}
    try:
        with open(os.path.join(folder, "collect.json"), encoding="utf-8") as fh:
            collect = json.load(fh)
    except (OSError, ValueError):
        pass
    runs = {}
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(".json") and name != "collect.json":
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                runs[name[:-5]] = json.load(fh)
    collected = collect.get("collected", [])
    this_run = {m["student_id"] for m in collected}
    runs = {s: r for s, r in runs.items() if s in this_run}
    lines = [f"Grading report: {aid} ({time.strftime('%Y-%m-%d %H:%M')})",
             f"sandbox: {backend}",
             f"roster: {len(roster.students)} students" if roster else
             "roster: none (only folders named by student id can be matched; "
             "give ROSTER=roster.csv)",
             f"files: {len(collected)} collected, {len(collect.get('superseded', []))} "
             f"superseded by a newer copy, {len(collect.get('unmatched', []))} NOT MATCHED, "
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
        lines += [f"  !! {m['path']}: {m['how']}" for m in unmatched]
    claims = collect.get("claims", [])
    if claims:
        lines.append("")
        lines.append(f"NAMED FOR ANOTHER STUDENT ({len(claims)}): a file inside one student's "
                     "upload whose name claims another student; not graded, never credited "
                     "to the student it names, the uploader's row flagged")
        lines += [f"  !! {m['path']}: uploaded by {m['owner']}, names {m['claims']}"
                  for m in claims]
    for title, items in (("SKIPPED", skipped + [tuple(x) for x in collect.get("skipped", [])]),):
        if items:
            lines.append("")
            lines.append(f"{title} ({len(items)}):")
            lines += [f"  - {p}: {why}" for p, why in items]
    superseded = collect.get("superseded", [])
    if superseded:
        lines.append("")
        lines.append("superseded (an older copy of the same student's notebook):")
        lines += [f"  - {m['path']} ({m['student_id']})" for m in superseded]
    late = [m for m in collected if m.get("late")]
    if late:
        lines.append("")
        lines.append("late (marked so by the LMS): " + ", ".join(m["student_id"] for m in late))
    for key, title in (("tampering", "TAMPERING ({}): locked or graded cells were changed; "
                        "the instructor's versions were restored before grading"),
                       ("attention", "NEEDS ATTENTION ({}): marked from the answers recorded "
                        "before the run stopped")):
        flagged = {s: r[key] for s, r in runs.items() if r.get(key)}
        if flagged:
            lines.append("")
            lines.append(title.format(_n(len(flagged), "student")))
            for s, events in flagged.items():
                lines += [f"  !! {s}: {e}" for e in events]
    flagged = {s: r for s, r in collect.get("attention", {}).items() if r}
    if flagged:
        lines.append("")
        lines.append(f"COLLECTION NEEDS ATTENTION ({_n(len(flagged), 'student')}): flagged "
                     "in the grade table")
        for s, events in sorted(flagged.items()):
            lines += [f"  !! {s}: {e}" for e in events]
    graded = set(runs)
    if roster:
        # a submission collected by an earlier run (another download) is still
        # the student's: it is in submitted/ and the gradebook, and graded
        submitted = os.path.join(course, "submitted")
        before = {s for s in (os.listdir(submitted) if os.path.isdir(submitted) else [])
                  if os.path.isdir(os.path.join(submitted, s, aid))} - this_run
        missing = sorted(set(roster.students) - this_run - graded - before)
        kept = sorted(before & set(roster.students))
        if kept:
            lines.append("")
            lines.append(f"collected by an earlier run and kept ({len(kept)}): "
                         + ", ".join(kept))
        if missing:
            lines.append("")
            lines.append(f"no submission ({len(missing)}): " + ", ".join(missing))
    if runs:
        pts = [r.get("points", 0) for r in runs.values()]
        top = max(r.get("max_points", 0) for r in runs.values())
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
              encoding="utf-8") as fh:
        fh.write(text)
    return text


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
                        help="autograde every submission afresh (hand marks are lost)")
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
    os.makedirs(os.path.join(course, "reports", aid), exist_ok=True)
    for name in ("collect.json",):
        path = os.path.join(course, "reports", aid, name)
        if os.path.exists(path):
            os.remove(path)
    sandbox.cache_dir()
    roster = load_roster(course, args.roster)
    downloaded = os.path.join(course, "downloaded", aid)
    shutil.rmtree(downloaded, ignore_errors=True)
    skipped = copy_submissions(args.submissions, os.path.join(downloaded, "archive"))
    failed = []
    with open(os.path.join(course, "reports", f"{aid}-nbgrader.log"), "w",
              encoding="utf-8") as log:
        jobs = args.jobs or default_jobs()
        steps = [["zip_collect", aid, "--force"],
                 ["autograde", aid],
                 ["generate_feedback", aid, "--force"],
                 ["export", "--to", os.path.join(course, "grades.csv")]]
        try:
            for step in steps:
                print(f"nbgrader {step[0]} ..." + (f" ({jobs} at a time)"
                                                    if step[0] == "autograde" else ""),
                      flush=True)
                rc = (autograde(course, aid, args.force, jobs, log) if step[0] == "autograde"
                      else nbgrader(course, step, log))
                if step[0] == "zip_collect":
                    # collected into submitted/: what was unpacked goes, whatever happened
                    shutil.rmtree(downloaded, ignore_errors=True)
                    sanitize.sanitize_submitted(course, aid, log)   # what a student wrote is data
                if rc != 0:
                    failed.append(step[0])
        finally:
            shutil.rmtree(downloaded, ignore_errors=True)
    print()
    print(report(course, aid, roster, skipped, time.monotonic() - start, failed, backend),
          end="")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
