"""Optional libraries, imported where a feature first needs them.

The base install (``pip install mcbews-repl``) brings only what the bridge and the simulated
world need; DataFrames, renderings, charts, widgets and JupyterLab come with the ``repl`` and
``lab`` extras. Every import of such a library goes through :func:`needs`, so a missing one
is a :class:`~mcbews_repl.exceptions.MissingDependency` that says which extra to install,
not a bare ``ModuleNotFoundError`` (tests/test_optional.py checks that no import escapes).
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterator

from .exceptions import MissingDependency

__all__ = ["EXTRA_OF", "needs", "require"]

# The extra of pyproject.toml that brings each optional library (by its import name).
# numpy comes with pandas, traitlets with IPython, ipywidgets with anywidget, uvicorn (the
# HTTP server of mcbews-repl mcp --http) with mcp.
EXTRA_OF: dict[str, str] = {
    "IPython": "repl",
    "ipykernel": "repl",
    "numpy": "repl",
    "pandas": "repl",
    "rich": "repl",
    "traitlets": "repl",
    "anywidget": "lab",
    "ipywidgets": "lab",
    "jupyterlab": "lab",
    "matplotlib": "lab",
    "mcp": "mcp",
    "uvicorn": "mcp",
}


@contextlib.contextmanager
def needs(needed_for: str | None = None) -> Iterator[None]:
    """Imports inside this block that fail for a missing optional library raise
    :class:`MissingDependency` naming its extra (``needed_for``: what the user called).

    Raises:
        MissingDependency: an import in the block found no optional library it needs.
    """
    try:
        yield
    except MissingDependency as exc:
        if needed_for is None:
            raise
        # Explained further in: the outermost block is closest to what the user called.
        raise MissingDependency(exc.module, exc.extra, needed_for) from exc.__cause__
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing not in EXTRA_OF:
            raise  # not an optional library: a broken install, not ours to explain
        raise MissingDependency(missing, EXTRA_OF[missing], needed_for) from exc


def require(module: str, needed_for: str) -> None:
    """Check that ``module`` can be imported, without importing it.

    Raises:
        MissingDependency: it is not installed.
    """
    if importlib.util.find_spec(module) is None:
        raise MissingDependency(module, EXTRA_OF[module], needed_for)
