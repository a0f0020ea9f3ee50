"""mcbews_repl: a notebook- and REPL-first scripting environment for Minecraft Bedrock."""

from __future__ import annotations

from .exceptions import (
    CapabilityError,
    CommandFailed,
    ConnectionClosed,
    FrameTooLarge,
    McbewsError,
    NotConnected,
    RequestTimeout,
)
from .gateway import Bridge, CommandResult, GameConnection, LogEntry, Settings, UiChat, serve

__version__ = "0.1.0"

__all__ = [
    "Bridge",
    "CapabilityError",
    "CommandFailed",
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
]
