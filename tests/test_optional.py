"""A missing optional library is a MissingDependency that names the extra to install.

Every import of pandas, rich, IPython, numpy, matplotlib or the widget stack that a user can
reach goes through ``mcbews_repl.optional.needs`` (checked on the source here), and a script
without pandas is told what to install (a subprocess in which importing pandas fails).
tests/packaging/test_base_install.py does the same in a real base install.
"""

from __future__ import annotations

import ast
import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from mcbews_repl.exceptions import McbewsError, MissingDependency
from mcbews_repl.optional import EXTRA_OF, needs, require

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "mcbews_repl"

# The distribution behind each import name, and for those the extras bring indirectly,
# the distribution of the extra that requires them.
DISTRIBUTION = {"IPython": "ipython", "ipykernel": "ipykernel", "pandas": "pandas",
                "rich": "rich", "anywidget": "anywidget", "jupyterlab": "jupyterlab",
                "matplotlib": "matplotlib", "mcp": "mcp"}  # fmt: skip
BROUGHT_BY = {"numpy": "pandas", "traitlets": "ipython", "ipywidgets": "anywidget",
              "uvicorn": "mcp"}  # fmt: skip


def _optional(node: ast.Import | ast.ImportFrom, optional_modules: set[str]) -> bool:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif node.level:  # a relative import: of a module of the package
        return False
    else:
        names = [node.module or ""]
    return any(name.partition(".")[0] in EXTRA_OF or name in optional_modules for name in names)


def _relative_targets(path: Path, node: ast.ImportFrom) -> set[str]:
    """The package modules a relative ``from ... import`` reaches (the module and names)."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    base = parts[: len(parts) - node.level + (path.name == "__init__.py")]
    module = ".".join([*base, *(node.module.split(".") if node.module else [])])
    return {module, *(f"{module}.{alias.name}" for alias in node.names)}


def _guarded(tree: ast.Module) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING``, ``with needs(...)`` or a ``try`` that
    handles ImportError (a fallback is its own clear answer)."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        covered: list[ast.AST] = []
        type_checking = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        with_needs = isinstance(node, ast.With) and any(
            "needs(" in ast.unparse(item.context_expr) for item in node.items
        )
        falls_back = isinstance(node, ast.Try) and any(
            h.type is not None and "ImportError" in ast.unparse(h.type) for h in node.handlers
        )
        if type_checking or with_needs or falls_back:
            covered = list(node.body)  # type: ignore[attr-defined]
        for child in covered:
            guarded.update(id(n) for n in ast.walk(child))
    return guarded


def _modules_needing_optional_libraries() -> set[str]:
    """Package modules that import an optional library when they load (not IPython's own
    modules: those are loaded only by ``%load_ext``, which needs IPython anyway)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom) and _optional(node, set()):
                names = ast.unparse(node)
                if "IPython" not in names and "traitlets" not in names:
                    found.add(".".join(path.relative_to(REPO).with_suffix("").parts))
    return found


def unguarded_imports() -> list[str]:
    heavy = _modules_needing_optional_libraries()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = _guarded(tree)
        top_level = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in top_level:
                continue
            lazy_heavy = isinstance(node, ast.ImportFrom) and node.level and (
                _relative_targets(path, node) & heavy
            )  # fmt: skip
            if (_optional(node, heavy) or lazy_heavy) and id(node) not in guarded:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_every_lazy_import_of_an_optional_library_goes_through_needs() -> None:
    assert "mcbews_repl.toolkit.region" in _modules_needing_optional_libraries()  # numpy
    assert unguarded_imports() == []


def test_each_optional_library_comes_with_the_extra_named_for_it() -> None:
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]

    def names(extra: str) -> set[str]:
        return {req.split("[")[0].split(">")[0].split("=")[0].strip() for req in extras[extra]}

    for module, extra in EXTRA_OF.items():
        if module in DISTRIBUTION:
            assert DISTRIBUTION[module] in names(extra), (module, extra)
        else:
            parent = BROUGHT_BY[module]
            assert parent in names(extra) or parent in names("repl"), (module, extra)
            required = importlib.metadata.requires(parent) or []
            assert any(r.lower().startswith(module.lower()) for r in required), module


def test_needs_explains_a_missing_optional_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # importing it now fails
    with pytest.raises(MissingDependency) as caught, needs("mc.blocks(...).plot()"):
        import matplotlib  # noqa: F401
    error = caught.value
    assert isinstance(error, McbewsError) and isinstance(error, ImportError)
    assert (error.module, error.extra, error.name) == ("matplotlib", "lab", "matplotlib")
    assert str(error) == (
        "mc.blocks(...).plot() needs matplotlib, which is not installed; it comes with the lab "
        'extra: python -m pip install "mcbews-repl[lab]"'
    )


def test_a_library_that_is_not_optional_keeps_its_own_error() -> None:
    with pytest.raises(ModuleNotFoundError) as caught, needs():
        import mcbews_missing_for_the_test  # type: ignore[import-not-found]  # noqa: F401
    assert not isinstance(caught.value, MissingDependency)


def test_require_checks_without_importing(monkeypatch: pytest.MonkeyPatch) -> None:
    require("pandas", "this")  # installed here: nothing happens
    monkeypatch.setitem(sys.modules, "jupyterlab", None)
    with pytest.raises(MissingDependency, match=r'needs jupyterlab.*"mcbews-repl\[lab\]"'):
        require("jupyterlab", "mcbews-repl lab")


SCRIPT = """
import sys
sys.modules["pandas"] = None  # importing pandas now fails, as in a base install
import mcbews_repl
with mcbews_repl.start(port=0) as mc:
    mc.simulate().result(60)
    print("player:", mc.player("Steve").result(60).name)
    try:
        mc.inventory().result(60)
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}")
"""


def test_a_script_without_pandas_is_told_which_extra_to_install(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "player: Steve"  # what needs no pandas works
    assert lines[1] == (
        "MissingDependency: pandas is needed here, which is not installed; it comes with the "
        'repl extra: python -m pip install "mcbews-repl[repl]"'
    )
