"""Whose is this file?  Submissions as learning-management systems export them.

An LMS renames what a student uploads.  The patterns below are those of the
bulk downloads ("download all submissions") of the three common systems:

* Moodle: a folder per student, ``Jane Doe_123456_assignsubmission_file_/``
  holding the file under the name the student gave it (or, with "download
  submissions in folders" off, one flat file
  ``Jane Doe_123456_assignsubmission_file_ch05_threshold.ipynb``); 123456 is
  Moodle's participant id (the "Identifier" of its grading worksheet);
* Canvas: ``doejane_123456_7890123_ch05_threshold.ipynb``, that is the login
  name (surname and given name run together, lower case), the Canvas user id,
  the submission id and the file name; a late submission has ``_LATE`` after
  the name (``doejane_LATE_123456_7890123_...``), and a resubmitted file gets
  ``-1``, ``-2`` ... before its extension;
* Blackboard ("Assignment File Download"):
  ``ch05_threshold_s001_attempt_2026-10-01-12-00-00_ch05_threshold.ipynb``,
  the assignment's name, the username, the attempt's time stamp and the file
  name (nbgrader's own documentation uses this example), beside a ``.txt``
  receipt ``..._attempt_2026-10-01-12-00-00.txt``;
* plain: a folder (or a zip file) named by the student id, holding the notebook.

A browser that downloads a file twice adds `` (1)``, `` (2)``: those are
removed too.  The person is found in the roster (``roster.csv``: columns
``student_id``, ``name``, ``lms_id`` and ``email``, see :func:`read_students`; ``lms_id`` may hold several
ids separated by spaces or semicolons, e.g. a Canvas user id and a Moodle
participant id): by LMS id, by Blackboard username (an LMS id, or the part of
the email before the @), by Canvas login name or Moodle full name (when one
student alone has that name).  Without a roster only the plain layout can be
matched.  What cannot be matched is reported, never guessed.
"""

import csv
import dataclasses
import os
import re
import unicodedata

MOODLE = re.compile(r"^(?P<name>.+?)_(?P<lms>\d+)_assign(?:submission|feedback)_"
                    r"(?:file|onlinetext)_(?P<rest>.*)$")
CANVAS = re.compile(r"^(?P<login>[a-z0-9]+?)(?P<late>_LATE)?_(?P<lms>\d+)_(?P<sub>\d+)_"
                    r"(?P<rest>.+)$")
BLACKBOARD = re.compile(r"^(?P<prefix>.+)_attempt_(?P<ts>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)"
                        r"(?:_(?P<rest>.+))?$")
BROWSER_COPY = re.compile(r"^(?P<stem>.*?)(?: \((?P<n>\d+)\))+$")
CANVAS_RESUBMIT = re.compile(r"^(?P<stem>.*?)-(?P<n>\d+)$")
PLAIN_ID = re.compile(r"^[\w.@+-]+$")


