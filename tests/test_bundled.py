"""The files users are sent to, found in the checkout (this is an editable install): every
notebook and doc, pages by their short names, and links among them that stay inside the
bundle, so they work wherever the bundle is copied (a wheel, mcbews-repl lab's folder)."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest

from mcbews_repl import bundled

REPO = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_in_a_checkout_the_files_are_the_repositorys() -> None:
    assert bundled.root() == REPO
    names = bundled.files()
    assert {"README.md", "LICENSE", "addon/README.md", "docs/windows.md",
            "docs/images/getting-started.png", bundled.GETTING_STARTED} <= set(names)  # fmt: skip
    notebooks = sorted(f"notebooks/{p.name}" for p in (REPO / "notebooks").glob("*.ipynb"))
    assert [n for n in names if n.startswith("notebooks/")] == notebooks and len(notebooks) >= 9
    assert not [n for n in names if "checkpoint" in n or "__pycache__" in n]


def test_pages_by_their_short_names() -> None:
    assert bundled.page("windows") == REPO / "docs" / "windows.md"
    assert bundled.page("addon") == REPO / "addon" / "README.md"
    assert bundled.page("License") == REPO / "LICENSE"
    assert bundled.page("docs/repl.md") == REPO / "docs" / "repl.md"
    assert bundled.page_names()[-3:] == ["readme", "license", "addon"]
    with pytest.raises(LookupError, match="no page 'nope'; the pages: agents, architecture, "):
        bundled.page("nope")


def links(relative: str) -> list[str]:
    text = (REPO / relative).read_text(encoding="utf-8")
    if relative.endswith(".ipynb"):
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:|#", t)]


def test_every_relative_link_in_the_bundle_stays_in_the_bundle() -> None:
    names = set(bundled.files())
    outside = []
    for relative in names:
        if relative.endswith((".md", ".ipynb")):
            for target in links(relative):
                joined = (Path(relative).parent / target.split("#")[0]).as_posix()
                if posixpath.normpath(joined) not in names:
                    outside.append(f"{relative} -> {target}")
    assert "notebooks/05_prototyping_a_capability.ipynb" in names
    assert outside == []
