"""Execute notebooks in place so that their stored outputs are fresh.

    python builders/run_notebooks.py chapters/*.ipynb

Run from the repository root (the kernel starts there, as nbval's does).
A failing cell stops with the error; nothing is written for that notebook.
The tables a page keeps in chapters/data through aukbook.stored are
recomputed in full (AUKBOOK_RECOMPUTE=1; set it to 0 to keep them).
"""

import os
import sys
import time

import nbformat
from nbclient import NotebookClient


def main(paths):
    os.environ.setdefault("AUKBOOK_RECOMPUTE", "1")     # the kernels inherit it
    env_root = os.getcwd()
    for path in paths:
        t0 = time.perf_counter()
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": os.path.dirname(path) or env_root}})
        client.execute()
        nbformat.write(nb, path)
        print(f"{path}: {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
