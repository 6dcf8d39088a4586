"""Write the hashed self-check files from the reference answers.

    python course/make_checks.py           # rewrite bookkit/aukbook/checks/*.json
    python course/make_checks.py --check   # exit 1 if any file is out of date

Each module ``tests/answers/<chapter>.py`` holds ``ANSWERS``; the matching
``bookkit/aukbook/checks/<chapter>.json`` keeps each exercise's form, hint and
tolerance, and, instead of the reference values, their hashed grid cells
(see ``aukbook.checks``).  For answers that are functions it keeps the probe
arguments and the hashed reference outputs at those arguments.
"""

import argparse
import importlib
import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
OUT = os.path.join(ROOT, "bookkit", "aukbook", "checks")

from aukbook.checks import _cell, _digest  # noqa: E402


def chapter_modules():
    folder = os.path.join(ROOT, "tests", "answers")
    return sorted(f[:-3] for f in os.listdir(folder)
                  if f.endswith(".py") and f.startswith("ch"))  # not grading.py


def hashed(label, answer):
    spec = {"form": answer.form, "hint": answer.hint, "atol": answer.atol,
            "kind": answer.kind}
    if answer.kind == "function":
        rng = np.random.default_rng(20261121)
        probes = [list(answer.probe(rng)) for _ in range(answer.n_probes)]
        values = [float(answer.reference(*args)) for args in probes]
        spec["probes"] = probes
    elif answer.kind == "values":
        values = [float(v) for v in np.atleast_1d(np.asarray(answer.reference(), float))]
    else:
        raise ValueError(f"{label}: kind must be 'values' or 'function'")
    spec["digests"] = [_digest(label, i, _cell(v, answer.atol))
                       for i, v in enumerate(values)]
    return spec


def render(name):
    module = importlib.import_module(f"answers.{name}")
    data = {label: hashed(label, a) for label, a in sorted(module.ANSWERS.items())}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare")
    args = parser.parse_args()
    stale = []
    for name in chapter_modules():
        path = os.path.join(OUT, f"{name}.json")
        text = render(name)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            stale.append(path)
            if not args.check:
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
    known = {f"{n}.json" for n in chapter_modules()}
    orphans = [f for f in os.listdir(OUT) if f.endswith(".json") and f not in known]
    for f in orphans:
        stale.append(os.path.join(OUT, f))
        if not args.check:
            os.remove(os.path.join(OUT, f))
    if stale:
        print(("out of date: " if args.check else "written: ") + ", ".join(
            os.path.relpath(p, ROOT) for p in stale))
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
