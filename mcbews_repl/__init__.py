"""mcbews_repl: a notebook- and REPL-first scripting environment for Minecraft Bedrock."""

from __future__ import annotations

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
    RequestTimeout,
    WhichWorld,
)
from .gateway import Bridge, CommandResult, GameConnection, LogEntry, Settings, UiChat, serve
from .repl.launch import start  # scripts: the notebook's mc handle on a thread of its own
from .version import __version__

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
    from .repl.extension import load

    load(ipython)


def unload_ipython_extension(ipython: object) -> None:
    """``%unload_ext mcbews_repl``: stop the bridge and remove everything it added."""
    from .repl.extension import unload

    unload(ipython)
