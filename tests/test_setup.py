"""`make test` on a machine without Chromium: it installs it (as root, with
apt-get) or stops within seconds with the command to run (setup/)."""

import os
import shutil
import subprocess
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "setup", "system_packages.sh")


def fake_system(tmp_path, uid, apt=None):
    """A PATH with the basic commands, no Chromium, npm present; `id -u` prints
    ``uid``; ``apt`` is the body of a fake apt-get (None: no apt-get)."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("sh", "make", "cat", "dirname", "touch", "test", "echo", "rm", "env", "chmod"):
        real = shutil.which(tool)
        if real:
            (bin_ / tool).symlink_to(real)
    (bin_ / "npm").write_text("#!/bin/sh\nexit 0\n")
    (bin_ / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    if apt is not None:
        (bin_ / "apt-get").write_text("#!/bin/sh\n" + apt)
    for f in bin_.iterdir():
        if not f.is_symlink():
            f.chmod(0o755)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MAKE") and k not in ("MFLAGS", "PATH")}
    env["PATH"] = str(bin_)
    return bin_, env


@pytest.mark.parametrize("uid, apt, says", [
    (1000, "echo should-not-run >> $0.log; exit 1\n",
     "sudo apt-get install -y --no-install-recommends chromium"),
    (0, None, "this system has no apt-get; install chromium"),
])
def test_make_test_without_chromium_stops_within_seconds_with_the_command(
        tmp_path, uid, apt, says):
    bin_, env = fake_system(tmp_path, uid, apt)
    start = time.monotonic()
    run = subprocess.run(["make", "-C", ROOT, "--no-print-directory", "test"], env=env,
                         capture_output=True, text=True, timeout=60)
    took = time.monotonic() - start
    assert run.returncode != 0
    assert took < 10, took
    assert says in run.stderr, run.stderr
    assert "pytest" not in run.stdout + run.stderr     # nothing else started
    assert not (bin_ / "apt-get.log").exists()         # no install tried without root


def test_as_root_with_apt_get_the_missing_packages_are_installed(tmp_path):
    bin_, env = fake_system(tmp_path, 0, apt=(
        'echo "$@" >> "$(dirname "$0")/apt-get.log"\n'
        'case "$*" in *install*) printf "#!/bin/sh\\n" > "$(dirname "$0")/chromium";'
        ' chmod +x "$(dirname "$0")/chromium";; esac\n'))
    run = subprocess.run(["sh", SCRIPT], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    log = (bin_ / "apt-get.log").read_text().splitlines()
    assert log[0].startswith("update")
    assert log[1].endswith("install -y -qq --no-install-recommends chromium")
    # and a second run finds everything and does nothing
    again = subprocess.run(["sh", SCRIPT], env=env, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout == ""
    assert len((bin_ / "apt-get.log").read_text().splitlines()) == 2


def test_reading_a_notebook_compiles_no_iri_grammar():
    """Every nbgrader step, sandboxed run and test worker imports nbformat,
    hence jsonschema; with rfc3987-syntax installed, that import compiles ~35
    Earley parsers (2.3 s of CPU each time).  The venv is installed from the
    complete pins without resolving them again (Makefile, --no-deps), so the
    package stays out, and jsonschema skips the IRI formats no schema here
    uses."""
    import sys

    with open(os.path.join(ROOT, "requirements.txt"), encoding="utf-8") as fh:
        pins = {line.split("==")[0].strip().lower() for line in fh if "==" in line}
    assert "rfc3987-syntax" not in pins
    code = ("import sys, nbformat, jsonschema; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('rfc3987_syntax', 'lark')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert proc.stdout.strip() == "[]", proc.stdout


def test_the_installed_pins_satisfy_every_requirement():
    """Installed without resolving (--no-deps), the pins must still be a
    complete set: uv's check finds no missing or conflicting requirement."""
    import sys

    uv = os.path.join(os.path.dirname(sys.executable), "uv")
    if not os.path.exists(uv):
        pytest.skip("uv is not in this environment (make installs it into .venv)")
    proc = subprocess.run([uv, "pip", "check", "--python", sys.executable],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
