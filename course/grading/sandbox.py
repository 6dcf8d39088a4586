"""Run one submission's notebook in a sandbox, outside the grader's reach.

A submission is untrusted code.  Each one runs in its own process tree,
inside bubblewrap (https://github.com/containers/bubblewrap, Debian package
``bubblewrap``):

* its own mount namespace, built from nothing: the system's ``/usr`` (read
  only), the Python installation and the virtual environment (read only), the
  sources of the packages the environment installs in editable mode
  (``auklib``, ``aukbook``; read only), the grader's two in-sandbox modules
  (``runner.py``, ``record.py``; read only), its own input folder (read only),
  a size-limited tmpfs as working folder and ``/tmp``, and one small output
  folder.  The repository is not mounted: no reference answer, chapter,
  course folder, gradebook or other submission exists inside;
* its own PID, IPC, UTS and network namespaces (no network, only loopback,
  which the Jupyter kernel uses);
* when the grader runs as root, the notebook runs as an unprivileged user id
  (``setpriv``) with no capabilities and ``no_new_privs``; otherwise bubblewrap
  runs unprivileged in a user namespace;
* resource limits: address space, file size and open files per process, the
  number of processes, and a watchdog in the grader (this module) that kills
  the whole sandbox when its processes together use more memory, processes,
  CPU time, wall time or output space than allowed.  Memory is what the
  sandbox holds, not only resident memory: shared memory that no RSS shows
  (memfd_create files, POSIX and SysV shared memory, files in the sandbox's
  tmpfs folders) counts too (see :class:`MemoryMeter`).

When the sandbox ends, every process in it ends (PID namespace).  What comes
out is data only (``out/records.jsonl``, ``out/executed.ipynb``,
``out/status.json``), read by the grader with ``O_NOFOLLOW`` and size limits
and never executed.

``python course/grading/sandbox.py --check`` says whether the sandbox works on
this machine and, as root on Debian, installs bubblewrap first.
"""

import dataclasses
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

import psutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# Paths of the instructor's material: none may be visible in a sandbox.
INSTRUCTOR_PATHS = ("tests", "chapters", "course", "_build", ".git", "builders",
                    "checks", "student")
# Unprivileged ids used as root: leased per run from AUKGRADE_UID_BASE
# (default 61000) on, AUKGRADE_UID_RANGE ids (default 4000), one id per job
# slot, so that no two graders on one machine ever share an id (see UidLease).
SANDBOX_UID = int(os.environ.get("AUKGRADE_UID_BASE", "61000"))
UID_RANGE = int(os.environ.get("AUKGRADE_UID_RANGE", "4000"))
INSIDE = "/grading"          # where the sandbox sees its folders


@dataclasses.dataclass
class Limits:
    """What one submission may use.  Units: seconds, bytes, processes."""
    wall: float = 900.0           # the whole notebook, wall-clock time
    cpu: float = 600.0            # the whole notebook, CPU time of all its processes
    cell_cpu: float = 120.0       # one cell's CPU time before it is interrupted
    cell_wall: float = 600.0      # one cell's wall time before it is interrupted
    memory: int = 4 << 30         # memory of all its processes together: resident
    #                               memory plus shared memory (memfd, SysV, tmpfs files)
    address_space: int = 16 << 30  # virtual memory of one process (RLIMIT_AS)
    processes: int = 256          # processes and threads (RLIMIT_NPROC, watchdog)
    open_files: int = 1024        # open files of one process (RLIMIT_NOFILE)
    file_size: int = 128 << 20    # one file (RLIMIT_FSIZE)
    work_size: int = 1 << 30      # the working folder (tmpfs)
    tmp_size: int = 256 << 20     # /tmp (tmpfs)
    out_size: int = 64 << 20      # the output folder, all files

    @classmethod
    def from_env(cls, prefix="AUKGRADE_"):
        """Limits with fields overridden by AUKGRADE_<FIELD> environment variables."""
        out = cls()
        for field in dataclasses.fields(cls):
            raw = os.environ.get(prefix + field.name.upper())
            if raw:
                setattr(out, field.name, field.type(float(raw)) if field.type is int
                        else float(raw))
        return out


class SandboxUnavailable(RuntimeError):
    """The machine cannot isolate a submission; the message says what to do."""


@dataclasses.dataclass
class Outcome:
    """How a sandboxed run ended (decided by the grader, not by the submission)."""
    status: str            # "finished", or why it was stopped: "memory", "time", ...
    returncode: int
    wall: float
    cpu: float
    peak_memory: int
    peak_processes: int
    log: str = ""
    uid: int = -1          # the user id it ran under

    @property
    def ok(self):
        return self.status == "finished"


