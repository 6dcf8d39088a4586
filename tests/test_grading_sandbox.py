"""A submission's notebook runs in a sandbox that it cannot leave.

course/grading/sandbox.py runs each notebook with bubblewrap: no repository
(no reference answer, chapter, course folder or gradebook), no network, an
unprivileged user, read-only environment, and limits on memory, processes,
CPU time, wall time and output.  Each test runs a small notebook in it and
checks what happened from outside.
"""

import json
import os
import socket
import sys
import threading
import time

import nbformat
import psutil
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "course", "grading"))
import judge  # noqa: E402
import sandbox  # noqa: E402

try:
    BACKEND = sandbox.check()
except sandbox.SandboxUnavailable as err:        # make test installs it as root
    BACKEND = None
    WHY = str(err)
pytestmark = pytest.mark.skipif(BACKEND is None, reason="no sandbox: " + (
    WHY if BACKEND is None else ""))

USED_UIDS = set()      # the user ids the runs of this process were given


def run(tmp_path, cells, **limits):
    inbox, outbox = tmp_path / "in", tmp_path / "out"
    inbox.mkdir()
    outbox.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nbformat.write(nb, inbox / "t.ipynb")
    (inbox / "probes.json").write_text("{}")
    for p in (inbox, inbox / "t.ipynb", inbox / "probes.json"):
        os.chmod(p, 0o755 if p.is_dir() else 0o644)
    base = sandbox.Limits(cell_cpu=10, wall=300, cpu=200, memory=1500 << 20)
    for k, v in limits.items():
        setattr(base, k, v)
    outcome = sandbox.run(sandbox.Job(str(inbox), str(outbox), "t.ipynb"), base,
                          log_path=str(tmp_path / "log"))
    USED_UIDS.add(outcome.uid)
    records = judge.read_records(str(outbox / "records.jsonl"))
    status = {}
    if (outbox / "status.json").exists():
        status = json.loads((outbox / "status.json").read_text())
    return outcome, records, status, outbox


def left_behind():
    """Processes of the sandbox's user still alive (zombies being reaped aside)."""
    out = []
    for p in psutil.process_iter(["pid", "uids", "status", "cmdline"]):
        if p.info["uids"] and p.info["uids"].real in USED_UIDS and \
                p.info["status"] != psutil.STATUS_ZOMBIE:
            out.append(p.info)
    return out


def remember(name, expr):
    """A cell that records a value under a made-up label."""
    return (f"from aukgrade import record\n{name} = {expr}\n"
            f"record({name!r}, {name!r})")


