"""The game's side of the wire: the JSON frames Minecraft Bedrock sends (PROTOCOL.md §1).

Written from the protocol notes, not from the bridge's codec, so a misreading on one side
shows up as a failing test instead of agreeing with itself.
"""

from __future__ import annotations

import json
from typing import Any

from ..sansio.wire import COMMAND_LINE_BUDGET_BYTES, MAX_IN_FLIGHT_COMMANDS
from ..sansio.wire import COMMAND_SYNTAX_VERSION as MODERN_VERSION
from .model import ChatLine

__all__ = [
    "COMMAND_LINE_BUDGET_BYTES",
    "MALFORMED_REQUEST",
    "MAX_IN_FLIGHT_COMMANDS",
    "MODERN_VERSION",
    "TOO_MANY_PENDING",
    "TOO_MANY_PENDING_MESSAGE",
    "chat_event",
    "command_response",
    "encrypt_response",
    "error_frame",
]

# The limits (in-flight window, command-line bytes) come from wire.json, the one source of
# truth; the status codes below are the game's own (PROTOCOL.md, "Status codes").
TOO_MANY_PENDING = -2147418109
TOO_MANY_PENDING_MESSAGE = "Too many commands have been requested, wait for one to be done"
MALFORMED_REQUEST = -2147418111
_LEGACY_EVENT_REQUEST_ID = "00000000-0000-0000-0000-000000000000"


def _dump(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def command_response(request_id: str, body: dict[str, Any]) -> str:
    header = {"messagePurpose": "commandResponse", "requestId": request_id, "version": 1}
    return _dump({"body": body, "header": header})


def encrypt_response(request_id: str, public_key: str) -> str:
    """The game's answer to ``ws:encrypt``: its own public key (sent before it switches)."""
    header = {"messagePurpose": "ws:encrypt", "requestId": request_id, "version": 1}
    return _dump({"body": {"publicKey": public_key}, "header": header})


def error_frame(request_id: str, status_code: int, message: str) -> str:
    header = {"messagePurpose": "error", "requestId": request_id, "version": 1}
    return _dump({"body": {"statusCode": status_code, "statusMessage": message}, "header": header})


def chat_event(line: ChatLine, *, legacy: bool = False) -> str:
    """A PlayerMessage event in the modern shape (or the legacy ``properties`` shape)."""
    if legacy:
        properties = {
            "Message": line.message,
            "MessageType": line.type,
            "Sender": line.sender,
            "Receiver": line.receiver,
        }
        header = {
            "messagePurpose": "event",
            "requestId": _LEGACY_EVENT_REQUEST_ID,
            "version": 1,
        }
        body = {"eventName": "PlayerMessage", "measurements": None, "properties": properties}
        return _dump({"body": body, "header": header})
    body = {
        "message": line.message,
        "receiver": line.receiver,
        "sender": line.sender,
        "type": line.type,
    }
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": MODERN_VERSION}
    return _dump({"body": body, "header": header})
