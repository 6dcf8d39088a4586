"""The library's own README (auklib/README.md, its description as a package)
and changelog cannot go stale: the table lists every public name, the
example prints what the README shows, the links point into the repository
configured in _config.yml, the extras are the ones pyproject.toml declares.
"""

import contextlib
import io
import os
import re
import tomllib

import yaml

import auklib
import auklib.dask

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "auklib", "README.md")
CHANGELOG = os.path.join(ROOT, "auklib", "CHANGELOG.md")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def readme_text():
    with open(README, encoding="utf-8") as fh:
        return fh.read()


def code_blocks(text):
    """[(language, code, expected output or None)]: a ```text block right
    after a ```python block is what that block prints."""
    blocks = [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]
    out = []
    for i, (lang, code) in enumerate(blocks):
        if lang != "python":
            continue
        after = blocks[i + 1] if i + 1 < len(blocks) else None
        out.append((code, after[1] if after and after[0] == "text" else None))
    return out


def pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        return tomllib.load(fh)


def repository():
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        repo = yaml.safe_load(fh)["repository"]
    return repo["url"].rstrip("/"), repo.get("branch", "main")


def test_readme_example_prints_what_the_readme_shows():
    blocks = code_blocks(readme_text())
    assert blocks and all(expected for _code, expected in blocks)
    for code, expected in blocks:
        assert len(code.strip().splitlines()) <= 16       # a short example
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, README, "exec"), {"__name__": "__readme__"})
        assert out.getvalue() == expected


def _table_sections(text):
    """{section title: [backquoted names of the table rows' first cells]} and
    every backquoted word anywhere in the table, per section."""
    section, first, anywhere = "", {}, {}
    start = text.index("## Functions at a glance")
    end = text.index("\n## ", start + 1)
    for line in text[start:end].splitlines():
        if not line.startswith("| ") or line.startswith("| ---") or line.startswith("| Name"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0].startswith("**"):
            section = cells[0]
            continue
        first.setdefault(section, []).extend(re.findall(r"`([\w.]+)`", cells[0]))
        anywhere.setdefault(section, set()).update(re.findall(r"`([\w.]+)`", line))
    return first, anywhere


def test_table_lists_every_public_name_and_no_other():
    first, anywhere = _table_sections(readme_text())
    dask_sections = [s for s in first if "auklib.dask" in s]
    assert len(dask_sections) == 1
    top = [name for s in first if s not in dask_sections for name in first[s]]
    dask = [name for name in first[dask_sections[0]]]
    assert len(top) == len(set(top)), "a name listed twice"
    # a row for a name the library does not export (any more) fails
    assert set(top) <= set(auklib.__all__), set(top) - set(auklib.__all__)
    assert {f"auklib.dask.{n}" for n in auklib.dask.__all__} >= set(dask)
    # and every exported name is in the table: a row of its own, or (a result
    # type) named in the row of the function that returns it
    seen_top = set().union(*(anywhere[s] for s in anywhere if s not in dask_sections))
    missing = [n for n in auklib.__all__ if n not in seen_top]
    assert not missing, f"auklib/README.md's table lacks {missing}"
    seen_dask = {w.removeprefix("auklib.dask.") for w in anywhere[dask_sections[0]]}
    missing = [n for n in auklib.dask.__all__ if n not in seen_dask]
    assert not missing, f"auklib/README.md's table lacks auklib.dask's {missing}"


def published_book():
    """The published book's address, _config.yml's html: baseurl."""
    with open(os.path.join(ROOT, "_config.yml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)["html"]["baseurl"].rstrip("/")


def test_links_point_into_the_configured_repository_or_the_published_book():
    url, branch = repository()
    book = published_book()
    project = pyproject()["project"]
    links = re.findall(r"https?://[^\s<>()\"'`]+", readme_text())
    links += list(project["urls"].values())
    assert any(link.rstrip("/") == url for link in links)
    for link in links:
        link = link.rstrip("/.,")
        if link == book or link.startswith(book + "/"):
            # a page of the book: its source is a chapter notebook or page
            page = link[len(book):].strip("/")
            if page:
                stem = os.path.join(ROOT, *page.removesuffix(".html").split("/"))
                assert any(os.path.isfile(stem + ext) for ext in (".md", ".ipynb", ".rst")), link
            continue
        assert link == url or link.startswith(url + "/"), link
        rest = link[len(url):].lstrip("/")
        kind, _, path = rest.partition("/")
        if kind in ("tree", "blob"):
            ref, _, path = path.partition("/")
            assert ref == branch, link
            where = os.path.join(ROOT, *path.split("/"))
            assert (os.path.isdir if kind == "tree" else os.path.isfile)(where), link
        else:
            assert rest in ("", "issues"), link


def test_published_book_is_the_repositorys_github_pages_and_hosts_the_api_reference():
    url, _branch = repository()
    owner, name = url.removeprefix("https://github.com/").split("/")
    assert published_book() == f"https://{owner.lower()}.github.io/{name}"
    docs = pyproject()["project"]["urls"]["Documentation"]
    assert docs == published_book() + "/chapters/api/index.html"
    assert f"pip install auklib " in readme_text()


def test_install_lines_name_the_declared_extras_and_python():
    text = readme_text()
    project = pyproject()["project"]
    named = set()
    for extras in re.findall(r'"(?:auklib|\.)\[([\w,]+)\]"', text):
        named.update(extras.split(","))
    assert named == set(project["optional-dependencies"])
    named = set()
    for extras in re.findall(r'"(?:auklib|\.)\[([\w,]+)\]', text):
        named.update(extras.split(","))
    assert named == set(project["optional-dependencies"])
    url, _branch = repository()
    for spec in re.findall(r'"auklib(?:\[[\w,]+\])? @ ([^"]+)"', text):
        assert spec == f"git+{url}"
    lowest = project["requires-python"].removeprefix(">=")
    assert f"Python {lowest} or newer" in text


def test_changelog_starts_at_the_current_version():
    with open(CHANGELOG, encoding="utf-8") as fh:
        versions = re.findall(r"^## (\S+)", fh.read(), re.M)
    assert versions and versions[0] == auklib.__version__
    assert len(versions) == len(set(versions))
