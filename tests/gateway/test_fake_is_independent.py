"""The fake game must not share the bridge codec it tests (docs/architecture.md, the layers)."""

from __future__ import annotations

import ast
from pathlib import Path


def test_fake_game_imports_nothing_from_mcbews_repl() -> None:
    tree = ast.parse((Path(__file__).parent / "fakegame.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported, "the walk found no imports at all: the test itself is broken"
    assert not {name for name in imported if name.startswith(("mcbews_repl", "."))}