def _key(text):
    """Names compared without case, accents, spaces or punctuation."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text.lower() if c.isalnum())


@dataclasses.dataclass
class Student:
    student_id: str
    name: str = ""
    lms_ids: tuple = ()
    email: str = ""


class Roster:
    """The class list: student id, name, LMS ids, email."""

    def __init__(self, students=()):
        self.students = {s.student_id: s for s in students}
        self._by_lms, self._by_name = {}, {}
        for s in self.students.values():
            keys = set(s.lms_ids)
            if s.email:
                keys |= {s.email.lower(), s.email.split("@")[0].lower()}
            for k in keys:
                self._by_lms.setdefault(k.lower(), set()).add(s.student_id)
            parts = s.name.split()
            names = {_key(s.name)}
            if len(parts) >= 2:        # Canvas: surname first, then given names
                names.add(_key(parts[-1] + "".join(parts[:-1])))
                names.add(_key(" ".join(parts[1:]) + parts[0]))
            for k in names:
                if k:
                    self._by_name.setdefault(k, set()).add(s.student_id)

    def __bool__(self):
        return bool(self.students)

    @classmethod
    def read(cls, path):
        """The roster of ``path`` (:func:`read_students`); empty without a file."""
        if not path or not os.path.exists(path):
            return cls()
        return cls(read_students(path))

    def by_lms(self, key):
        found = self._by_lms.get(key.lower(), set())
        return next(iter(found)) if len(found) == 1 else None

    def by_name(self, name):
        found = self._by_name.get(_key(name), set())
        return next(iter(found)) if len(found) == 1 else None


@dataclasses.dataclass
class Match:
    path: str                  # relative to the folder of submissions
    student_id: str = None     # None: not matched
    notebook: str = None       # the released notebook's name this file is
    how: str = ""              # which pattern, or why it failed
    late: bool = False         # the LMS marked it late (Canvas)
    timestamp: str = None      # the LMS's time stamp (Blackboard), ISO
    copy: int = 0              # browser/Canvas copy number (higher: newer)
    candidate_id: str = None   # the student, when only the notebook's name is unknown


def read_students(path):
    """The students of a roster file: the one format ``make release ROSTER=``,
    ``make grade ROSTER=`` and ``course/make_rubric_sheets.py`` all read.

    Either a CSV file whose header has a ``student_id`` column (and, for
    matching LMS downloads, ``name``, ``lms_id``, ``email``; other columns are
    ignored), or a text file with one student id a line (blank lines and lines
    beginning with ``#`` are skipped).  A file with commas but no
    ``student_id`` column is an error, never a list of odd ids.
    """
    with open(path, newline="", encoding="utf-8-sig") as fh:
        text = fh.read()
    lines = [line for line in text.splitlines() if line.strip()]
    rows = list(csv.DictReader(lines)) if lines else []
    header = [c.strip() for c in (next(csv.reader(lines[:1]), []) if lines else [])]
    if "student_id" in header:
        rows = [{(k or "").strip(): v for k, v in row.items()} for row in rows]
    elif any("," in line for line in lines if not line.lstrip().startswith("#")):
        raise ValueError(f"{path}: a CSV roster needs a header with a student_id column "
                         "(and name, lms_id, email for LMS downloads); got "
                         f"{', '.join(header)}")
    else:
        rows = [{"student_id": line} for line in lines
                if not line.lstrip().startswith("#")]
    out, seen = [], set()
    for row in rows:
        sid = (row.get("student_id") or "").strip()
        if not sid or sid.startswith("#") or sid in seen:
            continue
        seen.add(sid)
        ids = tuple(x for x in re.split(r"[;\s]+", row.get("lms_id") or "") if x)
        out.append(Student(sid, (row.get("name") or "").strip(), ids,
                           (row.get("email") or "").strip()))
    if not out:
        raise ValueError(f"{path}: no student ids")
    return out


def normalise_file_name(name):
    """``ch05_threshold (1).ipynb`` -> (``ch05_threshold.ipynb``, 1)."""
    stem, ext = os.path.splitext(name)
    copy = 0
    m = BROWSER_COPY.match(stem)
    if m:
        stem, copy = m.group("stem"), int(m.group("n"))
    return stem.strip() + ext, copy


def _released_name(name, released):
    """The released notebook ``name`` stands for, and its copy number."""
    fixed, copy = normalise_file_name(name)
    if fixed in released:
        return fixed, copy
    stem, ext = os.path.splitext(fixed)
    m = CANVAS_RESUBMIT.match(stem)
    if m and m.group("stem") + ext in released:
        return m.group("stem") + ext, max(copy, int(m.group("n")))
    return None, copy


def match_file(relpath, roster, released):
    """Who submitted ``relpath`` (a path below the submissions folder) and which
    released notebook it is; a :class:`Match` whose ``student_id`` is None when
    the file cannot be attributed."""
    parts = relpath.replace(os.sep, "/").split("/")
    filename = parts[-1]
    result = Match(relpath)
    # innermost component first: a file name that carries the LMS pattern
    candidates = [(filename, True)] + [(p, False) for p in reversed(parts[:-1])]
    for component, is_file in candidates:
        comp = normalise_file_name(component)[0] if not is_file else component
        m = MOODLE.match(comp)
        if m:
            rest = m.group("rest")
            nb_name, copy = _released_name(rest if is_file else filename, released)
            sid, by = _who(roster, m.group("lms"), m.group("name"))
            return _finish(result, sid, nb_name, copy,
                           f"Moodle ({m.group('name')}, participant {m.group('lms')}{by})")
        m = BLACKBOARD.match(comp)
        if m:
            rest = m.group("rest") if is_file else filename
            nb_name, copy = _released_name(rest or "", released)
            pieces = m.group("prefix").split("_")
            # the username is the end of the prefix, and may hold underscores
            found = {roster.by_lms(u) or (u if u in roster.students else None)
                     for u in ("_".join(pieces[i:]) for i in range(len(pieces)))} - {None}
            sid = found.pop() if len(found) == 1 else None
            ts = m.group("ts")
            result.timestamp = f"{ts[:10]} {ts[11:13]}:{ts[14:16]}:{ts[17:19]}"
            return _finish(result, sid, nb_name, copy, f"Blackboard (attempt {ts})"
                           + (": more than one student matches" if len(found) else ""))
        m = CANVAS.match(comp)
        if m:
            rest = m.group("rest") if is_file else filename
            nb_name, copy = _released_name(rest, released)
            sid, by = _who(roster, m.group("lms"), m.group("login"))
            result.late = bool(m.group("late"))
            return _finish(result, sid, nb_name, copy,
                           f"Canvas ({m.group('login')}, user {m.group('lms')}{by})")
    # plain: the first folder below the submissions folder (a zip's name included)
    nb_name, copy = _released_name(filename, released)
    if len(parts) >= 2:
        top = os.path.splitext(parts[0])[0] if parts[0].endswith(".zip") else parts[0]
        top = normalise_file_name(top)[0]
        if PLAIN_ID.match(top) and (not roster or top in roster.students):
            return _finish(result, top, nb_name, copy, "folder named by student id")
        if roster and (roster.by_lms(top) or roster.by_name(top)):
            return _finish(result, roster.by_lms(top) or roster.by_name(top), nb_name,
                           copy, "folder named by LMS id or name")
        result.how = (f"the folder {top!r} is not a student id of the roster"
                      if roster else f"{top!r} is not a plain student id")
        return result
    result.how = "a file outside any student's folder, with no LMS name pattern"
    return result


def _who(roster, lms_id, name):
    """The roster's student with this LMS id, else the one student with this name."""
    sid = roster.by_lms(lms_id)
    if sid:
        return sid, ""
    sid = roster.by_name(name)
    return sid, (", matched by name: the roster has not this LMS id" if sid else "")


def _finish(result, sid, nb_name, copy, how):
    result.copy = copy
    result.how = how
    if sid is None:
        result.how = how if how.endswith("matches") else how + ": no student of the roster matches"
        return result
    if nb_name is None:
        result.candidate_id = sid
        result.how = how + ": not a notebook of this assignment (renamed?)"
        return result
    result.student_id, result.notebook = sid, nb_name
    return result


def choose(matches):
    """One file per (student, notebook): the newest (LMS time stamp, then copy
    number); the others are returned as superseded."""
    best, superseded = {}, []
    for m in matches:
        if m.student_id is None:
            continue
        key = (m.student_id, m.notebook)
        old = best.get(key)
        rank = (m.timestamp or "", m.copy, m.path)
        if old is None:
            best[key] = m
        elif rank > (old.timestamp or "", old.copy, old.path):
            superseded.append(old)
            best[key] = m
        else:
            superseded.append(m)
    return best, superseded
