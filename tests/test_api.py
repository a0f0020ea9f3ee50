"""Each package's API is what docs/architecture.md ("The API") lists, no more, no less;
the version is the installed package's."""

from __future__ import annotations

import importlib
import importlib.metadata
import re
from pathlib import Path

import pytest

import mcbews_repl

DOC = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def documented() -> dict[str, set[str]]:
    text = DOC.read_text(encoding="utf-8").split("## The API", 1)[1].split("\n## ", 1)[0]
    sections = re.split(r"^### `([\w.]+)`$", text, flags=re.M)[1:]
    return {
        package: set(re.findall(r"`(\w+)`", body))
        for package, body in zip(sections[::2], sections[1::2], strict=True)
    }


def test_the_doc_lists_every_package_with_an_api() -> None:
    assert set(documented()) == {
        "mcbews_repl",
        "mcbews_repl.gateway",
        "mcbews_repl.sansio",
        "mcbews_repl.toolkit",
        "mcbews_repl.sim",
        "mcbews_repl.capture",
        "mcbews_repl.doctor",
        "mcbews_repl.addon",
    }


@pytest.mark.parametrize("package", sorted(documented()))
def test_the_exported_api_is_the_documented_one(package: str) -> None:
    module = importlib.import_module(package)
    exported = set(module.__all__)
    assert exported == documented()[package]
    assert all(hasattr(module, name) for name in exported)


def test_the_version_is_the_installed_metadata() -> None:
    assert mcbews_repl.__version__ == importlib.metadata.version("mcbews-repl")


def test_invalid_argument_is_exported_at_the_top() -> None:
    from mcbews_repl.exceptions import InvalidArgument

    assert mcbews_repl.InvalidArgument is InvalidArgument
