"""The README's layout section is the map of the repository: every folder and
file it names exists, and every top-level entry of the tree is on it."""

import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILT = ("_build/", "student/")   # editions: written by make, not committed


def layout_block():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```", 2)[1]


def named_paths(block):
    """Words of the map that are paths: folders (ending in /) and files."""
    words = re.findall(r"(?<![\w/.])([\w.-]+(?:/[\w.-]+)*/?)", block)
    return {w for w in words
            if w.endswith("/") or re.search(r"\.(py|yml|bib|txt|toml|json|in|md)$", w)
            or w in ("Makefile", ".ci/run")}


def test_every_path_on_the_map_exists():
    missing = [p for p in named_paths(layout_block())
               if not p.startswith(BUILT) and not os.path.exists(os.path.join(ROOT, p))]
    assert not missing, f"README's layout names what the tree lacks: {missing}"


def test_every_top_level_entry_is_on_the_map():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    top = {f.split("/")[0] + ("/" if "/" in f else "") for f in files}
    top -= {".gitignore", "README.md", "package-lock.json"}
    on_map = {p.split("/")[0] + ("/" if "/" in p else "") for p in named_paths(layout_block())}
    assert top <= on_map, f"not on the README's layout: {sorted(top - on_map)}"


def test_every_folder_of_scripts_has_a_readme():
    for folder in ("builders", "checks", "course", "setup", os.path.join("chapters", "data")):
        assert os.path.exists(os.path.join(ROOT, folder, "README.md")), folder
