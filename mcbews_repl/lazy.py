"""Names a package's face resolves on first use (PEP 562), so importing the package does not
import its heavy parts: the top-level names that need the gateway, the toolkit's region
(numpy), the capture's replay (the simulated world's client).

    __getattr__, __dir__ = lazy_names(__name__, {"BlockRegion": ".region"})

Each lazy name is also imported under ``if TYPE_CHECKING:`` beside it, for type checkers.
Standard library only.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, names: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: each of ``names`` (name to the
    module that defines it, relative to ``package``) is imported when first looked up and
    then kept in the package, so later lookups do not come back here.

    The returned ``__getattr__`` raises ``AttributeError`` for any other name.
    """

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__
