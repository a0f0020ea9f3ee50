"""The installed package's version, read from its metadata (pyproject.toml is the one source)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]

try:
    __version__ = version("mcbews-repl")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
