"""mcbews_repl: a notebook- and REPL-first scripting environment for Minecraft Bedrock."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .exceptions import (
    AddressInUse,
    BridgeStopped,
    CapabilityError,
    CommandFailed,
    CommandQueueFull,
    ConnectionClosed,
    FrameTooLarge,
    McbewsError,
    NotConnected,
    RequestTimeout,
)
from .gateway import Bridge, CommandResult, GameConnection, LogEntry, Settings, UiChat, serve

if TYPE_CHECKING:
    from .gateway.settings import EncryptPolicy
    from .repl.handle import Minecraft

__version__ = "0.1.0"

__all__ = [
    "AddressInUse",
    "Bridge",
    "BridgeStopped",
    "CapabilityError",
    "CommandFailed",
    "CommandQueueFull",
    "CommandResult",
    "ConnectionClosed",
    "FrameTooLarge",
    "GameConnection",
    "LogEntry",
    "McbewsError",
    "NotConnected",
    "RequestTimeout",
    "Settings",
    "UiChat",
    "__version__",
    "serve",
    "start",
]


def start(
    host: str = "127.0.0.1",
    port: int = 19131,
    token: str | None = "auto",
    *,
    encrypt: EncryptPolicy = "auto",
    **options: Any,
) -> Minecraft:
    """A bridge on its own thread for plain scripts: the same ``mc`` a notebook has.

    Every call returns a Pending: ``.result()`` waits for it, ``await`` works inside
    ``asyncio.run``. Use it as a context manager (``with mcbews_repl.start(port=0) as mc:``)
    or call ``mc.close()``. A busy port raises :class:`AddressInUse` saying what to do.
    Needs the ``repl`` extra (pandas, rich) for DataFrames and cards.
    """
    from .repl.launch import start as start_bridge

    return start_bridge(host, port, token, encrypt=encrypt, **options)


def load_ipython_extension(ipython: object) -> None:
    """``%load_ext mcbews_repl``: start the bridge and add ``mc`` and ``%mc``."""
    from .repl.extension import load

    load(ipython)


def unload_ipython_extension(ipython: object) -> None:
    """``%unload_ext mcbews_repl``: stop the bridge and remove everything it added."""
    from .repl.extension import unload

    unload(ipython)
