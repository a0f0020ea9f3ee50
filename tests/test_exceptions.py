"""One root: every exception the package defines derives from McbewsError and is listed
in the tree of mcbews_repl/exceptions.py."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import mcbews_repl
from mcbews_repl import exceptions
from mcbews_repl.exceptions import McbewsError

# Importing __main__ would run the command line.
_SKIPPED = {"mcbews_repl.__main__"}


def defined_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(mcbews_repl.__path__, "mcbews_repl."):
        if info.name in _SKIPPED:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and not name.startswith("_")  # private control flow, never leaves its module
            ):
                found[f"{info.name}.{name}"] = value
    return found


def test_every_public_exception_is_a_mcbews_error() -> None:
    found = defined_exceptions()
    assert "mcbews_repl.exceptions.ChunkError" in found  # the walk sees the package
    outside = [name for name, cls in found.items() if not issubclass(cls, McbewsError)]
    # The one exception outside the tree: an interrupt that `except Exception` must not catch.
    assert outside == ["mcbews_repl.exceptions.CallInterrupted"]
    assert issubclass(exceptions.CallInterrupted, KeyboardInterrupt)
    assert not issubclass(exceptions.CallInterrupted, Exception)


def test_the_exceptions_tree_names_each_of_them() -> None:
    tree = exceptions.__doc__ or ""
    missing = [name for name, cls in defined_exceptions().items() if cls.__name__ not in tree]
    assert missing == []


@pytest.mark.parametrize(
    ("where", "name"),
    [
        ("mcbews_repl.sansio", "ChunkError"),
        ("mcbews_repl.sansio.chunks", "ChunkError"),
        ("mcbews_repl.gateway.encryption", "EncryptionError"),
    ],
)
def test_the_old_import_paths_give_the_one_class(where: str, name: str) -> None:
    assert getattr(importlib.import_module(where), name) is getattr(exceptions, name)