def test_notebook_sees_no_repository_network_or_grader(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    accepted = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    probe = f'''
import glob, json, os, socket, subprocess, sys
facts = {{"uid": os.getuid(), "root": sorted(os.listdir("/")),
          "repo": sorted(os.listdir({ROOT!r})) if os.path.isdir({ROOT!r}) else None,
          "pids": len([p for p in os.listdir("/proc") if p.isdigit()]),
          "env": dict(os.environ)}}
for name in ("tests", "chapters", "course", "_build", ".git", "tests/answers"):
    facts["exists " + name] = os.path.exists(os.path.join({ROOT!r}, name))
facts["answer files"] = [f for top in ("/work", "/root", "/grading", "/tmp", "/home", "/srv",
                                       "/opt", "/etc")
                         for f in glob.glob(top + "/**/answers/*.py", recursive=True)]
try:
    import answers
    facts["import answers"] = "imported"
except ImportError as err:
    facts["import answers"] = type(err).__name__
s = socket.socket()
s.settimeout(3)
try:
    s.connect(("127.0.0.1", {port}))
    facts["grader's port"] = "connected"
except OSError as err:
    facts["grader's port"] = type(err).__name__
for path in ({os.path.join(ROOT, ".venv", "pwned")!r}, {os.path.join(ROOT, "auklib", "pwned")!r},
             "/grading/lib/pwned", "/grading/in/pwned", "/usr/pwned", "/tmp/ok", "ok"):
    try:
        open(path, "w").write("x")
        facts["write " + path] = "written"
    except OSError as err:
        facts["write " + path] = type(err).__name__
# a process that tries to outlive the run
subprocess.Popen(["sleep", "1000"], start_new_session=True)
json.dump(facts, open("/grading/out/facts.json", "w"))
'''
    outcome, _, _, outbox = run(tmp_path, [probe])
    server.close()
    assert outcome.status == "finished", outcome
    facts = json.loads((outbox / "facts.json").read_text())
    assert facts["uid"] != 0
    assert set(facts["repo"]) <= {".venv", "auklib", "bookkit"}, facts["repo"]
    for name in ("tests", "chapters", "course", "_build", ".git", "tests/answers"):
        assert facts["exists " + name] is False, name
    assert facts["answer files"] == [] and facts["import answers"] == "ModuleNotFoundError"
    assert facts["grader's port"] != "connected" and not accepted
    assert facts["pids"] < 30                      # its own processes only
    assert not any(ROOT + "/tests" in v or "/course" in v for v in facts["env"].values())
    for path, result in facts.items():
        if path.startswith("write "):
            ok = path in ("write /tmp/ok", "write ok")
            assert (result == "written") == ok, (path, result)
    assert not os.path.exists(os.path.join(ROOT, ".venv", "pwned"))
    # nothing of the run is left on the machine (the sleep was started to stay)
    assert left_behind() == []


def test_memory_bomb_stops_that_run_only(tmp_path):
    outcome, records, _, _ = run(tmp_path, [
        remember("before", 1.0),
        "hog = []\nwhile True:\n    hog.append(b'x' * (64 << 20))",
        remember("after", 2.0)])
    assert outcome.status == "memory", outcome
    assert outcome.peak_memory < 4 << 30
    assert set(records) == {"before"}


# memory that no process's resident set shows: each cell holds about three
# times the test's limit (400 MB) and then waits
HIDDEN_MEMORY = {
    "memfd": "import os, time\nfds = []\nfor i in range(20):\n"
             "    fd = os.memfd_create(f'hog{i}')\n"
             "    for _ in range(5):\n        os.write(fd, b'x' * (12 << 20))\n"
             "    fds.append(fd)\ntime.sleep(120)",
    "memfd mapped, descriptor closed": (          # libc's mmap: Python's keeps a dup
        "import ctypes, os, time\nlibc = ctypes.CDLL(None)\n"
        "libc.mmap.restype = ctypes.c_void_p\n"
        "libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, "
        "ctypes.c_int, ctypes.c_int, ctypes.c_long]\n"
        "for i in range(20):\n    fd = os.memfd_create(f'hog{i}')\n"
        "    os.ftruncate(fd, 60 << 20)\n    addr = libc.mmap(None, 60 << 20, 3, 1, fd, 0)\n"
        "    os.close(fd)\n    ctypes.memset(addr, 1, 60 << 20)\n"
        "    libc.madvise(ctypes.c_void_p(addr), ctypes.c_size_t(60 << 20), 4)\n"
        "time.sleep(120)"),
    "SysV segments, detached": (
        "import ctypes, time\nlibc = ctypes.CDLL(None)\n"
        "libc.shmat.restype = ctypes.c_void_p\n"
        "for i in range(20):\n    sid = libc.shmget(0, 60 << 20, 0o1600)\n"
        "    addr = libc.shmat(sid, None, 0)\n    ctypes.memset(addr, 1, 60 << 20)\n"
        "    libc.shmdt(ctypes.c_void_p(addr))\ntime.sleep(120)"),
    "tmpfs files, deleted but open": (
        "import os, time\nkeep = []\n"
        "for top in ('/tmp', '/dev/shm', '.'):\n"
        "    for i in range(20):\n        path = os.path.join(top, f'hog{i}')\n"
        "        try:\n            fh = open(path, 'wb')\n"
        "            fh.write(b'x' * (30 << 20))\n            fh.flush()\n"
        "        except OSError:\n            break\n"
        "        os.unlink(path)\n        keep.append(fh)\ntime.sleep(120)"),
}


@pytest.mark.parametrize("how", sorted(HIDDEN_MEMORY))
def test_memory_held_outside_resident_memory_counts_against_the_limit(tmp_path, how):
    """A notebook held 6 GiB in memfd_create files (RSS does not show them) and
    finished within its limit. Shared memory the sandbox holds (memfd, SysV,
    tmpfs files) counts: the run is stopped as a memory bomb is."""
    if how.startswith("SysV") and os.geteuid() != 0:
        pytest.skip("unattached SysV segments are counted as root only")
    outcome, records, _, _ = run(tmp_path, [remember("before", 1.0), HIDDEN_MEMORY[how],
                                            remember("after", 2.0)],
                                 memory=400 << 20, work_size=1 << 30, tmp_size=1 << 30)
    assert outcome.status == "memory", outcome
    assert outcome.peak_memory > 400 << 20
    assert set(records) == {"before"}
    assert left_behind() == []


def test_an_honest_run_is_measured_about_as_before(tmp_path):
    """What an ordinary notebook holds is not counted twice: a kernel with a
    100 MB array and a 20 MB file in its working folder stays far below 400 MB."""
    outcome, records, _, _ = run(tmp_path, [
        "import numpy as np\nx = np.ones(100 << 17)\n"
        "open('data.bin', 'wb').write(b'x' * (20 << 20))",
        remember("after", 2.0)], memory=400 << 20)
    assert outcome.status == "finished", outcome
    assert set(records) == {"after"}
    assert outcome.peak_memory < 380 << 20, outcome.peak_memory


def test_fork_bomb_stops_that_run_only(tmp_path):
    outcome, records, _, _ = run(tmp_path, [
        remember("before", 1.0),
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
        remember("after", 2.0)], processes=100)
    assert outcome.status in ("processes", "memory"), outcome
    assert set(records) == {"before"}
    assert left_behind() == []


def test_endless_loop_is_interrupted_then_stopped_if_it_ignores_that(tmp_path):
    outcome, records, status, _ = run(tmp_path, [
        "while True:\n    pass",                        # KeyboardInterrupt ends it
        remember("after_first", 1.0),
        "while True:\n    try:\n        while True:\n            pass\n"
        "    except BaseException:\n        pass",        # swallows the interrupt
        remember("after_second", 2.0)], cell_cpu=3)
    assert outcome.status == "finished", outcome
    assert set(records) == {"after_first"}
    assert status["interrupted"] and "kept running" in status["stopped"]


def test_exit_and_killing_the_parent_end_that_run_only(tmp_path):
    outcome, records, status, _ = run(tmp_path / "a" if (tmp_path / "a").mkdir() is None
                                      else None, [
        remember("before", 1.0), "import os\nos._exit(0)", remember("after", 2.0)])
    assert outcome.status == "finished" and "died" in status["stopped"]
    assert set(records) == {"before"}
    outcome, records, _, _ = run(tmp_path / "b" if (tmp_path / "b").mkdir() is None
                                 else None, [
        remember("before", 1.0), "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
        remember("after", 2.0)])
    assert outcome.status == "crashed" and set(records) == {"before"}


def test_writing_too_much_stops_the_run(tmp_path):
    outcome, records, _, _ = run(tmp_path, [
        remember("before", 1.0),
        "import os\nfor i in range(100):\n"
        "    open(f'/grading/out/junk{i}', 'wb').write(b'x' * (32 << 20))\n"
        "    import time; time.sleep(0.05)",
        remember("after", 2.0)], out_size=64 << 20)
    assert outcome.status == "disk", outcome
    assert set(records) == {"before"}


def test_make_grade_says_at_once_when_it_cannot_sandbox(tmp_path):
    """Without bubblewrap (and nothing to install it with), the check stops
    within seconds and says what to install; with it, it says what it uses."""
    import subprocess

    script = os.path.join(ROOT, "course", "grading", "sandbox.py")
    start = time.monotonic()
    done = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True,
                          env=dict(os.environ, PATH=str(tmp_path), AUKGRADE_SANDBOX="bwrap"))
    assert time.monotonic() - start < 30
    assert done.returncode == 3
    assert "apt-get install -y bubblewrap" in done.stderr
    done = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert done.returncode == 0 and "bubblewrap" in done.stdout and "no network" in done.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="the fallback sandbox runs as root only")
