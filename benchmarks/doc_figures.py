"""How well the package documents itself, per package: a table (docs/architecture.md).

Columns: ``Raises:`` sections; public definitions (functions, classes and methods not
named ``_...``, in every module) and the share with a docstring; exported definitions
(what ``tests/test_docstrings.py`` walks: ``__all__`` names and their classes' public
methods) and the share with a docstring. Run from the checkout:
``python benchmarks/doc_figures.py``.
"""

from __future__ import annotations

import ast
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mcbews_repl"
Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _package(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else "(top)"


def _public(body: list[ast.stmt]) -> list[Definition]:
    found: list[Definition] = []
    for node in body:
        if isinstance(node, Definition) and not node.name.startswith("_"):
            found.append(node)
            if isinstance(node, ast.ClassDef):
                found.extend(_public(node.body))
    return found


def source_figures() -> dict[str, tuple[int, int, int]]:
    """package -> (Raises: sections, public definitions, those with a docstring)."""
    raises: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    documented: collections.Counter[str] = collections.Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        package = _package(path)
        raises[package] += sum(line.strip() == "Raises:" for line in text.splitlines())
        for node in _public(ast.parse(text).body):
            total[package] += 1
            documented[package] += ast.get_docstring(node) is not None
    return {name: (raises[name], total[name], documented[name]) for name in sorted(total)}


def exported_figures() -> dict[str, tuple[int, int]]:
    """package -> (exported definitions, those with a docstring), as the test reads them."""
    sys.path.insert(0, str(ROOT))
    from tests.test_docstrings import docstring, exported_definitions

    total: collections.Counter[str] = collections.Counter()
    documented: collections.Counter[str] = collections.Counter()
    for key, value in exported_definitions().items():
        parts = key[0].split(".")
        package = parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else "(top)"
        total[package] += 1
        documented[package] += bool(docstring(key, value))
    return {name: (total[name], documented[name]) for name in total}


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def main() -> None:
    """Print the table."""
    source, exported = source_figures(), exported_figures()
    print("| package | Raises: | public defs | with docstring | exported | with docstring |")
    print("|---|---:|---:|---:|---:|---:|")
    sums = [0, 0, 0, 0, 0]
    for name, (raises, total, documented) in source.items():
        out_total, out_documented = exported.get(name, (0, 0))
        row = (raises, total, documented, out_total, out_documented)
        sums = [a + b for a, b in zip(sums, row, strict=True)]
        print(
            f"| {name} | {raises} | {total} | {_share(documented, total)} "
            f"| {out_total} | {_share(out_documented, out_total)} |"
        )
    raises, total, documented, out_total, out_documented = sums
    print(
        f"| all | {raises} | {total} | {_share(documented, total)} "
        f"| {out_total} | {_share(out_documented, out_total)} |"
    )


if __name__ == "__main__":
    main()
