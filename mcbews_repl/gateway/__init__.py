"""The live half of the bridge: an asyncio WebSocket server the game connects to.

async with mcbews_repl.serve(port=0) as mc:
    print(mc.connect_command)
    await mc.wait_connected(timeout=60)
    result = await mc.command("say hi")
"""

from __future__ import annotations

from .connection import GameConnection
from .eventlog import EventLog, LogEntry
from .results import CommandResult, TextSender, UiChat
from .server import Bridge, UiChatCallback, serve
from .settings import Settings

__all__ = [
    "Bridge",
    "CommandResult",
    "EventLog",
    "GameConnection",
    "LogEntry",
    "Settings",
    "TextSender",
    "UiChat",
    "UiChatCallback",
    "serve",
]
