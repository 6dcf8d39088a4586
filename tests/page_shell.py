"""Run a list of code cells in a fresh IPython shell, in a process of its own.

A Jupyter kernel spends about 3 s of processor time starting and importing
numpy, SciPy, scikit-learn, pandas, matplotlib, plotly and SymPy before a
page's first cell does anything.  ``run_cells`` instead forks each run from
a server process that has imported those packages once (multiprocessing's
``forkserver`` with a preload list), and runs the cells in a new
``InteractiveShell``: the IPython a kernel wraps, with the same cell
transformations (``get_ipython()``, magics) and ``display``.  The run's
namespace starts empty, as in a fresh kernel: a cell can use a package only
after importing it, and an import the environment cannot satisfy fails.
What the preload changes is only where the imported modules come from.

Display output is formatted as text only (the shell has no front end to
show HTML or images); a kernel that fails to render a rich output shows a
warning, not an error, so no failure is hidden by this.
"""

import multiprocessing
import os

PRELOAD = ["numpy", "scipy.stats", "scipy.optimize", "pandas", "sklearn.linear_model",
           "sklearn.metrics", "sklearn.model_selection", "matplotlib.pyplot",
           "plotly.graph_objects", "sympy", "IPython.core.interactiveshell"]
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(PRELOAD)


def _run(cells, cwd, conn):
    import contextlib
    import io

    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    os.chdir(cwd)
    config = Config()
    config.HistoryManager.enabled = False   # no shared history database to lock
    shell = InteractiveShell.instance(config=config, colors="NoColor")
    for k, src in enumerate(cells):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            result = shell.run_cell(src, store_history=False)
        if not result.success:
            error = result.error_before_exec or result.error_in_exec
            conn.send((k, type(error).__name__, out.getvalue()[-6000:]))
            return
    conn.send(None)


def run_cells(cells, cwd, timeout=300):
    """Run ``cells`` (sources) in order in a fresh shell whose working folder is ``cwd``.

    Returns None if every cell ran, else ``(index of the failing cell, the
    exception's type name, the end of what the shell printed)``.
    """
    here, there = _CONTEXT.Pipe(duplex=False)
    child = _CONTEXT.Process(target=_run, args=(cells, cwd, there))
    child.start()
    there.close()
    try:
        if not here.poll(timeout):
            child.kill()
            return len(cells), "TimeoutError", f"no answer within {timeout} s"
        try:
            return here.recv()
        except EOFError:
            child.join(10)
            return (len(cells), "ChildProcessError",
                    f"the shell's process ended with exit code {child.exitcode}")
    finally:
        child.join(10)