def test_fallback_refuses_unless_an_unprivileged_user_can_read_nothing_secret(monkeypatch):
    """Without namespaces the grader may fall back to an unprivileged user and
    file permissions (AUKGRADE_SANDBOX=user); it refuses, saying what to fix,
    while that user could read an instructor file or cannot run the venv."""
    monkeypatch.setenv("AUKGRADE_SANDBOX", "user")
    monkeypatch.setattr(sandbox, "_CHECKED", {})
    secret = os.path.join(ROOT, "tests", "answers")
    readable = os.stat(secret).st_mode & 0o005 == 0o005
    with pytest.raises(sandbox.SandboxUnavailable) as err:
        sandbox.check()
    message = str(err.value)
    assert ("chmod -R o-rwx" in message and secret in message) or \
        "cannot run the environment's Python" in message, message
    assert readable or "Python" in message


@pytest.mark.skipif(os.geteuid() != 0, reason="the fallback sandbox runs as root only")
def test_fallback_user_sees_no_secret_and_keeps_the_limits(tmp_path, monkeypatch):
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "answers.py").write_text("ANSWER = 0.4242\n")
    os.chmod(secret, 0o700)
    monkeypatch.setenv("AUKGRADE_SANDBOX", "user")
    monkeypatch.setattr(sandbox, "_CHECKED", {})
    monkeypatch.setattr(sandbox, "secret_paths", lambda: [str(secret)])
    try:
        sandbox.check()
    except sandbox.SandboxUnavailable as err:
        pytest.skip(f"the fallback cannot run on this machine: {err}")
    outcome, records, _, outbox = run(tmp_path / "run" if (tmp_path / "run").mkdir() is None
                                      else None, [
        remember("before", 1.0),
        f"try:\n    open({str(secret / 'answers.py')!r}).read()\n    leaked = 1.0\n"
        "except OSError:\n    leaked = 0.0\nfrom aukgrade import record\n"
        "record('leaked', 'leaked')",
        "hog = []\nwhile True:\n    hog.append(b'x' * (64 << 20))",
        remember("after", 2.0)])
    assert outcome.status == "memory", outcome
    assert records["leaked"]["values"] == [0.0] and "after" not in records
    assert left_behind() == []


