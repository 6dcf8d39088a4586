"""Checks on the stored notebooks that nbval does not make."""

import glob
import json
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(__file__))
NOTEBOOKS = sorted(glob.glob(os.path.join(ROOT, "chapters", "*.ipynb")))
RENDERED = {"text/html", "image/png", "image/jpeg", "image/svg+xml", "text/plain",
            "text/markdown", "text/latex"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_every_output_has_a_rendered_mime_type(path):
    nb = json.load(open(path))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data is None:
                continue
            assert RENDERED & set(data), f"{path}: output with only {sorted(data)}"
            if "application/vnd.plotly.v1+json" in data:
                assert "text/html" in data, f"{path}: plotly output without its HTML div"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_stored_with_outputs_and_no_errors(path):
    nb = json.load(open(path))
    code = [c for c in nb["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    assert all(c.get("execution_count") for c in code), f"{path} has unexecuted cells"
    for c in code:
        assert not any(o.get("output_type") == "error" for o in c.get("outputs", []))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_captioned_figures_have_an_image(path):
    nb = json.load(open(path))
    for cell in nb["cells"]:
        fig = cell.get("metadata", {}).get("mystnb", {}).get("figure")
        if fig:
            kinds = {k for o in cell.get("outputs", []) for k in o.get("data", {})}
            # an image, or a plotly figure (its JSON for Jupyter, its div for the book)
            plotly = {"application/vnd.plotly.v1+json", "text/html"} <= kinds
            assert kinds & {"image/png", "image/svg+xml"} or plotly, \
                f"{path}: figure {fig['name']} has no image"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=os.path.basename)
def test_no_stderr_stored(path):
    # warnings carry machine-specific paths, which would break strict nbval in a clone
    nb = json.load(open(path))
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            assert out.get("name") != "stderr", f"{path}: stderr output stored: {''.join(out['text'])[:120]}"
