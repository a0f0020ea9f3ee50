"""mcbews_repl: a notebook- and REPL-first scripting environment for Minecraft Bedrock."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .exceptions import (
    AddressInUse,
    BridgeStopped,
    CallInterrupted,
    CapabilityError,
    CommandFailed,
    CommandQueueFull,
    FrameTooLarge,
    GameDisconnected,
    InvalidArgument,
    McbewsError,
    NotConnected,
    NothingToUndo,
    RequestTimeout,
    WhichWorld,
)
from .lazy import lazy_names

if TYPE_CHECKING:  # what the names below resolve to, for type checkers and editors
    from .gateway import Bridge, CommandResult, GameConnection, LogEntry, Settings, UiChat, serve
    from .repl.handle import start
    from .version import __version__

# A light face: these names load their modules on first use (PEP 562), so importing a part
# of the package (``mcbews_repl.sansio``, the protocol core) loads no asyncio, websockets,
# QuickJS or simulated world, and ``%load_ext`` pays only for what the extension needs.
_LAZY = {
    "Bridge": ".gateway",
    "CommandResult": ".gateway",
    "GameConnection": ".gateway",
    "LogEntry": ".gateway",
    "Settings": ".gateway",
    "UiChat": ".gateway",
    "serve": ".gateway",
    "start": ".repl.handle",  # scripts: the notebook's mc handle on a thread of its own
    "__version__": ".version",
}

__all__ = [
    "AddressInUse",
    "Bridge",
    "BridgeStopped",
    "CallInterrupted",
    "CapabilityError",
    "CommandFailed",
    "CommandQueueFull",
    "CommandResult",
    "FrameTooLarge",
    "GameConnection",
    "GameDisconnected",
    "InvalidArgument",
    "LogEntry",
    "McbewsError",
    "NotConnected",
    "NothingToUndo",
    "RequestTimeout",
    "Settings",
    "UiChat",
    "WhichWorld",
    "__version__",
    "serve",
    "start",
]


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext mcbews_repl``: start the bridge and add ``mc`` and ``%mc``."""
    from .repl.ipython import load

    load(ipython)


def unload_ipython_extension(ipython: object) -> None:
    """``%unload_ext mcbews_repl``: stop the bridge and remove everything it added."""
    from .repl.ipython import unload

    unload(ipython)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
