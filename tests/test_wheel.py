"""auklib as a package: ``python -m build`` makes an sdist and a wheel of the
library alone, with valid metadata, and the wheel installed into a fresh
virtual environment (outside the repository) passes its own doctests and
runs its README's example.

The build runs on a copy of the checkout's files (what a fresh clone holds),
offline: ``--no-isolation`` with the setuptools pinned in requirements.txt.
The fresh environment is made by uv (pinned in the Makefile) from the same
pins, out of uv's cache, which ``make .venv/.installed`` has filled.
"""

import ast
import email
import glob
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from xml.etree import ElementTree

import pytest
from packaging.metadata import Metadata
from packaging.utils import canonicalize_name
from trove_classifiers import classifiers as TROVE

import auklib
from test_library_readme import (code_blocks, published_book, pyproject, readme_text,
                                 repository)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UV = shutil.which("uv", path=os.path.dirname(sys.executable)) or shutil.which("uv")
# what the sdist may hold besides auklib/ and auklib.egg-info/
SDIST_TOP = {"pyproject.toml", "PKG-INFO", "setup.cfg", "MANIFEST.in"}


def checkout_files():
    """The checkout's files as a fresh clone (plus uncommitted work) has them."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return sorted({p for p in listed.decode().split("\0")
                   if p and os.path.isfile(os.path.join(ROOT, p))})


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    """(sdist, wheel) built by ``python -m build`` from a copy of the checkout."""
    tmp = tmp_path_factory.mktemp("build")
    src = tmp / "src"
    for path in checkout_files():
        os.makedirs(src / os.path.dirname(path), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, path), src / path)
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp / "dist"), str(src)],
                   check=True, capture_output=True)
    sdist, = glob.glob(str(tmp / "dist" / "*.tar.gz"))
    wheel, = glob.glob(str(tmp / "dist" / "*.whl"))
    return sdist, wheel


def wheel_metadata(wheel):
    with zipfile.ZipFile(wheel) as zf:
        name, = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        return zf.read(name).decode()


def test_sdist_and_wheel_hold_the_library_only(dists):
    sdist, wheel = dists
    modules = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "auklib", "*.py")))
    base = os.path.basename(sdist).removesuffix(".tar.gz")
    with tarfile.open(sdist) as tf:
        files = [m.name.removeprefix(base + "/") for m in tf.getmembers() if m.isfile()]
    for name in files:
        top = name.split("/")[0]
        assert (name in SDIST_TOP or top == "auklib.egg-info" or name.startswith("LICENSE")
                or name in modules or name in ("auklib/README.md", "auklib/CHANGELOG.md")), name
    assert set(modules) | {"auklib/README.md", "auklib/CHANGELOG.md", "pyproject.toml"} <= set(files)
    with zipfile.ZipFile(wheel) as zf:
        files = zf.namelist()
    assert sorted(n for n in files if not n.split("/")[0].endswith(".dist-info")) == modules


def test_metadata_is_valid_and_says_what_the_library_is(dists):
    sdist, wheel = dists
    text = wheel_metadata(wheel)
    meta = Metadata.from_email(text, validate=True)        # what twine and PyPI check
    project = pyproject()["project"]
    assert "version" in project["dynamic"] and "version" not in project
    assert meta.name == "auklib" and str(meta.version) == auklib.__version__
    assert os.path.basename(wheel).startswith(f"auklib-{auklib.__version__}-py3-none-any")
    assert meta.summary and len(meta.summary) <= 200 and "\n" not in meta.summary
    assert meta.description_content_type == "text/markdown"
    assert meta.description.strip() == readme_text().strip()
    assert str(meta.requires_python) == ">=3.10"
    assert meta.license_expression == "MIT"
    assert meta.classifiers and all(c in TROVE for c in meta.classifiers)
    python_classifiers = [c for c in meta.classifiers if c.startswith("Programming Language :: Python :: 3.")]
    assert all(meta.requires_python.contains(c.rsplit(" ", 1)[1]) for c in python_classifiers)
    assert set(meta.provides_extra) == {"plot", "dask"}
    for req in meta.requires_dist:             # lower bounds, never exact pins
        assert [s.operator for s in req.specifier] == [">="], req
    url, _branch = repository()
    book = published_book()                          # the published book
    assert meta.project_urls and all(u.startswith((url, book))
                                     for u in meta.project_urls.values())
    assert meta.project_urls["Documentation"].startswith(book)
    # the sdist says the same
    base = os.path.basename(sdist).removesuffix(".tar.gz")
    with tarfile.open(sdist) as tf:
        pkg_info = tf.extractfile(f"{base}/PKG-INFO").read().decode()
    assert email.message_from_string(pkg_info)["Version"] == auklib.__version__
    assert Metadata.from_email(pkg_info, validate=True).requires_dist == meta.requires_dist


def _third_party_imports(path, names):
    """{(distribution, at module level)} of the modules a source file imports
    (names: importlib.metadata.packages_distributions())."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    top = set(tree.body)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            mods = [node.module]
        else:
            continue
        for mod in mods:
            root = mod.split(".")[0]
            if root in sys.stdlib_module_names or root == "auklib":
                continue
            dist, = names[root]
            found.add((canonicalize_name(dist), node in top))
    return found


