"""Whose is this file?  Submissions as learning-management systems export them.

An LMS renames what a student uploads.  The patterns below are those of the
bulk downloads ("download all submissions") of the three common systems:

* Moodle: a folder per student, ``Jane Doe_123456_assignsubmission_file_/``
  holding the file under the name the student gave it (or, with "download
  submissions in folders" off, one flat file
  ``Jane Doe_123456_assignsubmission_file_ch05_threshold.ipynb``); 123456 is
  Moodle's participant id (the "Identifier" of its grading worksheet);
* Canvas: ``doejane_123456_7890123_ch05_threshold.ipynb``, that is the login
  name (surname and given name run together, lower case, letters of any
  alphabet), the Canvas user id, the submission's file id and the file name;
  a late submission has ``_late`` (older Canvas: ``_LATE``) after the name
  (``doejane_late_123456_7890123_...``), and a resubmitted file gets ``-1``,
  ``-2`` ... before its extension;
* Blackboard ("Assignment File Download"):
  ``ch05_threshold_s001_attempt_2026-10-01-12-00-00_ch05_threshold.ipynb``,
  the assignment's name, the username, the attempt's time stamp and the file
  name (nbgrader's own documentation uses this example), beside a ``.txt``
  receipt ``..._attempt_2026-10-01-12-00-00.txt``;
* plain: a folder (or a zip file) named by the student id, holding the notebook.

Whose a file is comes from the LMS, never from the student: an *upload* is
a Moodle folder (or flat Moodle file), a Canvas or Blackboard file (an
archive among them unpacked into a folder of the same name), or a folder
named for a student of the roster, found at the top of the submissions
folder or one level down (inside a bulk download's zip or folder, a
*container*: a top-level folder or archive that is neither an upload nor a
student).  Only the LMS's prefix of an upload's name says whose it is: the
first LMS prefix of the name (a student controls what follows it, the file
name they chose).  Nothing inside an upload -- the part of a flat file's name
after the LMS prefix, the names of the folders and files in it -- changes
whose it is.  A name inside an upload that claims *another* student of the
roster (an LMS name of theirs, their id) is reported, and that file is
neither credited to them nor graded (:attr:`Match.claims`).

A browser that downloads a file twice adds `` (1)``, `` (2)``: those are
removed too.  The person is found in the roster (``roster.csv``: columns
``student_id``, ``name``, ``lms_id`` and ``email``, see :func:`read_students`; ``lms_id`` may hold several
ids separated by spaces or semicolons, e.g. a Canvas user id and a Moodle
participant id): by LMS id, by Blackboard username (an LMS id, or the part of
the email before the @), by Canvas login name or Moodle full name (when one
student alone has that name, and the roster gives that student no LMS id: an
upload named like a student with LMS ids but carrying another id is never
theirs, :attr:`Match.named_like`).  Names and ids are compared after Unicode
normalisation (NFKC) and case folding, so ``núñezjosé`` (composed or not)
is José Núñez; a name that matches nobody exactly is tried without accents,
when one student alone then has it.  Roster entries that normalise alike
are listed by :attr:`Roster.collisions` and matched by LMS id only.
Without a roster only the plain layout can be matched.  What cannot be
matched is reported, never guessed.
"""

import csv
import dataclasses
import os
import re
import unicodedata

MOODLE = re.compile(r"^(?P<name>.+?)_(?P<lms>\d+)_assign(?:submission|feedback)_"
                    r"(?:file|onlinetext)_(?P<rest>.*)$")
MOODLE_INFIX = re.compile(r"_(?P<lms>\d+)_assign(?:submission|feedback)_(?:file|onlinetext)_")
# a login is letters and digits of any script (Canvas strips the rest)
CANVAS = re.compile(r"^(?P<login>[^\W_]+?)(?P<late>_(?i:late))?_(?P<lms>\d+)_(?P<sub>\d+)_"
                    r"(?P<rest>.+)$")
# the LMS's prefix ends at the FIRST "_attempt_<time stamp>": what follows is
# the student's own file name, which may hold a second one
BLACKBOARD = re.compile(r"^(?P<prefix>.+?)_attempt_(?P<ts>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)"
                        r"(?:_(?P<rest>.+)|(?P<receipt>\.txt))?$")
BROWSER_COPY = re.compile(r"^(?P<stem>.*?)(?: \((?P<n>\d+)\))+$")
CANVAS_RESUBMIT = re.compile(r"^(?P<stem>.*?)-(?P<n>\d+)$")
PLAIN_ID = re.compile(r"^[\w.@+-]+$")
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")


