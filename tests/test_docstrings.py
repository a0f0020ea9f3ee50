"""Every exported name has a docstring, and every exported function that raises says so.

"Exported" is what a user meets through ``help()`` or ``?``: the names in a package's
``__all__`` (a module without one: its public names), and the public methods of exported
classes, inherited ones included (the toolkit's mixins are read through ``mc``). A
function whose own body raises an exception class (``raise Name(...)``; a bare ``raise``
re-raises and is not counted) needs a ``Raises:`` section naming that class.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pathlib
import pkgutil
import types
from collections.abc import Iterator
from typing import Any

import pytest

# The packages and public modules whose exports are checked.
PACKAGES = (
    "mcbews_repl",
    "mcbews_repl.addon",
    "mcbews_repl.bundled",
    "mcbews_repl.capture",
    "mcbews_repl.cleantext",
    "mcbews_repl.cli",
    "mcbews_repl.doctor",
    "mcbews_repl.exceptions",
    "mcbews_repl.game_events",
    "mcbews_repl.gameids",
    "mcbews_repl.gametext",
    "mcbews_repl.gateway",
    "mcbews_repl.lab",
    "mcbews_repl.lazy",
    "mcbews_repl.limits",
    "mcbews_repl.mcpi",
    "mcbews_repl.mcpserver",
    "mcbews_repl.optional",
    "mcbews_repl.repl",
    "mcbews_repl.sansio",
    "mcbews_repl.sim",
    "mcbews_repl.testing",
    "mcbews_repl.toolkit",
    "mcbews_repl.userdirs",
    "mcbews_repl.version",
    "mcbews_repl.vocabulary",
)
# Packages whose exports are not checked yet (none: every package is).
NOT_YET: set[str] = set()


def _excluded(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in NOT_YET)


def _exported_names(module: types.ModuleType) -> list[str]:
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
    ]


def _unwrap(value: Any) -> Any:
    if isinstance(value, property):
        return value.fget
    if isinstance(value, (classmethod, staticmethod)):
        return value.__func__
    return inspect.unwrap(value) if callable(value) else value


def _is_definition(value: Any) -> bool:
    return inspect.isclass(value) or inspect.isfunction(value)


def _methods(cls: type) -> Iterator[tuple[str, Any]]:
    """Public methods a user reaches on ``cls``: its own and its project bases'."""
    seen: set[str] = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("mcbews_repl"):
            continue
        for name, value in vars(klass).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            function = _unwrap(value)
            if inspect.isfunction(function):
                yield f"{klass.__qualname__}.{name}", function


def checked_modules() -> Iterator[types.ModuleType]:
    """Each module of PACKAGES, and below each package its public subpackages (a wing's
    ``__init__`` is its API); the top package's subpackages are in PACKAGES themselves."""
    pending = [name for name in PACKAGES if not _excluded(name)]
    while pending:
        module = importlib.import_module(pending.pop(0))
        yield module
        if hasattr(module, "__path__") and module.__name__ != "mcbews_repl":
            pending += [
                f"{module.__name__}.{info.name}"
                for info in pkgutil.iter_modules(module.__path__)
                if info.ispkg
                and not info.name.startswith("_")
                and not _excluded(f"{module.__name__}.{info.name}")
            ]


def exported_definitions() -> dict[tuple[str, str], Any]:
    """(module, qualname) -> function or class, for every exported definition."""
    found: dict[tuple[str, str], Any] = {}
    for module in checked_modules():
        for name in _exported_names(module):
            value = _unwrap(getattr(module, name))
            if not _is_definition(value) or _excluded(value.__module__):
                continue
            found[(value.__module__, value.__qualname__)] = value
            if inspect.isclass(value) and not issubclass(value, BaseException):
                for qualname, method in _methods(value):
                    if not _excluded(method.__module__):
                        found[(method.__module__, qualname)] = method
    return found


@functools.cache
def _tree(module: str) -> ast.Module:
    source = inspect.getsourcefile(importlib.import_module(module))
    assert source is not None
    return ast.parse(pathlib.Path(source).read_text(encoding="utf-8"))


Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _find(body: list[ast.stmt], path: list[str]) -> Definition | None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == path[0]:
                return node if len(path) == 1 else _find(node.body, path[1:])
        elif isinstance(node, (ast.If, ast.Try)):
            inner = _find(node.body + node.orelse, path)
            if inner is not None:
                return inner
    return None