# --- user ids: leased, never shared ---------------------------------------------------
#
# As root each notebook runs under an unprivileged user id.  Two graders on
# one machine (two courses, two terminals) must never use the same id: the
# kernel counts processes per id (RLIMIT_NPROC) and the fallback sandbox
# finds its processes and files by id.  A grader therefore leases its ids:
# for every id it holds an exclusive flock(2) on LEASE_DIR/<uid>.lock for as
# long as it (or a child that inherited the descriptor) lives.  The kernel
# drops the lock when the last holder exits, however it ends, so a crashed
# grader's ids are free again at once: no stale lease to clean up.  An id is
# leased only when its lock is free, no process runs under it and it is not
# an account of the machine.  ``grade.py`` leases one id per job and hands
# them to its nbgrader processes (AUKGRADE_UIDS, and the descriptors); any
# other caller of run() leases its own on first use.

def _lease_dir():
    for top in ("/run", tempfile.gettempdir()):
        folder = os.path.join(top, "aukgrade-uids")
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            st = os.lstat(folder)
            if stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and os.access(
                    folder, os.W_OK):
                return folder
        except OSError:
            continue
    raise SandboxUnavailable("no folder for the user id leases (/run/aukgrade-uids or "
                             f"{tempfile.gettempdir()}/aukgrade-uids)")


def _uids_in_use():
    used = set()
    for p in psutil.process_iter(["uids"]):
        try:
            if p.info["uids"]:
                used.update(p.info["uids"])
        except psutil.Error:
            pass
    return used