def _fold(text):
    """A name or id as compared: NFKC, case folded, letters and digits only."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in text if c.isalnum())


def _unaccented(key):
    return "".join(c for c in unicodedata.normalize("NFKD", key)
                   if not unicodedata.combining(c))


def _key(text):
    """Names compared without case, spaces or punctuation (accents kept)."""
    return _fold(text)


def _id_key(text):
    return unicodedata.normalize("NFKC", text.strip()).casefold()


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
        self._by_lms, self._by_name, self._by_plain_name = {}, {}, {}
        for s in self.students.values():
            keys = set(s.lms_ids)
            if s.email:
                keys |= {s.email, s.email.split("@")[0]}
            for k in keys:
                if k.strip():
                    self._by_lms.setdefault(_id_key(k), set()).add(s.student_id)
            parts = s.name.split()
            names = {_key(s.name)}
            if len(parts) >= 2:        # Canvas: surname first, then given names
                names.add(_key(parts[-1] + "".join(parts[:-1])))
                names.add(_key(" ".join(parts[1:]) + parts[0]))
            for k in names:
                if k:
                    self._by_name.setdefault(k, set()).add(s.student_id)
                    self._by_plain_name.setdefault(_unaccented(k), set()).add(s.student_id)
        self.collisions = self._collisions()

    def _collisions(self):
        """Roster entries that normalise alike: never matched by that key."""
        out = []
        for what, table in (("LMS id or email", self._by_lms), ("name", self._by_name),
                            ("name without accents", self._by_plain_name)):
            for k, sids in sorted(table.items()):
                if len(sids) > 1 and not (what == "name without accents" and any(
                        self._by_name.get(n) == sids for n in self._by_name
                        if _unaccented(n) == k)):
                    out.append(f"{', '.join(sorted(sids))} share the {what} {k!r}: files "
                               "are matched to them by LMS id only")
        return out

    def __bool__(self):
        return bool(self.students)

    @classmethod
    def read(cls, path):
        """The roster of ``path`` (:func:`read_students`); empty without a file."""
        if not path or not os.path.exists(path):
            return cls()
        return cls(read_students(path))

    def by_lms(self, key):
        found = self._by_lms.get(_id_key(key), set())
        return next(iter(found)) if len(found) == 1 else None

    def by_name(self, name):
        key = _key(name)
        if not key:
            return None
        found = self._by_name.get(key)
        if found is None:        # no exact match: the one student with it without accents
            found = self._by_plain_name.get(_unaccented(key), set())
        return next(iter(found)) if len(found) == 1 else None

    def by_id(self, name):
        """The student whose student id or LMS id ``name`` is."""
        name = unicodedata.normalize("NFC", name).strip()
        if name in self.students:
            return name
        return self.by_lms(name) if name else None


@dataclasses.dataclass
class Match:
    path: str                  # relative to the folder of submissions
    student_id: str = None     # None: not credited to anyone
    notebook: str = None       # the released notebook's name this file is
    how: str = ""              # which pattern, or why it failed
    late: bool = False         # the LMS marked it late (Canvas)
    timestamp: str = None      # the LMS's time stamp (Blackboard), ISO
    copy: int = 0              # browser/Canvas copy number (higher: newer)
    candidate_id: str = None   # the student, when only the notebook's name is unknown
    upload: str = None         # the upload (LMS folder or file) the file came in
    owner: str = None          # whose upload it is (the uploader), credited or not
    claims: str = None         # another student a name inside the upload claims
    order: int = 0             # the LMS's own file id (Canvas), higher: newer
    canvas_id: str = None      # the Canvas user id of a Canvas upload
    named_like: str = None     # not credited: named like this student, without their LMS id
    lms_id: str = None         # the LMS account (Moodle participant, Canvas user) it came from
    by_name: bool = False      # credited by a name alone (no id of the student's in it)
    ambiguous: list = dataclasses.field(default_factory=list)  # see _lms_name


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


@dataclasses.dataclass
class _Upload:
    student_id: str
    how: str
    rest: str = None           # a flat LMS file: the name the student gave it
    late: bool = False
    timestamp: str = None
    order: int = 0
    copy: int = 0
    canvas_id: str = None
    named_like: str = None     # the student its name alone matches, whose LMS id it lacks
    lms_id: str = None         # the LMS account it came from (Moodle, Canvas)
    by_name: bool = False      # matched by a name alone (a roster row without LMS id)
    ambiguous: tuple = ()      # named by more than one LMS's pattern: the students named


def _described(head, by):
    """``Moodle (name, participant 1`` and how it matched: a note inside the
    parentheses, a refusal (``: ...``) after them."""
    return head + ")" + by if by.startswith(":") else head + by + ")"


def _lms_name(name, roster, is_file=True):
    """The LMS upload ``name`` (a file's, or a folder's when not ``is_file``)
    is named as (for Moodle, see below), or None.  A name that the patterns
    of more than one LMS match, and that they give to different students (or
    to a student and to no one), cannot be told apart: a Moodle full name is
    the participant's own choice (``Carter_100001_100010`` reads as a Canvas
    prefix), and so is what follows a Canvas or Blackboard prefix; it is
    credited to no one and names the students it could be
    (``ambiguous``)."""
    name = unicodedata.normalize("NFC", name)
    found = []
    for kind, pattern, end in (("Moodle", MOODLE, "rest"), ("Canvas", CANVAS, "rest"),
                               ("Blackboard", BLACKBOARD, "ts")):
        m = pattern.match(name)
        if m:
            found.append((m.end(end) if end == "ts" else m.start(end), kind,
                          _lms_upload(kind, m, name, roster, is_file)))
    if not found:
        return None
    found = [(kind, up) for _, kind, up in sorted(found, key=lambda f: f[0])]
    owners = {up.student_id for _, up in found}
    if len(owners) > 1:
        named = sorted({s for _, up in found for s in (up.student_id, up.named_like) if s})
        ways = "; ".join(f"{kind}: {up.student_id or up.named_like or 'no student'}"
                         for kind, up in found)
        return _Upload(None, f"named by the patterns of {len(found)} LMSs ({ways}), which "
                       "give it to different students: whose it is cannot be told; not "
                       "credited to anyone, not graded", rest=None,
                       ambiguous=tuple(named))
    return found[0][1]


def _lms_upload(kind, m, name, roster, is_file):
    """The upload ``name`` is, read as ``kind``'s (``m``: its pattern's match)."""
    if kind == "Moodle":
        # Moodle writes "<full name>_<participant>_assignsubmission_file_", then
        # (flat) the file's own name; a participant may give themselves a full
        # name that holds another participant's suffix.  A folder's suffix is
        # its end; a flat file with two suffixes cannot be told apart.
        infixes = list(MOODLE_INFIX.finditer(name))
        if len(infixes) > 1:
            last = infixes[-1]
            if not is_file and last.end() == len(name):
                full, lms_id = name[:last.start()], last.group("lms")
                sid, by, like = _who(roster, lms_id, full, by_name=False)
                return _Upload(sid, _described(
                    f"Moodle ({full}, participant {lms_id}; its name holds another "
                    "participant's suffix, so only the last one, Moodle's, counts", by),
                    rest="", named_like=like, lms_id=lms_id)
            ids = [i.group("lms") for i in infixes]
            named = next((roster.by_lms(i) for i in ids if roster.by_lms(i)), None) \
                if roster else None
            return _Upload(None, f"Moodle (participants {', '.join(ids)}): the name holds "
                           "more than one Moodle participant's suffix, so whose upload it "
                           "is cannot be told; not credited to anyone, not graded",
                           rest=None, named_like=named)
        sid, by, like = _who(roster, m.group("lms"), m.group("name"))
        return _Upload(sid, _described(f"Moodle ({m.group('name')}, participant "
                                       f"{m.group('lms')}", by),
                       rest=m.group("rest"), named_like=like, lms_id=m.group("lms"),
                       by_name=by.startswith(", matched by name"))
    if kind == "Canvas":
        sid, by, like = _who(roster, m.group("lms"), m.group("login"))
        return _Upload(sid, _described(f"Canvas ({m.group('login')}, user {m.group('lms')}",
                                       by),
                       rest=m.group("rest"), late=bool(m.group("late")),
                       order=int(m.group("sub")), canvas_id=m.group("lms"), named_like=like,
                       lms_id=m.group("lms"), by_name=by.startswith(", matched by name"))
    pieces = m.group("prefix").split("_")
    # the username is the end of the prefix (after the assignment's name), and
    # may hold underscores
    found = {roster.by_id(u) for u in ("_".join(pieces[i:]) for i in range(len(pieces)))}
    found -= {None}
    ts = m.group("ts")
    return _Upload(found.pop() if len(found) == 1 else None,
                   f"Blackboard (attempt {ts})" + (": more than one student matches"
                                                   if len(found) else ""),
                   rest=m.group("rest") if not m.group("receipt") else None,
                   timestamp=f"{ts[:10]} {ts[11:13]}:{ts[14:16]}:{ts[17:19]}")


def _folder_name(name):
    """A folder's (or an unpacked archive's) name without a browser copy number."""
    for suffix in ARCHIVE_SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[:-len(suffix)]
            break
    return normalise_file_name(name)


def _upload(component, is_file, roster, top):
    """The upload whose name ``component`` is (an LMS name, or a folder named
    for a student), or None: a container, or a loose file."""
    name, copy = (component, 0) if is_file else _folder_name(component)
    up = _lms_name(name, roster, is_file)
    if up is not None:
        up.copy = copy
        return up
    if is_file:
        return None
    if roster:
        sid = roster.by_id(name)
        if sid:
            return _Upload(sid, "folder named by student id" if sid == name.strip()
                           else "folder named by LMS id", copy=copy)
        sid = roster.by_name(name)
        return _Upload(sid, "folder named by name", copy=copy, by_name=True) if sid else None
    if top and PLAIN_ID.match(name):
        return _Upload(name, "folder named by student id", copy=copy)
    return None


def _claim(name, is_file, roster):
    """Whom a name chosen by the student (a file or folder inside an upload)
    names: (student id or None, how), or None when it names no one."""
    if not is_file:
        name = _folder_name(name)[0]
    up = _lms_name(name, roster, is_file)
    if up is not None:            # named like a student, with another LMS id: a claim too
        return up.student_id or up.named_like or next(iter(up.ambiguous), None), up
    if not is_file and roster and roster.by_id(name):
        return roster.by_id(name), _Upload(roster.by_id(name), "a folder named by their id")
    return None


def match_file(relpath, roster, released):
    """Who submitted ``relpath`` (a path below the submissions folder) and which
    released notebook it is; a :class:`Match` whose ``student_id`` is None when
    the file is credited to no one (``owner`` and ``claims`` then say whose
    upload it came in and whom a name inside it claimed)."""
    parts = unicodedata.normalize("NFC", relpath.replace(os.sep, "/")).split("/")
    result = Match(relpath)
    up = root = None
    for depth in (0, 1):                      # an upload, or one inside a container
        if depth >= len(parts):
            break
        is_file = depth == len(parts) - 1
        up = _upload(parts[depth], is_file, roster, top=depth == 0)
        if up is not None:
            root = depth
            break
        if is_file:
            result.how = ("a file outside any student's folder, with no LMS name pattern"
                          if depth == 0 else
                          f"a file in {parts[0]!r} (not a student of the roster) with no "
                          "LMS name pattern")
            return result
        if not roster:
            result.how = f"{parts[0]!r} is not a plain student id"
            return result
    if up is None:
        result.how = (f"the folder {parts[0]!r} is not a student id of the roster, nor is "
                      f"{parts[1]!r} in it an LMS upload or a student of the roster")
        return result
    result.upload = "/".join(parts[:root + 1])
    result.owner = up.student_id
    result.late, result.timestamp, result.order = up.late, up.timestamp, up.order
    result.canvas_id = up.canvas_id
    result.lms_id = up.lms_id
    result.by_name = up.by_name
    result.ambiguous = list(up.ambiguous)
    if up.student_id is None:
        result.named_like = up.named_like
        result.how = up.how if up.how.endswith("matches") or up.named_like or \
            up.ambiguous else up.how + ": no student of the roster matches"
        return result
    if root == len(parts) - 1:                 # a flat LMS file: the student named the rest
        chosen = [(up.rest or "", True)]
    else:
        chosen = [(p, False) for p in parts[root + 1:-1]] + [(parts[-1], True)]
    filename = chosen[-1][0]
    for name, is_file in chosen:
        claim = _claim(name, is_file, roster)
        if claim is None:
            continue
        sid, how = claim
        if how.ambiguous:                      # any student it may name but the uploader
            sid = next((s for s in how.ambiguous if s != up.student_id), None)
        if sid is not None and sid != up.student_id:
            result.claims = sid
            result.how = (f"{up.how}: the name {name!r} inside {up.student_id}'s upload "
                          f"claims {sid} ({how.how}); never credited to {sid}, not graded")
            return result
        if is_file and sid == up.student_id and how.rest:
            filename = how.rest                # their own LMS name, downloaded and sent again
    nb_name, copy = _released_name(filename, released)
    result.copy = max(copy, up.copy)
    result.how = up.how
    if nb_name is None:
        result.candidate_id = up.student_id
        result.how = up.how + ": not a notebook of this assignment (renamed?)"
        return result
    result.student_id, result.notebook = up.student_id, nb_name
    return result


def named_students(relpath, roster):
    """The students of the roster whom any folder or file name along
    ``relpath`` names (an LMS upload's name, a student id, LMS id or name), at
    any depth: whose a file that was not collected may be."""
    out = set()
    if not roster:
        return out
    parts = [p for p in relpath.replace(os.sep, "/").split("/") if p]
    for i, part in enumerate(parts):
        try:
            up = _upload(part, i == len(parts) - 1, roster, top=False)
        except Exception:            # a name no pattern can read names no one
            continue
        if up is not None:
            out |= {up.student_id, up.named_like, *up.ambiguous}
    return out - {None}


def uploader(relpath, roster):
    """Whose upload the folder or archive ``relpath`` is in (or is), or None."""
    return match_file(relpath.rstrip("/") + "/.", roster, set()).owner


def _who(roster, lms_id, name, by_name=True):
    """The roster's student with this LMS id, else the one student with this
    name -- if the roster gives them no LMS id: a student whose row has LMS
    ids is never matched by name to an upload with another one (anyone can
    call themselves John Smith; the LMS id is the LMS's).  Returns (student
    id or None, what to add to the upload's description, the student the
    name alone would have matched or None)."""
    sid = roster.by_lms(lms_id)
    if sid:
        return sid, "", None
    if not by_name:
        return None, "", None
    sid = roster.by_name(name)
    if sid is None:
        return None, "", None
    theirs = roster.students[sid].lms_ids
    if theirs:
        return None, (f": named like {sid}, but LMS id {lms_id} is not theirs (the roster "
                      f"gives {sid} {', '.join(theirs)}); not credited to {sid}, not "
                      "graded"), sid
    return sid, ", matched by name: the roster gives this student no LMS id", None


def two_accounts(best, superseded):
    """{student: the LMS ids} of each student whose chosen file and a file it
    superseded came from two LMS accounts: matched by name (a roster row
    without LMS ids), one of them may be somebody else's; flag, never decide
    silently."""
    out = {}
    for m in list(best.values()) + list(superseded):
        if m.student_id and m.lms_id:
            out.setdefault(m.student_id, set()).add(m.lms_id)
    return {sid: sorted(ids) for sid, ids in out.items() if len(ids) > 1}


def route(m):
    """How a credited file came to its student: the LMS account, a Blackboard
    upload, or a folder named by their id or by their name."""
    if m.lms_id:
        return f"LMS account {m.lms_id}" + (", matched by name only" if m.by_name else "")
    if m.timestamp:
        return "a Blackboard upload"
    return "a folder named by their " + ("name" if m.by_name else "id")


def mixed_routes(best, superseded):
    """{student: the routes} of each student whose candidate files came by
    more than one route (``route``), one of them a match by name alone (a
    roster row without LMS id: anyone of that name may have sent it); flag,
    never decide silently (``choose`` prefers the file that came by the
    student's id)."""
    out = {}
    for m in list(best.values()) + list(superseded):
        if m.student_id:
            out.setdefault(m.student_id, {})[route(m)] = m.by_name
    return {sid: sorted(routes) for sid, routes in out.items()
            if len(routes) > 1 and any(routes.values())}


def choose(matches):
    """One file per (student, notebook), among the files of that student's own
    uploads only: one that came by the student's id (a folder named by their
    student id or an LMS id of the roster's) before one matched by name
    alone, then the newest (LMS time stamp, then the LMS's file id, then the
    copy number, which the student chooses); the others are returned as
    superseded (``two_accounts`` names a student whose files came from two
    LMS accounts, ``mixed_routes`` one whose files came by an id and by a
    name)."""
    best, superseded = {}, []

    def rank(m):
        return (not m.by_name, m.timestamp or "", m.order, m.copy, m.path)

    for m in matches:
        if m.student_id is None:
            continue
        assert m.owner == m.student_id, m          # credited to the uploader only
        key = (m.student_id, m.notebook)
        old = best.get(key)
        if old is None:
            best[key] = m
        elif rank(m) > rank(old):
            superseded.append(old)
            best[key] = m
        else:
            superseded.append(m)
    return best, superseded