def test_every_imported_package_is_a_declared_dependency(dists):
    """A module-level import is a dependency of ``pip install auklib``; one
    inside a function (matplotlib in display.py) or in auklib.dask belongs to
    an extra."""
    meta = Metadata.from_email(wheel_metadata(dists[1]), validate=True)
    base = {canonicalize_name(r.name) for r in meta.requires_dist if r.marker is None}
    extra = {canonicalize_name(r.name) for r in meta.requires_dist if r.marker is not None}
    names = importlib.metadata.packages_distributions()
    for path in glob.glob(os.path.join(ROOT, "auklib", "*.py")):
        in_extra = os.path.basename(path) == "dask.py"
        for dist, module_level in _third_party_imports(path, names):
            if module_level and not in_extra:
                assert dist in base, (path, dist)
            else:
                assert dist in base | extra, (path, dist)


# The run inside the fresh environment: the installed package is the one
# imported, its metadata has the version written in auklib.__version__, and
# the README's example prints what the README shows.
README_CHECK = '''
import contextlib, importlib.metadata, io, json, os, sys
import auklib

BLOCKS = json.loads({blocks!r})


def test_the_installed_wheel_is_imported():
    assert os.path.realpath(auklib.__file__).startswith(os.path.realpath(sys.prefix))
    assert importlib.metadata.version("auklib") == auklib.__version__


def test_readme_example():
    for code, expected in BLOCKS:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {{"__name__": "__readme__"}})
        assert out.getvalue() == expected
'''


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PYTEST"))}
    env.update(extra)
    return env


@pytest.mark.skipif(UV is None, reason="uv is not installed (make .venv/.installed installs it)")
def test_installed_wheel_passes_its_doctests_and_readme_example(dists):
    _sdist, wheel = dists
    with tempfile.TemporaryDirectory(prefix="auklib-wheel-") as tmp:  # not under the repository
        venv = os.path.join(tmp, "venv")
        python = os.path.join(venv, "bin", "python")
        env = _clean_env(MPLBACKEND="Agg")
        subprocess.run([UV, "venv", "--quiet", "--python", sys.executable, venv],
                       cwd=tmp, env=env, check=True, capture_output=True)
        install = [UV, "pip", "install", "--quiet", "--python", python,
                   "--constraint", os.path.join(ROOT, "requirements.txt"),
                   f"{wheel}[plot,dask]", "pytest"]
        done = subprocess.run(install + ["--offline"], cwd=tmp, env=env, capture_output=True, text=True)
        if done.returncode:                    # uv's cache lacks a pinned package
            done = subprocess.run(install, cwd=tmp, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
        blocks = json.dumps(code_blocks(readme_text()))
        with open(os.path.join(tmp, "test_readme_example.py"), "w") as fh:
            fh.write(README_CHECK.format(blocks=blocks))
        with open(os.path.join(tmp, "pytest.ini"), "w") as fh:
            fh.write("[pytest]\n")
        run = subprocess.run(
            [python, "-I", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "pytest.ini",
             "--rootdir", tmp, "-W", "error::RuntimeWarning", "--junitxml", "report.xml",
             "--doctest-modules", "test_readme_example.py", "--pyargs", "auklib"],
            cwd=tmp, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
        # every module with examples had its doctests run, none skipped
        cases = ElementTree.parse(os.path.join(tmp, "report.xml")).getroot().iter("testcase")
        ran = {}
        for case in cases:
            assert not list(case), ElementTree.tostring(case)[:500]    # no skip, failure, error
            module = case.get("classname")
            if module != "test_readme_example":              # a doctest: from site-packages
                assert ".site-packages.auklib." in module, module
                module = module.split(".site-packages.")[1]
            ran.setdefault(module, []).append(case.get("name"))
        site, = glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "auklib"))
        with_examples = sorted(
            f"auklib.{os.path.basename(p)[:-3]}" for p in glob.glob(os.path.join(site, "*.py"))
            if ">>> " in open(p, encoding="utf-8").read())
        assert len(with_examples) >= 10 and all(ran.get(m) for m in with_examples), sorted(ran)
        assert sorted(ran["test_readme_example"]) == ["test_readme_example",
                                                      "test_the_installed_wheel_is_imported"]
