"""Runs inside the grading sandbox: execute one notebook, cell by cell.

    python runner.py /grading/in/<notebook>.ipynb --cell-cpu S --cell-wall S

Copies the input folder into the working folder (a tmpfs, the kernel's
current directory), starts a Jupyter kernel and runs every cell, with
errors allowed.  A cell that uses more than ``--cell-cpu`` seconds of CPU
(its kernel and the kernel's children) or ``--cell-wall`` seconds of wall-clock
time is interrupted; if the kernel does not stop within 5 seconds, or dies,
the run ends there.  The executed notebook is written to
``$AUKGRADE_OUT/executed.ipynb`` every few seconds and at the end, and
``status.json`` says where and why the run stopped.

Nothing this script writes is trusted by the grader: the student's code runs
beside it with the same rights.  The grader decides the marks from the
recorded values alone, and how the run ended from its own watchdog.
"""

import argparse
import json
import os
import shutil
import signal
import threading
import time

import nbformat
import psutil
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError

OUT = os.environ.get("AUKGRADE_OUT", ".")


def write_json(name, data):
    tmp = os.path.join(OUT, f".{name}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    os.replace(tmp, os.path.join(OUT, name))


def save(nb):
    tmp = os.path.join(OUT, ".executed.tmp")
    nbformat.write(nb, tmp)
    os.replace(tmp, os.path.join(OUT, "executed.ipynb"))


class CellWatch(threading.Thread):
    """Interrupts a cell that has used too much CPU or wall-clock time; kills a
    kernel that ignores the interrupt for 5 s (the run then ends there)."""

    def __init__(self, cell_cpu, cell_wall=float("inf")):
        super().__init__(daemon=True)
        self.cell_cpu = cell_cpu
        self.cell_wall = cell_wall
        self.start_wall = None
        self.start_cpu = None
        self.interrupted_at = None
        self.killed = False
        self.lock = threading.Lock()

    @staticmethod
    def kernel_tree():
        return psutil.Process().children(recursive=True)

    @classmethod
    def cpu(cls):
        total = 0.0
        for p in cls.kernel_tree():
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
        return total

    def begin_cell(self):
        with self.lock:
            self.start_cpu, self.interrupted_at = self.cpu(), None
            self.start_wall = time.monotonic()

    def end_cell(self):
        with self.lock:
            self.start_cpu = None

    def run(self):
        while True:
            time.sleep(0.25)
            with self.lock:
                if self.start_cpu is None:
                    continue
                used = self.cpu() - self.start_cpu
                late = time.monotonic() - self.start_wall > self.cell_wall
                if self.interrupted_at is None and (used > self.cell_cpu or late):
                    self.interrupted_at = time.monotonic()
                    self.signal(signal.SIGINT)
                elif self.interrupted_at and time.monotonic() - self.interrupted_at > 5:
                    self.killed = True
                    self.signal(signal.SIGKILL)

    def signal(self, sig):
        for p in self.kernel_tree():
            try:
                p.send_signal(sig)
                if sig == signal.SIGINT:
                    break            # the kernel only (the first child)
            except psutil.Error:
                pass


def _count_ok(count):
    return count is None or (isinstance(count, int) and not isinstance(count, bool)
                             and count >= 0)


class GuardedClient(NotebookClient):
    """nbclient that no message of the kernel can stop.  The kernel is the
    student's: ``get_ipython().execution_count = -100`` makes every later
    result carry a count the notebook format forbids, and nbclient then
    raises while building the output (the run stopped there and every later
    answer scored 0).  Such counts become None, an output that cannot be
    built is dropped, and both are counted for the grader."""

    invalid = 0

    def process_message(self, msg, cell, cell_index):
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, dict) and not _count_ok(content.get("execution_count")):
            content["execution_count"] = None
            self.invalid += 1
        return super().process_message(msg, cell, cell_index)

    def output(self, outs, msg, display_id, cell_index):
        try:
            return super().output(outs, msg, display_id, cell_index)
        except Exception:               # an output no kernel of ours sends: dropped
            self.invalid += 1
            return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook")
    parser.add_argument("--cell-cpu", type=float, default=120)
    parser.add_argument("--cell-wall", type=float, default=600)
    args = parser.parse_args()

    inbox = os.path.dirname(args.notebook)
    work = os.getcwd()
    for name in os.listdir(inbox):
        src = os.path.join(inbox, name)
        if name == "probes.json" or os.path.islink(src):
            continue
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(work, name), symlinks=False, dirs_exist_ok=True)
        else:
            shutil.copy(src, os.path.join(work, name))
    os.makedirs(os.environ.get("HOME", "/tmp/home"), exist_ok=True)
    cache = os.path.join(os.environ.get("AUKGRADE_CACHE") or
                         os.path.join(os.path.dirname(inbox), "cache"), "mpl")
    if os.path.isdir(cache) and os.environ.get("MPLCONFIGDIR"):
        shutil.copytree(cache, os.environ["MPLCONFIGDIR"], dirs_exist_ok=True)
    nb = nbformat.read(args.notebook, as_version=4)
    status = {"cells": len(nb.cells), "ran": 0, "stopped": None, "stopped_cell": None,
              "interrupted": [], "invalid_outputs": 0}
    write_json("status.json", status)

    watch = CellWatch(args.cell_cpu, args.cell_wall)
    watch.start()
    # the watch interrupts a cell at its wall-clock limit; nbclient's own
    # time-out is only the backstop
    client = GuardedClient(
        nb, timeout=int(args.cell_wall) + 30, allow_errors=True, interrupt_on_timeout=True,
        kernel_name="python3", resources={"metadata": {"path": work}},
        record_timing=False, iopub_timeout=10, shutdown_kernel="immediate",
        extra_arguments=["--HistoryManager.hist_file=:memory:"])
    last_save = time.monotonic()
    current = [None]
    try:
        with client.setup_kernel():
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                current[0] = index
                watch.begin_cell()
                try:
                    client.execute_cell(cell, index)
                finally:
                    watch.end_cell()
                status["ran"] = index + 1
                status["invalid_outputs"] = client.invalid
                if watch.interrupted_at is not None:
                    status["interrupted"].append(index)
                if any(o.get("ename") == "CellTimeoutError" for o in cell.get("outputs", [])):
                    status["interrupted"].append(index)
                if watch.killed:
                    status["stopped"] = "kept running after an interrupt"
                    status["stopped_cell"] = index
                    break
                if time.monotonic() - last_save > 3:
                    save(nb)
                    write_json("status.json", status)
                    last_save = time.monotonic()
    except DeadKernelError:
        status["stopped"] = ("the kernel died (the process exited or was killed)"
                             if not watch.killed else "kept running after an interrupt")
        status["stopped_cell"] = current[0]
    except Exception as err:             # the student's code may break nbclient anyhow
        status["stopped"] = f"the run failed ({type(err).__name__})"
        status["stopped_cell"] = current[0]
    status["invalid_outputs"] = client.invalid
    save(nb)
    write_json("status.json", status)


if __name__ == "__main__":
    main()