def definition_node(module: str, qualname: str) -> Definition:
    """The ``def`` or ``class`` statement of ``module``'s ``qualname``."""
    node = _find(_tree(module).body, qualname.split("."))
    assert node is not None, f"{module}.{qualname} not found in its source"
    return node


def _own_statements(node: ast.AST) -> Iterator[ast.AST]:
    """The function's statements, without those of functions or classes defined in it."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield child
        yield from _own_statements(child)


def raised_classes(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names of the exception classes ``raise`` statements in ``node``'s own body name."""
    names: set[str] = set()
    for child in _own_statements(node):
        if not isinstance(child, ast.Raise) or child.exc is None:
            continue
        target = child.exc.func if isinstance(child.exc, ast.Call) else child.exc
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name[:1].isupper() and not name.isupper():
            names.add(name)
    return names


def raises_section(docstring: str) -> str:
    """The text of a Google-style ``Raises:`` section ("" when there is none)."""
    lines = docstring.splitlines()
    for index, line in enumerate(lines):
        if line.strip() == "Raises:":
            indent = len(line) - len(line.lstrip())
            section = []
            for following in lines[index + 1 :]:
                if following.strip() and len(following) - len(following.lstrip()) <= indent:
                    break
                section.append(following)
            return "\n".join(section)
    return ""


def docstring(key: tuple[str, str], value: Any) -> str | None:
    """What ``help()`` shows as written for the definition: a function's ``__doc__`` (a
    decorator may give it one), a class's own docstring (not a dataclass's made-up one)."""
    if inspect.isfunction(value):
        return inspect.cleandoc(value.__doc__) if value.__doc__ else None
    return ast.get_docstring(definition_node(*key))


def _label(key: tuple[str, str]) -> str:
    return f"{key[0]}.{key[1]}"


def test_the_walk_finds_the_toolkit_mixins_methods() -> None:
    found = exported_definitions()
    assert ("mcbews_repl.toolkit.tool_bodies", "ToolBodies.tool_players") in found  # inherited
    assert ("mcbews_repl.toolkit.world", "WorldQueries.item_count") in found
    assert not any(_excluded(module) for module, _ in found)


def test_every_exported_name_has_a_docstring() -> None:
    missing = [
        _label(key) for key, value in exported_definitions().items() if not docstring(key, value)
    ]
    assert not missing, "no docstring:\n  " + "\n  ".join(sorted(missing))


def test_every_exported_function_names_what_it_raises() -> None:
    unnamed = []
    for key, value in exported_definitions().items():
        node = definition_node(*key)
        if isinstance(node, ast.ClassDef):
            continue
        section = raises_section(docstring(key, value) or "")
        absent = sorted(name for name in raised_classes(node) if name not in section)
        if absent:
            unnamed.append(f"{_label(key)}: {', '.join(absent)}")
    assert not unnamed, "raises without a Raises: entry:\n  " + "\n  ".join(sorted(unnamed))


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f():\n    raise ValueError('x')", {"ValueError"}),
        ("def f():\n    raise errors.NotConnected from None", {"NotConnected"}),
        ("def f():\n    try:\n        pass\n    except OSError:\n        raise", set()),
        ("def f():\n    def g():\n        raise KeyError\n    return g", set()),
        ("def f(exc):\n    raise exc", set()),
    ],
)
def test_raised_classes_reads_raise_statements(source: str, expected: set[str]) -> None:
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    assert raised_classes(node) == expected


def test_raises_section_ends_at_the_next_section() -> None:
    doc = "Do it.\n\nRaises:\n    ValueError: bad.\n\nReturns:\n    KeyError text"
    assert "ValueError" in raises_section(doc)
    assert "KeyError" not in raises_section(doc)


def test_every_public_module_and_package_is_in_the_list() -> None:
    top = importlib.import_module("mcbews_repl")
    public = {
        f"mcbews_repl.{info.name}"
        for info in pkgutil.iter_modules(top.__path__)
        if not info.name.startswith("_")
    }
    assert public - set(PACKAGES) == set()
