"""auklib agrees with R's pROC, vcd and psych, scikit-learn and hmeasure.

The reference values were computed once by the tools themselves
(``chapters/data/reference/make_reference.py`` and ``reference.R``) and are
stored, so this test needs no R.  Which auklib call answers which reference
quantity is written once, in ``aukbook.reference``, which the appendix
*Agreement with the reference tools* uses too.
"""

import csv
import datetime
import importlib.util
import os
import re

import numpy as np
import pytest

import auklib

from aukbook import reference as R

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "chapters", "data", "reference")


@pytest.fixture(scope="module")
def stored():
    return R.load(DATA)


def _generator():
    spec = importlib.util.spec_from_file_location(
        "make_reference", os.path.join(DATA, "make_reference.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_data_files_are_drawn_again_identically_from_the_seed(stored):
    gen = _generator()
    binary, multi = gen.binary_datasets(), gen.multiclass_datasets()
    for path, header, rows in (
        (gen.BINARY_CSV, gen.BINARY_COLUMNS, gen.binary_rows(binary)),
        (gen.MULTICLASS_CSV, gen.MULTICLASS_COLUMNS, gen.multiclass_rows(multi)),
    ):
        with open(path, newline="", encoding="utf-8") as fh:
            assert list(csv.reader(fh)) == [header] + rows, os.path.basename(path)
    # and what auklib reads from the files is exactly what was drawn
    _, read_binary, read_multi = stored
    assert list(read_binary) == [name for name, _, _ in gen.BINARY]
    for name, d in binary.items():
        for key, values in d.items():
            assert np.array_equal(read_binary[name][key], values), (name, key)
    for name, d in multi.items():
        for key, values in d.items():
            assert np.array_equal(read_multi[name][key], values), (name, key)


def test_data_family_holds_the_hard_cases(stored):
    _, binary, _ = stored
    n_pos = {name: int(d["y"].sum()) for name, d in binary.items()}
    assert min(n_pos.values()) == 3
    share = binary["one_percent"]["y"].mean()
    assert share == 0.01
    ties = binary["ties"]
    for s in (ties["score_a"], ties["score_b"]):
        both = np.intersect1d(s[ties["y"] == 1], s[ties["y"] == 0])
        assert both.size >= 3  # scores tied across the classes
    crisp = binary["crisp"]
    assert set(np.unique(crisp["score_a"])) == {0.0, 1.0}
    perfect = binary["perfect"]
    assert perfect["score_a"][perfect["y"] == 1].min() > perfect["score_a"][perfect["y"] == 0].max()
    assert len(set(np.unique(binary["weighted"]["weight"]))) > 1


def test_reference_file_names_tools_versions_date_and_command(stored):
    reference, binary, multi = stored
    for tool in ("R", "pROC", "vcd", "psych", "stats", "scikit-learn", "hmeasure (PyPI)"):
        assert re.fullmatch(r"\d+(\.\d+)+", reference["tools"][tool]), tool
    datetime.date.fromisoformat(reference["generated"])
    assert reference["command"].endswith("python make_reference.py")
    assert reference["seed"] == _generator().SEED
    assert list(reference["binary"]) == list(binary)
    assert list(reference["multiclass"]) == list(multi)
    for name, entry in reference["binary"].items():
        weighted = not np.all(binary[name]["weight"] == 1)
        unweighted_only = {"pROC", "vcd", "psych", "stats", "hmeasure"}
        assert unweighted_only & set(entry) == (set() if weighted else unweighted_only), name


def _function(call):
    """The first auklib function a comparison's auklib call names."""
    names = re.findall(r"[A-Za-z_][\w.]*", call)
    return next(n for n in names if n.split(".")[-1] in auklib.__all__ or n.startswith("auklib."))


@pytest.mark.parametrize(
    "comparison", R.COMPARISONS,
    ids=[f"{i:02d}-{c.tool}-{_function(c.auklib)}" for i, c in enumerate(R.COMPARISONS)])
def test_auklib_agrees_with_reference_tool(comparison, stored):
    diffs = R.differences(comparison, *stored)
    assert diffs, f"no stored values of {comparison.tool} for {comparison.reference}"
    worst_case, worst = max(diffs, key=lambda cd: cd[1].max())
    assert worst.max() <= R.TOLERANCE, (
        f"{comparison.auklib} differs from {comparison.tool}'s {comparison.reference} "
        f"by {worst.max():.3g} on data set {worst_case.dataset!r} "
        f"(classifier {worst_case.scorer})")


class _Recording(dict):
    """A dict that notes the path of every stored value read through it."""

    def __init__(self, data, path, seen):
        super().__init__(data)
        self._path, self._seen = path, seen

    def __getitem__(self, key):
        value = super().__getitem__(key)
        path = self._path + (key,)
        if isinstance(value, dict):
            return _Recording(value, path, self._seen)
        self._seen.add(path)
        return value


def _leaves(node, path):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, path + (key,))
    else:
        yield path


def test_every_stored_reference_value_is_compared_or_listed_as_not_compared(stored):
    reference, binary, multi = stored
    seen = set()
    for comp in R.COMPARISONS:
        for case in R.cases(comp, reference, binary, multi):
            kind = "multiclass" if comp.kind == "multiclass" else "binary"
            ref = _Recording(case.ref, (kind, case.dataset), seen)
            comp.pairs(case._replace(ref=ref))
    stored_values = set()
    for kind in ("binary", "multiclass"):
        for name, entry in reference[kind].items():
            for tool, values in entry.items():
                if isinstance(values, dict):
                    stored_values |= set(_leaves(values, (kind, name, tool)))
    unread = stored_values - seen

    def places(path):  # the NOT_COMPARED keys that would cover this value
        kind, name, tool, quantity = path[0], path[1], path[2], path[-1]
        wheres = ("multiclass",) if kind == "multiclass" else (name, "*")
        return {(tool, quantity, where) for where in wheres}

    listed = {path for path in unread if places(path) & set(R.NOT_COMPARED)}
    assert unread == listed, sorted(unread - listed)[:10]
    # and every entry of NOT_COMPARED names values that exist and are unread
    used = set().union(*(places(path) for path in listed))
    assert set(R.NOT_COMPARED) <= used, set(R.NOT_COMPARED) - used