class UidLease:
    """``count`` user ids held by this process (and its children that inherit
    ``fds``) until :meth:`release` or exit."""

    def __init__(self, count, first=None, span=None):
        import fcntl
        import pwd
        first = SANDBOX_UID if first is None else first
        span = UID_RANGE if span is None else span
        folder = _lease_dir()
        self.uids, self.files = [], []
        with open(os.path.join(folder, ".allocate"), "a") as guard:
            fcntl.flock(guard, fcntl.LOCK_EX)
            busy = _uids_in_use()
            for uid in range(first, first + span):
                if len(self.uids) == count:
                    break
                if uid in busy:
                    continue
                try:
                    pwd.getpwuid(uid)
                    continue                    # an account of this machine
                except KeyError:
                    pass
                fh = open(os.path.join(folder, f"{uid}.lock"), "a+")
                try:
                    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    fh.close()                  # another grader holds it
                    continue
                fh.seek(0)
                fh.truncate()
                fh.write(f"pid {os.getpid()} since {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
                fh.flush()
                self.uids.append(uid)
                self.files.append(fh)
        if len(self.uids) < count:
            self.release()
            raise SandboxUnavailable(
                f"cannot lease {count} sandbox user ids in {first}-{first + span - 1}: "
                "other graders hold them (AUKGRADE_UID_BASE / AUKGRADE_UID_RANGE choose "
                "others)")

    @property
    def fds(self):
        return [fh.fileno() for fh in self.files]

    def env(self):
        """What hands the ids to a child process (with pass_fds=self.fds)."""
        return {"AUKGRADE_UIDS": ",".join(map(str, self.uids))}

    def release(self):
        for fh in self.files:
            fh.close()
        self.files = []


_OWN_LEASE = {}


def needs_uids():
    """Whether sandboxes run under user ids of their own (as root)."""
    return _as_root()


def uid_for(slot=0):
    """The user id of job ``slot``: from the lease a parent handed down
    (AUKGRADE_UIDS), else from this process's own lease, made on first use."""
    given = os.environ.get("AUKGRADE_UIDS", "")
    if given:
        uids = [int(u) for u in given.split(",") if u.strip()]
        if not 0 <= slot < len(uids):
            raise SandboxUnavailable(f"job slot {slot} has no leased user id "
                                     f"(AUKGRADE_UIDS={given})")
        return uids[slot]
    if slot not in _OWN_LEASE:
        _OWN_LEASE[slot] = UidLease(1)
    return _OWN_LEASE[slot].uids[0]


# --- what the sandbox may see ------------------------------------------------------

def _real(path):
    return os.path.realpath(path)


# the student environment as the sandbox binds it: by its real path (a venv
# reached through a symlink is bound where the link points)
ENV_BIN = _real(os.path.join(sys.prefix, "bin"))
PYTHON = os.path.join(ENV_BIN, "python")


def _editable_sources(site_packages):
    """Folders of packages installed in editable mode (setuptools' finder MAPPING)."""
    import ast
    folders = []
    for name in sorted(os.listdir(site_packages)):
        if name.startswith("__editable___") and name.endswith("_finder.py"):
            tree = ast.parse(open(os.path.join(site_packages, name), encoding="utf-8").read())
            for node in ast.walk(tree):
                if (isinstance(node, (ast.Assign, ast.AnnAssign))
                        and getattr(node.targets[0] if isinstance(node, ast.Assign)
                                    else node.target, "id", "") == "MAPPING"):
                    folders += list(ast.literal_eval(node.value).values())
        elif name.endswith(".pth"):
            for line in open(os.path.join(site_packages, name), encoding="utf-8"):
                line = line.strip()
                if line and not line.startswith(("#", "import")) and os.path.isdir(line):
                    folders.append(line)
    return [_real(f) for f in folders]


def environment_paths():
    """Read-only paths the student environment needs: Python, the venv, editable sources."""
    import sysconfig
    site = sysconfig.get_paths()["purelib"]
    paths = [_real(sys.base_prefix), _real(sys.prefix)]
    paths += _editable_sources(site)
    return sorted(set(paths))


def check_no_instructor_path(paths, root=ROOT):
    """Refuse to mount a folder that holds, or is inside, instructor material."""
    root = _real(root)
    secret = [_real(os.path.join(root, p)) for p in INSTRUCTOR_PATHS] + [root]
    for path in paths:
        for s in secret:
            inside = path == s or path.startswith(s + os.sep)
            holds = s.startswith(path + os.sep)
            if (s == root and (path == root or holds)) or (s != root and (inside or holds)):
                raise SandboxUnavailable(
                    f"the student environment needs {path}, which would show the "
                    f"sandbox {s}: install the packages into the venv without "
                    "pointing at the repository (no .pth path entries)")


SYSTEM_RO = ("/usr", "/etc/ld.so.cache", "/etc/localtime", "/etc/nsswitch.conf",
             "/etc/hosts", "/etc/alternatives", "/etc/fonts")
SYSTEM_LINKS = (("usr/bin", "/bin"), ("usr/sbin", "/sbin"), ("usr/lib", "/lib"),
                ("usr/lib64", "/lib64"), ("usr/lib32", "/lib32"))


def _ancestors(path):
    out = []
    while True:
        path = os.path.dirname(path)
        if path in ("/", ""):
            return out
        out.append(path)


def _bwrap():
    return shutil.which("bwrap")


def _setpriv():
    """util-linux's setpriv (drops to the sandbox's user id when the grader is root)."""
    return shutil.which("setpriv") or "/usr/bin/setpriv"


def _as_root():
    return os.geteuid() == 0


def bwrap_command(job, limits, slot=0, env_paths=None, uid=None):
    """The bubblewrap command line that runs ``runner.py`` on ``job``'s notebook."""
    env_paths = environment_paths() if env_paths is None else env_paths
    check_no_instructor_path(env_paths)
    cmd = [_bwrap(), "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
           "--unshare-cgroup-try", "--die-with-parent", "--new-session",
           "--hostname", "grading", "--clearenv"]
    if not _as_root():
        cmd += ["--unshare-user", "--disable-userns"]
    for path in SYSTEM_RO:
        if os.path.exists(path):
            cmd += ["--ro-bind", path, path]
    for target, link in SYSTEM_LINKS:
        if os.path.islink(link):
            cmd += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            cmd += ["--ro-bind", link, link]
    # a private /tmp first, so that an environment (or a clone of the
    # repository) that lives under /tmp is bound on top of it, not hidden by it
    cmd += ["--perms", "1777", "--size", str(int(limits.tmp_size)), "--tmpfs", "/tmp"]
    # bubblewrap makes missing parents of a mount point as private as their
    # host counterparts (0700 for /root): make them traversable
    parents = sorted({os.path.dirname(p) for p in env_paths for _ in [0]} |
                     {a for p in env_paths for a in _ancestors(p)})
    for parent in parents:
        if parent not in ("/", "/usr") and not parent.startswith("/usr/"):
            cmd += ["--perms", "0755", "--dir", parent]
    for path in env_paths:
        cmd += ["--ro-bind", path, path]
    cmd += ["--proc", "/proc", "--dev", "/dev",
            "--perms", "1777", "--size", str(64 << 20), "--tmpfs", "/dev/shm",
            "--perms", "0755", "--dir", INSIDE,
            "--perms", "1777", "--size", str(int(limits.work_size)),
            "--tmpfs", f"{INSIDE}/work",
            "--ro-bind", HERE_SANDBOX_LIB, f"{INSIDE}/lib",
            "--ro-bind", cache_dir(), f"{INSIDE}/cache",
            "--ro-bind", job.inbox, f"{INSIDE}/in",
            "--bind", job.outbox, f"{INSIDE}/out",
            "--chdir", f"{INSIDE}/work"]
    env = sandbox_env(limits)
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    cmd += ["--"]
    if _as_root():
        uid = str(uid_for(slot) if uid is None else uid)
        cmd += [_setpriv(), f"--reuid={uid}",
                f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
                "--bounding-set=-all", "--no-new-privs"]
    cmd += [PYTHON, "-s",
            f"{INSIDE}/lib/runner.py", f"{INSIDE}/in/{job.notebook}",
            "--cell-cpu", str(limits.cell_cpu), "--cell-wall", str(limits.cell_wall)]
    return cmd


HERE_SANDBOX_LIB = os.path.join(HERE, "inside")


def cache_dir():
    """Caches the notebooks would otherwise rebuild in every sandbox (matplotlib's
    font list), built by the grader once, mounted read-only, copied to /tmp."""
    import tempfile
    folder = os.path.join(tempfile.gettempdir(), f"aukgrade-cache-{os.getuid()}")
    mpl = os.path.join(folder, "mpl")
    if not os.path.isdir(mpl) or not any(n.startswith("fontlist") for n in os.listdir(mpl)):
        os.makedirs(mpl, exist_ok=True)
        os.chmod(folder, 0o755)
        os.chmod(mpl, 0o755)
        subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"],
                       env=dict(os.environ, MPLCONFIGDIR=mpl), check=False,
                       capture_output=True)
        for name in os.listdir(mpl):
            os.chmod(os.path.join(mpl, name), 0o644)
    return folder


