"""The live half of the bridge: an asyncio WebSocket server the game connects to.

async with mcbews_repl.serve(port=0) as mc:
    print(mc.connect_command)
    await mc.wait_connected(timeout=60)
    result = await mc.command("say hi")
"""

from __future__ import annotations

from .connection import GameConnection
from .delivery import Progress
from .eventlog import EventLog, LogEntry
from .game_calls import GameCalls, check_command, check_send_text, same_call
from .observer import Direction, Outcome, command_reply, failure
from .results import CommandResult, TextSender, UiChat
from .scope import CallScope, run_in_scope
from .server import Bridge, UiChatCallback, serve
from .settings import EncryptPolicy, Settings
from .subscriptions import SubscriptionBook, check_event_name, check_rate
from .transport import describe_transport

__all__ = [
    "Bridge",
    "CallScope",
    "CommandResult",
    "Direction",
    "EncryptPolicy",
    "EventLog",
    "GameCalls",
    "GameConnection",
    "LogEntry",
    "Outcome",
    "Progress",
    "Settings",
    "SubscriptionBook",
    "TextSender",
    "UiChat",
    "UiChatCallback",
    "check_command",
    "check_event_name",
    "check_rate",
    "check_send_text",
    "command_reply",
    "describe_transport",
    "failure",
    "run_in_scope",
    "same_call",
    "serve",
]