def test_a_cell_that_hangs_without_cpu_is_stopped_at_its_wall_clock_limit(tmp_path):
    """A cell that sleeps for ever and swallows the interrupt uses no CPU, so
    only a wall clock catches it: it is interrupted at the cell's limit and
    the run ends 5 s later, freeing the grading slot (it held one for up to
    900 s before); what was recorded before it stays."""
    hang = ("import time\nwhile True:\n    try:\n        time.sleep(3600)\n"
            "    except BaseException:\n        pass")
    outcome, records, status, _ = run(tmp_path, [remember("before", 1.0), hang,
                                                 remember("after", 2.0)], cell_wall=4)
    assert outcome.status == "finished", outcome
    assert set(records) == {"before"}
    assert "kept running" in status["stopped"] and status["stopped_cell"] == 1
    # 4 s + 5 s after the hanging cell began; the kernel's start-up takes up
    # to a minute on a loaded machine (the run's own wall limit is 300 s here)
    assert outcome.wall < 4 + 5 + 100, outcome
    assert left_behind() == []


LEASE = """
import sys, time
sys.path.insert(0, {grading!r})
import sandbox
lease = sandbox.UidLease(3, first={first}, span=12)
print(",".join(map(str, lease.uids)), flush=True)
time.sleep(float(sys.argv[1]))
"""


def test_graders_side_by_side_lease_user_ids_no_other_holds(tmp_path):
    """Each grader leases its sandbox user ids (one per job) under a lock:
    two graders running at once never share one, an id some process already
    runs under is skipped, and the ids of a grader that ended (however) are
    free again at once."""
    import subprocess

    first = 64000 + (os.getpid() % 100) * 20
    code = LEASE.format(grading=os.path.join(ROOT, "course", "grading"), first=first)
    holder = subprocess.Popen([sys.executable, "-c", code, "30"], stdout=subprocess.PIPE,
                              text=True)
    held = [int(u) for u in holder.stdout.readline().split(",")]
    other = subprocess.run([sys.executable, "-c", code, "0"], capture_output=True, text=True)
    theirs = [int(u) for u in other.stdout.split(",")]
    assert len(set(held)) == len(set(theirs)) == 3 and not set(held) & set(theirs)
    holder.kill()                                   # no clean-up of its own
    holder.wait()
    again = subprocess.run([sys.executable, "-c", code, "0"], capture_output=True, text=True)
    assert [int(u) for u in again.stdout.split(",")] == held
    if os.geteuid() == 0:                           # an id a process runs under: skipped
        busy = subprocess.Popen([sandbox._setpriv(), f"--reuid={first}", f"--regid={first}",
                                 "--clear-groups", "sleep", "30"])
        try:
            time.sleep(0.5)
            lease = sandbox.UidLease(2, first=first, span=12)
            assert first not in lease.uids
            lease.release()
        finally:
            busy.kill()
            busy.wait()
    with pytest.raises(sandbox.SandboxUnavailable, match="cannot lease"):
        sandbox.UidLease(13, first=first, span=12)


