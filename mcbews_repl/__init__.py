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

__version__ = "0.1.0"

__all__ = [
    "CapabilityError",
    "CommandFailed",
    "ConnectionClosed",
    "FrameTooLarge",
    "McbewsError",
    "NotConnected",
    "RequestTimeout",
    "__version__",
]
