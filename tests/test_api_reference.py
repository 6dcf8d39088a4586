"""The API reference: one page per name of auklib.__all__, built without a warning.

builders/api_links.py writes the pages when Sphinx starts; the book's build
(builders/build_book.py, -W -n) renders them.  This test builds the API pages
alone (a few seconds), with the book's autodoc and napoleon settings from
_config.yml, as strictly: every docstring must be valid reST, every
cross-reference must resolve, and every public name must get its page, so
a new function added to __all__ with a broken docstring fails here before
the book build.
"""

import json
import os
import re
import shutil
import sys

import pytest
import yaml

import auklib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import api_links  # noqa: E402

sphinx = pytest.importorskip("sphinx")


def _book_settings():
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        config = yaml.safe_load(fh)["sphinx"]["config"]
    keys = [k for k in config if k.startswith(("autodoc_", "autosummary_", "napoleon_"))]
    keys.append("add_module_names")
    return {k: config[k] for k in keys}


def test_the_book_loads_the_extension_and_lists_the_generated_pages():
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        config = yaml.safe_load(fh)
    assert config["sphinx"]["local_extensions"]["api_links"] == "builders/"
    with open(os.path.join(ROOT, "_toc.yml"), encoding="utf-8") as fh:
        toc = yaml.safe_load(fh)
    api = [part for part in toc["parts"] if part["caption"] == "API reference"]
    assert api and api[0]["chapters"][0]["file"] == api_links.API_DOC
    assert api[0]["chapters"][0]["sections"] == [{"glob": api_links.GENERATED + "/*"}]


def test_write_pages_makes_one_page_per_public_name_and_drops_stale_ones(tmp_path):
    folder = tmp_path / api_links.GENERATED
    folder.mkdir(parents=True)
    (folder / "gone_function.rst").write_text("old")
    names = api_links.write_pages(str(tmp_path))
    assert names[:len(auklib.__all__)] == list(auklib.__all__)
    assert names[len(auklib.__all__):] == [f"dask.{n}" for n in _dask_all()]
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.rst" for n in names)
    text = (folder / "kappa_curve.rst").read_text()
    assert ".. autofunction:: kappa_curve" in text
    assert ".. autoclass:: KappaCurveDisplay" in api_links.page_text("KappaCurveDisplay")
    assert ".. autoexception:: UndefinedMetricWarning" in api_links.page_text(
        "UndefinedMetricWarning")
    text = api_links.page_text("dask.auk_score")
    assert ".. currentmodule:: auklib.dask" in text and ".. autofunction:: auk_score" in text


def _dask_all():
    pytest.importorskip("dask")
    import auklib.dask

    return list(auklib.dask.__all__)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from sphinx.application import Sphinx

    src = tmp_path_factory.mktemp("api-src")
    (src / "chapters" / "api").mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, "chapters", "api", "index.rst"),
                src / "chapters" / "api" / "index.rst")
    # a chapter-like page: its first inline-code mentions become links
    (src / "chapters" / "page.md").write_text(
        "# A chapter\n\nCall `auk_score` here, `auk_score(y, s)` again, and "
        "`KappaCurveDisplay.from_predictions`; `numpy.sort` stays code. On a "
        "cluster: `auklib.dask.auk_score`, then `auklib.dask.auk_score(y, s)` and "
        "`auk_score_bounds(y, s, n_bins=10)`. scikit-learn's `roc_auc_score` is "
        "not ours; `auklib.dask.roc_auc_score` is.\n\n"
        "```python\nauk_score(y, s)\n```\n", encoding="utf-8")
    (src / "index.md").write_text(
        "# Root\n\n```{toctree}\n:glob:\nchapters/page\nchapters/api/index\n"
        f"{api_links.GENERATED}/*\n{api_links.HELPERS_DOC}\n```\n", encoding="utf-8")
    conf = {"extensions": ["myst_parser", "api_links"], "nitpicky": True,
            "exclude_patterns": ["_build"], **_book_settings()}
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {os.path.join(ROOT, 'builders')!r})\n"
        + "\n".join(f"{k} = {v!r}" for k, v in conf.items()) + "\n", encoding="utf-8")
    out = src / "_build"
    warnings = []

    class Sink:
        def write(self, text):
            warnings.append(text)

        def flush(self):
            pass

    app = Sphinx(str(src), str(src), str(out / "html"), str(out / "doctrees"), "html",
                 status=None, warning=Sink(), freshenv=True, keep_going=True)
    app.build()
    return out / "html", re.sub(r"\x1b\[[0-9;]*m", "", "".join(warnings))


def test_api_pages_build_without_a_warning(built):
    _, warnings = built
    assert warnings == ""