SIDE_BY_SIDE = """
import json, os, sys
sys.path.insert(0, {grading!r})
import nbformat
import sandbox
top = sys.argv[1]
cells = json.loads(sys.argv[2])
inbox, outbox = os.path.join(top, "in"), os.path.join(top, "out")
os.makedirs(inbox)
os.makedirs(outbox)
nb = nbformat.v4.new_notebook()
nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
nbformat.write(nb, os.path.join(inbox, "t.ipynb"))
open(os.path.join(inbox, "probes.json"), "w").write("{{}}")
for p in (top, inbox, outbox):
    os.chmod(p, 0o755)
for p in ("t.ipynb", "probes.json"):
    os.chmod(os.path.join(inbox, p), 0o644)
limits = sandbox.Limits(cell_cpu=60, cell_wall=120, wall=300, cpu=200, memory=1500 << 20)
outcome = sandbox.run(sandbox.Job(inbox, outbox, "t.ipynb"), limits)
print(json.dumps({{"status": outcome.status, "uid": outcome.uid,
                  "records": os.path.exists(os.path.join(outbox, "records.jsonl"))
                  and open(os.path.join(outbox, "records.jsonl")).read()}}))
"""


def test_a_sandbox_ending_beside_another_graders_sandbox_leaves_it_alone(tmp_path):
    """Two graders (two processes), each with a sandbox: the short run ends
    and cleans up while the long one still runs; the long one finishes and
    records its answer (issue 36: the first grader's clean-up killed every
    process of the shared user id, and the other grader's students got 0)."""
    import subprocess

    code = SIDE_BY_SIDE.format(grading=os.path.join(ROOT, "course", "grading"))
    long_cells = [remember("slow", 1.0) + "\nimport time\ntime.sleep(20)",
                  remember("after_sleep", 2.0)]
    short_cells = [remember("quick", 3.0), "import subprocess\n"
                   "subprocess.Popen(['sleep', '1000'], start_new_session=True)"]
    slow = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "slow"),
                             json.dumps(long_cells)], stdout=subprocess.PIPE, text=True)
    time.sleep(3)
    quick = subprocess.run([sys.executable, "-c", code, str(tmp_path / "quick"),
                            json.dumps(short_cells)], capture_output=True, text=True)
    out, _ = slow.communicate(timeout=600)
    a, b = json.loads(out.splitlines()[-1]), json.loads(quick.stdout.splitlines()[-1])
    assert a["status"] == b["status"] == "finished", (a, b)
    assert '"after_sleep"' in a["records"] and '"quick"' in b["records"]
    if os.geteuid() == 0:
        assert a["uid"] != b["uid"]


def test_a_kernel_sending_invalid_execution_counts_does_not_stop_the_run(tmp_path):
    """get_ipython().execution_count = -100 makes every later result carry a
    count the notebook format forbids; nbclient raised on it and the run
    stopped (issue 36: every later answer scored 0). The runner drops such
    counts, counts them for the grader, and runs on."""
    outcome, records, status, outbox = run(tmp_path, [
        "get_ipython().execution_count = -100", "x = 1.0\nx", remember("after", 2.0)])
    assert outcome.status == "finished", outcome
    assert set(records) == {"after"} and not status["stopped"], status
    assert status["invalid_outputs"] >= 1
    nbformat.validate(nbformat.read(str(outbox / "executed.ipynb"), as_version=4))