def sandbox_env(limits):
    """The whole environment of the sandbox: nothing inherited but the BLAS choice."""
    env = {
        "PATH": f"{ENV_BIN}:/usr/bin:/bin",
        "HOME": "/tmp/home", "USER": "student", "LOGNAME": "student",
        "LANG": "C.UTF-8", "PYTHONPATH": f"{INSIDE}/lib",
        "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
        "MALLOC_ARENA_MAX": "2", "MPLBACKEND": "Agg", "MPLCONFIGDIR": "/tmp/mpl",
        "IPYTHONDIR": "/tmp/ipython", "JUPYTER_CONFIG_DIR": "/tmp/jupyter",
        "JUPYTER_DATA_DIR": "/tmp/jupyter-data", "JUPYTER_RUNTIME_DIR": "/tmp/jupyter-run",
        "JUPYTER_PLATFORM_DIRS": "1",
        "AUKGRADE_OUT": f"{INSIDE}/out", "AUKGRADE_PROBES": f"{INSIDE}/in/probes.json",
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE", "Haswell"),
    }
    return env


# --- the fallback: an unprivileged user, file permissions and limits -------------------
#
# Where bubblewrap cannot make namespaces (a container without CAP_SYS_ADMIN,
# say) but the grader runs as root, the notebook runs as the unprivileged
# user id alone, with the same limits, in a folder of its own.  It then sees
# the machine's file system as any user does: the instructor's material must
# not be readable by others.  check() refuses until it is not (and says what
# to chmod); the network is not cut off and other processes are visible in
# /proc.  AUKGRADE_SANDBOX=user selects it; "auto" (the default) uses it only
# when bubblewrap does not work.

SECRETS = []          # more paths no sandbox may read (the course folder, set by the grader)


def secret_paths():
    """What a notebook must not read: the reference answers, the chapters (with
    their solutions), the rubrics, the repository's history, the built
    course folders (sources with solutions, the gradebook, other students)."""
    root = _real(ROOT)
    out = [os.path.join(root, p) for p in ("tests/answers", "chapters", ".git", "_build")]
    dot_git = os.path.join(root, ".git")
    if os.path.isfile(dot_git):                 # a worktree: the history lives elsewhere
        common = subprocess.run(["git", "-C", root, "rev-parse", "--git-common-dir"],
                                capture_output=True, text=True).stdout.strip()
        if common:
            out.append(_real(os.path.join(root, common)))
    return [p for p in out + list(SECRETS) if os.path.exists(p)]


def readable_by(uid, paths):
    """The paths among ``paths`` that user ``uid`` can read or list.  Fails
    closed: if the probe cannot run as that user, SandboxUnavailable."""
    code = ("import os, sys\nfor p in sys.argv[1:]:\n"
            "    ok = os.access(p, os.R_OK) and (not os.path.isdir(p) or os.access(p, os.X_OK))\n"
            "    if ok: print(p)\nimport platform\nprint(platform.python_version())\n"
            "print('--done--')")
    done = subprocess.run([_setpriv(), f"--reuid={uid}",
                           f"--regid={uid}", "--clear-groups", PYTHON, "-S", "-c",
                           code] + list(paths), capture_output=True, text=True)
    import platform
    lines = done.stdout.splitlines()
    if len(lines) < 2 or lines[-1] != "--done--" or lines[-2] != platform.python_version():
        raise SandboxUnavailable(
            f"the fallback sandbox runs notebooks as user id {uid}, which cannot run the "
            f"environment's Python ({_real(PYTHON)}, {platform.python_version()}"
            + (f"; it ran Python {lines[-2]} instead" if len(lines) >= 2 else "")
            + f"{done.stderr.strip()[-200:]}); install Python and the venv where other "
            "users can read and run them")
    return lines[:-2]


def user_command(job, limits, uid):
    """The command, environment and folder that run the notebook as ``uid``."""
    unsafe = readable_by(uid, secret_paths())
    if unsafe:
        raise SandboxUnavailable(
            "the fallback sandbox (an unprivileged user) could read instructor files: "
            + ", ".join(unsafe) + ". Make them private: chmod -R o-rwx "
            + " ".join(unsafe))
    top = os.path.dirname(job.inbox)
    lib, work = os.path.join(top, "lib"), os.path.join(top, "work")
    shutil.copytree(HERE_SANDBOX_LIB, lib, dirs_exist_ok=True)
    os.makedirs(work, exist_ok=True)
    for folder in (lib,):
        for dirpath, _, files in os.walk(folder):
            os.chmod(dirpath, 0o755)
            for f in files:
                os.chmod(os.path.join(dirpath, f), 0o644)
    os.chown(work, uid, uid)
    os.chmod(work, 0o700)
    os.chmod(top, 0o711)
    env = sandbox_env(limits)
    tmp = os.path.join(work, ".tmp")
    env.update({"PYTHONPATH": lib, "HOME": os.path.join(tmp, "home"), "TMPDIR": tmp,
                "MPLCONFIGDIR": os.path.join(tmp, "mpl"),
                "IPYTHONDIR": os.path.join(tmp, "ipython"),
                "JUPYTER_CONFIG_DIR": os.path.join(tmp, "jupyter"),
                "JUPYTER_DATA_DIR": os.path.join(tmp, "jupyter-data"),
                "JUPYTER_RUNTIME_DIR": os.path.join(tmp, "jupyter-run"),
                "AUKGRADE_OUT": job.outbox,
                "AUKGRADE_PROBES": os.path.join(job.inbox, "probes.json"),
                "AUKGRADE_CACHE": cache_dir()})
    cmd = [_setpriv(), f"--reuid={uid}", f"--regid={uid}",
           "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs",
           PYTHON, "-s", os.path.join(lib, "runner.py"),
           os.path.join(job.inbox, job.notebook), "--cell-cpu", str(limits.cell_cpu),
           "--cell-wall", str(limits.cell_wall)]
    return cmd, env, work


