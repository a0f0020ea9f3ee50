"""The toolkit sits above the gateway and below the REPL (docs/architecture.md, the layers)."""

from __future__ import annotations

import ast
from pathlib import Path

TOOLKIT = Path(__file__).resolve().parents[2] / "mcbews_repl" / "toolkit"
HEAVY = {"IPython", "ipykernel", "pandas", "rich", "matplotlib"}


def module_level_imports(path: Path) -> set[str]:
    """Imports that run when the module loads (not those inside functions or TYPE_CHECKING)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    return names


def test_no_heavy_or_upward_imports_at_module_level() -> None:
    files = list(TOOLKIT.glob("*.py"))
    assert len(files) > 5
    for path in files:
        names = module_level_imports(path)
        heavy = {n for n in names if n.split(".")[0] in HEAVY}
        upward = {n for n in names if n.startswith(("..repl", "..sim", "mcbews_repl.repl"))}
        assert not heavy and not upward, f"{path.name}: {heavy | upward}"


def test_the_checker_sees_imports() -> None:
    assert "..gateway" in module_level_imports(TOOLKIT / "world.py")