def test_every_public_name_has_its_page(built):
    html, _ = built
    index = (html / "chapters" / "api" / "index.html").read_text(encoding="utf-8")
    for name in list(auklib.__all__) + [f"dask.{n}" for n in _dask_all()]:
        page = html / api_links.GENERATED / f"{name}.html"
        assert page.exists(), name
        text = page.read_text(encoding="utf-8")
        assert f'id="auklib.{name}"' in text, name        # the object's anchor
        # a row of the summary table links to it
        assert f'href="generated/{name}.html#auklib.{name}"' in index, name


def test_examples_are_rendered_on_the_pages(built):
    html, _ = built
    import html as html_lib

    page = (html / api_links.GENERATED / "auk_score.html").read_text(encoding="utf-8")
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", page))
    assert 'class="highlight-pycon' in page or 'class="doctest' in page  # a code block
    assert "Examples" in text and ">>> auk_score(y, s)" in text and "auk_score(y, s)" in text
    assert "References" in text and "Kaymak" in text


def test_first_inline_mention_links_to_the_api_page(built):
    html, _ = built
    text = (html / "chapters" / "page.html").read_text(encoding="utf-8")
    link = 'href="api/generated/auk_score.html#auklib.auk_score"'
    assert text.count(link) == 1  # the first mention only, not the code block
    assert 'href="api/generated/KappaCurveDisplay.html#auklib.KappaCurveDisplay' \
           '.from_predictions"' in text
    assert "numpy.sort" in text and "generated/numpy" not in text
    # auklib.dask: the qualified name, and a name only auklib.dask has
    link = 'href="api/generated/dask.auk_score.html#auklib.dask.auk_score"'
    assert text.count(link) == 1
    assert 'href="api/generated/dask.auk_score_bounds.html#auklib.dask.auk_score_bounds"' \
        in text
    # a bare name scikit-learn's metrics also have is scikit-learn's: only the
    # qualified mention links, once
    link = 'href="api/generated/dask.roc_auc_score.html#auklib.dask.roc_auc_score"'
    assert text.count(link) == 1
    bare = text.index("<span class=\"pre\">roc_auc_score</span>")
    assert "generated/dask.roc_auc_score" not in text[bare - 300:bare]


def test_the_summary_table_shows_each_docstrings_whole_summary_line(monkeypatch):
    """autosummary cut "Area under the kappa curve (AUK), eq. (21) of Kaymak et
    al." at "eq."; the table shows the docstring's first paragraph whole."""
    import inspect

    from sphinx.ext.autosummary import Autosummary

    assert api_links.summary_line("auklib.auk_score") == (
        "Area under the kappa curve (AUK), eq. (21) of Kaymak et al.")
    for name in auklib.__all__:
        first = inspect.getdoc(getattr(auklib, name)).split("\n\n")[0]
        assert api_links.summary_line(f"auklib.{name}") == " ".join(first.split())
    assert api_links.summary_line("auklib.no_such_name") == ""
    # the directive puts it in place of autosummary's cut
    monkeypatch.setattr(Autosummary, "get_items", lambda self, names: [
        ("auk_score", "(y_true, y_score)", "Area under the kappa curve (AUK), eq.",
         "auklib.auk_score")])
    directive = api_links._summary_directive()
    items = directive.get_items(object.__new__(directive), ["auk_score"])
    assert items[0][2].endswith("eq. (21) of Kaymak et al.")


def test_the_helpers_page_documents_every_aukbook_name_the_chapters_import():
    import importlib

    helpers = api_links.book_helpers(os.path.join(ROOT, "chapters"))
    assert "check" in helpers["aukbook.checks"]
    assert "binormal_roc" in helpers["aukbook.plotting"]
    assert sum(len(v) for v in helpers.values()) >= 20
    text = api_links.helpers_text(helpers)
    for module, names in helpers.items():
        mod = importlib.import_module(module)
        assert f".. currentmodule:: {module}" in text
        for name in names:
            assert hasattr(mod, name), f"{module}.{name}"
            assert re.search(rf"^\.\. (auto\w+|py:data):: {name}$", text, re.M), name
    with open(os.path.join(ROOT, "_toc.yml"), encoding="utf-8") as fh:
        toc = yaml.safe_load(fh)
    api = [part for part in toc["parts"] if part["caption"] == "API reference"][0]
    assert {"file": api_links.HELPERS_DOC} in api["chapters"]


def test_book_helpers_reads_imports_from_code_cells_only(tmp_path):
    nb = {"cells": [
        {"cell_type": "code", "source": ["%matplotlib inline\n",
                                         "from aukbook.plotting import (binormal_roc,\n",
                                         "    rate_grid)\n", "import numpy\n"]},
        {"cell_type": "markdown", "source": ["from aukbook.checks import check\n"]},
        {"cell_type": "code", "source": ["from auklib import auk_score\n"]}]}
    (tmp_path / "ch01_x.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    assert api_links.book_helpers(str(tmp_path)) == {
        "aukbook.plotting": ["binormal_roc", "rate_grid"]}