def _remove_files_of(uid, places=("/tmp", "/var/tmp", "/dev/shm")):
    """What the user left in the shared temporary folders goes."""
    for place in places:
        for dirpath, dirnames, filenames in os.walk(place, topdown=False):
            for name in filenames + dirnames:
                path = os.path.join(dirpath, name)
                try:
                    st = os.lstat(path)
                    if st.st_uid != uid:
                        continue
                    if stat.S_ISDIR(st.st_mode):
                        shutil.rmtree(path, ignore_errors=True)
                    else:
                        os.unlink(path)
                except OSError:
                    pass


# --- running and watching ------------------------------------------------------------

@dataclasses.dataclass
class Job:
    inbox: str       # host folder, read-only inside: the notebook, its files, probes.json
    outbox: str      # host folder, writable inside: records.jsonl, executed.ipynb, status.json
    notebook: str    # file name of the notebook in inbox


def _set_limits(limits, nproc):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (int(limits.address_space),) * 2)
        resource.setrlimit(resource.RLIMIT_FSIZE, (int(limits.file_size),) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        resource.setrlimit(resource.RLIMIT_NOFILE, (int(limits.open_files),) * 2)
        cpu = int(limits.cpu) + 30
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    return apply


def _tasks_of_user(uid):
    n = 0
    for p in psutil.process_iter(["uids", "num_threads"]):
        try:
            if p.info["uids"] and p.info["uids"].real == uid:
                n += p.info["num_threads"] or 1
        except psutil.Error:
            pass
    return n


def _disk_bytes(path, max_entries, uid=None):
    """Bytes of the files under ``path`` (only those user ``uid`` owns, when
    given; symlinks not followed), and whether all of them were seen: the walk
    stops after ``max_entries`` entries."""
    total, seen, stack = 0, 0, [path]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            seen += 1
            if seen > max_entries:
                return total, False
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISDIR(st.st_mode):
                stack.append(entry.path)
            elif uid is None or st.st_uid == uid:
                total += st.st_blocks * 512
    return total, True


def _folder_size(path, max_entries=4000):
    """Bytes in ``path`` (symlinks not followed); None when it holds too many entries."""
    total, complete = _disk_bytes(path, max_entries)
    return total if complete else None


# --- memory the sandbox holds ----------------------------------------------------------
#
# Resident memory (RSS) does not show memory held in shared-memory files: a
# notebook can write gigabytes into memfd_create files, a SysV segment or a
# file in a tmpfs and keep only a descriptor (or nothing) while its RSS stays
# small.  The meter counts, at each poll:
#   * every process's private resident memory (VmRSS minus RssShmem);
#   * every shared-memory object a process of the sandbox holds open or maps
#     (memfd files, POSIX shm under /dev/shm, shared anonymous mappings,
#     SysV segments), each object once (by device and inode), by the pages it
#     holds (st_blocks);
#   * with bubblewrap, what is used in the sandbox's own tmpfs mounts (its
#     root, /tmp, /dev/shm and the working folder), read with statvfs through
#     /proc/<pid>/root, which counts deleted files still open too;
#   * as root, with bubblewrap, every SysV segment of the sandbox's IPC
#     namespace (read from /proc/sysvipc/shm in a thread that joined that
#     namespace), attached or not;
#   * with the fallback (no namespaces), the files its user owns in the
#     machine's tmpfs folders (/dev/shm, and /tmp when it is a tmpfs).
# A mapping whose size cannot be read (/proc/<pid>/map_files needs root)
# counts by its resident pages instead (RssShmem).  More descriptors and
# mappings than SCAN_BUDGET in one poll stop the run ("open files"): the
# meter could not count them in time.

SCAN_BUDGET = 200_000
SANDBOX_TMPFS = ("/", "/tmp", "/dev/shm", f"{INSIDE}/work")   # bubblewrap's tmpfs mounts
_SHM_DEV = []


def _shm_dev():
    """The device of the kernel's internal tmpfs (memfd, SysV, shared anonymous)."""
    if not _SHM_DEV:
        fd = os.memfd_create("aukgrade-probe")
        try:
            _SHM_DEV.append(os.fstat(fd).st_dev)
        finally:
            os.close(fd)
    return _SHM_DEV[0]


def _status_kb(pid):
    """VmRSS and RssShmem of ``pid`` in bytes (None when it is gone)."""
    rss = shmem = 0
    try:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmRSS:"):
                    rss = int(line.split()[1]) * 1024
                elif line.startswith(b"RssShmem:"):
                    shmem = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return rss, shmem


def _sysv_in_namespace(ns_pid):
    """Bytes held by the SysV shared memory segments of the IPC namespace of
    ``ns_pid`` (None when it cannot be read: not root, or gone)."""
    import ctypes
    import threading
    result = []

    def look():
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(f"/proc/{ns_pid}/ns/ipc", os.O_RDONLY)
            try:
                if libc.setns(fd, 0x08000000) != 0:           # CLONE_NEWIPC
                    return
            finally:
                os.close(fd)
            with open("/proc/sysvipc/shm", encoding="ascii") as fh:
                head = fh.readline().split()
                rss, swap = head.index("rss"), head.index("swap")
                total = 0
                for line in fh:
                    parts = line.split()
                    total += int(parts[rss]) + int(parts[swap])
            result.append(total)
        except (OSError, ValueError, IndexError):
            pass

    thread = threading.Thread(target=look, daemon=True)   # this thread only joins it
    thread.start()
    thread.join(5)
    return result[0] if result else None


def _tmpfs_mounts():
    out = set()
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                parts = line.split()
                if len(parts) > 2 and parts[2] == "tmpfs":
                    out.add(parts[1])
    except OSError:
        pass
    return out


class MemoryMeter:
    """What a sandbox's processes hold in memory together (see above)."""

    def __init__(self, fallback_uid=None):
        self.fallback_uid = fallback_uid
        self.too_many = False           # more descriptors/mappings than SCAN_BUDGET
        self._shared_files = 0          # the fallback's files in tmpfs, read each second
        self._last_walk = 0.0
        self._sysv_ok = _as_root()
        tmpfs = _tmpfs_mounts()
        self._host_tmpfs = [p for p in ("/dev/shm", "/tmp") if p in tmpfs]

    @staticmethod
    def _own_root(pid):
        """Whether ``pid`` already sees the sandbox's root (bubblewrap sets it up
        after the PID namespace exists: until then /proc/<pid>/root is the
        machine's, whose /tmp is no memory of the sandbox)."""
        try:
            return os.stat(f"/proc/{pid}/root").st_dev != os.stat("/").st_dev
        except OSError:
            return False

    def measure(self, processes, ns_pid=None):
        shm_dev = _shm_dev()
        shm_tag = f"{os.major(shm_dev):02x}:{os.minor(shm_dev):02x}"
        total, entries, objects = 0, 0, {}
        mounts = {}
        if ns_pid is not None and self._own_root(ns_pid):    # the sandbox's own tmpfs
            for mnt in SANDBOX_TMPFS:
                path = f"/proc/{ns_pid}/root{mnt}"
                try:
                    dev = os.stat(path).st_dev
                    vfs = os.statvfs(path)
                except OSError:
                    continue
                mounts.setdefault(dev, (vfs.f_blocks - vfs.f_bfree) * vfs.f_frsize)
            total += sum(mounts.values())
        sysv = _sysv_in_namespace(ns_pid) if ns_pid is not None and self._sysv_ok else None
        if sysv is not None:
            total += sysv
        for p in processes:
            pid = p.pid if hasattr(p, "pid") else p
            status = _status_kb(pid)
            if status is None:
                continue
            rss, shmem = status
            total += max(rss - shmem, 0)
            unsized = False
            try:
                fds = os.listdir(f"/proc/{pid}/fd")
            except OSError:
                fds = []
            entries += len(fds)
            for name in fds:
                try:
                    st = os.stat(f"/proc/{pid}/fd/{name}")
                except OSError:
                    continue
                if st.st_dev == shm_dev and stat.S_ISREG(st.st_mode):
                    objects[(st.st_dev, st.st_ino)] = st.st_blocks * 512
            chunks, lines = [], 0
            try:
                with open(f"/proc/{pid}/maps", "rb") as fh:
                    while True:
                        chunk = fh.read(1 << 20)
                        if not chunk:
                            break
                        lines += chunk.count(b"\n")
                        if entries + lines > SCAN_BUDGET:
                            self.too_many = True
                            return total + sum(objects.values())
                        chunks.append(chunk)
            except OSError:
                pass
            entries += lines
            # a mapping of the shared-memory device names it by major:minor; a
            # kernel's thousand mappings are read ten times a second, so only
            # the lines that hold that device are looked at one by one
            tag, maps = b" " + shm_tag.encode() + b" ", b"".join(chunks)
            for line in maps.splitlines() if tag in maps else ():
                if tag not in line:
                    continue
                parts = line.split(None, 5)
                if len(parts) < 6 or parts[3].decode() != shm_tag:
                    continue
                name = parts[5].strip()
                key = ("sysv" if name.startswith(b"/SYSV") else shm_dev, int(parts[4]))
                if key in objects or (key[0] == "sysv" and sysv is not None):
                    continue
                try:
                    st = os.stat(f"/proc/{pid}/map_files/{parts[0].decode()}")
                    objects[key] = st.st_blocks * 512
                except (OSError, ValueError):
                    unsized = True
            if unsized:                 # its mapped shared pages, counted as resident
                total += shmem
        total += sum(objects.values())
        if self.fallback_uid is not None and self._host_tmpfs:
            now = time.monotonic()
            if now - self._last_walk > 1.0:
                self._last_walk = now
                self._shared_files = sum(_owned_bytes(place, self.fallback_uid)
                                         for place in self._host_tmpfs)
            total += self._shared_files
        return total


def _owned_bytes(path, uid, max_entries=20000):
    """Bytes of the files user ``uid`` owns under ``path`` (the first
    ``max_entries`` entries; symlinks not followed)."""
    return _disk_bytes(path, max_entries, uid)[0]


def _pid_namespace(pid):
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def _members_of(namespace):
    """The processes of the machine in PID namespace ``namespace``."""
    out = []
    if not namespace:
        return out
    for name in os.listdir("/proc"):
        if name.isdigit() and _pid_namespace(name) == namespace:
            try:
                out.append(psutil.Process(int(name)))
            except psutil.Error:
                pass
    return out


def run(job, limits=None, slot=0, log_path=None):
    """Run ``job`` in a sandbox and watch it; returns an :class:`Outcome`.

    Only the sandbox's own processes are watched and ended: the descendants
    of its bubblewrap process and every process of its PID namespace (with
    the fallback, which has none, the processes of its leased user id, which
    no other grader uses)."""
    limits = limits or Limits()
    check()
    uid = uid_for(slot) if _as_root() else os.getuid()
    if _as_root():
        os.chown(job.outbox, uid, uid)
        os.chmod(job.outbox, 0o700)
        nproc = int(limits.processes)
    else:
        # RLIMIT_NPROC counts every task of the user, the sandbox's included
        nproc = _tasks_of_user(os.getuid()) + int(limits.processes)
    env, cwd = None, None
    if BACKEND["name"] == "user":
        cmd, env, cwd = user_command(job, limits, uid)
    else:
        cmd = bwrap_command(job, limits, slot, uid=uid)
    log = open(log_path or os.devnull, "wb")
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                            preexec_fn=_set_limits(limits, nproc), env=env, cwd=cwd,
                            start_new_session=True, close_fds=True)
    status, cpu_seen, peak_mem, peak_n = "finished", {}, 0, 0
    seen_pids = set()
    top = psutil.Process(proc.pid)
    ours = _pid_namespace(os.getpid())
    namespace = None                 # the sandbox's PID namespace, once seen
    ns_pid = None                    # a process in it (its mounts, its IPC namespace)
    meter = MemoryMeter(uid if BACKEND["name"] == "user" else None)
    last_disk = 0.0
    while True:
        try:
            proc.wait(timeout=0.1)
            break
        except subprocess.TimeoutExpired:
            pass
        try:
            tree = [top] + top.children(recursive=True)
        except psutil.Error:
            continue
        mem, n = 0, 0
        seen_pids.update(p for p in tree)
        if namespace is None and BACKEND["name"] != "user":
            for p in tree[1:]:
                found = _pid_namespace(p.pid)
                if found and found != ours:
                    namespace, ns_pid = found, p.pid
                    break
        if ns_pid is not None and _pid_namespace(ns_pid) != namespace:   # it ended
            ns_pid = next((p.pid for p in tree[1:] if _pid_namespace(p.pid) == namespace),
                          None)
        mem = meter.measure(tree, ns_pid)
        for p in tree:
            try:
                with p.oneshot():
                    n += p.num_threads()
                    t = p.cpu_times()
                    cpu_seen[p.pid] = t.user + t.system
            except psutil.Error:
                pass
        peak_mem, peak_n = max(peak_mem, mem), max(peak_n, n)
        elapsed = time.monotonic() - start
        reason = None
        if mem > limits.memory:
            reason = "memory"
        elif meter.too_many:
            reason = "open files"
        elif n > limits.processes:
            reason = "processes"
        elif sum(cpu_seen.values()) > limits.cpu:
            reason = "cpu time"
        elif elapsed > limits.wall:
            reason = "time"
        elif elapsed - last_disk > 1.0:
            last_disk = elapsed
            size = _folder_size(job.outbox)
            if size is None or size > limits.out_size:
                reason = "disk"
        if reason:
            status = reason
            _kill(proc)
            break
    proc.wait()
    if BACKEND["name"] == "user":
        # no PID namespace ends them: the processes of its own leased user id
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        seen_pids.update(p for p in psutil.process_iter(["uids"])
                         if p.info["uids"] and p.info["uids"].real == uid)
    else:
        # forked too fast for the watchdog to see: the rest of its PID namespace
        seen_pids.update(_members_of(namespace))
    _reap(seen_pids)
    if BACKEND["name"] == "user":
        _remove_files_of(uid)
    log.close()
    wall = time.monotonic() - start
    rc = proc.returncode
    if status == "finished" and rc != 0:
        status = "crashed"
    text = ""
    if log_path:
        with open(log_path, "rb") as fh:
            text = fh.read()[-4000:].decode("utf-8", "replace")
    return Outcome(status, rc, wall, sum(cpu_seen.values()), peak_mem, peak_n, text, uid)


