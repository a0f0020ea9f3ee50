"""The ipython wing: the extension (``%load_ext mcbews_repl``), its settings, the ``%mc``
magics, Tab completion, the display formatters and the usage table. It sits on top of the
``handle`` and ``show`` wings. These names are its API; its modules are private."""

from __future__ import annotations

from ._config import McbewsRepl
from ._extension import load, unload
from ._magics import McMagics

__all__ = ["McMagics", "McbewsRepl", "load", "unload"]
