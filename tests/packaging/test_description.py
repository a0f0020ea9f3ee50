"""PACKAGE.md, the package's description on the package index: short, with no link into
the repository (there is none for its readers), and true: the commands, pages, extras,
versions and numbers it states are the package's."""

from __future__ import annotations

import argparse
import re
import tomllib

from mcbews_repl import bundled
from mcbews_repl.cli import build_parser

from .tools import REPO

TEXT = (REPO / "PACKAGE.md").read_text(encoding="utf-8")
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def subcommands() -> set[str]:
    [action] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return set(action.choices)


def test_it_is_the_package_description_and_stays_short() -> None:
    assert PROJECT["readme"] == "PACKAGE.md"
    assert len(TEXT.splitlines()) <= 80


def test_it_has_no_relative_link_or_picture() -> None:
    assert re.findall(r"\]\((?!https://)[^)]*\)", TEXT) == []
    assert "<img" not in TEXT and "](" not in TEXT  # no address to link to yet


def test_the_commands_and_pages_it_names_exist() -> None:
    named = set(re.findall(r"mcbews-repl (\w+)", TEXT))
    assert {"lab", "docs", "addon"} <= named <= subcommands()
    pages = re.findall(r"mcbews-repl\s+docs\s+(\w+)", TEXT)
    assert pages and all(bundled.page(name).is_file() for name in pages)
    notebooks = [f for f in bundled.files() if f.startswith("notebooks/")]
    assert "the eleven notebooks" in TEXT and len(notebooks) == 11


def test_the_extras_and_versions_it_states_are_the_packages() -> None:
    extras = PROJECT["optional-dependencies"]
    assert re.findall(r"`(\w+)` \(", TEXT) == ["repl", "lab"]
    assert {"ipython>=8.12", "pandas>=2.0", "rich>=13"} <= set(extras["repl"])
    assert set(extras["repl"]) | {"jupyterlab>=4", "matplotlib>=3.8"} <= set(extras["lab"])
    versions = re.search(r"with Python ([\d., or]+)\.", TEXT)
    assert versions is not None
    stated = re.findall(r"3\.\d+", versions[1])
    claimed = [c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"] if re.search(r":: 3\.\d+$", c)]
    assert stated == claimed