def _reap(processes, timeout=20.0):
    """Wait until every process the sandbox had is gone (when its PID namespace
    ends the kernel kills them all; thousands take a moment), killing any
    still there; then the next sandbox with the same user id starts clean.
    ``processes`` are psutil handles, which refuse to signal a process whose
    id was reused by another since."""
    deadline = time.monotonic() + timeout
    alive = list(processes)
    while alive and time.monotonic() < deadline:
        still = []
        for p in alive:
            try:
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    still.append(p)
            except psutil.Error:
                pass
        alive = still
        if alive:
            for p in alive:
                try:
                    p.kill()
                except psutil.Error:
                    pass
            time.sleep(0.1)


def _kill(proc):
    """SIGKILL bubblewrap's session; --die-with-parent and the PID namespace end the rest."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# --- can this machine do it? --------------------------------------------------------

_CHECKED = {}
BACKEND = {"name": None}


def _bwrap_works():
    probe = [_bwrap(), "--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr"]
    for target, link in SYSTEM_LINKS:
        if os.path.islink(link):
            probe += ["--symlink", os.readlink(link), link]
    probe += ["--proc", "/proc", "--dev", "/dev", "--", "/usr/bin/true"]
    if not _as_root():
        probe[1:1] = ["--unshare-user"]
    done = subprocess.run(probe, capture_output=True, text=True)
    return done.returncode == 0, done.stderr.strip()


def check(install=False):
    """A one-line description of the sandbox, or SandboxUnavailable saying what to do.

    AUKGRADE_SANDBOX chooses: "bwrap", "user" (the fallback) or "auto" (bwrap,
    else the fallback as root)."""
    choice = os.environ.get("AUKGRADE_SANDBOX", "auto")
    if _CHECKED.get("choice") == choice and "ok" in _CHECKED:
        return _CHECKED["ok"]
    if _as_root() and not os.path.exists(_setpriv()):
        raise SandboxUnavailable("setpriv (util-linux) is missing: apt-get install -y util-linux")
    why = ""
    if choice in ("auto", "bwrap"):
        if not _bwrap() and install and _as_root() and shutil.which("apt-get"):
            print("grading: installing bubblewrap (apt-get install -y bubblewrap) ...",
                  flush=True)
            subprocess.run(["apt-get", "install", "-y", "-q", "bubblewrap"],
                           stdout=subprocess.DEVNULL, check=False)
        if not _bwrap():
            why = ("bubblewrap is not installed; the grader runs every submission in it. "
                   "Install it: sudo apt-get install -y bubblewrap (Debian, Ubuntu), "
                   "sudo dnf install bubblewrap (Fedora), then run make grade again")
        else:
            works, err = _bwrap_works()
            if works:
                version = subprocess.run([_bwrap(), "--version"], capture_output=True,
                                         text=True).stdout.strip()
                who = ("as root; each notebook runs as a user id of its own (leased "
                       f"from {SANDBOX_UID} on) with no capabilities" if _as_root()
                       else "unprivileged, in a user namespace")
                BACKEND["name"] = "bwrap"
                _CHECKED.update(choice=choice, ok=f"{version}, {who}; no network, "
                                "no repository")
                return _CHECKED["ok"]
            why = ("bubblewrap cannot create a sandbox here: " + err + ". As an ordinary "
                   "user it needs unprivileged user namespaces (sysctl "
                   "kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04 "
                   "kernel.apparmor_restrict_unprivileged_userns=0); or run make grade as root")
        if choice == "bwrap" or not _as_root():
            raise SandboxUnavailable(why)
    if not _as_root():
        raise SandboxUnavailable("the fallback sandbox (an unprivileged user) needs root")
    unsafe = readable_by(SANDBOX_UID, secret_paths())
    if unsafe:
        raise SandboxUnavailable(
            (why + "; " if why else "") + "the fallback (an unprivileged user, file "
            "permissions, limits) needs the instructor's files unreadable by other "
            "users: chmod -R o-rwx " + " ".join(unsafe)
            + " (and any other copy of the repository on this machine)")
    BACKEND["name"] = "user"
    _CHECKED.update(choice=choice, ok=(
        f"fallback: each notebook runs as uid {SANDBOX_UID}+ with no capabilities and "
        "limits; instructor files unreadable to it; NOT cut off from the network"
        + (f" ({why})" if why else "")))
    return _CHECKED["ok"]


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description="Check (and install) the grading sandbox.")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    try:
        print("grading sandbox:", check(install=True), flush=True)
    except SandboxUnavailable as err:
        print(f"grading sandbox: NOT AVAILABLE: {err}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
